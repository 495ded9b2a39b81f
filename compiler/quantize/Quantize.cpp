//===- Quantize.cpp - tfaot compile --quantize=int8 -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See Quantize.h. Both compilations pick the layers with the same rule on
// the same graph-pass output, so the i-th layer calibrated is the i-th
// layer quantized; its node name is checked to be sure.
//
// This file runs the steps; the samples and model runs, the choice of
// layers and the report are in the files QuantizeInternal.h lists.
//
//===----------------------------------------------------------------------===//
#include "compiler/quantize/Quantize.h"

#include "compiler/frontend/Diagnostics.h"
#include "compiler/jit/JitModel.h"
#include "compiler/quantize/CalibrationRanges.h"
#include "compiler/quantize/QuantizeInternal.h"
#include "passes/Int8Quantization.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"
#include "tfaot/runtime/thread_pool.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>

using namespace tfaot;
using namespace tfaot::quantize;

namespace {

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
  if (std::string precision = effectivePrecision(options);
      precision == "fp16" || precision == "bf16") {
    diags.usageError("--precision=" + precision +
                     " and --quantize=int8 do not combine: the int8 build "
                     "keeps its float layers in fp32");
    return false;
  }
  return true;
}

} // namespace

CompileOptions tfaot::quantize::internalBuild(const CompileOptions &options,
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
  build.precisionReport.clear();
  return build;
}

namespace {

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
  observed.precision = "fp32";
  observed.gpuGemm = CompileOptions().gpuGemm;
  // The hook below collects the layers once per import; a batch run in
  // chunks imports the graph twice (BatchChunks.h). The calibration build
  // runs its batch whole.
  observed.batchChunk = "off";
  BuildHooks hooks;
  hooks.afterGraphPasses = [&](mlir::ModuleOp module,
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
  if (buildOnce(observed, hooks, errs) != 0) {
    if (error.empty())
      error = "-"; // the build has reported it
    return false;
  }
  return true;
}

/// How many residual additions tfaot-quantize-int8 made read an int8
/// tensor (its `residuals` option), as it recorded on the module.
uint64_t countInt8Residuals(mlir::ModuleOp module) {
  auto count =
      module->getAttrOfType<mlir::IntegerAttr>(mlir::tfaot::kInt8ResidualsAttr);
  return count ? count.getInt() : 0;
}

std::vector<size_t> unique(std::vector<size_t> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
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
  if (!(*model)->runError().empty()) {
    diags.error("--calibration: the float model failed at run time: " +
                (*model)->runError());
    return 1;
  }
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
  report.residuals = options.quantizeResiduals;
  report.minK = options.quantizeMinK;
  report.floatObjectBytes = observed.object.size();
  bool cuda = options.targetKind == "cuda";
  if (cuda) {
    // The float object to compare sizes with is the CUDA build's.
    report.gpuArch = options.gpuArch;
    CompiledArtifacts floatCuda;
    if (buildOnce(internalBuild(options, floatCuda), BuildHooks(), errs) != 0)
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
  // Quantizes the chosen layers with the calibrated ranges; the CUDA
  // emulation build below runs it too.
  BuildHooks quantizeLayers;
  quantizeLayers.afterGraphPasses = [&](mlir::ModuleOp module,
                                        FunctionSignature &) {
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
    mlir::tfaot::QuantizeInt8PassOptions quantizeOptions;
    quantizeOptions.residuals = options.quantizeResiduals;
    pm.addPass(mlir::tfaot::createQuantizeInt8Pass(quantizeOptions));
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
    report.residualsInt8 = countInt8Residuals(module);
    return true;
  };
  if (buildOnce(final, quantizeLayers, errs, out) != 0)
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
      if (buildOnce(emulation, quantizeLayers, errs) != 0)
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
  if (!(*int8Model)->runError().empty()) {
    diags.error("the int8 model failed at run time: " +
                (*int8Model)->runError());
    return 1;
  }
  if (options.verbosity != Verbosity::Quiet)
    report.printSummary(errs);
  addReport(report, options.quantizeReport, out, outputs);
  return outputs.commit(errs) ? 0 : 1;
}
