//===- MemoryPlan.h - The memory plan's module attributes -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The contract between tfaot-plan-buffers (PlanBuffers.cpp), which writes the
// plan's figures as module attributes, and everything that reads them back
// (the CPU and GPU drivers, the header, --report): the attribute names and
// their one reader, readMemoryPlan, defined in PlanBuffers.cpp beside the
// writer so that both change together.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_MEMORYPLAN_H
#define TFAOT_PASSES_MEMORYPLAN_H

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::tfaot {

/// i64 module attributes tfaot-plan-buffers writes.
inline constexpr llvm::StringLiteral kArenaBytesAttr = "tfaot.arena_bytes";
inline constexpr llvm::StringLiteral kNaiveTempBytesAttr =
    "tfaot.naive_temp_bytes";
inline constexpr llvm::StringLiteral kPeakLiveBytesAttr =
    "tfaot.peak_live_bytes";
/// Unit attribute on the entry function's trailing arena argument.
inline constexpr llvm::StringLiteral kArenaArgAttr = "tfaot.arena";

/// The figures of a module's memory plan (0 where absent).
struct MemoryPlan {
  /// The arena tfaot-plan-buffers laid out: the entry function then takes
  /// one trailing pointer to that many bytes. The attribute survives
  /// lowering, so this is known at any stage.
  uint64_t arenaBytes = 0;
  uint64_t naiveTempBytes = 0; ///< Sum of the planned buffers' sizes.
  uint64_t peakLiveBytes = 0;  ///< Most bytes live at once (lower bound).
  /// Static bytes of the memref.allocs the plan left alone, which Run()
  /// allocates on the heap. Counted from the IR, not an attribute: known
  /// while the module holds memrefs (after bufferization), 0 once it is
  /// lowered to the LLVM dialect.
  uint64_t heapTempBytes = 0;

  /// Bytes of scratch memory one call needs: the arena plus the heap
  /// temporaries.
  uint64_t tempBytes() const { return arenaBytes + heapTempBytes; }
};

/// Reads the plan of `module` (see MemoryPlan for what each figure means at
/// which stage). Walks the module to count heap temporaries.
MemoryPlan readMemoryPlan(ModuleOp module);

/// MemoryPlan::arenaBytes alone: one attribute read, no walk, valid at any
/// stage (the entry's trailing arena pointer depends on it).
uint64_t readArenaBytes(ModuleOp module);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_MEMORYPLAN_H
