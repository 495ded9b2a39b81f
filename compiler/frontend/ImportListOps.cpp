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
// max_num_elements, a length kept in the list at run time
// (ImportRunTimeLengthLists.cpp; what both files use is declared in
// ListImportHelpers.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportListOps.h"

#include "compiler/frontend/ImportHelpers.h"
#include "compiler/frontend/ListImportHelpers.h"
#include "compiler/frontend/TensorConversion.h"

#include "ir/Ops.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;
using namespace ::tfaot::lists;

std::string lists::shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + (d < 0 ? std::string("?") : std::to_string(d));
  return s + "]";
}

bool lists::isFullyKnown(const PartialShape &shape) {
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
FailureOr<PartialShape> lists::elementShapeOperand(NodeImportContext &ctx,
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
bool lists::isVariantAttr(NodeImportContext &ctx, const char *name) {
  const tensorflow::AttrValue *attr = ctx.attr(name);
  return attr && attr->type() == tensorflow::DT_VARIANT;
}

/// The element type named by the node's attribute `name`.
FailureOr<Type> lists::elementTypeAttr(NodeImportContext &ctx,
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

SmallVector<int64_t> lists::withLeading(int64_t n, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result{n};
  llvm::append_range(result, shape);
  return result;
}

/// A tensor of `shape`, all zero.
Value lists::buildZeros(NodeImportContext &ctx, ArrayRef<int64_t> shape,
                        Type elementType) {
  auto type = RankedTensorType::get(shape, elementType);
  Attribute zero = isa<FloatType>(elementType)
                       ? (Attribute)ctx.builder.getFloatAttr(elementType, 0)
                       : (Attribute)ctx.builder.getIntegerAttr(elementType, 0);
  return buildConst(ctx, DenseElementsAttr::get(type, zero));
}

/// A list of `n` elements of `shape`, all zero.
Value lists::buildZeroList(NodeImportContext &ctx, int64_t n,
                           ArrayRef<int64_t> shape, Type elementType) {
  return buildZeros(ctx, withLeading(n, shape), elementType);
}

/// A new list of `n` elements: zeros when `shape` is fully known, else the
/// marker a first write replaces.
FailureOr<Value> lists::buildNewList(NodeImportContext &ctx, int64_t n,
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
Operation *lists::unshapedMarker(Value list) {
  Operation *op = list.getDefiningOp();
  return op && op->hasAttr(kUnshapedList) ? op : nullptr;
}

int64_t lists::numElements(Value list) {
  return cast<RankedTensorType>(list.getType()).getDimSize(0);
}

ArrayRef<int64_t> lists::elementShapeOf(Value list) {
  return cast<RankedTensorType>(list.getType()).getShape().drop_front();
}

Type lists::elementTypeOf(Value list) {
  return cast<RankedTensorType>(list.getType()).getElementType();
}

/// `list`, which an op reads: an error if its element shape is still
/// unknown, or if its element type is not the one the node's `dtypeAttr`
/// names.
FailureOr<Value> lists::requireShaped(NodeImportContext &ctx, Value list,
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
FailureOr<Value> lists::prepareForWrite(NodeImportContext &ctx, Value list,
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
Value lists::buildRead(NodeImportContext &ctx, Value list, Value indices) {
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
LogicalResult lists::checkReadShape(NodeImportContext &ctx, unsigned i,
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
// Reads of inner lists never written (lists of lists)
//===----------------------------------------------------------------------===//

/// tfaot.CheckList of `value` (an index or the length) against `length`
/// and `bound`; its result, which every use of `value` must take.
Value lists::buildCheck(NodeImportContext &ctx, IndexCheckKind kind,
                        Value value, Value length, int64_t bound) {
  Builder &b = ctx.builder;
  return buildOpWithAttrs(
      ctx, "CheckList", {value, length}, value.getType(),
      {b.getNamedAttr("kind", b.getI64IntegerAttr(kind)),
       b.getNamedAttr("bound", b.getI64IntegerAttr(bound))});
}

namespace {
/// The rows of a list of lists that an inner list was written into: those
/// written at a constant row, known at import, and the rows from data of
/// the other writes, known at run time (each already checked and clamped
/// into the list, as buildWrite makes them).
struct WrittenInnerLists {
  SmallVector<bool> constantRows;
  SmallVector<Value> rowsFromData;
};
} // namespace

/// The writes into the list of lists `list` since it was created, when the
/// import sees them all: a chain of ListSetItem back to the list's
/// creation. std::nullopt otherwise (a list a loop carries, one a branch
/// returns or one from another op).
static std::optional<WrittenInnerLists> writtenInnerLists(Value list) {
  WrittenInnerLists written;
  written.constantRows.assign(numElements(list), false);
  Operation *op = list.getDefiningOp();
  for (; op && op->getName().getStringRef() == "tfaot.ListSetItem";
       op = op->getOperand(0).getDefiningOp()) {
    Value row = op->getOperand(1);
    DenseElementsAttr constant = constantElements(row);
    if (!constant) {
      written.rowsFromData.push_back(row);
      continue;
    }
    int64_t r = constant.getSplatValue<APInt>().getSExtValue();
    if (r >= 0 && r < int64_t(written.constantRows.size()))
      written.constantRows[r] = true;
  }
  if (!op || !op->hasAttr(kListOfLists))
    return std::nullopt;
  return written;
}

/// The written flag of every row of a list of lists, an int32 tensor [n]:
/// the constant rows' flags, then a 1 set at each row from data.
static Value buildWrittenFlags(NodeImportContext &ctx,
                               const WrittenInnerLists &written) {
  SmallVector<int32_t> flags(written.constantRows.begin(),
                             written.constantRows.end());
  Type i32 = ctx.builder.getI32Type();
  auto type = RankedTensorType::get({int64_t(flags.size())}, i32);
  Value flagList =
      buildConst(ctx, DenseElementsAttr::get(type, ArrayRef<int32_t>(flags)));
  Value one = buildScalar(ctx, i32, 1);
  for (Value row : written.rowsFromData)
    flagList = buildOpWithAttrs(ctx, "ListSetItem", {flagList, row, one}, type,
                                {});
  return flagList;
}

/// `index` (a scalar) of a read of an inner list from the list of lists
/// `list`, checked to be one that was written: TF fails the reads of an
/// inner list never written, where the list tensor holds zeros. A constant
/// index is refused now when every write was at a constant row; otherwise
/// Run() fails with the node named, the rows from data setting their
/// flags at run time. Unchanged when the import does not see the writes.
static FailureOr<Value> checkInnerListWritten(NodeImportContext &ctx,
                                              Value list, Value index) {
  std::optional<WrittenInnerLists> written = writtenInnerLists(list);
  if (!written || cast<RankedTensorType>(index.getType()).getRank() != 0)
    return index;
  const SmallVector<bool> &constantRows = written->constantRows;
  if (DenseElementsAttr constant = constantElements(index)) {
    int64_t i = constant.getSplatValue<APInt>().getSExtValue();
    if (i < 0 || i >= int64_t(constantRows.size()) || constantRows[i])
      return index;
    // Never written, unless a write at a row from data hits it.
    if (written->rowsFromData.empty())
      return ctx.error(llvm::formatv("reads the inner list at index {0} of "
                                     "a list of lists, which was never "
                                     "written (TF fails the read)",
                                     i)
                           .str());
  }
  if (llvm::all_of(constantRows, [](bool w) { return w; }))
    return index;
  Value flag = buildRead(ctx, buildWrittenFlags(ctx, *written), index);
  return buildCheck(ctx, kCheckListWritten, index, flag, 0);
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
