//===- bf16_gemm.h - bf16 products with float32 sums -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library: the implementations behind
// tfaot_rt_mmt4d_bf16bf16f32 (tfaot/runtime/bf16_kernels.h, which gives
// the layouts), exposed so that tests can run each on the same data.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_BF16_GEMM_H
#define TFAOT_RUNTIME_BF16_GEMM_H

#include "tfaot/runtime/bf16_kernels.h"

#include <cstdint>

namespace tfaot::internal {

/// The implementations tfaot_rt_mmt4d_bf16bf16f32 chooses from.
enum class Bf16Path {
  Portable,   ///< C++ loops: each bf16 widened to float32, float32 FMAs.
  Avx512Bf16, ///< vdpbf16ps register blocks (AVX512-BF16).
  Amx,        ///< tdpbf16ps on AMX tiles (AMX-BF16; bf16_gemm_amx.cpp).
};

/// Whether this CPU (and build) can run `path`.
bool Bf16PathAvailable(Bf16Path path);

/// The path tfaot_rt_mmt4d_bf16bf16f32 takes on this CPU.
Bf16Path BestBf16Path();

/// The product on `path` (one that is not available runs the portable
/// code), on the current thread pool.
void Mmt4dBf16(Bf16Path path, const uint16_t *lhs, const uint16_t *rhs,
               float *out, int64_t m, int64_t n1, int64_t k1, bool overwrite);

/// One call's operands (layouts in tfaot/runtime/bf16_kernels.h).
struct Bf16Product {
  const uint16_t *lhs, *rhs;
  float *out;
  int64_t m, n1, k1;
  bool overwrite;
};

/// The AMX path alone (bf16_gemm_amx.cpp); only where
/// Bf16PathAvailable(Bf16Path::Amx).
void Mmt4dBf16Amx(const Bf16Product &product);

/// `value` rounded to the nearest bf16 (ties to even; NaN stays NaN), as
/// the compiler packs weights and vcvtneps2bf16 converts activations.
uint16_t RoundToBf16(float value);

/// The float32 a bf16 stands for (exact).
float Bf16ToFloat(uint16_t bits);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_BF16_GEMM_H
