//===- bf16_gemm_amx.cpp - bf16 products on AMX tiles ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The AMX path of tfaot_rt_mmt4d_bf16bf16f32 (bf16_gemm.h): tdpbf16ps
// blocks of 32 rows by 32 columns (amx_block.h). A unit of work is up to
// 64 rows by 4 column tiles, so that the unit's weights (4 x 64 x k1 bytes,
// 590 KB for ResNet-50's stage 5) stay in L2 while its row blocks read
// them. (Packing each row block's lhs into whole tiles and wider units, 8
// tiles, ran single layers 1.1-1.5x faster but the whole of ResNet-50
// 1.1x slower on Sapphire Rapids: bench/results/2026-11-29-spr-amx.md.)
//
//===----------------------------------------------------------------------===//
#include "amx.h"
#include "amx_block.h"
#include "bf16_gemm.h"
#include "parallel.h"

#include <algorithm>
#include <cstdlib>

namespace tfaot::internal {
namespace {

constexpr int64_t kTileColumns = 16; // float32 columns per tile
constexpr int64_t kUnitRows = 64;
constexpr int64_t kUnitTiles = 4;
/// Below this many multiply-adds the product runs on the calling thread.
constexpr int64_t kParallelWork = int64_t{1} << 16;

struct Task {
  const Bf16Product *p;
  int64_t panels; ///< Column panels of kUnitTiles tiles.
};

#if defined(__x86_64__)
/// Units [begin, end): unit u is panel u % panels of row group u / panels.
void RunUnits(void *context, int64_t begin, int64_t end) {
  const Task &task = *static_cast<const Task *>(context);
  const Bf16Product &p = *task.p;
  int64_t configured = 0;
  for (int64_t u = begin; u < end; ++u) {
    const int64_t tile = (u % task.panels) * kUnitTiles;
    const int64_t row = (u / task.panels) * kUnitRows;
    amx::BlockArgs first;
    first.a = reinterpret_cast<const char *>(p.lhs + row * p.k1 * 2);
    first.lda = p.k1 * 4;
    first.b = reinterpret_cast<const char *>(p.rhs + tile * p.k1 * 32);
    first.k1 = p.k1;
    first.b_tile = p.k1 * 64;
    first.c = reinterpret_cast<char *>(p.out + row * p.n1 * kTileColumns +
                                       tile * kTileColumns);
    first.ldc = p.n1 * kTileColumns * 4;
    first.start = p.overwrite ? amx::Start::Zero : amx::Start::Output;
    first.start_row = nullptr;
    amx::Blocks<amx::Dot::Bf16>(first, std::min(kUnitRows, p.m - row),
                                std::min(kUnitTiles, p.n1 - tile), configured);
  }
  AmxReleaseTiles();
}
#endif

} // namespace

void Mmt4dBf16Amx(const Bf16Product &p) {
#if defined(__x86_64__)
  Task task{&p, (p.n1 + kUnitTiles - 1) / kUnitTiles};
  const int64_t units = task.panels * ((p.m + kUnitRows - 1) / kUnitRows);
  if (p.m * p.n1 * kTileColumns * p.k1 * 2 >= kParallelWork && units > 1)
    tfaot_rt_parallel_for(RunUnits, &task, units);
  else
    RunUnits(&task, 0, units);
#else
  (void)p;
  std::abort();
#endif
}

} // namespace tfaot::internal
