//===- OpImporters.cpp - One TensorFlow node to tfaot ops -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Most ops map one to one: infer the result type from the operand types and
// the constant operands (shapes, axes, paddings), copy the TF attributes the
// tfaot op declares, build it. A few are rewritten on the way in:
//   - ExpandDims and Squeeze become Reshape (they only change the shape);
//   - Pad gets an explicit zero fill value, so Pad and PadV2 share one op;
//   - TF's fused ops (_FusedConv2D, FusedDepthwiseConv2dNative,
//     _FusedMatMul) are expanded into their parts (convolution, BiasAdd or
//     batch norm, activation), every part located at the fused node; the
//     graph passes fuse them again for code generation.
//
//===----------------------------------------------------------------------===//
#include "compiler/OpImporters.h"

#include "compiler/ImportHelpers.h"

#include "compiler/GraphLoader.h"
#include "compiler/TensorConversion.h"
#include "ir/Ops.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::getConstantIntValues;

//===----------------------------------------------------------------------===//
// NodeImportContext
//===----------------------------------------------------------------------===//

NodeImportContext::NodeImportContext(const tensorflow::NodeDef &node,
                                     ArrayRef<Value> operands,
                                     OpBuilder &builder,
                                     GraphDiagnostics &diags)
    : node(node), operands(operands), builder(builder),
      loc(NameLoc::get(builder.getStringAttr(node.name()))), diags_(diags) {}

LogicalResult NodeImportContext::error(const llvm::Twine &message) const {
  diags_.nodeError(node.name(), node.op(), message);
  return failure();
}

const tensorflow::AttrValue *
NodeImportContext::attr(llvm::StringRef name) const {
  auto it = node.attr().find(name.str());
  return it == node.attr().end() ? nullptr : &it->second;
}

RankedTensorType NodeImportContext::typeOf(unsigned i) const {
  return cast<RankedTensorType>(operands[i].getType());
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

std::string(::tfaot::typeString)(Type type) {
  std::string s;
  llvm::raw_string_ostream(s) << type;
  return s;
}

/// Converts the TF attributes that the registered tfaot op `opName` declares
/// (by AttrValue kind: list of ints, string, bool, float).
static SmallVector<NamedAttribute> convertAttributes(NodeImportContext &ctx,
                                                     StringRef opName) {
  SmallVector<NamedAttribute> attrs;
  Builder &b = ctx.builder;
  auto name = RegisteredOperationName::lookup(opName, b.getContext());
  if (!name)
    return attrs;
  for (StringAttr attrName : name->getAttributeNames()) {
    const tensorflow::AttrValue *value = ctx.attr(attrName.getValue());
    if (!value)
      continue;
    Attribute converted;
    switch (value->value_case()) {
    case tensorflow::AttrValue::kList: {
      SmallVector<int64_t> ints(value->list().i().begin(),
                                value->list().i().end());
      converted = b.getI64ArrayAttr(ints);
      break;
    }
    case tensorflow::AttrValue::kS:
      converted = b.getStringAttr(value->s());
      break;
    case tensorflow::AttrValue::kB:
      converted = b.getBoolAttr(value->b());
      break;
    case tensorflow::AttrValue::kF:
      converted = b.getF32FloatAttr(value->f());
      break;
    default:
      break;
    }
    if (converted)
      attrs.push_back(b.getNamedAttr(attrName, converted));
  }
  return attrs;
}

/// Builds "tfaot.<opName>" on `operands` with result `type`, taking the
/// attributes it declares from the node.
Value(::tfaot::buildOp)(NodeImportContext &ctx, StringRef opName,
                       ValueRange operands, Type type) {
  std::string fullName = ("tfaot." + opName).str();
  OperationState state(ctx.loc, fullName);
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(convertAttributes(ctx, fullName));
  return ctx.builder.create(state)->getResult(0);
}

/// A tfaot op with explicitly given attributes (not the node's).
Value(::tfaot::buildOpWithAttrs)(NodeImportContext &ctx, StringRef opName,
                                ValueRange operands, Type type,
                                ArrayRef<NamedAttribute> attrs) {
  OperationState state(ctx.loc, ("tfaot." + opName).str());
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(attrs);
  return ctx.builder.create(state)->getResult(0);
}

/// The constant elements behind `value` (looking through Identity), or null.
DenseElementsAttr(::tfaot::constantElements)(Value value) {
  while (auto identity = value.getDefiningOp<mlir::tfaot::IdentityOp>())
    value = identity.getInput();
  if (auto constant = value.getDefiningOp<mlir::tfaot::ConstOp>())
    return dyn_cast<DenseElementsAttr>(constant.getValue());
  return nullptr;
}

/// A tfaot.Const of `attr`, located at the node.
Value(::tfaot::buildConst)(NodeImportContext &ctx, DenseElementsAttr attr) {
  OperationState state(ctx.loc, "tfaot.Const");
  state.addAttribute("value", attr);
  state.addTypes(attr.getType());
  return ctx.builder.create(state)->getResult(0);
}

Value(::tfaot::buildI64Const)(NodeImportContext &ctx, ArrayRef<int64_t> values,
                             ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, ctx.builder.getI64Type());
  return buildConst(ctx, DenseIntElementsAttr::get(type, values));
}

/// A scalar of `elementType` holding `value`.
Value(::tfaot::buildScalar)(NodeImportContext &ctx, Type elementType,
                           double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute element =
      isa<FloatType>(elementType)
          ? (Attribute)ctx.builder.getFloatAttr(elementType, value)
          : (Attribute)ctx.builder.getIntegerAttr(elementType,
                                                  static_cast<int64_t>(value));
  return buildConst(ctx, DenseElementsAttr::get(type, element));
}

/// Result type of a NumPy-broadcasting binary op.
static FailureOr<Type> broadcastType(NodeImportContext &ctx, Value x,
                                     Value y) {
  auto a = cast<RankedTensorType>(x.getType());
  auto b = cast<RankedTensorType>(y.getType());
  SmallVector<int64_t> shape;
  if (failed(mlir::tfaot::broadcastShapes(a.getShape(), b.getShape(), shape))) {
    (void)ctx.error("input shapes " + typeString(a) + " and " + typeString(b) +
                    " are not broadcast-compatible");
    return failure();
  }
  return Type(RankedTensorType::get(shape, a.getElementType()));
}

FailureOr<Value>(::tfaot::buildBinary)(NodeImportContext &ctx,
                                       StringRef opName, Value x, Value y) {
  FailureOr<Type> type = broadcastType(ctx, x, y);
  if (failed(type))
    return failure();
  return buildOp(ctx, opName, {x, y}, *type);
}

/// A constant integer operand as values, or an error naming its role.
FailureOr<SmallVector<int64_t>>(::tfaot::constantInts)(NodeImportContext &ctx,
                                                      unsigned i,
                                                      StringRef role) {
  auto values = getConstantIntValues(ctx.operands[i]);
  if (!values) {
    (void)ctx.error(role + " (input " + llvm::Twine(i) +
                    ") must be a constant; computed values are not supported "
                    "yet");
    return failure();
  }
  return *values;
}

/// Normalizes a possibly negative axis against `rank`.
FailureOr<int64_t>(::tfaot::normalizeAxis)(NodeImportContext &ctx, int64_t axis,
                                          int64_t rank) {
  if (axis < -rank || axis >= rank) {
    (void)ctx.error(llvm::formatv("axis {0} is out of range for rank {1}",
                                  axis, rank));
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

/// Reshape to a static `shape`, with the shape as a constant operand.
Value(::tfaot::buildReshape)(NodeImportContext &ctx, Value input,
                            ArrayRef<int64_t> shape) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Value shapeConst =
      buildI64Const(ctx, shape, {static_cast<int64_t>(shape.size())});
  return buildOp(ctx, "Reshape", {input, shapeConst},
                 RankedTensorType::get(shape, inputType.getElementType()));
}

//===----------------------------------------------------------------------===//
// Importers of simple ops
//===----------------------------------------------------------------------===//

static FailureOr<Value> importConst(NodeImportContext &ctx) {
  const tensorflow::AttrValue *value = ctx.attr("value");
  if (!value || !value->has_tensor())
    return ctx.error("has no 'value' tensor");
  std::string error;
  DenseElementsAttr attr =
      convertTensor(value->tensor(), ctx.builder.getContext(), error);
  if (!attr)
    return ctx.error("value " + error);
  const tensorflow::AttrValue *dtype = ctx.attr("dtype");
  if (dtype && dtype->type() != value->tensor().dtype())
    return ctx.error("attribute dtype is " + dataTypeName(dtype->type()) +
                     " but the value tensor is " +
                     dataTypeName(value->tensor().dtype()));
  return buildConst(ctx, attr);
}

/// Ops whose result has the type of their first operand.
static FailureOr<Value> importSameType(NodeImportContext &ctx) {
  return buildOp(ctx, ctx.node.op(), ctx.operands, ctx.typeOf(0));
}

/// An unfed PlaceholderWithDefault is its default value; Identity-like ops
/// that only matter to training (StopGradient) pass their input through.
static FailureOr<Value> importPassThrough(NodeImportContext &ctx) {
  return ctx.operands[0];
}

static FailureOr<Value> importBinary(NodeImportContext &ctx) {
  return buildBinary(ctx, ctx.node.op(), ctx.operands[0], ctx.operands[1]);
}

/// Comparisons and logical ops: broadcast shape, bool elements.
static FailureOr<Value> importPredicate(NodeImportContext &ctx) {
  FailureOr<Type> type = broadcastType(ctx, ctx.operands[0], ctx.operands[1]);
  if (failed(type))
    return failure();
  auto shape = cast<RankedTensorType>(*type).getShape();
  return buildOp(ctx, ctx.node.op(), ctx.operands,
                 RankedTensorType::get(shape, ctx.builder.getI1Type()));
}

/// Select and SelectV2. SelectV2 broadcasts all three operands; TF1's Select
/// also allows a vector condition picking whole rows, which is the same as
/// broadcasting it reshaped to [n, 1, ..., 1].
static FailureOr<Value> importSelect(NodeImportContext &ctx) {
  Value condition = ctx.operands[0];
  auto condType = ctx.typeOf(0), thenType = ctx.typeOf(1);
  if (ctx.node.op() == "Select" && condType.getRank() == 1 &&
      thenType.getRank() > 1) {
    SmallVector<int64_t> shape(thenType.getRank(), 1);
    shape[0] = condType.getDimSize(0);
    condition = buildReshape(ctx, condition, shape);
  }
  FailureOr<Type> branches = broadcastType(ctx, ctx.operands[1], ctx.operands[2]);
  if (failed(branches))
    return failure();
  SmallVector<int64_t> shape;
  if (failed(mlir::tfaot::broadcastShapes(
          cast<RankedTensorType>(condition.getType()).getShape(),
          cast<RankedTensorType>(*branches).getShape(), shape)))
    return ctx.error("the condition does not broadcast against the values");
  return buildOp(ctx, "SelectV2", {condition, ctx.operands[1], ctx.operands[2]},
                 RankedTensorType::get(shape, thenType.getElementType()));
}

static FailureOr<Value> importAddN(NodeImportContext &ctx) {
  for (unsigned i = 1; i < ctx.operands.size(); ++i)
    if (ctx.typeOf(i) != ctx.typeOf(0))
      return ctx.error("input " + llvm::Twine(i) + " has type " +
                       typeString(ctx.typeOf(i)) + ", input 0 has " +
                       typeString(ctx.typeOf(0)));
  return importSameType(ctx);
}

FailureOr<Value>(::tfaot::buildMatMul)(NodeImportContext &ctx, Value a,
                                       Value b) {
  auto boolAttr = [&](const char *name) {
    const tensorflow::AttrValue *v = ctx.attr(name);
    return v && v->b();
  };
  auto ta = cast<RankedTensorType>(a.getType());
  auto tb = cast<RankedTensorType>(b.getType());
  if (ta.getRank() != 2 || tb.getRank() != 2)
    return ctx.error("inputs must be matrices (rank 2), got " +
                     typeString(ta) + " and " + typeString(tb));
  int64_t m = ta.getDimSize(boolAttr("transpose_a") ? 1 : 0);
  int64_t n = tb.getDimSize(boolAttr("transpose_b") ? 0 : 1);
  return buildOp(ctx, "MatMul", {a, b},
                 RankedTensorType::get({m, n}, ta.getElementType()));
}

static FailureOr<Value> importMatMul(NodeImportContext &ctx) {
  return buildMatMul(ctx, ctx.operands[0], ctx.operands[1]);
}

FailureOr<Value>(::tfaot::importReshape)(NodeImportContext &ctx) {
  auto requested = constantInts(ctx, 1, "the shape");
  if (failed(requested))
    return failure();
  auto input = ctx.typeOf(0);
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(mlir::tfaot::resolveReshape(input.getNumElements(), *requested,
                                         shape, why)))
    return ctx.error(why);
  // Operands 0 and 1 only: QuantizedReshape has its range after them.
  return buildOp(ctx, "Reshape", ctx.operands.take_front(2),
                 RankedTensorType::get(shape, input.getElementType()));
}

static FailureOr<Value> importExpandDims(NodeImportContext &ctx) {
  auto dim = constantInts(ctx, 1, "the dimension");
  if (failed(dim))
    return failure();
  auto input = ctx.typeOf(0);
  if (dim->size() != 1)
    return ctx.error("the dimension must be a scalar");
  FailureOr<int64_t> axis = normalizeAxis(ctx, (*dim)[0], input.getRank() + 1);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(input.getShape());
  shape.insert(shape.begin() + *axis, 1);
  return buildReshape(ctx, ctx.operands[0], shape);
}

static FailureOr<Value> importSqueeze(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  SmallVector<bool> drop(input.getRank(), false);
  const tensorflow::AttrValue *dims = ctx.attr("squeeze_dims");
  if (!dims || dims->list().i_size() == 0) {
    for (int64_t i = 0; i < input.getRank(); ++i)
      drop[i] = input.getDimSize(i) == 1;
  } else {
    for (int64_t d : dims->list().i()) {
      FailureOr<int64_t> axis = normalizeAxis(ctx, d, input.getRank());
      if (failed(axis))
        return failure();
      if (input.getDimSize(*axis) != 1)
        return ctx.error(llvm::formatv("cannot squeeze dimension {0} of size "
                                       "{1}",
                                       d, input.getDimSize(*axis)));
      drop[*axis] = true;
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < input.getRank(); ++i)
    if (!drop[i])
      shape.push_back(input.getDimSize(i));
  return buildReshape(ctx, ctx.operands[0], shape);
}

static FailureOr<Value> importArgMax(NodeImportContext &ctx) {
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

static FailureOr<Value> importCast(NodeImportContext &ctx) {
  const tensorflow::AttrValue *dst = ctx.attr("DstT");
  Type element =
      dst ? convertDataType(dst->type(), ctx.builder.getContext()) : Type();
  if (!element)
    return ctx.error("DstT " +
                     dataTypeName(dst ? dst->type() : tensorflow::DT_INVALID) +
                     " is missing or unsupported");
  return buildOp(ctx, "Cast", ctx.operands,
                 RankedTensorType::get(ctx.typeOf(0).getShape(), element));
}

static FailureOr<Value> importTranspose(NodeImportContext &ctx) {
  auto perm = constantInts(ctx, 1, "the permutation");
  if (failed(perm))
    return failure();
  auto input = ctx.typeOf(0);
  if ((int64_t)perm->size() != input.getRank())
    return ctx.error("the permutation has " + llvm::Twine(perm->size()) +
                     " elements but the input has rank " +
                     llvm::Twine(input.getRank()));
  SmallVector<int64_t> shape;
  SmallVector<bool> seen(input.getRank(), false);
  for (int64_t p : *perm) {
    if (p < 0 || p >= input.getRank() || seen[p])
      return ctx.error("the permutation is not a permutation of 0.." +
                       llvm::Twine(input.getRank() - 1));
    seen[p] = true;
    shape.push_back(input.getDimSize(p));
  }
  return buildOp(ctx, "Transpose", ctx.operands,
                 RankedTensorType::get(shape, input.getElementType()));
}

static FailureOr<Value> importPad(NodeImportContext &ctx) {
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

static FailureOr<Value> importConcat(NodeImportContext &ctx) {
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

static FailureOr<Value> importReduction(NodeImportContext &ctx) {
  auto axes = constantInts(ctx, 1, "the reduction indices");
  if (failed(axes))
    return failure();
  auto input = ctx.typeOf(0);
  SmallVector<bool> reduced(input.getRank(), false);
  for (int64_t a : *axes) {
    FailureOr<int64_t> axis = normalizeAxis(ctx, a, input.getRank());
    if (failed(axis))
      return failure();
    reduced[*axis] = true;
  }
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

static FailureOr<Value> importStridedSlice(NodeImportContext &ctx) {
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

/// ResizeBilinear / ResizeNearestNeighbor: the new [height, width] is a
/// constant; bilinear always produces float32, as TF's kernel does.
static FailureOr<Value> importResize(NodeImportContext &ctx) {
  auto size = constantInts(ctx, 1, "the size");
  if (failed(size))
    return failure();
  auto images = ctx.typeOf(0);
  if (images.getRank() != 4)
    return ctx.error("images must have rank 4 (NHWC), got " +
                     typeString(images));
  if (size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
    return ctx.error("size must hold two positive numbers");
  Type element = ctx.node.op() == "ResizeBilinear"
                     ? ctx.builder.getF32Type()
                     : images.getElementType();
  return buildOp(ctx, ctx.node.op(), ctx.operands,
                 RankedTensorType::get({images.getDimSize(0), (*size)[0],
                                        (*size)[1], images.getDimSize(3)},
                                       element));
}

/// CropAndResize: the crop size, the boxes and their image indices must be
/// constants (the boxes become sampling tables at compile time); every box
/// is checked here, so the lowering can trust them.
static FailureOr<Value> importCropAndResize(NodeImportContext &ctx) {
  auto image = ctx.typeOf(0);
  if (image.getRank() != 4)
    return ctx.error("image must have rank 4 (NHWC), got " +
                     typeString(image));
  DenseElementsAttr boxes = constantElements(ctx.operands[1]);
  auto boxesType = ctx.typeOf(1);
  if (!boxes)
    return ctx.error("the boxes (input 1) must be a constant; computed boxes "
                     "are not supported yet");
  if (boxesType.getRank() != 2 || boxesType.getDimSize(1) != 4 ||
      !boxesType.getElementType().isF32())
    return ctx.error("boxes must be float32 [num_boxes, 4], got " +
                     typeString(boxesType));
  auto boxInd = constantInts(ctx, 2, "box_ind");
  if (failed(boxInd))
    return failure();
  int64_t numBoxes = boxesType.getDimSize(0);
  if (int64_t(boxInd->size()) != numBoxes)
    return ctx.error(llvm::formatv("box_ind has {0} values for {1} boxes",
                                   boxInd->size(), numBoxes)
                         .str());
  for (auto [i, b] : llvm::enumerate(*boxInd))
    if (b < 0 || b >= image.getDimSize(0))
      return ctx.error(llvm::formatv("box_ind[{0}] = {1} is not an image of "
                                     "the batch of {2}",
                                     i, b, image.getDimSize(0))
                           .str());
  for (float v : boxes.getValues<float>())
    if (!std::isfinite(v))
      return ctx.error("boxes must be finite numbers");
  auto size = constantInts(ctx, 3, "crop_size");
  if (failed(size))
    return failure();
  if (size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
    return ctx.error("crop_size must hold two positive numbers");
  const tensorflow::AttrValue *method = ctx.attr("method");
  if (method && method->s() != "bilinear" && method->s() != "nearest")
    return ctx.error("method must be \"bilinear\" or \"nearest\", got \"" +
                     method->s() + "\"");
  return buildOp(ctx, "CropAndResize", ctx.operands,
                 RankedTensorType::get({numBoxes, (*size)[0], (*size)[1],
                                        image.getDimSize(3)},
                                       ctx.builder.getF32Type()));
}

/// Shape, Size and Rank of a static tensor are constants.
static FailureOr<Value> importShapeQuery(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  const tensorflow::AttrValue *outType = ctx.attr("out_type");
  Type element = convertDataType(outType ? outType->type() : tensorflow::DT_INT32,
                                 ctx.builder.getContext());
  if (!element || !element.isSignlessInteger())
    return ctx.error("out_type must be int32 or int64");
  StringRef op = ctx.node.op();
  SmallVector<int64_t> values =
      op == "Shape"  ? SmallVector<int64_t>(input.getShape())
      : op == "Size" ? SmallVector<int64_t>{input.getNumElements()}
                     : SmallVector<int64_t>{input.getRank()};
  SmallVector<int64_t> shape;
  if (op == "Shape")
    shape.push_back(input.getRank());
  SmallVector<APInt> ints;
  unsigned width = element.getIntOrFloatBitWidth();
  for (int64_t v : values) {
    // As TensorFlow does: an int32 result cannot hold a larger size.
    if (!llvm::isIntN(width, v))
      return ctx.error(llvm::formatv("{0} {1} does not fit out_type int{2}; "
                                     "use out_type int64",
                                     op == "Shape" ? "dimension" : "value", v,
                                     width));
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  }
  return buildConst(ctx, DenseElementsAttr::get(
                             RankedTensorType::get(shape, element), ints));
}

/// Pack (tf.stack): each input gains a size-1 axis, then they concatenate.
static FailureOr<Value> importPack(NodeImportContext &ctx) {
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
static FailureOr<Value> importSplit(NodeImportContext &ctx) {
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
static FailureOr<Value> importSplitV(NodeImportContext &ctx) {
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
static FailureOr<Value> importUnpack(NodeImportContext &ctx) {
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

/// Tile: the multiples are constant, so the result is a ConcatV2 of copies
/// along each tiled axis.
static constexpr int64_t kMaxTileMultiple = 65536;
static FailureOr<Value> importTile(NodeImportContext &ctx) {
  auto multiples = constantInts(ctx, 1, "the multiples");
  if (failed(multiples))
    return failure();
  Value value = ctx.operands[0];
  auto input = ctx.typeOf(0);
  if ((int64_t)multiples->size() != input.getRank())
    return ctx.error("multiples must have one entry per input dimension");
  for (auto [axis, m] : llvm::enumerate(*multiples)) {
    if (m < 0)
      return ctx.error("multiples must not be negative");
    // Tile becomes a ConcatV2 of m copies: bound m before building them.
    if (m > kMaxTileMultiple)
      return ctx.error(llvm::formatv("multiple {0} of axis {1} is larger "
                                     "than tfaot supports ({2})",
                                     m, axis, kMaxTileMultiple));
    if (m == 1)
      continue;
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] *= m;
    SmallVector<Value> copies(m, value);
    copies.push_back(buildI64Const(ctx, {int64_t(axis)}, {}));
    value = buildOpWithAttrs(ctx, "ConcatV2", copies,
                             RankedTensorType::get(shape, type.getElementType()),
                             {});
  }
  return value;
}

static FailureOr<Value> importGatherV2(NodeImportContext &ctx) {
  auto axisValues = constantInts(ctx, 2, "the axis");
  if (failed(axisValues))
    return failure();
  const tensorflow::AttrValue *batchDims = ctx.attr("batch_dims");
  if (batchDims && batchDims->i() != 0)
    return ctx.error("batch_dims other than 0 is not supported yet");
  auto params = ctx.typeOf(0), indices = ctx.typeOf(1);
  FailureOr<int64_t> axis =
      normalizeAxis(ctx, (*axisValues)[0], params.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(params.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, params.getShape().drop_front(*axis + 1));
  return buildOp(ctx, "GatherV2", ctx.operands,
                 RankedTensorType::get(shape, params.getElementType()));
}

static FailureOr<Value> importGatherNd(NodeImportContext &ctx) {
  auto params = ctx.typeOf(0), indices = ctx.typeOf(1);
  if (indices.getRank() < 1)
    return ctx.error("indices must have rank >= 1");
  int64_t k = indices.getShape().back();
  if (k > params.getRank())
    return ctx.error("index tuples are longer than the params' rank");
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, params.getShape().drop_front(k));
  return buildOp(ctx, "GatherNd", ctx.operands,
                 RankedTensorType::get(shape, params.getElementType()));
}

static FailureOr<Value> importBatchMatMul(NodeImportContext &ctx) {
  auto x = ctx.typeOf(0), y = ctx.typeOf(1);
  if (x.getRank() < 2 || y.getRank() < 2)
    return ctx.error("inputs must have rank >= 2");
  auto flag = [&](const char *name) {
    const tensorflow::AttrValue *v = ctx.attr(name);
    return v && v->b();
  };
  SmallVector<int64_t> batch;
  if (failed(mlir::tfaot::broadcastShapes(x.getShape().drop_back(2),
                                          y.getShape().drop_back(2), batch)))
    return ctx.error("batch dimensions of " + typeString(x) + " and " +
                     typeString(y) + " do not broadcast");
  int64_t m = x.getDimSize(x.getRank() - (flag("adj_x") ? 1 : 2));
  int64_t kx = x.getDimSize(x.getRank() - (flag("adj_x") ? 2 : 1));
  int64_t ky = y.getDimSize(y.getRank() - (flag("adj_y") ? 1 : 2));
  int64_t n = y.getDimSize(y.getRank() - (flag("adj_y") ? 2 : 1));
  if (kx != ky)
    return ctx.error(llvm::formatv("inner dimensions differ: {0} and {1}", kx, ky));
  batch.push_back(m);
  batch.push_back(n);
  return buildOp(ctx, "BatchMatMulV2", ctx.operands,
                 RankedTensorType::get(batch, x.getElementType()));
}

/// Fill (dims, value): a constant when the value is one, else a broadcast
/// of the value (an AddV2 with a zero tensor of the target shape).
static FailureOr<Value> importFill(NodeImportContext &ctx) {
  auto dims = constantInts(ctx, 0, "the dims");
  if (failed(dims))
    return failure();
  auto valueType = ctx.typeOf(1);
  if (valueType.getNumElements() != 1)
    return ctx.error("the value must be a scalar");
  auto type = RankedTensorType::get(*dims, valueType.getElementType());
  if (auto constant = constantElements(ctx.operands[1]))
    return buildConst(ctx, DenseElementsAttr::get(
                               type, *constant.getValues<Attribute>().begin()));
  Value zeros = buildConst(ctx, DenseElementsAttr::get(
                                    type, ctx.builder.getZeroAttr(
                                              valueType.getElementType())));
  return buildOpWithAttrs(ctx, "AddV2", {zeros, ctx.operands[1]}, type, {});
}

/// Range (start, limit, delta), all constants: a constant vector.
static FailureOr<Value> importRange(NodeImportContext &ctx) {
  SmallVector<double> v;
  for (unsigned i = 0; i < 3; ++i) {
    DenseElementsAttr c = constantElements(ctx.operands[i]);
    if (!c || c.getNumElements() != 1)
      return ctx.error("start, limit and delta must be constant scalars");
    Attribute a = *c.getValues<Attribute>().begin();
    v.push_back(isa<FloatAttr>(a) ? cast<FloatAttr>(a).getValueAsDouble()
                                  : double(cast<IntegerAttr>(a).getInt()));
  }
  if (v[2] == 0)
    return ctx.error("delta must not be 0");
  int64_t count = std::max<int64_t>(0, (int64_t)std::ceil((v[1] - v[0]) / v[2]));
  Type element = ctx.typeOf(0).getElementType();
  auto type = RankedTensorType::get({count}, element);
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < count; ++i) {
    double x = v[0] + i * v[2];
    values.push_back(isa<FloatType>(element)
                         ? (Attribute)ctx.builder.getFloatAttr(element, x)
                         : (Attribute)ctx.builder.getIntegerAttr(element, int64_t(x)));
  }
  return buildConst(ctx, DenseElementsAttr::get(type, values));
}

/// SparseToDense with constant operands (what graphs use it for: building
/// masks and index maps) is evaluated at import into a constant.
static FailureOr<Value> importSparseToDense(NodeImportContext &ctx) {
  DenseElementsAttr indices = constantElements(ctx.operands[0]);
  auto shape = constantInts(ctx, 1, "output_shape");
  DenseElementsAttr values = constantElements(ctx.operands[2]);
  DenseElementsAttr fill = constantElements(ctx.operands[3]);
  if (failed(shape))
    return failure();
  if (!indices || !values || !fill)
    return ctx.error("sparse_indices, sparse_values and default_value must be "
                     "constants; computed sparse tensors are not supported");
  int64_t rank = shape->size(), total = 1;
  for (int64_t d : *shape)
    total *= d;
  SmallVector<int64_t> flatIndices;
  for (const APInt &v : indices.getValues<APInt>())
    flatIndices.push_back(v.getSExtValue());
  int64_t n = rank == 0 ? 0 : int64_t(flatIndices.size()) / std::max<int64_t>(rank, 1);
  auto type = cast<RankedTensorType>(values.getType());
  SmallVector<Attribute> dense(total, *fill.getValues<Attribute>().begin());
  SmallVector<Attribute> given(values.getValues<Attribute>());
  for (int64_t i = 0; i < n; ++i) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t index = flatIndices[i * rank + d];
      if (index < 0 || index >= (*shape)[d])
        return ctx.error(llvm::formatv("sparse index {0} is out of bounds for "
                                       "dimension {1} of size {2}",
                                       index, d, (*shape)[d]));
      flat = flat * (*shape)[d] + index;
    }
    dense[flat] = given[given.size() == 1 ? 0 : i];
  }
  return buildConst(ctx, DenseElementsAttr::get(
                             RankedTensorType::get(*shape, type.getElementType()),
                             dense));
}

/// ZerosLike / OnesLike of a static tensor are constants.
static FailureOr<Value> importFillLike(NodeImportContext &ctx) {
  auto type = ctx.typeOf(0);
  Type element = type.getElementType();
  double one = ctx.node.op() == "OnesLike" ? 1 : 0;
  Attribute value = isa<FloatType>(element)
                        ? (Attribute)ctx.builder.getFloatAttr(element, one)
                        : (Attribute)ctx.builder.getIntegerAttr(element, int64_t(one));
  return buildConst(ctx, DenseElementsAttr::get(type, value));
}

//===----------------------------------------------------------------------===//
// Convolutions and pools
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> listAttr(NodeImportContext &ctx, const char *name,
                                     SmallVector<int64_t> fallback) {
  const tensorflow::AttrValue *v = ctx.attr(name);
  if (!v || v->list().i_size() == 0)
    return fallback;
  return SmallVector<int64_t>(v->list().i().begin(), v->list().i().end());
}

std::string(::tfaot::stringAttr)(NodeImportContext &ctx, const char *name,
                                const char *fallback) {
  const tensorflow::AttrValue *v = ctx.attr(name);
  return v ? v->s() : fallback;
}

int64_t(::tfaot::intAttr)(NodeImportContext &ctx, const char *name,
                         int64_t fallback) {
  const tensorflow::AttrValue *v = ctx.attr(name);
  return v ? v->i() : fallback;
}

FailureOr<Type>(::tfaot::windowType)(NodeImportContext &ctx, Value input,
                                     int64_t windowH, int64_t windowW,
                                     int64_t outChannels) {
  auto type = cast<RankedTensorType>(input.getType());
  std::string why;
  auto window = mlir::tfaot::computeWindow2D(
      type.getShape(), stringAttr(ctx, "data_format", "NHWC"), windowH,
      windowW, listAttr(ctx, "strides", {}),
      listAttr(ctx, "dilations", {1, 1, 1, 1}),
      stringAttr(ctx, "padding", ""), listAttr(ctx, "explicit_paddings", {}),
      outChannels, why);
  if (failed(window)) {
    (void)ctx.error(why);
    return failure();
  }
  return Type(RankedTensorType::get(window->outputShape, type.getElementType()));
}

FailureOr<Value>(::tfaot::buildConvolution)(NodeImportContext &ctx,
                                            StringRef opName, Value input,
                                            Value filter) {
  auto filterType = cast<RankedTensorType>(filter.getType());
  if (filterType.getRank() != 4)
    return ctx.error("filter must have rank 4, got " + typeString(filterType));
  bool depthwise = opName == "DepthwiseConv2dNative";
  int64_t outChannels = depthwise
                            ? filterType.getDimSize(2) * filterType.getDimSize(3)
                            : filterType.getDimSize(3);
  FailureOr<Type> type = windowType(ctx, input, filterType.getDimSize(0),
                                    filterType.getDimSize(1), outChannels);
  if (failed(type))
    return failure();
  return buildOp(ctx, opName, {input, filter}, *type);
}

static FailureOr<Value> importConvolution(NodeImportContext &ctx) {
  return buildConvolution(ctx, ctx.node.op(), ctx.operands[0],
                          ctx.operands[1]);
}

FailureOr<Value>(::tfaot::buildPool)(NodeImportContext &ctx, StringRef opName,
                                     Value input) {
  auto ksize = listAttr(ctx, "ksize", {});
  std::string format = stringAttr(ctx, "data_format", "NHWC");
  if (ksize.size() != 4)
    return ctx.error("ksize must have 4 elements");
  int64_t h = format == "NCHW" ? 2 : 1;
  auto inputType = cast<RankedTensorType>(input.getType());
  FailureOr<Type> type = windowType(
      ctx, input, ksize[h], ksize[h + 1],
      inputType.getRank() == 4
          ? inputType.getDimSize(format == "NCHW" ? 1 : 3)
          : 0);
  if (failed(type))
    return failure();
  return buildOp(ctx, opName, {input}, *type);
}

static FailureOr<Value> importPool(NodeImportContext &ctx) {
  return buildPool(ctx, ctx.node.op(), ctx.operands[0]);
}

/// DepthToSpace (NHWC): a reshape to [N, H, W, b, b, C'], a transpose that
/// interleaves the blocks with H and W, and a reshape to [N, H*b, W*b, C'].
static FailureOr<Value> importDepthToSpace(NodeImportContext &ctx) {
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

/// Conv2DBackpropInput (a transposed convolution), as a stride-1 VALID
/// convolution of the zero-dilated, padded gradient with the spatially
/// flipped filter whose channel dimensions are swapped. The dilation is a
/// reshape + pad (each pixel followed by stride-1 zeros) + slice.
static FailureOr<Value> importConv2DBackpropInput(NodeImportContext &ctx) {
  auto sizes = constantInts(ctx, 0, "input_sizes");
  if (failed(sizes))
    return failure();
  DenseElementsAttr filter = constantElements(ctx.operands[1]);
  if (!filter || !filter.getElementType().isF32())
    return ctx.error("the filter must be a float32 constant");
  if (stringAttr(ctx, "data_format", "NHWC") != "NHWC")
    return ctx.error("only NHWC is supported");
  std::string padding = stringAttr(ctx, "padding", "");
  if (padding != "SAME" && padding != "VALID")
    return ctx.error("padding must be SAME or VALID, got \"" + padding + "\"");
  auto strides = listAttr(ctx, "strides", {1, 1, 1, 1});
  auto dilations = listAttr(ctx, "dilations", {1, 1, 1, 1});
  if (strides.size() != 4 || llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return ctx.error("needs 4 strides and no dilation");
  auto x = ctx.typeOf(2);
  auto filterType = cast<RankedTensorType>(filter.getType());
  if (sizes->size() != 4 || x.getRank() != 4 || filterType.getRank() != 4)
    return ctx.error("needs rank-4 input_sizes, filter and out_backprop");
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  int64_t cOut = filterType.getDimSize(2), cIn = filterType.getDimSize(3);
  if (cIn != x.getDimSize(3) || (*sizes)[3] != cOut)
    return ctx.error("filter channels do not match out_backprop and "
                     "input_sizes");
  int64_t n = x.getDimSize(0), ih = x.getDimSize(1), iw = x.getDimSize(2);
  int64_t oh = (*sizes)[1], ow = (*sizes)[2], sh = strides[1], sw = strides[2];
  Type f32 = ctx.builder.getF32Type();

  // 1. Dilate: [N, ih, 1, iw, 1, C] padded to [N, ih, sh, iw, sw, C],
  //    reshaped to [N, ih*sh, iw*sw, C], trailing zeros sliced off.
  Value value = ctx.operands[2];
  if (sh > 1 || sw > 1) {
    value = buildReshape(ctx, value, {n, ih, 1, iw, 1, cIn});
    Value pads = buildI64Const(ctx, {0, 0, 0, 0, 0, sh - 1, 0, 0, 0, sw - 1, 0, 0},
                               {6, 2});
    value = buildOp(ctx, "Pad", {value, pads, buildScalar(ctx, f32, 0)},
                    RankedTensorType::get({n, ih, sh, iw, sw, cIn}, f32));
    value = buildReshape(ctx, value, {n, ih * sh, iw * sw, cIn});
    int64_t dh = (ih - 1) * sh + 1, dw = (iw - 1) * sw + 1;
    Value begin = buildI64Const(ctx, {0, 0, 0, 0}, {4});
    Value end = buildI64Const(ctx, {n, dh, dw, cIn}, {4});
    Value step = buildI64Const(ctx, {1, 1, 1, 1}, {4});
    value = buildOpWithAttrs(ctx, "StridedSlice", {value, begin, end, step},
                             RankedTensorType::get({n, dh, dw, cIn}, f32), {});
  }
  // 2. Pad so that a VALID kernel-sized window yields the forward input
  //    size: k - 1 - (forward padding before) in front, the rest behind.
  auto sidePads = [&](int64_t in, int64_t out, int64_t k, int64_t s,
                      int64_t &before, int64_t &after) {
    int64_t forward = 0;
    if (padding == "SAME")
      forward = std::max<int64_t>((in - 1) * s + k - out, 0) / 2;
    before = k - 1 - forward;
    after = out + k - 1 - ((in - 1) * s + 1) - before;
  };
  int64_t top, bottom, left, right;
  sidePads(ih, oh, kh, sh, top, bottom);
  sidePads(iw, ow, kw, sw, left, right);
  if (top < 0 || bottom < 0 || left < 0 || right < 0)
    return ctx.error("input_sizes are inconsistent with the gradient's shape");
  int64_t ph = (ih - 1) * sh + 1 + top + bottom;
  int64_t pw = (iw - 1) * sw + 1 + left + right;
  Value pads = buildI64Const(ctx, {0, 0, top, bottom, left, right, 0, 0}, {4, 2});
  value = buildOp(ctx, "Pad", {value, pads, buildScalar(ctx, f32, 0)},
                  RankedTensorType::get({n, ph, pw, cIn}, f32));
  // 3. The flipped, channel-swapped filter, computed now.
  SmallVector<float> original(filter.getValues<float>());
  SmallVector<float> flipped(original.size());
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j)
      for (int64_t a = 0; a < cIn; ++a)
        for (int64_t b = 0; b < cOut; ++b)
          flipped[((i * kw + j) * cIn + a) * cOut + b] =
              original[(((kh - 1 - i) * kw + (kw - 1 - j)) * cOut + b) * cIn + a];
  Value kernel = buildConst(
      ctx, DenseElementsAttr::get(RankedTensorType::get({kh, kw, cIn, cOut}, f32),
                                  ArrayRef<float>(flipped)));
  Builder &b = ctx.builder;
  return buildOpWithAttrs(
      ctx, "Conv2D", {value, kernel},
      RankedTensorType::get({n, oh, ow, cOut}, f32),
      {b.getNamedAttr("strides", b.getI64ArrayAttr({1, 1, 1, 1})),
       b.getNamedAttr("padding", b.getStringAttr("VALID"))});
}

//===----------------------------------------------------------------------===//
// TF's fused ops, expanded
//===----------------------------------------------------------------------===//

/// Applies `fused_ops` after the contraction result `value`, consuming the
/// node's extra inputs (`args`) in order.
static FailureOr<Value> applyFusedOps(NodeImportContext &ctx, Value value,
                                      ArrayRef<Value> args) {
  const tensorflow::AttrValue *fused = ctx.attr("fused_ops");
  if (!fused)
    return value;
  size_t nextArg = 0;
  auto takeArg = [&](StringRef what) -> FailureOr<Value> {
    if (nextArg >= args.size()) {
      (void)ctx.error("fused op " + what + " has no input left (num_args is " +
                      llvm::Twine(args.size()) + ")");
      return failure();
    }
    return args[nextArg++];
  };
  for (const std::string &op : fused->list().s()) {
    if (op == "BiasAdd") {
      FailureOr<Value> bias = takeArg(op);
      if (failed(bias))
        return failure();
      value = buildOp(ctx, "BiasAdd", {value, *bias}, value.getType());
    } else if (op == "Add") {
      FailureOr<Value> other = takeArg(op);
      if (failed(other))
        return failure();
      FailureOr<Value> sum = buildBinary(ctx, "AddV2", value, *other);
      if (failed(sum))
        return failure();
      value = *sum;
    } else if (op == "Relu" || op == "Relu6" || op == "Elu" ||
               op == "Sigmoid" || op == "Tanh") {
      value = buildOp(ctx, op, {value}, value.getType());
    } else if (op == "LeakyRelu") {
      const tensorflow::AttrValue *alpha = ctx.attr("leakyrelu_alpha");
      std::string name = "tfaot.LeakyRelu";
      OperationState state(ctx.loc, name);
      state.addOperands(value);
      state.addTypes(value.getType());
      state.addAttribute("alpha",
                         ctx.builder.getF32FloatAttr(alpha ? alpha->f() : 0.2f));
      value = ctx.builder.create(state)->getResult(0);
    } else if (op == "Prelu") {
      FailureOr<Value> alpha = takeArg(op);
      if (failed(alpha))
        return failure();
      value = buildOp(ctx, "Prelu", {value, *alpha}, value.getType());
    } else if (op == "FusedBatchNorm") {
      // The standalone op's semantics (inference, either data format), on
      // the contraction's result; the node's data_format and epsilon apply.
      SmallVector<Value> params;
      for (const char *name : {"scale", "offset", "mean", "variance"}) {
        FailureOr<Value> p = takeArg(name);
        if (failed(p))
          return failure();
        params.push_back(*p);
      }
      const tensorflow::AttrValue *eps = ctx.attr("epsilon");
      FailureOr<Value> normalized =
          buildBatchNorm(ctx, value, params, stringAttr(ctx, "data_format", "NHWC"),
                         eps ? eps->f() : 1e-4f);
      if (failed(normalized))
        return failure();
      value = *normalized;
    } else {
      return ctx.error("fused op '" + op + "' is not supported");
    }
  }
  return value;
}

/// _FusedConv2D, FusedDepthwiseConv2dNative: (input, filter, args...).
static FailureOr<Value> importFusedConvolution(NodeImportContext &ctx) {
  StringRef base = ctx.node.op() == "_FusedConv2D" ? "Conv2D"
                                                    : "DepthwiseConv2dNative";
  FailureOr<Value> conv =
      buildConvolution(ctx, base, ctx.operands[0], ctx.operands[1]);
  if (failed(conv))
    return failure();
  return applyFusedOps(ctx, *conv, ctx.operands.drop_front(2));
}

/// _FusedMatMul: (a, b, args...).
static FailureOr<Value> importFusedMatMul(NodeImportContext &ctx) {
  FailureOr<Value> product =
      buildMatMul(ctx, ctx.operands[0], ctx.operands[1]);
  if (failed(product))
    return failure();
  return applyFusedOps(ctx, *product, ctx.operands.drop_front(2));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

static const llvm::StringMap<OpSpec> &opTable() {
  static const llvm::StringMap<OpSpec> table = {
      {"Const", {importConst, 0, "", 0}},
      {"Placeholder", {nullptr, 0, "", 0}},
      {"Identity", {importSameType, 1, "T", 1}},
      {"PlaceholderWithDefault", {importPassThrough, 1, "dtype", 1}},
      {"StopGradient", {importPassThrough, 1, "T", 1}},
      // Elementwise.
      {"Add", {importBinary, 2, "T", 2}},
      {"AddV2", {importBinary, 2, "T", 2}},
      {"Sub", {importBinary, 2, "T", 2}},
      {"Mul", {importBinary, 2, "T", 2}},
      {"RealDiv", {importBinary, 2, "T", 2}},
      {"Maximum", {importBinary, 2, "T", 2}},
      {"Minimum", {importBinary, 2, "T", 2}},
      {"SquaredDifference", {importBinary, 2, "T", 2}},
      {"FloorDiv", {importBinary, 2, "T", 2}},
      {"FloorMod", {importBinary, 2, "T", 2}},
      {"Pow", {importBinary, 2, "T", 2}},
      {"Greater", {importPredicate, 2, "T", 2}},
      {"GreaterEqual", {importPredicate, 2, "T", 2}},
      {"Less", {importPredicate, 2, "T", 2}},
      {"LessEqual", {importPredicate, 2, "T", 2}},
      {"Equal", {importPredicate, 2, "T", 2}},
      {"NotEqual", {importPredicate, 2, "T", 2}},
      {"LogicalAnd", {importPredicate, 2, "", 0}},
      {"LogicalOr", {importPredicate, 2, "", 0}},
      {"LogicalNot", {importSameType, 1, "", 0}},
      {"Select", {importSelect, 3, "T", 0}},
      {"SelectV2", {importSelect, 3, "T", 0}},
      {"Softplus", {importSameType, 1, "T", 1}},
      {"Selu", {importSameType, 1, "T", 1}},
      {"Round", {importSameType, 1, "T", 1}},
      {"Prelu", {importSameType, 2, "T", 2}},
      {"AddN", {importAddN, -1, "T", -1}},
      {"Relu", {importSameType, 1, "T", 1}},
      {"Relu6", {importSameType, 1, "T", 1}},
      {"Elu", {importSameType, 1, "T", 1}},
      {"LeakyRelu", {importSameType, 1, "T", 1}},
      {"Sigmoid", {importSameType, 1, "T", 1}},
      {"Tanh", {importSameType, 1, "T", 1}},
      {"Exp", {importSameType, 1, "T", 1}},
      {"Log", {importSameType, 1, "T", 1}},
      {"Sqrt", {importSameType, 1, "T", 1}},
      {"Rsqrt", {importSameType, 1, "T", 1}},
      {"Reciprocal", {importSameType, 1, "T", 1}},
      {"Floor", {importSameType, 1, "T", 1}},
      {"Neg", {importSameType, 1, "T", 1}},
      {"Abs", {importSameType, 1, "T", 1}},
      {"Square", {importSameType, 1, "T", 1}},
      {"Softmax", {importSameType, 1, "T", 1}},
      {"Cast", {importCast, 1, "SrcT", 1}},
      {"Dequantize", {importDequantize, 3, "", 0}},
      // TF's quantized kernels (ImportQuantizedOps.cpp); each quantized
      // tensor comes with its float range as two scalar inputs/outputs.
      {"QuantizeV2", {importQuantizeV2, 3, "", 0}},
      {"QuantizedConv2D", {importQuantizedContraction, 6, "", 0}},
      {"QuantizedMatMul", {importQuantizedContraction, 6, "", 0}},
      {"RequantizationRange", {importRequantizationRange, 3, "", 0}},
      {"Requantize", {importRequantize, 5, "", 0}},
      {"QuantizedRelu", {importQuantizedRelu, 3, "", 0}},
      {"QuantizedRelu6", {importQuantizedRelu, 3, "", 0}},
      {"QuantizedReshape", {importQuantizedReshape, 4, "", 0}},
      {"QuantizedMaxPool", {importQuantizedMaxPool, 3, "", 0}},
      {"QuantizedAdd", {importQuantizedAdd, 6, "", 0}},
      // Contractions, convolutions, pools.
      {"MatMul", {importMatMul, 2, "T", 2}},
      {"_FusedMatMul", {importFusedMatMul, -1, "T", -1}},
      {"BiasAdd", {importSameType, 2, "T", 2}},
      {"Conv2D", {importConvolution, 2, "T", 2}},
      {"DepthwiseConv2dNative", {importConvolution, 2, "T", 2}},
      {"_FusedConv2D", {importFusedConvolution, -1, "T", -1}},
      {"Conv2DBackpropInput", {importConv2DBackpropInput, 3, "T", 0}},
      {"DepthToSpace", {importDepthToSpace, 1, "T", 1}},
      {"FusedDepthwiseConv2dNative", {importFusedConvolution, -1, "T", -1}},
      {"MaxPool", {importPool, 1, "T", 1}},
      {"AvgPool", {importPool, 1, "T", 1}},
      // Shapes.
      {"Reshape", {importReshape, 2, "T", 1}},
      {"ExpandDims", {importExpandDims, 2, "T", 1}},
      {"Squeeze", {importSqueeze, 1, "T", 1}},
      {"Transpose", {importTranspose, 2, "T", 1}},
      {"Pad", {importPad, 2, "T", 1}},
      {"PadV2", {importPad, 3, "T", 1}},
      {"ConcatV2", {importConcat, -1, "T", -2}},
      {"Pack", {importPack, -1, "T", -1}},
      {"Split", {importSplit, 2, "", 0}},
      {"SplitV", {importSplitV, 3, "T", 1}},
      {"Unpack", {importUnpack, 1, "T", 1}},
      {"Tile", {importTile, 2, "T", 1}},
      {"Fill", {importFill, 2, "T", 0}},
      {"SparseToDense", {importSparseToDense, 4, "T", 0}},
      {"Range", {importRange, 3, "Tidx", 3}},
      {"Sin", {importSameType, 1, "T", 1}},
      {"Erf", {importSameType, 1, "T", 1}},
      {"Cos", {importSameType, 1, "T", 1}},
      {"Atan2", {importBinary, 2, "T", 2}},
      {"GatherV2", {importGatherV2, 3, "Tparams", 1}},
      {"GatherNd", {importGatherNd, 2, "Tparams", 1}},
      {"BatchMatMulV2", {importBatchMatMul, 2, "T", 2}},
      {"BatchMatMul", {importBatchMatMul, 2, "T", 2}},
      {"ZerosLike", {importFillLike, 1, "T", 1}},
      {"OnesLike", {importFillLike, 1, "T", 1}},
      {"StridedSlice", {importStridedSlice, 4, "T", 1}},
      {"Shape", {importShapeQuery, 1, "T", 1}},
      {"ResizeBilinear", {importResize, 2, "T", 1}},
      {"ResizeNearestNeighbor", {importResize, 2, "T", 1}},
      {"CropAndResize", {importCropAndResize, 4, "T", 1}},
      {"Size", {importShapeQuery, 1, "T", 1}},
      {"Rank", {importShapeQuery, 1, "T", 1}},
      // Reductions.
      {"ArgMax", {importArgMax, 2, "T", 1}},
      {"Mean", {importReduction, 2, "T", 1}},
      {"Sum", {importReduction, 2, "T", 1}},
      {"Max", {importReduction, 2, "T", 1}},
      {"Min", {importReduction, 2, "T", 1}},
      {"Prod", {importReduction, 2, "T", 1}},
      {"Any", {importReduction, 2, "", 0}},
      {"All", {importReduction, 2, "", 0}},
      // Image decoding (ImportImageOps.cpp); contents is a string.
      {"DecodeJpeg", {importDecodeJpeg, 1, "", 0}},
      {"DecodeAndCropJpeg", {importDecodeAndCropJpeg, 2, "", 0}},
      // Data movement (ImportDataMovementOps.cpp).
      {"Slice", {importSlice, 3, "T", 1}},
      {"MirrorPad", {importMirrorPad, 2, "T", 1}},
      {"BroadcastTo", {importBroadcastTo, 2, "T", 1}},
      {"OneHot", {importOneHot, 4, "", 0}},
      {"SpaceToBatchND", {importSpaceToBatchND, 3, "T", 1}},
      {"BatchToSpaceND", {importBatchToSpaceND, 3, "T", 1}},
      {"TopKV2", {importTopKV2, 2, "T", 1}},
      // Math (ImportMathOps.cpp).
      {"Ceil", {importSameType, 1, "T", 1}},
      {"FusedBatchNorm", {importFusedBatchNorm, 5, "T", 1}},
      {"FusedBatchNormV2", {importFusedBatchNorm, 5, "T", 1}},
      {"FusedBatchNormV3", {importFusedBatchNorm, 5, "T", 1}},
      {"RandomUniform", {importRandomUniform, 1, "", 0}},
      {"Einsum", {importEinsum, -1, "T", -1}},
  };
  return table;
}

const OpSpec *(::tfaot::lookupOpSpec)(llvm::StringRef op) {
  auto it = opTable().find(op);
  return it == opTable().end() ? nullptr : &it->second;
}

std::vector<std::string> (::tfaot::supportedOps)() {
  std::vector<std::string> ops;
  for (const auto &entry : opTable())
    ops.push_back(entry.getKey().str());
  std::sort(ops.begin(), ops.end());
  return ops;
}

std::optional<int64_t> (::tfaot::numOutputsOf)(const tensorflow::NodeDef &node) {
  auto intAttr = [&](const char *name) -> std::optional<int64_t> {
    auto it = node.attr().find(name);
    if (it == node.attr().end())
      return std::nullopt;
    return it->second.i();
  };
  if (node.op() == "Split" || node.op() == "SplitV")
    return intAttr("num_split");
  if (node.op() == "Unpack")
    return intAttr("num");
  // Ops with several outputs of which tfaot computes only some (the
  // importer reports a use of the others) are counted in full here, so that
  // edge checks accept the graph.
  static const llvm::StringMap<int64_t> fixed = {
      {"Switch", 2}, {"RefSwitch", 2}, {"Merge", 2}, {"RefMerge", 2},
      {"Enter", 1}, {"Exit", 1}, {"NextIteration", 1}, {"LoopCond", 1},
      {"TopKV2", 2}, {"Unique", 2}, {"FusedBatchNorm", 5},
      {"FusedBatchNormV2", 5}, {"FusedBatchNormV3", 6},
      {"NonMaxSuppressionV4", 2}, {"NonMaxSuppressionV5", 3},
      {"PlaceholderWithDefault", 1}, {"Shape", 1}, {"Pack", 1},
      {"StridedSlice", 1}, {"Slice", 1},
      {"QuantizeV2", 3}, {"QuantizedConv2D", 3}, {"QuantizedMatMul", 3},
      {"RequantizationRange", 2}, {"Requantize", 3}, {"QuantizedRelu", 3},
      {"QuantizedRelu6", 3}, {"QuantizedReshape", 3}, {"QuantizedMaxPool", 3},
      {"QuantizedAdd", 3}};
  if (auto it = fixed.find(node.op()); it != fixed.end())
    return it->second;
  if (lookupOpSpec(node.op()))
    return 1;
  if (node.op() == "Split" || node.op() == "SplitV")
    return intAttr("num_split");
  if (node.op() == "Unpack")
    return intAttr("num");
  return std::nullopt;
}
