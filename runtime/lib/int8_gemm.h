//===- int8_gemm.h - The int8 matrix product quantized ops call -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. Quantized convolutions and matrix
// products are lowered to linalg.mmt4d on packed int8 operands, and the
// compiler replaces each such mmt4d (tile sizes M0=1, N0=16, K0=4) with a
// call to tfaot_rt_mmt4d_s8s8s32: one hand-written kernel picks the best
// instructions of the CPU the model runs on, which code generated ahead of
// time for a baseline CPU cannot do.
//
// Layouts (all row-major, no padding, no alignment required):
//   lhs  int8_t [m][k1][4]       the m x 4k1 matrix A, unchanged;
//   rhs  int8_t [n1][k1][16][4]  the 4k1 x 16n1 matrix B, where
//                                rhs[j1][p][j0][q] = B[4p+q][16j1+j0];
//   out  int32_t[m][n1][16]      the m x 16n1 matrix C, unchanged.
// C (+)= A * B with both operands signed and int32 sums that wrap around
// on overflow, as arith.addi does in linalg.mmt4d.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_INT8_GEMM_H
#define TFAOT_RUNTIME_INT8_GEMM_H

#include "int8_epilogue.h"

#include <cstdint>

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
};

/// What generated code calls. Operands are passed as integer addresses
/// because that is how the compiler materializes memref base pointers;
/// `flags` is a combination of the kMmt4d* bits; `column_init` is the
/// address kMmt4dColumnInit reads (else unused). Splits large products
/// over the current thread pool (parallel.h).
extern "C" void tfaot_rt_mmt4d_s8s8s32(int64_t lhs, int64_t rhs, int64_t out,
                                       int64_t m, int64_t n1, int64_t k1,
                                       int32_t flags, int64_t column_init);

/// The product of tfaot_rt_mmt4d_s8s8s32 (from column_init with
/// kMmt4dColumnInit, else from zero) with the epilogue of int8_epilogue.h
/// applied instead of storing the sums: the result is m x n, row-major and
/// dense (n <= n1 * 16: the padding columns of the product are dropped).
/// The epilogue's fields are the arguments of the same names; bias and
/// residual may be 0.
extern "C" void tfaot_rt_mmt4d_s8s8_fused(
    int64_t lhs, int64_t rhs, int64_t m, int64_t n1, int64_t k1,
    int32_t flags, int64_t column_init, int64_t out, int64_t n, int64_t scale,
    int64_t bias, int64_t residual, float lo, float hi, int32_t int8_result,
    float q_mul, float q_zp, float q_lo, float q_hi, int64_t row_pixels,
    int64_t row_stride);

namespace tfaot::internal {


/// The implementations tfaot_rt_mmt4d_s8s8s32 chooses from.
enum class Int8GemmPath {
  Scalar,     ///< Portable C++; the reference and the fallback.
  Avx512Vnni, ///< x86-64 with AVX-512 VNNI (vpdpbusd on zmm registers).
  AvxVnni,    ///< x86-64 with AVX-VNNI but no AVX-512 (vpdpbusd on ymm).
  Avx2,       ///< x86-64 with AVX2 but no VNNI (vpmaddwd on int16 operands).
};

/// Whether this CPU (and build) can run `path`.
bool Int8GemmPathAvailable(Int8GemmPath path);

/// The path tfaot_rt_mmt4d_s8s8s32 uses on this CPU.
Int8GemmPath BestInt8GemmPath();

/// tfaot_rt_mmt4d_s8s8s32 on a given path, for tests and benchmarks. A path
/// that is not available runs the scalar code instead.
void Mmt4dS8S8S32(Int8GemmPath path, const int8_t *lhs, const int8_t *rhs,
                  int32_t *out, int64_t m, int64_t n1, int64_t k1,
                  int32_t flags, const int32_t *column_init = nullptr);

/// tfaot_rt_mmt4d_s8s8_fused on a given path. `flags` may hold
/// kMmt4dColumnInit (the sums always start from it or from zero).
void Mmt4dS8S8Fused(Int8GemmPath path, const int8_t *lhs, const int8_t *rhs,
                    int64_t m, int64_t n1, int64_t k1, int32_t flags,
                    const int32_t *column_init, const Int8Epilogue &epilogue);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_INT8_GEMM_H
