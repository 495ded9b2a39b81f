// SPDX-License-Identifier: Apache-2.0
//
// The runtime's bf16 product (tfaot_rt_mmt4d_bf16bf16f32) on ResNet-50's
// convolution layers at batch 1, as the GEMMs --precision=bf16 makes of
// them (M = output pixels, K = KH*KW*C_in, N = C_out), one thread, and the
// core's vdpbf16ps peak (24 independent accumulator chains) and, with AMX,
// its tdpbf16ps peak (four independent accumulator tiles, no loads).
// Prints GFLOP/s (2 x multiply-adds) per layer: median and best of the
// timed repetitions. Build against the runtime:
//   clang++ -O2 -std=c++17 -Iruntime/include bench/bf16/layers.cpp \
//       build/runtime/libtfaot_runtime.a -lpthread -o /tmp/bf16-layers
// It calls the kernel as generated code does (the public entry point,
// which takes AMX where the CPU has it, else vdpbf16ps on a CPU with
// AVX512-BF16), on one thread (no thread pool is set);
// TFAOT_DISABLE_AMX=1 in the environment measures vdpbf16ps on an AMX CPU.
#include "tfaot/runtime/bf16_kernels.h"

#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double Seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

__attribute__((target("avx512f,avx512bf16"), noinline)) double
PeakGflops(long iterations) {
  __m512 acc[24];
  for (int i = 0; i < 24; ++i)
    acc[i] = _mm512_set1_ps(0.0f);
  // Operands the compiler cannot see (so it cannot fold the chains).
  static volatile short one = 0x3F80;
  __m512bh a = (__m512bh)_mm512_set1_epi16(one),
           b = (__m512bh)_mm512_set1_epi16(one);
  double start = Seconds();
  for (long it = 0; it < iterations; ++it)
    for (int i = 0; i < 24; ++i)
      acc[i] = _mm512_dpbf16_ps(acc[i], a, b);
  double seconds = Seconds() - start;
  float sink = 0;
  for (int i = 0; i < 24; ++i)
    sink += _mm512_reduce_add_ps(acc[i]);
  if (sink == 1.0f)
    std::printf(" ");
  return iterations * 24.0 * 32 * 2 / seconds / 1e9; // 32 products each
}

/// Whether this CPU has AMX-BF16 and Linux lets this process use the tiles
/// (the runtime asks the same way, runtime/lib/amx.cpp).
bool AmxBf16Usable() {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("amx-bf16") ||
      !__builtin_cpu_supports("amx-tile"))
    return false;
  constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
}

__attribute__((target("amx-tile,amx-bf16"), noinline)) double
AmxPeakGflops(long iterations) {
  // Palette 1, eight tiles of 16 rows x 64 bytes.
  alignas(64) unsigned char config[64] = {1};
  for (int t = 0; t < 8; ++t) {
    config[16 + 2 * t] = 64;
    config[48 + t] = 16;
  }
  _tile_loadconfig(config);
  alignas(64) static uint16_t ones[16 * 32];
  std::fill(ones, ones + 16 * 32, 0x3F80);
  _tile_loadd(4, ones, 64);
  _tile_loadd(5, ones, 64);
  _tile_loadd(6, ones, 64);
  _tile_loadd(7, ones, 64);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  double start = Seconds();
  for (long it = 0; it < iterations; ++it) {
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
  }
  double seconds = Seconds() - start;
  _tile_release();
  return iterations * 4.0 * 16 * 16 * 32 * 2 / seconds / 1e9;
}

} // namespace

int main() {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512bf16")) {
    std::printf("no AVX512-BF16 here: nothing to measure\n");
    return 1;
  }
  double best = 0;
  for (int i = 0; i < 7; ++i)
    best = std::max(best, PeakGflops(20000000));
  std::printf("vdpbf16ps peak (24 chains, best of 7): %.0f GFLOP/s\n", best);
  const char *disable = std::getenv("TFAOT_DISABLE_AMX");
  if (AmxBf16Usable()) {
    double amx = 0;
    for (int i = 0; i < 7; ++i)
      amx = std::max(amx, AmxPeakGflops(2000000));
    std::printf("tdpbf16ps peak (4 tiles, best of 7): %.0f GFLOP/s\n", amx);
    std::printf("kernel path: %s\n", disable && *disable && *disable != '0'
                                         ? "vdpbf16ps (TFAOT_DISABLE_AMX)"
                                         : "tdpbf16ps (AMX-BF16)");
  } else {
    std::printf("kernel path: vdpbf16ps (AVX512-BF16; no AMX here)\n");
  }
  struct Layer {
    const char *name;
    long m, k, n;
  } layers[] = {{"conv1 7x7/2 (K 147)", 12544, 148, 64},
                {"stage 2 3x3", 3136, 576, 64},
                {"stage 2 1x1 expand", 3136, 64, 256},
                {"stage 3 1x1 reduce", 784, 512, 128},
                {"stage 3 3x3", 784, 1152, 128},
                {"stage 4 1x1 reduce", 196, 1024, 256},
                {"stage 4 3x3", 196, 2304, 256},
                {"stage 4 1x1 expand", 196, 256, 1024},
                {"stage 5 3x3", 49, 4608, 512},
                {"stage 5 1x1 expand", 49, 512, 2048},
                {"fc 2048x1000", 1, 2048, 1000}};
  std::printf("| layer | M x K x N | MFLOP | ms (median) | GFLOP/s (median) "
              "| GFLOP/s (best) |\n|---|---|---|---|---|---|\n");
  for (const Layer &l : layers) {
    long k1 = (l.k + 1) / 2, n1 = (l.n + 15) / 16;
    // bf16 0.5 and 0.25.
    std::vector<uint16_t> lhs(l.m * k1 * 2, 0x3F00), rhs(n1 * k1 * 32, 0x3E80);
    std::vector<float> out(l.m * n1 * 16);
    double flop = 2.0 * l.m * l.k * l.n;
    int reps = std::max(5, static_cast<int>(2e9 / flop));
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
      double start = Seconds();
      tfaot_rt_mmt4d_bf16bf16f32(reinterpret_cast<int64_t>(lhs.data()),
                                 reinterpret_cast<int64_t>(rhs.data()),
                                 reinterpret_cast<int64_t>(out.data()), l.m,
                                 n1, k1, kBf16Mmt4dOverwrite);
      ms.push_back((Seconds() - start) * 1e3);
    }
    std::sort(ms.begin(), ms.end());
    double median = ms[ms.size() / 2];
    std::printf("| %s | %ld x %ld x %ld | %.0f | %.3f | %.0f | %.0f |\n",
                l.name, l.m, l.k, l.n, flop / 1e6, median,
                flop / median / 1e6, flop / ms[0] / 1e6);
  }
  return 0;
}
