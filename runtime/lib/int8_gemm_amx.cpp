//===- int8_gemm_amx.cpp - The int8 GEMM's AMX block ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The block of the AMX path of tfaot_rt_mmt4d_s8s8s32 (int8_gemm.cpp):
// tdpbssd multiplies signed int8 by signed int8 into wrapping int32 sums,
// exactly the mmt4d's arithmetic, so unlike the VNNI paths it needs no
// compensation: the sums start from column_init (Problem::neg_comp holds
// it on this path), from zero, or from C. Blocks of 32 rows by 32 columns
// (amx_block.h).
//
//===----------------------------------------------------------------------===//
#include "amx.h"
#include "amx_block.h"
#include "int8_gemm_blocks.h"

#include <algorithm>

namespace tfaot::internal::int8_gemm {

#if defined(__x86_64__)
void AmxBlock(const Problem &p, int64_t row_begin, int64_t row_end,
              int64_t tile_begin, int64_t tile_end) {
  amx::BlockArgs first;
  first.a = reinterpret_cast<const char *>(p.lhs + row_begin * p.k1 * kK0);
  first.lda = p.k1 * kK0;
  first.b =
      reinterpret_cast<const char *>(p.rhs + tile_begin * p.k1 * kTileBytes);
  first.k1 = p.k1;
  first.b_tile = p.k1 * kTileBytes;
  first.c =
      reinterpret_cast<char *>(p.out + row_begin * p.ldc + tile_begin * kN0);
  first.ldc = p.ldc * 4;
  first.start = !p.overwrite ? amx::Start::Output
                : p.neg_comp ? amx::Start::Row
                             : amx::Start::Zero;
  first.start_row =
      p.neg_comp ? reinterpret_cast<const char *>(p.neg_comp + tile_begin * kN0)
                 : nullptr;
  int64_t configured = 0;
  amx::Blocks<amx::Dot::Int8>(first, row_end - row_begin, tile_end - tile_begin,
                              configured);
  AmxReleaseTiles();
}
#endif

} // namespace tfaot::internal::int8_gemm
