//===- LowerToLinalg.cpp - tfaot ops to linalg/tensor/arith/math ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-lower-to-linalg: the shared front half of every backend. Each tfaot
// op becomes upstream ops on tensors: elementwise ops a broadcasting
// `linalg.generic`, MatMul a `linalg.matmul`, Softmax and ArgMax reduction
// generics. TF's unsigned element types become signless integers here; the
// patterns look at the *original* operand types to pick signed or unsigned
// arithmetic.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "passes/LowerListOps.h"
#include "passes/LowerScanOps.h"
#include "passes/LoweringUtils.h"
#include "passes/LowerDataDependentOps.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_LOWERTOLINALGPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

struct ConstLowering : TfaotPattern<ConstOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(ConstOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "only dense constants lower");
    Type elementType = toSignless(dense.getElementType());
    if (elementType != dense.getElementType())
      dense = dense.bitcast(elementType);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, dense);
    return success();
  }
};

struct IdentityLowering : TfaotPattern<IdentityOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// Adds ElementwiseLowering<OpTy> computing `x kind y` on the operands.
template <typename OpTy, BinaryKind Kind>
static void addBinary(RewritePatternSet &patterns,
                      const TypeConverter &converter) {
  patterns.add<ElementwiseLowering<OpTy>>(
      converter, patterns.getContext(),
      [](OpBuilder &b, Location l, OpTy, Type t, ValueRange a) {
        return buildBinaryScalar(b, l, Kind, t, a[0], a[1]);
      });
}

/// Adds ElementwiseLowering<OpTy> whose body is `Fn(b, loc, type, x)`.
template <typename OpTy, Value (*Fn)(OpBuilder &, Location, Type, Value)>
static void addUnary(RewritePatternSet &patterns,
                     const TypeConverter &converter) {
  patterns.add<ElementwiseLowering<OpTy>>(
      converter, patterns.getContext(),
      [](OpBuilder &b, Location l, OpTy, Type t, ValueRange a) {
        return Fn(b, l, t, a[0]);
      });
}

static Value buildRelu(OpBuilder &b, Location loc, Type type, Value x) {
  Value zero = scalarConstant(b, loc, toSignless(type), 0);
  return buildBinaryScalar(b, loc, BinaryKind::Max, type, x, zero);
}

static Value buildRelu6(OpBuilder &b, Location loc, Type type, Value x) {
  Value six = scalarConstant(b, loc, toSignless(type), 6);
  return buildBinaryScalar(b, loc, BinaryKind::Min, type,
                           buildRelu(b, loc, type, x), six);
}

static Value buildSigmoid(OpBuilder &b, Location loc, Type type, Value x) {
  // 1 / (1 + exp(-x)): exp overflows to +inf for very negative x, which
  // gives the correct limit 0.
  Value one = scalarConstant(b, loc, type, 1);
  Value negated = arith::NegFOp::create(b, loc, x);
  Value exp = math::ExpOp::create(b, loc, negated);
  Value denominator = arith::AddFOp::create(b, loc, one, exp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

static Value buildTanh(OpBuilder &b, Location loc, Type, Value x) {
  return math::TanhOp::create(b, loc, x);
}

struct BiasAddLowering : TfaotPattern<BiasAddOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(BiasAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultType(op);
    MLIRContext *ctx = rewriter.getContext();
    AffineMap valueMap = rewriter.getMultiDimIdentityMap(type.getRank());
    AffineMap biasMap = AffineMap::get(
        type.getRank(), 0, getAffineDimExpr(op.getChannelDim(), ctx), ctx);
    Type elementType = op.getValue().getType().getElementType();
    Value result = buildElementwise(
        rewriter, op.getLoc(), type, {adaptor.getValue(), adaptor.getBias()},
        {valueMap, biasMap}, [&](OpBuilder &b, Location loc, ValueRange args) {
          return buildBinaryScalar(b, loc, BinaryKind::Add, elementType,
                                   args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MatMulLowering : TfaotPattern<MatMulOp> {
  using TfaotPattern::TfaotPattern;

  /// `value` transposed if `transpose`, as a materialized linalg.transpose so
  /// that the product itself is a plain linalg.matmul later passes recognize.
  static Value maybeTranspose(OpBuilder &b, Location loc, Value value,
                              bool transpose) {
    return transpose ? buildTranspose(b, loc, value, {1, 0}) : value;
  }

  LogicalResult
  matchAndRewrite(MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    Value a = maybeTranspose(rewriter, loc, adaptor.getA(), op.getTransposeA());
    Value b = maybeTranspose(rewriter, loc, adaptor.getB(), op.getTransposeB());
    Value zero = scalarConstant(rewriter, loc, type.getElementType(), 0);
    Value init = buildFilled(rewriter, loc, type, zero);
    rewriter.replaceOpWithNewOp<linalg::MatmulOp>(op, ValueRange{a, b},
                                                  ValueRange{init});
    return success();
  }
};

struct SoftmaxLowering : TfaotPattern<SoftmaxOp> {
  using TfaotPattern::TfaotPattern;

  /// Reduces the last dimension of `input` with `combine`, starting at `init`.
  static Value reduceLast(OpBuilder &b, Location loc, Value input,
                          double initValue, BinaryKind combine) {
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank();
    auto reducedType = RankedTensorType::get(type.getShape().drop_back(),
                                             type.getElementType());
    Value init = buildFilled(
        b, loc, reducedType,
        scalarConstant(b, loc, type.getElementType(), initValue));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    AffineMap inputMap = b.getMultiDimIdentityMap(rank);
    AffineMap outputMap = inputMap.dropResult(rank - 1);
    auto generic = linalg::GenericOp::create(
        b, loc, reducedType, input, init,
        ArrayRef<AffineMap>{inputMap, outputMap}, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          linalg::YieldOp::create(
              nb, nloc,
              buildBinaryScalar(nb, nloc, combine, type.getElementType(),
                                args[0], args[1]));
        });
    return generic.getResult(0);
  }

  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    int64_t rank = type.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap rowMap = identity.dropResult(rank - 1);
    // Subtracting the row maximum keeps exp() from overflowing.
    Value rowMax = reduceLast(rewriter, loc, adaptor.getLogits(),
                              -std::numeric_limits<double>::infinity(),
                              BinaryKind::Max);
    Value exps = buildElementwise(
        rewriter, loc, type, {adaptor.getLogits(), rowMax}, {identity, rowMap},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value shifted = arith::SubFOp::create(b, l, args[0], args[1]);
          return math::ExpOp::create(b, l, shifted);
        });
    Value rowSum = reduceLast(rewriter, loc, exps, 0.0, BinaryKind::Add);
    Value result = buildElementwise(
        rewriter, loc, type, {exps, rowSum}, {identity, rowMap},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ReshapeLowering : TfaotPattern<ReshapeOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultType(op);
    // The result type is fully static (checked by the pass), so the shape
    // operand is rebuilt from it: a -1 in the graph's shape is resolved.
    rewriter.replaceOp(op, buildStaticReshape(rewriter, op.getLoc(),
                                              adaptor.getTensor(), type));
    return success();
  }
};

struct ArgMaxLowering : TfaotPattern<ArgMaxOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(ArgMaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto axisValues = getConstantIntValues(adaptor.getDimension());
    if (!axisValues)
      axisValues = getConstantIntValues(op.getDimension());
    if (!axisValues)
      return rewriter.notifyMatchFailure(op, "dimension is not a constant");
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    Type originalElement = op.getInput().getType().getElementType();
    Type element = inputType.getElementType();
    int64_t rank = inputType.getRank();
    int64_t axis = (*axisValues)[0] < 0 ? (*axisValues)[0] + rank
                                        : (*axisValues)[0];
    RankedTensorType indexType = resultType(op);
    auto maxType = RankedTensorType::get(indexType.getShape(), element);

    // Start below every value so the first element always wins; later
    // elements win only when strictly greater, so ties keep the smallest
    // index as TensorFlow does.
    Value lowest;
    if (auto floatType = dyn_cast<FloatType>(element))
      lowest = arith::ConstantOp::create(
          rewriter, loc,
          FloatAttr::get(floatType, APFloat::getInf(
                                        floatType.getFloatSemantics(), true)));
    else
      lowest = arith::ConstantOp::create(
          rewriter, loc,
          IntegerAttr::get(element,
                           isUnsignedInt(originalElement)
                               ? APInt::getMinValue(element.getIntOrFloatBitWidth())
                               : APInt::getSignedMinValue(
                                     element.getIntOrFloatBitWidth())));
    Value maxInit = buildFilled(rewriter, loc, maxType, lowest);
    Value indexInit = buildFilled(
        rewriter, loc, indexType,
        scalarConstant(rewriter, loc, indexType.getElementType(), 0));

    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;
    AffineMap inputMap = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outputMap = inputMap.dropResult(axis);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{maxType, indexType}, adaptor.getInput(),
        ValueRange{maxInit, indexInit},
        ArrayRef<AffineMap>{inputMap, outputMap, outputMap}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], currentMax = args[1], currentIndex = args[2];
          Value greater;
          if (isa<FloatType>(element))
            greater = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                            x, currentMax);
          else
            greater = arith::CmpIOp::create(
                b, l,
                isUnsignedInt(originalElement) ? arith::CmpIPredicate::ugt
                                               : arith::CmpIPredicate::sgt,
                x, currentMax);
          Value position = linalg::IndexOp::create(b, l, axis);
          Value index = arith::IndexCastOp::create(
              b, l, indexType.getElementType(), position);
          Value newMax = arith::SelectOp::create(b, l, greater, x, currentMax);
          Value newIndex =
              arith::SelectOp::create(b, l, greater, index, currentIndex);
          linalg::YieldOp::create(b, l, ValueRange{newMax, newIndex});
        });
    rewriter.replaceOp(op, generic.getResult(1));
    return success();
  }
};

struct CastLowering : TfaotPattern<CastOp> {
  using TfaotPattern::TfaotPattern;

  static Value castScalar(OpBuilder &b, Location loc, Type from, Type to,
                          Value x) {
    Type target = toSignless(to);
    if (from == to)
      return x;
    bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
    if (to.isInteger(1)) {
      // Cast to bool is "!= 0", not truncation to the low bit.
      Value zero = scalarConstant(b, loc, toSignless(from), 0);
      if (fromFloat)
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                     zero);
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
    }
    unsigned fromWidth = from.getIntOrFloatBitWidth();
    unsigned toWidth = to.getIntOrFloatBitWidth();
    if (fromFloat && toFloat) {
      if (fromWidth < toWidth)
        return arith::ExtFOp::create(b, loc, target, x);
      return arith::TruncFOp::create(b, loc, target, x);
    }
    if (fromFloat) // float -> int rounds toward zero, as TF does.
      return isUnsignedInt(to) ? (Value)arith::FPToUIOp::create(b, loc, target, x)
                               : (Value)arith::FPToSIOp::create(b, loc, target, x);
    if (toFloat)
      return isUnsignedInt(from)
                 ? (Value)arith::UIToFPOp::create(b, loc, target, x)
                 : (Value)arith::SIToFPOp::create(b, loc, target, x);
    if (fromWidth == toWidth)
      return x;
    if (fromWidth > toWidth)
      return arith::TruncIOp::create(b, loc, target, x);
    return isUnsignedInt(from) ? (Value)arith::ExtUIOp::create(b, loc, target, x)
                               : (Value)arith::ExtSIOp::create(b, loc, target, x);
  }

  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = op.getX().getType().getElementType();
    Type to = op.getY().getType().getElementType();
    if (toSignless(from) == toSignless(to) && from.getIntOrFloatBitWidth() ==
                                                  to.getIntOrFloatBitWidth() &&
        !to.isInteger(1)) {
      rewriter.replaceOp(op, adaptor.getX());
      return success();
    }
    Value result = buildBroadcasting(
        rewriter, op.getLoc(), resultType(op), {adaptor.getX()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, from, to, args[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowerToLinalgPass
    : public tfaot::impl::LowerToLinalgPassBase<LowerToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // Code generation needs static shapes; say which node is at fault.
    bool dynamic = false;
    module.walk([&](Operation *op) {
      if (!isa<TfaotDialect>(op->getDialect()))
        return;
      for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                          op->getResultTypes()))
        if (auto shaped = dyn_cast<ShapedType>(type);
            shaped && !shaped.hasStaticShape()) {
          op->emitOpError("has a dynamic shape ")
              << type
              << "; code generation needs static shapes: give every feed a "
                 "full shape (--feed name:d0,d1,... or the config's shape)";
          dynamic = true;
          return;
        }
    });
    if (dynamic)
      return signalPassFailure();

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](RankedTensorType type) -> Type { return toSignless(type); });

    declareImageRuntime(module);
    declareCheckRuntime(module);
    declareDataDependentRuntime(module);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<TfaotDialect>();
    target.addLegalOp<ModuleOp, func::CallOp>();
    // Lowered after elementwise fusion (tfaot-lower-int8-contractions).
    target.addLegalOp<Int8Conv2DOp, Int8DepthwiseConv2DOp, Int8MatMulOp,
                      Int8WeightMatMulOp>();
    // DecodeJpeg's runtime call works on buffers (LowerImageOps.cpp).
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect,
                           bufferization::BufferizationDialect,
                           memref::MemRefDialect, scf::SCFDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp op) { return converter.isLegal(op); });

    RewritePatternSet patterns(ctx);
    patterns.add<ConstLowering, IdentityLowering, BiasAddLowering,
                 MatMulLowering, SoftmaxLowering, ReshapeLowering,
                 ArgMaxLowering, CastLowering>(converter, ctx);
    addBinary<AddOp, BinaryKind::Add>(patterns, converter);
    addBinary<AddV2Op, BinaryKind::Add>(patterns, converter);
    addBinary<SubOp, BinaryKind::Sub>(patterns, converter);
    addBinary<MulOp, BinaryKind::Mul>(patterns, converter);
    addBinary<RealDivOp, BinaryKind::Div>(patterns, converter);
    addBinary<MaximumOp, BinaryKind::Max>(patterns, converter);
    addBinary<MinimumOp, BinaryKind::Min>(patterns, converter);
    addUnary<ReluOp, buildRelu>(patterns, converter);
    addUnary<Relu6Op, buildRelu6>(patterns, converter);
    addUnary<SigmoidOp, buildSigmoid>(patterns, converter);
    addUnary<TanhOp, buildTanh>(patterns, converter);
    populateCnnLoweringPatterns(patterns, converter);
    populateResizeLoweringPatterns(patterns, converter);
    populateElementwiseLoweringPatterns(patterns, converter);
    populateGatherLoweringPatterns(patterns, converter);
    populateDataMovementLoweringPatterns(patterns, converter);
    populateMathLoweringPatterns(patterns, converter);
    populateQuantizedLoweringPatterns(patterns, converter);
    populateImageLoweringPatterns(patterns, converter);
    populateControlFlowLoweringPatterns(patterns, converter);
    populateDataDependentLoweringPatterns(patterns, converter);
    populateListLoweringPatterns(patterns, converter);
    populateScanLoweringPatterns(patterns, converter);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);

    int64_t before = 0;
    module.walk([&](Operation *op) {
      if (isa<TfaotDialect>(op->getDialect()))
        ++before;
    });
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    numOpsLowered += before;
  }
};

} // namespace
