//===- int8_epilogue_avx512.h - The epilogue on 16 lanes -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. The epilogue of int8_epilogue.h for one
// AVX-512 vector of 16 columns, inline, so that a kernel can finish its
// sums in the registers that hold them instead of storing them for
// int8_epilogue.cpp's pass over a block. Each step is the float32 operation
// EpilogueRows defines, in its order, so every caller gets the same bits.
// Callers are compiled with TFAOT_AVX512_TARGET.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_INT8_EPILOGUE_AVX512_H
#define TFAOT_RUNTIME_INT8_EPILOGUE_AVX512_H

#if defined(__x86_64__)

#include "int8_epilogue.h"

#include <immintrin.h>

#define TFAOT_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
#define TFAOT_AVX512_INLINE TFAOT_AVX512_TARGET __attribute__((always_inline)) inline

namespace tfaot::internal {

/// The lanes of the first `count` (0-16) of 16.
TFAOT_AVX512_INLINE __mmask16 Avx512FirstLanes(int64_t count) {
  return count >= 16  ? __mmask16(0xFFFF)
         : count <= 0 ? __mmask16(0)
                      : static_cast<__mmask16>((1u << count) - 1);
}

/// An epilogue's scalars, broadcast.
struct Avx512EpilogueScalars {
  __m512 lo, hi, q_mul, q_zp, q_lo, q_hi, residual_scale, residual_zp;
};

TFAOT_AVX512_INLINE Avx512EpilogueScalars
Avx512Broadcast(const Int8Epilogue &e) {
  return {_mm512_set1_ps(e.lo),    _mm512_set1_ps(e.hi),
          _mm512_set1_ps(e.q_mul), _mm512_set1_ps(e.q_zp),
          _mm512_set1_ps(e.q_lo),  _mm512_set1_ps(e.q_hi),
          _mm512_set1_ps(e.residual_scale), _mm512_set1_ps(e.residual_zp)};
}

/// The residual's 16 lanes from element `at` (lanes off `mask` zero): the
/// float residual's, or the int8 residual's dequantized, (float(q) -
/// residual_zp) * residual_scale; zeros without a residual.
template <int Residual>
TFAOT_AVX512_INLINE __m512 Avx512LoadResidual(const Int8Epilogue &e,
                                              const Avx512EpilogueScalars &k,
                                              int64_t at, __mmask16 mask) {
  if (Residual == kFloatResidual)
    return _mm512_maskz_loadu_ps(mask, e.residual + at);
  if (Residual == kInt8Residual) {
    __m512 q = _mm512_cvtepi32_ps(
        _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(mask, e.residual_int8 + at)));
    return _mm512_mul_ps(_mm512_sub_ps(q, k.residual_zp), k.residual_scale);
  }
  return _mm512_setzero_ps();
}

/// y = min(max(float(acc) * scale + bias + residual, lo), hi), bias and
/// residual added only where the template says. max(lo, y) and min(hi, y)
/// are EpilogueRows' comparisons (a NaN y stays NaN).
template <bool Bias, int Residual>
TFAOT_AVX512_INLINE __m512 Avx512EpilogueValue(const Avx512EpilogueScalars &k,
                                               __m512i acc, __m512 scale,
                                               __m512 bias, __m512 residual) {
  __m512 y = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), scale);
  if (Bias)
    y = _mm512_add_ps(y, bias);
  if (Residual != kNoResidual)
    y = _mm512_add_ps(y, residual);
  return _mm512_min_ps(k.hi, _mm512_max_ps(k.lo, y));
}

/// The int8 result of y, as int32 lanes (within q_lo..q_hi).
TFAOT_AVX512_INLINE __m512i Avx512Requantize(const Avx512EpilogueScalars &k,
                                             __m512 y) {
  __m512 q = _mm512_roundscale_ps(_mm512_mul_ps(y, k.q_mul),
                                  _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  q = _mm512_min_ps(k.q_hi, _mm512_max_ps(k.q_lo, _mm512_add_ps(q, k.q_zp)));
  return _mm512_cvttps_epi32(q);
}

/// The int8 result of y for an epilogue of kind `Result` (kInt8Result or
/// kInt8RoundOnly), as int32 lanes. Round-only: y is within the int8 range
/// (see ResultOf), and the conversion rounds to nearest even.
template <int Result>
TFAOT_AVX512_INLINE __m512i Avx512ToInt8(const Avx512EpilogueScalars &k,
                                         __m512 y) {
  if (Result == kInt8RoundOnly)
    return _mm512_cvt_roundps_epi32(y, _MM_FROUND_TO_NEAREST_INT |
                                           _MM_FROUND_NO_EXC);
  return Avx512Requantize(k, y);
}

/// Stores the lanes of `mask` of Avx512Requantize's result as bytes.
TFAOT_AVX512_INLINE void Avx512StoreInt8(int8_t *out, __mmask16 mask,
                                         __m512i lanes) {
  __m128i bytes = _mm512_cvtepi32_epi8(lanes);
  // Kept in a register: the compiler would otherwise fold the two into
  // vpmovdb to memory, several times slower.
  asm("" : "+v"(bytes));
  _mm_mask_storeu_epi8(out, mask, bytes);
}

} // namespace tfaot::internal

#endif // defined(__x86_64__)

#endif // TFAOT_RUNTIME_INT8_EPILOGUE_AVX512_H
