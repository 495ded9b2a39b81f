//===- QuantizeInternal.h - Parts of compileQuantized -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the driver library: what Quantize.cpp (the three steps of
// compileQuantized) takes from the files that do one job each:
//   - QuantizeCalibration.cpp: reading the calibration samples, running the
//     float model over them for the activation ranges and the int8 model
//     for the comparison with the float results;
//   - QuantizeLayers.cpp: which contractions become int8;
//   - QuantizeReport.cpp: the --quantize_report text and JSON, and the
//     one-line summary.
// Everything is in namespace tfaot::quantize.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_QUANTIZE_QUANTIZEINTERNAL_H
#define TFAOT_COMPILER_QUANTIZE_QUANTIZEINTERNAL_H

#include "compiler/driver/Driver.h"
#include "compiler/jit/JitModel.h"
#include "compiler/quantize/CalibrationRanges.h"
#include "passes/Int8Quantization.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tfaot::quantize {

//===----------------------------------------------------------------------===//
// Calibration (QuantizeCalibration.cpp)
//===----------------------------------------------------------------------===//

/// The calibration samples, each one run's worth of the (only) feed: an
/// array of the feed's shape is one sample, one of [n, rest of the shape]
/// is n / batch of them.
bool loadSamples(const std::string &path, const TensorSignature &feed,
                 std::vector<std::vector<float>> &samples,
                 std::string &error);

/// Per observed tensor: its range, then (for the percentile and entropy
/// methods) a histogram over it.
struct Observation : ValueHistogram {
  Observation() {
    min = std::numeric_limits<float>::infinity();
    max = -std::numeric_limits<float>::infinity();
  }
};

/// The output error of the int8 model against the float one, per result.
struct OutputComparison {
  std::string name;
  double maxError = 0, sumError = 0, maxMagnitude = 0;
  uint64_t count = 0;
  int64_t rows = 0, top1Agree = 0; ///< Classifier-like results (rank >= 1,
                                   ///< last dimension >= 2).
};

/// Step 1's runs: the range over the samples of each result in `observe`
/// (indexed by result), and the float model's own first `numResults`
/// results (for the report). A run that fails (an index out of range in
/// the data) ends the runs with model.runError() set; so for step 3.
std::vector<Observation>
calibrate(JitModel &model, size_t numResults,
          const std::vector<size_t> &observe,
          const std::vector<std::vector<float>> &samples, bool histograms,
          std::vector<std::vector<std::vector<char>>> &floatResults);

/// Step 3: the int8 results against the float ones.
std::vector<OutputComparison>
compareOutputs(JitModel &model, const std::vector<std::vector<float>> &samples,
               const std::vector<std::vector<std::vector<char>>> &floatResults,
               size_t count);

//===----------------------------------------------------------------------===//
// Layers (QuantizeLayers.cpp)
//===----------------------------------------------------------------------===//

/// What the report says about one quantized contraction.
struct Layer {
  std::string name, op;
  float min = 0, max = 0; ///< Calibrated input range.
  mlir::tfaot::ActivationQuantization input;
  float weightScaleMin = 0, weightScaleMax = 0;
  int64_t weights = 0, channels = 0;
};

std::string layerName(mlir::Operation *op, size_t index);

/// The contractions --quantize=int8 makes int8, in program order: all that
/// can be, except the first and the last unless `allLayers` (the first sees
/// raw inputs and the last produces the logits, where 8 bits hurt most),
/// and those summing fewer than `minK` products per output. `all` gets
/// every contraction that can be quantized, in program order.
std::vector<mlir::Operation *>
chooseLayers(mlir::ModuleOp module, bool allLayers, int64_t minK,
             std::vector<mlir::Operation *> &all);

//===----------------------------------------------------------------------===//
// The report (QuantizeReport.cpp)
//===----------------------------------------------------------------------===//

struct Report {
  std::string graph, calibration, method;
  double percentile = 0;
  size_t samples = 0, contractions = 0;
  bool allLayers = false;
  /// --quantize_residuals, and the residual additions it made read the
  /// int8 stream.
  bool residuals = false;
  uint64_t residualsInt8 = 0;
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

/// Queues the --quantize_report file (JSON for a .json path) with the
/// compile's outputs, which are written together; "-" prints it now.
void addReport(const Report &report, const std::string &path,
               llvm::raw_ostream &out, OutputFiles &outputs);
/// addReport for any report: `print(os, json)` writes it.
void addReportFile(
    const std::string &path, llvm::raw_ostream &out, OutputFiles &outputs,
    llvm::function_ref<void(llvm::raw_ostream &, bool json)> print);

/// The outputs' lines of a text report ("  name: max |error| ...") and
/// their JSON array; both reports (int8, half precision) use them.
void printOutputs(llvm::raw_ostream &os,
                  const std::vector<OutputComparison> &outputs);
llvm::json::Array outputsJson(const std::vector<OutputComparison> &outputs);

/// `options` for a build the quantizer runs or measures itself: the same
/// graph and flags, writing nothing but `artifacts`.
CompileOptions internalBuild(const CompileOptions &options,
                             CompiledArtifacts &artifacts);

} // namespace tfaot::quantize

#endif // TFAOT_COMPILER_QUANTIZE_QUANTIZEINTERNAL_H
