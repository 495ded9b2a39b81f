//===- f32_kernels.h - Packed float32 products ----------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What generated CPU code calls for the float32 convolutions and matrix
// products that tfaot-cpu-f32-panel-products gives to the runtime (those
// with large constant weights, on AVX-512 targets:
// backends/cpu/F32PanelProducts.cpp says which).
//
// Layouts (dense float32, no alignment required), for each of `batch`
// independent products laid one after the other:
//   lhs  [m][k]            the activations' rows
//   rhs  [n1][k][64]       the weights, packed at compile time: 64 columns
//                          per panel, each panel's k rows contiguous
//   out  [m][n1][64]       = row-major [m][64 * n1]
// which is linalg.mmt4d (linalg.batch_mmt4d) with tiles M0=1, N0=64, K0=1.
//
// This header is part of the runtime: nothing from LLVM or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_F32_KERNELS_H
#define TFAOT_RUNTIME_F32_KERNELS_H

#include "tfaot/runtime/symbols.h"

#include <cstdint>

/// Bits of the `flags` argument of tfaot_rt_mmt4d_f32f32f32.
enum : int32_t {
  /// out = lhs * rhs: the old contents of `out` are ignored. Without it
  /// out += lhs * rhs, like linalg.mmt4d.
  kF32Mmt4dOverwrite = 1,
};

/// What generated code calls (addresses as integers). AVX-512 register
/// blocks where the CPU running it has AVX-512F, portable loops elsewhere
/// (the environment variable TFAOT_DISABLE_AVX512_F32=1 asks for those on
/// any CPU); every output sums its k products in order either way, so both
/// give the same bits up to the FMA's single rounding. Splits large
/// products over the current thread pool (tfaot_rt_parallel_for).
extern "C" void tfaot_rt_mmt4d_f32f32f32(int64_t lhs, int64_t rhs, int64_t out,
                                         int64_t batch, int64_t m, int64_t n1,
                                         int64_t k, int32_t flags);

/// The same product (batch 1, out = lhs * rhs) with its epilogue: instead
/// of the packed [m][64 * n1] sums, each row i, column j < n of the result
/// is, in this order of float32 operations,
///   y = sum + bias[j] (bias != 0);  y = y + residual[i][j] (residual != 0);
///   out[row(i) + j] = min(max(y, lo), hi)   (a NaN y stays NaN)
/// where bias is n floats, residual m x n dense (it may be out itself: each
/// element is read before it is written, but may overlap it no other way),
/// and row(i) = i * n, or, with row_pixels > 0 (the interior of a padded
/// NHWC buffer), (i / row_pixels) * row_stride + (i % row_pixels) * n.
/// The sums never reach memory: the kernel applies this to each register
/// block as its last k slice ends. No operand may overlap lhs or rhs.
extern "C" void tfaot_rt_mmt4d_f32_fused(int64_t lhs, int64_t rhs, int64_t m,
                                         int64_t n1, int64_t k, int64_t out,
                                         int64_t n, int64_t bias,
                                         int64_t residual, float lo, float hi,
                                         int64_t row_pixels,
                                         int64_t row_stride);

namespace tfaot_rt {
inline constexpr char kMmt4dF32[] = "tfaot_rt_mmt4d_f32f32f32";
inline constexpr char kMmt4dF32Fused[] = "tfaot_rt_mmt4d_f32_fused";
} // namespace tfaot_rt

static_assert(tfaot_rt::sameName(tfaot_rt::kMmt4dF32,
                                 TFAOT_RT_NAME_OF(tfaot_rt_mmt4d_f32f32f32)));
static_assert(tfaot_rt::sameName(tfaot_rt::kMmt4dF32Fused,
                                 TFAOT_RT_NAME_OF(tfaot_rt_mmt4d_f32_fused)));

#endif // TFAOT_RUNTIME_F32_KERNELS_H
