//===- LowerMathOps.cpp - Ceil, Any/All, FusedBatchNorm, RandomUniform ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg:
//   - Ceil is math.ceil;
//   - Any and All are reduction generics over i1 (or/and), like the numeric
//     reductions in LowerCnnOps.cpp;
//   - FusedBatchNorm is one elementwise generic whose parameters are read
//     along the channel dimension;
//   - RandomUniform is an elementwise generic hashing each element's linear
//     index (see the op's description: not TF's Philox stream).
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// Any (or) and All (and) over the constant reduction_indices.
template <typename OpTy, bool IsAll>
struct BoolReductionLowering : TfaotPattern<OpTy> {
  using TfaotPattern<OpTy>::TfaotPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto axes = getConstantIntValues(op.getReductionIndices());
    if (!axes)
      return rewriter.notifyMatchFailure(op, "axes are not constant");
    Location loc = op.getLoc();
    // The identity of the combination: false for or, true for and (so an
    // empty reduction gives TF's answers, Any([]) = false, All([]) = true).
    Value identity = arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getBoolAttr(IsAll));
    Value result =
        buildReduction(rewriter, loc, adaptor.getInput(), *axes, identity,
                       [](OpBuilder &b, Location l, Value x, Value acc) {
                         return IsAll
                                    ? (Value)arith::AndIOp::create(b, l, x, acc)
                                    : (Value)arith::OrIOp::create(b, l, x, acc);
                       })
            .result;
    RankedTensorType finalType = this->resultType(op);
    if (finalType != result.getType()) // keep_dims: reinsert size-1 dims.
      result = buildStaticReshape(rewriter, loc, result, finalType);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct FusedBatchNormLowering : TfaotPattern<FusedBatchNormOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(FusedBatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultType(op);
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank();
    AffineMap xMap = rewriter.getMultiDimIdentityMap(rank);
    AffineMap channelMap =
        AffineMap::get(rank, 0, getAffineDimExpr(op.getChannelDim(), ctx), ctx);
    double epsilon = op.getEpsilon().convertToDouble();
    Value result = buildElementwise(
        rewriter, op.getLoc(), type,
        {adaptor.getX(), adaptor.getScale(), adaptor.getOffset(),
         adaptor.getMean(), adaptor.getVariance()},
        {xMap, channelMap, channelMap, channelMap, channelMap},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          // (x - mean) * (scale * rsqrt(variance + epsilon)) + offset, the
          // order TF's inference kernel computes it in.
          Value eps = scalarConstant(b, l, a[4].getType(), epsilon);
          Value inv = math::RsqrtOp::create(
              b, l, arith::AddFOp::create(b, l, a[4], eps));
          Value factor = arith::MulFOp::create(b, l, inv, a[1]);
          Value centered = arith::SubFOp::create(b, l, a[0], a[3]);
          Value scaled = arith::MulFOp::create(b, l, centered, factor);
          return arith::AddFOp::create(b, l, scaled, a[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// SplitMix64's output function: a bijective 64-bit mixer, so distinct
/// counters never collide.
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct RandomUniformLowering : TfaotPattern<RandomUniformOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(RandomUniformOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultType(op);
    auto floatType = cast<FloatType>(type.getElementType());
    // Take as many bits as the float has significand digits: the integer
    // converts exactly and the scaled result stays below 1 (rounding a
    // wider integer could reach 1.0).
    unsigned digits = llvm::APFloat::semanticsPrecision(
        floatType.getFloatSemantics());
    uint64_t key = mix64(mix64(uint64_t(op.getSeed())) ^ uint64_t(op.getSeed2()));
    ArrayRef<int64_t> shape = type.getShape();
    Value result = buildElementwise(
        rewriter, op.getLoc(), type, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          auto c64 = [&](uint64_t v) {
            return arith::ConstantOp::create(b, l,
                                             b.getI64IntegerAttr(int64_t(v)));
          };
          // Row-major linear index of the element.
          Value linear = arith::ConstantIndexOp::create(b, l, 0);
          for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
            Value scaled = arith::MulIOp::create(
                b, l, linear, arith::ConstantIndexOp::create(b, l, shape[d]));
            linear = arith::AddIOp::create(b, l, scaled,
                                           linalg::IndexOp::create(b, l, d));
          }
          Value z = arith::IndexCastUIOp::create(b, l, b.getI64Type(), linear);
          // Weyl step from the key, then mix64 (as in the C++ above).
          z = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, z, c64(0x9E3779B97F4A7C15ULL)),
              c64(key));
          auto xorShift = [&](Value v, uint64_t s) -> Value {
            return arith::XOrIOp::create(
                b, l, v, arith::ShRUIOp::create(b, l, v, c64(s)));
          };
          z = arith::MulIOp::create(b, l, xorShift(z, 30),
                                    c64(0xBF58476D1CE4E5B9ULL));
          z = arith::MulIOp::create(b, l, xorShift(z, 27),
                                    c64(0x94D049BB133111EBULL));
          z = xorShift(z, 31);
          Value top = arith::ShRUIOp::create(b, l, z, c64(64 - digits));
          Value asFloat = arith::UIToFPOp::create(b, l, floatType, top);
          Value unit = scalarConstant(b, l, floatType, std::ldexp(1.0, -int(digits)));
          return arith::MulFOp::create(b, l, asFloat, unit);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tfaot::populateMathLoweringPatterns(RewritePatternSet &patterns,
                                               const TypeConverter &converter) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BoolReductionLowering<AnyOp, false>,
               BoolReductionLowering<AllOp, true>, FusedBatchNormLowering,
               RandomUniformLowering>(converter, ctx);
  addUnaryMathLowering<CeilOp, math::CeilOp>(patterns, converter);
}
