//===- Pipeline.h - CUDA lowering pipelines ---------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot dialect -> kernels (PTX) + host launcher (LLVM dialect) for the CUDA
// target, in three named parts that tfaot-opt also exposes:
//   --tfaot-gpu-bufferize : tfaot -> linalg -> memrefs with out-parameter
//                           results and the planned arena (as on CPU, minus
//                           the CPU's tiling of conv/matmul epilogues, plus
//                           convolutions as im2col + matmul for cuBLAS);
//   --tfaot-gpu-kernels   : matmuls -> cuBLAS calls, loops -> one kernel
//                           per parallel loop nest (blocks of 256 threads,
//                           one thread per output element; depthwise
//                           convolutions over shared-memory tiles),
//                           outlined into one gpu.module;
// The first two take {cublas=false} (--gpu_gemm=kernels) and the second
// {allow-tf32=true} and {tiled-depthwise=false} (--gpu_depthwise=direct).
//   --tfaot-gpu-to-nvvm   : kernels -> NVVM -> PTX (gpu.binary), host code ->
//                           LLVM dialect with bare-pointer arguments.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_PIPELINE_H
#define TFAOT_BACKENDS_GPU_PIPELINE_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace tfaot::gpu {

/// The GPU architectures tfaot compiles for ("sm_80", "sm_89", "sm_90").
bool isSupportedArch(const std::string &arch);
/// "sm_80, sm_89, sm_90", for error messages and --help.
std::string supportedArchList();

/// How convolutions and matrix products run (ConvsToMatmuls.cpp,
/// MatmulsToCublas.cpp), and in which precision (StoreHalf.cpp).
struct GemmOptions {
  /// --gpu_gemm=cublas (default): f32 convolutions become im2col + matmul
  /// and matmuls cuBLAS calls; false (--gpu_gemm=kernels): generated
  /// kernels only, and the model needs nothing but the driver.
  bool cublas = true;
  bool allowTf32 = false;  ///< --precision=tf32: cuBLAS may use TF32.
  /// --precision=fp16|bf16: "f16" or "bf16", the type activations and
  /// weights are stored in between ops and products read; empty: f32.
  std::string halfType;
  /// --gpu_conv=cudnn: convolutions with constant weights (and their
  /// bias/residual/ReLU epilogues) go to cuDNN, the rest im2col + cuBLAS
  /// (ConvsToCudnn.cpp, CudnnCalls.cpp); false (im2col, the default): all
  /// of them im2col + cuBLAS. Needs `cublas`.
  bool cudnnConvs = false;
  /// The device build (not --gpu_emulate): the runtime frees a Run()'s
  /// temporaries once it has synchronized, so bufferization leaves out the
  /// deallocation pipeline (its bookkeeping around branches and loops
  /// would be host code reading memory). Not a GEMM choice, but it travels
  /// with them to the bufferization.
  bool deferredFrees = false;
  /// --gpu_depthwise=tiled (default): depthwise convolutions stage their
  /// input in shared memory, several outputs a thread
  /// (TiledDepthwise.cpp); false (direct): one thread per output.
  bool tiledDepthwise = true;
};

mlir::LogicalResult buildBufferizePipeline(mlir::OpPassManager &pm,
                                           const GemmOptions &gemms);
mlir::LogicalResult buildKernelPipeline(mlir::OpPassManager &pm,
                                        const GemmOptions &gemms);
/// After buildBufferizePipeline, for a report that stops there (tfaot
/// explain): the remarks of tfaot-gpu-tiled-depthwise, which the kernel
/// pipeline runs first, saying which kernel and tile each depthwise
/// convolution gets, the IR untouched.
mlir::LogicalResult buildDepthwiseReportPipeline(mlir::OpPassManager &pm,
                                                 const GemmOptions &gemms);
/// Instead of buildKernelPipeline, for --gpu_emulate: the same mapping to
/// launches, each then run as loops over blocks and threads on the CPU
/// (the CPU's to-LLVM pipeline follows); with `gemms.cublas` the products
/// call a GEMM with cuBLAS's contract that the module defines as loops.
mlir::LogicalResult buildEmulationPipeline(mlir::OpPassManager &pm,
                                           const GemmOptions &gemms);
/// `arch` is one of the supported "sm_XX"; `cudaToolkit` the toolkit to
/// link libdevice from (findCudaToolkit(); empty: none).
mlir::LogicalResult buildToNVVMPipeline(mlir::OpPassManager &pm,
                                        const std::string &arch,
                                        const std::string &cudaToolkit);

/// Adds what serializing kernels needs to a context's registry: the GPU,
/// NVVM and LLVM dialects' translations to LLVM IR.
void registerGpuTranslations(mlir::DialectRegistry &registry);

/// Registers the three pipelines and tfaot's GPU passes for tfaot-opt.
void registerGpuPipelines();

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_PIPELINE_H
