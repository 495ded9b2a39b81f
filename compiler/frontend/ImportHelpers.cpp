//===- ImportHelpers.cpp - Building blocks shared by op importers ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// The functions ImportHelpers.h declares: building tfaot ops from a node
// (its attributes copied, its result type inferred), constants, reading
// constant operands and attributes. Every Import*Ops.cpp builds on them.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "ir/ConstantEval.h"
#include "ir/Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::getConstantIntValues;

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
FailureOr<Type>(::tfaot::broadcastType)(NodeImportContext &ctx, Value x,
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

/// What a demanded value that could not be evaluated depends on, for the
/// error: the feed, or the node of the op that stopped the evaluation.
static std::string describeBlocker(const mlir::tfaot::EvalFailure &failure) {
  Value blocker = failure.blocker;
  if (auto arg = dyn_cast<BlockArgument>(blocker)) {
    std::string feed = "#" + std::to_string(arg.getArgNumber());
    if (auto func = dyn_cast_or_null<func::FuncOp>(
            arg.getOwner()->getParentOp()))
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "tfaot.feed"))
        feed = name.str();
    return "it depends on the value of feed '" + feed +
           "', which is known only at run time; freeze it with "
           "--feed_value " + feed + "=VALUE";
  }
  Operation *op = blocker.getDefiningOp();
  std::string node = "?";
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    node = name.getName().str();
  std::string what = "it depends on node '" + node + "' (" +
                     op->getName().stripDialect().str() + ")";
  if (!failure.why.empty())
    return what + ", which cannot be evaluated at compile time: " +
           failure.why;
  return what + ", whose value tfaot computes only at run time";
}

DenseElementsAttr(::tfaot::demandConstant)(NodeImportContext &ctx,
                                          unsigned i, StringRef role) {
  if (DenseElementsAttr constant = constantElements(ctx.operands[i]))
    return constant;
  mlir::tfaot::EvalFailure failure;
  FailureOr<DenseElementsAttr> value =
      mlir::tfaot::evaluateConstant(ctx.operands[i], failure);
  if (failed(value)) {
    (void)ctx.error(role + " (input " + llvm::Twine(i) +
                    ") must be known at compile time, but " +
                    describeBlocker(failure));
    return nullptr;
  }
  ctx.operands[i] = buildConst(ctx, *value);
  return *value;
}

/// A constant integer operand as values, or an error naming its role.
FailureOr<SmallVector<int64_t>>(::tfaot::constantInts)(NodeImportContext &ctx,
                                                      unsigned i,
                                                      StringRef role) {
  DenseElementsAttr value = demandConstant(ctx, i, role);
  if (!value)
    return failure();
  auto values = getConstantIntValues(ctx.operands[i]);
  if (!values) {
    (void)ctx.error(role + " (input " + llvm::Twine(i) +
                    ") must hold integers, not " +
                    typeString(value.getElementType()));
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

FailureOr<int64_t>(::tfaot::constantAxis)(NodeImportContext &ctx,
                                          llvm::StringRef role) {
  auto values = constantInts(ctx, 1, role);
  if (failed(values))
    return failure();
  if (values->size() != 1) {
    (void)ctx.error(role + " must be a scalar");
    return failure();
  }
  return normalizeAxis(ctx, (*values)[0], ctx.typeOf(0).getRank());
}

FailureOr<SmallVector<bool>>(::tfaot::reducedAxes)(NodeImportContext &ctx) {
  auto axes = constantInts(ctx, 1, "the reduction indices");
  if (failed(axes))
    return failure();
  int64_t rank = ctx.typeOf(0).getRank();
  SmallVector<bool> reduced(rank, false);
  for (int64_t a : *axes) {
    FailureOr<int64_t> axis = normalizeAxis(ctx, a, rank);
    if (failed(axis))
      return failure();
    reduced[*axis] = true;
  }
  return reduced;
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
