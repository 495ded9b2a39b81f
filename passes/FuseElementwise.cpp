//===- FuseElementwise.cpp - Elementwise fusion with a size bound ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-fuse-elementwise: the patterns of upstream's
// linalg-fuse-elementwise-ops, with a control function that also refuses a
// fusion whose body would exceed max-body-ops operations.
//
// Why: each fusion builds a new linalg.generic holding clones of both
// bodies. The greedy driver fuses a chain top-down, one producer at a time,
// so the n-th step clones the n ops fused so far: a chain of n elementwise
// ops costs O(n^2) clones (a 10k-node graph of Mul/Add/Relu blocks spent 80
// of its 82 s here, bench/compile_scaling). With the bound every step clones
// at most max-body-ops operations and the chain becomes consecutive generics
// of about that size, linear in n. Real models fuse bodies of a few dozen
// operations at most, far below the default, so their code does not change.
//
//===----------------------------------------------------------------------===//
#include "passes/MaxPoolSkippingNaN.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// Operations in the body of a linalg op with one (its terminator
/// included), or 0 for ops without a body (reshapes, pads, constants).
int64_t bodyOps(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return 0;
  return static_cast<int64_t>(linalgOp.getBlock()->getOperations().size());
}

struct FuseElementwisePass
    : mlir::tfaot::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using FuseElementwisePassBase::FuseElementwisePassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    int64_t limit = maxBodyOps;
    // Upstream's rule (fuse a producer only into its single user), plus the
    // bound. The fused body holds both bodies less one of the two yields.
    linalg::ControlFusionFn control = [limit](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || !producer->hasOneUse())
        return false;
      // A max pool stays as linalg's named pools were, on its own: fused,
      // a producer would run once per window reading each element, and a
      // convolution's epilogue would leave the convolution.
      if (mlir::tfaot::isMaxPoolSkippingNaN(fused->getOwner()))
        return false;
      int64_t producerOps = bodyOps(producer);
      int64_t consumerOps = bodyOps(fused->getOwner());
      if (producerOps == 0 || consumerOps == 0)
        return true;
      return producerOps + consumerOps - 1 <= limit;
    };

    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    // Top-down, as upstream: producers are visited before their consumers.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
