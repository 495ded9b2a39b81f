//===- f32_gemm.h - Packed float32 products --------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library: the implementations behind
// tfaot_rt_mmt4d_f32f32f32 (tfaot/runtime/f32_kernels.h, which gives the
// layouts), exposed so that tests can run each on the same data.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_F32_GEMM_H
#define TFAOT_RUNTIME_F32_GEMM_H

#include "padded_rows.h"
#include "tfaot/runtime/f32_kernels.h"

#include <cstdint>

namespace tfaot::internal {

/// The implementations tfaot_rt_mmt4d_f32f32f32 chooses from.
enum class F32Path {
  Portable, ///< C++ loops, one std::fma per product.
  Avx512,   ///< AVX-512F register blocks of up to 6 rows x 64 columns.
};

/// Whether this CPU (and build) can run `path`.
bool F32PathAvailable(F32Path path);

/// The path tfaot_rt_mmt4d_f32f32f32 takes on this CPU.
F32Path BestF32Path();

/// What tfaot_rt_mmt4d_f32_fused does to each sum instead of storing it
/// in the packed layout (see tfaot/runtime/f32_kernels.h): for row i,
/// column j < n, in this order of float32 operations,
///   y = sum + bias[j] (if bias); y = y + residual[i][j] (if residual);
///   out[RowOffset(i) + j] = min(max(y, lo), hi)
/// (max(lo, y) and min(hi, y) as _mm512_max_ps/_mm512_min_ps do them: a
/// NaN y stays NaN).
struct F32Epilogue {
  float *out = nullptr;
  int64_t n = 0;                   ///< Columns of the result (<= 64 n1).
  const float *bias = nullptr;     ///< n values, or null.
  const float *residual = nullptr; ///< [m][n] dense, or null; may be out.
  float lo = -__builtin_inff(), hi = __builtin_inff();
  /// With row_pixels > 0 the result is the interior of a padded NHWC
  /// buffer (padded_rows.h). 0: dense.
  int64_t row_pixels = 0, row_stride = 0;

  int64_t RowOffset(int64_t i) const {
    return PaddedRowOffset(i, n, row_pixels, row_stride);
  }
};

/// One call's operands (layouts in tfaot/runtime/f32_kernels.h).
struct F32Product {
  const float *lhs, *rhs;
  float *out; ///< The packed result; unused with an epilogue.
  int64_t batch, m, n1, k;
  bool overwrite;
  /// Or the sums go through this (batch 1, overwrite only); null: none.
  const F32Epilogue *epilogue = nullptr;
};

/// The product on `path` (one that is not available runs the portable
/// code), on the current thread pool.
void Mmt4dF32(F32Path path, const F32Product &product);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_F32_GEMM_H
