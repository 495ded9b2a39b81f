// SPDX-License-Identifier: Apache-2.0
// One core's fp32 FMA peak, measured: 16 independent chains of 512-bit
// (AVX-512) or 256-bit (AVX2) fused multiply-adds, enough to cover two FMA
// pipes' latency, timed over ~0.05 s, best of 7. Prints GFLOP/s (2 FLOP per
// lane per FMA). Build: cc -O3 -march=native fma_peak.c -o fma_peak (at
// -O2 GCC leaves the chains in memory and measures a third of the peak).
#include <immintrin.h>
#include <stdio.h>

#include "peak_clock.h"

#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
#define STORE _mm512_storeu_ps
#elif defined(__FMA__)
typedef __m256 vec;
#define LANES 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define ADD _mm256_add_ps
#define STORE _mm256_storeu_ps
#else
#error "needs AVX-512 or AVX2 with FMA (-march=native)"
#endif

#define CHAINS 16


int main(void) {
  const long iterations = 20 * 1000 * 1000;
  double best = 0;
  float sink[LANES];
  for (int round = 0; round < 7; ++round) {
    vec acc[CHAINS];
    for (int c = 0; c < CHAINS; ++c)
      acc[c] = SET1(1.0f + c * 1e-3f);
    const vec a = SET1(0.999999f), b = SET1(1e-7f);
    double start = seconds();
    for (long i = 0; i < iterations; ++i)
      for (int c = 0; c < CHAINS; ++c)
        acc[c] = FMA(acc[c], a, b);
    double elapsed = seconds() - start;
    vec total = acc[0];
    for (int c = 1; c < CHAINS; ++c)
      total = ADD(total, acc[c]);
    STORE(sink, total); // Keeps the chains live.
    double gflops = 2.0 * LANES * CHAINS * iterations / elapsed / 1e9;
    if (gflops > best)
      best = gflops;
  }
  printf("%.1f\n", best + 0 * sink[0]);
  return 0;
}
