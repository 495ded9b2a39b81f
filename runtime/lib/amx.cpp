//===- amx.cpp - Intel AMX tiles: availability and configuration ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// See amx.h.
//
//===----------------------------------------------------------------------===//
#include "amx.h"

#include "env_flag.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tfaot::internal {
namespace {

#if defined(__x86_64__)
struct AmxFeatures {
  bool tile = false, bf16 = false, int8 = false;
};

// CPUID.(EAX=7, ECX=0):EDX bits 22 (AMX-BF16), 24 (AMX-TILE), 25
// (AMX-INT8); XCR0 bits 17 (XTILECFG) and 18 (XTILEDATA) say whether the
// operating system saves the tile state.
AmxFeatures CpuAmxFeatures() {
  AmxFeatures f;
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 27)))
    return f; // No OSXSAVE: XCR0 cannot be read.
  unsigned xcr0_low, xcr0_high;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  constexpr unsigned kTileState = (1u << 17) | (1u << 18);
  if ((xcr0_low & kTileState) != kTileState)
    return f;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
    return f;
  f.tile = (edx >> 24) & 1;
  f.bf16 = f.tile && ((edx >> 22) & 1);
  f.int8 = f.tile && ((edx >> 25) & 1);
  return f;
}

// Linux (5.16+) disables the tile data state for each process until it
// asks (arch_prctl ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA); an AMX
// instruction before that kills the process with SIGILL. The request fails
// on older kernels and where a thread's signal stack is too small for the
// larger signal frame; the kernels then use AVX-512.
bool ProcessMayUseTiles() {
#if defined(__linux__)
  constexpr long kArchReqXcompPerm = 0x1023;
  constexpr long kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}

/// The 64-byte operand of ldtilecfg (palette 1).
struct alignas(64) TileConfig {
  uint8_t palette;
  uint8_t start_row;
  uint8_t reserved[14];
  uint16_t bytes_per_row[16];
  uint8_t rows[16];
};
static_assert(sizeof(TileConfig) == 64);
#endif

bool DisabledByEnvironment() { return EnvFlagSet("TFAOT_DISABLE_AMX"); }

} // namespace

bool AmxUsable(AmxUnit unit) {
#if defined(__x86_64__)
  static const AmxFeatures usable = [] {
    AmxFeatures f = CpuAmxFeatures();
    if (!f.tile || DisabledByEnvironment() || !ProcessMayUseTiles())
      return AmxFeatures{};
    return f;
  }();
  return unit == AmxUnit::Bf16 ? usable.bf16 : usable.int8;
#else
  (void)unit;
  (void)DisabledByEnvironment;
  return false;
#endif
}

#if defined(__x86_64__)
__attribute__((target("amx-tile"))) void AmxConfigureTiles(int rows0,
                                                           int rows1) {
  TileConfig config;
  std::memset(&config, 0, sizeof config);
  config.palette = 1;
  const int rows[8] = {rows0, rows0, rows1, rows1, rows0, rows1, 16, 16};
  for (int t = 0; t < 8; ++t) {
    config.rows[t] = static_cast<uint8_t>(rows[t]);
    config.bytes_per_row[t] = rows[t] ? 64 : 0;
  }
  _tile_loadconfig(&config);
}

__attribute__((target("amx-tile"))) void AmxReleaseTiles() { _tile_release(); }
#else
void AmxConfigureTiles(int, int) { std::abort(); }
void AmxReleaseTiles() {}
#endif

} // namespace tfaot::internal
