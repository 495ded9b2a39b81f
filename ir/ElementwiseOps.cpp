//===- ElementwiseOps.cpp - Verifiers of the elementwise tfaot ops --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Verifiers of the elementwise ops (ElementwiseOps.td): the binary ops with
// NumPy broadcasting, Softmax, Prelu and AddN. Their integer folders are
// in OpFolders.cpp.
//
//===----------------------------------------------------------------------===//
#include "ir/OpHelpers.h"
#include "ir/Ops.h"

#include <cmath>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::op_helpers;

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

/// Shared verifier: operands broadcast to the result shape.
static LogicalResult verifyBroadcastingBinaryOp(Operation *op) {
  auto x = cast<RankedTensorType>(op->getOperand(0).getType());
  auto y = cast<RankedTensorType>(op->getOperand(1).getType());
  auto z = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(x.getShape(), y.getShape(), shape)))
    return op->emitOpError("operand shapes ")
           << x << " and " << y << " are not broadcast-compatible";
  if (shape.size() != static_cast<size_t>(z.getRank()))
    return op->emitOpError("result rank ")
           << z.getRank() << " differs from the broadcast rank "
           << shape.size();
  for (auto [want, got] : llvm::zip(shape, z.getShape()))
    if (!dimsCompatible(want, got))
      return op->emitOpError("result type ")
             << z << " does not match the broadcast of " << x << " and " << y;
  return success();
}

#define TFAOT_BINARY_VERIFIER(OP)                                              \
  LogicalResult OP::verify() { return verifyBroadcastingBinaryOp(*this); }
TFAOT_BINARY_VERIFIER(AddOp)
TFAOT_BINARY_VERIFIER(AddV2Op)
TFAOT_BINARY_VERIFIER(SubOp)
TFAOT_BINARY_VERIFIER(MulOp)
TFAOT_BINARY_VERIFIER(RealDivOp)
TFAOT_BINARY_VERIFIER(MaximumOp)
TFAOT_BINARY_VERIFIER(MinimumOp)
TFAOT_BINARY_VERIFIER(SquaredDifferenceOp)
TFAOT_BINARY_VERIFIER(FloorDivOp)
TFAOT_BINARY_VERIFIER(FloorModOp)
TFAOT_BINARY_VERIFIER(PowOp)
TFAOT_BINARY_VERIFIER(Atan2Op)
#undef TFAOT_BINARY_VERIFIER

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  if (getLogits().getType().getRank() < 1)
    return emitOpError("logits must have rank >= 1, got a scalar");
  return success();
}

//===----------------------------------------------------------------------===//
// Prelu, AddN
//===----------------------------------------------------------------------===//

LogicalResult PreluOp::verify() {
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(getX().getType().getShape(),
                             getAlpha().getType().getShape(), shape)) ||
      shape.size() != static_cast<size_t>(getX().getType().getRank()))
    return emitOpError("alpha ")
           << getAlpha().getType() << " does not broadcast to x "
           << getX().getType();
  return success();
}

LogicalResult AddNOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  return success();
}
