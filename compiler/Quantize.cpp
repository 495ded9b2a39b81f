//===- Quantize.cpp - tfaot compile --quantize=int8 -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See Quantize.h. Both compilations pick the layers with the same rule on
// the same graph-pass output, so the i-th layer calibrated is the i-th
// layer quantized; its node name is checked to be sure.
//
//===----------------------------------------------------------------------===//
#include "compiler/Quantize.h"

#include "compiler/CalibrationRanges.h"
#include "compiler/Diagnostics.h"
#include "compiler/JitModel.h"
#include "passes/Int8Quantization.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"
#include "tfaot/runtime/thread_pool.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace tfaot;

namespace {

//===----------------------------------------------------------------------===//
// Calibration samples
//===----------------------------------------------------------------------===//

/// The .npy files --calibration names: the file, or a directory's *.npy in
/// name order.
bool calibrationFiles(const std::string &path, std::vector<std::string> &files,
                      std::string &error) {
  if (!llvm::sys::fs::is_directory(path)) {
    if (!llvm::sys::fs::exists(path)) {
      error = "--calibration: '" + path + "' does not exist";
      return false;
    }
    files.push_back(path);
    return true;
  }
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".npy"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    error = "--calibration: no .npy files in '" + path + "'";
    return false;
  }
  return true;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  return "[" + llvm::join(llvm::map_range(shape, [](int64_t d) {
                            return std::to_string(d);
                          }),
                          ", ") +
         "]";
}

/// The calibration samples, each one run's worth of the (only) feed: an
/// array of the feed's shape is one sample, one of [n, rest of the shape]
/// is n / batch of them.
bool loadSamples(const std::string &path, const TensorSignature &feed,
                 std::vector<std::vector<float>> &samples,
                 std::string &error) {
  std::vector<std::string> files;
  if (!calibrationFiles(path, files, error))
    return false;
  uint64_t sampleSize = bufferBytes(feed) / sizeof(float);
  int64_t batch = feed.shape.empty() ? 1 : feed.shape[0];
  for (const std::string &file : files) {
    NpyArray array;
    if (!readNpy(file, array, error)) {
      error = file + ": " + error;
      return false;
    }
    bool sameRest =
        !feed.shape.empty() && array.shape.size() == feed.shape.size() &&
        std::equal(array.shape.begin() + 1, array.shape.end(),
                   feed.shape.begin() + 1) &&
        array.shape[0] % batch == 0 && array.shape[0] > 0;
    if (array.shape != feed.shape && !sameRest) {
      error = file + ": shape " + shapeText(array.shape) +
              " does not fit feed '" + feed.name + "' of shape " +
              shapeText(feed.shape) + " (give that shape, or [n, ...] with n " +
              "a multiple of its first dimension)";
      return false;
    }
    for (uint64_t at = 0; at < array.values.size(); at += sampleSize)
      samples.emplace_back(array.values.begin() + at,
                           array.values.begin() + at + sampleSize);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

/// What the report says about one quantized contraction.
struct Layer {
  std::string name, op;
  float min = 0, max = 0; ///< Calibrated input range.
  mlir::tfaot::ActivationQuantization input;
  float weightScaleMin = 0, weightScaleMax = 0;
  int64_t weights = 0, channels = 0;
};

std::string layerName(mlir::Operation *op, size_t index) {
  return mlir::tfaot::nodeNameOf(op->getLoc())
      .value_or("contraction #" + std::to_string(index));
}

/// How many products each output of a quantizable contraction sums (K:
/// kh * kw * in_channels for a convolution, kh * kw for a depthwise one).
int64_t productsPerOutput(mlir::Operation *op) {
  auto weights = llvm::cast<mlir::ShapedType>(op->getOperand(1).getType());
  if (auto matmul = llvm::dyn_cast<mlir::tfaot::MatMulOp>(op))
    return weights.getDimSize(matmul.getTransposeB() ? 1 : 0);
  if (llvm::isa<mlir::tfaot::DepthwiseConv2dNativeOp>(op))
    return weights.getDimSize(0) * weights.getDimSize(1);
  return weights.getNumElements() / weights.getShape().back();
}

/// The contractions --quantize=int8 makes int8, in program order: all that
/// can be, except the first and the last unless `allLayers` (the first sees
/// raw inputs and the last produces the logits, where 8 bits hurt most),
/// and those summing fewer than `minK` products per output. `all` gets
/// every contraction that can be quantized, in program order.
std::vector<mlir::Operation *>
chooseLayers(mlir::ModuleOp module, bool allLayers, int64_t minK,
             std::vector<mlir::Operation *> &all) {
  all.clear();
  module.walk([&](mlir::Operation *op) {
    if (mlir::tfaot::isQuantizableContraction(op))
      all.push_back(op);
  });
  std::vector<mlir::Operation *> ops = all;
  if (!allLayers) {
    if (ops.size() <= 2)
      return {};
    ops.erase(ops.begin());
    ops.pop_back();
  }
  // Few products per output also means less averaging of the 8-bit
  // rounding: a 3x3 depthwise convolution sums 9, so --quantize_min_k 10
  // keeps those in float when the report shows too large an error.
  llvm::erase_if(ops, [&](mlir::Operation *op) {
    return productsPerOutput(op) < minK;
  });
  return ops;
}

//===----------------------------------------------------------------------===//
// Running models
//===----------------------------------------------------------------------===//

/// Per observed tensor: its range, then (for the percentile and entropy
/// methods) a histogram over it.
struct Observation : ValueHistogram {
  Observation() {
    min = std::numeric_limits<float>::infinity();
    max = -std::numeric_limits<float>::infinity();
  }
};
constexpr size_t kHistogramBins = 4096;

/// Runs `model` on the first `count` samples (all by default);
/// `each(sample index)` reads the results.
template <typename Each>
void runSamples(JitModel &model, const std::vector<std::vector<float>> &samples,
                Each each,
                size_t count = std::numeric_limits<size_t>::max()) {
  for (size_t s = 0; s < std::min(count, samples.size()); ++s) {
    std::memcpy(model.arg(0), samples[s].data(),
                samples[s].size() * sizeof(float));
    model.run();
    each(s);
  }
}

/// The output error of the int8 model against the float one, per result.
struct OutputComparison {
  std::string name;
  double maxError = 0, sumError = 0, maxMagnitude = 0;
  uint64_t count = 0;
  int64_t rows = 0, top1Agree = 0; ///< Classifier-like results (rank >= 1,
                                   ///< last dimension >= 2).
};

size_t argmax(const float *values, int64_t n) {
  return std::max_element(values, values + n) - values;
}

//===----------------------------------------------------------------------===//
// The report
//===----------------------------------------------------------------------===//

struct Report {
  std::string graph, calibration, method;
  double percentile = 0;
  size_t samples = 0, contractions = 0;
  bool allLayers = false;
  int64_t minK = 0;
  std::vector<Layer> layers;
  /// MatMuls kept in float32 whose weights were stored as int8
  /// (--quantize_float_weights), by node name.
  std::vector<std::string> weightsOnly;
  std::vector<OutputComparison> outputs;
  uint64_t floatObjectBytes = 0, int8ObjectBytes = 0;
  /// --target=cuda: the GPU architecture; the float and int8 objects are
  /// then both CUDA builds, and the outputs compared come from the int8
  /// build emulated on the CPU (--gpu_emulate). Empty for the CPU.
  std::string gpuArch;
  bool gpuEmulated = false; ///< The compared outputs are an emulation's.
  size_t compared = 0;      ///< Samples the outputs were compared on.

  uint64_t floatWeightBytes() const {
    uint64_t bytes = 0;
    for (const Layer &layer : layers)
      bytes += 4 * layer.weights;
    return bytes;
  }
  /// int8 weights plus one f32 scale per output channel.
  uint64_t int8WeightBytes() const {
    uint64_t bytes = 0;
    for (const Layer &layer : layers)
      bytes += layer.weights + 4 * layer.channels;
    return bytes;
  }

  void printText(llvm::raw_ostream &os) const;
  void printJson(llvm::raw_ostream &os) const;
  void printSummary(llvm::raw_ostream &os) const;
  /// "32 calibration samples", or "the first 32 of 500 ...".
  std::string comparedText() const;
};

/// At most this many samples are compared through an emulated GPU build:
/// its kernels run as scalar loops, about 0.1-1 s per sample for the
/// bench's conv nets against milliseconds for the CPU build.
constexpr size_t kEmulatedComparedSamples = 32;

/// Four significant digits, as printf's %g.
std::string g4(double value) {
  return llvm::formatv("{0}", llvm::format("%.4g", value)).str();
}

std::string megabytes(uint64_t bytes) {
  return llvm::formatv("{0:F2} MB", bytes / 1e6).str();
}

void Report::printSummary(llvm::raw_ostream &os) const {
  os << graph << ": note: int8: " << layers.size() << " of " << contractions
     << " contractions quantized";
  if (!weightsOnly.empty())
    os << " (" << weightsOnly.size() << " more with int8 weights only)";
  os << "; object " << megabytes(floatObjectBytes)
     << " -> " << megabytes(int8ObjectBytes);
  for (const OutputComparison &out : outputs) {
    os << "; '" << out.name << "' max |error| "
       << g4(out.maxError);
    if (out.rows)
      os << ", top-1 agreement " << out.top1Agree << "/" << out.rows;
  }
  os << " on " << comparedText() << "\n";
}

std::string Report::comparedText() const {
  std::string all = std::to_string(samples) + " calibration sample" +
                    (samples == 1 ? "" : "s");
  return compared < samples
             ? "the first " + std::to_string(compared) + " of " + all
             : all;
}

void Report::printText(llvm::raw_ostream &os) const {
  os << "tfaot int8 quantization report\n"
     << "graph: " << graph << "\n"
     << "calibration: " << samples << " samples from " << calibration
     << ", method " << method;
  if (method == "percentile")
    os << " (" << g4(percentile) << ")";
  os << "\n"
     << "layers: " << layers.size() << " of " << contractions
     << " contractions in int8";
  if (!allLayers)
    os << "; the first and last kept in float (--quantize_all_layers)";
  if (minK > 0)
    os << "; those summing fewer than " << minK
       << " products per output kept in float (--quantize_min_k)";
  os << "\n";
  if (!weightsOnly.empty())
    os << "int8 weights, float32 activations (--quantize_float_weights): "
       << llvm::join(weightsOnly, ", ") << "\n";
  os << "\n";
  os << llvm::formatv("{0,-48} {1,-6} {2,-22} {3,-11} {4,4}  {5}\n", "layer",
                      "op", "input range", "input scale", "zp",
                      "weight scales (per channel)");
  for (const Layer &layer : layers)
    os << llvm::formatv(
        "{0,-48} {1,-6} {2,-22} {3,-11} {4,4}  [{5}, {6}] x {7}\n",
        layer.name, layer.op, "[" + g4(layer.min) + ", " + g4(layer.max) + "]",
        g4(layer.input.scale), layer.input.zeroPoint, g4(layer.weightScaleMin),
        g4(layer.weightScaleMax), layer.channels);
  os << "\nweights of the int8 layers: " << megabytes(floatWeightBytes())
     << " as float32 -> " << megabytes(int8WeightBytes())
     << " as int8 with their scales\n"
     << "object file"
     << (gpuArch.empty() ? "" : " (--target=cuda, " + gpuArch + ")") << ": "
     << megabytes(floatObjectBytes) << " float -> "
     << megabytes(int8ObjectBytes) << " int8\n\n"
     << "outputs, int8 against float on " << comparedText();
  if (gpuEmulated)
    os << " (the int8 build's GPU kernels and GEMMs run on the CPU, "
          "--gpu_emulate, at most "
       << kEmulatedComparedSamples
       << " samples as that is slow; the float outputs are the CPU build's)";
  os << ":\n";
  for (const OutputComparison &out : outputs) {
    os << "  " << out.name << ": max |error| " << g4(out.maxError)
       << ", mean |error| " << g4(out.count ? out.sumError / out.count : 0.0)
       << " (float values up to " << g4(out.maxMagnitude) << ")";
    if (out.rows)
      os << "; top-1 agreement " << out.top1Agree << "/" << out.rows << " ("
         << llvm::formatv("{0:F1}", 100.0 * out.top1Agree / out.rows) << "%)";
    os << "\n";
  }
}

void Report::printJson(llvm::raw_ostream &os) const {
  llvm::json::Array layerArray, outputArray;
  for (const Layer &layer : layers)
    layerArray.push_back(llvm::json::Object{
        {"name", layer.name},
        {"op", layer.op},
        {"input_min", layer.min},
        {"input_max", layer.max},
        {"input_scale", layer.input.scale},
        {"input_zero_point", layer.input.zeroPoint},
        {"weight_scale_min", layer.weightScaleMin},
        {"weight_scale_max", layer.weightScaleMax},
        {"weights", layer.weights},
        {"channels", layer.channels}});
  for (const OutputComparison &out : outputs) {
    llvm::json::Object object{
        {"name", out.name},
        {"max_abs_error", out.maxError},
        {"mean_abs_error", out.count ? out.sumError / out.count : 0.0},
        {"max_abs_float", out.maxMagnitude}};
    if (out.rows) {
      object["top1_rows"] = out.rows;
      object["top1_agree"] = out.top1Agree;
    }
    outputArray.push_back(std::move(object));
  }
  llvm::json::Object root{
      {"graph", graph},
      {"calibration", calibration},
      {"method", method},
      {"samples", static_cast<int64_t>(samples)},
      {"contractions", static_cast<int64_t>(contractions)},
      {"min_k", minK},
      {"layers", std::move(layerArray)},
      {"weights_only_layers", llvm::json::Array(weightsOnly)},
      {"outputs", std::move(outputArray)},
      {"float_weight_bytes", static_cast<int64_t>(floatWeightBytes())},
      {"int8_weight_bytes", static_cast<int64_t>(int8WeightBytes())},
      {"float_object_bytes", static_cast<int64_t>(floatObjectBytes)},
      {"int8_object_bytes", static_cast<int64_t>(int8ObjectBytes)},
      {"target", gpuArch.empty() ? "cpu" : "cuda"},
      {"outputs_emulated", gpuEmulated},
      {"compared_samples", static_cast<int64_t>(compared)}};
  if (!gpuArch.empty())
    root["gpu_arch"] = gpuArch;
  if (method == "percentile")
    root["percentile"] = percentile;
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

//===----------------------------------------------------------------------===//
// The steps
//===----------------------------------------------------------------------===//

bool checkOptions(const CompileOptions &options, GraphDiagnostics &diags) {
  if (options.quantize != "int8") {
    diags.usageError("--quantize takes int8, not '" + options.quantize + "'");
    return false;
  }
  if (options.calibration.empty()) {
    diags.usageError("--quantize=int8 needs --calibration FILE|DIR: .npy "
                     "samples of the input to measure the activations' "
                     "ranges on");
    return false;
  }
  if (options.calibrationMethod != "minmax" &&
      options.calibrationMethod != "percentile" &&
      options.calibrationMethod != "entropy") {
    diags.usageError("--calibration_method must be minmax, percentile or "
                     "entropy, not '" +
                     options.calibrationMethod + "'");
    return false;
  }
  if (!(options.calibrationPercentile > 50 &&
        options.calibrationPercentile <= 100)) {
    diags.usageError("--calibration_percentile must be in (50, 100]");
    return false;
  }
  if (options.quantizeFloatWeights && options.targetKind == "cuda") {
    diags.usageError("--quantize_float_weights works with --target=cpu only: "
                     "the GPU's float32 products are cuBLAS SGEMMs, which "
                     "read float32 weights");
    return false;
  }
  return true;
}

/// `options` for a build the quantizer runs or measures itself: the same
/// graph and flags, writing nothing but `artifacts`.
CompileOptions internalBuild(const CompileOptions &options,
                             CompiledArtifacts &artifacts) {
  CompileOptions build = options;
  build.quantize.clear();
  build.outHeader.clear();
  build.outObject.clear();
  build.outMetadataObject.clear();
  build.emit = EmitStage::Object;
  build.report = CompileOptions::Report::None;
  build.dumpIrAfter.clear();
  build.batchBuckets.clear();
  build.profile = false; // bench --profile times the int8 build only
  build.artifacts = &artifacts;
  build.outputs = nullptr;
  return build;
}

/// Step 1: the float model with the chosen layers' inputs as extra results.
/// Fills `names` with the layers chosen, `observedResult` with the result
/// holding each one's input, `numResults` with the model's own results and
/// `artifacts` with the model.
bool compileObserved(const CompileOptions &options, llvm::raw_ostream &errs,
                     std::vector<std::string> &names,
                     std::vector<size_t> &observedResult, size_t &numResults,
                     size_t &contractions, CompiledArtifacts &artifacts,
                     std::string &error) {
  CompileOptions observed = internalBuild(options, artifacts);
  // Calibration runs here, on the CPU, whatever the target: the ranges of
  // the float activations do not depend on it.
  observed.targetKind = "cpu";
  observed.gpuEmulate = false;
  observed.allowTf32 = false;
  observed.gpuGemm = CompileOptions().gpuGemm;
  observed.afterGraphPasses = [&](mlir::ModuleOp module,
                                  FunctionSignature &signature) {
    std::vector<mlir::Operation *> all;
    std::vector<mlir::Operation *> layers = chooseLayers(
        module, options.quantizeAllLayers, options.quantizeMinK, all);
    contractions = all.size();
    if (layers.empty()) {
      error = "no layer to quantize: the graph has " +
              std::to_string(contractions) +
              " float32 Conv2D/MatMul with constant weights" +
              (options.quantizeAllLayers
                   ? ""
                   : "; the first and last stay in float (give "
                     "--quantize_all_layers to quantize them too)") +
              (options.quantizeMinK > 0
                   ? "; those summing fewer than " +
                         std::to_string(options.quantizeMinK) +
                         " products per output stay in float "
                         "(--quantize_min_k)"
                   : "");
      return false;
    }
    auto function = layers.front()->getParentOfType<mlir::func::FuncOp>();
    mlir::Operation *terminator = function.getBody().back().getTerminator();
    llvm::SmallVector<mlir::Value> results(terminator->getOperands());
    numResults = results.size();
    for (size_t i = 0; i < layers.size(); ++i) {
      mlir::Value input = layers[i]->getOperand(0);
      names.push_back(layerName(layers[i], i));
      // A tensor already returned (several layers read a residual block's
      // input; a layer may read a fetched tensor) is not returned again:
      // bufferization's results-to-out-params does not take a value
      // returned twice.
      auto seen = std::find(results.begin(), results.end(), input);
      observedResult.push_back(seen - results.begin());
      if (seen != results.end())
        continue;
      results.push_back(input);
      TensorSignature observedSig;
      observedSig.name = "calibration_" + std::to_string(i);
      observedSig.node = names.back();
      observedSig.dtype = tensorflow::DT_FLOAT;
      observedSig.shape.assign(
          llvm::cast<mlir::RankedTensorType>(input.getType()).getShape().begin(),
          llvm::cast<mlir::RankedTensorType>(input.getType()).getShape().end());
      signature.results.push_back(observedSig);
    }
    terminator->setOperands(results);
    function.setType(mlir::FunctionType::get(
        function.getContext(), function.getArgumentTypes(),
        mlir::ValueRange(results).getTypes()));
    return true;
  };
  if (compile(observed, errs) != 0) {
    if (error.empty())
      error = "-"; // compile() has reported it
    return false;
  }
  return true;
}

std::vector<size_t> unique(std::vector<size_t> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

/// Step 1's runs: the range over the samples of each result in `observe`
/// (indexed by result), and the float model's own first `numResults`
/// results (for the report).
std::vector<Observation>
calibrate(JitModel &model, size_t numResults,
          const std::vector<size_t> &observe,
          const std::vector<std::vector<float>> &samples, bool histograms,
          std::vector<std::vector<std::vector<char>>> &floatResults) {
  const FunctionSignature &sig = model.signature();
  std::vector<Observation> observed(sig.results.size());
  auto values = [&](size_t result) {
    const float *data = static_cast<const float *>(model.result(result));
    return llvm::ArrayRef<float>(
        data, bufferBytes(sig.results[result]) / sizeof(float));
  };
  floatResults.assign(samples.size(), {});
  runSamples(model, samples, [&](size_t s) {
    for (size_t r = 0; r < numResults; ++r) {
      const char *bytes = static_cast<const char *>(model.result(r));
      floatResults[s].emplace_back(bytes, bytes + bufferBytes(sig.results[r]));
    }
    for (size_t l : observe)
      for (float v : values(l)) {
        observed[l].min = std::min(observed[l].min, v);
        observed[l].max = std::max(observed[l].max, v);
      }
  });
  if (!histograms)
    return observed;
  // A second pass: histograms over the ranges the first pass found.
  for (size_t l : observe)
    observed[l].histogram.assign(kHistogramBins, 0);
  runSamples(model, samples, [&](size_t) {
    for (size_t l : observe)
      for (float v : values(l))
        observed[l].add(v);
  });
  return observed;
}

/// Step 3: the int8 results against the float ones.
std::vector<OutputComparison>
compareOutputs(JitModel &model, const std::vector<std::vector<float>> &samples,
               const std::vector<std::vector<std::vector<char>>> &floatResults,
               size_t count) {
  const FunctionSignature &sig = model.signature();
  std::vector<OutputComparison> outputs(sig.results.size());
  for (size_t r = 0; r < sig.results.size(); ++r)
    outputs[r].name = sig.results[r].name;
  runSamples(model, samples, [&](size_t s) {
    for (size_t r = 0; r < sig.results.size(); ++r) {
      const TensorSignature &result = sig.results[r];
      if (result.dtype != tensorflow::DT_FLOAT)
        continue;
      OutputComparison &out = outputs[r];
      const float *got = static_cast<const float *>(model.result(r));
      const float *want =
          reinterpret_cast<const float *>(floatResults[s][r].data());
      uint64_t n = floatResults[s][r].size() / sizeof(float);
      for (uint64_t i = 0; i < n; ++i) {
        double error = std::fabs(double(got[i]) - want[i]);
        out.maxError = std::max(out.maxError, error);
        out.sumError += error;
        out.maxMagnitude = std::max(out.maxMagnitude, std::fabs(double(want[i])));
      }
      out.count += n;
      int64_t classes = result.shape.empty() ? 0 : result.shape.back();
      if (classes >= 2)
        for (uint64_t row = 0; row + classes <= n; row += classes) {
          ++out.rows;
          out.top1Agree += argmax(got + row, classes) == argmax(want + row, classes);
        }
    }
  }, count);
  return outputs;
}

/// Queues the --quantize_report file (JSON for a .json path) with the
/// compile's outputs, which are written together; "-" prints it now.
void addReport(const Report &report, const std::string &path,
               llvm::raw_ostream &out, OutputFiles &outputs) {
  if (path.empty())
    return;
  if (path == "-") {
    report.printText(out);
    return;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::StringRef(path).ends_with(".json") ? report.printJson(os)
                                           : report.printText(os);
  outputs.add(path, std::move(text));
}

} // namespace

int tfaot::compileQuantized(const CompileOptions &options,
                            llvm::raw_ostream &errs, llvm::raw_ostream &out) {
  GraphDiagnostics diags(options.graph, errs);
  diags.setQuiet(options.verbosity == Verbosity::Quiet);
  if (!checkOptions(options, diags))
    return 1;

  // 1. Calibrate.
  std::vector<std::string> names;
  std::vector<size_t> observedResult;
  size_t numResults = 0, contractions = 0;
  CompiledArtifacts observed;
  std::string error;
  if (!compileObserved(options, errs, names, observedResult, numResults,
                       contractions, observed, error)) {
    if (error != "-")
      diags.error("--quantize=int8: " + error);
    return 1;
  }
  const FunctionSignature &sig = observed.signature;
  if (sig.args.size() != 1 || sig.args[0].dtype != tensorflow::DT_FLOAT) {
    diags.error("--calibration supports graphs with one float32 feed; this "
                "one has " + std::to_string(sig.args.size()) + " feeds");
    return 1;
  }
  std::vector<std::vector<float>> samples;
  if (!loadSamples(options.calibration, sig.args[0], samples, error)) {
    diags.error(error);
    return 1;
  }
  auto model = JitModel::load(observed, ThreadPool::HardwareThreads());
  if (!model) {
    diags.error("cannot run the float model for calibration: " +
                llvm::toString(model.takeError()));
    return 1;
  }
  const std::string &method = options.calibrationMethod;
  std::vector<std::vector<std::vector<char>>> floatResults;
  std::vector<Observation> observations = calibrate(
      **model, numResults, unique(observedResult), samples,
      /*histograms=*/method != "minmax",
      floatResults);
  model->reset();

  // 2. Quantize and compile.
  Report report;
  report.graph = options.graph;
  report.calibration = options.calibration;
  report.method = options.calibrationMethod;
  report.percentile = options.calibrationPercentile;
  report.samples = samples.size();
  report.contractions = contractions;
  report.allLayers = options.quantizeAllLayers;
  report.minK = options.quantizeMinK;
  report.floatObjectBytes = observed.object.size();
  bool cuda = options.targetKind == "cuda";
  if (cuda) {
    // The float object to compare sizes with is the CUDA build's.
    report.gpuArch = options.gpuArch;
    CompiledArtifacts floatCuda;
    if (compile(internalBuild(options, floatCuda), errs) != 0)
      return 1;
    report.floatObjectBytes = floatCuda.object.size();
  }
  CompiledArtifacts local;
  CompileOptions final = options;
  final.quantize.clear();
  // The header and objects are written with the report, once it is made.
  OutputFiles outputs;
  final.outputs = &outputs;
  if (!final.artifacts)
    final.artifacts = &local;
  final.afterGraphPasses = [&](mlir::ModuleOp module, FunctionSignature &) {
    std::vector<mlir::Operation *> all;
    std::vector<mlir::Operation *> layers = chooseLayers(
        module, options.quantizeAllLayers, options.quantizeMinK, all);
    if (layers.size() != names.size()) {
      diags.error("internal error: calibrated " + std::to_string(names.size()) +
                  " layers but found " + std::to_string(layers.size()));
      return false;
    }
    report.layers.clear();
    for (size_t i = 0; i < layers.size(); ++i) {
      mlir::Operation *op = layers[i];
      if (layerName(op, i) != names[i]) {
        diags.error("internal error: layer " + std::to_string(i) + " is '" +
                    layerName(op, i) + "', calibrated as '" + names[i] + "'");
        return false;
      }
      Layer layer;
      layer.name = names[i];
      layer.op = mlir::tfaot::opShortName(op);
      const Observation &seen = observations[observedResult[i]];
      if (!std::isfinite(seen.min) || !std::isfinite(seen.max)) {
        diags.error("--quantize=int8: the input of '" + names[i] +
                    "' is not finite on the calibration samples (range [" +
                    std::to_string(seen.min) + ", " +
                    std::to_string(seen.max) + "]), so it has no int8 scale");
        return false;
      }
      std::tie(layer.min, layer.max) =
          method == "percentile"
              ? percentileRange(seen, options.calibrationPercentile)
          : method == "entropy" ? entropyRange(seen)
                                : std::make_pair(seen.min, seen.max);
      layer.input = mlir::tfaot::quantizeRange(layer.min, layer.max);
      mlir::DenseElementsAttr weights = mlir::tfaot::contractionWeights(op);
      auto shape = llvm::cast<mlir::ShapedType>(weights.getType()).getShape();
      layer.channels = shape.back();
      layer.weights = weights.getNumElements();
      llvm::SmallVector<float> values(weights.getValues<float>());
      llvm::SmallVector<float> scales = mlir::tfaot::columnScales(
          values, layer.weights / layer.channels, layer.channels);
      layer.weightScaleMin = *std::min_element(scales.begin(), scales.end());
      layer.weightScaleMax = *std::max_element(scales.begin(), scales.end());
      mlir::Builder b(op->getContext());
      op->setAttr(mlir::tfaot::kQuantizeRangeAttr,
                  b.getF32ArrayAttr({layer.min, layer.max}));
      report.layers.push_back(layer);
    }
    // The MatMuls kept in float32 keep float32 activations but get int8
    // weights (on the CPU only: the GPU's float products are cuBLAS
    // SGEMMs, which read float32 weights).
    report.weightsOnly.clear();
    if (options.quantizeFloatWeights && !cuda) {
      llvm::SmallPtrSet<mlir::Operation *, 8> chosen(layers.begin(),
                                                     layers.end());
      for (size_t i = 0; i < all.size(); ++i) {
        mlir::Operation *op = all[i];
        if (chosen.count(op) || !llvm::isa<mlir::tfaot::MatMulOp>(op))
          continue;
        op->setAttr(mlir::tfaot::kQuantizeWeightsOnlyAttr,
                    mlir::UnitAttr::get(op->getContext()));
        report.weightsOnly.push_back(layerName(op, i));
      }
    }
    mlir::PassManager pm(module->getContext());
    pm.addPass(mlir::tfaot::createQuantizeInt8Pass());
    // A tensor two int8 layers read is quantized once, so that its
    // producer's result has one user and can be folded into that quantize.
    pm.addPass(mlir::createCSEPass());
    pm.addNestedPass<mlir::func::FuncOp>(
        mlir::tfaot::createFoldRequantizePass());
    // The float weights are dead now.
    pm.addPass(mlir::tfaot::createSimplifyPass());
    pm.addPass(mlir::createCSEPass());
    if (failed(pm.run(module))) {
      diags.error("internal error: tfaot-quantize-int8 failed");
      return false;
    }
    return true;
  };
  if (compile(final, errs, out) != 0)
    return 1;
  if (options.emit != EmitStage::Object)
    return 0;

  // 3. Compare. A CUDA build cannot run here (there may be no GPU): its
  // numbers are checked on the same build with the GPU's kernels and
  // GEMMs emulated on the CPU, which --gpu_emulate builds are.
  report.int8ObjectBytes = final.artifacts->object.size();
  const CompiledArtifacts *runnable = final.artifacts;
  CompiledArtifacts emulated;
  if (cuda) {
    report.gpuEmulated = true;
    if (!options.gpuEmulate) {
      CompileOptions emulation = internalBuild(final, emulated);
      emulation.gpuEmulate = true;
      if (compile(emulation, errs) != 0)
        return 1;
      runnable = &emulated;
    }
  }
  auto int8Model = JitModel::load(*runnable, ThreadPool::HardwareThreads());
  if (!int8Model) {
    diags.error("cannot run the int8 model for the report: " +
                llvm::toString(int8Model.takeError()));
    return 1;
  }
  report.compared = report.gpuEmulated
                        ? std::min(samples.size(), kEmulatedComparedSamples)
                        : samples.size();
  report.outputs =
      compareOutputs(**int8Model, samples, floatResults, report.compared);
  if (options.verbosity != Verbosity::Quiet)
    report.printSummary(errs);
  addReport(report, options.quantizeReport, out, outputs);
  return outputs.commit(errs) ? 0 : 1;
}
