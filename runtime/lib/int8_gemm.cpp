//===- int8_gemm.cpp - tfaot_rt_mmt4d_s8s8s32 -----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A portable kernel, and kernels for x86-64 CPUs with AVX-512 VNNI,
// AVX-VNNI or plain AVX2 chosen at run time. Those are compiled with target
// attributes rather than a -march flag so that the library still runs on
// any x86-64 CPU.
//
// All split C the same way: into units of a few rows by a group of column
// tiles, the group small enough that its part of B stays in L2 while the
// rows of A stream past it. Large products hand the units to the thread
// pool; every output element is computed by one thread in the same order
// whatever the split, so results do not depend on the thread count.
//
// This file splits the work and holds the path choice and the entry
// points; the kernels are in int8_gemm_kernels.cpp, and int8_gemm_blocks.h
// declares what the two share.
//
//===----------------------------------------------------------------------===//

#include "int8_gemm.h"

#include "amx.h"
#include "int8_epilogue_avx512.h"
#include "int8_gemm_blocks.h"
#include "parallel.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace tfaot::internal {
using namespace int8_gemm;
namespace {

// Runs units [begin, end). Units are numbered group-major so that a
// contiguous range mostly walks down the rows under one group of B, and
// consecutive units of one group become one call of the path's block.
void RunUnits(void *context, int64_t begin, int64_t end) {
  const Problem &p = *static_cast<const Problem *>(context);
  while (begin < end) {
    int64_t group = begin / p.row_units;
    int64_t last = std::min(end, (group + 1) * p.row_units);
    int64_t row_begin = (begin - group * p.row_units) * p.unit_rows;
    int64_t row_end = std::min(p.m, (last - group * p.row_units) * p.unit_rows);
    int64_t tile_begin = group * p.tiles_per_group;
    int64_t tile_end = std::min(p.n1, tile_begin + p.tiles_per_group);
    p.block(p, row_begin, row_end, tile_begin, tile_end);
    begin = last;
  }
}

void Run(Problem &p) {
  int64_t tile_bytes = p.k1 * kTileBytes;
  int64_t max_tiles = std::max<int64_t>(1, p.b_group_bytes / tile_bytes);
  // Whole register blocks of tiles, so that only the last group of C ends
  // in a narrower block.
  if (max_tiles > kBlockTiles)
    max_tiles -= max_tiles % kBlockTiles;
  if (p.epilogue)
    max_tiles =
        std::min(max_tiles, kFusedGroupTiles * kPanelRows / p.panel_rows);
  // As few groups as that allows, of near-equal widths: threads take whole
  // groups where rows are few, and 36 tiles as 32 + 4 kept one of two
  // threads idle most of the time.
  int64_t groups = (p.n1 + max_tiles - 1) / max_tiles;
  p.tiles_per_group = (p.n1 + groups - 1) / groups;
  if (p.tiles_per_group > kBlockTiles) // Still at most max_tiles.
    p.tiles_per_group =
        (p.tiles_per_group + kBlockTiles - 1) / kBlockTiles * kBlockTiles;
  p.tiles_per_group = std::min(p.tiles_per_group, p.n1);
  groups = (p.n1 + p.tiles_per_group - 1) / p.tiles_per_group;
  // Enough units for the threads to share evenly (49 rows in one group as
  // 24 + 24 + 1 split 2:1 between two threads), but whole panels where
  // there are enough: a unit walks its group of B once per panel of rows.
  auto unitsOf = [&](int64_t rows) {
    return (p.m + rows - 1) / rows * groups;
  };
  while (p.unit_rows >= 12 && p.unit_rows / 2 >= p.min_unit_rows &&
         unitsOf(p.unit_rows) < 8)
    p.unit_rows /= 2;
  p.row_units = (p.m + p.unit_rows - 1) / p.unit_rows;
  int64_t units = p.row_units * groups;
  if (p.m * p.n1 * p.k1 >= kParallelWork)
    tfaot_rt_parallel_for(RunUnits, &p, units);
  else
    RunUnits(&p, 0, units);
}

// The block of a fused product: each panel of rows is computed by the
// path's block into a buffer on the stack, and the epilogue turns it into
// the result while it is still in cache. The int32 sums never reach memory.
// (With AVX-512 VNNI, int8 results without a residual skip the panel:
// Avx512InRegisterBlock below.)
void FusedBlock(const Problem &p, int64_t row_begin, int64_t row_end,
                int64_t tile_begin, int64_t tile_end) {
  alignas(64) int32_t panel[kPanelRows * kFusedGroupTiles * kN0];
  static_assert(kAmxPanelRows * kAmxFusedGroupTiles <=
                kPanelRows * kFusedGroupTiles);
  const int64_t tiles = tile_end - tile_begin;
  Problem q = p;
  q.out = panel;
  q.ldc = tiles * kN0;
  q.rhs = p.rhs + tile_begin * p.k1 * kTileBytes;
  if (q.neg_comp)
    q.neg_comp += tile_begin * kN0;
  if (q.column_init)
    q.column_init += tile_begin * kN0;
  const int64_t col0 = p.epilogue_col0 + tile_begin * kN0;
  const int64_t cols = std::min(p.epilogue->n - col0, tiles * kN0);
  for (int64_t first = row_begin; first < row_end; first += p.panel_rows) {
    int64_t rows = std::min(p.panel_rows, row_end - first);
    q.lhs = p.lhs + first * p.k1 * kK0;
    q.m = rows;
    p.inner(q, 0, rows, 0, tiles);
    if (cols > 0)
      p.apply(*p.epilogue, panel, q.ldc, first, rows, col0, cols);
  }
}

#if defined(__x86_64__)
bool CpuHas(Int8GemmPath path) {
  __builtin_cpu_init(); // Callers may run before the library's constructors.
  switch (path) {
  case Int8GemmPath::Scalar:
    return true;
  case Int8GemmPath::Avx512Vnni:
    // VL for the fused epilogue's 16-byte masked stores (every CPU with
    // AVX-512 VNNI has it).
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512vnni");
  case Int8GemmPath::AvxVnni:
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avxvnni");
  case Int8GemmPath::Avx2:
    return __builtin_cpu_supports("avx2");
  case Int8GemmPath::Amx:
    return CpuHas(Int8GemmPath::Avx512Vnni) && AmxUsable(AmxUnit::Int8);
  }
  return false;
}
#else
bool CpuHas(Int8GemmPath path) { return path == Int8GemmPath::Scalar; }
#endif // defined(__x86_64__)

} // namespace

bool Int8GemmPathAvailable(Int8GemmPath path) {
  // The CPU does not change under a running process: ask it once per path.
  static const bool has_avx512_vnni = CpuHas(Int8GemmPath::Avx512Vnni);
  static const bool has_avx_vnni = CpuHas(Int8GemmPath::AvxVnni);
  static const bool has_avx2 = CpuHas(Int8GemmPath::Avx2);
  static const bool has_amx = CpuHas(Int8GemmPath::Amx);
  switch (path) {
  case Int8GemmPath::Scalar:
    return true;
  case Int8GemmPath::Avx512Vnni:
    return has_avx512_vnni;
  case Int8GemmPath::AvxVnni:
    return has_avx_vnni;
  case Int8GemmPath::Avx2:
    return has_avx2;
  case Int8GemmPath::Amx:
    return has_amx;
  }
  return false;
}

Int8GemmPath BestInt8GemmPath() {
  static const Int8GemmPath best =
      Int8GemmPathAvailable(Int8GemmPath::Amx) ? Int8GemmPath::Amx
      : Int8GemmPathAvailable(Int8GemmPath::Avx512Vnni)
          ? Int8GemmPath::Avx512Vnni
      : Int8GemmPathAvailable(Int8GemmPath::AvxVnni) ? Int8GemmPath::AvxVnni
      : Int8GemmPathAvailable(Int8GemmPath::Avx2)    ? Int8GemmPath::Avx2
                                                     : Int8GemmPath::Scalar;
  return best;
}

namespace {

// Sets the block functions of `p` for a path: the path's own, or FusedBlock
// around it when there is an epilogue.
void UseBlock(Problem &p, BlockFn block, EpilogueFn apply) {
  if (p.epilogue) {
    p.inner = block;
    p.apply = apply;
    p.block = FusedBlock;
  } else {
    p.block = block;
  }
}

// The sums of a product with no k: column_init (or zero) everywhere.
void EmptyProduct(const Problem &p, int32_t *out) {
  alignas(64) int32_t row[kFusedGroupTiles * kN0];
  const int64_t width = p.n1 * kN0;
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t first = 0; first < width; first += kFusedGroupTiles * kN0) {
      int64_t count = std::min(kFusedGroupTiles * kN0, width - first);
      int32_t *dst = p.epilogue ? row : out + i * width + first;
      for (int64_t j = 0; j < count; ++j)
        dst[j] = p.column_init ? p.column_init[first + j] : 0;
      int64_t cols = p.epilogue ? std::min(count, p.epilogue->n - first) : 0;
      if (cols > 0)
        EpilogueFor(EpilogueIsa::Portable)(*p.epilogue, row, 0, i, 1, first,
                                           cols);
    }
}

// The column sums of B that a biased column_init (kMmt4dBiasedColumnInit)
// holds 128 times less than the column starts, added back for the paths
// that start from the starts themselves: starts[j] = column_init[j] + 128 *
// (column j of B summed over k), wrapping like the kernels' sums. With
// AVX-512 VNNI (every CPU with AMX has it) the sums are vpdpbusd's: the
// scalar loop took 0.65 ms of each 0.85 ms stage-5 layer of ResNet-50's
// int8 build on the AMX path (2.4 MB of weights per call).
void UnbiasColumnInit(const int8_t *rhs, int64_t n1, int64_t k1,
                      const int32_t *column_init, int32_t *starts) {
#if defined(__x86_64__)
  if (Int8GemmPathAvailable(Int8GemmPath::Avx512Vnni)) {
    Avx512NegColumnSums(rhs, n1, k1, starts); // -128 x the sums
    for (int64_t j = 0; j < n1 * kN0; ++j)
      starts[j] = static_cast<int32_t>(static_cast<uint32_t>(column_init[j]) -
                                       static_cast<uint32_t>(starts[j]));
    return;
  }
#endif
  for (int64_t t = 0; t < n1; ++t) {
    const int8_t *b = rhs + t * k1 * kTileBytes;
    for (int64_t j = 0; j < kN0; ++j) {
      uint32_t sum = 0;
      for (int64_t g = 0; g < k1; ++g)
        for (int64_t q = 0; q < kK0; ++q)
          sum += static_cast<uint32_t>(int32_t{b[g * kTileBytes + j * kK0 + q]});
      starts[t * kN0 + j] = static_cast<int32_t>(
          static_cast<uint32_t>(column_init[t * kN0 + j]) + 128u * sum);
    }
  }
}

// Sets up one chunk of columns of a product on `path`: its blocks, and what
// its columns start from, in `starts` (a buffer for the chunk's columns)
// where that must be computed here. `biased`: column_init is biased
// (kMmt4dBiasedColumnInit).
void UsePath(Int8GemmPath path, Problem &chunk, bool biased,
             int32_t *starts) {
  const bool unbias = biased && path != Int8GemmPath::Avx512Vnni &&
                      path != Int8GemmPath::AvxVnni;
  if (unbias) {
    UnbiasColumnInit(chunk.rhs, chunk.n1, chunk.k1, chunk.column_init, starts);
    chunk.column_init = starts;
  }
  if (path == Int8GemmPath::Scalar) {
    UseBlock(chunk, ScalarBlock, EpilogueFor(EpilogueIsa::Portable));
    chunk.unit_rows = 8;
    return;
  }
#if defined(__x86_64__)
  chunk.unit_rows = kPanelRows;
  if (path == Int8GemmPath::Amx) {
    // Signed products: the sums start from column_init (or zero, or C).
    chunk.neg_comp = chunk.column_init;
    chunk.unit_rows = chunk.panel_rows = kAmxPanelRows;
    // Whole blocks of two tile rows: half as many units where rows are
    // few (49: 32 + 17) rather than blocks of one tile row, half as fast.
    chunk.min_unit_rows = kAmxPanelRows;
    chunk.b_group_bytes = kAmxBGroupBytes;
    UseBlock(chunk, AmxBlock, EpilogueFor(EpilogueIsa::Avx512));
    return;
  }
  if (path == Int8GemmPath::Avx2) {
    // Signed products need no compensation: the kernels start from zero and
    // add column_init (or C) once at the end.
    chunk.neg_comp = chunk.column_init;
    chunk.kernels = &kAvx2Kernels;
    UseBlock(chunk, KernelBlock, EpilogueFor(EpilogueIsa::Avx2));
    return;
  }
  const bool avx512 = path == Int8GemmPath::Avx512Vnni;
  if (biased) {
    chunk.neg_comp = chunk.column_init; // Computed by the compiler.
  } else {
    if (avx512)
      Avx512NegColumnSums(chunk.rhs, chunk.n1, chunk.k1, starts);
    else
      AvxVnniNegColumnSums(chunk.rhs, chunk.n1, chunk.k1, starts);
    if (chunk.column_init)
      for (int64_t j = 0; j < chunk.n1 * kN0; ++j)
        starts[j] = static_cast<int32_t>(
            static_cast<uint32_t>(starts[j]) +
            static_cast<uint32_t>(chunk.column_init[j]));
    chunk.neg_comp = starts;
  }
  if (avx512) {
    chunk.kernels = &kAvx512Kernels;
    UseBlock(chunk, KernelBlock, EpilogueFor(EpilogueIsa::Avx512));
    if (chunk.epilogue && chunk.epilogue->int8_result &&
        ResidualOf(*chunk.epilogue) != kFloatResidual)
      chunk.block = Avx512InRegisterBlock;
  } else {
    chunk.kernels = &kAvxVnniKernels;
    UseBlock(chunk, KernelBlock, EpilogueFor(EpilogueIsa::Avx2));
  }
#endif
}

// Both entry points: C = A * B (+ column_init, or + C) stored to `out`, or
// with `epilogue` its results stored where the epilogue says.
void Mmt4d(Int8GemmPath path, const int8_t *lhs, const int8_t *rhs,
           int32_t *out, int64_t m, int64_t n1, int64_t k1, int32_t flags,
           const int32_t *column_init, const Int8Epilogue *epilogue) {
  Problem p{};
  p.lhs = lhs;
  p.rhs = rhs;
  p.out = out;
  p.m = m;
  p.n1 = n1;
  p.k1 = k1;
  p.panel_rows = kPanelRows;
  p.b_group_bytes = kBGroupBytes;
  p.min_unit_rows = 1;
  p.epilogue = epilogue;
  p.column_init = (flags & kMmt4dColumnInit) ? column_init : nullptr;
  p.overwrite = (flags & kMmt4dOverwrite) != 0 || p.column_init || epilogue;
  // With no k the column sums are zero: biased or not, the same starts.
  const bool biased = p.column_init && (flags & kMmt4dBiasedColumnInit);
  if (m <= 0 || n1 <= 0)
    return;
  if (k1 <= 0) {
    if (p.overwrite)
      EmptyProduct(p, out);
    return;
  }
  if (!Int8GemmPathAvailable(path))
    path = Int8GemmPath::Scalar;
  p.ldc = n1 * kN0;
  // The column starts of a chunk, on the stack: generated code must not
  // allocate during Run(). 16 KiB covers N up to 4096 in one chunk; wider
  // products run as several chunks of columns.
  constexpr int64_t kChunkTiles = 256;
  alignas(64) int32_t starts[kChunkTiles * kN0];
  for (int64_t first = 0; first < n1; first += kChunkTiles) {
    Problem chunk = p;
    chunk.n1 = std::min(kChunkTiles, n1 - first);
    chunk.rhs = rhs + first * k1 * kTileBytes;
    if (chunk.out)
      chunk.out = out + first * kN0;
    chunk.epilogue_col0 = first * kN0;
    if (chunk.column_init)
      chunk.column_init += first * kN0;
    UsePath(path, chunk, biased, starts);
    Run(chunk);
  }
}

} // namespace

void Mmt4dS8S8S32(Int8GemmPath path, const int8_t *lhs, const int8_t *rhs,
                  int32_t *out, int64_t m, int64_t n1, int64_t k1,
                  int32_t flags, const int32_t *column_init) {
  Mmt4d(path, lhs, rhs, out, m, n1, k1, flags, column_init, nullptr);
}

void Mmt4dS8S8Fused(Int8GemmPath path, const int8_t *lhs, const int8_t *rhs,
                    int64_t m, int64_t n1, int64_t k1, int32_t flags,
                    const int32_t *column_init, const Int8Epilogue &epilogue) {
  Mmt4d(path, lhs, rhs, nullptr, m, n1, k1,
        flags & (kMmt4dColumnInit | kMmt4dBiasedColumnInit),
        column_init, &epilogue);
}

} // namespace tfaot::internal

extern "C" void tfaot_rt_mmt4d_s8s8s32(int64_t lhs, int64_t rhs, int64_t out,
                                       int64_t m, int64_t n1, int64_t k1,
                                       int32_t flags, int64_t column_init) {
  using namespace tfaot::internal;
  Mmt4dS8S8S32(BestInt8GemmPath(), reinterpret_cast<const int8_t *>(lhs),
               reinterpret_cast<const int8_t *>(rhs),
               reinterpret_cast<int32_t *>(out), m, n1, k1, flags,
               reinterpret_cast<const int32_t *>(column_init));
}

extern "C" void tfaot_rt_mmt4d_s8s8_fused(
    int64_t lhs, int64_t rhs, int64_t m, int64_t n1, int64_t k1,
    int32_t flags, int64_t column_init, int64_t out, int64_t n, int64_t scale,
    int64_t bias, int64_t residual, float lo, float hi, int32_t int8_result,
    float q_mul, float q_zp, float q_lo, float q_hi, int64_t row_pixels,
    int64_t row_stride, int64_t int8_copy, int64_t residual_int8,
    float residual_scale, float residual_zp) {
  using namespace tfaot::internal;
  Int8Epilogue epilogue =
      EpilogueFromArguments(out, n, scale, bias, residual, lo, hi,
                            int8_result, q_mul, q_zp, q_lo, q_hi, row_pixels,
                            row_stride);
  epilogue.int8_copy = reinterpret_cast<int8_t *>(int8_copy);
  epilogue.residual_int8 = reinterpret_cast<const int8_t *>(residual_int8);
  epilogue.residual_scale = residual_scale;
  epilogue.residual_zp = residual_zp;
  Mmt4dS8S8Fused(BestInt8GemmPath(), reinterpret_cast<const int8_t *>(lhs),
                 reinterpret_cast<const int8_t *>(rhs), m, n1, k1, flags,
                 reinterpret_cast<const int32_t *>(column_init), epilogue);
}
