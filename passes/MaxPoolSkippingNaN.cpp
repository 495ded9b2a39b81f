//===- MaxPoolSkippingNaN.cpp - Float max pools that skip NaN -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See MaxPoolSkippingNaN.h.
//
//===----------------------------------------------------------------------===//
#include "passes/MaxPoolSkippingNaN.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace {

/// The loops of linalg.pooling_nhwc_max, in its order: four parallel output
/// loops (n, oh, ow, c), then the window's two reduction loops (kh, kw).
constexpr unsigned kLoops = 6;
constexpr unsigned kParallelLoops = 4;

} // namespace

Value mlir::tfaot::buildMaxPoolSkippingNaN(OpBuilder &b, Location loc,
                                           Value input, Value window,
                                           Value init,
                                           ArrayRef<int64_t> strides) {
  MLIRContext *context = b.getContext();
  AffineExpr n, oh, ow, c, kh, kw;
  bindDims(context, n, oh, ow, c, kh, kw);
  SmallVector<AffineMap> maps = {
      AffineMap::get(kLoops, 0,
                     {n, oh * strides[0] + kh, ow * strides[1] + kw, c},
                     context),
      AffineMap::get(kLoops, 0, {kh, kw}, context),
      AffineMap::get(kLoops, 0, {n, oh, ow, c}, context)};
  SmallVector<utils::IteratorType> iterators(kParallelLoops,
                                             utils::IteratorType::parallel);
  iterators.append(kLoops - kParallelLoops, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{input, window},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &body, Location bodyLoc, ValueRange args) {
               // The accumulator first, as the named op's max(out, in).
               Value max =
                   arith::MaxNumFOp::create(body, bodyLoc, args[2], args[0]);
               linalg::YieldOp::create(body, bodyLoc, max);
             })
      .getResult(0);
}

bool mlir::tfaot::isMaxPoolSkippingNaN(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() != kLoops ||
      generic.getNumParallelLoops() != kParallelLoops)
    return false;
  Block *body = generic.getBlock();
  if (body->getOperations().size() != 2)
    return false;
  auto max = dyn_cast<arith::MaxNumFOp>(body->front());
  return max && max.getLhs() == body->getArgument(2) &&
         max.getRhs() == body->getArgument(0) &&
         body->getTerminator()->getOperand(0) == max.getResult();
}
