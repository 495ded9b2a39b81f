//===- amx.h - Intel AMX tiles: availability and configuration -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. AMX (Sapphire Rapids and later) adds
// eight 1 KB tile registers and instructions that multiply whole tiles:
// tdpbf16ps sums 16 x 16 x 32 bf16 products into float32, tdpbssd
// 16 x 16 x 64 int8 products into int32. Linux keeps the tiles' 8 KB of
// state disabled until a process asks for it (arch_prctl
// ARCH_REQ_XCOMP_PERM), so "the CPU has AMX" is not enough: AmxUsable asks
// once and says whether the kernel agreed.
//
// The kernels configure the tiles themselves (AmxConfigureTiles) on each
// thread that runs them: tile state is per thread, and loading a
// configuration zeroes every tile.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_AMX_H
#define TFAOT_RUNTIME_AMX_H

#include <cstdint>

namespace tfaot::internal {

/// The AMX multiply units a kernel needs besides the tiles themselves.
enum class AmxUnit {
  Bf16, ///< AMX-BF16: tdpbf16ps.
  Int8, ///< AMX-INT8: tdpbssd and its signedness variants.
};

/// Whether this CPU has AMX tiles and `unit`, the operating system saves
/// their state, and it lets this process use them (asked once, on the
/// first call). False on other CPUs and operating systems, and with
/// TFAOT_DISABLE_AMX=1 in the environment, which tests and benchmarks use
/// to run the AVX-512 kernels on an AMX machine.
bool AmxUsable(AmxUnit unit);

/// The tile shapes every AMX kernel of the runtime uses: tiles 0-3 are
/// accumulators (C) of `rows0` (0, 1) and `rows1` (2, 3) rows, tiles 4 and
/// 5 the left operands (A) of those rows, tiles 6 and 7 the right operands
/// (B) of 16 rows; every tile row is 64 bytes. `rows1` may be 0 (tiles 2,
/// 3 and 5 unused). Loading a configuration zeroes every tile.
void AmxConfigureTiles(int rows0, int rows1);

/// Returns the tiles to their initial state (no configuration), so that
/// context switches stop saving them; after the last AMX instruction of a
/// piece of work.
void AmxReleaseTiles();

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_AMX_H
