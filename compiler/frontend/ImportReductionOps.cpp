//===- ImportReductionOps.cpp - Mean, Sum, Max, ..., ArgMax, ArgMin -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the reductions over constant axes (Mean, Sum, Max, Min,
// Prod, Any, All, with keep_dims) and of ArgMax and ArgMin.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"

using namespace mlir;
using namespace ::tfaot;

FailureOr<Value>(::tfaot::importArgMax)(NodeImportContext &ctx) {
  auto dimension = constantInts(ctx, 1, "the dimension");
  if (failed(dimension))
    return failure();
  if (dimension->size() != 1)
    return ctx.error("the dimension input must be a scalar");
  auto input = ctx.typeOf(0);
  FailureOr<int64_t> axis = normalizeAxis(ctx, (*dimension)[0], input.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(input.getShape());
  shape.erase(shape.begin() + *axis);
  const tensorflow::AttrValue *out = ctx.attr("output_type");
  tensorflow::DataType outType = out ? out->type() : tensorflow::DT_INT64;
  if (outType != tensorflow::DT_INT32 && outType != tensorflow::DT_INT64)
    return ctx.error("output_type must be int32 or int64, got " +
                     dataTypeName(outType));
  return buildOp(ctx, "ArgMax", ctx.operands,
                 RankedTensorType::get(
                     shape, convertDataType(outType, ctx.builder.getContext())));
}

/// `x` with its order reversed, exactly and without overflow: -x for
/// floats (NaN stays NaN; -0 and 0 stay equal), ~x for integers, signed or
/// not (all ones minus x: -1 - x, or the largest value minus x).
static Value reverseOrder(NodeImportContext &ctx, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();
  if (isa<FloatType>(element))
    return buildOpWithAttrs(ctx, "Neg", {x}, type, {});
  auto scalar = RankedTensorType::get({}, element);
  Value allOnes = buildConst(
      ctx, DenseElementsAttr::get(
               scalar, APInt::getAllOnes(element.getIntOrFloatBitWidth())));
  return buildOpWithAttrs(ctx, "Sub", {allOnes, x}, type, {});
}

/// ArgMin is ArgMax of the input with its order reversed, so that both
/// have one lowering and one handling of ties and NaN, TF CPU's: the first
/// index of the extreme value wins, a NaN never does (Eigen's reducers
/// compare with < and >), and a row of NaN alone gives 0.
FailureOr<Value>(::tfaot::importArgMin)(NodeImportContext &ctx) {
  RankedTensorType input = ctx.typeOf(0);
  if (!isa<FloatType, IntegerType>(input.getElementType()) ||
      input.getElementType().isInteger(1))
    return ctx.error("ArgMin of " + typeString(input) + " is not supported");
  ctx.operands[0] = reverseOrder(ctx, ctx.operands[0]);
  return importArgMax(ctx);
}

FailureOr<Value>(::tfaot::importReduction)(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  FailureOr<SmallVector<bool>> reducedOrError = reducedAxes(ctx);
  if (failed(reducedOrError))
    return failure();
  SmallVector<bool> reduced = std::move(*reducedOrError);
  const tensorflow::AttrValue *keep = ctx.attr("keep_dims");
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < input.getRank(); ++i) {
    if (!reduced[i])
      shape.push_back(input.getDimSize(i));
    else if (keep && keep->b())
      shape.push_back(1);
  }
  return buildOp(ctx, ctx.node.op(), ctx.operands,
                 RankedTensorType::get(shape, input.getElementType()));
}
