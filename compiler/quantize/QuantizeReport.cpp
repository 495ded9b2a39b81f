//===- QuantizeReport.cpp - The --quantize_report and summary -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// What compileQuantized reports: the one-line summary on stderr and the
// --quantize_report file, as text or (for a .json path) JSON: per layer
// its calibrated range and weight scales, the sizes, and the int8
// model's output error against the float model.
//
//===----------------------------------------------------------------------===//
#include "compiler/quantize/QuantizeInternal.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace tfaot;

namespace {

/// Four significant digits, as printf's %g.
std::string g4(double value) {
  return llvm::formatv("{0}", llvm::format("%.4g", value)).str();
}

std::string megabytes(uint64_t bytes) {
  return llvm::formatv("{0:F2} MB", bytes / 1e6).str();
}

} // namespace

namespace tfaot::quantize {

void Report::printSummary(llvm::raw_ostream &os) const {
  os << graph << ": note: int8: " << layers.size() << " of " << contractions
     << " contractions quantized";
  if (!weightsOnly.empty())
    os << " (" << weightsOnly.size() << " more with int8 weights only)";
  if (residuals)
    os << "; " << residualsInt8 << " residual additions read int8";
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
  if (residuals)
    os << "residual additions reading the int8 stream (--quantize_residuals): "
       << residualsInt8 << "\n";
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
  printOutputs(os, outputs);
}

void printOutputs(llvm::raw_ostream &os,
                  const std::vector<OutputComparison> &outputs) {
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

llvm::json::Array
outputsJson(const std::vector<OutputComparison> &outputs) {
  llvm::json::Array array;
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
    array.push_back(std::move(object));
  }
  return array;
}

void Report::printJson(llvm::raw_ostream &os) const {
  llvm::json::Array layerArray;
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
  llvm::json::Object root{
      {"graph", graph},
      {"calibration", calibration},
      {"method", method},
      {"samples", static_cast<int64_t>(samples)},
      {"contractions", static_cast<int64_t>(contractions)},
      {"min_k", minK},
      {"residuals_int8",
       residuals ? llvm::json::Value(static_cast<int64_t>(residualsInt8))
                 : llvm::json::Value(nullptr)},
      {"layers", std::move(layerArray)},
      {"weights_only_layers", llvm::json::Array(weightsOnly)},
      {"outputs", outputsJson(outputs)},
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

void addReportFile(
    const std::string &path, llvm::raw_ostream &out, OutputFiles &outputs,
    llvm::function_ref<void(llvm::raw_ostream &, bool json)> print) {
  if (path.empty())
    return;
  if (path == "-") {
    print(out, /*json=*/false);
    return;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os, llvm::StringRef(path).ends_with(".json"));
  outputs.add(path, std::move(text));
}

void addReport(const Report &report, const std::string &path,
               llvm::raw_ostream &out, OutputFiles &outputs) {
  addReportFile(path, out, outputs, [&](llvm::raw_ostream &os, bool json) {
    json ? report.printJson(os) : report.printText(os);
  });
}

} // namespace tfaot::quantize
