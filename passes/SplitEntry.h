//===- SplitEntry.h - Entry functions in pieces of bounded size -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-split-entry (see SplitEntry.cpp). A pass without tablegen, so adding
// it recompiled nothing that includes Passes.h.inc.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_SPLITENTRY_H
#define TFAOT_PASSES_SPLITENTRY_H

#include <cstdint>

namespace mlir::tfaot {

/// Operations (nested ones included) per piece of tfaot-split-entry in the
/// CPU pipeline: no entry function of a corpus model reaches it (the
/// largest, nanodet in NCHW, has about 4500), so their code is unchanged
/// (bench/results/2026-11-28-devvm-compile-scaling-4.md).
inline constexpr int64_t kSplitEntryMaxOps = 8000;

/// Registers tfaot-split-entry{max-ops=N} for pipeline text.
void registerSplitEntryPass();

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_SPLITENTRY_H
