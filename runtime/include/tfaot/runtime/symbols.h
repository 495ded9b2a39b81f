//===- symbols.h - Names of the runtime functions models call -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The one list of the extern "C" tfaot_rt_* functions that compiled models
// call, by name: the compiler's codegen declares and calls them under these
// names (passes/, backends/cpu, backends/gpu), tfaot bench and run hand their
// addresses to the JIT under them, and the runtime headers that declare them
// (cpu_kernels.h, jpeg.h, checks.h) check with static_assert that each
// declaration has the name listed here. Where a function's ABI is written
// down is said beside its name.
//
// This header is part of the runtime: it includes nothing, so that both
// sides can use it.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_SYMBOLS_H
#define TFAOT_RUNTIME_SYMBOLS_H

// Not in namespace tfaot: codegen files that say `tfaot::` for mlir::tfaot
// under `using namespace mlir` would find two. tfaot_rt::kParallelFor reads
// as the symbol it names, tfaot_rt_parallel_for.
namespace tfaot_rt {

// CPU (cpu_kernels.h).
inline constexpr char kParallelFor[] = "tfaot_rt_parallel_for";
inline constexpr char kMmt4dS8S8S32[] = "tfaot_rt_mmt4d_s8s8s32";
inline constexpr char kMmt4dS8S8Fused[] = "tfaot_rt_mmt4d_s8s8_fused";
inline constexpr char kDepthwiseS8S8Fused[] = "tfaot_rt_depthwise_s8s8_fused";
inline constexpr char kMatmulF32S8[] = "tfaot_rt_matmul_f32s8";
inline constexpr char kIm2colS8[] = "tfaot_rt_im2col_s8";

// JPEG decoding (jpeg.h).
inline constexpr char kDecodeJpeg[] = "tfaot_rt_decode_jpeg";

// Run-time checks of indices read from data (checks.h).
inline constexpr char kCheckIndices[] = "tfaot_rt_check_indices";

// Ops whose output size depends on data (data_dependent.h).
inline constexpr char kNonMaxSuppression[] = "tfaot_rt_non_max_suppression";
inline constexpr char kWhere[] = "tfaot_rt_where";

// What a --profile build calls around each op (tfaot-instrument-profile).
inline constexpr char kProfileBegin[] = "tfaot_rt_profile_begin";
inline constexpr char kProfileEnd[] = "tfaot_rt_profile_end";

// CUDA host code (backends/gpu/HostLaunch.h; runtime/lib/cuda).
inline constexpr char kCudaConstant[] = "tfaot_rt_cuda_constant";
inline constexpr char kCudaAlloc[] = "tfaot_rt_cuda_alloc";
inline constexpr char kCudaFree[] = "tfaot_rt_cuda_free";
inline constexpr char kCudaLaunch[] = "tfaot_rt_cuda_launch";
inline constexpr char kCudaGemm[] = "tfaot_rt_cuda_gemm";
inline constexpr char kCudaGemmS8[] = "tfaot_rt_cuda_gemm_s8";
inline constexpr char kCudaGemmF16[] = "tfaot_rt_cuda_gemm_f16";
inline constexpr char kCudaGemmBF16[] = "tfaot_rt_cuda_gemm_bf16";
inline constexpr char kCudaConv[] = "tfaot_rt_cuda_conv";
inline constexpr char kCudaReadScalar[] = "tfaot_rt_cuda_read_scalar";
inline constexpr char kCudaHostBuffer[] = "tfaot_rt_cuda_host_buffer";
inline constexpr char kCudaCopyToHost[] = "tfaot_rt_cuda_copy_to_host";
inline constexpr char kCudaCopyToDevice[] = "tfaot_rt_cuda_copy_to_device";

/// Whether two C strings are equal, at compile time.
constexpr bool sameName(const char *a, const char *b) {
  while (*a && *a == *b)
    ++a, ++b;
  return *a == *b;
}

} // namespace tfaot_rt

/// The name of a declared function as a string; does not compile if
/// `function` is not declared. For static_asserts beside the declarations:
///   static_assert(tfaot_rt::sameName(
///       tfaot_rt::kParallelFor, TFAOT_RT_NAME_OF(tfaot_rt_parallel_for)));
#define TFAOT_RT_NAME_OF(function) ((void)&function, #function)

#endif // TFAOT_RUNTIME_SYMBOLS_H
