//===- int8_epilogue.cpp - What int8 kernels do to their int32 sums -------===//
// SPDX-License-Identifier: Apache-2.0
//
// The epilogue of int8_epilogue.h for a portable build, AVX2 and AVX-512,
// compiled with target attributes like the kernels so that the library
// runs on any x86-64 CPU.
//
//===----------------------------------------------------------------------===//

#include "int8_epilogue.h"
#include "int8_epilogue_avx512.h"

#include <type_traits>

namespace tfaot::internal {
namespace {

// The requantization of a float to int8, as the elementwise code it
// replaces computes it: int8(clamp(roundeven(y * q_mul) + q_zp, q_lo,
// q_hi)).
__attribute__((always_inline)) inline int8_t
Requantize(float y, float q_mul, float q_zp, float q_lo, float q_hi) {
  float q = __builtin_roundevenf(y * q_mul) + q_zp;
  q = q < q_lo ? q_lo : q;
  q = q > q_hi ? q_hi : q;
  return static_cast<int8_t>(static_cast<int32_t>(q));
}

// The int8 copy of a float result's row (Int8Epilogue::int8_copy): the
// requantization of EpilogueRows' int8 results, applied to the floats just
// stored (still in L1).
__attribute__((always_inline)) inline void
RequantizeRow(const Int8Epilogue &e, const float *__restrict y,
              int8_t *__restrict out, int64_t cols) {
  const float q_mul = e.q_mul, q_zp = e.q_zp, q_lo = e.q_lo, q_hi = e.q_hi;
  for (int64_t j = 0; j < cols; ++j)
    out[j] = Requantize(y[j], q_mul, q_zp, q_lo, q_hi);
}

// The epilogue's arithmetic, compiled once per instruction set by the
// wrappers below (always_inline lets each vectorize it with its own
// target). Each step is the float32 operation of the elementwise code it
// replaces, in the same order, so results are identical; the comparisons
// are arith.maximumf/minimumf for ordered values. The only overlap the
// compiler allows is a float result written over its own residual, so
// those two are __restrict only where there is no residual (elsewhere the
// compiler checks for aliasing at run time). An int8 residual may be the
// int8 result itself in the same way.
template <int Result, bool Bias, int Residual>
__attribute__((always_inline)) inline void
EpilogueRows(const Int8Epilogue &e, const int32_t *acc, int64_t ld,
             int64_t row0, int64_t rows, int64_t col0, int64_t cols) {
  const float *__restrict scale = e.scale + col0;
  const float *__restrict bias = Bias ? e.bias + col0 : nullptr;
  const float lo = e.lo, hi = e.hi;
  const float q_mul = e.q_mul, q_zp = e.q_zp, q_lo = e.q_lo, q_hi = e.q_hi;
  const int64_t n = e.n;
  const int64_t first = row0 * n + col0;
  using FloatOut = std::conditional_t<Residual == kFloatResidual, float *,
                                      float *__restrict>;
  using Int8Out = std::conditional_t<Residual == kInt8Residual, int8_t *,
                                     int8_t *__restrict>;
  const float *residual =
      Residual == kFloatResidual ? e.residual + first : nullptr;
  const int8_t *residual8 =
      Residual == kInt8Residual ? e.residual_int8 + first : nullptr;
  const float residual_scale = e.residual_scale, residual_zp = e.residual_zp;
  for (int64_t r = 0; r < rows; ++r) {
    const int32_t *__restrict a = acc + r * ld;
    const int64_t at = e.RowOffset(row0 + r) + col0;
    Int8Out out8 = static_cast<int8_t *>(e.out) + at;
    FloatOut out32 = static_cast<float *>(e.out) + at;
    for (int64_t j = 0; j < cols; ++j) {
      float y = static_cast<float>(a[j]) * scale[j];
      if (Bias)
        y = y + bias[j];
      if (Residual == kFloatResidual)
        y = y + residual[r * n + j];
      if (Residual == kInt8Residual) {
        // One statement per operation: no contraction into an FMA.
        float d = static_cast<float>(residual8[r * n + j]) - residual_zp;
        d = d * residual_scale;
        y = y + d;
      }
      y = y < lo ? lo : y;
      y = y > hi ? hi : y;
      if (Result == kInt8RoundOnly) {
        out8[j] = static_cast<int8_t>(
            static_cast<int32_t>(__builtin_roundevenf(y)));
      } else if (Result == kInt8Result) {
        out8[j] = Requantize(y, q_mul, q_zp, q_lo, q_hi);
      } else {
        out32[j] = y;
      }
    }
    if (Result == kFloatResult && e.int8_copy)
      RequantizeRow(e, out32, e.int8_copy + (row0 + r) * n + col0, cols);
  }
}

#define TFAOT_EPILOGUE_PARAMS                                                  \
  const Int8Epilogue &e, const int32_t *acc, int64_t ld, int64_t row0,         \
      int64_t rows, int64_t col0, int64_t cols
#define TFAOT_DEFINE_EPILOGUE(NAME, ATTRIBUTES)                                \
  template <int I, bool B, int R>                                              \
  ATTRIBUTES void NAME##Rows(TFAOT_EPILOGUE_PARAMS) {                          \
    EpilogueRows<I, B, R>(e, acc, ld, row0, rows, col0, cols);                 \
  }                                                                            \
  template <int I, bool B, int R> struct NAME##Pick {                          \
    static constexpr EpilogueFn fn = NAME##Rows<I, B, R>;                      \
  };                                                                           \
  void NAME(TFAOT_EPILOGUE_PARAMS) {                                           \
    static constexpr auto kVariants =                                          \
        EpilogueVariantTable<EpilogueFn, NAME##Pick>();                        \
    kVariants[EpilogueVariant(e)](e, acc, ld, row0, rows, col0, cols);         \
  }

TFAOT_DEFINE_EPILOGUE(PortableEpilogue, )
#if defined(__x86_64__)
TFAOT_DEFINE_EPILOGUE(Avx2Epilogue, __attribute__((target("avx2"))))

// The AVX-512 epilogue by hand: rows are often short (24 to 160 columns),
// where the compiler's 64-wide unrolled loop would leave most columns to
// its 8-wide and scalar remainders, and it stores int8 results with a
// masked vpmovdb per 16, several times slower than packing 64 and storing
// once. The arithmetic per vector is int8_epilogue_avx512.h's.
template <bool Bias, int Residual> struct Avx512EpilogueStep {
  const float *__restrict scale, *__restrict bias;
  const Int8Epilogue &e; // Its residual may be the result itself (see
                         // EpilogueRows).
  int64_t first;         // The element of e's residual at row 0, column 0.
  const int32_t *acc;
  int64_t ld, n, cols;
  Avx512EpilogueScalars k;

  TFAOT_AVX512_TARGET __mmask16 Mask(int64_t j) const {
    return Avx512FirstLanes(cols - j);
  }
  // y of the 16 columns from j of row r (lanes off `mask` are unspecified).
  TFAOT_AVX512_TARGET __m512 Value(int64_t r, int64_t j,
                                   __mmask16 mask) const {
    return Avx512EpilogueValue<Bias, Residual>(
        k, _mm512_maskz_loadu_epi32(mask, acc + r * ld + j),
        _mm512_maskz_loadu_ps(mask, scale + j),
        Bias ? _mm512_maskz_loadu_ps(mask, bias + j) : _mm512_setzero_ps(),
        Avx512LoadResidual<Residual>(e, k, first + r * n + j, mask));
  }
  // The int8 results of those columns, as int32 lanes.
  template <int Result>
  TFAOT_AVX512_TARGET __m512i Quantized(int64_t r, int64_t j) const {
    return Avx512ToInt8<Result>(k, Value(r, j, Mask(j)));
  }
};

template <int Result, bool Bias, int Residual>
TFAOT_AVX512_TARGET void Avx512EpilogueRows(TFAOT_EPILOGUE_PARAMS) {
  const int64_t n = e.n;
  const int64_t first = row0 * n + col0;
  Avx512EpilogueStep<Bias, Residual> step{
      e.scale + col0,
      Bias ? e.bias + col0 : nullptr,
      e,
      first,
      acc,
      ld,
      n,
      cols,
      Avx512Broadcast(e)};
  // The two packs interleave the four vectors by 128-bit lane; this puts
  // each vector's 16 bytes back together.
  const __m512i unshuffle =
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t at = e.RowOffset(row0 + r) + col0;
    int8_t *out8 = static_cast<int8_t *>(e.out) + at;
    float *out32 = static_cast<float *>(e.out) + at;
    if (Result == kFloatResult && e.int8_copy) {
      // The copy's bytes packed and stored 64 at a time, as int8 results
      // are below (a masked 16-byte store per vector made these layers
      // slower than the separate quantizing pass they replace).
      int8_t *copy = e.int8_copy + (row0 + r) * n + col0;
      int64_t j = 0;
      for (; j + 64 <= cols; j += 64) {
        __m512i q[4];
        for (int v = 0; v < 4; ++v) {
          __m512 y = step.Value(r, j + 16 * v, __mmask16(0xFFFF));
          _mm512_storeu_ps(out32 + j + 16 * v, y);
          q[v] = Avx512Requantize(step.k, y);
        }
        __m512i packed = _mm512_packs_epi16(_mm512_packs_epi32(q[0], q[1]),
                                            _mm512_packs_epi32(q[2], q[3]));
        _mm512_storeu_si512(copy + j,
                            _mm512_permutexvar_epi32(unshuffle, packed));
      }
      for (; j < cols; j += 16) {
        __mmask16 mask = step.Mask(j);
        __m512 y = step.Value(r, j, mask);
        _mm512_mask_storeu_ps(out32 + j, mask, y);
        Avx512StoreInt8(copy + j, mask, Avx512Requantize(step.k, y));
      }
      continue;
    }
    if (Result == kFloatResult) {
      for (int64_t j = 0; j < cols; j += 16) {
        __mmask16 mask = step.Mask(j);
        _mm512_mask_storeu_ps(out32 + j, mask, step.Value(r, j, mask));
      }
      continue;
    }
    // 64 columns at a time. The saturating packs are exact: the values are
    // clamped to q_lo..q_hi, within int8.
    int64_t j = 0;
    for (; j + 64 <= cols; j += 64) {
      __m512i packed = _mm512_packs_epi16(
          _mm512_packs_epi32(step.template Quantized<Result>(r, j),
                             step.template Quantized<Result>(r, j + 16)),
          _mm512_packs_epi32(step.template Quantized<Result>(r, j + 32),
                             step.template Quantized<Result>(r, j + 48)));
      _mm512_storeu_si512(out8 + j, _mm512_permutexvar_epi32(unshuffle, packed));
    }
    // The rest (whole rows of 16 to 48 columns are common) 16 at a time,
    // rather than all four vectors of a pack for a few of them.
    for (; j < cols; j += 16)
      Avx512StoreInt8(out8 + j, step.Mask(j),
                      step.template Quantized<Result>(r, j));
  }
}

template <int I, bool B, int R> struct Avx512EpiloguePick {
  static constexpr EpilogueFn fn = Avx512EpilogueRows<I, B, R>;
};

void Avx512Epilogue(TFAOT_EPILOGUE_PARAMS) {
  static constexpr auto kVariants =
      EpilogueVariantTable<EpilogueFn, Avx512EpiloguePick>();
  kVariants[EpilogueVariant(e)](e, acc, ld, row0, rows, col0, cols);
}
#endif

} // namespace

Int8Epilogue EpilogueFromArguments(int64_t out, int64_t n, int64_t scale,
                                   int64_t bias, int64_t residual, float lo,
                                   float hi, int32_t int8_result, float q_mul,
                                   float q_zp, float q_lo, float q_hi,
                                   int64_t row_pixels, int64_t row_stride) {
  Int8Epilogue e;
  e.scale = reinterpret_cast<const float *>(scale);
  e.bias = reinterpret_cast<const float *>(bias);
  e.residual = reinterpret_cast<const float *>(residual);
  e.lo = lo;
  e.hi = hi;
  e.int8_result = int8_result != 0;
  e.q_mul = q_mul;
  e.q_zp = q_zp;
  e.q_lo = q_lo;
  e.q_hi = q_hi;
  e.out = reinterpret_cast<void *>(out);
  e.n = n;
  e.row_pixels = row_pixels;
  e.row_stride = row_stride;
  return e;
}

EpilogueIsa BestEpilogueIsa() {
  static const EpilogueIsa best = [] {
#if defined(__x86_64__)
    __builtin_cpu_init(); // Callers may run before the library's constructors.
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
      return EpilogueIsa::Avx512;
    if (__builtin_cpu_supports("avx2"))
      return EpilogueIsa::Avx2;
#endif
    return EpilogueIsa::Portable;
  }();
  return best;
}

EpilogueFn EpilogueFor(EpilogueIsa isa) {
#if defined(__x86_64__)
  switch (isa) {
  case EpilogueIsa::Avx512:
    return Avx512Epilogue;
  case EpilogueIsa::Avx2:
    return Avx2Epilogue;
  case EpilogueIsa::Portable:
    break;
  }
#endif
  (void)isa;
  return PortableEpilogue;
}

} // namespace tfaot::internal
