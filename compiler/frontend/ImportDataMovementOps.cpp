//===- ImportDataMovementOps.cpp - Slices, padding, joins, splits, tiles --===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of ops that rearrange elements: Slice, MirrorPad, BroadcastTo,
// OneHot, SpaceToBatchND, BatchToSpaceND, TopKV2, and (further down) Pad
// and PadV2, ConcatV2, StridedSlice, Pack, Split, SplitV, Unpack, Tile and
// DepthToSpace. Pad gets an explicit zero fill value, so Pad and PadV2
// share one op; Pack, Unpack, Split and Tile become ConcatV2, StridedSlice
// and Reshape ops; DepthToSpace a reshape-transpose-reshape. Their shape
// operands must be constants (after import-time folding of shape
// arithmetic, which is how TF's dilated convolutions compute their
// paddings); the result shapes come from the same functions the verifiers
// use (ir/Ops.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

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

FailureOr<Value>(::tfaot::importPad)(NodeImportContext &ctx) {
  auto paddings = constantInts(ctx, 1, "the paddings");
  if (failed(paddings))
    return failure();
  auto input = ctx.typeOf(0);
  if ((int64_t)paddings->size() != 2 * input.getRank())
    return ctx.error("paddings must be [" + llvm::Twine(input.getRank()) +
                     ", 2] for an input of rank " +
                     llvm::Twine(input.getRank()));
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < input.getRank(); ++i) {
    int64_t before = (*paddings)[2 * i], after = (*paddings)[2 * i + 1];
    if (before < 0 || after < 0)
      return ctx.error("paddings must not be negative");
    shape.push_back(input.getDimSize(i) + before + after);
  }
  Value fill = ctx.operands.size() == 3
                   ? ctx.operands[2]
                   : buildScalar(ctx, input.getElementType(), 0);
  if (cast<RankedTensorType>(fill.getType()).getNumElements() != 1)
    return ctx.error("constant_values must be a scalar");
  return buildOp(ctx, "Pad", {ctx.operands[0], ctx.operands[1], fill},
                 RankedTensorType::get(shape, input.getElementType()));
}

FailureOr<Value>(::tfaot::importConcat)(NodeImportContext &ctx) {
  unsigned n = ctx.operands.size() - 1;
  auto axisValues = constantInts(ctx, n, "the axis");
  if (failed(axisValues))
    return failure();
  auto first = ctx.typeOf(0);
  FailureOr<int64_t> axis = normalizeAxis(ctx, (*axisValues)[0], first.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  shape[*axis] = 0;
  for (unsigned i = 0; i < n; ++i) {
    auto type = ctx.typeOf(i);
    if (type.getRank() != first.getRank() ||
        type.getElementType() != first.getElementType())
      return ctx.error("input " + llvm::Twine(i) + " (" + typeString(type) +
                       ") does not match input 0 (" + typeString(first) + ")");
    for (int64_t d = 0; d < first.getRank(); ++d)
      if (d != *axis && type.getDimSize(d) != first.getDimSize(d))
        return ctx.error("input " + llvm::Twine(i) + " (" + typeString(type) +
                         ") differs from input 0 (" + typeString(first) +
                         ") outside the concatenation axis");
    shape[*axis] += type.getDimSize(*axis);
  }
  return buildOp(ctx, "ConcatV2", ctx.operands,
                 RankedTensorType::get(shape, first.getElementType()));
}

FailureOr<Value>(::tfaot::importStridedSlice)(NodeImportContext &ctx) {
  auto begin = constantInts(ctx, 1, "begin");
  auto end = constantInts(ctx, 2, "end");
  auto strides = constantInts(ctx, 3, "strides");
  if (failed(begin) || failed(end) || failed(strides))
    return failure();
  auto mask = [&](const char *name) -> int64_t {
    const tensorflow::AttrValue *v = ctx.attr(name);
    return v ? v->i() : 0;
  };
  auto input = ctx.typeOf(0);
  std::string why;
  auto spec = mlir::tfaot::computeStridedSlice(
      input.getShape(), *begin, *end, *strides, mask("begin_mask"),
      mask("end_mask"), mask("ellipsis_mask"), mask("new_axis_mask"),
      mask("shrink_axis_mask"), why);
  if (failed(spec))
    return ctx.error(why);
  std::string opName = "tfaot.StridedSlice";
  OperationState state(ctx.loc, opName);
  state.addOperands(ctx.operands);
  state.addTypes(
      RankedTensorType::get(spec->outputShape, input.getElementType()));
  for (const char *name : {"begin_mask", "end_mask", "ellipsis_mask",
                           "new_axis_mask", "shrink_axis_mask"})
    state.addAttribute(name, ctx.builder.getI64IntegerAttr(mask(name)));
  return ctx.builder.create(state)->getResult(0);
}

/// Pack (tf.stack): each input gains a size-1 axis, then they concatenate.
FailureOr<Value>(::tfaot::importPack)(NodeImportContext &ctx) {
  auto first = ctx.typeOf(0);
  const tensorflow::AttrValue *axisAttr = ctx.attr("axis");
  FailureOr<int64_t> axis =
      normalizeAxis(ctx, axisAttr ? axisAttr->i() : 0, first.getRank() + 1);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> expanded(first.getShape());
  expanded.insert(expanded.begin() + *axis, 1);
  SmallVector<Value> pieces;
  for (unsigned i = 0; i < ctx.operands.size(); ++i) {
    if (ctx.typeOf(i) != first)
      return ctx.error("input " + llvm::Twine(i) + " has type " +
                       typeString(ctx.typeOf(i)) + ", input 0 has " +
                       typeString(first));
    pieces.push_back(buildReshape(ctx, ctx.operands[i], expanded));
  }
  SmallVector<int64_t> shape(expanded);
  shape[*axis] = ctx.operands.size();
  pieces.push_back(buildI64Const(ctx, {*axis}, {}));
  std::string opName = "tfaot.ConcatV2";
  OperationState state(ctx.loc, opName);
  state.addOperands(pieces);
  state.addTypes(RankedTensorType::get(shape, first.getElementType()));
  return ctx.builder.create(state)->getResult(0);
}

/// One slice [begin, begin + size) of `input` along `axis`, optionally with
/// that axis removed (Unpack).
static Value buildAxisSlice(NodeImportContext &ctx, Value input, int64_t axis,
                            int64_t begin, int64_t size, bool dropAxis) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> starts(rank, 0), ends(type.getShape()), steps(rank, 1);
  starts[axis] = begin;
  ends[axis] = begin + size;
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = size;
  if (dropAxis)
    shape.erase(shape.begin() + axis);
  Builder &b = ctx.builder;
  SmallVector<NamedAttribute> attrs;
  if (dropAxis)
    attrs.push_back(
        b.getNamedAttr("shrink_axis_mask", b.getI64IntegerAttr(1 << axis)));
  return buildOpWithAttrs(
      ctx, "StridedSlice",
      {input, buildI64Const(ctx, starts, {rank}), buildI64Const(ctx, ends, {rank}),
       buildI64Const(ctx, steps, {rank})},
      RankedTensorType::get(shape, type.getElementType()), attrs);
}

/// Returns pieces[0] and records the others as the node's further outputs.
static Value setOutputs(NodeImportContext &ctx, ArrayRef<Value> pieces) {
  ctx.extraOutputs.assign(pieces.begin() + 1, pieces.end());
  return pieces[0];
}

/// Split (axis, value): num_split equal pieces.
FailureOr<Value>(::tfaot::importSplit)(NodeImportContext &ctx) {
  auto axisValues = constantInts(ctx, 0, "the axis");
  if (failed(axisValues))
    return failure();
  auto input = ctx.typeOf(1);
  FailureOr<int64_t> axis = normalizeAxis(ctx, (*axisValues)[0], input.getRank());
  if (failed(axis))
    return failure();
  const tensorflow::AttrValue *num = ctx.attr("num_split");
  int64_t n = num ? num->i() : 0;
  if (n < 1 || input.getDimSize(*axis) % n != 0)
    return ctx.error(llvm::formatv("cannot split a dimension of size {0} into "
                                   "{1} equal pieces",
                                   input.getDimSize(*axis), n));
  int64_t size = input.getDimSize(*axis) / n;
  SmallVector<Value> pieces;
  for (int64_t i = 0; i < n; ++i)
    pieces.push_back(
        buildAxisSlice(ctx, ctx.operands[1], *axis, i * size, size, false));
  return setOutputs(ctx, pieces);
}

/// SplitV (value, size_splits, axis): given sizes, at most one -1.
FailureOr<Value>(::tfaot::importSplitV)(NodeImportContext &ctx) {
  auto sizes = constantInts(ctx, 1, "size_splits");
  auto axisValues = constantInts(ctx, 2, "the axis");
  if (failed(sizes) || failed(axisValues))
    return failure();
  auto input = ctx.typeOf(0);
  FailureOr<int64_t> axis = normalizeAxis(ctx, (*axisValues)[0], input.getRank());
  if (failed(axis))
    return failure();
  int64_t total = input.getDimSize(*axis), known = 0, unknown = -1;
  for (auto [i, s] : llvm::enumerate(*sizes)) {
    if (s == -1 && unknown < 0)
      unknown = i;
    else if (s < 0)
      return ctx.error("size_splits may hold one -1 and no other negative");
    else
      known += s;
  }
  if (unknown >= 0)
    (*sizes)[unknown] = total - known;
  if ((unknown < 0 && known != total) || (unknown >= 0 && known > total))
    return ctx.error(llvm::formatv("size_splits add up to {0}, but the "
                                   "dimension has {1}",
                                   known, total));
  SmallVector<Value> pieces;
  int64_t begin = 0;
  for (int64_t s : *sizes) {
    pieces.push_back(buildAxisSlice(ctx, ctx.operands[0], *axis, begin, s, false));
    begin += s;
  }
  return setOutputs(ctx, pieces);
}

/// Unpack (tf.unstack): one output per index along axis, that axis removed.
FailureOr<Value>(::tfaot::importUnpack)(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  const tensorflow::AttrValue *axisAttr = ctx.attr("axis");
  FailureOr<int64_t> axis =
      normalizeAxis(ctx, axisAttr ? axisAttr->i() : 0, input.getRank());
  if (failed(axis))
    return failure();
  SmallVector<Value> pieces;
  for (int64_t i = 0; i < input.getDimSize(*axis); ++i)
    pieces.push_back(buildAxisSlice(ctx, ctx.operands[0], *axis, i, 1, true));
  return setOutputs(ctx, pieces);
}

/// Tile: the multiples are constant. With a static input of shape
/// [d0, d1, ...] the result is a Reshape to [1, d0, 1, d1, ...], a
/// BroadcastTo [m0, d0, m1, d1, ...] and a Reshape to [m0*d0, m1*d1, ...]:
/// copy i of axis k is index i of the broadcast axis before it, which is
/// Tile's order. Three ops whatever the multiples: a ConcatV2 of m copies
/// per axis, as tfaot built before, made the compile time grow with m
/// faster than linearly (bufferization analyses each copy against the
/// others: a 2x2 constant tiled 256 x 256 took 99 s, 32768 x 16384 did not
/// finish in 300 s). An input with a dynamic dimension keeps the ConcatV2,
/// whose copies need no static shape.
static constexpr int64_t kMaxConcatTileMultiple = 65536;
FailureOr<Value>(::tfaot::importTile)(NodeImportContext &ctx) {
  auto multiples = constantInts(ctx, 1, "the multiples");
  if (failed(multiples))
    return failure();
  Value value = ctx.operands[0];
  auto input = ctx.typeOf(0);
  if ((int64_t)multiples->size() != input.getRank())
    return ctx.error("multiples must have one entry per input dimension");
  // Multiples come from the file: their product with the input's size can
  // overflow int64, so bound it before building any shape from it.
  int64_t elements = 1;
  SmallVector<int64_t> expanded, broadcast, result;
  for (auto [axis, m] : llvm::enumerate(*multiples)) {
    if (m < 0)
      return ctx.error("multiples must not be negative");
    int64_t d = input.getDimSize(axis), size = 0;
    if (!ShapedType::isDynamic(d) &&
        (__builtin_mul_overflow(d, m, &size) ||
         (size > 0 && elements > kMaxTensorElements / size)))
      return ctx.error(llvm::formatv(
          "multiple {0} of axis {1} makes a result of more than 2^40 "
          "elements (tfaot's limit for one tensor)",
          m, axis));
    elements *= ShapedType::isDynamic(d) ? 1 : size;
    expanded.append({1, d});
    broadcast.append({m, d});
    result.push_back(size);
  }
  Type elementType = input.getElementType();
  if (input.hasStaticShape()) {
    Value copies = buildOp(
        ctx, "BroadcastTo",
        {buildReshape(ctx, value, expanded),
         buildI64Const(ctx, broadcast, {int64_t(broadcast.size())})},
        RankedTensorType::get(broadcast, elementType));
    return buildReshape(ctx, copies, result);
  }
  for (auto [axis, m] : llvm::enumerate(*multiples)) {
    // A ConcatV2 of m copies: bound m before building them.
    if (m > kMaxConcatTileMultiple)
      return ctx.error(llvm::formatv(
          "multiple {0} of axis {1} is larger than tfaot supports for an "
          "input of dynamic shape ({2})",
          m, axis, kMaxConcatTileMultiple));
    if (m == 1)
      continue;
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape(type.getShape());
    if (!ShapedType::isDynamic(shape[axis]))
      shape[axis] *= m;
    SmallVector<Value> copies(m, value);
    copies.push_back(buildI64Const(ctx, {int64_t(axis)}, {}));
    value = buildOpWithAttrs(ctx, "ConcatV2", copies,
                             RankedTensorType::get(shape, elementType), {});
  }
  return value;
}

/// DepthToSpace (NHWC): a reshape to [N, H, W, b, b, C'], a transpose that
/// interleaves the blocks with H and W, and a reshape to [N, H*b, W*b, C'].
FailureOr<Value>(::tfaot::importDepthToSpace)(NodeImportContext &ctx) {
  if (stringAttr(ctx, "data_format", "NHWC") != "NHWC")
    return ctx.error("only NHWC is supported");
  const tensorflow::AttrValue *blockAttr = ctx.attr("block_size");
  int64_t b = blockAttr ? blockAttr->i() : 0;
  auto input = ctx.typeOf(0);
  if (input.getRank() != 4 || b < 2 || input.getDimSize(3) % (b * b) != 0)
    return ctx.error("needs a rank-4 input whose channels divide by "
                     "block_size^2 (block_size >= 2)");
  int64_t n = input.getDimSize(0), h = input.getDimSize(1),
          w = input.getDimSize(2), c = input.getDimSize(3) / (b * b);
  Value blocks = buildReshape(ctx, ctx.operands[0], {n, h, w, b, b, c});
  Value perm = buildI64Const(ctx, {0, 1, 3, 2, 4, 5}, {6});
  Value interleaved = buildOp(
      ctx, "Transpose", {blocks, perm},
      RankedTensorType::get({n, h, b, w, b, c}, input.getElementType()));
  return buildReshape(ctx, interleaved, {n, h * b, w * b, c});
}
