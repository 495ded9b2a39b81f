//===- f32s8_gemm.h - Float rows times int8 weights -------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. --quantize=int8 keeps some MatMul layers
// in float32 (by default the last, which produces the logits), but still
// stores their weights as int8, per column ("weight-only"): activations
// stay float32 and each weight is converted to float as it is read. At
// batch 1 such a layer (MobileNetV2's 1280 x 1000 classifier) is bound by
// reading its weights, so reading a quarter of the bytes is most of its
// time, besides a quarter of its size in the object.
//
// Layouts (row-major, dense, no alignment required):
//   a    float  [m][k]
//   b    int8_t [k][n]
//   out  float  [m][n]    out = a * float(b), overwritten
// The per-column scale is applied by the code after the call (the product
// is of the int8 values themselves).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_F32S8_GEMM_H
#define TFAOT_RUNTIME_F32S8_GEMM_H

#include "tfaot/runtime/cpu_kernels.h"

#include <cstdint>

namespace tfaot::internal {

/// The implementations tfaot_rt_matmul_f32s8 chooses from.
enum class F32S8Path {
  Portable, ///< C++ loops for the baseline x86-64 (or any CPU).
  Avx2,     ///< The same loops compiled for AVX2 and FMA.
  Avx512,   ///< Register blocks of up to 4 rows x 64 columns.
};

/// Whether this CPU (and build) can run `path`.
bool F32S8PathAvailable(F32S8Path path);

/// The product on a given path (one that is not available runs the
/// portable code), on the current thread pool.
void MatmulF32S8(F32S8Path path, const float *a, const int8_t *b, float *out,
                 int64_t m, int64_t n, int64_t k);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_F32S8_GEMM_H
