//===- ParallelDimsFirst.cpp - Parallel loops of generics outermost -------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-parallel-dims-first: a linalg.generic's parallel dimensions
// become its outer loops, so that all of them are mapped to threads (a
// global average pool's (n, h, w, c) ran on n threads).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_PARALLELDIMSFIRSTPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// convert-linalg-to-parallel-loops turns only the leading parallel
/// dimensions into the outer scf.parallel, and that is all the GPU mapping
/// distributes over threads: a generic iterating (parallel, reduction,
/// reduction, parallel), like the NHWC Mean over H and W, became one thread
/// per batch element looping over everything else (8.7 of ResNet-50's 25 ms
/// on an H200, measured). Reordering its dimensions so that the parallel
/// ones come first gives every output element its own thread.
struct ParallelDimsFirstPass
    : mlir::tfaot::impl::ParallelDimsFirstPassBase<ParallelDimsFirstPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      SmallVector<unsigned> order;
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      for (unsigned i = 0; i < iterators.size(); ++i)
        if (iterators[i] == utils::IteratorType::parallel)
          order.push_back(i);
      for (unsigned i = 0; i < iterators.size(); ++i)
        if (iterators[i] != utils::IteratorType::parallel)
          order.push_back(i);
      bool identity = llvm::all_of(llvm::enumerate(order), [](auto pair) {
        return pair.index() == pair.value();
      });
      if (identity)
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitError("cannot reorder the loops of this op for the GPU");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
