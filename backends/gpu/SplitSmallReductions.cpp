//===- SplitSmallReductions.cpp - Few-output reductions in two steps ------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-split-small-reductions (tensors, before bufferization): the
// kernel mapping gives every output element of a reduction one thread that
// loops over the whole reduced dimension. When there are few outputs and
// many inputs each (a softmax over 1000 classes at batch 1: one output,
// one thread, 1000 dependent global loads) that thread is the whole kernel:
// 70 us each for the softmax's max and sum on an H200, the two slowest
// kernels of ResNet-50 at batch 1 (bench/results/2026-11-26-h200-cublas).
// Such a reduction of size K becomes, with upstream's linalg split
// reduction, R partial reductions of K/R (R parallel threads per output)
// and a reduction of the R partials, R the divisor of K nearest sqrt(K):
// for 1000, 40 partials of 25.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <cmath>

namespace mlir::tfaot {
#define GEN_PASS_DEF_SPLITSMALLREDUCTIONSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// Outputs below this many are too few threads to fill a GPU.
constexpr int64_t kFewOutputs = 1024;
/// Reductions shorter than this are cheap enough in one thread.
constexpr int64_t kLongReduction = 128;

/// The number of partial reductions to split a reduction of `size` into:
/// the divisor nearest sqrt(size), at least 4 and at most size / 4; 0 if
/// there is none (a prime size, say).
int64_t splitRatio(int64_t size) {
  int64_t best = 0;
  double root = std::sqrt(static_cast<double>(size));
  for (int64_t r = 4; r * 4 <= size; ++r)
    if (size % r == 0 && (!best || std::abs(r - root) < std::abs(best - root)))
      best = r;
  return best;
}

/// The split ratio for `op`, or 0 to leave it alone.
int64_t ratioFor(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() != 1 ||
      op.getNumDpsInits() != 1)
    return 0;
  // Upstream's split mishandles maps with constants ((d0, d1) -> (d0, 0),
  // a broadcast kept as such): it builds an op that fails to verify.
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return 0;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t outputs = 1, reduction = 0;
  for (auto [range, iterator] :
       llvm::zip(ranges, op.getIteratorTypesArray())) {
    if (ShapedType::isDynamic(range))
      return 0;
    if (iterator == utils::IteratorType::reduction)
      reduction = range;
    else
      outputs *= range;
  }
  if (outputs >= kFewOutputs || reduction < kLongReduction)
    return 0;
  return splitRatio(reduction);
}

struct SplitSmallReductionsPass
    : mlir::tfaot::impl::SplitSmallReductionsPassBase<
          SplitSmallReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (ratioFor(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      int64_t ratio = ratioFor(op);
      rewriter.setInsertionPoint(op);
      // Fails (and changes nothing) when the body's combiner is not one
      // split reduction knows: such a reduction stays one thread per output.
      (void)linalg::splitReduction(
          rewriter, cast<linalg::LinalgOp>(op.getOperation()),
          [&](linalg::LinalgOp) {
            return linalg::SplitReductionOptions{ratio, 0, false};
          });
    }
  }
};

} // namespace
