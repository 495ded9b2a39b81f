// SPDX-License-Identifier: Apache-2.0
// The clock of the peak loops (fma_peak.c, vnni_peak.c): monotonic seconds.
#ifndef TFAOT_BENCH_PEAK_CLOCK_H
#define TFAOT_BENCH_PEAK_CLOCK_H
#include <time.h>

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

#endif
