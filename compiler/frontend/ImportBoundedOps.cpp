//===- ImportBoundedOps.cpp - Ops that read a bounded value's count -------===//
// SPDX-License-Identifier: Apache-2.0
//
// The nodes BoundTracker imports itself (docs/dynamic-shapes.md): where a
// bounded value (a static buffer plus a run-time count) meets an op whose
// meaning depends on the count rather than the buffer.
//
// TF graphs turn a data-dependent size back into a static one by padding:
//   n = Shape(x)[0]; Pad(x, [[0, limit - n], ...])           (faceboxes)
//   ConcatV2(x, Fill([limit - n], 0))                         (handtrack)
// Shape of a bounded value is computed at run time (the count), and the
// importer follows the arithmetic on it as a CountExpr (offset + scale *
// count per element); a Pad or ConcatV2 whose added size is `limit -
// count` along the bounded dim then has the static size `limit`, and is
// built as the buffer with the entries past the count replaced by the fill
// value, padded or cut to `limit`.
//
// NonMaxSuppression of bounded boxes gets the padding's scores set to -inf,
// which no score threshold admits, so it selects among the valid boxes
// only; GatherV2 from bounded params checks its indices against the
// run-time row count (tfaot.CheckBoundedIndices).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportDataDependentOps.h"

#include "compiler/frontend/ImportHelpers.h"
#include "ir/ConstantEval.h"
#include "ir/DataDependentOps.h"
#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace ::tfaot;

static RankedTensorType typeOfValue(Value v) {
  return cast<RankedTensorType>(v.getType());
}

DenseElementsAttr(::tfaot::intsAttr)(RankedTensorType type,
                                  ArrayRef<int64_t> values) {
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  return DenseElementsAttr::get(type, ints);
}

/// The iota is a constant shaped to broadcast along `dim`.
Value(::tfaot::maskPastCount)(NodeImportContext &ctx, Value x, int64_t dim,
                           Value count, Value fill) {
  RankedTensorType type = typeOfValue(x);
  SmallVector<int64_t> shape(type.getRank(), 1);
  shape[dim] = type.getDimSize(dim);
  SmallVector<int64_t> iota(shape[dim]);
  for (int64_t i = 0; i < shape[dim]; ++i)
    iota[i] = i;
  Type i32 = ctx.builder.getI32Type();
  Value positions =
      buildConst(ctx, intsAttr(RankedTensorType::get(shape, i32), iota));
  Value valid = buildOpWithAttrs(
      ctx, "Less", {positions, count},
      RankedTensorType::get(shape, ctx.builder.getI1Type()), {});
  return buildOpWithAttrs(ctx, "SelectV2", {valid, x, fill}, type, {});
}

/// `x` padded after its end along `dim` with `extra` entries of `fill`.
static Value padAfter(NodeImportContext &ctx, Value x, int64_t dim,
                      int64_t extra, Value fill) {
  if (extra == 0)
    return x;
  RankedTensorType type = typeOfValue(x);
  SmallVector<int64_t> paddings(2 * type.getRank(), 0);
  paddings[2 * dim + 1] = extra;
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] += extra;
  Value amounts = buildI64Const(ctx, paddings, {type.getRank(), 2});
  return buildOpWithAttrs(ctx, "Pad", {x, amounts, fill},
                          RankedTensorType::get(shape, type.getElementType()),
                          {});
}

LogicalResult(::tfaot::refuseBounded)(NodeImportContext &ctx, unsigned input,
                                   const llvm::Twine &why) {
  return ctx.error(llvm::formatv("input {0} ('{1}') has a size that depends "
                                 "on data (a bounded shape, "
                                 "docs/dynamic-shapes.md); {2}",
                                 input, ctx.node.input(input), why.str())
                       .str());
}

//===----------------------------------------------------------------------===//
// CountExpr: arithmetic on a run-time count
//===----------------------------------------------------------------------===//

/// Nodes whose integer output is affine in their integer inputs (slices,
/// reshapes, packs, sums, products with a constant): evaluating one at two
/// counts gives its offset and scale exactly.
static bool isAffineShapeOp(StringRef op) {
  return llvm::is_contained({"Identity", "StridedSlice", "Slice", "Reshape",
                             "ExpandDims", "Squeeze", "Pack", "ConcatV2",
                             "Add", "AddV2", "Sub", "Mul", "Neg"},
                            op);
}

/// The value of `v` with the values in `known` substituted: `v` and the ops
/// built for the same node (at `loc`) folded on constants, or null where
/// an op does not fold.
static Attribute foldWith(Value v, const DenseMap<Value, Attribute> &known,
                          Location loc) {
  if (auto it = known.find(v); it != known.end())
    return it->second;
  if (auto constant = v.getDefiningOp<mlir::tfaot::ConstOp>())
    return constant.getValue();
  Operation *op = v.getDefiningOp();
  if (!op || op->getLoc() != loc || op->getNumResults() != 1) {
    // An operand from another node that is a constant not folded at its
    // import (a Select on a folded condition: TF's clip size for a static
    // dim) is evaluated now.
    mlir::tfaot::EvalFailure why;
    FailureOr<DenseElementsAttr> value = mlir::tfaot::evaluateConstant(v, why);
    return succeeded(value) ? Attribute(*value) : Attribute();
  }
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    Attribute a = foldWith(operand, known, loc);
    if (!a)
      return {};
    operands.push_back(a);
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.size() != 1)
    return {};
  if (auto attr = dyn_cast_if_present<Attribute>(folded[0]))
    return attr;
  return foldWith(cast<Value>(folded[0]), known, loc);
}

namespace tfaot {

void BoundTracker::recordCountExpr(const tensorflow::NodeDef &node,
                                          ArrayRef<Value> operands,
                                          Value output) {
  if (!isAffineShapeOp(node.op()))
    return;
  Value count, sliceOf;
  SmallVector<std::pair<Value, const CountExpr *>> exprs;
  for (Value operand : operands)
    if (const CountExpr *expr = lookupCountExpr(operand)) {
      if (count && (count != expr->count || sliceOf != expr->sliceOf))
        return; // two counts: not one affine function
      count = expr->count;
      sliceOf = expr->sliceOf;
      exprs.push_back({operand, expr});
    }
  // A product of two counts is not affine.
  if (!count || (node.op() == "Mul" && exprs.size() > 1))
    return;
  auto outType = dyn_cast<RankedTensorType>(output.getType());
  if (!outType || !outType.getElementType().isSignlessInteger() ||
      !outType.hasStaticShape())
    return;
  Location loc = output.getLoc();
  auto at = [&](int64_t c) -> DenseIntElementsAttr {
    DenseMap<Value, Attribute> known;
    for (auto [operand, expr] : exprs) {
      SmallVector<int64_t> values;
      for (auto [o, s] : llvm::zip(expr->offset, expr->scale))
        values.push_back(o + s * c);
      known[operand] = intsAttr(typeOfValue(operand), values);
    }
    return dyn_cast_if_present<DenseIntElementsAttr>(
        foldWith(output, known, loc));
  };
  DenseIntElementsAttr at0 = at(0), at1 = at(1);
  if (!at0 || !at1)
    return;
  CountExpr result{count, {}, {}, sliceOf};
  for (auto [a, b] : llvm::zip(at0.getValues<APInt>(), at1.getValues<APInt>())) {
    result.offset.push_back(a.getSExtValue());
    result.scale.push_back(b.getSExtValue() - a.getSExtValue());
  }
  countExprs_[output] = std::move(result);
}

//===----------------------------------------------------------------------===//
// The nodes
//===----------------------------------------------------------------------===//

/// Shape: the static dims with the count at the bounded dim, i.e. dims0 +
/// onehot(dim) * count, computed at run time.
FailureOr<SmallVector<Value>>
BoundTracker::importShapeOfBounded(NodeImportContext &ctx,
                                          const BoundedDim &bound) {
  RankedTensorType input = ctx.typeOf(0);
  const tensorflow::AttrValue *outType = ctx.attr("out_type");
  bool wide = outType && outType->type() == tensorflow::DT_INT64;
  Type element = wide ? ctx.builder.getI64Type() : ctx.builder.getI32Type();
  auto vectorType = RankedTensorType::get({input.getRank()}, element);
  SmallVector<int64_t> dims(input.getShape()), onehot(input.getRank(), 0);
  dims[bound.dim] = 0;
  onehot[bound.dim] = 1;
  Value count = bound.count;
  if (wide)
    count = buildOpWithAttrs(ctx, "Cast", {count},
                             RankedTensorType::get({}, element), {});
  Value counted = buildOpWithAttrs(
      ctx, "Mul", {buildConst(ctx, intsAttr(vectorType, onehot)), count},
      vectorType, {});
  Value shape = buildOpWithAttrs(
      ctx, "AddV2", {buildConst(ctx, intsAttr(vectorType, dims)), counted},
      vectorType, {});
  countExprs_[shape] = CountExpr{bound.count, dims, onehot, {}};
  return SmallVector<Value>{shape};
}

/// Pad (or PadV2) of a value bounded along `dim` by `count`, by paddings
/// that add `limit - count` entries after it there and constants elsewhere:
/// the result has the static size before + limit.
FailureOr<SmallVector<Value>>
BoundTracker::importPadOfBounded(NodeImportContext &ctx,
                                        const BoundedDim &bound) {
  SmallVector<int64_t> offset, scale;
  Value countOfPaddings;
  const CountExpr *paddingExpr = lookupCountExpr(ctx.operands[1]);
  if (paddingExpr && paddingExpr->sliceOf)
    return refuseBounded(ctx, 0,
                         "its paddings come from a Slice size (-1 or a "
                         "limit), not from its run-time size");
  if (const CountExpr *expr = paddingExpr) {
    offset = expr->offset;
    scale = expr->scale;
    countOfPaddings = expr->count;
  } else if (DenseElementsAttr constant = constantElements(ctx.operands[1])) {
    for (const APInt &v : constant.getValues<APInt>())
      offset.push_back(v.getSExtValue());
    scale.assign(offset.size(), 0);
  } else {
    return refuseBounded(ctx, 0,
                         "its paddings are neither constants nor computed "
                         "from its run-time size");
  }
  RankedTensorType input = ctx.typeOf(0);
  int64_t rank = input.getRank(), d = bound.dim;
  if (int64_t(offset.size()) != 2 * rank)
    return ctx.error("paddings must be [" + llvm::Twine(rank) +
                     ", 2] for an input of rank " + llvm::Twine(rank));
  for (int64_t i = 0; i < 2 * rank; ++i) {
    bool expected = i == 2 * d + 1 ? scale[i] == -1 : scale[i] == 0;
    if (!expected || (i == 2 * d + 1 && countOfPaddings != bound.count))
      return refuseBounded(
          ctx, 0,
          "tfaot pads such a value only to a static size: by constants "
          "before it and `limit - n` after it along its bounded dimension, n "
          "its run-time size there");
  }
  int64_t limit = offset[2 * d + 1];
  int64_t bufferRows = input.getDimSize(d);
  if (limit < bufferRows)
    return refuseBounded(
        ctx, 0,
        llvm::formatv("it is padded to {0} entries, fewer than its bound {1}",
                      limit, bufferRows));
  // The buffer's padding becomes the fill value, then it is padded by
  // constants (the entries from the bound to the limit included).
  Value fill = ctx.operands.size() == 3
                   ? ctx.operands[2]
                   : buildScalar(ctx, input.getElementType(), 0);
  if (typeOfValue(fill).getNumElements() != 1)
    return ctx.error("constant_values must be a scalar");
  SmallVector<int64_t> amounts(offset);
  amounts[2 * d + 1] = limit - bufferRows;
  ctx.operands[0] = maskPastCount(ctx, ctx.operands[0], d, bound.count, fill);
  ctx.operands[1] = buildI64Const(ctx, amounts, {rank, 2});
  FailureOr<Value> padded = importPad(ctx);
  if (failed(padded))
    return failure();
  return SmallVector<Value>{*padded};
}

/// Fill whose dims are `limit - count` at one position and constants
/// elsewhere: a CountComplement, built as its largest (count 0) form,
/// which only importConcatToStatic reads.
FailureOr<SmallVector<Value>>
BoundTracker::importFillOfCount(NodeImportContext &ctx,
                                       const CountExpr &dims) {
  std::optional<int64_t> at;
  for (auto [i, s] : llvm::enumerate(dims.scale)) {
    if (s == 0)
      continue;
    if (at || dims.sliceOf || !(s == -1 || (s == 1 && dims.offset[i] == 0 &&
                                             countBound(dims.count))))
      return ctx.error("dims computed from a run-time size are supported "
                       "only as `limit - n` (a padding) or `n` at one "
                       "position");
    at = int64_t(i);
  }
  if (dims.scale[*at] == 1)
    return importFillToCount(ctx, dims);
  assert(at && "importBounded routes only dims that depend on the count");
  Value fill = ctx.operands[1];
  RankedTensorType fillType = ctx.typeOf(1);
  if (fillType.getRank() != 0)
    return ctx.error("value must be a scalar, got " + typeString(fillType));
  SmallVector<int64_t> shape(dims.offset);
  for (int64_t d : shape)
    if (d < 0)
      return ctx.error("dims must not be negative");
  Value largest = buildOpWithAttrs(
      ctx, "BroadcastTo",
      {fill, buildI64Const(ctx, shape, {int64_t(shape.size())})},
      RankedTensorType::get(shape, fillType.getElementType()), {});
  complements_[largest] = CountComplement{dims.count, *at, shape[*at], fill};
  return SmallVector<Value>{largest};
}

/// ConcatV2(x, complement): x bounded along the axis by the count the
/// complement subtracts; the result has the complement's static size.
FailureOr<SmallVector<Value>>
BoundTracker::importConcatToStatic(NodeImportContext &ctx) {
  unsigned n = ctx.operands.size() - 1;
  const BoundedDim *bound = n == 2 ? lookup(ctx.operands[0]) : nullptr;
  auto it = n == 2 ? complements_.find(ctx.operands[1]) : complements_.end();
  auto refuse = [&]() {
    return refuseBounded(
        ctx, 0,
        "tfaot concatenates such a value only with a Fill of `limit - n` "
        "entries after it along its bounded dimension (n its run-time size "
        "there), which makes a static size");
  };
  if (!bound || it == complements_.end())
    return refuse();
  const CountComplement &rest = it->second;
  auto axis = constantInts(ctx, n, "the axis");
  if (failed(axis))
    return failure();
  RankedTensorType input = ctx.typeOf(0);
  FailureOr<int64_t> a = normalizeAxis(ctx, (*axis)[0], input.getRank());
  if (failed(a))
    return failure();
  RankedTensorType restType = ctx.typeOf(1);
  bool sameOtherDims = restType.getRank() == input.getRank();
  for (int64_t i = 0; sameOtherDims && i < input.getRank(); ++i)
    sameOtherDims = i == *a || input.getDimSize(i) == restType.getDimSize(i);
  if (*a != bound->dim || rest.dim != *a || rest.count != bound->count ||
      !sameOtherDims ||
      input.getElementType() != restType.getElementType())
    return refuse();
  if (rest.size < input.getDimSize(*a))
    return refuseBounded(
        ctx, 0,
        llvm::formatv("it is padded to {0} entries, fewer than its bound {1}",
                      rest.size, input.getDimSize(*a)));
  Value masked =
      maskPastCount(ctx, ctx.operands[0], *a, bound->count, rest.fill);
  return SmallVector<Value>{
      padAfter(ctx, masked, *a, rest.size - input.getDimSize(*a), rest.fill)};
}

/// NonMaxSuppression of bounded boxes or scores: the padding's scores
/// become -inf, which is above no score threshold, so no padded box is a
/// candidate. (Padding gathered through index 0 copies a real box.)
LogicalResult BoundTracker::maskBoundedScores(NodeImportContext &ctx) {
  const BoundedDim *boxes = lookup(ctx.operands[0]);
  const BoundedDim *scores = lookup(ctx.operands[1]);
  if (boxes && scores && boxes->count != scores->count)
    return refuseBounded(ctx, 0,
                         "its boxes and scores have different run-time sizes");
  const BoundedDim *bound = boxes ? boxes : scores;
  if (bound->dim != 0)
    return refuseBounded(ctx, boxes ? 0 : 1,
                         "it is bounded along another dimension than the "
                         "boxes");
  RankedTensorType scoreType = ctx.typeOf(1);
  // Scores NMS does not take: left as they are, for its importer to report.
  if (scoreType.getRank() != 1 || !scoreType.getElementType().isF32())
    return success();
  Value minusInf = buildScalar(ctx, scoreType.getElementType(),
                               -std::numeric_limits<double>::infinity());
  ctx.operands[1] = maskPastCount(ctx, ctx.operands[1], 0, bound->count,
                                  minusInf);
  return success();
}

/// GatherV2 from params bounded along the gathered axis: the indices are
/// checked against the run-time row count (only the valid ones, if they
/// are bounded too) before the gather.
LogicalResult
BoundTracker::checkBoundedParamsGather(NodeImportContext &ctx,
                                              const BoundedDim &params) {
  auto axisValues = constantInts(ctx, 2, "the axis");
  if (failed(axisValues))
    return failure();
  RankedTensorType paramsType = ctx.typeOf(0);
  FailureOr<int64_t> axis =
      normalizeAxis(ctx, (*axisValues)[0], paramsType.getRank());
  if (failed(axis))
    return failure();
  if (*axis != params.dim)
    return refuseBounded(ctx, 0,
                         "tfaot gathers from such a value only along its "
                         "bounded dimension");
  Value indices = ctx.operands[1];
  RankedTensorType indicesType = ctx.typeOf(1);
  const BoundedDim *indicesBound = lookup(indices);
  if (indicesBound && indicesBound->dim != 0)
    return refuseBounded(ctx, 1,
                         "gathering from a bounded value, tfaot needs the "
                         "indices bounded along their first dimension");
  Value validRows =
      indicesBound
          ? indicesBound->count
          : buildScalar(ctx, ctx.builder.getI32Type(),
                        indicesType.getRank() ? indicesType.getDimSize(0) : 1);
  Value checked = buildOpWithAttrs(ctx, "CheckBoundedIndices",
                                   {indices, validRows, params.count},
                                   indicesType, {});
  if (indicesBound)
    bounds_[checked] = *indicesBound;
  ctx.operands[1] = checked;
  return success();
}

std::optional<FailureOr<SmallVector<Value>>>
BoundTracker::importBounded(NodeImportContext &ctx) {
  const std::string &op = ctx.node.op();
  substituteStaticCountExprs(ctx);
  auto boundOf = [&](unsigned i) {
    return i < ctx.operands.size() ? lookup(ctx.operands[i]) : nullptr;
  };
  if (op == "Unique" && boundOf(0))
    return FailureOr<SmallVector<Value>>(refuseBounded(
        ctx, 0, "tfaot's Unique compares every entry, padding included"));
  if (op == "TopKV2" && boundOf(0))
    return importTopKOfBounded(ctx, *boundOf(0));
  if (llvm::is_contained({"Sum", "Prod", "Max", "Min", "Any", "All"}, op) &&
      boundOf(0))
    return importReductionOfBounded(ctx, *boundOf(0));
  if (op == "Mean" && boundOf(0))
    return importMeanOfBounded(ctx, *boundOf(0));
  if ((op == "ArgMax" || op == "ArgMin") && boundOf(0))
    return importArgMaxOrMinOfBounded(ctx, *boundOf(0));
  if ((op == "GatherV2" || op == "GatherNd") && boundOf(1))
    zeroIndicesPadding(ctx, 1);
  if (op == "Slice" && boundOf(0))
    return importSliceOfBounded(ctx, *boundOf(0));
  if (op == "Range" && ctx.operands.size() == 3)
    if (Value count = asCount(ctx.operands[1]))
      return importRangeToCount(ctx, count);
  if ((op == "Select" || op == "SelectV2") && ctx.operands.size() == 3 &&
      !boundOf(0) && !boundOf(1) && !boundOf(2))
    if (auto clipped = importClipSize(ctx))
      return clipped;
  if (op == "Shape" && boundOf(0))
    return importShapeOfBounded(ctx, *boundOf(0));
  if ((op == "Pad" || op == "PadV2") && boundOf(0))
    return importPadOfBounded(ctx, *boundOf(0));
  // (A Fill whose dims do not depend on the count after all is imported as
  // usual, and reports that they are not constants.)
  if (const CountExpr *dims = op == "Fill" ? lookupCountExpr(ctx.operands[0])
                                           : nullptr;
      dims && llvm::any_of(dims->scale, [](int64_t s) { return s != 0; }))
    return importFillOfCount(ctx, *dims);
  if (op == "ConcatV2" &&
      llvm::any_of(ctx.operands, [&](Value v) { return complements_.count(v); }))
    return importConcatToStatic(ctx);
  if (StringRef(op).starts_with("NonMaxSuppression") &&
      (boundOf(0) || boundOf(1))) {
    if (failed(maskBoundedScores(ctx)))
      return FailureOr<SmallVector<Value>>(failure());
    return std::nullopt;
  }
  if (op == "GatherV2" && boundOf(0)) {
    if (failed(checkBoundedParamsGather(ctx, *boundOf(0))))
      return FailureOr<SmallVector<Value>>(failure());
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace tfaot
