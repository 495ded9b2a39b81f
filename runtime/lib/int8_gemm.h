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
#include "tfaot/runtime/cpu_kernels.h"

#include <cstdint>

namespace tfaot::internal {


/// The implementations tfaot_rt_mmt4d_s8s8s32 chooses from.
enum class Int8GemmPath {
  Scalar,     ///< Portable C++; the reference and the fallback.
  Avx512Vnni, ///< x86-64 with AVX-512 VNNI (vpdpbusd on zmm registers).
  AvxVnni,    ///< x86-64 with AVX-VNNI but no AVX-512 (vpdpbusd on ymm).
  Avx2,       ///< x86-64 with AVX2 but no VNNI (vpmaddwd on int16 operands).
  Amx,        ///< x86-64 with AMX-INT8 (tdpbssd on tiles; amx.h) and
              ///< AVX-512 VNNI for the epilogues.
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
/// kMmt4dColumnInit and kMmt4dBiasedColumnInit (the sums always start from
/// column_init or from zero).
void Mmt4dS8S8Fused(Int8GemmPath path, const int8_t *lhs, const int8_t *rhs,
                    int64_t m, int64_t n1, int64_t k1, int32_t flags,
                    const int32_t *column_init, const Int8Epilogue &epilogue);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_INT8_GEMM_H
