//===- f32_gemm.cpp - Packed float32 products -----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See f32_gemm.h. The work is split into column panels (64 columns) by
// groups of up to 48 rows: panel-major where the weights are large, so that
// the threads share a product's weights out between them rather than each
// reading all of them; row-group-major where they stay in L2 (up to 1 MiB),
// so that each thread reads and writes only its own rows.
// A unit walks k in slices of 64: for each slice, every 6-row block of the
// group adds the slice's products into its 6 x 4 accumulators (24 of the 32
// vector registers; 4 more for the panel's row, one for the broadcast row
// value), so a slice of the panel comes from memory once and is read again
// from L1, while the next slice comes into L2 by software prefetch, each
// block fetching its share of it over its k steps. Where the weights come
// from DRAM (ResNet-50's stages 4 and 5 at batch 1, whose weights do not
// stay in the cache from one run to the next) that is what bounds the
// product. Spreading the requests over the whole slice's work matters:
// when each block fetched 8 KB ahead of its own k, the first block of a
// slice issued all of them and the other seven none, and the DRAM-bound
// products read 4-7 GB/s on one core of the Sapphire Rapids VM; spread,
// 6-10 GB/s (ResNet-50 b1 9% faster). Blocks of 7 rows (28 accumulators)
// leave one register too few: clang then copies the accumulators between
// registers on every k step (stage-5 1x1 layers 120 GFLOP/s against 132
// with 6 rows, weights in cache).
//
// Between slices a block's sums wait in the unit's partial rows (48 x 64
// floats on the stack, in L1) rather than in the result, whose rows may
// lie a multiple of 4 KB apart. The last slice stores them to the packed
// result, or, for tfaot_rt_mmt4d_f32_fused, applies the epilogue (bias,
// residual, clamp) to them on their way to the layer's output, so that a
// convolution's result is written once, finished.
//
// Why whole 64-column panels in one stream: with 16-column tiles, a block's
// four weight streams (and, for k = 1024 or 2048, its rows) lie a multiple
// of 4 KB apart and fight over the same L1 sets. On one Sapphire Rapids
// core (FMA peak 231 GFLOP/s), ResNet-50's stage-5 1x1 convolutions
// (49 x 2048 by 2048 x 512) ran at 55 GFLOP/s that way and at 135 with one
// stream; the generated code took them at 100.
//
//===----------------------------------------------------------------------===//
#include "f32_gemm.h"

#include "env_flag.h"
#include "parallel.h"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tfaot::internal {
namespace {

constexpr int64_t kPanel = 64;    // columns per packed panel (N0)
constexpr int kMaxRows = 6;       // rows per register block
constexpr int64_t kRowGroup = 48; // rows per unit of work (8 blocks)
/// k values per pass of a unit's blocks over their panel: 16 KB of the
/// panel, 12 KB of the rows and 12 KB of sums stay in L1 while every block
/// of the unit uses them.
constexpr int64_t kDepth = 64;
/// Cache lines of one slice of a panel (kDepth k steps of 256 bytes).
constexpr int64_t kSliceLines = kDepth * kPanel * sizeof(float) / 64;
/// Below this many multiply-adds the product runs on the calling thread.
constexpr int64_t kParallelWork = int64_t{1} << 16;

/// Products with at most this many bytes of weights (per product of the
/// batch) run their units row group by row group rather than panel by
/// panel. Panel by panel, each thread reads a share of the weights but all
/// the rows, so every row crosses from the core that computed it (the
/// previous layer, split by rows) to the others, and every output row is
/// written in part by each thread, which the next layer then reads back
/// across cores. Row group by row group, a thread reads and writes its own
/// rows and all the weights, which for such products stay in its L2.
constexpr int64_t kGroupsOuterBytes = int64_t{1} << 20;

using Problem = F32Product;

/// Where one register block works: rows [row, row + R) of panel `panel` of
/// product `b`, over k in [k0, k1). Its sums start from zero (`first` of an
/// overwriting product), from the packed result (`first` otherwise) or
/// from `partial`; they go to `partial` unless the slice is the `last`.
struct BlockRange {
  int64_t b, row, panel, k0, k1;
  bool first, last;
  /// The block's rows of the unit's partial sums: 64 floats per row.
  float *partial;
  /// Cache lines to fetch into L2 while the block runs, spread evenly over
  /// its k steps: its share of the slice the unit reads next. An address as
  /// an integer: it may lie past the end of the weights (never loaded).
  uintptr_t prefetch;
  int64_t prefetchLines;
};
using BlockFn = void (*)(const Problem &, const BlockRange &);

/// Where block (b, row, panel) reads its rows and weights and writes.
struct BlockOperands {
  const float *a; ///< Row `row`'s k values; the next row k further.
  const float *w; ///< The panel's [k][64] weights.
  float *out;     ///< Row `row`'s 64 packed columns; the next row ldo further.
  int64_t ldo;

  BlockOperands(const Problem &p, const BlockRange &r)
      : a(p.lhs + (r.b * p.m + r.row) * p.k),
        w(p.rhs + (r.b * p.n1 + r.panel) * p.k * kPanel),
        // (No packed result with an epilogue.)
        out(p.out ? p.out + (r.b * p.m + r.row) * p.n1 * kPanel +
                        r.panel * kPanel
                  : nullptr),
        ldo(p.n1 * kPanel) {}
};

/// What F32Epilogue gives sum `s` of column j (with `residual` the row's).
inline float Finish(const F32Epilogue &e, const float *residual, int64_t j,
                    float s) {
  float y = e.bias ? s + e.bias[j] : s;
  if (residual)
    y = y + residual[j];
  // max(lo, y) and min(hi, y) as the AVX-512 instructions do them: a NaN y
  // stays NaN.
  y = e.lo > y ? e.lo : y;
  return e.hi < y ? e.hi : y;
}

template <int R> void PortableBlock(const Problem &p, const BlockRange &range) {
  const BlockOperands o(p, range);
  const F32Epilogue *e = range.last ? p.epilogue : nullptr;
  for (int r = 0; r < R; ++r) {
    const int64_t i = range.row + r;
    float *dst = e ? e->out + e->RowOffset(i) : nullptr;
    const float *residual = e && e->residual ? e->residual + i * e->n : nullptr;
    for (int64_t j = 0; j < kPanel; ++j) {
      float sum = !range.first  ? range.partial[r * kPanel + j]
                  : p.overwrite ? 0.0f
                                : o.out[r * o.ldo + j];
      for (int64_t kk = range.k0; kk < range.k1; ++kk)
        sum = std::fma(o.a[r * p.k + kk], o.w[kk * kPanel + j], sum);
      const int64_t col = range.panel * kPanel + j;
      if (!range.last)
        range.partial[r * kPanel + j] = sum;
      else if (!e)
        o.out[r * o.ldo + j] = sum;
      else if (col < e->n)
        dst[col] = Finish(*e, residual, col, sum);
    }
  }
}

#if defined(__x86_64__)
/// Applies the epilogue to `rows` rows of sums at `sums` (64 floats per
/// row): columns [col, col + 64) of rows [row, row + rows), those past n
/// masked off. The block leaves its last sums in the unit's partial rows
/// and this reads them from L1: applying the epilogue to the accumulators
/// in the block itself kept them in memory through the k loop (too much
/// code to unroll), at half the speed.
__attribute__((target("avx512f"))) void Avx512Finish(const F32Epilogue &e,
                                                     const float *sums,
                                                     int64_t row, int rows,
                                                     int64_t col) {
  const __m512 lo = _mm512_set1_ps(e.lo), hi = _mm512_set1_ps(e.hi);
  for (int r = 0; r < rows; ++r) {
    const int64_t i = row + r;
    float *dst = e.out + e.RowOffset(i);
    const float *residual = e.residual ? e.residual + i * e.n : nullptr;
    for (int64_t v = 0; v < kPanel / 16; ++v) {
      const int64_t j = col + 16 * v, left = e.n - j;
      if (left <= 0)
        break;
      const __mmask16 mask =
          left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
      __m512 y = _mm512_loadu_ps(sums + r * kPanel + 16 * v);
      if (e.bias)
        y = _mm512_add_ps(y, _mm512_maskz_loadu_ps(mask, e.bias + j));
      if (residual)
        y = _mm512_add_ps(y, _mm512_maskz_loadu_ps(mask, residual + j));
      _mm512_mask_storeu_ps(dst + j, mask,
                            _mm512_min_ps(hi, _mm512_max_ps(lo, y)));
    }
  }
}

// Each k step: 4 vector loads of the panel's row, R broadcasts, 4R FMAs.
template <int R>
__attribute__((target("avx512f"))) void Avx512Block(const Problem &p,
                                                    const BlockRange &range) {
  const BlockOperands o(p, range);
  __m512 acc[R][4];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < 4; ++v)
      acc[r][v] = !range.first
                      ? _mm512_loadu_ps(range.partial + r * kPanel + 16 * v)
                  : p.overwrite ? _mm512_setzero_ps()
                                : _mm512_loadu_ps(o.out + r * o.ldo + 16 * v);
  const int64_t steps = range.k1 - range.k0;
  uintptr_t prefetch = range.prefetch;
  int64_t owed = 0; // prefetchLines per step, in units of 1/steps
  for (int64_t kk = range.k0; kk < range.k1; ++kk) {
    const float *w = o.w + kk * kPanel;
    for (owed += range.prefetchLines; owed >= steps; owed -= steps) {
      _mm_prefetch(reinterpret_cast<const char *>(prefetch), _MM_HINT_T1);
      prefetch += 64;
    }
    const __m512 w0 = _mm512_loadu_ps(w), w1 = _mm512_loadu_ps(w + 16),
                 w2 = _mm512_loadu_ps(w + 32), w3 = _mm512_loadu_ps(w + 48);
    for (int r = 0; r < R; ++r) {
      const __m512 x = _mm512_set1_ps(o.a[r * p.k + kk]);
      acc[r][0] = _mm512_fmadd_ps(x, w0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(x, w1, acc[r][1]);
      acc[r][2] = _mm512_fmadd_ps(x, w2, acc[r][2]);
      acc[r][3] = _mm512_fmadd_ps(x, w3, acc[r][3]);
    }
  }
  const bool packed = range.last && !p.epilogue;
  for (int r = 0; r < R; ++r) {
    float *dst = packed ? o.out + r * o.ldo : range.partial + r * kPanel;
    for (int v = 0; v < 4; ++v)
      _mm512_storeu_ps(dst + 16 * v, acc[r][v]);
  }
  if (range.last && p.epilogue)
    Avx512Finish(*p.epilogue, range.partial, range.row, R,
                 range.panel * kPanel);
}
#endif

/// The register blocks of one implementation, [rows - 1].
struct Blocks {
  BlockFn fn[kMaxRows];
};

#define TFAOT_F32_TABLE(K)                                                     \
  Blocks {                                                                     \
    { &K<1>, &K<2>, &K<3>, &K<4>, &K<5>, &K<6> }                               \
  }

const Blocks kPortableBlocks = TFAOT_F32_TABLE(PortableBlock);
#if defined(__x86_64__)
const Blocks kAvx512Blocks = TFAOT_F32_TABLE(Avx512Block);
#endif

struct Task {
  const Problem *p;
  const Blocks *blocks;
  int64_t groups; ///< Row groups of at most kRowGroup rows.
  bool groupsOuter; ///< Units row group by row group (see kGroupsOuterBytes).
};

/// Units [begin, end): unit u is row group u % groups of panel
/// (u / groups) % n1 of product u / (groups * n1), or, groupsOuter, panel
/// u % n1 of row group (u / n1) % groups.
void RunUnits(void *context, int64_t begin, int64_t end) {
  const Task &task = *static_cast<const Task *>(context);
  const Problem &p = *task.p;
  for (int64_t u = begin; u < end; ++u) {
    const int64_t group =
        task.groupsOuter ? (u / p.n1) % task.groups : u % task.groups;
    const int64_t panel =
        task.groupsOuter ? u % p.n1 : (u / task.groups) % p.n1;
    const int64_t b = u / (task.groups * p.n1);
    // Groups of near-equal height: 49 rows as 24 + 25, not 48 + 1, which
    // left one of two threads a third of the work more than the other
    // where a product has few panels (MobileNetV2's 7x7 projections to 160
    // and 320 channels: 3 and 5 panels).
    const int64_t rowBegin = ThreadPool::ChunkBegin(p.m, task.groups, group);
    const int64_t rows =
        ThreadPool::ChunkBegin(p.m, task.groups, group + 1) - rowBegin;
    // Blocks of nearly equal height: 16 rows as 6 + 5 + 5, not 6 + 6 + 4.
    const int64_t blocks = (rows + kMaxRows - 1) / kMaxRows;
    // The panel's weights; after its last slice, the next panel's (the
    // next unit's: row group by row group, unless this is the last panel;
    // panel by panel, when this is the last row group; weights past the end
    // of the array are never loaded, and prefetching them is harmless).
    const auto weights =
        reinterpret_cast<uintptr_t>(p.rhs + (b * p.n1 + panel) * p.k * kPanel);
    // The unit's partial sums between slices, in L1 (12 KB).
    alignas(64) float partial[kRowGroup * kPanel];
    // One slice when k is 0: the sums are their start.
    const int64_t slices = std::max<int64_t>(1, (p.k + kDepth - 1) / kDepth);
    for (int64_t s = 0; s < slices; ++s) {
      const int64_t k0 = s * kDepth;
      BlockRange range{
          b,      rowBegin,        panel,   k0, std::min(p.k, k0 + kDepth),
          s == 0, s == slices - 1, partial, 0,  0};
      // The next slice comes into L2 while this one is used from L1: each
      // block fetches its share over its k steps, so that the requests to
      // memory are spread over the whole slice's work instead of bunched
      // in its first block.
      const uintptr_t next = weights + (k0 + kDepth) * kPanel * sizeof(float);
      for (int64_t i = 0; i < blocks; ++i) {
        const int height =
            static_cast<int>(ThreadPool::ChunkBegin(rows, blocks, i + 1) -
                             ThreadPool::ChunkBegin(rows, blocks, i));
        const int64_t firstLine = kSliceLines * i / blocks;
        range.prefetch = next + 64 * firstLine;
        range.prefetchLines = kSliceLines * (i + 1) / blocks - firstLine;
        task.blocks->fn[height - 1](p, range);
        range.row += height;
        range.partial += height * kPanel;
      }
    }
  }
}

} // namespace

bool F32PathAvailable(F32Path path) {
  static const bool avx512 = [] {
#if defined(__x86_64__)
    __builtin_cpu_init(); // Callers may run before the library's constructors.
    return __builtin_cpu_supports("avx512f") != 0;
#else
    return false;
#endif
  }();
  return path == F32Path::Portable || avx512;
}

F32Path BestF32Path() {
  // TFAOT_DISABLE_AVX512_F32=1 runs the portable loops on any CPU.
  static const F32Path best = !EnvFlagSet("TFAOT_DISABLE_AVX512_F32") &&
                                      F32PathAvailable(F32Path::Avx512)
                                  ? F32Path::Avx512
                                  : F32Path::Portable;
  return best;
}

void Mmt4dF32(F32Path path, const F32Product &p) {
  if (p.batch <= 0 || p.m <= 0 || p.n1 <= 0)
    return;
  Task task{&p, &kPortableBlocks, (p.m + kRowGroup - 1) / kRowGroup,
            p.n1 * p.k * kPanel * int64_t{sizeof(float)} <= kGroupsOuterBytes};
#if defined(__x86_64__)
  if (path == F32Path::Avx512 && F32PathAvailable(path))
    task.blocks = &kAvx512Blocks;
#else
  (void)path;
#endif
  const int64_t units = p.batch * p.n1 * task.groups;
  if (p.batch * p.m * p.n1 * kPanel * p.k >= kParallelWork && units > 1)
    tfaot_rt_parallel_for(RunUnits, &task, units);
  else
    RunUnits(&task, 0, units);
}

} // namespace tfaot::internal

extern "C" void tfaot_rt_mmt4d_f32f32f32(int64_t lhs, int64_t rhs, int64_t out,
                                         int64_t batch, int64_t m, int64_t n1,
                                         int64_t k, int32_t flags) {
  using namespace tfaot::internal;
  Mmt4dF32(BestF32Path(), F32Product{reinterpret_cast<const float *>(lhs),
                                     reinterpret_cast<const float *>(rhs),
                                     reinterpret_cast<float *>(out), batch, m,
                                     n1, k, (flags & kF32Mmt4dOverwrite) != 0});
}

extern "C" void tfaot_rt_mmt4d_f32_fused(int64_t lhs, int64_t rhs, int64_t m,
                                         int64_t n1, int64_t k, int64_t out,
                                         int64_t n, int64_t bias,
                                         int64_t residual, float lo, float hi,
                                         int64_t row_pixels,
                                         int64_t row_stride) {
  using namespace tfaot::internal;
  F32Epilogue e;
  e.out = reinterpret_cast<float *>(out);
  e.n = n;
  e.bias = reinterpret_cast<const float *>(bias);
  e.residual = reinterpret_cast<const float *>(residual);
  e.lo = lo;
  e.hi = hi;
  e.row_pixels = row_pixels;
  e.row_stride = row_stride;
  Mmt4dF32(BestF32Path(), F32Product{reinterpret_cast<const float *>(lhs),
                                     reinterpret_cast<const float *>(rhs),
                                     nullptr, 1, m, n1, k, true, &e});
}
