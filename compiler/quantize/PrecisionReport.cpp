//===- PrecisionReport.cpp - Accuracy of --precision=fp16|bf16 ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See PrecisionReport.h. The samples, the runs and the comparison are the
// int8 report's (QuantizeCalibration.cpp), and so are the output lines.
//
//===----------------------------------------------------------------------===//
#include "compiler/quantize/PrecisionReport.h"

#include "compiler/frontend/Diagnostics.h"
#include "compiler/jit/JitModel.h"
#include "compiler/quantize/QuantizeInternal.h"
#include "tfaot/runtime/thread_pool.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace tfaot;
using namespace tfaot::quantize;

namespace {

bool isHalf(const std::string &precision) {
  return precision == "fp16" || precision == "bf16";
}

/// Whether `precision` is one `options.targetKind` builds 16-bit products
/// for: fp16 and bf16 on the GPU, bf16 on the CPU.
bool isHalfOnTarget(const CompileOptions &options,
                    const std::string &precision) {
  return options.targetKind == "cuda" ? isHalf(precision)
                                      : precision == "bf16";
}

struct PrecisionReport {
  std::string graph, calibration, precision, target, gpuArch;
  size_t samples = 0, compared = 0;
  bool emulated = false;  ///< Compared through a --gpu_emulate build.
  std::vector<OutputComparison> outputs;

  std::string comparedText() const {
    std::string all = std::to_string(samples) + " calibration sample" +
                      (samples == 1 ? "" : "s");
    return compared < samples
               ? "the first " + std::to_string(compared) + " of " + all
               : all;
  }

  /// |error| as a percentage of the largest fp32 value: the measure the
  /// GPU tests bound (docs/gpu.md).
  static std::string relative(const OutputComparison &out) {
    double percent =
        out.maxMagnitude > 0 ? 100.0 * out.maxError / out.maxMagnitude : 0.0;
    return llvm::formatv("{0}", llvm::format("%.3g%%", percent)).str();
  }

  void printSummary(llvm::raw_ostream &os) const {
    os << graph << ": note: " << precision << " against fp32";
    for (const OutputComparison &out : outputs) {
      os << "; '" << out.name << "' max |error| "
         << llvm::format("%.4g", out.maxError) << " (" << relative(out)
         << " of its largest value)";
      if (out.rows)
        os << ", top-1 agreement " << out.top1Agree << "/" << out.rows;
    }
    os << " on " << comparedText() << "\n";
  }

  void printText(llvm::raw_ostream &os) const {
    os << "tfaot half-precision accuracy report\n"
       << "graph: " << graph << "\n"
       << "precision: " << precision;
    if (target == "cuda")
      os << " (--target=cuda, " << gpuArch
         << "): activations and weights stored in 16 bits between layers, "
            "products and kernels summing in fp32\n";
    else
      os << " (--target=cpu): convolutions and matrix products with "
            "constant weights multiply bf16 operands and sum in fp32; "
            "everything else runs in fp32\n";
    os
       << "calibration: " << samples << " samples from " << calibration
       << "\n\n"
       << "outputs, " << precision << " against the fp32 CPU build on "
       << comparedText();
    if (emulated)
      os << " (the " << precision << " build's GPU kernels and library calls "
         << "run on the CPU, --gpu_emulate, rounding where the GPU code "
            "rounds; at most "
         << kEmulatedComparedSamples << " samples as that is slow)";
    os << ":\n";
    printOutputs(os, outputs);
    os << "largest |error| as a share of the largest fp32 value:";
    for (size_t i = 0; i < outputs.size(); ++i)
      os << (i ? "; " : " ") << outputs[i].name << " " << relative(outputs[i]);
    os << "\n";
  }

  void printJson(llvm::raw_ostream &os) const {
    llvm::json::Object root{
        {"graph", graph},
        {"precision", precision},
        {"target", target},
        {"gpu_arch", target == "cuda" ? llvm::json::Value(gpuArch)
                                      : llvm::json::Value(nullptr)},
        {"calibration", calibration},
        {"samples", static_cast<int64_t>(samples)},
        {"compared_samples", static_cast<int64_t>(compared)},
        {"outputs_emulated", emulated},
        {"reference", "fp32 CPU build"},
        {"outputs", outputsJson(outputs)}};
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  }
};

bool checkOptions(const CompileOptions &options, GraphDiagnostics &diags) {
  std::string precision = effectivePrecision(options);
  if (!isHalfOnTarget(options, precision)) {
    diags.usageError(std::string(options.precisionReport.empty()
                                     ? "--calibration"
                                     : "--precision_report") +
                     " without --quantize needs --precision=bf16 "
                     "(--target=cpu or cuda) or --precision=fp16 "
                     "(--target=cuda): it reports the 16-bit build's "
                     "accuracy against fp32");
    return false;
  }
  if (options.calibration.empty()) {
    diags.usageError("--precision_report needs --calibration FILE|DIR: .npy "
                     "samples of the input to compare the " + precision +
                     " and fp32 builds on");
    return false;
  }
  return true;
}

} // namespace

bool tfaot::wantsPrecisionReport(const CompileOptions &options) {
  return options.quantize.empty() &&
         (!options.precisionReport.empty() ||
          (!options.calibration.empty() &&
           isHalf(effectivePrecision(options))));
}

int tfaot::compileWithPrecisionReport(const CompileOptions &options,
                                      llvm::raw_ostream &errs,
                                      llvm::raw_ostream &out) {
  GraphDiagnostics diags(options.graph, errs);
  diags.setQuiet(options.verbosity == Verbosity::Quiet);
  if (!checkOptions(options, diags))
    return 1;

  // 1. The reference: the fp32 build on the CPU.
  CompiledArtifacts reference;
  CompileOptions fp32 = internalBuild(options, reference);
  fp32.targetKind = "cpu";
  fp32.gpuEmulate = false;
  fp32.allowTf32 = false;
  fp32.precision = "fp32";
  fp32.gpuGemm = CompileOptions().gpuGemm;
  fp32.gpuConv = CompileOptions().gpuConv;
  if (buildOnce(fp32, BuildHooks(), errs) != 0)
    return 1;
  const FunctionSignature &sig = reference.signature;
  if (sig.args.size() != 1 || sig.args[0].dtype != tensorflow::DT_FLOAT) {
    diags.error("--calibration supports graphs with one float32 feed; this "
                "one has " + std::to_string(sig.args.size()) + " feeds");
    return 1;
  }
  std::vector<std::vector<float>> samples;
  std::string error;
  if (!loadSamples(options.calibration, sig.args[0], samples, error)) {
    diags.error(error);
    return 1;
  }
  std::vector<std::vector<std::vector<char>>> fp32Results;
  {
    auto model = JitModel::load(reference, ThreadPool::HardwareThreads());
    if (!model) {
      diags.error("cannot run the fp32 model for the precision report: " +
                  llvm::toString(model.takeError()));
      return 1;
    }
    calibrate(**model, sig.results.size(), {}, samples, /*histograms=*/false,
              fp32Results);
    if (!(*model)->runError().empty()) {
      diags.error("--calibration: the fp32 model failed at run time: " +
                  (*model)->runError());
      return 1;
    }
  }

  // 2. The build asked for, written with the report.
  OutputFiles outputs;
  CompiledArtifacts local;
  CompileOptions final = options;
  final.outputs = &outputs;
  if (!final.artifacts)
    final.artifacts = &local;
  if (buildOnce(final, BuildHooks(), errs, out) != 0)
    return 1;
  if (options.emit != EmitStage::Object)
    return 0;

  // 3. Its numbers: the CPU build runs here as it is, the GPU build through
  // the emulation (there may be no GPU here).
  bool cuda = options.targetKind == "cuda";
  const CompiledArtifacts *runnable = final.artifacts;
  CompiledArtifacts emulated;
  if (cuda && !options.gpuEmulate) {
    CompileOptions emulation = internalBuild(options, emulated);
    emulation.gpuEmulate = true;
    if (buildOnce(emulation, BuildHooks(), errs) != 0)
      return 1;
    runnable = &emulated;
  }
  auto model = JitModel::load(*runnable, ThreadPool::HardwareThreads());
  if (!model) {
    diags.error("cannot run the " + effectivePrecision(options) +
                " model for the precision report: " +
                llvm::toString(model.takeError()));
    return 1;
  }
  PrecisionReport report;
  report.graph = options.graph;
  report.calibration = options.calibration;
  report.precision = effectivePrecision(options);
  report.target = options.targetKind;
  report.gpuArch = options.gpuArch;
  report.samples = samples.size();
  report.compared = cuda ? std::min(samples.size(), kEmulatedComparedSamples)
                         : samples.size();
  report.emulated = cuda;
  report.outputs =
      compareOutputs(**model, samples, fp32Results, report.compared);
  if (!(*model)->runError().empty()) {
    diags.error("the " + report.precision + " model failed at run time: " +
                (*model)->runError());
    return 1;
  }
  if (options.verbosity != Verbosity::Quiet)
    report.printSummary(errs);
  addReportFile(options.precisionReport, out, outputs,
                [&](llvm::raw_ostream &os, bool json) {
                  json ? report.printJson(os) : report.printText(os);
                });
  return outputs.commit(errs) ? 0 : 1;
}
