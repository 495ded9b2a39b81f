//===- LowerGatherOps.cpp - GatherV2, GatherNd, BatchMatMulV2 to linalg ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. Gathers become a linalg.generic over the
// output that reads the index with tensor.extract, clamps it into bounds
// (generated code must never read outside a buffer, whatever the input),
// and reads params with tensor.extract. Indices from data are checked
// before the gather (LowerIndexChecks.cpp), so an out-of-range index fails
// Run() instead of reading a clamped row. BatchMatMulV2 becomes one
// contraction generic whose indexing maps broadcast the batch dimensions.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"

using namespace mlir;
using namespace mlir::tfaot;

/// `index` (an integer scalar) as an index in [0, size).
static Value clampedIndex(OpBuilder &b, Location l, Value index, int64_t size) {
  Value i = arith::IndexCastOp::create(b, l, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value last = arith::ConstantIndexOp::create(b, l, size - 1);
  Value low = arith::MaxSIOp::create(b, l, i, zero);
  return arith::MinSIOp::create(b, l, low, last);
}

namespace {

struct GatherV2Lowering : TfaotPattern<GatherV2Op> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(GatherV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto axisValues = getConstantIntValues(op.getAxis());
    if (!axisValues)
      return rewriter.notifyMatchFailure(op, "axis is not constant");
    auto params = op.getParams().getType();
    int64_t axis = (*axisValues)[0] < 0 ? (*axisValues)[0] + params.getRank()
                                        : (*axisValues)[0];
    int64_t indexRank = op.getIndices().getType().getRank();
    emitIndexCheck(rewriter, op, adaptor.getIndices(),
                   {params.getDimSize(axis)});
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType(op), {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          // Output index = (params before axis, indices dims, params after).
          SmallVector<Value> out;
          for (int64_t d = 0; d < resultType(op).getRank(); ++d)
            out.push_back(linalg::IndexOp::create(b, l, d));
          ValueRange where(out);
          Value index = tensor::ExtractOp::create(
              b, l, adaptor.getIndices(), where.slice(axis, indexRank));
          SmallVector<Value> at(where.take_front(axis));
          at.push_back(clampedIndex(b, l, index, params.getDimSize(axis)));
          llvm::append_range(at, where.drop_front(axis + indexRank));
          return tensor::ExtractOp::create(b, l, adaptor.getParams(), at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherNdLowering : TfaotPattern<GatherNdOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(GatherNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto params = op.getParams().getType();
    auto indicesType = op.getIndices().getType();
    int64_t batchRank = indicesType.getRank() - 1;
    int64_t k = indicesType.getShape().back();
    emitIndexCheck(rewriter, op, adaptor.getIndices(), params.getShape());
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType(op), {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          SmallVector<Value> out;
          for (int64_t d = 0; d < resultType(op).getRank(); ++d)
            out.push_back(linalg::IndexOp::create(b, l, d));
          SmallVector<Value> at;
          for (int64_t j = 0; j < k; ++j) {
            SmallVector<Value> tuple(out.begin(), out.begin() + batchRank);
            tuple.push_back(arith::ConstantIndexOp::create(b, l, j));
            Value index =
                tensor::ExtractOp::create(b, l, adaptor.getIndices(), tuple);
            at.push_back(clampedIndex(b, l, index, params.getDimSize(j)));
          }
          at.append(out.begin() + batchRank, out.end());
          return tensor::ExtractOp::create(b, l, adaptor.getParams(), at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BatchMatMulLowering : TfaotPattern<BatchMatMulV2Op> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(BatchMatMulV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank(); // batch..., m, n
    int64_t loops = rank + 1;      // batch..., m, n, k
    AffineExpr m = getAffineDimExpr(rank - 2, ctx);
    AffineExpr n = getAffineDimExpr(rank - 1, ctx);
    AffineExpr k = getAffineDimExpr(rank, ctx);
    ArrayRef<int64_t> batch = type.getShape().drop_back(2);
    // Batch dimensions broadcast like an elementwise op's.
    auto mapFor = [&](RankedTensorType operand, AffineExpr row,
                      AffineExpr col) {
      AffineMap batchMap =
          broadcastMap(operand.getShape().drop_back(2), batch, ctx);
      SmallVector<AffineExpr> exprs(batchMap.getResults());
      exprs.push_back(row);
      exprs.push_back(col);
      return AffineMap::get(loops, 0, exprs, ctx);
    };
    auto x = op.getX().getType(), y = op.getY().getType();
    AffineMap xMap = op.getAdjX() ? mapFor(x, k, m) : mapFor(x, m, k);
    AffineMap yMap = op.getAdjY() ? mapFor(y, n, k) : mapFor(y, k, n);
    AffineMap outMap = AffineMap::getMultiDimIdentityMap(loops, ctx)
                           .dropResult(rank);
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    Type original = x.getElementType();
    Value init = buildFilled(rewriter, loc, type,
                             scalarConstant(rewriter, loc, type.getElementType(), 0));
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, type, ValueRange{adaptor.getX(), adaptor.getY()},
            init, ArrayRef<AffineMap>{xMap, yMap, outMap}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value p = buildBinaryScalar(b, l, BinaryKind::Mul, original,
                                          args[0], args[1]);
              linalg::YieldOp::create(
                  b, l, buildBinaryScalar(b, l, BinaryKind::Add, original,
                                          args[2], p));
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tfaot::populateGatherLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<GatherV2Lowering, GatherNdLowering, BatchMatMulLowering>(
      converter, patterns.getContext());
}
