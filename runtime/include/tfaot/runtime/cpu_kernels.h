//===- cpu_kernels.h - What generated CPU code calls -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The extern "C" functions of libtfaot_runtime.a that generated CPU code
// calls: the parallel loop (tfaot-parallelize-loops) and the int8 kernels of
// --quantize=int8 (tfaot-cpu-int8-ukernels, tfaot-lower-int8-contractions).
// Declared here, as jpeg.h declares tfaot_rt_decode_jpeg, so that the ABI
// and the bits of `flags` are written down once: the runtime implements
// them (runtime/lib/), the compiler's codegen emits calls with these
// arguments, and tfaot bench and run, which run an object in-process, hand
// these addresses to their JIT. Users never call them themselves.
//
// This header is part of the runtime: it must not include anything from
// LLVM, MLIR, TensorFlow or Eigen.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CPU_KERNELS_H
#define TFAOT_RUNTIME_CPU_KERNELS_H

#include "tfaot/runtime/symbols.h"
#include "tfaot/runtime/thread_pool.h"

#include <cstdint>

/// What generated code calls for a parallel loop (the tfaot-parallelize-loops
/// pass emits the calls): runs iterations [0, n) of `body` on the current
/// pool, or all on this thread when there is none.
extern "C" void tfaot_rt_parallel_for(tfaot::ThreadPool::Body body,
                                      void *context, int64_t n);

/// Bits of the `flags` argument of tfaot_rt_mmt4d_s8s8s32.
enum : int32_t {
  /// C = A * B: the old contents of `out` are ignored (they may be
  /// uninitialized). Without it C += A * B, like linalg.mmt4d.
  kMmt4dOverwrite = 1,
  /// C = column_init + A * B, column_init holding one int32 per column of C
  /// (n1 * 16) added to every row: what an mmt4d into an init tensor that
  /// broadcasts one row computes, without writing and reading that init.
  /// The old contents of `out` are ignored.
  kMmt4dColumnInit = 2,
  /// With kMmt4dColumnInit: column_init already holds each column's start
  /// minus 128 times the column's sum of B (int32, wrapping), which is what
  /// the VNNI kernels start from (they feed A + 128 to vpdpbusd as unsigned
  /// bytes). The compiler computes it from the constant weights, so that
  /// each call need not read all of B once more to sum its columns; the
  /// paths without VNNI add the 128 column sums back.
  kMmt4dBiasedColumnInit = 4,
};

/// What generated code calls. Operands are passed as integer addresses
/// because that is how the compiler materializes memref base pointers;
/// `flags` is a combination of the kMmt4d* bits; `column_init` is the
/// address kMmt4dColumnInit reads (else unused). Splits large products
/// over the current thread pool (tfaot_rt_parallel_for).
extern "C" void tfaot_rt_mmt4d_s8s8s32(int64_t lhs, int64_t rhs, int64_t out,
                                       int64_t m, int64_t n1, int64_t k1,
                                       int32_t flags, int64_t column_init);

/// The product of tfaot_rt_mmt4d_s8s8s32 (from column_init with
/// kMmt4dColumnInit, else from zero) with the epilogue of
/// runtime/lib/int8_epilogue.h applied instead of storing the sums: the
/// result is m x n, row-major and dense (n <= n1 * 16: the padding columns
/// of the product are dropped).
/// The epilogue's fields are the arguments of the same names; bias,
/// residual, int8_copy and residual_int8 may be 0 (at most one of the
/// residuals is not).
extern "C" void tfaot_rt_mmt4d_s8s8_fused(
    int64_t lhs, int64_t rhs, int64_t m, int64_t n1, int64_t k1,
    int32_t flags, int64_t column_init, int64_t out, int64_t n, int64_t scale,
    int64_t bias, int64_t residual, float lo, float hi, int32_t int8_result,
    float q_mul, float q_zp, float q_lo, float q_hi, int64_t row_pixels,
    int64_t row_stride, int64_t int8_copy, int64_t residual_int8,
    float residual_scale, float residual_zp);

/// What generated code calls; addresses as integers, column_init (c int32
/// values) may be 0 for none, bias and residual as in
/// runtime/lib/int8_epilogue.h. Splits the output rows over the current
/// thread pool (tfaot_rt_parallel_for).
extern "C" void tfaot_rt_depthwise_s8s8_fused(
    int64_t input, int64_t filter, int64_t column_init, int64_t n, int64_t h,
    int64_t w, int64_t c, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
    int64_t dh, int64_t dw, int64_t ho, int64_t wo, int64_t out,
    int64_t scale, int64_t bias, int64_t residual, float lo, float hi,
    int32_t int8_result, float q_mul, float q_zp, float q_lo, float q_hi,
    int64_t row_pixels, int64_t row_stride);

/// The im2col rows of an int8 convolution, each padded with zeros to
/// row_bytes (>= kh * kw * c): out[((b * oh + y) * ow + x) * row_bytes +
/// (i * kw + j) * c + ch] = input[b][y * sh + i * dh][x * sw + j * dw][ch]
/// for the NHWC input n x h x w x c (already padded for the convolution).
/// Splits the rows over the current thread pool.
extern "C" void tfaot_rt_im2col_s8(int64_t input, int64_t out, int64_t n,
                                   int64_t h, int64_t w, int64_t c,
                                   int64_t kh, int64_t kw, int64_t sh,
                                   int64_t sw, int64_t dh, int64_t dw,
                                   int64_t oh, int64_t ow, int64_t row_bytes);

/// What generated code calls (addresses as integers, like the other
/// kernels). Splits large products over the current thread pool.
extern "C" void tfaot_rt_matmul_f32s8(int64_t a, int64_t b, int64_t out,
                                      int64_t m, int64_t n, int64_t k);

// Codegen calls these by the names in symbols.h.
static_assert(tfaot_rt::sameName(tfaot_rt::kParallelFor,
                                 TFAOT_RT_NAME_OF(tfaot_rt_parallel_for)));
static_assert(tfaot_rt::sameName(tfaot_rt::kMmt4dS8S8S32,
                                 TFAOT_RT_NAME_OF(tfaot_rt_mmt4d_s8s8s32)));
static_assert(tfaot_rt::sameName(tfaot_rt::kMmt4dS8S8Fused,
                                 TFAOT_RT_NAME_OF(tfaot_rt_mmt4d_s8s8_fused)));
static_assert(
    tfaot_rt::sameName(tfaot_rt::kDepthwiseS8S8Fused,
                       TFAOT_RT_NAME_OF(tfaot_rt_depthwise_s8s8_fused)));
static_assert(tfaot_rt::sameName(tfaot_rt::kIm2colS8,
                                 TFAOT_RT_NAME_OF(tfaot_rt_im2col_s8)));
static_assert(tfaot_rt::sameName(tfaot_rt::kMatmulF32S8,
                                 TFAOT_RT_NAME_OF(tfaot_rt_matmul_f32s8)));

#endif // TFAOT_RUNTIME_CPU_KERNELS_H
