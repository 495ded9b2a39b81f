//===- int8_gemm_kernels.cpp - The int8 GEMM's register blocks ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The blocks of tfaot_rt_mmt4d_s8s8s32 (int8_gemm.cpp): the portable one,
// and the register blocks of the AVX-512 VNNI, AVX-VNNI and AVX2 paths,
// compiled with target attributes so that the library still runs on any
// x86-64 CPU.
//
//===----------------------------------------------------------------------===//

#include "int8_gemm_blocks.h"

#include "int8_epilogue_avx512.h"
#include "parallel.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tfaot::internal::int8_gemm {

//===----------------------------------------------------------------------===//
// Portable path
//===----------------------------------------------------------------------===//

// Sums in uint32_t: the int32 sums of mmt4d wrap around (arith.addi), which
// signed C++ arithmetic may not do, and the VNNI path wraps the same way.
void ScalarBlock(const Problem &p, int64_t row_begin, int64_t row_end,
                 int64_t tile_begin, int64_t tile_end) {
  const int64_t k = p.k1 * kK0;
  for (int64_t i = row_begin; i < row_end; ++i) {
    const int8_t *a = p.lhs + i * k;
    for (int64_t t = tile_begin; t < tile_end; ++t) {
      const int8_t *b = p.rhs + t * p.k1 * kTileBytes;
      int32_t *c = p.out + i * p.ldc + t * kN0;
      uint32_t acc[kN0];
      for (int64_t j = 0; j < kN0; ++j)
        acc[j] = static_cast<uint32_t>(
            !p.overwrite    ? c[j]
            : p.column_init ? p.column_init[t * kN0 + j]
                            : 0);
      for (int64_t g = 0; g < p.k1; ++g, b += kTileBytes) {
        const int8_t *ag = a + g * kK0;
        for (int64_t j = 0; j < kN0; ++j) {
          int32_t dot = 0; // At most 4 * 128 * 128: no overflow.
          for (int64_t q = 0; q < kK0; ++q)
            dot += int32_t{ag[q]} * int32_t{b[j * kK0 + q]};
          acc[j] += static_cast<uint32_t>(dot);
        }
      }
      for (int64_t j = 0; j < kN0; ++j)
        c[j] = static_cast<int32_t>(acc[j]);
    }
  }
}

#if defined(__x86_64__)
//===----------------------------------------------------------------------===//
// Register blocks of the SIMD paths
//===----------------------------------------------------------------------===//

// C[R rows][T tiles] (+)= A * B at `c`, A rows `lda` bytes apart, B tiles
// `ldb` bytes apart, C rows `ldc` int32s apart. `neg_comp` holds the
// T * 16 values of Problem::neg_comp for these columns (null only where
// the path allows it).
using KernelFn = void (*)(const int8_t *a, int64_t lda, const int8_t *b,
                          int64_t ldb, const int32_t *neg_comp, int32_t *c,
                          int64_t ldc, int64_t k1, bool overwrite);

constexpr int kMaxTiles = 4;
static_assert(kMaxTiles == kBlockTiles);
constexpr int kMaxRows = 12;
// kPanelRows (above): rows of C one pass over a group of tiles covers; a
// multiple of every register block's height, small enough that these rows
// of A stay in L1.

/// A path's register blocks of kernels of type `Fn`: for T tiles side by
/// side, blocks of up to rows[T - 1] rows, kernels[T - 1][R - 1] computing
/// R of them.
template <typename Fn> struct RegisterBlocks {
  int max_tiles;
  int rows[kMaxTiles];
  Fn kernels[kMaxTiles][kMaxRows];
};
struct KernelSet : RegisterBlocks<KernelFn> {};

template <template <int, int> class Kernel, int T, int MaxRows, typename Fn,
          int... R>
constexpr void FillKernels(RegisterBlocks<Fn> &set,
                           std::integer_sequence<int, R...>) {
  static_assert(MaxRows <= kMaxRows && kPanelRows % MaxRows == 0);
  set.max_tiles = std::max(set.max_tiles, T);
  set.rows[T - 1] = MaxRows;
  ((set.kernels[T - 1][R] = &Kernel<R + 1, T>::Run), ...);
}

/// Calls block(i, rows, t, tiles) for each register block of `set` that
/// covers rows [row_begin, row_end) and tiles [tile_begin, tile_end): a
/// panel of rows of A stays in L1 while the group's tiles of B (sized for
/// L2) pass under it.
template <typename Fn, typename Block>
inline void ForEachRegisterBlock(const RegisterBlocks<Fn> &set,
                                 int64_t row_begin, int64_t row_end,
                                 int64_t tile_begin, int64_t tile_end,
                                 Block block) {
  for (int64_t panel = row_begin; panel < row_end; panel += kPanelRows) {
    int64_t panel_end = std::min(row_end, panel + kPanelRows);
    for (int64_t t = tile_begin; t < tile_end; t += set.max_tiles) {
      int tiles =
          static_cast<int>(std::min<int64_t>(set.max_tiles, tile_end - t));
      int64_t step = set.rows[tiles - 1];
      for (int64_t i = panel; i < panel_end; i += step)
        block(i, static_cast<int>(std::min(step, panel_end - i)), t, tiles);
    }
  }
}

void KernelBlock(const Problem &p, int64_t row_begin, int64_t row_end,
                 int64_t tile_begin, int64_t tile_end) {
  const KernelSet &set = *p.kernels;
  const int64_t lda = p.k1 * kK0;
  const int64_t ldb = p.k1 * kTileBytes;
  const int64_t ldc = p.ldc;
  ForEachRegisterBlock(
      set, row_begin, row_end, tile_begin, tile_end,
      [&](int64_t i, int rows, int64_t t, int tiles) {
        const int32_t *start = p.neg_comp ? p.neg_comp + t * kN0 : nullptr;
        set.kernels[tiles - 1][rows - 1](
            p.lhs + i * lda, lda, p.rhs + t * ldb, ldb, start,
            p.out + i * ldc + t * kN0, ldc, p.k1, p.overwrite);
      });
}

//===----------------------------------------------------------------------===//
// VNNI paths (AVX-512 VNNI, and AVX-VNNI for CPUs without AVX-512)
//===----------------------------------------------------------------------===//
//
// vpdpbusd adds to each int32 lane the dot product of 4 unsigned bytes of its
// first operand and 4 signed bytes of its second, which is exactly one
// k-group of one tile of B against 4 bytes of a row of A broadcast to all
// lanes. A is signed, so the kernels feed it A + 128 (A xor 0x80, unsigned)
// and subtract 128 times the column sums of B: sum((a+128)*b) - 128*sum(b)
// = sum(a*b), modulo 2^32 like the sums of vpdpbusd itself, so even
// -128 * -128 everywhere cannot saturate or go wrong.


// --- AVX-512 VNNI: one zmm register per tile of B and row of C. ---

TFAOT_AVX512VNNI inline __m512i BroadcastUnsigned512(const int8_t *a) {
  int32_t bytes;
  std::memcpy(&bytes, a, sizeof(bytes));
  return _mm512_xor_si512(_mm512_set1_epi32(bytes),
                          _mm512_set1_epi32(static_cast<int32_t>(0x80808080u)));
}

// acc[R][T] += the R rows of A (lda bytes apart) times T tiles of B (ldb
// bytes apart) over k1 k-groups: the register block both AVX-512 kernels
// share.
template <int R, int T>
TFAOT_AVX512VNNI __attribute__((always_inline)) inline void
Avx512Accumulate(__m512i (&acc)[R][T], const int8_t *a, int64_t lda,
                 const int8_t *b, int64_t ldb, int64_t k1) {
  for (int64_t g = 0; g < k1; ++g) {
    __m512i bv[T];
    for (int t = 0; t < T; ++t)
      bv[t] = _mm512_loadu_si512(b + t * ldb + g * kTileBytes);
    for (int r = 0; r < R; ++r) {
      __m512i av = BroadcastUnsigned512(a + r * lda + g * kK0);
      for (int t = 0; t < T; ++t)
        acc[r][t] = _mm512_dpbusd_epi32(acc[r][t], av, bv[t]);
    }
  }
}

template <int R, int T> struct Avx512Kernel {
  TFAOT_AVX512VNNI static void Run(const int8_t *a, int64_t lda,
                                   const int8_t *b, int64_t ldb,
                                   const int32_t *neg_comp, int32_t *c,
                                   int64_t ldc, int64_t k1, bool overwrite) {
    __m512i acc[R][T];
    // Starting from -128 * colsum folds the compensation into the sums.
    for (int t = 0; t < T; ++t) {
      __m512i comp = _mm512_loadu_si512(neg_comp + t * kN0);
      for (int r = 0; r < R; ++r)
        acc[r][t] = overwrite
                        ? comp
                        : _mm512_add_epi32(
                              comp, _mm512_loadu_si512(c + r * ldc + t * kN0));
    }
    Avx512Accumulate<R, T>(acc, a, lda, b, ldb, k1);
    for (int r = 0; r < R; ++r)
      for (int t = 0; t < T; ++t)
        _mm512_storeu_si512(c + r * ldc + t * kN0, acc[r][t]);
  }
};

// About 24 of the 32 zmm registers accumulate, the rest hold B and the
// broadcast row of A. Narrow blocks take more rows so that there are
// enough independent vpdpbusd chains to hide its latency. (Also the blocks
// of the in-register epilogue below.)
template <template <int, int> class Kernel, typename Fn>
constexpr RegisterBlocks<Fn> MakeAvx512Blocks() {
  RegisterBlocks<Fn> set{};
  FillKernels<Kernel, 1, 12>(set, std::make_integer_sequence<int, 12>());
  FillKernels<Kernel, 2, 12>(set, std::make_integer_sequence<int, 12>());
  FillKernels<Kernel, 3, 8>(set, std::make_integer_sequence<int, 8>());
  FillKernels<Kernel, 4, 6>(set, std::make_integer_sequence<int, 6>());
  return set;
}
constexpr KernelSet kAvx512Kernels = {
    MakeAvx512Blocks<Avx512Kernel, KernelFn>()};

// The same block with the epilogue applied in the registers that hold the
// sums, for int8 results without a residual or with an int8 one (the
// expansions and projections of inverted-residual blocks, most of a conv
// net's 1x1 layers, and with --quantize_residuals the last 1x1 of a
// residual block): each vector of 16 sums is rescaled, clamped,
// requantized and stored as 16 bytes where the result's row lives, instead
// of going to a panel on the stack for int8_epilogue.cpp's pass. Rows are
// `row0` on of the result, columns `col0` on, `cols` of them valid (the
// last tile may be partial); the sums always start from neg_comp (C is
// never read). An int8 residual is dense (m x n); each vector of it is read
// right before the result's vector at the same place is written, so it may
// be the result itself.
template <bool Bias, int Result, int Residual> struct Avx512InRegister {
  template <int R, int T> struct Kernel {
    TFAOT_AVX512VNNI static void Run(const int8_t *a, int64_t lda,
                                     const int8_t *b, int64_t ldb,
                                     const int32_t *neg_comp, int64_t k1,
                                     const Int8Epilogue &e, int64_t row0,
                                     int64_t col0, int64_t cols) {
      __m512i acc[R][T];
      for (int t = 0; t < T; ++t) {
        __m512i comp = _mm512_loadu_si512(neg_comp + t * kN0);
        for (int r = 0; r < R; ++r)
          acc[r][t] = comp;
      }
      Avx512Accumulate<R, T>(acc, a, lda, b, ldb, k1);
      const Avx512EpilogueScalars k = Avx512Broadcast(e);
      __mmask16 mask[T];
      __m512 scale[T], bias[T];
      for (int t = 0; t < T; ++t) {
        mask[t] = Avx512FirstLanes(cols - t * kN0);
        scale[t] = _mm512_maskz_loadu_ps(mask[t], e.scale + col0 + t * kN0);
        bias[t] = Bias ? _mm512_maskz_loadu_ps(mask[t], e.bias + col0 + t * kN0)
                       : _mm512_setzero_ps();
      }
      int8_t *out = static_cast<int8_t *>(e.out) + col0;
      // Row offsets as e.RowOffset gives them, with one division for the
      // block rather than one per row (a padded result's rows).
      int64_t pixel = e.row_pixels > 0 ? row0 % e.row_pixels : row0;
      int64_t line = e.row_pixels > 0 ? row0 / e.row_pixels : 0;
      // All of the block's results before any is stored: an int8 residual
      // may be the result itself, and a load of it right after a masked
      // store to the same 16 bytes (narrow rows: the next row's start)
      // waits for the store to retire (measured: MobileNetV2's 24-channel
      // projection, 25% slower storing row by row).
      for (int r = 0; r < R; ++r)
        for (int t = 0; t < T; ++t)
          acc[r][t] = Avx512ToInt8<Result>(
              k, Avx512EpilogueValue<Bias, Residual>(
                     k, acc[r][t], scale[t], bias[t],
                     Avx512LoadResidual<Residual>(
                         e, k, (row0 + r) * e.n + col0 + t * kN0, mask[t])));
      for (int r = 0; r < R; ++r) {
        int8_t *row = out + line * e.row_stride + pixel * e.n;
        if (++pixel == e.row_pixels) {
          pixel = 0;
          ++line;
        }
        for (int t = 0; t < T; ++t)
          Avx512StoreInt8(row + t * kN0, mask[t], acc[r][t]);
      }
    }
  };
};

using InRegisterFn = void (*)(const int8_t *a, int64_t lda, const int8_t *b,
                              int64_t ldb, const int32_t *neg_comp,
                              int64_t k1, const Int8Epilogue &e, int64_t row0,
                              int64_t col0, int64_t cols);
using InRegisterSet = RegisterBlocks<InRegisterFn>;

// Indexed by 4 * (int8 residual) + 2 * (round-only requantization) +
// (bias).
template <int Residual, int Result, bool Bias>
constexpr InRegisterSet InRegisterBlocks() {
  return MakeAvx512Blocks<
      Avx512InRegister<Bias, Result, Residual>::template Kernel,
      InRegisterFn>();
}
constexpr InRegisterSet kInRegister[8] = {
    InRegisterBlocks<kNoResidual, kInt8Result, false>(),
    InRegisterBlocks<kNoResidual, kInt8Result, true>(),
    InRegisterBlocks<kNoResidual, kInt8RoundOnly, false>(),
    InRegisterBlocks<kNoResidual, kInt8RoundOnly, true>(),
    InRegisterBlocks<kInt8Residual, kInt8Result, false>(),
    InRegisterBlocks<kInt8Residual, kInt8Result, true>(),
    InRegisterBlocks<kInt8Residual, kInt8RoundOnly, false>(),
    InRegisterBlocks<kInt8Residual, kInt8RoundOnly, true>()};

// The block of a fused AVX-512 VNNI product whose epilogue
// Avx512InRegister takes: KernelBlock's loops, the in-register kernels.
void Avx512InRegisterBlock(const Problem &p, int64_t row_begin,
                           int64_t row_end, int64_t tile_begin,
                           int64_t tile_end) {
  const InRegisterSet &set =
      kInRegister[4 * (ResidualOf(*p.epilogue) == kInt8Residual) +
                  2 * (ResultOf(*p.epilogue) == kInt8RoundOnly) +
                  (p.epilogue->bias != nullptr)];
  const int64_t lda = p.k1 * kK0;
  const int64_t ldb = p.k1 * kTileBytes;
  ForEachRegisterBlock(
      set, row_begin, row_end, tile_begin, tile_end,
      [&](int64_t i, int rows, int64_t t, int tiles) {
        int64_t col0 = p.epilogue_col0 + t * kN0;
        int64_t cols = std::min(p.epilogue->n - col0, tiles * kN0);
        if (cols <= 0)
          return; // Padding columns only.
        set.kernels[tiles - 1][rows - 1](p.lhs + i * lda, lda,
                                         p.rhs + t * ldb, ldb,
                                         p.neg_comp + t * kN0, p.k1,
                                         *p.epilogue, i, col0, cols);
      });
}

// -128 * (sum over k of each column of B), n1 * 16 values. vpdpbusd with
// all-ones bytes as the unsigned operand sums each group of 4 signed bytes.
TFAOT_AVX512VNNI void Avx512NegColumnSums(const int8_t *rhs, int64_t n1,
                                          int64_t k1, int32_t *neg_comp) {
  const __m512i ones = _mm512_set1_epi8(1);
  for (int64_t t = 0; t < n1; ++t) {
    const int8_t *b = rhs + t * k1 * kTileBytes;
    // Two chains, as one would wait on vpdpbusd's latency.
    __m512i sum0 = _mm512_setzero_si512(), sum1 = _mm512_setzero_si512();
    int64_t g = 0;
    for (; g + 1 < k1; g += 2) {
      sum0 = _mm512_dpbusd_epi32(sum0, ones,
                                 _mm512_loadu_si512(b + g * kTileBytes));
      sum1 = _mm512_dpbusd_epi32(sum1, ones,
                                 _mm512_loadu_si512(b + (g + 1) * kTileBytes));
    }
    if (g < k1)
      sum0 = _mm512_dpbusd_epi32(sum0, ones,
                                 _mm512_loadu_si512(b + g * kTileBytes));
    __m512i sum = _mm512_add_epi32(sum0, sum1);
    _mm512_storeu_si512(neg_comp + t * kN0,
                        _mm512_mullo_epi32(sum, _mm512_set1_epi32(-128)));
  }
}

// --- AVX-VNNI: a tile of B and a row of C take two ymm registers. ---

TFAOT_AVXVNNI inline __m256i BroadcastUnsigned256(const int8_t *a) {
  int32_t bytes;
  std::memcpy(&bytes, a, sizeof(bytes));
  return _mm256_xor_si256(_mm256_set1_epi32(bytes),
                          _mm256_set1_epi32(static_cast<int32_t>(0x80808080u)));
}

template <int R, int T> struct AvxVnniKernel {
  static_assert(T == 1, "16 ymm registers hold one tile's block");
  TFAOT_AVXVNNI static void Run(const int8_t *a, int64_t lda, const int8_t *b,
                                int64_t /*ldb*/, const int32_t *neg_comp,
                                int32_t *c, int64_t ldc, int64_t k1,
                                bool overwrite) {
    const __m256i *comp = reinterpret_cast<const __m256i *>(neg_comp);
    __m256i acc[R][2];
    for (int h = 0; h < 2; ++h) {
      __m256i ch = _mm256_loadu_si256(comp + h);
      for (int r = 0; r < R; ++r)
        acc[r][h] =
            overwrite
                ? ch
                : _mm256_add_epi32(
                      ch, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(
                              c + r * ldc + h * 8)));
    }
    for (int64_t g = 0; g < k1; ++g) {
      const __m256i *bg = reinterpret_cast<const __m256i *>(b + g * kTileBytes);
      __m256i b0 = _mm256_loadu_si256(bg), b1 = _mm256_loadu_si256(bg + 1);
      for (int r = 0; r < R; ++r) {
        __m256i av = BroadcastUnsigned256(a + r * lda + g * kK0);
        acc[r][0] = _mm256_dpbusd_avx_epi32(acc[r][0], av, b0);
        acc[r][1] = _mm256_dpbusd_avx_epi32(acc[r][1], av, b1);
      }
    }
    for (int r = 0; r < R; ++r)
      for (int h = 0; h < 2; ++h)
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(c + r * ldc + h * 8),
                            acc[r][h]);
  }
};

// 12 accumulators, 2 registers of B and one of A fill the 16 ymm registers.
constexpr KernelSet MakeAvxVnniKernels() {
  KernelSet set{};
  FillKernels<AvxVnniKernel, 1, 6>(set, std::make_integer_sequence<int, 6>());
  return set;
}
constexpr KernelSet kAvxVnniKernels = MakeAvxVnniKernels();

TFAOT_AVXVNNI void AvxVnniNegColumnSums(const int8_t *rhs, int64_t n1,
                                        int64_t k1, int32_t *neg_comp) {
  const __m256i ones = _mm256_set1_epi8(1);
  for (int64_t t = 0; t < n1; ++t) {
    const int8_t *b = rhs + t * k1 * kTileBytes;
    __m256i sum0 = _mm256_setzero_si256(), sum1 = _mm256_setzero_si256();
    for (int64_t g = 0; g < k1; ++g) {
      const __m256i *bg = reinterpret_cast<const __m256i *>(b + g * kTileBytes);
      sum0 = _mm256_dpbusd_avx_epi32(sum0, ones, _mm256_loadu_si256(bg));
      sum1 = _mm256_dpbusd_avx_epi32(sum1, ones, _mm256_loadu_si256(bg + 1));
    }
    const __m256i minus_128 = _mm256_set1_epi32(-128);
    __m256i *dst = reinterpret_cast<__m256i *>(neg_comp + t * kN0);
    _mm256_storeu_si256(dst, _mm256_mullo_epi32(sum0, minus_128));
    _mm256_storeu_si256(dst + 1, _mm256_mullo_epi32(sum1, minus_128));
  }
}

//===----------------------------------------------------------------------===//
// AVX2 path (x86-64 CPUs without VNNI)
//===----------------------------------------------------------------------===//
//
// vpmaddwd multiplies 16 pairs of int16 lanes and adds each pair into an
// int32: exact for sign-extended int8 (|sum| <= 2 * 128 * 128), unlike
// vpmaddubsw on the bytes themselves, which saturates its int16 sums. Both
// operands are signed, so unlike vpdpbusd nothing needs compensating.
//
// 16 bytes of one k-group of a tile of B are 4 columns x 4 k-values;
// sign-extended they fill a ymm register, and the row of A's 4 bytes of
// that k-group, sign-extended and repeated 4 times, line up with them. So
// vpmaddwd yields, per column, two int32 partial sums ((k0,k1) and
// (k2,k3)) side by side, and each row of C keeps 4 such registers per tile
// (2 per 8 columns) whose neighbours are added once at the end (vphaddd)
// rather than in every k-group. Shuffling B into 8 columns per register
// instead would halve the accumulators but cost more shuffles than the
// adds it saves.

// The 4 bytes at `a`, sign-extended to int16 and repeated across 16 lanes.
TFAOT_AVX2 inline __m256i BroadcastRowInt16(const int8_t *a) {
  int32_t bytes;
  std::memcpy(&bytes, a, sizeof(bytes));
  return _mm256_cvtepi8_epi16(_mm_set1_epi32(bytes));
}

template <int R, int T> struct Avx2Kernel {
  static_assert(T == 1, "16 ymm registers hold one tile's block");
  // `start`: column_init of these 16 columns, or null for zeros.
  TFAOT_AVX2 static void Run(const int8_t *a, int64_t lda, const int8_t *b,
                             int64_t /*ldb*/, const int32_t *start, int32_t *c,
                             int64_t ldc, int64_t k1, bool overwrite) {
    // acc[r][h]: columns 4h..4h+3 of row r, two partial sums each.
    __m256i acc[R][4];
    for (int r = 0; r < R; ++r)
      for (int h = 0; h < 4; ++h)
        acc[r][h] = _mm256_setzero_si256();
    for (int64_t g = 0; g < k1; ++g) {
      __m256i av[R];
      for (int r = 0; r < R; ++r)
        av[r] = BroadcastRowInt16(a + r * lda + g * kK0);
      // One quarter of B at a time keeps few registers live besides the
      // accumulators; each is widened once for all R rows.
      const __m128i *bg = reinterpret_cast<const __m128i *>(b + g * kTileBytes);
      for (int h = 0; h < 4; ++h) {
        __m256i bh = _mm256_cvtepi8_epi16(_mm_loadu_si128(bg + h));
        for (int r = 0; r < R; ++r)
          acc[r][h] = _mm256_add_epi32(acc[r][h], _mm256_madd_epi16(av[r], bh));
      }
    }
    // vphaddd of the quarters h and h+1 gives columns {0,1,4,5 | 2,3,6,7}
    // of those 8; vpermq puts them in order. All int32 additions here wrap
    // like the scalar path's, and wrapping sums do not depend on order.
    for (int r = 0; r < R; ++r)
      for (int half = 0; half < 2; ++half) {
        __m256i sum = _mm256_permute4x64_epi64(
            _mm256_hadd_epi32(acc[r][2 * half], acc[r][2 * half + 1]), 0xD8);
        __m256i *dst = reinterpret_cast<__m256i *>(c + r * ldc + half * 8);
        __m256i init =
            !overwrite ? _mm256_loadu_si256(dst)
            : start    ? _mm256_loadu_si256(
                          reinterpret_cast<const __m256i *>(start + half * 8))
                       : _mm256_setzero_si256();
        _mm256_storeu_si256(dst, _mm256_add_epi32(sum, init));
      }
  }
};

// 8 accumulators for 2 rows, their 2 rows of A, a quarter of B and the
// product on its way to the accumulator: 12 of the 16 ymm registers. A
// third row would need 17, and a second tile per row would widen each
// quarter of B for one row only.
constexpr KernelSet MakeAvx2Kernels() {
  KernelSet set{};
  FillKernels<Avx2Kernel, 1, 2>(set, std::make_integer_sequence<int, 2>());
  return set;
}
constexpr KernelSet kAvx2Kernels = MakeAvx2Kernels();
#endif // defined(__x86_64__)

} // namespace tfaot::internal::int8_gemm
