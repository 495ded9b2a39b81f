//===- bf16_gemm.cpp - bf16 products with float32 sums --------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See bf16_gemm.h. The work is split into panels of up to 4 column tiles
// (64 columns) by groups of rows; within a panel, blocks of up to 6 rows
// walk the whole k, so the panel's weights (k * 128 bytes: 590 KB for
// ResNet-50's widest 3x3 layer) stay in L2 while each row block reads them,
// and 6 x 4 accumulators fill 24 of the 32 vector registers.
//
//===----------------------------------------------------------------------===//
#include "bf16_gemm.h"

#include "amx.h"
#include "env_flag.h"

#include "parallel.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tfaot::internal {
namespace {

constexpr int64_t kTile = 16;       // columns per packed tile (N0)
constexpr int kMaxTiles = 4;        // tiles per register block
constexpr int kMaxRows = 6;         // rows per register block
constexpr int64_t kRowGroup = 96;   // rows per unit of work (16 blocks)
/// Below this many multiply-adds the product runs on the calling thread.
constexpr int64_t kParallelWork = int64_t{1} << 16;

using Problem = Bf16Product;

/// R rows from `row` by T tiles from `tile`.
using BlockFn = void (*)(const Problem &, int64_t row, int64_t tile);

template <int R, int T>
void PortableBlock(const Problem &p, int64_t row, int64_t tile) {
  const int64_t ldo = p.n1 * kTile;
  float acc[R][T][kTile];
  for (int r = 0; r < R; ++r)
    for (int t = 0; t < T; ++t)
      for (int j = 0; j < kTile; ++j)
        acc[r][t][j] =
            p.overwrite ? 0.0f : p.out[(row + r) * ldo + (tile + t) * kTile + j];
  for (int64_t kk = 0; kk < p.k1; ++kk)
    for (int r = 0; r < R; ++r) {
      const uint16_t *a = p.lhs + ((row + r) * p.k1 + kk) * 2;
      const float a0 = Bf16ToFloat(a[0]), a1 = Bf16ToFloat(a[1]);
      for (int t = 0; t < T; ++t) {
        const uint16_t *w = p.rhs + ((tile + t) * p.k1 + kk) * kTile * 2;
        for (int j = 0; j < kTile; ++j)
          acc[r][t][j] += a0 * Bf16ToFloat(w[2 * j]) +
                          a1 * Bf16ToFloat(w[2 * j + 1]);
      }
    }
  for (int r = 0; r < R; ++r)
    for (int t = 0; t < T; ++t)
      std::memcpy(p.out + (row + r) * ldo + (tile + t) * kTile, acc[r][t],
                  sizeof acc[r][t]);
}

#if defined(__x86_64__)
#define TFAOT_BF16_TARGET                                                      \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

// Each k1 step: T tile loads (16 columns x 2 k each), R broadcasts of a
// row's k pair, R x T vdpbf16ps.
template <int R, int T>
TFAOT_BF16_TARGET void Avx512Bf16Block(const Problem &p, int64_t row,
                                       int64_t tile) {
  const int64_t ldo = p.n1 * kTile;
  __m512 acc[R][T];
  for (int r = 0; r < R; ++r)
    for (int t = 0; t < T; ++t)
      acc[r][t] = p.overwrite
                      ? _mm512_setzero_ps()
                      : _mm512_loadu_ps(p.out + (row + r) * ldo +
                                        (tile + t) * kTile);
  // A row's k pair is one 32-bit word.
  const uint32_t *a[R];
  for (int r = 0; r < R; ++r)
    a[r] = reinterpret_cast<const uint32_t *>(p.lhs) + (row + r) * p.k1;
  const uint16_t *w[T];
  for (int t = 0; t < T; ++t)
    w[t] = p.rhs + (tile + t) * p.k1 * kTile * 2;
  for (int64_t kk = 0; kk < p.k1; ++kk) {
    __m512bh b[T];
    for (int t = 0; t < T; ++t) {
      _mm_prefetch(reinterpret_cast<const char *>(w[t] + (kk + 8) * 32),
                   _MM_HINT_T0);
      b[t] = (__m512bh)_mm512_loadu_si512(w[t] + kk * kTile * 2);
    }
    for (int r = 0; r < R; ++r) {
      const __m512bh x = (__m512bh)_mm512_set1_epi32(
          static_cast<int>(a[r][kk]));
      for (int t = 0; t < T; ++t)
        acc[r][t] = _mm512_dpbf16_ps(acc[r][t], x, b[t]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int t = 0; t < T; ++t)
      _mm512_storeu_ps(p.out + (row + r) * ldo + (tile + t) * kTile,
                       acc[r][t]);
}
#endif

/// The register blocks of one implementation, [rows - 1][tiles - 1].
struct Blocks {
  BlockFn fn[kMaxRows][kMaxTiles];
};

#define TFAOT_BF16_ROW(K, R) {&K<R, 1>, &K<R, 2>, &K<R, 3>, &K<R, 4>}
#define TFAOT_BF16_TABLE(K)                                                    \
  Blocks {                                                                     \
    {                                                                          \
      TFAOT_BF16_ROW(K, 1), TFAOT_BF16_ROW(K, 2), TFAOT_BF16_ROW(K, 3),        \
          TFAOT_BF16_ROW(K, 4), TFAOT_BF16_ROW(K, 5), TFAOT_BF16_ROW(K, 6)     \
    }                                                                          \
  }

const Blocks kPortableBlocks = TFAOT_BF16_TABLE(PortableBlock);
#if defined(__x86_64__)
const Blocks kAvx512Bf16Blocks = TFAOT_BF16_TABLE(Avx512Bf16Block);
#endif

struct Task {
  const Problem *p;
  const Blocks *blocks;
  int64_t panels; ///< Column panels of kMaxTiles tiles.
};

/// Units [begin, end): unit u is panel u % panels of row group u / panels.
void RunUnits(void *context, int64_t begin, int64_t end) {
  const Task &task = *static_cast<const Task *>(context);
  const Problem &p = *task.p;
  for (int64_t u = begin; u < end; ++u) {
    const int64_t tile = (u % task.panels) * kMaxTiles;
    const int tiles = static_cast<int>(std::min<int64_t>(kMaxTiles, p.n1 - tile));
    const int64_t rowEnd = std::min(p.m, (u / task.panels + 1) * kRowGroup);
    for (int64_t row = (u / task.panels) * kRowGroup; row < rowEnd;) {
      const int rows = static_cast<int>(std::min<int64_t>(kMaxRows, rowEnd - row));
      task.blocks->fn[rows - 1][tiles - 1](p, row, tile);
      row += rows;
    }
  }
}

} // namespace

uint16_t RoundToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) // NaN: keep it one (quiet).
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

float Bf16ToFloat(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof value);
  return value;
}

bool Bf16PathAvailable(Bf16Path path) {
  static const bool bf16 = [] {
#if defined(__x86_64__)
    __builtin_cpu_init(); // Callers may run before the library's constructors.
    return __builtin_cpu_supports("avx512bf16") != 0 &&
           __builtin_cpu_supports("avx512bw") != 0 &&
           __builtin_cpu_supports("avx512vl") != 0;
#else
    return false;
#endif
  }();
  if (path == Bf16Path::Amx)
    return bf16 && AmxUsable(AmxUnit::Bf16);
  return path == Bf16Path::Portable || bf16;
}

Bf16Path BestBf16Path() {
  // TFAOT_DISABLE_AVX512_BF16=1 runs the portable loops on a CPU that has
  // AVX512-BF16: what a CPU without it computes, for tests and comparisons.
  // TFAOT_DISABLE_AMX=1 (amx.h) keeps vdpbf16ps on a CPU with AMX.
  static const Bf16Path best = [] {
    if (EnvFlagSet("TFAOT_DISABLE_AVX512_BF16"))
      return Bf16Path::Portable;
    if (Bf16PathAvailable(Bf16Path::Amx))
      return Bf16Path::Amx;
    return Bf16PathAvailable(Bf16Path::Avx512Bf16) ? Bf16Path::Avx512Bf16
                                                   : Bf16Path::Portable;
  }();
  return best;
}

void Mmt4dBf16(Bf16Path path, const uint16_t *lhs, const uint16_t *rhs,
               float *out, int64_t m, int64_t n1, int64_t k1, bool overwrite) {
  if (m <= 0 || n1 <= 0)
    return;
  Problem p{lhs, rhs, out, m, n1, k1, overwrite};
  if (path == Bf16Path::Amx && Bf16PathAvailable(path))
    return Mmt4dBf16Amx(p);
  if (path == Bf16Path::Amx)
    path = Bf16Path::Avx512Bf16;
  Task task{&p, &kPortableBlocks, (n1 + kMaxTiles - 1) / kMaxTiles};
#if defined(__x86_64__)
  if (path == Bf16Path::Avx512Bf16 && Bf16PathAvailable(path))
    task.blocks = &kAvx512Bf16Blocks;
#else
  (void)path;
#endif
  const int64_t units = task.panels * ((m + kRowGroup - 1) / kRowGroup);
  if (m * n1 * kTile * k1 * 2 >= kParallelWork && units > 1)
    tfaot_rt_parallel_for(RunUnits, &task, units);
  else
    RunUnits(&task, 0, units);
}

} // namespace tfaot::internal

extern "C" void tfaot_rt_mmt4d_bf16bf16f32(int64_t lhs, int64_t rhs,
                                           int64_t out, int64_t m, int64_t n1,
                                           int64_t k1, int32_t flags) {
  using namespace tfaot::internal;
  Mmt4dBf16(BestBf16Path(), reinterpret_cast<const uint16_t *>(lhs),
            reinterpret_cast<const uint16_t *>(rhs),
            reinterpret_cast<float *>(out), m, n1, k1,
            (flags & kBf16Mmt4dOverwrite) != 0);
}
