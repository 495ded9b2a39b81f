//===- ImportDataMovementOps.cpp - Slices, padding, blocks, TopKV2 --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of ops that rearrange elements: Slice, MirrorPad, BroadcastTo,
// OneHot, SpaceToBatchND, BatchToSpaceND, TopKV2. Their shape operands must
// be constants (after import-time folding of shape arithmetic, which is how
// TF's dilated convolutions compute their paddings); the result shapes come
// from the same functions the verifiers use (ir/Ops.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/ImportHelpers.h"

#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;

FailureOr<Value>(::tfaot::importSlice)(NodeImportContext &ctx) {
  auto begin = constantInts(ctx, 1, "begin");
  if (failed(begin))
    return failure();
  auto size = constantInts(ctx, 2, "size");
  if (failed(size))
    return failure();
  auto input = ctx.typeOf(0);
  SmallVector<int64_t> sizes;
  std::string why;
  if (failed(mlir::tfaot::resolveSlice(input.getShape(), *begin, *size, sizes,
                                       why)))
    return ctx.error(why);
  return buildOp(ctx, "Slice", ctx.operands,
                 RankedTensorType::get(sizes, input.getElementType()));
}

FailureOr<Value>(::tfaot::importMirrorPad)(NodeImportContext &ctx) {
  auto paddings = constantInts(ctx, 1, "the paddings");
  if (failed(paddings))
    return failure();
  auto input = ctx.typeOf(0);
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(mlir::tfaot::computeMirrorPad(
          input.getShape(), *paddings, stringAttr(ctx, "mode", ""), shape, why)))
    return ctx.error(why);
  return buildOp(ctx, "MirrorPad", ctx.operands,
                 RankedTensorType::get(shape, input.getElementType()));
}

FailureOr<Value>(::tfaot::importBroadcastTo)(NodeImportContext &ctx) {
  auto shape = constantInts(ctx, 1, "the shape");
  if (failed(shape))
    return failure();
  auto input = ctx.typeOf(0);
  SmallVector<int64_t> result;
  if (input.getRank() > int64_t(shape->size()) ||
      failed(mlir::tfaot::broadcastShapes(input.getShape(), *shape, result)) ||
      ArrayRef<int64_t>(result) != ArrayRef<int64_t>(*shape)) {
    std::string wanted;
    llvm::raw_string_ostream os(wanted);
    llvm::interleave(*shape, os, ",");
    return ctx.error("cannot broadcast " + typeString(input) + " to [" +
                     wanted + "]");
  }
  return buildOp(ctx, "BroadcastTo", ctx.operands,
                 RankedTensorType::get(*shape, input.getElementType()));
}

FailureOr<Value>(::tfaot::importOneHot)(NodeImportContext &ctx) {
  auto depth = constantInts(ctx, 1, "the depth");
  if (failed(depth))
    return failure();
  if (depth->size() != 1 || (*depth)[0] < 0)
    return ctx.error("depth must be a non-negative scalar");
  auto indices = ctx.typeOf(0), on = ctx.typeOf(2), off = ctx.typeOf(3);
  if (on.getElementType() != off.getElementType())
    return ctx.error("on_value (" + typeString(on) + ") and off_value (" +
                     typeString(off) + ") differ in type");
  if (on.getNumElements() != 1 || off.getNumElements() != 1)
    return ctx.error("on_value and off_value must be scalars");
  int64_t axis = intAttr(ctx, "axis", -1);
  if (axis < -1 || axis > indices.getRank())
    return ctx.error(llvm::formatv("axis {0} must be in [-1, {1}]", axis,
                                   indices.getRank()));
  SmallVector<int64_t> shape(indices.getShape());
  shape.insert(shape.begin() + (axis == -1 ? indices.getRank() : axis),
               (*depth)[0]);
  Builder &b = ctx.builder;
  return buildOpWithAttrs(ctx, "OneHot", ctx.operands,
                          RankedTensorType::get(shape, on.getElementType()),
                          {b.getNamedAttr("axis", b.getI64IntegerAttr(axis))});
}

/// SpaceToBatchND (paddings) and BatchToSpaceND (crops) share their checks.
static FailureOr<Value> importSpaceBatch(NodeImportContext &ctx,
                                         bool toBatch) {
  auto block = constantInts(ctx, 1, "block_shape");
  if (failed(block))
    return failure();
  auto pairs = constantInts(ctx, 2, toBatch ? "the paddings" : "the crops");
  if (failed(pairs))
    return failure();
  auto input = ctx.typeOf(0);
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(toBatch ? mlir::tfaot::computeSpaceToBatch(input.getShape(),
                                                        *block, *pairs, shape,
                                                        why)
                     : mlir::tfaot::computeBatchToSpace(input.getShape(),
                                                        *block, *pairs, shape,
                                                        why)))
    return ctx.error(why);
  return buildOp(ctx, ctx.node.op(), ctx.operands,
                 RankedTensorType::get(shape, input.getElementType()));
}

FailureOr<Value>(::tfaot::importSpaceToBatchND)(NodeImportContext &ctx) {
  return importSpaceBatch(ctx, /*toBatch=*/true);
}

FailureOr<Value>(::tfaot::importBatchToSpaceND)(NodeImportContext &ctx) {
  return importSpaceBatch(ctx, /*toBatch=*/false);
}

/// TopKV2 (input, k): outputs 0 (values) and 1 (indices).
FailureOr<Value>(::tfaot::importTopKV2)(NodeImportContext &ctx) {
  auto k = constantInts(ctx, 1, "k");
  if (failed(k))
    return failure();
  auto input = ctx.typeOf(0);
  if (input.getRank() < 1)
    return ctx.error("input must have rank >= 1");
  int64_t last = input.getShape().back();
  if (k->size() != 1 || (*k)[0] < 0 || (*k)[0] > last)
    return ctx.error(llvm::formatv("k must be a scalar in [0, {0}], the size "
                                   "of the last dimension",
                                   last));
  const tensorflow::AttrValue *sorted = ctx.attr("sorted");
  if (sorted && !sorted->b())
    return ctx.error("sorted = false is not supported");
  const tensorflow::AttrValue *indexType = ctx.attr("index_type");
  tensorflow::DataType indexDtype =
      indexType ? indexType->type() : tensorflow::DT_INT32;
  if (indexDtype != tensorflow::DT_INT32 && indexDtype != tensorflow::DT_INT64)
    return ctx.error("index_type must be int32 or int64");
  SmallVector<int64_t> shape(input.getShape());
  shape.back() = (*k)[0];
  Builder &b = ctx.builder;
  Type indexElement = indexDtype == tensorflow::DT_INT32 ? b.getI32Type()
                                                         : b.getI64Type();
  OperationState state(ctx.loc, "tfaot.TopKV2");
  state.addOperands(ctx.operands);
  state.addTypes({RankedTensorType::get(shape, input.getElementType()),
                  RankedTensorType::get(shape, indexElement)});
  state.addAttribute("sorted", b.getBoolAttr(true));
  Operation *op = ctx.builder.create(state);
  ctx.extraOutputs.assign({op->getResult(1)});
  return op->getResult(0);
}
