//===- LowerQuantizedOps.cpp - TF's quantized arithmetic to linalg --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg: Dequantize, Quantize, SubtractZeroPoint,
// RequantizationRange and Requantize. Each reads its float range from 0-d
// tensors at run time (ranges are computed by the graph: RequantizationRange
// measures the data), derives its scalar parameters once outside the loop,
// then runs one elementwise linalg.generic.
//
// The scalar code repeats TensorFlow's quantization_utils.h step by step,
// including where it rounds to float and where it stays in double: TF's
// quantized graphs are specified by those kernels, not by exact arithmetic.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// Scalar arithmetic in the element types TF uses, kept short at the call
/// sites (the formulas below read like the C++ they mirror).
struct Scalars {
  OpBuilder &b;
  Location loc;

  Value f32(double v) { return scalarConstant(b, loc, b.getF32Type(), v); }
  Value f64(double v) { return scalarConstant(b, loc, b.getF64Type(), v); }
  Value i64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value extract(Value tensor) {
    return tensor::ExtractOp::create(b, loc, tensor, ValueRange{});
  }
  Value toDouble(Value x) {
    return arith::ExtFOp::create(b, loc, b.getF64Type(), x);
  }
  Value toFloat(Value x) {
    return arith::TruncFOp::create(b, loc, b.getF32Type(), x);
  }
  /// static_cast<int64_t>(x): truncation toward zero.
  Value toInt64(Value x) {
    return arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  /// std::round: half away from zero.
  Value round(Value x) { return math::RoundOp::create(b, loc, x); }
  Value equal(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// A 0-d tensor holding `x`.
  Value tensor(Value x) {
    return tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({}, x.getType()), x);
  }
};

/// One elementwise linalg.generic over `input`, of result type `type`.
Value mapElements(OpBuilder &b, Location loc, RankedTensorType type,
                  Value input,
                  function_ref<Value(OpBuilder &, Location, Value)> body) {
  return buildElementwise(
      b, loc, type, input, b.getMultiDimIdentityMap(type.getRank()),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        return body(nb, l, args[0]);
      });
}

/// A quantized tensor's original (signed or unsigned) element type, what it
/// stores, and its float range [min, max] read from the 0-d range tensors.
struct QuantizedRange {
  Type element;
  QuantizedStorage storage;
  Value min, max;

  QuantizedRange(Scalars &s, Value quantized, Value minTensor, Value maxTensor)
      : element(cast<ShapedType>(quantized.getType()).getElementType()),
        storage(quantizedStorageOf(cast<IntegerType>(element))),
        min(s.extract(minTensor)), max(s.extract(maxTensor)) {}
};

/// Base of the patterns that end in one elementwise linalg.generic over
/// their input, after computing their scalar parameters.
template <typename OpTy>
struct MapLowering : TfaotPattern<OpTy> {
  using TfaotPattern<OpTy>::TfaotPattern;

  /// Replaces `op` by `body` applied to each element of `input`.
  LogicalResult
  replaceByMap(ConversionPatternRewriter &rewriter, OpTy op, Value input,
               function_ref<Value(OpBuilder &, Location, Value)> body) const {
    rewriter.replaceOp(op, mapElements(rewriter, op.getLoc(),
                                       this->resultType(op), input, body));
    return success();
  }
};

/// The float a stored integer (already converted to f32) stands for.
Value intToFloat(OpBuilder &b, Location loc, Type original, Value q) {
  Type f32 = b.getF32Type();
  return isUnsignedInt(original) ? (Value)arith::UIToFPOp::create(b, loc, f32, q)
                                 : (Value)arith::SIToFPOp::create(b, loc, f32, q);
}

/// TF's QuantizedToFloat<qint32> over [min, max] (double arithmetic, one
/// rounding to float): the range's parameters are computed once, then
/// apply() converts each i32 scalar.
struct Qint32ToFloat {
  Scalars &s;
  Value min, max, rangeScale, minRounded;

  Qint32ToFloat(Scalars &s, Value min, Value max) : s(s), min(min), max(max) {
    double steps = std::ldexp(1.0, 32);
    Value range =
        s.mul(s.toDouble(s.sub(max, min)), s.f64(steps / (steps - 1)));
    rangeScale = s.div(range, s.f64(steps));
    // TF rounds the step to float before snapping the minimum to it.
    Value stepF = s.toFloat(rangeScale);
    minRounded = s.toDouble(s.mul(s.round(s.div(min, stepF)), stepF));
  }

  Value apply(Value q) {
    Value offset = s.sub(
        arith::SIToFPOp::create(s.b, s.loc, s.b.getF64Type(), q).getResult(),
        s.f64(-std::ldexp(1.0, 31)));
    Value result = s.toFloat(s.add(minRounded, s.mul(offset, rangeScale)));
    return s.select(s.equal(min, max), min, result);
  }
};

struct DequantizeLowering : MapLowering<DequantizeOp> {
  using MapLowering::MapLowering;
  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Scalars s{rewriter, op.getLoc()};
    QuantizedRange in(s, op.getInput(), adaptor.getMinRange(),
                      adaptor.getMaxRange());
    const QuantizedStorage &r = in.storage;
    Value min = in.min, max = in.max;
    // output = offset + (q + shift) * scale, each in f32 as TF's kernels.
    Value scale, offset, shift;
    if (op.getMode() == "MIN_FIRST") {
      // QuantizedToFloatStruct + DEQUANTIZE_WITH_EIGEN.
      scale = s.toFloat(s.div(s.toDouble(s.sub(max, min)),
                              s.f64(std::ldexp(1.0, r.bits) - 1.0)));
      Value minRounded = s.select(s.equal(max, min), min,
                                  s.mul(s.round(s.div(min, scale)), scale));
      offset = s.sub(minRounded, s.mul(s.f32(r.lowest), scale));
      shift = s.f32(0);
    } else {
      // MIN_COMBINED: ((q + half) * scale) + min.
      scale = s.div(s.sub(max, min), s.f32(r.highest - r.lowest));
      offset = min;
      shift = s.f32(r.isSigned ? (r.highest - r.lowest + 1) / 2 : 0.0);
    }
    return replaceByMap(
        rewriter, op, adaptor.getInput(),
        [&](OpBuilder &b, Location l, Value element) -> Value {
          Value q = intToFloat(b, l, in.element, element);
          Value shifted = arith::AddFOp::create(b, l, q, shift);
          Value scaled = arith::MulFOp::create(b, l, shifted, scale);
          return arith::AddFOp::create(b, l, offset, scaled);
        });
  }
};

struct QuantizeLowering : MapLowering<QuantizeOp> {
  using MapLowering::MapLowering;
  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Scalars s{rewriter, op.getLoc()};
    QuantizedRange out(s, op.getOutput(), adaptor.getMinRange(),
                       adaptor.getMaxRange());
    const QuantizedStorage &r = out.storage;
    Value min = out.min, max = out.max;
    // FloatToQuantizedStruct: scale in double, stored as float.
    Value scale = s.select(
        s.equal(max, min), s.f32(0),
        s.toFloat(s.div(s.f64(std::ldexp(1.0, r.bits) - 1.0),
                        s.toDouble(s.sub(max, min)))));
    Value minScaled = s.round(s.mul(min, scale));
    Value bias = s.sub(minScaled, s.f32(r.lowest));
    // Bounds an int32 can hold (float(INT32_MAX) rounds up past it).
    Value lower = s.f32(std::max(r.lowest, -2.147483648e9));
    Value upper = s.f32(std::min(r.highest, 2.147483520e9));
    Type stored = resultType(op).getElementType();
    return replaceByMap(
        rewriter, op, adaptor.getInput(),
        [&](OpBuilder &b, Location l, Value element) -> Value {
          Value scaled = arith::MulFOp::create(b, l, element, scale);
          Value q = arith::SubFOp::create(
              b, l, math::RoundOp::create(b, l, scaled), bias);
          q = arith::MaxNumFOp::create(b, l, q, lower);
          q = arith::MinNumFOp::create(b, l, q, upper);
          Value i32 = arith::FPToSIOp::create(b, l, b.getI32Type(), q);
          if (r.bits == 32)
            return i32;
          return arith::TruncIOp::create(b, l, stored, i32);
        });
  }
};

struct SubtractZeroPointLowering : MapLowering<SubtractZeroPointOp> {
  using MapLowering::MapLowering;
  LogicalResult
  matchAndRewrite(SubtractZeroPointOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Scalars s{rewriter, loc};
    QuantizedRange in(s, op.getInput(), adaptor.getMinRange(),
                      adaptor.getMaxRange());
    const QuantizedStorage &r = in.storage;
    Value min = in.min, max = in.max;
    // FloatToQuantizedUnclamped(0.0f, min, max).
    double steps = std::ldexp(1.0, r.bits);
    Value range = s.mul(s.toDouble(s.sub(max, min)), s.f64(steps / (steps - 1)));
    Value rangeScale = s.div(s.f64(steps), range);
    Value minScaled = s.toInt64(s.round(s.mul(s.toDouble(min), rangeScale)));
    Value zero = arith::SubIOp::create(rewriter, loc,
                                       s.i64(int64_t(r.lowest)), minScaled);
    zero = s.select(s.equal(min, max), s.i64(int64_t(r.lowest)), zero);
    Value zero32 =
        arith::TruncIOp::create(rewriter, loc, rewriter.getI32Type(), zero);
    return replaceByMap(
        rewriter, op, adaptor.getInput(),
        [&](OpBuilder &b, Location l, Value element) -> Value {
          Type i32 = b.getI32Type();
          Value q = isUnsignedInt(in.element)
                        ? (Value)arith::ExtUIOp::create(b, l, i32, element)
                        : (Value)arith::ExtSIOp::create(b, l, i32, element);
          return arith::SubIOp::create(b, l, q, zero32);
        });
  }
};

struct RequantizationRangeLowering : TfaotPattern<RequantizationRangeOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(RequantizationRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Scalars s{rewriter, loc};
    Value input = adaptor.getInput();
    SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(
        0, cast<RankedTensorType>(input.getType()).getRank()));
    auto reduceAll = [&](bool smallest) {
      Value init = arith::ConstantOp::create(
          rewriter, loc,
          rewriter.getI32IntegerAttr(smallest ? INT32_MAX : INT32_MIN));
      Value reduced =
          buildReduction(rewriter, loc, input, all, init,
                         [&](OpBuilder &b, Location l, Value x, Value acc) {
                           return smallest
                                      ? (Value)arith::MinSIOp::create(b, l, x, acc)
                                      : (Value)arith::MaxSIOp::create(b, l, x, acc);
                         })
              .result;
      return s.extract(reduced);
    };
    Qint32ToFloat toFloat(s, s.extract(adaptor.getInputMin()),
                          s.extract(adaptor.getInputMax()));
    Value usedMin = toFloat.apply(reduceAll(true));
    Value usedMax = toFloat.apply(reduceAll(false));
    // std::min(0.0f, usedMin): the range always includes zero below.
    Value zero = s.f32(0);
    Value below = arith::CmpFOp::create(rewriter, loc,
                                        arith::CmpFPredicate::OLT, usedMin, zero);
    usedMin = s.select(below, usedMin, zero);
    rewriter.replaceOp(op, {s.tensor(usedMin), s.tensor(usedMax)});
    return success();
  }
};

struct RequantizeLowering : MapLowering<RequantizeOp> {
  using MapLowering::MapLowering;
  LogicalResult
  matchAndRewrite(RequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Scalars s{rewriter, loc};
    Value inMin = s.extract(adaptor.getInputMin());
    Value inMax = s.extract(adaptor.getInputMax());
    Value outMin = s.extract(adaptor.getOutputMin());
    Value outMax = s.extract(adaptor.getOutputMax());
    // RequantizeManyInNewRangeReference<qint32, quint8>, fp_shift = 16.
    constexpr int kShift = 16;
    const double one = double(1 << kShift);
    Value inputRange = s.sub(inMax, inMin);
    Value outputRange = s.sub(outMax, outMin);
    Value noRange = s.equal(outputRange, s.f32(0));
    Value recipOutputRange = s.select(
        noRange, s.f32(0), s.toFloat(s.div(s.f64(255.0), s.toDouble(outputRange))));
    Value inputRezero =
        s.toFloat(s.div(s.toDouble(s.add(inMin, inMax)), s.f64(2.0)));
    Value rangeScaleFp = s.select(
        noRange, s.i64(0),
        s.toInt64(s.div(s.mul(s.f64(255.0 * one), s.toDouble(inputRange)),
                        s.toDouble(outputRange))));
    Value inputOffsetFp =
        s.toInt64(s.mul(s.mul(inputRezero, recipOutputRange), s.f32(one)));
    Value outputOffsetFp = s.select(
        noRange, s.i64(0),
        s.toInt64(s.div(s.mul(s.f64(one), s.mul(s.toDouble(outMin), s.f64(255.0))),
                        s.toDouble(outputRange))));
    Value bias = arith::AddIOp::create(
        rewriter, loc,
        arith::SubIOp::create(rewriter, loc, inputOffsetFp, outputOffsetFp),
        s.i64(int64_t(1) << (kShift - 1)));

    Type stored = resultType(op).getElementType();
    return replaceByMap(
        rewriter, op, adaptor.getInput(),
        [&](OpBuilder &b, Location l, Value element) -> Value {
          Type i64 = b.getI64Type();
          auto constant = [&](int64_t v) -> Value {
            return arith::ConstantOp::create(b, l, b.getI64IntegerAttr(v));
          };
          Value x = arith::ExtSIOp::create(b, l, i64, element);
          Value fp = arith::ShRSIOp::create(
              b, l, arith::MulIOp::create(b, l, x, rangeScaleFp), constant(32));
          fp = arith::AddIOp::create(b, l, fp, bias);
          Value q = arith::ShRSIOp::create(b, l, fp, constant(kShift));
          q = arith::MaxSIOp::create(b, l, q, constant(0));
          q = arith::MinSIOp::create(b, l, q, constant(255));
          return arith::TruncIOp::create(b, l, stored, q);
        });
  }
};

} // namespace

void mlir::tfaot::populateQuantizedLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<DequantizeLowering, QuantizeLowering, SubtractZeroPointLowering,
               RequantizationRangeLowering, RequantizeLowering>(
      converter, patterns.getContext());
}
