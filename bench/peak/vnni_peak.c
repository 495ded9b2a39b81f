// SPDX-License-Identifier: Apache-2.0
// One core's int8 peak, measured: 16 independent chains of 512-bit vpdpbusd
// (AVX-512 VNNI; 64 multiply-adds of unsigned by signed bytes each), enough
// to cover two pipes' latency, timed over ~0.05 s, best of 7. Prints GOP/s
// (2 ops per multiply-add, as the int8 layers' figures count them), the
// figure the int8 kernels' fraction of peak is taken against. Build:
// cc -O3 -march=native vnni_peak.c -o vnni_peak (needs AVX-512 VNNI).
#include <immintrin.h>
#include <stdio.h>

#include "peak_clock.h"

#if !defined(__AVX512VNNI__)
#error "needs AVX-512 VNNI (-march=native on a CPU that has it)"
#endif

#define CHAINS 16


int main(void) {
  const long iterations = 20 * 1000 * 1000;
  double best = 0;
  int sink[16];
  for (int round = 0; round < 7; ++round) {
    __m512i acc[CHAINS];
    for (int c = 0; c < CHAINS; ++c)
      acc[c] = _mm512_set1_epi32(c);
    const __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-2);
    double start = seconds();
    for (long i = 0; i < iterations; ++i)
      for (int c = 0; c < CHAINS; ++c) {
        acc[c] = _mm512_dpbusd_epi32(acc[c], a, b);
        // An empty asm the compiler cannot see through: without it the
        // loop-invariant product turns the chain into one multiplication.
        __asm__ volatile("" : "+v"(acc[c]));
      }
    double elapsed = seconds() - start;
    __m512i total = acc[0];
    for (int c = 1; c < CHAINS; ++c)
      total = _mm512_add_epi32(total, acc[c]);
    _mm512_storeu_si512(sink, total); // Keeps the chains live.
    double gops = 2.0 * 64 * CHAINS * iterations / elapsed / 1e9;
    if (gops > best)
      best = gops;
  }
  printf("%.1f\n", best + 0 * sink[0]);
  return 0;
}
