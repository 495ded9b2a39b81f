//===- amx_block.h - One register block of an AMX product -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library: the block both AMX products (bf16 with
// float32 sums, bf16_gemm_amx.cpp; int8 with int32 sums, int8_gemm_amx.cpp)
// are made of. Their packed operands already have the tiles' layout: 16
// rows of the lhs from k group 16s on are an A tile (rows `lda` bytes
// apart), and k groups 16s..16s+15 of one packed column tile of the rhs
// are a B tile, 16 contiguous rows of 64 bytes (a k group is the 4 bytes
// one 32-bit lane takes: 2 bf16 or 4 int8). So tiles load straight from
// the operands; only the last k1 % 16 groups are copied into zero-padded
// tiles, since a tile always spans 16 groups.
//
// A block is up to 32 rows by 32 columns: accumulator tiles 0-3, A tiles 4
// and 5, B tiles 6 and 7 (amx.h configures them), four multiplications per
// 16 k groups.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_AMX_BLOCK_H
#define TFAOT_RUNTIME_AMX_BLOCK_H

#if defined(__x86_64__)

#include "amx.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

namespace tfaot::internal::amx {

#define TFAOT_AMX __attribute__((target("amx-tile,amx-bf16,amx-int8")))

constexpr int64_t kTileRows = 16;
constexpr int64_t kTileBytes = 64;  // bytes per tile row
constexpr int64_t kGroupBytes = 4;  // bytes of one k group (a 32-bit lane)
constexpr int64_t kStepGroups = 16; // k groups per A/B tile
constexpr int64_t kBlockRows = 32;
constexpr int64_t kPrefetchSteps = 2; // how far ahead B is prefetched

/// What the accumulators start from.
enum class Start {
  Zero,   ///< zeros
  Output, ///< the output's current values (the product adds to them)
  Row,    ///< `start_row` (16 values per column tile) in every row
};

/// One block's operands, addresses in bytes.
struct BlockArgs {
  const char *a;  ///< the block's first row of the lhs, at k group 0
  int64_t lda;    ///< bytes from one lhs row to the next (4 * k1)
  const char *b;  ///< the block's first packed column tile, at k group 0
  int64_t k1;     ///< k groups to sum over
  int64_t b_tile; ///< bytes from one packed column tile to the next
  char *c;        ///< the block's first output element
  int64_t ldc;    ///< bytes from one output row to the next
  int64_t rows;   ///< 1..32, as the tiles are configured
  Start start;
  const char *start_row; ///< with Start::Row: 64 bytes per column tile
};

/// The instruction of a product: tdpbf16ps (bf16, float32 sums) or tdpbssd
/// (signed int8, wrapping int32 sums).
enum class Dot { Bf16, Int8 };

/// Applies EACH(tile, row tile, column tile) to the block's accumulator
/// tiles: 0 (rows 0-15, columns 0-15), 1 (rows 0-15, columns 16-31, with
/// Tiles == 2), 2 and 3 (rows 16-31, with TwoRowTiles). Tile numbers must
/// be immediates, hence a macro.
#define TFAOT_AMX_EACH_ACCUMULATOR(EACH)                                       \
  do {                                                                         \
    EACH(0, 0, 0);                                                             \
    if constexpr (Tiles == 2)                                                  \
      EACH(1, 0, 1);                                                           \
    if constexpr (TwoRowTiles) {                                               \
      EACH(2, 1, 0);                                                           \
      if constexpr (Tiles == 2)                                                \
        EACH(3, 1, 1);                                                         \
    }                                                                          \
  } while (0)

/// C += A * B for accumulator C of row tile R (A tile 4 + R) and column
/// tile T (B tile 6 + T), with the instruction of D.
#define TFAOT_AMX_DOT(C, R, T)                                                 \
  do {                                                                         \
    if constexpr (D == Dot::Bf16)                                              \
      _tile_dpbf16ps(C, 4 + R, 6 + T);                                         \
    else                                                                       \
      _tile_dpbssd(C, 4 + R, 6 + T);                                           \
  } while (0)

/// args.rows rows by `Tiles` column tiles over all of k; TwoRowTiles when
/// args.rows > 16. Call with the tiles configured for these rows.
template <Dot D, bool TwoRowTiles, int Tiles>
TFAOT_AMX void Block(const BlockArgs &args) {
  // Accumulator (R, T) of the output, and of the start row.
#define TFAOT_AMX_C(R, T) (args.c + (R)*kTileRows * args.ldc + (T)*kTileBytes)
#define TFAOT_AMX_ZERO(C, R, T) _tile_zero(C)
#define TFAOT_AMX_LOAD_C(C, R, T) _tile_loadd(C, TFAOT_AMX_C(R, T), args.ldc)
  // The same 64 bytes in every row: a stride of 0.
#define TFAOT_AMX_LOAD_ROW(C, R, T)                                            \
  _tile_loadd(C, args.start_row + (T)*kTileBytes, 0)
#define TFAOT_AMX_STORE_C(C, R, T) _tile_stored(C, TFAOT_AMX_C(R, T), args.ldc)
  switch (args.start) {
  case Start::Zero:
    TFAOT_AMX_EACH_ACCUMULATOR(TFAOT_AMX_ZERO);
    break;
  case Start::Output:
    TFAOT_AMX_EACH_ACCUMULATOR(TFAOT_AMX_LOAD_C);
    break;
  case Start::Row:
    TFAOT_AMX_EACH_ACCUMULATOR(TFAOT_AMX_LOAD_ROW);
    break;
  }
  // Loads A tiles 4 (and 5) and B tiles 6 (and 7), then multiplies.
  auto step = [&](const char *a0, int64_t lda, const char *b0, const char *b1)
                  TFAOT_AMX {
                    _tile_loadd(4, a0, lda);
                    if constexpr (TwoRowTiles)
                      _tile_loadd(5, a0 + kTileRows * lda, lda);
                    _tile_loadd(6, b0, kTileBytes);
                    if constexpr (Tiles == 2)
                      _tile_loadd(7, b1, kTileBytes);
                    TFAOT_AMX_EACH_ACCUMULATOR(TFAOT_AMX_DOT);
                  };
  const char *b0 = args.b, *b1 = args.b + args.b_tile;
  const int64_t whole = args.k1 / kStepGroups;
  const int64_t stepBytes = kStepGroups * kTileBytes; // of one B tile
  for (int64_t s = 0; s < whole; ++s) {
    const char *b0s = b0 + s * stepBytes, *b1s = b1 + s * stepBytes;
    // B tiles a few steps ahead: where the weights come from memory (the
    // first row block of a layer at batch 1), tile loads alone keep too
    // few lines in flight.
    if (s + kPrefetchSteps < whole) {
      for (int64_t line = 0; line < stepBytes; line += 64) {
        _mm_prefetch(b0s + kPrefetchSteps * stepBytes + line, _MM_HINT_T0);
        if constexpr (Tiles == 2)
          _mm_prefetch(b1s + kPrefetchSteps * stepBytes + line, _MM_HINT_T0);
      }
    }
    step(args.a + s * kStepGroups * kGroupBytes, args.lda, b0s, b1s);
  }
  if (const int64_t tail = args.k1 - whole * kStepGroups) {
    // The last groups, zero-padded to a whole tile in both operands: no
    // load reads past them, and the padding adds nothing.
    alignas(64) char a[2 * kTileRows * kTileBytes];
    alignas(64) char b[2][kTileRows * kTileBytes];
    std::memset(a, 0, sizeof a);
    std::memset(b, 0, sizeof b);
    const int64_t aOffset = whole * kStepGroups * kGroupBytes;
    const int64_t bOffset = whole * kStepGroups * kTileBytes;
    for (int64_t r = 0; r < args.rows; ++r)
      std::memcpy(a + r * kTileBytes, args.a + r * args.lda + aOffset,
                  tail * kGroupBytes);
    std::memcpy(b[0], b0 + bOffset, tail * kTileBytes);
    if constexpr (Tiles == 2)
      std::memcpy(b[1], b1 + bOffset, tail * kTileBytes);
    step(a, kTileBytes, b[0], b[1]);
  }
  TFAOT_AMX_EACH_ACCUMULATOR(TFAOT_AMX_STORE_C);
#undef TFAOT_AMX_C
#undef TFAOT_AMX_ZERO
#undef TFAOT_AMX_LOAD_C
#undef TFAOT_AMX_LOAD_ROW
#undef TFAOT_AMX_STORE_C
}

/// `rows` rows by `tiles` column tiles over all of k: blocks of 32 rows by
/// two column tiles, the rows outer. `first` holds the operands of the
/// first block (its `rows` is set here). Configures the tiles for each
/// block's rows where `configured` (the rows they are configured for now,
/// 0 for none) differs, and updates it.
template <Dot D>
TFAOT_AMX void Blocks(BlockArgs first, int64_t rows, int64_t tiles,
                      int64_t &configured) {
  for (int64_t row = 0; row < rows; row += kBlockRows) {
    BlockArgs args = first;
    args.rows = std::min(kBlockRows, rows - row);
    args.a += row * first.lda;
    args.c += row * first.ldc;
    if (args.rows != configured) {
      const int rows0 = static_cast<int>(std::min(args.rows, kTileRows));
      AmxConfigureTiles(rows0, static_cast<int>(args.rows) - rows0);
      configured = args.rows;
    }
    for (int64_t t = 0; t < tiles; t += 2) {
      const bool two = t + 1 < tiles;
      if (args.rows > kTileRows && two)
        Block<D, true, 2>(args);
      else if (args.rows > kTileRows)
        Block<D, true, 1>(args);
      else if (two)
        Block<D, false, 2>(args);
      else
        Block<D, false, 1>(args);
      args.b += 2 * first.b_tile;
      args.c += 2 * kTileBytes;
      if (args.start_row)
        args.start_row += 2 * kTileBytes;
    }
  }
}

#undef TFAOT_AMX_EACH_ACCUMULATOR
#undef TFAOT_AMX_DOT

} // namespace tfaot::internal::amx

#endif // defined(__x86_64__)
#endif // TFAOT_RUNTIME_AMX_BLOCK_H
