//===- ImportRunTimeLengthLists.cpp - Lists whose length is data ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// PushBack and PopBack change a list's length. When the length is known at
// compile time (a Reserve'd or FromTensor list, an EmptyTensorList without
// max_num_elements) they change the list's static shape, which straight-line
// code and loops the importer unrolls can do. An EmptyTensorList with
// max_num_elements = B >= 0 instead gets a run-time length, so a loop whose
// trip count depends on data can push and pop: the list is the tensor
// [B + 1, element...], rows 0..B-1 the elements (zeros past the length) and
// row B the length, every entry of it the length in the element type (exact
// while B is, which the importer checks). So the length travels with the
// list through loops and branches, which see one tensor as for any list.
// The type carries the encoding kRunTimeLength, so that a loop body's
// block argument is still known to be such a list; stripListImportMarks()
// removes it when the import is done. The operations check their range at
// run time (tfaot.CheckList, of the kinds in tfaot/runtime/check_kinds.h),
// with TF's messages.
//
// The lists whose length is known at import, and what both kinds share,
// are in ImportListOps.cpp (ListImportHelpers.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportListOps.h"

#include "compiler/frontend/ImportHelpers.h"
#include "compiler/frontend/ListImportHelpers.h"

#include "ir/Ops.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;
using namespace ::tfaot::lists;

static constexpr llvm::StringLiteral kRunTimeLength =
    "tfaot.list_of_run_time_length";
/// On the marker of an EmptyTensorList with max_num_elements and an unknown
/// element shape: the bound, for the first PushBack.
static constexpr llvm::StringLiteral kMaxElements = "tfaot.max_elements";

static StringAttr runTimeLengthTag(MLIRContext *context) {
  return StringAttr::get(context, kRunTimeLength);
}

bool lists::hasRunTimeLength(Value list) {
  auto type = dyn_cast<RankedTensorType>(list.getType());
  return type && type.getEncoding() == runTimeLengthTag(type.getContext());
}

/// B, the largest length of a list of run-time length.
static int64_t maxLength(Value list) { return numElements(list) - 1; }

/// The tensor `plain` as a list of run-time length (the tagged type).
static Value tagRunTimeLength(NodeImportContext &ctx, Value plain) {
  auto type = cast<RankedTensorType>(plain.getType());
  auto tagged = RankedTensorType::get(type.getShape(), type.getElementType(),
                                      runTimeLengthTag(ctx.builder.getContext()));
  return UnrealizedConversionCastOp::create(ctx.builder, ctx.loc,
                                            TypeRange{tagged}, plain)
      .getResult(0);
}

/// The tensor of a list of run-time length, for the ops that compute on it.
static Value untag(NodeImportContext &ctx, Value list) {
  if (auto tag = list.getDefiningOp<UnrealizedConversionCastOp>())
    return tag.getOperand(0);
  auto type = cast<RankedTensorType>(list.getType());
  return UnrealizedConversionCastOp::create(
             ctx.builder, ctx.loc,
             TypeRange{RankedTensorType::get(type.getShape(),
                                             type.getElementType())},
             list)
      .getResult(0);
}

/// The largest count an element of `type` holds exactly.
static std::optional<int64_t> largestExactCount(Type type) {
  if (auto f = dyn_cast<FloatType>(type))
    return int64_t(1) << std::min(62u, f.getFPMantissaWidth());
  auto i = dyn_cast<IntegerType>(type);
  if (!i)
    return std::nullopt;
  unsigned bits = std::min(62u, i.getWidth() - (i.isUnsigned() ? 0 : 1));
  return i.getWidth() == 1 ? 1 : (int64_t(1) << bits) - 1;
}

static Type i32Type(NodeImportContext &ctx) { return ctx.builder.getI32Type(); }

static Value scalarOp(NodeImportContext &ctx, llvm::StringRef op, Value a,
                      Value b) {
  return buildOpWithAttrs(ctx, op, {a, b}, a.getType(), {});
}

static Value i32Scalar(NodeImportContext &ctx, int64_t v) {
  return buildScalar(ctx, i32Type(ctx), v);
}

/// A new empty list of run-time length: B rows of `shape` and the length
/// row, all zero (length 0).
static FailureOr<Value> buildListOfRunTimeLength(NodeImportContext &ctx,
                                                 int64_t b,
                                                 ArrayRef<int64_t> shape,
                                                 Type elementType) {
  std::optional<int64_t> exact = largestExactCount(elementType);
  if (!exact || *exact < b)
    return ctx.error(llvm::formatv(
        "a list of {0} elements whose length is known only at run time "
        "(max_num_elements, for PushBack/PopBack) keeps its length in an "
        "element, which {1} cannot hold exactly up to {0}",
        b, typeString(elementType)));
  if (llvm::is_contained(shape, 0))
    return ctx.error("a list of run-time length needs elements with at least "
                     "one value (it keeps its length in one), got shape " +
                     shapeString(shape));
  return tagRunTimeLength(ctx, buildZeroList(ctx, b + 1, shape, elementType));
}

/// The length of a list of run-time length, an int32 scalar.
Value lists::buildLength(NodeImportContext &ctx, Value list) {
  ArrayRef<int64_t> shape = elementShapeOf(list);
  Value row = buildRead(ctx, untag(ctx, list), i32Scalar(ctx, maxLength(list)));
  if (!shape.empty()) {
    int64_t values = 1;
    for (int64_t d : shape)
      values *= d;
    row = buildRead(ctx, buildReshape(ctx, row, {values}), i32Scalar(ctx, 0));
  }
  if (elementTypeOf(list) == i32Type(ctx))
    return row;
  return buildOpWithAttrs(ctx, "Cast", {row},
                          RankedTensorType::get({}, i32Type(ctx)), {});
}

/// `plain` (an untagged list of run-time length) with its length row set to
/// `length`.
static Value buildWithLength(NodeImportContext &ctx, Value plain,
                             Value length) {
  ArrayRef<int64_t> shape = elementShapeOf(plain);
  Type type = elementTypeOf(plain);
  Value value = length;
  if (type != i32Type(ctx))
    value = buildOpWithAttrs(ctx, "Cast", {length},
                             RankedTensorType::get({}, type), {});
  if (!shape.empty())
    value = buildOpWithAttrs(
        ctx, "BroadcastTo",
        {value, buildI64Const(ctx, shape, {int64_t(shape.size())})},
        RankedTensorType::get(shape, type), {});
  return buildOpWithAttrs(
      ctx, "ListSetItem",
      {plain, i32Scalar(ctx, numElements(plain) - 1), value}, plain.getType(),
      {});
}

/// `row` clamped into the element rows [0, B): after a failed check (or
/// with the checks off) an operation still never touches the length row.
static Value clampToElementRows(NodeImportContext &ctx, Value row,
                                int64_t maxLength) {
  Type type = cast<RankedTensorType>(row.getType()).getElementType();
  Value low = scalarOp(ctx, "Maximum", row, buildScalar(ctx, type, 0));
  return scalarOp(ctx, "Minimum", low,
                  buildScalar(ctx, type, std::max<int64_t>(maxLength - 1, 0)));
}

/// Fails unless `item` fits the list of run-time length `list`.
LogicalResult lists::checkItem(NodeImportContext &ctx, Value list,
                               RankedTensorType item) {
  if (elementTypeOf(list) != item.getElementType())
    return ctx.error("writes a " + typeString(item.getElementType()) +
                     " element into a list of " +
                     typeString(elementTypeOf(list)));
  if (elementShapeOf(list) != item.getShape())
    return ctx.error("writes an element of shape " +
                     shapeString(item.getShape()) +
                     " into a list of element shape " +
                     shapeString(elementShapeOf(list)));
  return success();
}

/// The error for a list op tfaot does not apply to lists of run-time
/// length.
LogicalResult lists::refuseRunTimeLength(NodeImportContext &ctx) {
  return ctx.error("is not supported on a list whose length is known only "
                   "at run time (an EmptyTensorList with max_num_elements, "
                   "for PushBack/PopBack); GetItem, SetItem, Stack, Length, "
                   "ElementShape, PushBack and PopBack are");
}

/// GetItem of a list of run-time length: index checked against the length.
Value lists::buildReadAtRunTimeLength(NodeImportContext &ctx, Value list,
                                      Value index) {
  Value checked = buildCheck(ctx, kCheckListAccess, index,
                             buildLength(ctx, list), maxLength(list));
  return buildRead(ctx, untag(ctx, list),
                   clampToElementRows(ctx, checked, maxLength(list)));
}

/// SetItem of a list of run-time length.
Value lists::buildWriteAtRunTimeLength(NodeImportContext &ctx, Value list,
                                       Value index, Value item) {
  Value checked = buildCheck(ctx, kCheckListModify, index,
                             buildLength(ctx, list), maxLength(list));
  Value plain = untag(ctx, list);
  Value row = clampToElementRows(ctx, checked, maxLength(list));
  return tagRunTimeLength(
      ctx, buildOpWithAttrs(ctx, "ListSetItem", {plain, row, item},
                            plain.getType(), {}));
}

/// TensorListStack of a list of run-time length: the B element rows, a
/// bounded value whose count (the length) is the node's hidden output 1
/// (BoundTracker::record reads it), or, with num_elements >= 0, its first
/// num_elements rows after a check that the length is that.
FailureOr<Value> lists::buildStackOfRunTimeLength(NodeImportContext &ctx,
                                                  Value list) {
  int64_t b = maxLength(list), expected = intAttr(ctx, "num_elements", -1);
  if (expected > b)
    return ctx.error(llvm::formatv("expects {0} elements, but the list holds "
                                   "at most {1}",
                                   expected, b));
  Value length = buildLength(ctx, list);
  int64_t rows = expected >= 0 ? expected : b;
  if (expected >= 0)
    length = buildCheck(ctx, kCheckListStack, length, length, expected);
  else
    ctx.extraOutputs.push_back(length);
  ArrayRef<int64_t> shape = elementShapeOf(list);
  SmallVector<int64_t> size = withLeading(rows, shape);
  SmallVector<int64_t> begin(size.size(), 0);
  int64_t rank = size.size();
  Value stacked = buildOpWithAttrs(
      ctx, "Slice",
      {untag(ctx, list), buildI64Const(ctx, begin, {rank}),
       buildI64Const(ctx, size, {rank})},
      RankedTensorType::get(size, elementTypeOf(list)), {});
  if (expected < 0)
    return stacked;
  // The check's result must reach the value, or it would be dead code: row
  // r is gathered from max(min(r, length - 1), 0), row r itself when the
  // check passes.
  SmallVector<APInt> iota;
  for (int64_t r = 0; r < rows; ++r)
    iota.push_back(APInt(32, r));
  Value rowNumbers = buildConst(
      ctx, DenseElementsAttr::get(RankedTensorType::get({rows}, i32Type(ctx)),
                                  iota));
  Value last = scalarOp(ctx, "Sub", length, i32Scalar(ctx, 1));
  Value indices = buildOpWithAttrs(
      ctx, "Maximum",
      {buildOpWithAttrs(ctx, "Minimum", {rowNumbers, last},
                        rowNumbers.getType(), {}),
       i32Scalar(ctx, 0)},
      rowNumbers.getType(), {});
  return buildRead(ctx, stacked, indices);
}

FailureOr<Value>(::tfaot::importEmptyTensorList)(NodeImportContext &ctx) {
  FailureOr<PartialShape> shape = elementShapeOperand(ctx, 0);
  auto max = constantInts(ctx, 1, "max_num_elements");
  if (failed(shape) || failed(max))
    return failure();
  if (isVariantAttr(ctx, "element_dtype"))
    return ctx.error("an EmptyTensorList of lists (element_dtype DT_VARIANT) "
                     "is not supported");
  FailureOr<Type> type = elementTypeAttr(ctx, "element_dtype");
  if (failed(type))
    return failure();
  int64_t b = (*max)[0];
  // No bound: the length is known at compile time, and PushBack and
  // PopBack change the shape.
  if (b < 0)
    return buildNewList(ctx, 0, *shape, *type);
  if (isFullyKnown(*shape))
    return buildListOfRunTimeLength(ctx, b, **shape, *type);
  FailureOr<Value> marker = buildNewList(ctx, 0, *shape, *type);
  if (succeeded(marker))
    marker->getDefiningOp()->setAttr(kMaxElements,
                                     ctx.builder.getI64IntegerAttr(b));
  return marker;
}

/// The bound of the marker of an EmptyTensorList with max_num_elements whose
/// element shape waits for the first PushBack, or std::nullopt.
static std::optional<int64_t> pendingMaxElements(Value list) {
  Operation *marker = unshapedMarker(list);
  auto max = marker ? marker->getAttrOfType<IntegerAttr>(kMaxElements)
                    : IntegerAttr();
  return max ? std::optional<int64_t>(max.getInt()) : std::nullopt;
}

/// TensorListPushBack(list, item).
FailureOr<Value>(::tfaot::importTensorListPushBack)(NodeImportContext &ctx) {
  Value list = ctx.operands[0], item = ctx.operands[1];
  RankedTensorType itemType = ctx.typeOf(1);
  if (std::optional<int64_t> b = pendingMaxElements(list)) {
    FailureOr<Value> made = buildListOfRunTimeLength(
        ctx, *b, itemType.getShape(), itemType.getElementType());
    if (failed(made))
      return failure();
    list = *made;
  }
  if (hasRunTimeLength(list)) {
    if (failed(checkItem(ctx, list, itemType)))
      return failure();
    int64_t b = maxLength(list);
    Value length = buildLength(ctx, list);
    Value checked = buildCheck(ctx, kCheckListPush, length, length, b);
    Value plain = buildOpWithAttrs(
        ctx, "ListSetItem",
        {untag(ctx, list), clampToElementRows(ctx, checked, b), item},
        untag(ctx, list).getType(), {});
    Value grown = scalarOp(ctx, "Minimum",
                           scalarOp(ctx, "AddV2", checked, i32Scalar(ctx, 1)),
                           i32Scalar(ctx, b));
    return tagRunTimeLength(ctx, buildWithLength(ctx, plain, grown));
  }
  // A length known now: one more row.
  FailureOr<Value> prepared = prepareForWrite(ctx, list, itemType.getShape(),
                                              itemType.getElementType());
  if (failed(prepared))
    return failure();
  int64_t n = numElements(*prepared);
  Value row = buildReshape(ctx, item, withLeading(1, itemType.getShape()));
  if (n == 0)
    return row;
  return buildOpWithAttrs(
      ctx, "ConcatV2", {*prepared, row, i32Scalar(ctx, 0)},
      RankedTensorType::get(withLeading(n + 1, itemType.getShape()),
                            itemType.getElementType()),
      {});
}

/// TensorListPopBack(list, element_shape) -> (list, item).
FailureOr<Value>(::tfaot::importTensorListPopBack)(NodeImportContext &ctx) {
  Value list = ctx.operands[0];
  if (pendingMaxElements(list) ||
      (unshapedMarker(list) && numElements(list) == 0))
    return ctx.error("Trying to pop from an empty list.");
  if (hasRunTimeLength(list)) {
    if (failed(checkReadShape(ctx, 1, list)))
      return failure();
    int64_t b = maxLength(list);
    Value length = buildLength(ctx, list);
    Value checked = buildCheck(ctx, kCheckListPop, length, length, b);
    Value shrunk = scalarOp(ctx, "Maximum",
                            scalarOp(ctx, "Sub", checked, i32Scalar(ctx, 1)),
                            i32Scalar(ctx, 0));
    Value row = clampToElementRows(
        ctx, scalarOp(ctx, "Sub", checked, i32Scalar(ctx, 1)), b);
    Value plain = untag(ctx, list);
    ctx.extraOutputs.push_back(buildRead(ctx, plain, row));
    // The popped row becomes zeros again: rows past the length stay zero,
    // as a bounded Stack's padding must be.
    plain = buildOpWithAttrs(
        ctx, "ListSetItem",
        {plain, row, buildZeros(ctx, elementShapeOf(list), elementTypeOf(list))},
        plain.getType(), {});
    return tagRunTimeLength(ctx, buildWithLength(ctx, plain, shrunk));
  }
  FailureOr<Value> shaped = requireShaped(ctx, list, "element_dtype");
  if (failed(shaped) || failed(checkReadShape(ctx, 1, *shaped)))
    return failure();
  int64_t n = numElements(*shaped);
  if (n == 0)
    return ctx.error("Trying to pop from an empty list.");
  ctx.extraOutputs.push_back(buildRead(ctx, *shaped, i32Scalar(ctx, n - 1)));
  SmallVector<int64_t> size = withLeading(n - 1, elementShapeOf(*shaped));
  int64_t rank = size.size();
  return buildOpWithAttrs(
      ctx, "Slice",
      {*shaped, buildI64Const(ctx, SmallVector<int64_t>(rank, 0), {rank}),
       buildI64Const(ctx, size, {rank})},
      RankedTensorType::get(size, elementTypeOf(*shaped)), {});
}

void(::tfaot::stripListImportMarks)(ModuleOp module) {
  auto strip = [](Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (type && type.getEncoding() == runTimeLengthTag(type.getContext()))
      value.setType(
          RankedTensorType::get(type.getShape(), type.getElementType()));
  };
  SmallVector<UnrealizedConversionCastOp> tags;
  module.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          strip(arg);
    for (Value result : op->getResults())
      strip(result);
    for (llvm::StringRef mark :
         {kUnshapedList, kPartialShape, kListOfLists, kMaxElements})
      op->removeAttr(mark);
    if (auto tag = dyn_cast<UnrealizedConversionCastOp>(op))
      tags.push_back(tag);
  });
  for (UnrealizedConversionCastOp tag : tags)
    if (tag->getNumOperands() == 1 && tag->getNumResults() == 1 &&
        tag.getOperand(0).getType() == tag.getResult(0).getType()) {
      tag.getResult(0).replaceAllUsesWith(tag.getOperand(0));
      tag.erase();
    }
}
