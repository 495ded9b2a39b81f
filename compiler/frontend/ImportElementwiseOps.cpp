//===- ImportElementwiseOps.cpp - Unary, binary and logical ops, Cast -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the ops computed element by element: those whose result
// has the type of their first operand (Identity, activations, unary
// math), pass-throughs, NumPy-broadcasting binary ops, comparisons and
// logical ops (bool results), Select/SelectV2, AddN and Cast.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"

using namespace mlir;
using namespace ::tfaot;

/// Ops whose result has the type of their first operand.
FailureOr<Value>(::tfaot::importSameType)(NodeImportContext &ctx) {
  return buildOp(ctx, ctx.node.op(), ctx.operands, ctx.typeOf(0));
}

/// An unfed PlaceholderWithDefault is its default value; Identity-like ops
/// that only matter to training (StopGradient) pass their input through.
FailureOr<Value>(::tfaot::importPassThrough)(NodeImportContext &ctx) {
  return ctx.operands[0];
}

FailureOr<Value>(::tfaot::importBinary)(NodeImportContext &ctx) {
  return buildBinary(ctx, ctx.node.op(), ctx.operands[0], ctx.operands[1]);
}

/// TF1's Div is RealDiv: x / y, integers truncating toward zero (TF's
/// integer kernels divide as C++ does), which is what RealDiv computes.
FailureOr<Value>(::tfaot::importDiv)(NodeImportContext &ctx) {
  return buildBinary(ctx, "RealDiv", ctx.operands[0], ctx.operands[1]);
}

/// Comparisons and logical ops: broadcast shape, bool elements.
FailureOr<Value>(::tfaot::importPredicate)(NodeImportContext &ctx) {
  FailureOr<Type> type = broadcastType(ctx, ctx.operands[0], ctx.operands[1]);
  if (failed(type))
    return failure();
  auto shape = cast<RankedTensorType>(*type).getShape();
  return buildOp(ctx, ctx.node.op(), ctx.operands,
                 RankedTensorType::get(shape, ctx.builder.getI1Type()));
}

/// Select and SelectV2. SelectV2 broadcasts all three operands; TF1's Select
/// also allows a vector condition picking whole rows, which is the same as
/// broadcasting it reshaped to [n, 1, ..., 1].
FailureOr<Value>(::tfaot::importSelect)(NodeImportContext &ctx) {
  Value condition = ctx.operands[0];
  auto condType = ctx.typeOf(0), thenType = ctx.typeOf(1);
  if (ctx.node.op() == "Select" && condType.getRank() == 1 &&
      thenType.getRank() > 1) {
    SmallVector<int64_t> shape(thenType.getRank(), 1);
    shape[0] = condType.getDimSize(0);
    condition = buildReshape(ctx, condition, shape);
  }
  FailureOr<Type> branches = broadcastType(ctx, ctx.operands[1], ctx.operands[2]);
  if (failed(branches))
    return failure();
  SmallVector<int64_t> shape;
  if (failed(mlir::tfaot::broadcastShapes(
          cast<RankedTensorType>(condition.getType()).getShape(),
          cast<RankedTensorType>(*branches).getShape(), shape)))
    return ctx.error("the condition does not broadcast against the values");
  return buildOp(ctx, "SelectV2", {condition, ctx.operands[1], ctx.operands[2]},
                 RankedTensorType::get(shape, thenType.getElementType()));
}

FailureOr<Value>(::tfaot::importAddN)(NodeImportContext &ctx) {
  for (unsigned i = 1; i < ctx.operands.size(); ++i)
    if (ctx.typeOf(i) != ctx.typeOf(0))
      return ctx.error("input " + llvm::Twine(i) + " has type " +
                       typeString(ctx.typeOf(i)) + ", input 0 has " +
                       typeString(ctx.typeOf(0)));
  return importSameType(ctx);
}

FailureOr<Value>(::tfaot::importCast)(NodeImportContext &ctx) {
  const tensorflow::AttrValue *dst = ctx.attr("DstT");
  Type element =
      dst ? convertDataType(dst->type(), ctx.builder.getContext()) : Type();
  if (!element)
    return ctx.error("DstT " +
                     dataTypeName(dst ? dst->type() : tensorflow::DT_INVALID) +
                     " is missing or unsupported");
  return buildOp(ctx, "Cast", ctx.operands,
                 RankedTensorType::get(ctx.typeOf(0).getShape(), element));
}
