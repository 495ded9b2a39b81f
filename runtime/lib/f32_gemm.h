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

/// One call's operands (layouts in tfaot/runtime/f32_kernels.h).
struct F32Product {
  const float *lhs, *rhs;
  float *out;
  int64_t batch, m, n1, k;
  bool overwrite;
};

/// The product on `path` (one that is not available runs the portable
/// code), on the current thread pool.
void Mmt4dF32(F32Path path, const F32Product &product);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_F32_GEMM_H
