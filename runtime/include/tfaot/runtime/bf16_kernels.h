//===- bf16_kernels.h - The bf16 products of --precision=bf16 --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What generated CPU code of `tfaot compile --precision=bf16` calls for its
// convolutions and matrix products (backends/cpu/Bf16Contractions.cpp):
// bf16 operands, float32 sums. Kept apart from cpu_kernels.h so that the
// int8 kernels' users do not see it.
//
// Layouts (dense, no alignment required; a bf16 is the upper half of a
// float32's bits, stored as uint16_t):
//   lhs  bf16  [m][k1][2]          the activations' rows, k = 2 * k1
//   rhs  bf16  [n1][k1][16][2]     the weights, packed at compile time:
//                                  16 columns per tile, each column's two
//                                  consecutive k next to each other
//   out  float [m][n1][16]         = row-major [m][16 * n1]
// which is linalg.mmt4d with tiles M0=1, N0=16, K0=2: one AVX512-BF16
// vdpbf16ps multiplies a broadcast pair of the lhs by one k1 step of a tile.
//
// This header is part of the runtime: nothing from LLVM or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_BF16_KERNELS_H
#define TFAOT_RUNTIME_BF16_KERNELS_H

#include "tfaot/runtime/symbols.h"

#include <cstdint>

/// Bits of the `flags` argument of tfaot_rt_mmt4d_bf16bf16f32.
enum : int32_t {
  /// out = lhs * rhs: the old contents of `out` are ignored. Without it
  /// out += lhs * rhs, like linalg.mmt4d.
  kBf16Mmt4dOverwrite = 1,
};

/// What generated code calls (addresses as integers). Uses AMX tiles
/// (tdpbf16ps) where the CPU running it has AMX-BF16 and the operating
/// system grants them, else vdpbf16ps where it has AVX512-BF16, else
/// portable loops that convert each bf16 to float32 (exactly) and sum in
/// float32: the same products, summed in other orders (the environment
/// variables TFAOT_DISABLE_AMX=1 and TFAOT_DISABLE_AVX512_BF16=1 rule out
/// the first two on any CPU). Splits large products over the current
/// thread pool (tfaot_rt_parallel_for).
extern "C" void tfaot_rt_mmt4d_bf16bf16f32(int64_t lhs, int64_t rhs,
                                           int64_t out, int64_t m, int64_t n1,
                                           int64_t k1, int32_t flags);

namespace tfaot_rt {
inline constexpr char kMmt4dBf16[] = "tfaot_rt_mmt4d_bf16bf16f32";
} // namespace tfaot_rt

static_assert(tfaot_rt::sameName(tfaot_rt::kMmt4dBf16,
                                 TFAOT_RT_NAME_OF(tfaot_rt_mmt4d_bf16bf16f32)));

#endif // TFAOT_RUNTIME_BF16_KERNELS_H
