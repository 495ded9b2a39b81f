//===- ImportCountOps.cpp - Ops sized or steered by a run-time count ------===//
// SPDX-License-Identifier: Apache-2.0
//
// TF's object-detection post-processing (handtrack) goes on computing with
// the count of a bounded value (docs/dynamic-shapes.md) after Where and
// NMS:
//   ones = Fill([n], 1.0)                     a tensor as long as the count
//   TopKV2(scores, k = n)                     sorting the valid entries
//   m = Minimum(100, n); Range(0, m, 1)       the first m of them
//   s = Sum(Cast(scores >= t)); Select(m > s, s, m)  a count from a mask
//   Slice(x, 0, where(n - 100 > 0, 100, -1))  clipping to at most 100
// A count is a scalar int32 computed at run time with a bound known now
// (BoundTracker::countBound): NMS's and Where's counts, and the Minimum,
// Maximum or Select of counts and constants, and the Sum of a 0/1 mask.
// Each op above then gets a bounded result: a buffer sized for the bound
// and the count it holds, the entries past it being padding. Reductions
// over a bounded dim replace the padding by the reduction's identity
// first; TopKV2 by the lowest value, so the padding sorts after every
// valid entry (equal values keep the lower index first).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportDataDependentOps.h"

#include "compiler/frontend/ImportHelpers.h"
#include "ir/DataDependentOps.h"
#include "ir/Ops.h"
#include "tfaot/runtime/check_kinds.h"

#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::NonMaxSuppressionOp;
using mlir::tfaot::WhereOp;

static bool isScalarI32(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getRank() == 0 && type.getElementType().isInteger(32);
}

/// The integer value of a constant scalar, if `v` is one.
static std::optional<int64_t> constantScalar(Value v) {
  DenseElementsAttr c = constantElements(v);
  if (!c || c.getNumElements() != 1 ||
      !c.getElementType().isSignlessInteger())
    return std::nullopt;
  return (*c.getValues<APInt>().begin()).getSExtValue();
}

namespace tfaot {

Value BoundTracker::asCount(Value value) const {
  const CountExpr *expr = lookupCountExpr(value);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!expr || expr->sliceOf || !type || type.getRank() != 0 ||
      expr->offset.size() != 1 || expr->offset[0] != 0 ||
      expr->scale[0] != 1 || !countBound(expr->count))
    return {};
  return expr->count;
}

void BoundTracker::recordCount(Value value, int64_t bound) {
  countBounds_[value] = bound;
  countExprs_[value] = CountExpr{value, {0}, {1}, {}};
}

void BoundTracker::substituteStaticCountExprs(NodeImportContext &ctx) {
  for (Value &operand : ctx.operands) {
    const CountExpr *expr = lookupCountExpr(operand);
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!expr || !type || !type.hasStaticShape() ||
        llvm::any_of(expr->scale, [](int64_t s) { return s != 0; }))
      continue;
    operand = buildConst(ctx, intsAttr(type, expr->offset));
  }
}

void BoundTracker::recordDerivedCount(const tensorflow::NodeDef &node,
                                      ArrayRef<Value> operands, Value output) {
  const std::string &op = node.op();
  if (!isScalarI32(output))
    return;
  // Each operand's bound: a count's, or a non-negative constant's value.
  auto boundOf = [&](Value v) -> std::optional<int64_t> {
    if (Value count = asCount(v))
      return countBound(count);
    std::optional<int64_t> c = constantScalar(v);
    return c && *c >= 0 ? c : std::nullopt;
  };
  auto isCount = [&](Value v) { return bool(asCount(v)); };
  if (op == "Minimum" || op == "Maximum") {
    std::optional<int64_t> a = boundOf(operands[0]), b = boundOf(operands[1]);
    if (!a || !b || (!isCount(operands[0]) && !isCount(operands[1])))
      return;
    recordCount(output, op == "Minimum" ? std::min(*a, *b) : std::max(*a, *b));
    return;
  }
  if (op != "Select" && op != "SelectV2")
    return;
  Value cond = operands[0], t = operands[1], e = operands[2];
  std::optional<int64_t> bt = boundOf(t), be = boundOf(e);
  if (!bt || !be || (!isCount(t) && !isCount(e)))
    return;
  // Either value, so at most the larger bound; a comparison of the two
  // that picks the smaller one is their minimum (the post-processing's
  // `select(m > s, s, m)`).
  int64_t bound = std::max(*bt, *be);
  if (Operation *compare = cond.getDefiningOp();
      compare && compare->getNumOperands() == 2) {
    StringRef name = compare->getName().getStringRef();
    Value x = compare->getOperand(0), y = compare->getOperand(1);
    bool greater = name == "tfaot.Greater" || name == "tfaot.GreaterEqual";
    bool less = name == "tfaot.Less" || name == "tfaot.LessEqual";
    if ((greater && t == y && e == x) || (less && t == x && e == y))
      bound = std::min(*bt, *be);
  }
  recordCount(output, bound);
}

/// Fill([..., n, ...], value): the bound's entries of `value`, n of them
/// valid.
FailureOr<SmallVector<Value>>
BoundTracker::importFillToCount(NodeImportContext &ctx, const CountExpr &dims) {
  RankedTensorType fillType = ctx.typeOf(1);
  if (fillType.getRank() != 0)
    return ctx.error("value must be a scalar, got " + typeString(fillType));
  SmallVector<int64_t> shape(dims.offset);
  int64_t at = -1;
  for (auto [i, s] : llvm::enumerate(dims.scale))
    if (s != 0)
      at = i;
  shape[at] = *countBound(dims.count);
  for (int64_t d : shape)
    if (d < 0)
      return ctx.error("dims must not be negative");
  Value filled = buildOpWithAttrs(
      ctx, "BroadcastTo",
      {ctx.operands[1], buildI64Const(ctx, shape, {int64_t(shape.size())})},
      RankedTensorType::get(shape, fillType.getElementType()), {});
  bounds_[filled] = BoundedDim{dims.count, at};
  return SmallVector<Value>{filled};
}

/// Range(start, n, delta) with constant start and delta > 0: size(n) =
/// max(0, ceil((n - start) / delta)) entries start + delta * i valid, a new
/// count at most size(bound); the padding 0 (an index always in range, as
/// the padding of Where's and NMS's indices). Range(0, n, 1) is the bound's
/// iota with the count n itself.
FailureOr<SmallVector<Value>>
BoundTracker::importRangeToCount(NodeImportContext &ctx, Value count) {
  std::optional<int64_t> start = constantScalar(ctx.operands[0]);
  std::optional<int64_t> delta = constantScalar(ctx.operands[2]);
  if (!start || !delta || *delta <= 0)
    return ctx.error(llvm::formatv(
        "its limit ('{0}') is a run-time count (docs/dynamic-shapes.md); "
        "tfaot supports such a Range only from a constant start by a "
        "constant positive delta",
        ctx.node.input(1)));
  RankedTensorType type = ctx.typeOf(0);
  auto sizeFor = [&](int64_t n) {
    return std::max<int64_t>(0, (n - *start + *delta - 1) / *delta);
  };
  int64_t bound = sizeFor(*countBound(count));
  Value size = count;
  if (*start != 0 || *delta != 1) {
    // (n - start + delta - 1) floordiv delta, at least 0: int32 scalars.
    Type i32 = ctx.builder.getI32Type();
    auto scalarType = RankedTensorType::get({}, i32);
    auto scalarOp = [&](llvm::StringRef op, Value a, int64_t b) {
      return buildOpWithAttrs(ctx, op, {a, buildScalar(ctx, i32, b)},
                              scalarType, {});
    };
    size = scalarOp("AddV2", count, *delta - 1 - *start);
    size = scalarOp("FloorDiv", size, *delta);
    size = scalarOp("Maximum", size, 0);
    recordCount(size, bound);
  }
  SmallVector<int64_t> values(bound);
  for (int64_t i = 0; i < bound; ++i)
    values[i] = *start + *delta * i;
  Value positions = buildConst(
      ctx, intsAttr(RankedTensorType::get({bound}, type.getElementType()),
                    values));
  Value zero = buildScalar(ctx, type.getElementType(), 0);
  Value range = maskPastCount(ctx, positions, 0, size, zero);
  bounds_[range] = BoundedDim{size, 0};
  return SmallVector<Value>{range};
}

/// The value no element of `type` is below (above, for `highest`).
static Value extremeScalar(NodeImportContext &ctx, Type type, bool highest) {
  if (isa<FloatType>(type))
    return buildScalar(ctx, type,
                       highest ? std::numeric_limits<double>::infinity()
                               : -std::numeric_limits<double>::infinity());
  unsigned width = type.getIntOrFloatBitWidth();
  bool isUnsigned = type.isUnsignedInteger();
  APInt v = highest ? (isUnsigned ? APInt::getMaxValue(width)
                                  : APInt::getSignedMaxValue(width))
                    : (isUnsigned ? APInt::getMinValue(width)
                                  : APInt::getSignedMinValue(width));
  auto scalar = RankedTensorType::get({}, type);
  return buildConst(ctx, DenseElementsAttr::get(scalar, v));
}

/// TopKV2 of a value bounded along its last dim with k its count: a sort
/// of the valid entries. The padding becomes the lowest value, so the
/// sort puts it last (a valid entry equal to it has a lower index and
/// comes first); the indices' padding is then 0.
FailureOr<SmallVector<Value>>
BoundTracker::importTopKOfBounded(NodeImportContext &ctx,
                                  const BoundedDim &bound) {
  RankedTensorType input = ctx.typeOf(0);
  if (bound.dim != input.getRank() - 1)
    return refuseBounded(ctx, 0,
                         "tfaot takes the top k of such a value only along "
                         "its bounded dimension, the last");
  if (asCount(ctx.operands[1]) != bound.count)
    return refuseBounded(ctx, 0,
                         "tfaot takes the top k of such a value only with k "
                         "its run-time size (a sort of its valid entries); a "
                         "constant k may exceed it, which TF refuses at run "
                         "time");
  Type element = input.getElementType();
  if (element.isInteger(1))
    return ctx.error("TopKV2 of bool is not supported");
  ctx.operands[0] =
      maskPastCount(ctx, ctx.operands[0], bound.dim, bound.count,
                    extremeScalar(ctx, element, /*highest=*/false));
  ctx.operands[1] = buildScalar(ctx, ctx.typeOf(1).getElementType(),
                                input.getDimSize(bound.dim));
  FailureOr<Value> values = importTopKV2(ctx);
  if (failed(values))
    return failure();
  Value indices = ctx.extraOutputs[0];
  auto indexElement = cast<RankedTensorType>(indices.getType()).getElementType();
  indices = maskPastCount(ctx, indices, bound.dim, bound.count,
                          buildScalar(ctx, indexElement, 0));
  bounds_[*values] = bound;
  bounds_[indices] = bound;
  return SmallVector<Value>{*values, indices};
}

/// Sum, Prod, Max, Min, Any, All of a bounded value. Over its bounded dim,
/// the padding becomes the reduction's identity first (so an empty value
/// gives TF's result for no elements: 0, 1, the lowest, the highest, false,
/// true); over other dims the padding stays apart, and the result is
/// bounded along the same dim. A Sum of a 0/1 mask (a Cast of bools) over
/// all of it is a count: at most the bound.
FailureOr<SmallVector<Value>>
BoundTracker::importReductionOfBounded(NodeImportContext &ctx,
                                       const BoundedDim &bound) {
  const std::string &op = ctx.node.op();
  RankedTensorType input = ctx.typeOf(0);
  FailureOr<SmallVector<bool>> reducedOrError = reducedAxes(ctx);
  if (failed(reducedOrError))
    return failure();
  SmallVector<bool> reduced = std::move(*reducedOrError);
  Value original = ctx.operands[0];
  if (reduced[bound.dim]) {
    Type element = input.getElementType();
    Value identity;
    if (op == "Sum" || op == "Any")
      identity = buildScalar(ctx, element, 0);
    else if (op == "Prod" || op == "All")
      identity = buildScalar(ctx, element, 1);
    else
      identity = extremeScalar(ctx, element, /*highest=*/op == "Min");
    ctx.operands[0] =
        maskPastCount(ctx, original, bound.dim, bound.count, identity);
  }
  FailureOr<Value> result = importReduction(ctx);
  if (failed(result))
    return failure();
  if (!reduced[bound.dim]) {
    const tensorflow::AttrValue *keep = ctx.attr("keep_dims");
    int64_t dim = bound.dim;
    if (!keep || !keep->b())
      dim -= llvm::count(ArrayRef<bool>(reduced).take_front(bound.dim), true);
    bounds_[*result] = BoundedDim{bound.count, dim};
  } else if (Operation *source = original.getDefiningOp();
             op == "Sum" && source &&
             source->getName().getStringRef() == "tfaot.Cast" &&
             source->getNumOperands() == 1 &&
             cast<RankedTensorType>(source->getOperand(0).getType())
                 .getElementType()
                 .isInteger(1) &&
             isScalarI32(*result)) {
    recordCount(*result, input.getNumElements());
  }
  return SmallVector<Value>{*result};
}

/// Mean of a bounded value. Over its bounded dim, the Sum of the valid
/// entries (the padding made 0) divided by their run-time number: the count
/// times the other reduced dims (a count of 0 gives 0 / 0, NaN, as TF's
/// Mean of no elements); over other dims, as the other reductions.
FailureOr<SmallVector<Value>>
BoundTracker::importMeanOfBounded(NodeImportContext &ctx,
                                  const BoundedDim &bound) {
  RankedTensorType input = ctx.typeOf(0);
  FailureOr<SmallVector<bool>> reducedOrError = reducedAxes(ctx);
  if (failed(reducedOrError))
    return failure();
  SmallVector<bool> reduced = std::move(*reducedOrError);
  if (!reduced[bound.dim])
    return importReductionOfBounded(ctx, bound);
  Type element = input.getElementType();
  if (!isa<FloatType>(element))
    return refuseBounded(ctx, 0,
                         "tfaot averages such a value over its bounded "
                         "dimension only for floats");
  ctx.operands[0] = maskPastCount(ctx, ctx.operands[0], bound.dim,
                                  bound.count, buildScalar(ctx, element, 0));
  // The Mean's type, then a Sum of the same operands and attributes.
  FailureOr<Value> mean = importReduction(ctx);
  if (failed(mean))
    return failure();
  Value sum = buildOp(ctx, "Sum", ctx.operands, mean->getType());
  if (Operation *unused = mean->getDefiningOp(); unused && unused->use_empty())
    unused->erase();
  int64_t others = 1;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (reduced[d] && d != bound.dim)
      others *= input.getDimSize(d);
  Type i32 = ctx.builder.getI32Type();
  auto scalarI32 = RankedTensorType::get({}, i32);
  Value entries = buildOpWithAttrs(
      ctx, "Mul", {bound.count, buildScalar(ctx, i32, others)}, scalarI32, {});
  Value divisor = buildOpWithAttrs(ctx, "Cast", {entries},
                                   RankedTensorType::get({}, element), {});
  return SmallVector<Value>{buildOpWithAttrs(ctx, "RealDiv", {sum, divisor},
                                             sum.getType(), {})};
}

/// `count` checked to be positive at run time (a tfaot.CheckList of kind
/// kCheckNonEmptyAxis: TF's "Reduction axis <dim> is empty in shape [...]"
/// otherwise) for an ArgMax of `input` along its
/// counted dim `countedDim`, `dim` as the graph gives it. Everything the
/// ArgMax computes uses the result, so the check stays as long as it does.
static Value checkNonEmptyAxis(NodeImportContext &ctx, Value count,
                               RankedTensorType input, int64_t countedDim,
                               int64_t dim) {
  Builder &b = ctx.builder;
  SmallVector<int64_t> shape(input.getShape());
  shape[countedDim] = -1;
  return buildOpWithAttrs(
      ctx, "CheckList", {count, count}, count.getType(),
      {b.getNamedAttr("kind", b.getI64IntegerAttr(kCheckNonEmptyAxis)),
       b.getNamedAttr("bound", b.getI64IntegerAttr(dim)),
       b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape))});
}

/// ArgMax or ArgMin of a bounded value. Along its bounded dim the padding
/// becomes the lowest value (the highest for ArgMin), so it never wins (a
/// valid entry equal to it has a lower index, and both take the first),
/// and a count of 0 fails Run() as TF fails the op; along another dim the
/// result stays bounded.
FailureOr<SmallVector<Value>>
BoundTracker::importArgMaxOrMinOfBounded(NodeImportContext &ctx,
                                         const BoundedDim &bound) {
  bool isMin = ctx.node.op() == "ArgMin";
  RankedTensorType input = ctx.typeOf(0);
  FailureOr<int64_t> axis = constantAxis(ctx, "the dimension");
  if (failed(axis))
    return failure();
  if (*axis == bound.dim) {
    // TF's message names the dimension as the graph gives it.
    int64_t dimension = (*constantInts(ctx, 1, "the dimension"))[0];
    Value count =
        checkNonEmptyAxis(ctx, bound.count, input, bound.dim, dimension);
    ctx.operands[0] =
        maskPastCount(ctx, ctx.operands[0], bound.dim, count,
                      extremeScalar(ctx, input.getElementType(),
                                    /*highest=*/isMin));
  }
  FailureOr<Value> result = isMin ? importArgMin(ctx) : importArgMax(ctx);
  if (failed(result))
    return failure();
  if (*axis != bound.dim)
    bounds_[*result] =
        BoundedDim{bound.count, bound.dim > *axis ? bound.dim - 1 : bound.dim};
  return SmallVector<Value>{*result};
}

/// Whether the padding of `indices` is known to be 0: Where's and NMS's
/// (their runtime writes zeros), the masks of maskPastCount with a 0 fill,
/// and what reshapes, casts or slices them along other dims.
static bool hasZeroPadding(Value indices) {
  Operation *op = indices.getDefiningOp();
  if (!op)
    return false;
  if (isa<WhereOp, NonMaxSuppressionOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  if (name == "tfaot.SelectV2") {
    DenseElementsAttr fill = constantElements(op->getOperand(2));
    return fill && fill.isSplat() &&
           fill.getSplatValue<APInt>().isZero();
  }
  if (llvm::is_contained({"tfaot.Reshape", "tfaot.Cast", "tfaot.Slice",
                          "tfaot.StridedSlice"},
                         name))
    return hasZeroPadding(op->getOperand(0));
  return false;
}

void BoundTracker::zeroIndicesPadding(NodeImportContext &ctx, unsigned i) {
  const BoundedDim *bound = lookup(ctx.operands[i]);
  if (!bound || hasZeroPadding(ctx.operands[i]))
    return;
  BoundedDim kept = *bound;
  Type element = ctx.typeOf(i).getElementType();
  Value masked = maskPastCount(ctx, ctx.operands[i], kept.dim, kept.count,
                               buildScalar(ctx, element, 0));
  bounds_[masked] = kept;
  ctx.operands[i] = masked;
}

/// Slice(x, 0, size) of a value bounded along `dim`, size being -1 there
/// (to the end: the same count), the count itself, or TF's clip
/// `where(n - limit > 0, limit, -1)` (min(n, limit) entries: bounded by
/// min(bound, limit)); constants elsewhere.
FailureOr<SmallVector<Value>>
BoundTracker::importSliceOfBounded(NodeImportContext &ctx,
                                   const BoundedDim &bound) {
  auto begin = constantInts(ctx, 1, "begin");
  if (failed(begin))
    return failure();
  RankedTensorType input = ctx.typeOf(0);
  int64_t rank = input.getRank(), d = bound.dim;
  if (int64_t(begin->size()) != rank)
    return ctx.error("begin must have " + llvm::Twine(rank) + " elements");
  SmallVector<int64_t> sizes;
  Value count = bound.count;
  int64_t rows = input.getDimSize(d);
  if (const CountExpr *expr = lookupCountExpr(ctx.operands[2])) {
    bool sizesTheDim = int64_t(expr->scale.size()) == rank;
    for (int64_t i = 0; sizesTheDim && i < rank; ++i)
      sizesTheDim = i == d ? expr->scale[i] == 1 && expr->offset[i] == 0
                           : expr->scale[i] == 0;
    Value of = expr->sliceOf ? expr->sliceOf : expr->count;
    if (!sizesTheDim || of != bound.count)
      return refuseBounded(ctx, 0,
                           "tfaot slices such a value along its bounded "
                           "dimension only to its run-time size or to at most "
                           "a constant limit (where(n > limit, limit, -1))");
    sizes = expr->offset;
    count = expr->count;
    rows = std::min(rows, *countBound(count));
  } else if (DenseElementsAttr constant = constantElements(ctx.operands[2])) {
    for (const APInt &v : constant.getValues<APInt>())
      sizes.push_back(v.getSExtValue());
    if (int64_t(sizes.size()) != rank || sizes[d] != -1)
      return refuseBounded(ctx, 0,
                           "a constant size along its bounded dimension may "
                           "exceed its run-time size, which TF refuses at run "
                           "time; tfaot takes -1 there (to the end)");
  } else {
    return refuseBounded(ctx, 0,
                         "its size is neither constant nor computed from its "
                         "run-time size");
  }
  if ((*begin)[d] != 0)
    return refuseBounded(ctx, 0,
                         "tfaot slices such a value along its bounded "
                         "dimension only from 0");
  sizes[d] = rows;
  ctx.operands[1] = buildI64Const(ctx, *begin, {rank});
  ctx.operands[2] = buildI64Const(ctx, sizes, {rank});
  FailureOr<Value> sliced = importSlice(ctx);
  if (failed(sliced))
    return failure();
  bounds_[*sliced] = BoundedDim{count, d};
  return SmallVector<Value>{*sliced};
}

/// Select(Greater(n + o, k), limit, -1) with n a count and limit = k - o:
/// TF's size for clipping a value of size n to at most `limit` entries
/// (-1 meaning to the end). Imported as usual, and known as the count
/// min(n, limit) for a Slice of the value n counts (CountExpr::sliceOf).
std::optional<FailureOr<SmallVector<Value>>>
BoundTracker::importClipSize(NodeImportContext &ctx) {
  Operation *compare = ctx.operands[0].getDefiningOp();
  if (!compare || compare->getName().getStringRef() != "tfaot.Greater")
    return std::nullopt;
  const CountExpr *expr = lookupCountExpr(compare->getOperand(0));
  std::optional<int64_t> k = constantScalar(compare->getOperand(1));
  std::optional<int64_t> limit = constantScalar(ctx.operands[1]);
  std::optional<int64_t> toEnd = constantScalar(ctx.operands[2]);
  if (!expr || expr->sliceOf || expr->scale.size() != 1 ||
      expr->scale[0] != 1 || !countBound(expr->count) || !k || !limit ||
      !toEnd || *toEnd != -1 || *limit != *k - expr->offset[0] ||
      *limit < 0 || !isScalarI32(ctx.operands[1]))
    return std::nullopt;
  FailureOr<Value> size = importSelect(ctx);
  if (failed(size))
    return FailureOr<SmallVector<Value>>(failure());
  Value clipped = buildOpWithAttrs(
      ctx, "Minimum",
      {expr->count, buildScalar(ctx, ctx.builder.getI32Type(), *limit)},
      RankedTensorType::get({}, ctx.builder.getI32Type()), {});
  recordCount(clipped, std::min(*countBound(expr->count), *limit));
  countExprs_[*size] = CountExpr{clipped, {0}, {1}, expr->count};
  return FailureOr<SmallVector<Value>>(SmallVector<Value>{*size});
}

} // namespace tfaot

/// Unique (x): y, the distinct values of the vector x in the order they
/// first occur, and idx, each element's position in y. y is bounded by
/// x's size, its count the number of distinct values (output 2, for
/// BoundTracker; TF's Unique has two outputs, so no edge reads it).
/// Built from a comparison of every pair, O(N^2) in time and in an [N, N]
/// bool buffer, meant for the small vectors graphs deduplicate (class ids,
/// labels): x[i] is a first occurrence unless some x[k], k < i, equals it;
/// y gathers the first occurrences (Where); idx[i] is the number of first
/// occurrences before the first j with x[j] == x[i]. NaN equals nothing,
/// so each NaN is a value of its own, as in TF's hash map.
FailureOr<Value>(::tfaot::importUnique)(NodeImportContext &ctx) {
  RankedTensorType input = ctx.typeOf(0);
  if (input.getRank() != 1)
    return ctx.error("x must be a vector, got " + typeString(input));
  const tensorflow::AttrValue *outIdx = ctx.attr("out_idx");
  tensorflow::DataType idxDtype = outIdx ? outIdx->type() : tensorflow::DT_INT32;
  if (idxDtype != tensorflow::DT_INT32 && idxDtype != tensorflow::DT_INT64)
    return ctx.error("out_idx must be int32 or int64");
  Builder &b = ctx.builder;
  Type i1 = b.getI1Type(), i32 = b.getI32Type();
  int64_t n = input.getDimSize(0);
  auto square = [&](Type t) { return RankedTensorType::get({n, n}, t); };
  auto vector = [&](Type t) { return RankedTensorType::get({n}, t); };
  // before[i][k] = k < i; self[i][k] = k == i.
  SmallVector<bool> before(n * n), self(n * n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k) {
      before[i * n + k] = k < i;
      self[i * n + k] = k == i;
    }
  Value beforeMask = buildConst(ctx, DenseElementsAttr::get(square(i1), before));
  Value selfMask = buildConst(ctx, DenseElementsAttr::get(square(i1), self));
  Value column = buildReshape(ctx, ctx.operands[0], {n, 1});
  Value row = buildReshape(ctx, ctx.operands[0], {1, n});
  Value equal = buildOpWithAttrs(ctx, "Equal", {column, row}, square(i1), {});
  Value one = buildI64Const(ctx, {1}, {1});
  Value seenBefore = buildOpWithAttrs(
      ctx, "Any",
      {buildOpWithAttrs(ctx, "LogicalAnd", {equal, beforeMask}, square(i1), {}),
       one},
      vector(i1), {});
  Value first = buildOpWithAttrs(ctx, "LogicalNot", {seenBefore}, vector(i1), {});

  OperationState where(ctx.loc, mlir::tfaot::WhereOp::getOperationName());
  where.addOperands(first);
  where.addTypes({RankedTensorType::get({n, 1}, b.getI64Type()),
                  RankedTensorType::get({}, i32)});
  Operation *whereOp = ctx.builder.create(where);
  Value positions = buildOpWithAttrs(
      ctx, "Cast", {buildReshape(ctx, whereOp->getResult(0), {n})},
      vector(i32), {});
  Value zero = buildScalar(ctx, i32, 0);
  Value unique = buildOpWithAttrs(ctx, "GatherV2",
                                  {ctx.operands[0], positions, zero},
                                  input, {});

  // rank[i]: the first occurrences before i.
  Value firstRow = buildReshape(ctx, first, {1, n});
  Value counted = buildOpWithAttrs(
      ctx, "Cast",
      {buildOpWithAttrs(ctx, "LogicalAnd", {firstRow, beforeMask}, square(i1),
                        {})},
      square(i32), {});
  Value rank = buildOpWithAttrs(ctx, "Sum", {counted, one}, vector(i32), {});
  // firstEqual[i]: the first j with x[j] == x[i] (i itself for NaN).
  Value sameOrSelf =
      buildOpWithAttrs(ctx, "LogicalOr", {equal, selfMask}, square(i1), {});
  Value firstEqual = buildOpWithAttrs(
      ctx, "ArgMax",
      {buildOpWithAttrs(ctx, "Cast", {sameOrSelf}, square(i32), {}),
       buildScalar(ctx, i32, 1)},
      vector(i32), {});
  Value idx =
      buildOpWithAttrs(ctx, "GatherV2", {rank, firstEqual, zero}, vector(i32), {});
  if (idxDtype == tensorflow::DT_INT64)
    idx = buildOpWithAttrs(ctx, "Cast", {idx}, vector(b.getI64Type()), {});
  ctx.extraOutputs.assign({idx, whereOp->getResult(1)});
  return unique;
}
