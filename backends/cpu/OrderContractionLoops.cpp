//===- OrderContractionLoops.cpp - Vectorizable loop order ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-order-contraction-loops (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"
#include "passes/MaxPoolSkippingNaN.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_ORDERCONTRACTIONLOOPSPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// The named ops whose reductions come last in linalg's loop order, and
/// the float max pools, generics of the named pool's loops.
bool isReorderable(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
             linalg::DepthwiseConv2DNhwcHwcmOp, linalg::MatmulOp,
             linalg::BatchMatmulOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcSumOp>(op) ||
         mlir::tfaot::isMaxPoolSkippingNaN(op);
}

/// The loop order with the loop of the output's last dimension of size > 1
/// moved innermost, or an empty vector when the order is already so (or
/// there is no such loop).
SmallVector<unsigned> innermostContiguous(linalg::GenericOp generic) {
  if (generic.getNumDpsInits() != 1)
    return {};
  AffineMap output =
      generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators =
      generic.getIteratorTypesArray();
  std::optional<unsigned> loop;
  for (AffineExpr expr : llvm::reverse(output.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return {};
    unsigned d = dim.getPosition();
    if (ranges[d] == 1)
      continue;
    if (iterators[d] != utils::IteratorType::parallel)
      return {};
    loop = d;
    break;
  }
  unsigned numLoops = generic.getNumLoops();
  if (!loop || *loop == numLoops - 1)
    return {};
  // Innermost pays only if the loop walks every operand it indexes
  // contiguously (a matrix-vector product's M would not: A is read down a
  // column).
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    ArrayRef<int64_t> shape = generic.getShape(input);
    bool after = false;
    for (auto [position, expr] : llvm::enumerate(map.getResults())) {
      if (after && shape[position] != 1)
        return {};
      if (expr.isFunctionOfDim(*loop)) {
        if (!isa<AffineDimExpr>(expr))
          return {};
        after = true;
      }
    }
  }
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < numLoops; ++d)
    if (d != *loop)
      order.push_back(d);
  order.push_back(*loop);
  return order;
}

struct OrderContractionLoopsPass
    : public tfaot::impl::OrderContractionLoopsPassBase<
          OrderContractionLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isReorderable(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic =
          isa<linalg::GenericOp>(op.getOperation())
              ? cast<linalg::GenericOp>(op.getOperation())
              : linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic))
        continue;
      SmallVector<unsigned> order = innermostContiguous(*generic);
      if (order.empty())
        continue;
      (void)linalg::interchangeGenericOp(rewriter, *generic, order);
    }
  }
};

} // namespace
