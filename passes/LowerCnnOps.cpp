//===- LowerCnnOps.cpp - Convolutions, pools and friends to linalg --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. Convolutions and pools become linalg's
// named NHWC ops, but float max pools a linalg.generic of the same loops
// that skips NaN (MaxPoolSkippingNaN.h). NCHW operands are transposed
// around them (the layout pass will remove those transposes); TF's
// SAME/EXPLICIT padding becomes an explicit tensor.pad in front. Reductions and the remaining elementwise ops
// become linalg.generic.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"
#include "passes/MaxPoolSkippingNaN.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tfaot;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The lowest (for max) or highest value of `type`, as a scalar constant.
static Value extremeValue(OpBuilder &b, Location loc, Type original,
                          bool lowest) {
  Type type = toSignless(original);
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        FloatAttr::get(floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                                  /*Negative=*/lowest)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isUnsignedInt(original)
                    ? (lowest ? APInt::getMinValue(width)
                              : APInt::getMaxValue(width))
                    : (lowest ? APInt::getSignedMinValue(width)
                              : APInt::getSignedMaxValue(width));
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value));
}

static constexpr int64_t kNchwToNhwc[] = {0, 2, 3, 1};
static constexpr int64_t kNhwcToNchw[] = {0, 3, 1, 2};

/// Window geometry of a window op, recomputed from its attributes (the
/// verifier has already accepted them).
template <typename OpTy>
static Window2D windowOf(OpTy op, int64_t windowH, int64_t windowW,
                         ArrayRef<int64_t> dilations) {
  std::string why;
  auto inputType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto outputType = cast<RankedTensorType>(op->getResult(0).getType());
  Window2D window = *computeWindow2D(
      inputType.getShape(), op.getDataFormat(), windowH, windowW,
      getI64Values(op.getStrides()), dilations, op.getPadding(),
      getI64Values(op.getExplicitPaddings()),
      outputType.getDimSize(op.getDataFormat() == "NCHW" ? 1 : 3), why);
  return window;
}

/// Runs `build` on the NHWC form of the window op's input and returns the
/// result in the op's own layout. `build` gets the (unpadded) NHWC input and
/// the NHWC result type.
static Value inNhwc(OpBuilder &b, Location loc, StringRef dataFormat,
                    Value input, RankedTensorType resultType,
                    function_ref<Value(Value, RankedTensorType)> build) {
  if (dataFormat != "NCHW")
    return build(input, resultType);
  Value nhwc = buildTranspose(b, loc, input, kNchwToNhwc);
  SmallVector<int64_t> shape;
  for (int64_t p : kNchwToNhwc)
    shape.push_back(resultType.getDimSize(p));
  Value result =
      build(nhwc, RankedTensorType::get(shape, resultType.getElementType()));
  return buildTranspose(b, loc, result, kNhwcToNchw);
}

namespace {

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

struct Conv2DLowering : TfaotPattern<Conv2DOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filterType = op.getFilter().getType();
    SmallVector<int64_t> dilations = getI64Values(op.getDilations());
    Window2D window = windowOf(op, filterType.getDimSize(0),
                               filterType.getDimSize(1), dilations);
    SmallVector<int64_t> strides = getI64Values(op.getStrides());
    Value result = inNhwc(
        rewriter, loc, op.getDataFormat(), adaptor.getInput(), resultType(op),
        [&](Value input, RankedTensorType type) -> Value {
          Type element = type.getElementType();
          Value zero = scalarConstant(rewriter, loc, element, 0);
          Value padded = padSpatial(rewriter, loc, input, window, zero);
          Value init = buildFilled(rewriter, loc, type, zero);
          return linalg::Conv2DNhwcHwcfOp::create(
                     rewriter, loc, TypeRange{type},
                     ValueRange{padded, adaptor.getFilter()}, ValueRange{init},
                     spatialAttr(rewriter, strides, window),
                     spatialAttr(rewriter, dilations, window))
              .getResult(0);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DepthwiseConv2dLowering : TfaotPattern<DepthwiseConv2dNativeOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(DepthwiseConv2dNativeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filterType = op.getFilter().getType();
    SmallVector<int64_t> dilations = getI64Values(op.getDilations());
    Window2D window = windowOf(op, filterType.getDimSize(0),
                               filterType.getDimSize(1), dilations);
    SmallVector<int64_t> strides = getI64Values(op.getStrides());
    int64_t channels = filterType.getDimSize(2);
    int64_t multiplier = filterType.getDimSize(3);
    Value result = inNhwc(
        rewriter, loc, op.getDataFormat(), adaptor.getInput(), resultType(op),
        [&](Value input, RankedTensorType type) -> Value {
          Type element = type.getElementType();
          Value zero = scalarConstant(rewriter, loc, element, 0);
          Value padded = padSpatial(rewriter, loc, input, window, zero);
          // linalg computes [N, H, W, C, M]; TF's channel c * M + m is that
          // tensor with its last two dimensions collapsed.
          auto wide = RankedTensorType::get(
              {type.getDimSize(0), type.getDimSize(1), type.getDimSize(2),
               channels, multiplier},
              element);
          Value init = buildFilled(rewriter, loc, wide, zero);
          Value conv = linalg::DepthwiseConv2DNhwcHwcmOp::create(
                           rewriter, loc, TypeRange{wide},
                           ValueRange{padded, adaptor.getFilter()},
                           ValueRange{init},
                           spatialAttr(rewriter, strides, window),
                           spatialAttr(rewriter, dilations, window))
                           .getResult(0);
          return tensor::CollapseShapeOp::create(
              rewriter, loc, type, conv,
              ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pools
//===----------------------------------------------------------------------===//

template <typename PoolOp>
static std::pair<Window2D, SmallVector<int64_t>> poolWindow(PoolOp op) {
  SmallVector<int64_t> ksize = getI64Values(op.getKsize());
  int64_t h = op.getDataFormat() == "NCHW" ? 2 : 1;
  return {windowOf(op, ksize[h], ksize[h + 1], {1, 1, 1, 1}),
          {ksize[h], ksize[h + 1]}};
}

struct MaxPoolLowering : TfaotPattern<MaxPoolOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [window, kernel] = poolWindow(op);
    SmallVector<int64_t> strides = getI64Values(op.getStrides());
    Type original = op.getInput().getType().getElementType();
    Value result = inNhwc(
        rewriter, loc, op.getDataFormat(), adaptor.getInput(), resultType(op),
        [&](Value input, RankedTensorType type) -> Value {
          // Padding never wins a max: pad with the lowest value.
          Value lowest = extremeValue(rewriter, loc, original, true);
          Value padded = padSpatial(rewriter, loc, input, window, lowest);
          Value init = buildFilled(rewriter, loc, type, lowest);
          Value shape = tensor::EmptyOp::create(rewriter, loc, kernel,
                                                type.getElementType());
          SmallVector<int64_t> ones = {1, 1, 1, 1};
          // Floats skip NaN as TF.js does: linalg's named pool would
          // return NaN for a window holding one (MaxPoolSkippingNaN.h).
          if (isa<FloatType>(type.getElementType()))
            return buildMaxPoolSkippingNaN(
                rewriter, loc, padded, shape, init,
                {strides[window.heightDim], strides[window.widthDim]});
          if (isUnsignedInt(original))
            return linalg::PoolingNhwcMaxUnsignedOp::create(
                       rewriter, loc, TypeRange{type}, ValueRange{padded, shape},
                       ValueRange{init}, spatialAttr(rewriter, strides, window),
                       spatialAttr(rewriter, ones, window))
                .getResult(0);
          return linalg::PoolingNhwcMaxOp::create(
                     rewriter, loc, TypeRange{type}, ValueRange{padded, shape},
                     ValueRange{init}, spatialAttr(rewriter, strides, window),
                     spatialAttr(rewriter, ones, window))
              .getResult(0);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Number of window positions of output index `out` that fall inside the
/// unpadded input: TF's SAME average pooling divides by this, not by the
/// window size.
static int64_t validCount(int64_t out, int64_t stride, int64_t padBefore,
                          int64_t window, int64_t size) {
  int64_t start = out * stride - padBefore;
  int64_t end = std::min(start + window, size);
  return end - std::max<int64_t>(start, 0);
}

struct AvgPoolLowering : TfaotPattern<AvgPoolOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(AvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [window, kernel] = poolWindow(op);
    SmallVector<int64_t> strides = getI64Values(op.getStrides());
    auto inputType = op.getInput().getType();
    int64_t inH = inputType.getDimSize(window.heightDim);
    int64_t inW = inputType.getDimSize(window.widthDim);
    Value result = inNhwc(
        rewriter, loc, op.getDataFormat(), adaptor.getInput(), resultType(op),
        [&](Value input, RankedTensorType type) -> Value {
          Type element = type.getElementType();
          Value zero = scalarConstant(rewriter, loc, element, 0);
          Value padded = padSpatial(rewriter, loc, input, window, zero);
          Value init = buildFilled(rewriter, loc, type, zero);
          Value shape = tensor::EmptyOp::create(rewriter, loc, kernel, element);
          SmallVector<int64_t> ones = {1, 1, 1, 1};
          Value sums = linalg::PoolingNhwcSumOp::create(
                           rewriter, loc, TypeRange{type},
                           ValueRange{padded, shape}, ValueRange{init},
                           spatialAttr(rewriter, strides, window),
                           spatialAttr(rewriter, ones, window))
                           .getResult(0);
          // Divisors per output (h, w), computed now: shapes are static.
          int64_t outH = type.getDimSize(1), outW = type.getDimSize(2);
          SmallVector<APFloat> counts;
          auto floatType = cast<FloatType>(element);
          for (int64_t h = 0; h < outH; ++h)
            for (int64_t w = 0; w < outW; ++w) {
              double count =
                  validCount(h, strides[window.heightDim], window.padTop,
                             kernel[0], inH) *
                  validCount(w, strides[window.widthDim], window.padLeft,
                             kernel[1], inW);
              APFloat value(count);
              bool lost;
              value.convert(floatType.getFloatSemantics(),
                            APFloat::rmNearestTiesToEven, &lost);
              counts.push_back(value);
            }
          auto countType = RankedTensorType::get({outH, outW}, element);
          Value countTensor = arith::ConstantOp::create(
              rewriter, loc, DenseElementsAttr::get(countType, counts));
          MLIRContext *ctx = rewriter.getContext();
          AffineMap identity = rewriter.getMultiDimIdentityMap(4);
          AffineMap hw = AffineMap::get(
              4, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx)}, ctx);
          return buildElementwise(
              rewriter, loc, type, {sums, countTensor}, {identity, hw},
              [](OpBuilder &b, Location l, ValueRange args) -> Value {
                return arith::DivFOp::create(b, l, args[0], args[1]);
              });
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pad, ConcatV2, Transpose
//===----------------------------------------------------------------------===//

struct PadLowering : TfaotPattern<PadOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto paddings = getConstantIntValues(op.getPaddings());
    if (!paddings)
      return rewriter.notifyMatchFailure(op, "paddings are not constant");
    Location loc = op.getLoc();
    SmallVector<int64_t> low, high;
    for (size_t i = 0; i < paddings->size(); i += 2) {
      low.push_back((*paddings)[i]);
      high.push_back((*paddings)[i + 1]);
    }
    // The fill value is a one-element tensor; read it as a scalar.
    Value fillTensor = adaptor.getConstantValue();
    auto fillType = cast<RankedTensorType>(fillTensor.getType());
    Value zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(fillType.getRank(), zeroIndex);
    Value fill = tensor::ExtractOp::create(rewriter, loc, fillTensor, indices);
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        op, resultType(op), adaptor.getInput(),
        getAsIndexOpFoldResult(rewriter.getContext(), low),
        getAsIndexOpFoldResult(rewriter.getContext(), high), fill);
    return success();
  }
};

struct ConcatV2Lowering : TfaotPattern<ConcatV2Op> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(ConcatV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto axisValues = getConstantIntValues(op.getAxis());
    if (!axisValues)
      return rewriter.notifyMatchFailure(op, "axis is not constant");
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    int64_t rank = type.getRank();
    int64_t axis = (*axisValues)[0] < 0 ? (*axisValues)[0] + rank
                                        : (*axisValues)[0];
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                           type.getElementType());
    int64_t offset = 0;
    for (Value value : adaptor.getValues()) {
      auto valueType = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(
          rewriter, loc, value, result,
          getAsIndexOpFoldResult(rewriter.getContext(), offsets),
          getAsIndexOpFoldResult(rewriter.getContext(), valueType.getShape()),
          getAsIndexOpFoldResult(rewriter.getContext(), strides));
      offset += valueType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TransposeLowering : TfaotPattern<TransposeOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto perm = getConstantIntValues(op.getPerm());
    if (!perm)
      return rewriter.notifyMatchFailure(op, "permutation is not constant");
    rewriter.replaceOp(op, buildTranspose(rewriter, op.getLoc(),
                                          adaptor.getX(), *perm));
    return success();
  }
};

struct StridedSliceLowering : TfaotPattern<StridedSliceOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(StridedSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto begin = getConstantIntValues(op.getBegin());
    auto end = getConstantIntValues(op.getEnd());
    auto strides = getConstantIntValues(op.getStrides());
    if (!begin || !end || !strides)
      return rewriter.notifyMatchFailure(op, "begin/end/strides not constant");
    std::string why;
    auto spec = computeStridedSlice(
        op.getInput().getType().getShape(), *begin, *end, *strides,
        op.getBeginMask(), op.getEndMask(), op.getEllipsisMask(),
        op.getNewAxisMask(), op.getShrinkAxisMask(), why);
    if (failed(spec))
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType type = resultType(op);
    auto sliceType =
        RankedTensorType::get(spec->sizes, type.getElementType());
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, sliceType, adaptor.getInput(),
        getAsIndexOpFoldResult(ctx, spec->offsets),
        getAsIndexOpFoldResult(ctx, spec->sizes),
        getAsIndexOpFoldResult(ctx, spec->strides));
    if (sliceType != type)
      slice = buildStaticReshape(rewriter, loc, slice, type);
    rewriter.replaceOp(op, slice);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

template <typename OpTy, ReduceKind Kind>
struct ReductionLowering : TfaotPattern<OpTy> {
  using TfaotPattern<OpTy>::TfaotPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto axes = getConstantIntValues(op.getReductionIndices());
    if (!axes)
      return rewriter.notifyMatchFailure(op, "axes are not constant");
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    Type original = op.getInput().getType().getElementType();
    Type element = inputType.getElementType();
    Value initValue =
        Kind == ReduceKind::Max   ? extremeValue(rewriter, loc, original, true)
        : Kind == ReduceKind::Min ? extremeValue(rewriter, loc, original, false)
        : scalarConstant(rewriter, loc, element,
                         Kind == ReduceKind::Prod ? 1 : 0);
    BinaryKind combine = Kind == ReduceKind::Max   ? BinaryKind::Max
                         : Kind == ReduceKind::Min ? BinaryKind::Min
                         : Kind == ReduceKind::Prod ? BinaryKind::Mul
                                                    : BinaryKind::Add;
    Reduction reduction = buildReduction(
        rewriter, loc, adaptor.getInput(), *axes, initValue,
        [&](OpBuilder &b, Location l, Value x, Value acc) {
          return buildBinaryScalar(b, l, combine, original, x, acc);
        });
    Value result = reduction.result;
    auto accType = cast<RankedTensorType>(result.getType());
    int64_t count = reduction.count;
    if (Kind == ReduceKind::Mean) {
      Value divisor = scalarConstant(rewriter, loc, element, count);
      result = buildBroadcasting(
          rewriter, loc, accType, {result},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return buildBinaryScalar(b, l, BinaryKind::Div, original, args[0],
                                     divisor);
          });
    }
    RankedTensorType finalType = this->resultType(op);
    if (finalType != accType) // keep_dims: reinsert the size-1 dimensions.
      result = buildStaticReshape(rewriter, loc, result, finalType);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Elementwise ops beyond the MLP set
//===----------------------------------------------------------------------===//

/// x > 0 ? x : negative (float or signed integer).
static Value selectPositive(OpBuilder &b, Location loc, Type original, Value x,
                            Value negative) {
  Value zero = scalarConstant(b, loc, toSignless(original), 0);
  Value positive =
      isa<FloatType>(original)
          ? (Value)arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                         zero)
          : (Value)arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x,
                                         zero);
  return arith::SelectOp::create(b, loc, positive, x, negative);
}

} // namespace

void mlir::tfaot::populateCnnLoweringPatterns(RewritePatternSet &patterns,
                                              const TypeConverter &converter) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<Conv2DLowering, DepthwiseConv2dLowering, MaxPoolLowering,
               AvgPoolLowering, PadLowering, ConcatV2Lowering,
               TransposeLowering, StridedSliceLowering,
               ReductionLowering<SumOp, ReduceKind::Sum>,
               ReductionLowering<MeanOp, ReduceKind::Mean>,
               ReductionLowering<MaxOp, ReduceKind::Max>,
               ReductionLowering<MinOp, ReduceKind::Min>,
               ReductionLowering<ProdOp, ReduceKind::Prod>>(converter, ctx);

  addUnaryMathLowering<ExpOp, math::ExpOp>(patterns, converter);
  addUnaryMathLowering<LogOp, math::LogOp>(patterns, converter);
  addUnaryMathLowering<SqrtOp, math::SqrtOp>(patterns, converter);
  addUnaryMathLowering<RsqrtOp, math::RsqrtOp>(patterns, converter);
  addUnaryMathLowering<FloorOp, math::FloorOp>(patterns, converter);
  patterns.add<ElementwiseLowering<ReciprocalOp>>(
      converter, ctx,
      [](OpBuilder &b, Location l, ReciprocalOp, Type t, ValueRange a) {
        return (Value)arith::DivFOp::create(b, l, scalarConstant(b, l, t, 1),
                                            a[0]);
      });
  patterns.add<ElementwiseLowering<NegOp>>(
      converter, ctx, [](OpBuilder &b, Location l, NegOp, Type t, ValueRange a) {
        if (isa<FloatType>(t))
          return (Value)arith::NegFOp::create(b, l, a[0]);
        return buildBinaryScalar(b, l, BinaryKind::Sub, t,
                                 scalarConstant(b, l, toSignless(t), 0), a[0]);
      });
  patterns.add<ElementwiseLowering<AbsOp>>(
      converter, ctx, [](OpBuilder &b, Location l, AbsOp, Type t, ValueRange a) {
        if (isa<FloatType>(t))
          return (Value)math::AbsFOp::create(b, l, a[0]);
        if (isUnsignedInt(t))
          return a[0];
        return (Value)math::AbsIOp::create(b, l, a[0]);
      });
  patterns.add<ElementwiseLowering<SquareOp>>(
      converter, ctx,
      [](OpBuilder &b, Location l, SquareOp, Type t, ValueRange a) {
        return buildBinaryScalar(b, l, BinaryKind::Mul, t, a[0], a[0]);
      });
  patterns.add<ElementwiseLowering<SquaredDifferenceOp>>(
      converter, ctx,
      [](OpBuilder &b, Location l, SquaredDifferenceOp, Type t, ValueRange a) {
        Value d = buildBinaryScalar(b, l, BinaryKind::Sub, t, a[0], a[1]);
        return buildBinaryScalar(b, l, BinaryKind::Mul, t, d, d);
      });
  patterns.add<ElementwiseLowering<EluOp>>(
      converter, ctx, [](OpBuilder &b, Location l, EluOp, Type t, ValueRange a) {
        Value expm1 = math::ExpM1Op::create(b, l, a[0]);
        return selectPositive(b, l, t, a[0], expm1);
      });
  patterns.add<ElementwiseLowering<LeakyReluOp>>(
      converter, ctx,
      [](OpBuilder &b, Location l, LeakyReluOp op, Type t, ValueRange a) {
        Value alpha =
            scalarConstant(b, l, t, op.getAlpha().convertToDouble());
        Value scaled = arith::MulFOp::create(b, l, a[0], alpha);
        return selectPositive(b, l, t, a[0], scaled);
      });
  patterns.add<ElementwiseLowering<PreluOp>>(
      converter, ctx,
      [](OpBuilder &b, Location l, PreluOp, Type t, ValueRange a) {
        Value scaled = arith::MulFOp::create(b, l, a[0], a[1]);
        return selectPositive(b, l, t, a[0], scaled);
      });
  patterns.add<ElementwiseLowering<AddNOp>>(
      converter, ctx, [](OpBuilder &b, Location l, AddNOp, Type t, ValueRange a) {
        Value sum = a[0];
        for (Value v : a.drop_front())
          sum = buildBinaryScalar(b, l, BinaryKind::Add, t, sum, v);
        return sum;
      });
}
