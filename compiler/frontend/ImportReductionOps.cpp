//===- ImportReductionOps.cpp - Mean, Sum, ..., ArgMax, ArgMin, Cumsum ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the reductions over constant axes (Mean, Sum, Max, Min,
// Prod, Any, All, with keep_dims), of ArgMax and ArgMin, and of the running
// sum Cumsum.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"
#include "ir/ScanOps.h"

using namespace mlir;
using namespace ::tfaot;

FailureOr<Value>(::tfaot::importArgMax)(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  FailureOr<int64_t> axis = constantAxis(ctx, "the dimension");
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

/// Fails, naming the op, unless `input` holds numbers (floats or
/// integers; not bool).
static LogicalResult requireNumbers(NodeImportContext &ctx,
                                    RankedTensorType input) {
  Type element = input.getElementType();
  if (isa<FloatType, IntegerType>(element) && !element.isInteger(1))
    return success();
  return ctx.error(ctx.node.op() + " of " + typeString(input) +
                   " is not supported");
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
  if (failed(requireNumbers(ctx, ctx.typeOf(0))))
    return failure();
  ctx.operands[0] = reverseOrder(ctx, ctx.operands[0]);
  return importArgMax(ctx);
}

/// Cumsum(x, axis) with TF's `exclusive` and `reverse`; the axis must be a
/// constant (or fold to one).
FailureOr<Value>(::tfaot::importCumsum)(NodeImportContext &ctx) {
  RankedTensorType input = ctx.typeOf(0);
  if (input.getRank() < 1)
    return ctx.error("needs an input of rank >= 1, got " + typeString(input));
  if (failed(requireNumbers(ctx, input)))
    return failure();
  FailureOr<int64_t> axis = constantAxis(ctx, "the axis");
  if (failed(axis))
    return failure();
  auto flag = [&](const char *name) {
    const tensorflow::AttrValue *attr = ctx.attr(name);
    return ctx.builder.getNamedAttr(name,
                                    ctx.builder.getBoolAttr(attr && attr->b()));
  };
  return buildOpWithAttrs(
      ctx, "Cumsum", {ctx.operands[0]}, input,
      {ctx.builder.getNamedAttr("axis", ctx.builder.getI64IntegerAttr(*axis)),
       flag("exclusive"), flag("reverse")});
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
