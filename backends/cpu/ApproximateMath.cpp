//===- ApproximateMath.cpp - erf and exp without libm calls ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-approximate-math: f32 math.erf and math.exp as MLIR's polynomial
// approximations (see the pass description in Passes.td), so the loops
// that compute GELU, sigmoid and softmax vectorize.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {
struct ApproximateMathPass
    : public tfaot::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ExpOp::getOperationName();
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
