//===- Driver.h - tfaot compile: import, lower, emit ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One build as a library call (load, import, the passes, a backend, the
// output files), so the command-line tool stays a thin flag parser and
// tests can drive the same code. tfaot::compile (compiler/Compile.h) runs
// one such build, or the quantizer's several with their BuildHooks.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_DRIVER_H
#define TFAOT_COMPILER_DRIVER_DRIVER_H

#include "backends/cpu/ObjectEmitter.h"
#include "compiler/driver/OutputFiles.h"
#include "compiler/driver/ProfiledOp.h"
#include "compiler/driver/Progress.h"
#include "compiler/frontend/GraphImporter.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

namespace tfaot {

/// What `tfaot compile` stops at and prints instead of writing an object.
enum class EmitStage {
  Object,      ///< Object file + header (the default).
  Tfaot,       ///< The imported tfaot dialect.
  Linalg,      ///< After --tfaot-lower-to-linalg.
  Bufferized,  ///< After the CPU bufferization pipeline.
  LLVMDialect, ///< After lowering to the LLVM dialect.
  LLVMIR,      ///< Optimized LLVM IR.
  GpuKernels,  ///< --target=cuda: after mapping loops to outlined kernels.
  Ptx,         ///< --target=cuda: the kernels' PTX.
};

/// What a compilation produced, for callers that use it in memory (tfaot
/// bench) instead of writing files.
struct CompiledArtifacts {
  std::string object;  ///< The object file's bytes.
  struct Entry {
    int64_t batch = 0;  ///< Batch bucket; 0 for the feed shapes as given.
    std::string symbol;
  };
  std::vector<Entry> entries;   ///< One per batch bucket (or one).
  FunctionSignature signature;  ///< The largest entry's.
  uint64_t tempBytes = 0;       ///< Arena bytes the largest entry needs.
  /// With CompileOptions::profile: what each id the largest entry passes
  /// to tfaot_rt_profile_begin/end is (tfaot-instrument-profile).
  std::vector<ProfiledOp> profileOps;
};

struct CompileOptions {
  std::string graph;                 ///< --graph
  std::string signature;             ///< --signature (SavedModel only)
  std::string config;                ///< --config (may be empty)
  std::vector<std::string> feeds;    ///< --feed name[:shape[:dtype]]
  std::vector<std::string> feedValues; ///< --feed_value name=v[,v...]
  std::vector<std::string> fetches;  ///< --fetch name[:index]
  std::string cppClass;              ///< --cpp_class
  std::string entryPoint;            ///< --entry_point (derived if empty)
  std::string outHeader;             ///< --out_header
  std::string outObject;             ///< --out_function_object
  /// --out_c_header: the C API's header; the object then also defines the
  /// model's tfaot_function_info (CApiWriter.h).
  std::string outCHeader;
  /// --out_shared_library: object + runtime as a .so exporting the C API.
  std::string outSharedLibrary;
  /// --out_metadata_object (tfcompile's): written as an object with no
  /// symbols, since the header carries all the metadata.
  std::string outMetadataObject;
  EmitStage emit = EmitStage::Object;
  std::string outMlir = "-";         ///< Where IR goes for --emit != obj.
  bool graphPasses = true;           ///< --graph_passes: run the graph pipeline.
  std::string layout = "auto";       ///< --layout: auto, nhwc or nchw.
  std::string jpegSize;              ///< --jpeg_size HxW (may be empty).
  bool jpegDctScaling = false;       ///< --jpeg_dct_scaling
  /// --conv_algorithm: "auto" (default), "direct" or "winograd" (CPU only,
  /// --target=cuda refuses "winograd"; backends/cpu/WinogradConvolutions.cpp).
  std::string convAlgorithm = "auto";
  /// --cpu_gemm: "auto" (default) gives the float32 products with large
  /// weights and small results, and Winograd's batched products, to the
  /// runtime's packed AVX-512 kernel on AVX-512 targets
  /// (backends/cpu/F32PanelProducts.cpp); "generated" keeps them all
  /// generated code.
  std::string cpuGemm = "auto";
  /// --runtime_checks: "all" (default) checks indices read from data at run
  /// time (Run() fails on a bad one); "none" leaves them clamped unchecked.
  std::string runtimeChecks = "all";
  /// --max_function_ops: an entry function larger than this many
  /// operations (after bufferization, nested ones included) is cut into
  /// private functions of about this size, which LLVM optimizes in time
  /// linear in the graph (passes/SplitEntry.cpp); 0: never cut; -1: the
  /// pass's default (kSplitEntryMaxOps, passes/SplitEntry.h).
  int64_t maxFunctionOps = -1;
  /// --batch_chunk: "auto" (default), "off" or a number of rows. A CPU
  /// entry whose batch rows are computed apart may run the graph compiled
  /// for fewer rows several times, on slices (BatchChunks.h).
  std::string batchChunk = "auto";
  /// --max_compile_seconds: a build running longer is stopped with an
  /// error and exit status kCompileTimeLimitExit (Watchdog.h); 0: no limit.
  /// Stopping ends the process, which only the command line may do (its
  /// flag defaults to 1800): in-process callers such as the Python
  /// package's compile() get no limit unless they ask for one.
  double maxCompileSeconds = 0;
  /// --dump_ir_after: pass arguments (e.g. tfaot-fold-batch-norm) after
  /// which the IR is printed to `errs`; "all" prints after every pass.
  std::vector<std::string> dumpIrAfter;
  /// --batch: one entry per batch size (increasing), the first dimension
  /// of every feed; empty: one entry for the feed shapes as given.
  std::vector<int64_t> batchBuckets;
  /// --report: print what the compiler did (see CompileReport) to `out`.
  enum class Report { None, Text, Json } report = Report::None;
  cpu::TargetOptions target;
  /// --target: "cpu" (default) or "cuda" (PTX kernels + a host launcher,
  /// see backends/gpu/); `target` then describes the host.
  std::string targetKind = "cpu";
  std::string gpuArch = "sm_90";  ///< --gpu_arch, for --target=cuda.
  /// --gpu_gemm: "cublas" (default) or "kernels".
  std::string gpuGemm = "cublas";
  /// --gpu_conv: "im2col" (default; im2col + cuBLAS) or "cudnn"
  /// (convolutions and their epilogues in cuDNN).
  std::string gpuConv = "im2col";
  /// --gpu_depthwise: "tiled" (default; shared-memory tiles, several
  /// outputs a thread) or "direct" (one thread per output).
  std::string gpuDepthwise = "tiled";
  /// --precision, for --target=cuda: "fp32" (default), "tf32" (cuBLAS may
  /// round products' inputs to TF32), "fp16" or "bf16" (activations and
  /// weights stored in 16 bits, products on tensor cores, f32 arithmetic).
  std::string precision = "fp32";
  /// --allow_tf32: the older spelling of --precision=tf32.
  bool allowTf32 = false;
  /// --gpu_emulate (testing): with --target=cuda, run the GPU kernel
  /// mapping's launches as loops on the CPU and emit a CPU library, to
  /// check the mapping's numbers without a GPU.
  bool gpuEmulate = false;
  /// --quiet / --verbose: warnings, and what is said about progress.
  Verbosity verbosity = Verbosity::Normal;
  /// Keep a status line on `errs` while compiling (set when it is a
  /// terminal; ignored unless verbosity is Normal).
  bool statusLine = false;
  /// When set, the object and what describes it are stored here (no
  /// output file is then required).
  CompiledArtifacts *artifacts = nullptr;
  /// When set, the output files are queued here instead of written, for a
  /// caller that writes them together with its own (the quantization
  /// report), all or none.
  OutputFiles *outputs = nullptr;
  /// Time each op of the entry (tfaot bench --profile): the object then
  /// calls tfaot_rt_profile_begin/end, which only the bench defines.
  bool profile = false;
  /// --quantize=int8 and its flags (compiler/quantize/Quantize.h); empty:
  /// float.
  std::string quantize;
  std::string calibration;                   ///< --calibration FILE|DIR
  std::string calibrationMethod = "minmax";  ///< --calibration_method
  double calibrationPercentile = 99.99;      ///< --calibration_percentile
  bool quantizeAllLayers = false;            ///< --quantize_all_layers
  int64_t quantizeMinK = 0;                  ///< --quantize_min_k
  bool quantizeFloatWeights = false;         ///< --quantize_float_weights
  bool quantizeResiduals = false;            ///< --quantize_residuals
  std::string quantizeReport;                ///< --quantize_report FILE
  /// --precision_report FILE: with --precision=fp16|bf16 and --calibration,
  /// the half-precision build's accuracy against the fp32 build
  /// (compiler/quantize/PrecisionReport.h).
  std::string precisionReport;
};

/// What a caller that builds on the driver (the quantizer) does inside one
/// build, between its stages. No flag sets these: they are kept out of
/// CompileOptions, which describes what the user asked for.
struct BuildHooks {
  /// Runs on each entry's module after the graph passes; may change the
  /// module and the entry's signature. False after it has reported an error.
  std::function<bool(mlir::ModuleOp, FunctionSignature &)> afterGraphPasses;
};

/// The precision --precision and --allow_tf32 ask for ("fp32", "tf32",
/// "fp16" or "bf16").
inline std::string effectivePrecision(const CompileOptions &options) {
  return options.allowTf32 && options.precision == "fp32" ? "tf32"
                                                          : options.precision;
}

/// One build: import, lower and emit, with `hooks` run between the stages;
/// options.quantize and its flags are ignored (tfaot::compile in
/// compiler/Compile.h reads them). Returns the process exit code (0 or 1);
/// every error has been printed to `errs` in "file: error: ..." form. A
/// requested report goes to `out` after a successful build.
int buildOnce(const CompileOptions &options, const BuildHooks &hooks,
              llvm::raw_ostream &errs, llvm::raw_ostream &out = llvm::outs());

/// The default entry symbol for a class: "tfaot_" + its path with "::"
/// replaced by "_" (unique per class, so several models link together).
std::string defaultEntryPoint(const std::string &cppClass);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_DRIVER_H
