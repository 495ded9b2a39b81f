//===- Pipeline.cpp - CUDA lowering pipelines -----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Textual pass pipelines, like the CPU backend's, so that what the driver
// runs is what the lit tests run through tfaot-opt.
//
// Generated kernels are one thread per output element (a reduction loops
// in the thread, its accumulator in a register): correct for every op the
// linalg lowering produces. Depthwise convolutions are the exception
// (--gpu_depthwise=tiled): input tiles in shared memory, several outputs a
// thread (TiledDepthwise.cpp). f32 convolutions and
// matrix products go to cuBLAS instead (ConvsToMatmuls.cpp,
// MatmulsToCublas.cpp), unless --gpu_gemm=kernels; with --precision=fp16 or
// bf16, in 16 bits, as are the activations between ops (StoreHalf.cpp).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Pipeline.h"

#include "backends/gpu/DeviceImage.h"
#include "backends/gpu/Passes.h"
#include "passes/ConstantsToGlobals.h"
#include "passes/Passes.h"
#include "passes/SplitSharedEmpties.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

// As the CPU's bufferization, without tfaot-fuse-epilogues: its tiled loop
// nests (scf.for over tiles) would hide the parallelism the GPU mapping needs.
// `convsToMatmuls` is tfaot-gpu-convs-to-matmuls, or nothing: after the
// elementwise fusion, whose reshape propagation would turn a matmul
// followed by its expand_shape back into a 4-d linalg.generic.
// `storeHalf` is tfaot-gpu-store-half with its type, or nothing: once every
// op left is a kernel or a product of its own.
// `cudnnCalls` is tfaot-gpu-cudnn-calls, or nothing: on buffers, before
// the buffer plan, so that the plan sees each call (through the addresses
// it takes) as the last use of its operands: a fused call, in the place of
// the epilogue, still reads the convolution's input.
// `deferredFrees`: the device build, whose runtime frees a Run()'s
// temporaries when it has synchronized (tfaot_rt_cuda_free does nothing):
// no deallocation pipeline, whose bookkeeping around branches and loops
// (lists of buffers and flags, compared in loops) would be host loads and
// stores that host code cannot run.
static std::string bufferizePipeline(const std::string &convsToMatmuls,
                                     const std::string &storeHalf,
                                     const std::string &cudnnCalls,
                                     bool deferredFrees) {
  return "tfaot-lower-to-linalg,"
         "canonicalize,"
         "func.func(tfaot-fuse-elementwise),"
         "canonicalize,cse,"
         "func.func(tfaot-gpu-split-small-reductions),"
         // int8 products (--quantize=int8) as linalg.matmul by the
         // transposed weights: cuBLAS's int8 GEMM, or a generated kernel.
         "func.func(tfaot-lower-int8-contractions{product=matmul}),"
         // Before the 16-bit storage, which makes the named depthwise
         // convolutions generics of their own.
         "func.func(tfaot-gpu-direct-depthwise)," +
         convsToMatmuls + storeHalf +
         // As on the CPU: runs of at most 64 users per tensor.empty.
         "func.func(tfaot-split-shared-empties),"
         // As on the CPU: one global per distinct constant through a hash
         // map, not one-shot-bufferize's scan of the module per constant.
         "tfaot-constants-to-globals,"
         // As on the CPU, a loop variable the body replaces is a new
         // buffer each iteration.
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map "
         "allow-return-allocs-from-loops},"
         // As on the CPU: a repeated result gets a buffer of its own.
         "func.func(tfaot-distinct-result-buffers),"
         "buffer-results-to-out-params{hoist-static-allocs "
         "modify-public-functions},"
         // Before the canonicalization that folds its casts into the
         // users, and before the buffer plan, which places its buffers.
         "func.func(tfaot-gpu-branch-results-in-place),"
         "canonicalize," +
         cudnnCalls +
         "tfaot-plan-buffers," +
         (deferredFrees ? std::string()
                        : std::string(
                              "buffer-deallocation-pipeline,"
                              // As on the CPU: around loops and branches
                              // the deallocation pipeline calls a helper on
                              // lists of buffers; inline it.
                              "inline{default-pipeline=},")) +
         "symbol-dce";
}

// tfaot-gpu-tiled-depthwise; with `tiledDepthwise` false
// (--gpu_depthwise=direct) it only says that each kernel stays direct.
static std::string tiledDepthwisePass(bool tiledDepthwise,
                                      bool reportOnly = false) {
  std::string options;
  if (!tiledDepthwise)
    options += " direct=true";
  if (reportOnly)
    options += " report-only=true";
  return "tfaot-gpu-tiled-depthwise" +
         (options.empty() ? "" : "{" + options.substr(1) + "}");
}

// No canonicalization between flattening and mapping: it would fold the
// block loop of a one-block kernel away and the thread loop would then be
// mapped to blocks. `readDecisions`: the device build, whose runtime calls
// on host memory get host copies (tfaot-gpu-stage-host-calls) and whose
// host control flow copies its scalars back (tfaot-gpu-read-decisions)
// before the other host work goes into kernels; an emulated build's memory
// is the host's. tfaot-gpu-tiled-depthwise first, while the depthwise
// generics are still generics.
static std::string mapToKernels(bool readDecisions, bool tiledDepthwise) {
  return "func.func(" + tiledDepthwisePass(tiledDepthwise) +
         ",tfaot-gpu-copies-to-linalg,"
         "tfaot-gpu-parallel-dims-first,"
         "convert-linalg-to-parallel-loops,"
         "tfaot-gpu-accumulate-in-registers,"
         // Views at rows read from memory into the kernels (the emulation
         // too, which checks the numbers).
         "tfaot-gpu-sink-views-into-kernels)," +
         (readDecisions
              ? "tfaot-gpu-stage-host-calls,tfaot-gpu-read-decisions,"
              : "") +
         // The loads of scalars a one-thread kernel stored for later code
         // into the kernels that use them, and those a decision uses read
         // back.
         "func.func(tfaot-gpu-wrap-host-work,"
         "tfaot-gpu-sink-views-into-kernels)," +
         (readDecisions ? "tfaot-gpu-read-decisions," : "") +
         "func.func(tfaot-gpu-flatten-parallel-loops,"
         "gpu-map-parallel-loops),"
         "convert-parallel-loops-to-gpu,";
}

// `matmulsToCublas` is tfaot-gpu-matmuls-to-cublas with its options, or
// nothing.
static std::string kernelPipeline(const std::string &matmulsToCublas,
                                  bool tiledDepthwise) {
  return matmulsToCublas +
         mapToKernels(/*readDecisions=*/true, tiledDepthwise) +
         "canonicalize,cse,"
         // Constants (the loop bounds every kernel delinearizes its thread
         // index by) into the kernels: as parameters, each division by a
         // dimension was a run-time 64-bit division.
         "gpu-launch-sink-index-computations,"
         "gpu-kernel-outlining,"
         "tfaot-gpu-merge-kernel-modules,"
         "gpu.module(tfaot-gpu-contract-fp),"
         "tfaot-gpu-check-host-code";
}

// The kernel mapping up to gpu.launch, then each launch run as loops on the
// CPU (tfaot compile --gpu_emulate): the rest is the CPU's lowering.
// `matmulsToCublas` as for kernelPipeline, with emulate=true. bf16
// conversions become integer arithmetic (rounding to nearest even, as the
// GPU's cvt.rn.bf16.f32): LLVM would call __truncsfbf2, which not every
// C runtime library has.
static std::string emulationPipeline(const std::string &matmulsToCublas,
                                     bool bf16, bool tiledDepthwise) {
  return matmulsToCublas +
         mapToKernels(/*readDecisions=*/false, tiledDepthwise) +
         "func.func(tfaot-gpu-emulate-launches),"
         "tfaot-gpu-define-emulated-gemm,tfaot-gpu-define-emulated-conv," +
         (bf16 ? "arith-expand{include-bf16=true}," : "") + "canonicalize,cse";
}

/// tfaot-gpu-matmuls-to-cublas with `gemms`' options, or nothing.
static std::string matmulsToCublas(const ::tfaot::gpu::GemmOptions &gemms,
                                   bool emulate) {
  if (!gemms.cublas)
    return "";
  return std::string("tfaot-gpu-matmuls-to-cublas{allow-tf32=") +
         (gemms.allowTf32 ? "true" : "false") +
         " emulate=" + (emulate ? "true" : "false") + "},";
}

// The PTX ISA version each architecture needs at least (sm_89: PTX 7.8,
// sm_90: 7.8; LLVM's default for them is older than ptxas accepts, so it is
// set explicitly; 8.0 is what CUDA 12.0+ drivers take).
static std::string toNVVMPipeline(const std::string &arch,
                                  const std::string &toolkit) {
  return "lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
         "gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
         "canonicalize,cse,reconcile-unrealized-casts),"
         "nvvm-attach-target{chip=" +
         arch +
         " features=+ptx80 O=3},"
         "finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,"
         "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
         "gpu-to-llvm{use-bare-pointers-for-host use-bare-pointers-for-kernels},"
         "convert-cf-to-llvm,reconcile-unrealized-casts,"
         "gpu-module-to-binary{format=isa" +
         (toolkit.empty() ? "" : " toolkit=" + toolkit) + "}";
}

static void registerPassesOnce() {
  static bool done = [] {
    registerAllPasses();
    mlir::tfaot::registerTfaotPasses();
    mlir::tfaot::registerSplitSharedEmptiesPass();
    mlir::tfaot::registerConstantsToGlobalsPass();
    mlir::tfaot::registerTfaotGpuPasses();
    return true;
  }();
  (void)done;
}

namespace tfaot::gpu {

static const char *const kArchs[] = {"sm_80", "sm_89", "sm_90"};

bool isSupportedArch(const std::string &arch) {
  return llvm::is_contained(kArchs, arch);
}

std::string supportedArchList() {
  return llvm::join(llvm::ArrayRef<const char *>(kArchs), ", ");
}

LogicalResult buildBufferizePipeline(OpPassManager &pm,
                                     const GemmOptions &gemms) {
  registerPassesOnce();
  std::string storeHalf;
  if (!gemms.halfType.empty())
    storeHalf = "func.func(tfaot-gpu-store-half{type=" + gemms.halfType +
                (gemms.cudnnConvs ? " keep-convs=true" : "") + "}),";
  std::string convsToMatmuls =
      gemms.cublas ? "func.func(tfaot-gpu-convs-to-matmuls)," : "";
  // --gpu_conv=cudnn: the 16-bit storage is chosen first (cuDNN takes a
  // 16-bit convolution only with an epilogue that stores 16 bits), then
  // the convolutions cuDNN runs, then im2col for the others.
  if (gemms.cudnnConvs)
    return parsePassPipeline(
        bufferizePipeline("",
                          storeHalf + "func.func(tfaot-gpu-convs-to-cudnn)," +
                              convsToMatmuls,
                          std::string("tfaot-gpu-cudnn-calls{allow-tf32=") +
                              (gemms.allowTf32 ? "true" : "false") + "},",
                          gemms.deferredFrees),
        pm);
  return parsePassPipeline(
      bufferizePipeline(convsToMatmuls, storeHalf, "", gemms.deferredFrees),
      pm);
}

LogicalResult buildDepthwiseReportPipeline(OpPassManager &pm,
                                           const GemmOptions &gemms) {
  registerPassesOnce();
  return parsePassPipeline(
      "func.func(" + tiledDepthwisePass(gemms.tiledDepthwise, true) + ")", pm);
}

LogicalResult buildKernelPipeline(OpPassManager &pm, const GemmOptions &gemms) {
  registerPassesOnce();
  return parsePassPipeline(
      kernelPipeline(matmulsToCublas(gemms, false), gemms.tiledDepthwise), pm);
}

LogicalResult buildEmulationPipeline(OpPassManager &pm,
                                     const GemmOptions &gemms) {
  registerPassesOnce();
  return parsePassPipeline(emulationPipeline(matmulsToCublas(gemms, true),
                                             gemms.halfType == "bf16",
                                             gemms.tiledDepthwise),
                           pm);
}

LogicalResult buildToNVVMPipeline(OpPassManager &pm, const std::string &arch,
                                  const std::string &cudaToolkit) {
  registerPassesOnce();
  if (!isSupportedArch(arch))
    return failure();
  return parsePassPipeline(toNVVMPipeline(arch, cudaToolkit), pm);
}

namespace {
struct GemmPipelineOptions : public PassPipelineOptions<GemmPipelineOptions> {
  Option<bool> cublas{*this, "cublas",
                      llvm::cl::desc("Convolutions and matmuls through cuBLAS "
                                     "(--gpu_gemm=cublas)"),
                      llvm::cl::init(true)};
  Option<bool> allowTf32{*this, "allow-tf32",
                         llvm::cl::desc("cuBLAS may use TF32 (--allow_tf32)"),
                         llvm::cl::init(false)};
  Option<std::string> halfType{
      *this, "half-type",
      llvm::cl::desc("Store activations and weights in f16 or bf16 "
                     "(--precision=fp16|bf16); empty: f32"),
      llvm::cl::init("")};
  Option<bool> cudnn{*this, "cudnn",
                     llvm::cl::desc("Convolutions and their epilogues "
                                    "through cuDNN (--gpu_conv=cudnn)"),
                     llvm::cl::init(false)};
  Option<bool> deferredFrees{
      *this, "deferred-frees",
      llvm::cl::desc("No deallocation pipeline: the runtime frees "
                     "temporaries after the Run() (the device build; "
                     "--gpu_emulate frees them)"),
      llvm::cl::init(false)};
  Option<bool> tiledDepthwise{
      *this, "tiled-depthwise",
      llvm::cl::desc("Depthwise convolutions over shared-memory tiles, "
                     "several outputs a thread (--gpu_depthwise=tiled); "
                     "false: one thread per output"),
      llvm::cl::init(true)};
  GemmOptions get() const {
    return {cublas, allowTf32, halfType, cudnn, deferredFrees, tiledDepthwise};
  }
};

struct ToNVVMOptions : public PassPipelineOptions<ToNVVMOptions> {
  Option<std::string> arch{*this, "arch",
                           llvm::cl::desc("GPU architecture: sm_80, sm_89 or "
                                          "sm_90"),
                           llvm::cl::init("sm_90")};
};
} // namespace

void registerGpuTranslations(DialectRegistry &registry) {
  registerAllToLLVMIRTranslations(registry);
}

void registerGpuPipelines() {
  registerPassesOnce();
  PassPipelineRegistration<GemmPipelineOptions>(
      "tfaot-gpu-bufferize",
      "Lower tfaot to bufferized memref code for the GPU backend",
      [](OpPassManager &pm, const GemmPipelineOptions &options) {
        (void)buildBufferizePipeline(pm, options.get());
      });
  PassPipelineRegistration<GemmPipelineOptions>(
      "tfaot-gpu-kernels",
      "Replace matmuls by cuBLAS calls, map bufferized loops to GPU kernels "
      "(256-thread blocks, one thread per output element) outlined into one "
      "gpu.module",
      [](OpPassManager &pm, const GemmPipelineOptions &options) {
        (void)buildKernelPipeline(pm, options.get());
      });
  PassPipelineRegistration<GemmPipelineOptions>(
      "tfaot-gpu-emulate",
      "Map bufferized loops to GPU launches, then run each launch as loops "
      "over its blocks and threads on the CPU (checks the mapping's results); "
      "cuBLAS products become calls to loops defined in the module",
      [](OpPassManager &pm, const GemmPipelineOptions &options) {
        (void)buildEmulationPipeline(pm, options.get());
      });
  PassPipelineRegistration<ToNVVMOptions>(
      "tfaot-gpu-to-nvvm",
      "Lower kernels to PTX (gpu.binary) and host code to the LLVM dialect",
      [](OpPassManager &pm, const ToNVVMOptions &options) {
        (void)buildToNVVMPipeline(pm, options.arch, findCudaToolkit());
      });
}

} // namespace tfaot::gpu
