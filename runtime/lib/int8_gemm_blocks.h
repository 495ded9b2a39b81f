//===- int8_gemm_blocks.h - What the int8 GEMM's files share ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The tile sizes and the Problem that int8_gemm.cpp (the split of the work
// into units, the choice of path and the entry points) and
// int8_gemm_kernels.cpp (the portable and x86-64 register blocks) share,
// and the blocks and kernel sets the kernels file defines. Internal to
// runtime/lib.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_INT8_GEMM_BLOCKS_H
#define TFAOT_RUNTIME_INT8_GEMM_BLOCKS_H

#include "int8_gemm.h"

#include <cstdint>

namespace tfaot::internal::int8_gemm {

constexpr int64_t kN0 = 16;               // Columns per tile of B and C.
constexpr int64_t kK0 = 4;                // Bytes of a row of A per k-group.
constexpr int64_t kTileBytes = kN0 * kK0; // One k-group of one B tile.

// How much of B one unit of work keeps hot: a fraction of a typical 1-2 MiB
// L2, leaving room for the rows of A and C passing through.
constexpr int64_t kBGroupBytes = 256 * 1024;
// The AMX path's: its blocks read B four times faster, so it keeps more of
// it (still half of a Sapphire Rapids core's 2 MiB L2), and fewer groups
// read each row of A again.
constexpr int64_t kAmxBGroupBytes = 1024 * 1024;

// Below this many 64-byte k-group products (m * n1 * k1) waking other
// threads costs more than it saves: a few microseconds of work on one
// AVX-512 VNNI core.
constexpr int64_t kParallelWork = int64_t{1} << 15;

// Tiles of B the widest register block of any path covers.
constexpr int64_t kBlockTiles = 4;

struct Problem;
struct KernelSet;
using BlockFn = void (*)(const Problem &, int64_t row_begin, int64_t row_end,
                         int64_t tile_begin, int64_t tile_end);

// Column tiles one unit of a fused product covers at most, so that its
// panel of sums (kPanelRows rows) fits a 48 KiB stack buffer that stays in
// L1/L2 until the epilogue has read it.
constexpr int64_t kFusedGroupTiles = 32;
constexpr int64_t kPanelRows = 24;
// The AMX path's panels: two tile rows, and as many column tiles as keep
// the panel the size of the others'.
constexpr int64_t kAmxPanelRows = 32;
constexpr int64_t kAmxFusedGroupTiles =
    kFusedGroupTiles * kPanelRows / kAmxPanelRows;

struct Problem {
  const int8_t *lhs;
  const int8_t *rhs;
  int32_t *out;
  int64_t m, n1, k1;
  int64_t ldc; // int32s from one row of C to the next (n1 * 16 of the call)
  bool overwrite;
  // With kMmt4dColumnInit: what each column starts from (n1 * 16 values).
  const int32_t *column_init;
  // Per column of C, what the SIMD kernels start from with `overwrite` and
  // add to C without it: for the VNNI paths -128 * (its column of B summed
  // over k), plus column_init (see below); for AVX2 column_init itself, or
  // null for nothing.
  const int32_t *neg_comp;
  const KernelSet *kernels; // The SIMD path's register blocks.
  BlockFn block;
  // With an epilogue, `block` is FusedBlock, which runs `inner` (the path's
  // block) into a panel on the stack and applies `apply` to it; C's columns
  // are the epilogue's from `epilogue_col0` on.
  const Int8Epilogue *epilogue;
  EpilogueFn apply;
  BlockFn inner;
  int64_t epilogue_col0;
  int64_t panel_rows;      // Rows of a fused block's panel.
  int64_t b_group_bytes;   // Bytes of B a group of tiles may hold.
  int64_t min_unit_rows;   // Rows below which units are not split.
  int64_t unit_rows;       // Rows of C per unit of work.
  int64_t row_units;       // Units per group of tiles.
  int64_t tiles_per_group; // Column tiles per group.
};

// The blocks of int8_gemm_kernels.cpp (BlockFn).
void ScalarBlock(const Problem &p, int64_t row_begin, int64_t row_end,
                 int64_t tile_begin, int64_t tile_end);

#if defined(__x86_64__)
#define TFAOT_AVX512VNNI \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#define TFAOT_AVXVNNI __attribute__((target("avx2,avxvnni")))
#define TFAOT_AVX2 __attribute__((target("avx2")))

void KernelBlock(const Problem &p, int64_t row_begin, int64_t row_end,
                 int64_t tile_begin, int64_t tile_end);
// The AMX path's block (int8_gemm_amx.cpp).
void AmxBlock(const Problem &p, int64_t row_begin, int64_t row_end,
              int64_t tile_begin, int64_t tile_end);
void Avx512InRegisterBlock(const Problem &p, int64_t row_begin,
                           int64_t row_end, int64_t tile_begin,
                           int64_t tile_end);
TFAOT_AVX512VNNI void Avx512NegColumnSums(const int8_t *rhs, int64_t n1,
                                          int64_t k1, int32_t *neg_comp);
TFAOT_AVXVNNI void AvxVnniNegColumnSums(const int8_t *rhs, int64_t n1,
                                        int64_t k1, int32_t *neg_comp);

// The register blocks of each SIMD path (Problem::kernels).
extern const KernelSet kAvx512Kernels;
extern const KernelSet kAvxVnniKernels;
extern const KernelSet kAvx2Kernels;
#endif // defined(__x86_64__)

} // namespace tfaot::internal::int8_gemm

#endif // TFAOT_RUNTIME_INT8_GEMM_BLOCKS_H
