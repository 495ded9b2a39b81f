//===- ImportListOps.cpp - TensorList and TensorArrayV3 as tensors --------===//
// SPDX-License-Identifier: Apache-2.0
//
// TF's lists (TensorListReserve, TensorListSetItem, ...: a variant tensor)
// and TF1's TensorArrayV3 family (a resource handle plus a "flow" scalar
// that orders the writes) are both arrays of equally shaped elements. tfaot
// represents one as a plain tensor [max_elements, element...]: zeros where
// nothing was written, as TF reads an unset element of a known shape. For a
// TensorList that tensor is the list value; for a TensorArray it is the flow
// (a write takes one flow and returns the next), and the handle a scalar
// nothing reads (every TensorArray op finds the array in its flow). A list
// or a flow is then an ordinary
// loop-carried value of tfaot.While, and every op becomes existing tensor
// ops or the one list op, so bufferization and the buffer plan need nothing
// new:
//   - a read (GetItem, ReadV3, Gather) is a GatherV2 along axis 0, which
//     gets the run-time index check of passes/LowerIndexChecks.cpp;
//   - a write (SetItem, WriteV3, Scatter) is tfaot.ListSetItem
//     (ir/ListOps.td), a tensor.insert_slice once lowered, in place in a
//     loop; a run-time index first goes through a GatherV2 of the row
//     numbers [0, N), a no-op for a valid index that fails Run() for a bad
//     one with the node named;
//   - Stack, FromTensor, Concat and Split are the tensor itself or a
//     Reshape; Length, Size and ElementShape are constants.
//
// The element shape must be static. When the creating op does not give it
// (element_shape unknown or partial, as tf.TensorArray leaves it), the list
// is created as an empty marker constant, and the first write gives it:
// before any loop that carries the list, or inside a loop whose trip count
// import decides, which is then unrolled (mayBeLoopCarriedMarker below).
//
// A list of lists (element_dtype DT_VARIANT) is a list whose elements are
// list tensors: [n, element..., m, inner element...], its inner type and
// shape from the first inner list written into it. PushBack and PopBack
// change the static length, or, for an EmptyTensorList with
// max_num_elements, a length kept in the list at run time (the section
// "Lists of run-time length" below).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportListOps.h"

#include "compiler/frontend/ImportHelpers.h"
#include "compiler/frontend/TensorConversion.h"

#include "ir/Ops.h"
#include "tfaot/runtime/check_kinds.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;
using namespace ::tfaot;

/// Marks the constant that stands for a list whose element shape is not
/// known yet; its value is the partially known shape (-1 for unknown
/// dimensions), absent for an unknown rank.
static constexpr llvm::StringLiteral kUnshapedList = "tfaot.unshaped_list";
static constexpr llvm::StringLiteral kPartialShape = "tfaot.partial_shape";
/// Marks the marker of a list of lists (element_dtype DT_VARIANT) that no
/// inner list was written into yet: its first write gives the inner lists'
/// element type and shape as well.
static constexpr llvm::StringLiteral kListOfLists = "tfaot.list_of_lists";

namespace {
/// An element shape as TF gives it: std::nullopt for an unknown rank, -1 for
/// an unknown dimension.
using PartialShape = std::optional<SmallVector<int64_t>>;
} // namespace

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + (d < 0 ? std::string("?") : std::to_string(d));
  return s + "]";
}

static bool isFullyKnown(const PartialShape &shape) {
  return shape && llvm::all_of(*shape, [](int64_t d) { return d >= 0; });
}

static bool isCompatible(const PartialShape &partial, ArrayRef<int64_t> shape) {
  if (!partial)
    return true;
  if (partial->size() != shape.size())
    return false;
  for (auto [p, d] : llvm::zip(*partial, shape))
    if (p >= 0 && p != d)
      return false;
  return true;
}

/// The element shape in operand `i` (an int32/int64 tensor: -1 alone for an
/// unknown rank, -1 entries for unknown dimensions).
static FailureOr<PartialShape> elementShapeOperand(NodeImportContext &ctx,
                                                   unsigned i) {
  auto values = constantInts(ctx, i, "the element shape");
  if (failed(values))
    return failure();
  if (ctx.typeOf(i).getRank() == 0)
    return PartialShape(std::nullopt);
  return PartialShape(*values);
}

/// The element shape in the node's TensorShapeProto attribute `name`.
static PartialShape elementShapeAttr(NodeImportContext &ctx, const char *name) {
  const tensorflow::AttrValue *attr = ctx.attr(name);
  if (!attr || !attr->has_shape() || attr->shape().unknown_rank())
    return std::nullopt;
  SmallVector<int64_t> dims;
  for (const auto &dim : attr->shape().dim())
    dims.push_back(dim.size());
  return dims;
}

/// Whether the node's type attribute `name` is DT_VARIANT: the elements are
/// lists themselves (a list of lists).
static bool isVariantAttr(NodeImportContext &ctx, const char *name) {
  const tensorflow::AttrValue *attr = ctx.attr(name);
  return attr && attr->type() == tensorflow::DT_VARIANT;
}

/// The element type named by the node's attribute `name`.
static FailureOr<Type> elementTypeAttr(NodeImportContext &ctx,
                                       const char *name) {
  const tensorflow::AttrValue *attr = ctx.attr(name);
  if (!attr)
    return ctx.error(llvm::Twine("has no '") + name + "' attribute");
  Type type = convertDataType(attr->type(), ctx.builder.getContext());
  if (!type)
    return ctx.error(llvm::Twine("lists of ") +
                     tensorflow::DataType_Name(attr->type()) +
                     " elements are not supported");
  return type;
}

static SmallVector<int64_t> withLeading(int64_t n, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result{n};
  llvm::append_range(result, shape);
  return result;
}

/// A tensor of `shape`, all zero.
static Value buildZeros(NodeImportContext &ctx, ArrayRef<int64_t> shape,
                        Type elementType) {
  auto type = RankedTensorType::get(shape, elementType);
  Attribute zero = isa<FloatType>(elementType)
                       ? (Attribute)ctx.builder.getFloatAttr(elementType, 0)
                       : (Attribute)ctx.builder.getIntegerAttr(elementType, 0);
  return buildConst(ctx, DenseElementsAttr::get(type, zero));
}

/// A list of `n` elements of `shape`, all zero.
static Value buildZeroList(NodeImportContext &ctx, int64_t n,
                           ArrayRef<int64_t> shape, Type elementType) {
  return buildZeros(ctx, withLeading(n, shape), elementType);
}

/// A new list of `n` elements: zeros when `shape` is fully known, else the
/// marker a first write replaces.
static FailureOr<Value> buildNewList(NodeImportContext &ctx, int64_t n,
                                     const PartialShape &shape,
                                     Type elementType) {
  if (n < 0)
    return ctx.error(llvm::formatv("the number of elements is {0}; tfaot needs "
                                   "a bound known at compile time",
                                   n));
  if (isFullyKnown(shape))
    return buildZeroList(ctx, n, *shape, elementType);
  Value marker = buildZeroList(ctx, n, {0}, elementType);
  Operation *op = marker.getDefiningOp();
  op->setAttr(kUnshapedList, ctx.builder.getUnitAttr());
  if (shape)
    op->setAttr(kPartialShape, ctx.builder.getDenseI64ArrayAttr(*shape));
  return marker;
}

/// A new list of `n` lists (element_dtype DT_VARIANT). An inner list is a
/// tensor [m, inner element...] like any list, so the outer one is the
/// tensor [n, element..., m, inner element...] (element: TF's element shape,
/// [] when each element is one list), but m and the inner element type and
/// shape are known only when an inner list is written: until then it is a
/// marker, [n, element..., 0] float32 (no values) when the element shape is
/// known, that the first write replaces.
static FailureOr<Value> buildNewListOfLists(NodeImportContext &ctx, int64_t n,
                                            const PartialShape &shape) {
  if (n < 0)
    return buildNewList(ctx, n, shape, ctx.builder.getF32Type());
  SmallVector<int64_t> noInnerElements;
  if (isFullyKnown(shape))
    noInnerElements = *shape;
  noInnerElements.push_back(0);
  Value marker =
      buildZeroList(ctx, n, noInnerElements, ctx.builder.getF32Type());
  Operation *op = marker.getDefiningOp();
  op->setAttr(kUnshapedList, ctx.builder.getUnitAttr());
  op->setAttr(kListOfLists, ctx.builder.getUnitAttr());
  if (shape)
    op->setAttr(kPartialShape, ctx.builder.getDenseI64ArrayAttr(*shape));
  return marker;
}

/// The rank of TF's element shape of `list` when it is a list of lists
/// whose creation the importer saw (through the writes into it), else
/// std::nullopt: the tensor [n, element..., m, inner element...] alone does
/// not say where the element ends.
static std::optional<int64_t> listOfListsElementRank(Value list) {
  Operation *op = list.getDefiningOp();
  while (op && op->getName().getStringRef() == "tfaot.ListSetItem")
    op = op->getOperand(0).getDefiningOp();
  auto rank = op ? op->getAttrOfType<IntegerAttr>(kListOfLists) : nullptr;
  return rank ? std::optional<int64_t>(rank.getInt()) : std::nullopt;
}

/// The partial element shape of a list still waiting for its first write,
/// or null if `list` is an ordinary (shaped) list.
static Operation *unshapedMarker(Value list) {
  Operation *op = list.getDefiningOp();
  return op && op->hasAttr(kUnshapedList) ? op : nullptr;
}

static int64_t numElements(Value list) {
  return cast<RankedTensorType>(list.getType()).getDimSize(0);
}

static ArrayRef<int64_t> elementShapeOf(Value list) {
  return cast<RankedTensorType>(list.getType()).getShape().drop_front();
}

static Type elementTypeOf(Value list) {
  return cast<RankedTensorType>(list.getType()).getElementType();
}

// Lists of run-time length, below.
static bool hasRunTimeLength(Value list);
static LogicalResult refuseRunTimeLength(NodeImportContext &ctx);

/// `list`, which an op reads: an error if its element shape is still
/// unknown, or if its element type is not the one the node's `dtypeAttr`
/// names.
static FailureOr<Value> requireShaped(NodeImportContext &ctx, Value list,
                                      const char *dtypeAttr) {
  if (Operation *marker = unshapedMarker(list))
    return ctx.error(marker->hasAttr(kListOfLists)
                         ? "the list is a list of lists (element_dtype "
                           "DT_VARIANT) that no inner list was written "
                           "into before this node, so the inner lists' "
                           "element type and shape are unknown"
                         : "the list's element shape is unknown: neither the "
                           "op that created it (element_shape) nor a write "
                           "before this node gives it");
  // Elements that are lists (DT_VARIANT) have the inner lists' element
  // type, which the node does not name.
  if (ctx.attr(dtypeAttr) && !isVariantAttr(ctx, dtypeAttr)) {
    FailureOr<Type> type = elementTypeAttr(ctx, dtypeAttr);
    if (failed(type))
      return failure();
    if (*type != elementTypeOf(list))
      return ctx.error(llvm::Twine("reads ") + typeString(*type) +
                       " elements (" + dtypeAttr + ") from a list of " +
                       typeString(elementTypeOf(list)));
  }
  return list;
}

/// Whether `list` may be a marker carried into a loop body: the body's
/// block argument has the marker's type ([n, 0]) but not its attribute.
/// A write of another shape is then taken provisionally (the list takes the
/// written element shape): the variable changes type, so the loop cannot
/// be a While, and the importer either unrolls it, importing the body again
/// where the write sees the list itself (a marker, or a shaped list that
/// must match), or reports the loop; a functional While reports the change
/// of type. So a provisional write never reaches the compiled graph unless
/// the real list takes it.
static bool mayBeLoopCarriedMarker(Value list) {
  return isa<BlockArgument>(list) && elementShapeOf(list) == ArrayRef<int64_t>{0};
}

/// The marker of a list of lists no inner list was written into yet, ready
/// for its first: an inner list of `itemShape` (TF's element shape, then
/// the inner list's [m, inner element...]) and `itemType` (the inner
/// elements' type) makes it zeros of that shape and type.
static FailureOr<Value> prepareListOfListsForWrite(NodeImportContext &ctx,
                                                   Operation *marker,
                                                   ArrayRef<int64_t> itemShape,
                                                   Type itemType) {
  Value list = marker->getResult(0);
  if (!isVariantAttr(ctx, "element_dtype"))
    return ctx.error("writes a " + typeString(itemType) +
                     " element into a list of lists (element_dtype "
                     "DT_VARIANT)");
  PartialShape element;
  if (auto attr = marker->getAttrOfType<DenseI64ArrayAttr>(kPartialShape))
    element = SmallVector<int64_t>(attr.asArrayRef());
  size_t elementRank = element ? element->size() : 0;
  if (itemShape.size() <= elementRank ||
      !isCompatible(element, itemShape.take_front(elementRank)))
    return ctx.error("writes a value of shape " + shapeString(itemShape) +
                     " into a list of lists of element shape " +
                     shapeString(element ? *element : SmallVector<int64_t>()) +
                     "; an element must be that many inner lists");
  Value zeros = buildZeroList(ctx, numElements(list), itemShape, itemType);
  zeros.getDefiningOp()->setAttr(
      kListOfLists, ctx.builder.getI64IntegerAttr(int64_t(elementRank)));
  return zeros;
}

/// `list`, ready to receive elements of `itemShape` and `itemType`: a
/// marker becomes zeros of that shape; a shaped list must match it.
static FailureOr<Value> prepareForWrite(NodeImportContext &ctx, Value list,
                                        ArrayRef<int64_t> itemShape,
                                        Type itemType) {
  if (Operation *marker = unshapedMarker(list);
      marker && marker->hasAttr(kListOfLists))
    return prepareListOfListsForWrite(ctx, marker, itemShape, itemType);
  if (unshapedMarker(list) && isVariantAttr(ctx, "element_dtype"))
    return ctx.error("writes a list (element_dtype DT_VARIANT) into a list "
                     "of " + typeString(elementTypeOf(list)) + " elements");
  if (elementTypeOf(list) != itemType)
    return ctx.error("writes a " + typeString(itemType) +
                     " element into a list of " +
                     typeString(elementTypeOf(list)));
  if (Operation *marker = unshapedMarker(list)) {
    PartialShape partial;
    if (auto attr = marker->getAttrOfType<DenseI64ArrayAttr>(kPartialShape))
      partial = SmallVector<int64_t>(attr.asArrayRef());
    if (!isCompatible(partial, itemShape))
      return ctx.error("writes an element of shape " + shapeString(itemShape) +
                       " into a list of element shape " +
                       shapeString(*partial));
    return buildZeroList(ctx, numElements(list), itemShape, itemType);
  }
  if (mayBeLoopCarriedMarker(list) && elementShapeOf(list) != itemShape)
    return buildZeroList(ctx, numElements(list), itemShape, itemType);
  if (elementShapeOf(list) != itemShape)
    return ctx.error("writes an element of shape " + shapeString(itemShape) +
                     " into a list of element shape " +
                     shapeString(elementShapeOf(list)));
  return list;
}

LogicalResult(::tfaot::checkLoopCarriedLists)(NodeImportContext &ctx,
                                             ValueRange vars) {
  for (auto [k, var] : llvm::enumerate(vars))
    if (unshapedMarker(var))
      return ctx.error(llvm::formatv(
          "loop variable {0} ('{1}') is a list whose element shape is "
          "unknown on entry; give it with the list's element_shape, or write "
          "an element before the loop",
          k, ctx.node.input(k)));
  return success();
}

/// A compile-time check of constant indices against a list of `n`, with
/// TF's message; success for indices known only at run time.
static LogicalResult checkConstantIndices(NodeImportContext &ctx,
                                          Value indices, int64_t n,
                                          llvm::StringRef verb) {
  DenseElementsAttr values = constantElements(indices);
  if (!values)
    return success();
  for (const APInt &v : values.getValues<APInt>())
    if (v.getSExtValue() < 0 || v.getSExtValue() >= n)
      return ctx.error(llvm::formatv("Trying to {0} element {1} in a list "
                                     "with {2} elements.",
                                     verb, v.getSExtValue(), n));
  return success();
}

/// Whether `indices` are the constants 0, 1, ..., n - 1: every row in order,
/// as TensorArray stack and unstack (dynamic_rnn's input and output) give.
static bool isEveryRow(Value indices, int64_t n) {
  DenseElementsAttr values = constantElements(indices);
  if (!values || values.getType().getRank() != 1 ||
      values.getNumElements() != n)
    return false;
  int64_t row = 0;
  for (const APInt &v : values.getValues<APInt>())
    if (v.getSExtValue() != row++)
      return false;
  return true;
}

/// Rows `indices` of `list` (GatherV2 along axis 0): an element for a
/// scalar index, a stack of them for a 1-D one; the list itself for every
/// row in order.
static Value buildRead(NodeImportContext &ctx, Value list, Value indices) {
  if (isEveryRow(indices, numElements(list)))
    return list;
  auto indicesType = cast<RankedTensorType>(indices.getType());
  SmallVector<int64_t> shape(indicesType.getShape());
  llvm::append_range(shape, elementShapeOf(list));
  Value axis = buildI64Const(ctx, {0}, {});
  return buildOpWithAttrs(
      ctx, "GatherV2", {list, indices, axis},
      RankedTensorType::get(shape, elementTypeOf(list)), {});
}

/// `list` with row `index` (a scalar) replaced by `item` (ListSetItem). A
/// run-time index is first gathered from the row numbers, so that Run()
/// fails for a bad one, naming the node, instead of the write landing on a
/// clamped row.
static Value buildWrite(NodeImportContext &ctx, Value list, Value index,
                        Value item) {
  if (!constantElements(index)) {
    int64_t n = numElements(list);
    Type indexType = cast<RankedTensorType>(index.getType()).getElementType();
    SmallVector<APInt> rowNumbers;
    for (int64_t r = 0; r < n; ++r)
      rowNumbers.push_back(APInt(indexType.getIntOrFloatBitWidth(), r));
    Value rows = buildConst(
        ctx, DenseElementsAttr::get(RankedTensorType::get({n}, indexType),
                                    rowNumbers));
    index = buildRead(ctx, rows, index);
  }
  return buildOpWithAttrs(ctx, "ListSetItem", {list, index, item},
                          list.getType(), {});
}

/// Row k of `tensor` (static k), for scatters.
static Value buildConstantRow(NodeImportContext &ctx, Value tensor, int64_t k) {
  Value index = buildI64Const(ctx, {k}, {});
  return buildRead(ctx, tensor, index);
}

/// `list` with row indices[k] replaced by row k of `tensor`, for every k.
static FailureOr<Value> buildScatter(NodeImportContext &ctx, Value list,
                                     Value indices, Value tensor) {
  if (hasRunTimeLength(list))
    return refuseRunTimeLength(ctx);
  auto indicesType = cast<RankedTensorType>(indices.getType());
  auto tensorType = cast<RankedTensorType>(tensor.getType());
  if (indicesType.getRank() != 1 || tensorType.getRank() < 1 ||
      tensorType.getDimSize(0) != indicesType.getDimSize(0))
    return ctx.error("needs 1-D indices and a tensor with one row per index, "
                     "got " + typeString(indicesType) + " and " +
                     typeString(tensorType));
  FailureOr<Value> prepared = prepareForWrite(
      ctx, list, tensorType.getShape().drop_front(), tensorType.getElementType());
  if (failed(prepared) ||
      failed(checkConstantIndices(ctx, indices, numElements(*prepared),
                                  "modify")))
    return failure();
  // Every row in order: the tensor is the new list, not n row copies.
  if (isEveryRow(indices, numElements(*prepared)) &&
      tensor.getType() == prepared->getType())
    return tensor;
  DenseElementsAttr constantIndices = constantElements(indices);
  Value result = *prepared;
  for (int64_t k = 0; k < indicesType.getDimSize(0); ++k) {
    Value index = constantIndices
                      ? buildScalar(ctx, indicesType.getElementType(),
                                    constantIndices.getValues<APInt>()[k]
                                        .getSExtValue())
                      : buildConstantRow(ctx, indices, k);
    result = buildWrite(ctx, result, index, buildConstantRow(ctx, tensor, k));
  }
  return result;
}

/// The element shape a reading op gives (operand `i`), checked against the
/// list's. Elements that are lists (element_dtype DT_VARIANT) are TF's
/// element shape followed by the inner list's shape: the given shape must
/// match the leading dims.
static LogicalResult checkReadShape(NodeImportContext &ctx, unsigned i,
                                    Value list) {
  FailureOr<PartialShape> shape = elementShapeOperand(ctx, i);
  if (failed(shape))
    return failure();
  ArrayRef<int64_t> listShape = elementShapeOf(list);
  if (isVariantAttr(ctx, "element_dtype") && *shape)
    listShape = listShape.take_front(
        std::min(listShape.size(), (*shape)->size()));
  if (!isCompatible(*shape, listShape))
    return ctx.error("asks for elements of shape " + shapeString(**shape) +
                     ", but the list holds elements of shape " +
                     shapeString(elementShapeOf(list)));
  return success();
}

//===----------------------------------------------------------------------===//
// Lists of run-time length (EmptyTensorList with max_num_elements >= 0)
//===----------------------------------------------------------------------===//
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

static constexpr llvm::StringLiteral kRunTimeLength =
    "tfaot.list_of_run_time_length";
/// On the marker of an EmptyTensorList with max_num_elements and an unknown
/// element shape: the bound, for the first PushBack.
static constexpr llvm::StringLiteral kMaxElements = "tfaot.max_elements";

static StringAttr runTimeLengthTag(MLIRContext *context) {
  return StringAttr::get(context, kRunTimeLength);
}

static bool hasRunTimeLength(Value list) {
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
static Value buildLength(NodeImportContext &ctx, Value list) {
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

/// tfaot.CheckList of `value` (an index or the length) against `length`
/// and `bound`; its result, which every use of `value` must take.
static Value buildCheck(NodeImportContext &ctx, IndexCheckKind kind,
                        Value value, Value length, int64_t bound) {
  Builder &b = ctx.builder;
  return buildOpWithAttrs(
      ctx, "CheckList", {value, length}, value.getType(),
      {b.getNamedAttr("kind", b.getI64IntegerAttr(kind)),
       b.getNamedAttr("bound", b.getI64IntegerAttr(bound))});
}

/// The rows of the list of lists `list` that an inner list was written
/// into, when the import knows them: every write since the list was
/// created is a ListSetItem at a constant row. std::nullopt otherwise (a
/// row from data, a list a loop carries or one from another op).
static std::optional<SmallVector<bool>> writtenInnerLists(Value list) {
  SmallVector<bool> written(numElements(list), false);
  Operation *op = list.getDefiningOp();
  for (; op && op->getName().getStringRef() == "tfaot.ListSetItem";
       op = op->getOperand(0).getDefiningOp()) {
    DenseElementsAttr row = constantElements(op->getOperand(1));
    if (!row)
      return std::nullopt;
    int64_t r = row.getSplatValue<APInt>().getSExtValue();
    if (r >= 0 && r < int64_t(written.size()))
      written[r] = true;
  }
  if (!op || !op->hasAttr(kListOfLists))
    return std::nullopt;
  return written;
}

/// `index` (a scalar) of a read of an inner list from the list of lists
/// `list`, checked to be one that was written: TF fails the reads of an
/// inner list never written, where the list tensor holds zeros. A constant
/// index is refused now; one from data fails Run() with the node named.
/// Unchanged when the import does not know the written rows.
static FailureOr<Value> checkInnerListWritten(NodeImportContext &ctx,
                                              Value list, Value index) {
  std::optional<SmallVector<bool>> written = writtenInnerLists(list);
  if (!written || cast<RankedTensorType>(index.getType()).getRank() != 0)
    return index;
  if (DenseElementsAttr constant = constantElements(index)) {
    int64_t i = constant.getSplatValue<APInt>().getSExtValue();
    if (i >= 0 && i < int64_t(written->size()) && !(*written)[i])
      return ctx.error(llvm::formatv("reads the inner list at index {0} of "
                                     "a list of lists, which was never "
                                     "written (TF fails the read)",
                                     i)
                           .str());
    return index;
  }
  if (llvm::all_of(*written, [](bool w) { return w; }))
    return index;
  SmallVector<int32_t> flags(written->begin(), written->end());
  Value flagList = buildConst(
      ctx, DenseElementsAttr::get(
               RankedTensorType::get({int64_t(flags.size())},
                                     ctx.builder.getI32Type()),
               ArrayRef<int32_t>(flags)));
  Value flag = buildRead(ctx, flagList, index);
  return buildCheck(ctx, kCheckListWritten, index, flag, 0);
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
static LogicalResult checkItem(NodeImportContext &ctx, Value list,
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
static LogicalResult refuseRunTimeLength(NodeImportContext &ctx) {
  return ctx.error("is not supported on a list whose length is known only "
                   "at run time (an EmptyTensorList with max_num_elements, "
                   "for PushBack/PopBack); GetItem, SetItem, Stack, Length, "
                   "ElementShape, PushBack and PopBack are");
}

/// GetItem of a list of run-time length: index checked against the length.
static Value buildReadAtRunTimeLength(NodeImportContext &ctx, Value list,
                                      Value index) {
  Value checked = buildCheck(ctx, kCheckListAccess, index,
                             buildLength(ctx, list), maxLength(list));
  return buildRead(ctx, untag(ctx, list),
                   clampToElementRows(ctx, checked, maxLength(list)));
}

/// SetItem of a list of run-time length.
static Value buildWriteAtRunTimeLength(NodeImportContext &ctx, Value list,
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
static FailureOr<Value> buildStackOfRunTimeLength(NodeImportContext &ctx,
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

//===----------------------------------------------------------------------===//
// TensorList
//===----------------------------------------------------------------------===//

/// TensorListReserve(element_shape, num_elements).
FailureOr<Value>(::tfaot::importTensorListReserve)(NodeImportContext &ctx) {
  FailureOr<PartialShape> shape = elementShapeOperand(ctx, 0);
  if (failed(shape))
    return failure();
  auto n = constantInts(ctx, 1, "the number of elements");
  if (failed(n))
    return failure();
  if (isVariantAttr(ctx, "element_dtype"))
    return buildNewListOfLists(ctx, (*n)[0], *shape);
  FailureOr<Type> type = elementTypeAttr(ctx, "element_dtype");
  if (failed(type))
    return failure();
  return buildNewList(ctx, (*n)[0], *shape, *type);
}

/// TensorListFromTensor(tensor, element_shape): the tensor's rows.
FailureOr<Value>(::tfaot::importTensorListFromTensor)(NodeImportContext &ctx) {
  RankedTensorType tensor = ctx.typeOf(0);
  if (tensor.getRank() < 1)
    return ctx.error("needs a tensor of rank >= 1, got " + typeString(tensor));
  Value list = ctx.operands[0];
  if (failed(checkReadShape(ctx, 1, list)))
    return failure();
  return list;
}

/// One element write: operand 1 the index, operand 2 the item, operand
/// `listOperand` the list (a TensorList's value, a TensorArray's flow).
static FailureOr<Value> importItemWrite(NodeImportContext &ctx,
                                        unsigned listOperand) {
  RankedTensorType item = ctx.typeOf(2);
  if (hasRunTimeLength(ctx.operands[listOperand])) {
    if (failed(checkItem(ctx, ctx.operands[listOperand], item)))
      return failure();
    return buildWriteAtRunTimeLength(ctx, ctx.operands[listOperand],
                                     ctx.operands[1], ctx.operands[2]);
  }
  FailureOr<Value> list = prepareForWrite(ctx, ctx.operands[listOperand],
                                          item.getShape(), item.getElementType());
  if (failed(list) || failed(checkConstantIndices(ctx, ctx.operands[1],
                                                  numElements(*list), "modify")))
    return failure();
  return buildWrite(ctx, *list, ctx.operands[1], ctx.operands[2]);
}

/// TensorListSetItem(list, index, item).
FailureOr<Value>(::tfaot::importTensorListSetItem)(NodeImportContext &ctx) {
  return importItemWrite(ctx, 0);
}

/// TensorListGetItem(list, index, element_shape) and TensorListGather(list,
/// indices, element_shape): the same read, of one element or of several
/// (buildRead takes an index of any rank).
static FailureOr<Value> importListRead(NodeImportContext &ctx) {
  if (hasRunTimeLength(ctx.operands[0])) {
    if (ctx.typeOf(1).getRank() != 0)
      return refuseRunTimeLength(ctx);
    if (failed(checkReadShape(ctx, 2, ctx.operands[0])))
      return failure();
    return buildReadAtRunTimeLength(ctx, ctx.operands[0], ctx.operands[1]);
  }
  FailureOr<Value> list = requireShaped(ctx, ctx.operands[0], "element_dtype");
  if (failed(list) || failed(checkReadShape(ctx, 2, *list)) ||
      failed(checkConstantIndices(ctx, ctx.operands[1], numElements(*list),
                                  "access")))
    return failure();
  Value index = ctx.operands[1];
  if (isVariantAttr(ctx, "element_dtype")) {
    FailureOr<Value> checked = checkInnerListWritten(ctx, *list, index);
    if (failed(checked))
      return failure();
    index = *checked;
  }
  return buildRead(ctx, *list, index);
}

FailureOr<Value>(::tfaot::importTensorListGetItem)(NodeImportContext &ctx) {
  return importListRead(ctx);
}

/// TensorListStack(list, element_shape): the list as one tensor.
FailureOr<Value>(::tfaot::importTensorListStack)(NodeImportContext &ctx) {
  if (hasRunTimeLength(ctx.operands[0])) {
    if (failed(checkReadShape(ctx, 1, ctx.operands[0])))
      return failure();
    return buildStackOfRunTimeLength(ctx, ctx.operands[0]);
  }
  FailureOr<Value> list = requireShaped(ctx, ctx.operands[0], "element_dtype");
  if (failed(list) || failed(checkReadShape(ctx, 1, *list)))
    return failure();
  int64_t expected = intAttr(ctx, "num_elements", -1);
  if (expected >= 0 && expected != numElements(*list))
    return ctx.error(llvm::formatv("expects {0} elements, but the list has {1}",
                                   expected, numElements(*list)));
  return *list;
}

FailureOr<Value>(::tfaot::importTensorListGather)(NodeImportContext &ctx) {
  return importListRead(ctx);
}

/// TensorListScatter(tensor, indices, element_shape) and
/// TensorListScatterV2(..., num_elements): a new list of num_elements (or,
/// when that is -1, of the largest constant index + 1).
FailureOr<Value>(::tfaot::importTensorListScatter)(NodeImportContext &ctx) {
  FailureOr<PartialShape> shape = elementShapeOperand(ctx, 2);
  if (failed(shape))
    return failure();
  int64_t n = -1;
  if (ctx.operands.size() > 3) {
    auto given = constantInts(ctx, 3, "the number of elements");
    if (failed(given))
      return failure();
    n = (*given)[0];
  }
  if (n < 0) {
    auto indices = constantInts(ctx, 1, "the indices (they give the list's "
                                        "length when num_elements is -1)");
    if (failed(indices))
      return failure();
    for (int64_t i : *indices)
      n = std::max(n, i + 1);
    n = std::max<int64_t>(n, 0);
  }
  RankedTensorType tensor = ctx.typeOf(0);
  FailureOr<Value> list = buildNewList(ctx, n, *shape, tensor.getElementType());
  if (failed(list))
    return failure();
  return buildScatter(ctx, *list, ctx.operands[1], ctx.operands[0]);
}

/// TensorListScatterIntoExistingList(list, tensor, indices).
FailureOr<Value>(::tfaot::importTensorListScatterIntoExistingList)(
    NodeImportContext &ctx) {
  return buildScatter(ctx, ctx.operands[0], ctx.operands[2], ctx.operands[1]);
}

/// TensorListLength(list): the number of elements, a constant int32 (the
/// length at run time for a list of run-time length).
FailureOr<Value>(::tfaot::importTensorListLength)(NodeImportContext &ctx) {
  if (hasRunTimeLength(ctx.operands[0]))
    return buildLength(ctx, ctx.operands[0]);
  return buildScalar(ctx, ctx.builder.getI32Type(),
                     numElements(ctx.operands[0]));
}

/// TensorListElementShape(list) as shape_type (int32 or int64).
FailureOr<Value>(::tfaot::importTensorListElementShape)(NodeImportContext &ctx) {
  FailureOr<Value> list = requireShaped(ctx, ctx.operands[0], "element_dtype");
  FailureOr<Type> type = elementTypeAttr(ctx, "shape_type");
  if (failed(list) || failed(type))
    return failure();
  ArrayRef<int64_t> shape = elementShapeOf(*list);
  // A list of lists: TF's element shape is the leading dims, before the
  // inner lists' own.
  if (std::optional<int64_t> rank = listOfListsElementRank(*list))
    shape = shape.take_front(*rank);
  auto resultType =
      RankedTensorType::get({static_cast<int64_t>(shape.size())}, *type);
  SmallVector<APInt> dims;
  for (int64_t d : shape)
    dims.push_back(APInt(type->getIntOrFloatBitWidth(), d));
  return buildConst(ctx, DenseElementsAttr::get(resultType, dims));
}

//===----------------------------------------------------------------------===//
// TensorArrayV3: operands (handle, ..., flow_in); results (handle, flow)
//===----------------------------------------------------------------------===//

/// TensorArrayV3(size): the handle and the flow. The flow is the new list;
/// the handle is a scalar (the size) that no importer reads, so that a loop
/// can carry it even while the flow's element shape waits for a first write.
FailureOr<Value>(::tfaot::importTensorArrayV3)(NodeImportContext &ctx) {
  const tensorflow::AttrValue *dynamic = ctx.attr("dynamic_size");
  if (dynamic && dynamic->b())
    return ctx.error("a TensorArray of dynamic size is not supported: tfaot "
                     "needs its size as a bound (dynamic_size=false)");
  FailureOr<Type> type = elementTypeAttr(ctx, "dtype");
  auto size = constantInts(ctx, 0, "the size");
  if (failed(type) || failed(size))
    return failure();
  FailureOr<Value> list =
      buildNewList(ctx, (*size)[0], elementShapeAttr(ctx, "element_shape"), *type);
  if (failed(list))
    return failure();
  ctx.extraOutputs.push_back(*list);
  return buildScalar(ctx, ctx.builder.getI32Type(), (*size)[0]);
}

/// TensorArrayWriteV3(handle, index, value, flow_in) -> flow.
FailureOr<Value>(::tfaot::importTensorArrayWriteV3)(NodeImportContext &ctx) {
  return importItemWrite(ctx, 3);
}

/// TensorArrayReadV3(handle, index, flow_in).
FailureOr<Value>(::tfaot::importTensorArrayReadV3)(NodeImportContext &ctx) {
  FailureOr<Value> list = requireShaped(ctx, ctx.operands[2], "dtype");
  if (failed(list) || failed(checkConstantIndices(ctx, ctx.operands[1],
                                                  numElements(*list), "access")))
    return failure();
  return buildRead(ctx, *list, ctx.operands[1]);
}

/// TensorArrayGatherV3(handle, indices, flow_in).
FailureOr<Value>(::tfaot::importTensorArrayGatherV3)(NodeImportContext &ctx) {
  FailureOr<Value> list = requireShaped(ctx, ctx.operands[2], "dtype");
  if (failed(list) || failed(checkConstantIndices(ctx, ctx.operands[1],
                                                  numElements(*list), "access")))
    return failure();
  if (!isCompatible(elementShapeAttr(ctx, "element_shape"),
                    elementShapeOf(*list)))
    return ctx.error("element_shape differs from the array's element shape " +
                     shapeString(elementShapeOf(*list)));
  return buildRead(ctx, *list, ctx.operands[1]);
}

/// TensorArrayScatterV3(handle, indices, value, flow_in) -> flow.
FailureOr<Value>(::tfaot::importTensorArrayScatterV3)(NodeImportContext &ctx) {
  return buildScatter(ctx, ctx.operands[3], ctx.operands[1], ctx.operands[2]);
}

/// TensorArrayConcatV3(handle, flow_in) -> (value, lengths): the elements
/// joined along their first dimension, and each one's length (int64).
FailureOr<Value>(::tfaot::importTensorArrayConcatV3)(NodeImportContext &ctx) {
  FailureOr<Value> list = requireShaped(ctx, ctx.operands[1], "dtype");
  if (failed(list))
    return failure();
  ArrayRef<int64_t> element = elementShapeOf(*list);
  if (element.empty())
    return ctx.error("cannot concatenate scalar elements");
  int64_t n = numElements(*list);
  SmallVector<int64_t> shape{n * element[0]};
  llvm::append_range(shape, element.drop_front());
  ctx.extraOutputs.push_back(
      buildI64Const(ctx, SmallVector<int64_t>(n, element[0]), {n}));
  return buildReshape(ctx, *list, shape);
}

/// TensorArraySplitV3(handle, value, lengths, flow_in) -> flow: value cut
/// along its first dimension into pieces of `lengths`, which must be
/// constant and equal (the list's elements share one shape).
FailureOr<Value>(::tfaot::importTensorArraySplitV3)(NodeImportContext &ctx) {
  auto lengths = constantInts(ctx, 2, "the lengths");
  if (failed(lengths))
    return failure();
  RankedTensorType value = ctx.typeOf(1);
  if (value.getRank() < 1)
    return ctx.error("needs a value of rank >= 1, got " + typeString(value));
  int64_t n = numElements(ctx.operands[3]);
  if ((int64_t)lengths->size() != n)
    return ctx.error(llvm::formatv("splits into {0} pieces an array of {1} "
                                   "elements",
                                   lengths->size(), n));
  int64_t piece = n ? (*lengths)[0] : 0, total = 0;
  for (int64_t length : *lengths) {
    if (length != piece)
      return ctx.error("pieces of different lengths are not supported: the "
                       "elements of an array share one shape");
    total += length;
  }
  if (total != value.getDimSize(0))
    return ctx.error(llvm::formatv("the lengths add up to {0}, but the value "
                                   "has {1} rows",
                                   total, value.getDimSize(0)));
  SmallVector<int64_t> element{piece};
  llvm::append_range(element, value.getShape().drop_front());
  FailureOr<Value> list = prepareForWrite(ctx, ctx.operands[3], element,
                                          value.getElementType());
  if (failed(list))
    return failure();
  return buildReshape(ctx, ctx.operands[1], withLeading(n, element));
}

/// TensorArraySizeV3(handle, flow_in): the size, a constant int32.
FailureOr<Value>(::tfaot::importTensorArraySizeV3)(NodeImportContext &ctx) {
  return buildScalar(ctx, ctx.builder.getI32Type(),
                     numElements(ctx.operands[1]));
}

/// TensorArrayCloseV3(handle): nothing to free; it has no outputs.
FailureOr<Value>(::tfaot::importTensorArrayCloseV3)(NodeImportContext &ctx) {
  return ctx.operands[0];
}
