//===- int8_depthwise.cpp - tfaot_rt_depthwise_s8s8_fused -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// One loop nest, compiled for a portable build and AVX2 (target
// attributes, chosen at run time): for each output pixel the window's
// taps are summed along the channels, which are contiguous in NHWC, so the
// compiler vectorizes the channel loop (sign-extend, multiply, add); each
// unit fills a block of its row on the stack and hands it to the epilogue.
// AVX-512 has its own code, epilogue included. The work is split by output
// row.
//
// Tried and not kept: vpdpbusd on 64 channels at once (four accumulators,
// each against a copy of the filter with one byte of every 4 kept). It
// needs four 64-byte filter loads per tap and was no faster on Zen 4.
//
//===----------------------------------------------------------------------===//

#include "int8_depthwise.h"

#include "int8_epilogue_avx512.h"
#include "parallel.h"

#include <algorithm>

namespace tfaot::internal {
namespace {

// int32 sums one block holds at most: 32 KiB on the stack, in L1.
constexpr int64_t kBlockSums = 8192;
// Channels per block at most (the block then covers at least 16 pixels).
constexpr int64_t kBlockChannels = 512;
// Below this many multiply-adds the other threads are not woken.
constexpr int64_t kParallelWork = int64_t{1} << 16;

struct Problem;
// Sums `pixels` output pixels from column x0 of output row y of image b,
// channels [c0, c0 + cs), into sums[pixel][channel] (cs apart).
using SumsFn = void (*)(const Problem &, int64_t b, int64_t y, int64_t x0,
                        int64_t pixels, int64_t c0, int64_t cs,
                        int32_t *sums);
// Output rows [begin, end) of all images, epilogue included.
using RowsFn = void (*)(const Problem &, int64_t begin, int64_t end);

struct Problem {
  const int8_t *input, *filter;
  const int32_t *column_init;
  DepthwiseShape s;
  const Int8Epilogue *epilogue;
  EpilogueFn apply;
  SumsFn sums;
  // Set where a kernel runs whole rows itself, epilogue included (RunRows
  // then only splits the work).
  RowsFn fused_rows;
};

// The products are at most 128 * 128, a window of fewer than 2^16 taps
// cannot overflow int32 from any column_init an int8 zero point gives.
__attribute__((always_inline)) inline void
SumsBody(const Problem &p, int64_t b, int64_t y, int64_t x0, int64_t pixels,
         int64_t c0, int64_t cs, int32_t *sums) {
  const DepthwiseShape &s = p.s;
  for (int64_t x = 0; x < pixels; ++x) {
    int32_t *__restrict acc = sums + x * cs;
    if (p.column_init)
      for (int64_t ch = 0; ch < cs; ++ch)
        acc[ch] = p.column_init[c0 + ch];
    else
      for (int64_t ch = 0; ch < cs; ++ch)
        acc[ch] = 0;
    for (int64_t i = 0; i < s.kh; ++i) {
      const int8_t *row =
          p.input + ((b * s.h + y * s.sh + i * s.dh) * s.w + (x0 + x) * s.sw) *
                        s.c +
          c0;
      for (int64_t j = 0; j < s.kw; ++j) {
        const int8_t *__restrict in = row + j * s.dw * s.c;
        const int8_t *__restrict f = p.filter + (i * s.kw + j) * s.c + c0;
        for (int64_t ch = 0; ch < cs; ++ch)
          acc[ch] += int32_t{in[ch]} * int32_t{f[ch]};
      }
    }
  }
}

void PortableSums(const Problem &p, int64_t b, int64_t y, int64_t x0,
                  int64_t pixels, int64_t c0, int64_t cs, int32_t *sums) {
  SumsBody(p, b, y, x0, pixels, c0, cs, sums);
}
#if defined(__x86_64__)
__attribute__((target("avx2"))) void
Avx2Sums(const Problem &p, int64_t b, int64_t y, int64_t x0, int64_t pixels,
         int64_t c0, int64_t cs, int32_t *sums) {
  SumsBody(p, b, y, x0, pixels, c0, cs, sums);
}
// By hand for AVX-512: 16 channels per register, the sums of a pixel in
// a register across all taps (the loop above goes through memory for each
// tap, and the compiler's 64-wide unrolled loop skips layers of 16 to 48
// channels), the window's filter vectors loaded once per channel block and
// its taps at precomputed offsets; Taps > 0 unrolls them (3x3: 9). The
// epilogue is applied in the registers too: storing the sums for a pass of
// the epilogue over them cost up to a fifth of a layer's time (MobileNetV2's
// 32-channel layer: 157 -> 122 us).
constexpr int64_t kMaxAvx512Taps = 25;

template <int Result, bool Bias, int Residual, int Taps>
TFAOT_AVX512_TARGET void Avx512FusedRows(const Problem &p, int64_t begin,
                                         int64_t end) {
  const DepthwiseShape &s = p.s;
  const Int8Epilogue &e = *p.epilogue;
  const int64_t taps = Taps > 0 ? Taps : s.kh * s.kw;
  int64_t offsets[kMaxAvx512Taps];
  for (int64_t i = 0; i < s.kh; ++i)
    for (int64_t j = 0; j < s.kw; ++j)
      offsets[i * s.kw + j] = (i * s.dh * s.w + j * s.dw) * s.c;
  const Avx512EpilogueScalars k = Avx512Broadcast(e);
  const int64_t c = s.c, wo = s.wo, step = s.sw * c;
  __m512i filter[kMaxAvx512Taps];
  for (int64_t r = begin; r < end; ++r) {
    const int64_t b = r / s.ho, y = r % s.ho;
    // The row's pixels are consecutive in the result (row_pixels is 0 or
    // wo, see DepthwiseS8S8Fused).
    const int64_t out_row = e.RowOffset(r * wo);
    for (int64_t ch = 0; ch < c; ch += 16) {
      const __mmask16 mask = Avx512FirstLanes(c - ch);
      for (int64_t t = 0; t < taps; ++t)
        filter[t] = _mm512_cvtepi8_epi32(
            _mm_maskz_loadu_epi8(mask, p.filter + t * c + ch));
      const __m512i init =
          p.column_init ? _mm512_maskz_loadu_epi32(mask, p.column_init + ch)
                        : _mm512_setzero_si512();
      const __m512 scale = _mm512_maskz_loadu_ps(mask, e.scale + ch);
      const __m512 bias =
          Bias ? _mm512_maskz_loadu_ps(mask, e.bias + ch) : _mm512_setzero_ps();
      const int8_t *in = p.input + (b * s.h + y * s.sh) * s.w * c + ch;
      int8_t *out8 = static_cast<int8_t *>(e.out) + out_row + ch;
      float *out32 = static_cast<float *>(e.out) + out_row + ch;
      for (int64_t x = 0; x < wo; ++x, in += step) {
        __m512i acc = init;
        for (int64_t t = 0; t < taps; ++t) {
          __m512i v = _mm512_cvtepi8_epi32(
              _mm_maskz_loadu_epi8(mask, in + offsets[t]));
          acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(v, filter[t]));
        }
        const __m512 residual =
            Avx512LoadResidual<Residual>(e, k, (r * wo + x) * c + ch, mask);
        const __m512 value =
            Avx512EpilogueValue<Bias, Residual>(k, acc, scale, bias, residual);
        if (Result != kFloatResult)
          Avx512StoreInt8(out8 + x * c, mask, Avx512ToInt8<Result>(k, value));
        else
          _mm512_mask_storeu_ps(out32 + x * c, mask, value);
      }
    }
  }
}

template <int Taps> struct Avx512FusedRowsOf {
  template <int I, bool B, int R> struct Pick {
    static constexpr RowsFn fn = Avx512FusedRows<I, B, R, Taps>;
  };
};

template <int Taps> RowsFn Avx512FusedRowsFor(const Int8Epilogue &e) {
  static constexpr auto kVariants =
      EpilogueVariantTable<RowsFn, Avx512FusedRowsOf<Taps>::template Pick>();
  return kVariants[EpilogueVariant(e)];
}
#endif

// Output rows [begin, end) of all images (row r is image r / ho, row
// r % ho), in blocks of pixels and channels.
void RunRows(void *context, int64_t begin, int64_t end) {
  const Problem &p = *static_cast<const Problem *>(context);
  if (p.fused_rows)
    return p.fused_rows(p, begin, end);
  const DepthwiseShape &s = p.s;
  alignas(64) int32_t sums[kBlockSums];
  const int64_t cs_max = std::min(s.c, kBlockChannels);
  const int64_t pixels_max = std::max<int64_t>(1, kBlockSums / cs_max);
  for (int64_t r = begin; r < end; ++r) {
    const int64_t b = r / s.ho, y = r % s.ho;
    for (int64_t x0 = 0; x0 < s.wo; x0 += pixels_max) {
      const int64_t pixels = std::min(pixels_max, s.wo - x0);
      for (int64_t c0 = 0; c0 < s.c; c0 += cs_max) {
        const int64_t cs = std::min(cs_max, s.c - c0);
        p.sums(p, b, y, x0, pixels, c0, cs, sums);
        p.apply(*p.epilogue, sums, cs, r * s.wo + x0, pixels, c0, cs);
      }
    }
  }
}

} // namespace

bool DepthwisePathAvailable(DepthwisePath path) {
  switch (path) {
  case DepthwisePath::Portable:
    return true;
  case DepthwisePath::Avx2:
    return BestEpilogueIsa() != EpilogueIsa::Portable;
  case DepthwisePath::Avx512:
    return BestEpilogueIsa() == EpilogueIsa::Avx512;
  }
  return false;
}

DepthwisePath BestDepthwisePath() {
  static const DepthwisePath best = [] {
    for (DepthwisePath path : {DepthwisePath::Avx512, DepthwisePath::Avx2})
      if (DepthwisePathAvailable(path))
        return path;
    return DepthwisePath::Portable;
  }();
  return best;
}

void DepthwiseS8S8Fused(const int8_t *input, const int8_t *filter,
                        const int32_t *column_init, const DepthwiseShape &shape,
                        const Int8Epilogue &epilogue, DepthwisePath path) {
  const EpilogueIsa isa = path == DepthwisePath::Portable ? EpilogueIsa::Portable
                          : path == DepthwisePath::Avx2   ? EpilogueIsa::Avx2
                                                          : EpilogueIsa::Avx512;
  Problem p{input, filter, column_init, shape, &epilogue, EpilogueFor(isa),
            PortableSums, nullptr};
#if defined(__x86_64__)
  const int64_t taps = shape.kh * shape.kw;
  if (isa == EpilogueIsa::Avx512 && taps <= kMaxAvx512Taps &&
      (epilogue.row_pixels == 0 || epilogue.row_pixels == shape.wo))
    p.fused_rows = taps == 9 ? Avx512FusedRowsFor<9>(epilogue)
                             : Avx512FusedRowsFor<0>(epilogue);
  else if (isa == EpilogueIsa::Avx2)
    p.sums = Avx2Sums;
#endif
  const int64_t rows = shape.n * shape.ho;
  if (rows <= 0 || shape.wo <= 0 || shape.c <= 0)
    return;
  if (rows * shape.wo * shape.c * shape.kh * shape.kw >= kParallelWork)
    tfaot_rt_parallel_for(RunRows, &p, rows);
  else
    RunRows(&p, 0, rows);
}

} // namespace tfaot::internal

extern "C" void tfaot_rt_depthwise_s8s8_fused(
    int64_t input, int64_t filter, int64_t column_init, int64_t n, int64_t h,
    int64_t w, int64_t c, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
    int64_t dh, int64_t dw, int64_t ho, int64_t wo, int64_t out,
    int64_t scale, int64_t bias, int64_t residual, float lo, float hi,
    int32_t int8_result, float q_mul, float q_zp, float q_lo, float q_hi,
    int64_t row_pixels, int64_t row_stride) {
  using namespace tfaot::internal;
  Int8Epilogue epilogue =
      EpilogueFromArguments(out, c, scale, bias, residual, lo, hi,
                            int8_result, q_mul, q_zp, q_lo, q_hi, row_pixels,
                            row_stride);
  DepthwiseShape shape{n, h, w, c, kh, kw, sh, sw, dh, dw, ho, wo};
  DepthwiseS8S8Fused(reinterpret_cast<const int8_t *>(input),
                     reinterpret_cast<const int8_t *>(filter),
                     reinterpret_cast<const int32_t *>(column_init), shape,
                     epilogue);
}
