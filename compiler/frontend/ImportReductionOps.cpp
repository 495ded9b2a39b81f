//===- ImportReductionOps.cpp - Mean, Sum, Max, ..., ArgMax ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the reductions over constant axes (Mean, Sum, Max, Min,
// Prod, Any, All, with keep_dims) and of ArgMax.
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
