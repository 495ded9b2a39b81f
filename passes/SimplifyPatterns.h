//===- SimplifyPatterns.h - Pieces of --tfaot-simplify ----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What the two files of --tfaot-simplify share: the rewrite counters and
// folding limits every pattern is built with, and the entry point of the
// constant-folding patterns (SimplifyFolds.cpp), which the pass in
// Simplify.cpp adds between its other pattern groups. Internal to passes/.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_SIMPLIFYPATTERNS_H
#define TFAOT_PASSES_SIMPLIFYPATTERNS_H

#include "passes/Remarks.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tfaot::simplify {

/// What the patterns count, one counter per rewrite kind (the pass copies
/// them into its statistics).
struct Counters {
  int64_t reshapeChains = 0, reshapesRemoved = 0, neutralRemoved = 0,
          padsFolded = 0, constantsFolded = 0, foldsMaterialized = 0,
          noOpsRemoved = 0, castsIntoResize = 0;
  /// Ops not folded for their size (a set: the driver may try one op
  /// several times).
  llvm::DenseSet<Operation *> tooLarge;

  /// Counts a rewrite of `op` in `counter` and says what it was in a remark
  /// (passes/Remarks.h); call it before `op` is erased.
  void record(int64_t &counter, Operation *op, StringRef what) {
    ++counter;
    remarkRewrite(op->getLoc(), "tfaot-simplify", what);
  }
};

/// Limits on the constants folding may create.
struct FoldLimits {
  int64_t maxElements;
  /// A broadcast may grow its result past its largest operand only up to
  /// this many elements: beyond, the weights would grow the object file
  /// more than computing them at run time costs.
  int64_t maxBroadcastGrowth = 65536;
};

/// Adds the constant-folding patterns (group 4 of Passes.td's list): folds
/// of elementwise ops, Cast, Transpose and ConcatV2 of constants, and the
/// materialization of the dialect's own folds.
void populateConstantFoldPatterns(RewritePatternSet &patterns,
                                  Counters &counters,
                                  const FoldLimits &limits);

} // namespace mlir::tfaot::simplify

#endif // TFAOT_PASSES_SIMPLIFYPATTERNS_H
