//===- ImportQuantizedOps.cpp - TF's quantized ops and Dequantize ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Two kinds of quantized graph reach tfaot:
//
// * Weight-quantized graphs (TF's graph_transforms quantize_weights, as in
//   tf-poets' quantized MobileNet) store weights as quint8 constants with a
//   float range and turn them back into floats with Dequantize. tfaot folds
//   such a Dequantize into a float constant at import, computing what
//   TensorFlow's kernel computes (in double, rounded once to float).
//
// * Eight-bit graphs (TF's quantize_graph "eightbit" mode, as in uTensor's
//   test_quant_* graphs) run QuantizedConv2D, QuantizedMatMul, QuantizedAdd,
//   QuantizedRelu, ... on quint8 tensors. In TF each quantized tensor is
//   three outputs: the integers and two f32 scalars giving the float values
//   of the lowest and highest integer. The importers here keep that form
//   and build each op from a few tfaot ops (Quantize, Dequantize,
//   SubtractZeroPoint, RequantizationRange, Requantize) plus ordinary ones:
//   a QuantizedConv2D is an i32 Conv2D of the zero-point-offset inputs, and
//   its output range is float arithmetic on the input ranges, as TF's
//   QuantizationRangeForMultiplication does it. Ranges are computed at run
//   time wherever the graph computes them (RequantizationRange measures
//   the data).
//
// Quantized tensors are imported as their storage integers (quint8 as ui8,
// qint8 as i8, qint32 as i32), see convertDataType.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace mlir;
using namespace ::tfaot;

namespace {
using QuantizedRange = mlir::tfaot::QuantizedStorage;

/// The float TensorFlow's Dequantize kernel gives for stored value `q`.
/// MIN_COMBINED: (q + half) * (max - min) / (highest - lowest) + min, where
///   half is (highest - lowest + 1) / 2 for signed types (0 otherwise);
/// MIN_FIRST: (q - lowest) * s + round(min / float(s)) * float(s), with
///   s = (max - min) / (2^bits - 1): the range's minimum is snapped to a
///   multiple of the step so that 0.0 is exactly representable;
/// SCALED: q * f, f = max / highest for unsigned types, else the larger of
///   min / lowest' and max / highest, lowest' being lowest + 1 when
///   narrow_range.
double dequantize(double q, const QuantizedRange &r, llvm::StringRef mode,
                  bool narrowRange, double min, double max) {
  if (mode == "MIN_COMBINED") {
    double half = r.isSigned ? (r.highest - r.lowest + 1) / 2 : 0.0;
    return (q + half) * ((max - min) / (r.highest - r.lowest)) + min;
  }
  if (mode == "MIN_FIRST") {
    if (min == max)
      return min;
    double step = (max - min) / (std::ldexp(1.0, r.bits) - 1);
    double stepF = static_cast<float>(step);
    double minRounded = std::round(min / stepF) * stepF;
    return (q - r.lowest) * step + minRounded;
  }
  // SCALED
  double lowest = r.lowest + (narrowRange && r.isSigned ? 1 : 0);
  double factor = r.isSigned ? std::max(min / lowest, max / r.highest)
                             : max / r.highest;
  return q * factor;
}

/// Operand `i` as one constant float, or an error naming its role.
FailureOr<double> constantScalar(NodeImportContext &ctx, unsigned i,
                                 llvm::StringRef role) {
  DenseElementsAttr attr = constantElements(ctx.operands[i]);
  if (!attr || !isa<FloatType>(attr.getElementType()) ||
      attr.getNumElements() != 1)
    return ctx.error(role + " must be a constant float scalar (per-axis "
                            "ranges are not supported)");
  return (*attr.getValues<APFloat>().begin()).convertToDouble();
}

/// The storage types TF's eight-bit kernels take.
const tensorflow::DataType kEightBit[] = {tensorflow::DT_QUINT8,
                                          tensorflow::DT_QINT8};

/// A scalar f32 tensor type.
RankedTensorType scalarF32(NodeImportContext &ctx) {
  return RankedTensorType::get({}, ctx.builder.getF32Type());
}

/// Operand `i`, a float range bound, as a 0-d f32 tensor (TF reads element
/// 0 of any one-element tensor).
FailureOr<Value> rangeOperand(NodeImportContext &ctx, unsigned i,
                              llvm::StringRef role) {
  auto type = ctx.typeOf(i);
  if (!type.getElementType().isF32() || !type.hasStaticShape() ||
      type.getNumElements() != 1)
    return ctx.error(role + " must be a float scalar, got " +
                     typeString(type));
  if (type.getRank() == 0)
    return ctx.operands[i];
  return buildReshape(ctx, ctx.operands[i], {});
}

/// The ranges at operands [first, first + count), or failure.
FailureOr<SmallVector<Value>> rangeOperands(NodeImportContext &ctx,
                                            unsigned first,
                                            llvm::ArrayRef<const char *> roles) {
  SmallVector<Value> ranges;
  for (auto [k, role] : llvm::enumerate(roles)) {
    auto range = rangeOperand(ctx, first + k, role);
    if (failed(range))
      return failure();
    ranges.push_back(*range);
  }
  return ranges;
}

/// Scalar float arithmetic on range values, as tfaot ops.
Value scalarOp(NodeImportContext &ctx, llvm::StringRef op, Value x, Value y) {
  return buildOp(ctx, op, {x, y}, scalarF32(ctx));
}
Value scalarOp(NodeImportContext &ctx, llvm::StringRef op, Value x) {
  return buildOp(ctx, op, {x}, scalarF32(ctx));
}
Value f32Scalar(NodeImportContext &ctx, double v) {
  return buildScalar(ctx, ctx.builder.getF32Type(), v);
}

/// The storage type named by the node's type attribute `name`, checked to
/// be one of `allowed` (e.g. {DT_QUINT8}).
FailureOr<Type> quantizedTypeAttr(NodeImportContext &ctx, const char *name,
                                  tensorflow::DataType fallback,
                                  llvm::ArrayRef<tensorflow::DataType> allowed) {
  const tensorflow::AttrValue *attr = ctx.attr(name);
  tensorflow::DataType dtype = attr ? attr->type() : fallback;
  if (!llvm::is_contained(allowed, dtype)) {
    std::string names;
    for (tensorflow::DataType a : allowed)
      names += (names.empty() ? "" : " or ") + dataTypeName(a);
    return ctx.error(llvm::Twine(name) + " must be " + names + ", got " +
                     dataTypeName(dtype));
  }
  return convertDataType(dtype, ctx.builder.getContext());
}

/// Checks that operand `i` holds `type` elements (the node's type attribute
/// and the producer agree).
LogicalResult expectElements(NodeImportContext &ctx, unsigned i, Type type,
                             llvm::StringRef role) {
  if (ctx.typeOf(i).getElementType() == type)
    return success();
  return ctx.error(role + " has type " + typeString(ctx.typeOf(i)) +
                   ", but the node's attributes say " + typeString(type));
}

/// Dequantize of a tensor computed at run time (or with computed ranges).
FailureOr<Value> buildRuntimeDequantize(NodeImportContext &ctx,
                                        const std::string &mode) {
  if (mode == "SCALED")
    return ctx.error("SCALED dequantization of a computed tensor is not "
                     "supported (MIN_FIRST and MIN_COMBINED are)");
  auto ranges = rangeOperands(ctx, 1, {"min_range", "max_range"});
  if (failed(ranges))
    return failure();
  auto type = RankedTensorType::get(ctx.typeOf(0).getShape(),
                                    ctx.builder.getF32Type());
  return buildOpWithAttrs(
      ctx, "Dequantize", {ctx.operands[0], (*ranges)[0], (*ranges)[1]}, type,
      {ctx.builder.getNamedAttr("mode", ctx.builder.getStringAttr(mode))});
}

/// The integer a float constant `value` quantizes to in [min, max], as a
/// 0-d tensor of `storage` (QuantizedRelu's 0 and 6).
Value quantizedConstant(NodeImportContext &ctx, double value, Type storage,
                        Value min, Value max) {
  return buildOpWithAttrs(ctx, "Quantize", {f32Scalar(ctx, value), min, max},
                          RankedTensorType::get({}, storage), {});
}
} // namespace

FailureOr<Value>(::tfaot::importDequantize)(NodeImportContext &ctx) {
  auto inputType = ctx.typeOf(0);
  auto storage = dyn_cast<IntegerType>(inputType.getElementType());
  if (!storage || storage.getWidth() < 8 || storage.getWidth() > 32)
    return ctx.error("input must be a quantized integer tensor (qint8, quint8, "
                     "qint16, quint16, qint32), got " +
                     typeString(inputType));
  std::string mode = stringAttr(ctx, "mode", "MIN_COMBINED");
  if (mode != "MIN_COMBINED" && mode != "MIN_FIRST" && mode != "SCALED")
    return ctx.error("unknown mode '" + mode + "'");
  if (const tensorflow::AttrValue *axis = ctx.attr("axis");
      axis && axis->i() != -1)
    return ctx.error("per-axis dequantization (axis " +
                     std::to_string(axis->i()) + ") is not supported");
  if (const tensorflow::AttrValue *dtype = ctx.attr("dtype");
      dtype && dtype->type() != tensorflow::DT_FLOAT)
    return ctx.error("only float output is supported, got dtype " +
                     dataTypeName(dtype->type()));
  const tensorflow::AttrValue *narrow = ctx.attr("narrow_range");
  bool narrowRange = narrow && narrow->b();

  DenseElementsAttr input = constantElements(ctx.operands[0]);
  if (!input || !constantElements(ctx.operands[1]) ||
      !constantElements(ctx.operands[2]))
    return buildRuntimeDequantize(ctx, mode);
  auto min = constantScalar(ctx, 1, "min_range");
  if (failed(min))
    return failure();
  auto max = constantScalar(ctx, 2, "max_range");
  if (failed(max))
    return failure();
  if (!(*min <= *max))
    return ctx.error("min_range " + std::to_string(*min) +
                     " is greater than max_range " + std::to_string(*max));

  QuantizedRange range = mlir::tfaot::quantizedStorageOf(storage);
  std::vector<float> values;
  values.reserve(input.getNumElements());
  for (const APInt &q : input.getValues<APInt>()) {
    double stored = range.isSigned ? static_cast<double>(q.getSExtValue())
                                   : static_cast<double>(q.getZExtValue());
    values.push_back(static_cast<float>(
        dequantize(stored, range, mode, narrowRange, *min, *max)));
  }
  auto type = RankedTensorType::get(inputType.getShape(),
                                    ctx.builder.getF32Type());
  return buildConst(ctx, DenseElementsAttr::get(type, llvm::ArrayRef(values)));
}

//===----------------------------------------------------------------------===//
// Eight-bit kernels
//===----------------------------------------------------------------------===//

/// QuantizeV2 (input, min_range, max_range) -> (output, output_min,
/// output_max), MIN_FIRST: the range is widened to include 0 and to be at
/// least ensure_minimum_range * max(1, |min|, |max|) wide, as TF does.
FailureOr<Value>(::tfaot::importQuantizeV2)(NodeImportContext &ctx) {
  auto storage = quantizedTypeAttr(
      ctx, "T", tensorflow::DT_INVALID,
      {tensorflow::DT_QUINT8, tensorflow::DT_QINT8, tensorflow::DT_QUINT16,
       tensorflow::DT_QINT16, tensorflow::DT_QINT32});
  if (failed(storage))
    return failure();
  if (!ctx.typeOf(0).getElementType().isF32())
    return ctx.error("input must be float, got " + typeString(ctx.typeOf(0)));
  std::string mode = stringAttr(ctx, "mode", "MIN_COMBINED");
  if (mode != "MIN_FIRST")
    return ctx.error("mode '" + mode + "' is not supported (MIN_FIRST is, "
                     "as TF's quantize_graph writes it)");
  if (std::string round = stringAttr(ctx, "round_mode", "HALF_AWAY_FROM_ZERO");
      round != "HALF_AWAY_FROM_ZERO")
    return ctx.error("round_mode '" + round + "' is not supported with "
                     "MIN_FIRST (TF rejects it too)");
  if (intAttr(ctx, "axis", -1) != -1)
    return ctx.error("per-axis quantization is not supported");
  if (const tensorflow::AttrValue *narrow = ctx.attr("narrow_range");
      narrow && narrow->b())
    return ctx.error("narrow_range is not supported with MIN_FIRST");
  const tensorflow::AttrValue *ensure = ctx.attr("ensure_minimum_range");
  double ensureMinimumRange = ensure ? ensure->f() : 0.01;

  auto ranges = rangeOperands(ctx, 1, {"min_range", "max_range"});
  if (failed(ranges))
    return failure();
  Value min = (*ranges)[0], max = (*ranges)[1];
  Value zero = f32Scalar(ctx, 0);
  // min' = min(0, min); eps = max(1, |min|, |max|) * ensure_minimum_range;
  // max' = max(0, max(max, min' + eps)).
  Value adjustedMin = scalarOp(ctx, "Minimum", zero, min);
  Value largest = scalarOp(ctx, "Maximum", scalarOp(ctx, "Abs", min),
                           scalarOp(ctx, "Abs", max));
  Value epsilon =
      scalarOp(ctx, "Mul", scalarOp(ctx, "Maximum", f32Scalar(ctx, 1), largest),
               f32Scalar(ctx, ensureMinimumRange));
  Value adjustedMax = scalarOp(
      ctx, "Maximum", zero,
      scalarOp(ctx, "Maximum", max, scalarOp(ctx, "Add", adjustedMin, epsilon)));
  auto type = RankedTensorType::get(ctx.typeOf(0).getShape(), *storage);
  Value output = buildOpWithAttrs(
      ctx, "Quantize", {ctx.operands[0], adjustedMin, adjustedMax}, type, {});
  ctx.extraOutputs.assign({adjustedMin, adjustedMax});
  return output;
}

/// QuantizedConv2D / QuantizedMatMul (a, b, min_a, max_a, min_b, max_b) ->
/// (qint32 product, min, max): the i32 Conv2D / MatMul of a and b with their
/// zero points subtracted; one unit of the product is worth one unit of a
/// times one unit of b (QuantizationRangeForMultiplication).
FailureOr<Value>(::tfaot::importQuantizedContraction)(NodeImportContext &ctx) {
  bool conv = ctx.node.op() == "QuantizedConv2D";
  const char *aType = conv ? "Tinput" : "T1";
  const char *bType = conv ? "Tfilter" : "T2";
  auto a = quantizedTypeAttr(ctx, aType, tensorflow::DT_INVALID, kEightBit);
  if (failed(a) || failed(expectElements(ctx, 0, *a, conv ? "input" : "a")))
    return failure();
  auto b = quantizedTypeAttr(ctx, bType, tensorflow::DT_INVALID, kEightBit);
  if (failed(b) || failed(expectElements(ctx, 1, *b, conv ? "filter" : "b")))
    return failure();
  if (failed(quantizedTypeAttr(ctx, conv ? "out_type" : "Toutput",
                               tensorflow::DT_QINT32, {tensorflow::DT_QINT32})))
    return failure();
  if (!conv) {
    if (std::string mode = stringAttr(ctx, "input_quant_mode", "MIN_FIRST");
        mode != "MIN_FIRST")
      return ctx.error("input_quant_mode '" + mode + "' is not supported");
  }
  auto ranges = rangeOperands(
      ctx, 2,
      conv ? llvm::ArrayRef<const char *>{"min_input", "max_input",
                                          "min_filter", "max_filter"}
           : llvm::ArrayRef<const char *>{"min_a", "max_a", "min_b", "max_b"});
  if (failed(ranges))
    return failure();
  auto offset = [&](unsigned i) {
    auto type = RankedTensorType::get(ctx.typeOf(i).getShape(),
                                      ctx.builder.getI32Type());
    return buildOpWithAttrs(
        ctx, "SubtractZeroPoint",
        {ctx.operands[i], (*ranges)[2 * i], (*ranges)[2 * i + 1]}, type, {});
  };
  Value x = offset(0), y = offset(1);

  FailureOr<Value> product = conv ? buildConvolution(ctx, "Conv2D", x, y)
                                  : buildMatMul(ctx, x, y);
  if (failed(product))
    return failure();

  // FloatForOneQuantizedLevel of each input, multiplied: the product's
  // range is that times int32's lowest and highest (all f32, as in TF).
  auto step = [&](Value min, Value max, Type storage) {
    int bits = storage.getIntOrFloatBitWidth();
    return scalarOp(ctx, "RealDiv", scalarOp(ctx, "Sub", max, min),
                    f32Scalar(ctx, std::ldexp(1.0, bits) - 1));
  };
  Value unit = scalarOp(ctx, "Mul", step((*ranges)[0], (*ranges)[1], *a),
                        step((*ranges)[2], (*ranges)[3], *b));
  Value min = scalarOp(ctx, "Mul", unit, f32Scalar(ctx, -std::ldexp(1.0, 31)));
  Value max =
      scalarOp(ctx, "Mul", unit, f32Scalar(ctx, std::ldexp(1.0, 31) - 1));
  ctx.extraOutputs.assign({min, max});
  return *product;
}

/// RequantizationRange (qint32 input, min, max) -> (output_min, output_max).
FailureOr<Value>(::tfaot::importRequantizationRange)(NodeImportContext &ctx) {
  auto i32 = quantizedTypeAttr(ctx, "Tinput", tensorflow::DT_QINT32,
                               {tensorflow::DT_QINT32});
  if (failed(i32) || failed(expectElements(ctx, 0, *i32, "input")))
    return failure();
  auto ranges = rangeOperands(ctx, 1, {"input_min", "input_max"});
  if (failed(ranges))
    return failure();
  OperationState state(ctx.loc, "tfaot.RequantizationRange");
  state.addOperands({ctx.operands[0], (*ranges)[0], (*ranges)[1]});
  state.addTypes({scalarF32(ctx), scalarF32(ctx)});
  Operation *op = ctx.builder.create(state);
  ctx.extraOutputs.assign({op->getResult(1)});
  return op->getResult(0);
}

/// Requantize (qint32 input, input_min, input_max, requested_output_min,
/// requested_output_max) -> (quint8 output, output_min, output_max).
FailureOr<Value>(::tfaot::importRequantize)(NodeImportContext &ctx) {
  auto i32 = quantizedTypeAttr(ctx, "Tinput", tensorflow::DT_QINT32,
                               {tensorflow::DT_QINT32});
  if (failed(i32) || failed(expectElements(ctx, 0, *i32, "input")))
    return failure();
  auto out = quantizedTypeAttr(ctx, "out_type", tensorflow::DT_QUINT8,
                               {tensorflow::DT_QUINT8});
  if (failed(out))
    return failure();
  auto ranges = rangeOperands(ctx, 1,
                              {"input_min", "input_max",
                               "requested_output_min", "requested_output_max"});
  if (failed(ranges))
    return failure();
  auto type = RankedTensorType::get(ctx.typeOf(0).getShape(), *out);
  SmallVector<Value> operands{ctx.operands[0]};
  operands.append(ranges->begin(), ranges->end());
  Value output = buildOpWithAttrs(ctx, "Requantize", operands, type, {});
  ctx.extraOutputs.assign({(*ranges)[2], (*ranges)[3]});
  return output;
}

/// QuantizedRelu / QuantizedRelu6 (features, min, max): max(q, q(0.0)) and
/// min(that, q(6.0)) in the input's own range, which the output keeps.
FailureOr<Value>(::tfaot::importQuantizedRelu)(NodeImportContext &ctx) {
  auto storage = quantizedTypeAttr(ctx, "Tinput", tensorflow::DT_INVALID,
                                   kEightBit);
  if (failed(storage) || failed(expectElements(ctx, 0, *storage, "features")))
    return failure();
  auto out = quantizedTypeAttr(ctx, "out_type", tensorflow::DT_QUINT8,
                               kEightBit);
  if (failed(out))
    return failure();
  if (*out != *storage)
    return ctx.error("out_type must equal Tinput (tfaot does not requantize "
                     "inside QuantizedRelu)");
  auto ranges = rangeOperands(ctx, 1, {"min_features", "max_features"});
  if (failed(ranges))
    return failure();
  Value min = (*ranges)[0], max = (*ranges)[1];
  Value features = ctx.operands[0];
  auto type = ctx.typeOf(0);
  Value output = buildOp(ctx, "Maximum",
                         {features, quantizedConstant(ctx, 0, *storage, min, max)},
                         type);
  if (ctx.node.op() == "QuantizedRelu6")
    output = buildOp(ctx, "Minimum",
                     {output, quantizedConstant(ctx, 6, *storage, min, max)},
                     type);
  ctx.extraOutputs.assign({min, max});
  return output;
}

/// QuantizedReshape (tensor, shape, min, max): a Reshape; the range is
/// unchanged.
FailureOr<Value>(::tfaot::importQuantizedReshape)(NodeImportContext &ctx) {
  auto ranges = rangeOperands(ctx, 2, {"input_min", "input_max"});
  if (failed(ranges))
    return failure();
  FailureOr<Value> output = importReshape(ctx);
  if (failed(output))
    return failure();
  ctx.extraOutputs.assign({(*ranges)[0], (*ranges)[1]});
  return output;
}

/// QuantizedMaxPool (input, min, max): MaxPool of the integers (the
/// quantization is monotonic); the range is unchanged.
FailureOr<Value>(::tfaot::importQuantizedMaxPool)(NodeImportContext &ctx) {
  auto storage = quantizedTypeAttr(ctx, "T", tensorflow::DT_INVALID, kEightBit);
  if (failed(storage) || failed(expectElements(ctx, 0, *storage, "input")))
    return failure();
  auto ranges = rangeOperands(ctx, 1, {"min_input", "max_input"});
  if (failed(ranges))
    return failure();
  FailureOr<Value> output = buildPool(ctx, "MaxPool", ctx.operands[0]);
  if (failed(output))
    return failure();
  ctx.extraOutputs.assign({(*ranges)[0], (*ranges)[1]});
  return output;
}

/// QuantizedAdd (x, y, min_x, max_x, min_y, max_y) -> (qint32 z, min_z,
/// max_z): as TF's QuantizedAddUsingEigen, both inputs are requantized into
/// a symmetric 32-bit range 2^17 times the largest input magnitude (room
/// for the sum, and the inputs' bits overlap) and added there.
FailureOr<Value>(::tfaot::importQuantizedAdd)(NodeImportContext &ctx) {
  const char *typeAttrs[] = {"T1", "T2"};
  for (unsigned i = 0; i < 2; ++i) {
    auto storage =
        quantizedTypeAttr(ctx, typeAttrs[i], tensorflow::DT_INVALID, kEightBit);
    if (failed(storage) ||
        failed(expectElements(ctx, i, *storage, i == 0 ? "x" : "y")))
      return failure();
  }
  auto i32 = quantizedTypeAttr(ctx, "Toutput", tensorflow::DT_QINT32,
                               {tensorflow::DT_QINT32});
  if (failed(i32))
    return failure();
  auto ranges =
      rangeOperands(ctx, 2, {"min_x", "max_x", "min_y", "max_y"});
  if (failed(ranges))
    return failure();
  Value minX = (*ranges)[0], maxX = (*ranges)[1];
  Value minY = (*ranges)[2], maxY = (*ranges)[3];
  Value largest = scalarOp(
      ctx, "Maximum", maxX,
      scalarOp(ctx, "Maximum", scalarOp(ctx, "Neg", minX),
               scalarOp(ctx, "Maximum", maxY, scalarOp(ctx, "Neg", minY))));
  Value max = scalarOp(ctx, "Mul", largest, f32Scalar(ctx, 1 << 17));
  Value min = scalarOp(ctx, "Neg", max);
  auto inTotalRange = [&](unsigned i, Value lo, Value hi) {
    auto shape = ctx.typeOf(i).getShape();
    Value floats = buildOpWithAttrs(
        ctx, "Dequantize", {ctx.operands[i], lo, hi},
        RankedTensorType::get(shape, ctx.builder.getF32Type()),
        {ctx.builder.getNamedAttr("mode",
                                  ctx.builder.getStringAttr("MIN_FIRST"))});
    return buildOpWithAttrs(ctx, "Quantize", {floats, min, max},
                            RankedTensorType::get(shape, *i32), {});
  };
  Value x = inTotalRange(0, minX, maxX);
  Value y = inTotalRange(1, minY, maxY);
  // TF adds the zero point of the total range too (0 for a symmetric one,
  // kept so that an asymmetric rounding would show the same way).
  Value zero = quantizedConstant(ctx, 0, *i32, min, max);
  FailureOr<Value> yPlusZero = buildBinary(ctx, "AddV2", y, zero);
  if (failed(yPlusZero))
    return failure();
  FailureOr<Value> sum = buildBinary(ctx, "AddV2", x, *yPlusZero);
  if (failed(sum))
    return failure();
  ctx.extraOutputs.assign({min, max});
  return *sum;
}
