//===- LowerGatherOps.cpp - GatherV2, GatherNd, BatchMatMulV2 to linalg ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. Gathers become a linalg.generic over the
// output that reads the index with tensor.extract, clamps it into bounds
// (generated code must never read outside a buffer, whatever the input),
// and reads params with tensor.extract. Indices from data are checked
// before the gather (LowerIndexChecks.cpp), so an out-of-range index fails
// Run() instead of reading a clamped row. BatchMatMulV2 becomes a named
// matmul or batch_matmul where it can (buildNamedBatchMatMul), else one
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

/// BatchMatMulV2 of float tensors of static shapes whose batch dimensions
/// are the same in both operands, or whose y is one matrix, as the named
/// products the CPU and GPU backends tile, vectorize or hand to cuBLAS: a
/// transposed operand (adj_x / adj_y) is copied transposed first, and the
/// product is linalg.batch_matmul over the batch dimensions collapsed into
/// one, or linalg.matmul (no batch dimension, or the rows of every batch
/// times the one matrix). As a generic with transposing maps, BERT's
/// attention products ran as scalar loops at 2-4 GFLOP/s. Each output sums
/// its products in the same order. Null when the op does not qualify.
static Value buildNamedBatchMatMul(OpBuilder &b, BatchMatMulV2Op op,
                                   Value x, Value y, RankedTensorType type) {
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  auto yType = dyn_cast<RankedTensorType>(y.getType());
  if (!xType || !yType || !type.hasStaticShape() ||
      !xType.hasStaticShape() || !yType.hasStaticShape() ||
      !isa<FloatType>(type.getElementType()) ||
      xType.getRank() != type.getRank() || type.getNumElements() == 0 ||
      xType.getNumElements() == 0 || yType.getNumElements() == 0)
    return Value(); // (Empty products: the generic, with nothing to divide.)
  int64_t rank = type.getRank();
  Location loc = op.getLoc();
  Value zero = scalarConstant(b, loc, type.getElementType(), 0);
  // A stack of matrices times one matrix (a dense layer over a sequence):
  // the rows of every batch are rows of one product.
  if (yType.getRank() == 2 && rank > 2 && !op.getAdjX()) {
    if (op.getAdjY())
      y = buildTranspose(b, loc, y, {1, 0});
    int64_t k = xType.getDimSize(rank - 1), n = type.getDimSize(rank - 1);
    int64_t rows = type.getNumElements() / n;
    auto rowsType = RankedTensorType::get({rows, n}, type.getElementType());
    Value flat = buildStaticReshape(
        b, loc, x, RankedTensorType::get({rows, k}, xType.getElementType()));
    Value product =
        linalg::MatmulOp::create(b, loc, TypeRange{rowsType},
                                 ValueRange{flat, y},
                                 buildFilled(b, loc, rowsType, zero))
            .getResult(0);
    return buildStaticReshape(b, loc, product, type);
  }
  ArrayRef<int64_t> batch = type.getShape().drop_back(2);
  if (yType.getRank() != rank || xType.getShape().drop_back(2) != batch ||
      yType.getShape().drop_back(2) != batch)
    return Value();
  SmallVector<int64_t> swapLast = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(swapLast[rank - 2], swapLast[rank - 1]);
  if (op.getAdjX())
    x = buildTranspose(b, loc, x, swapLast);
  if (op.getAdjY())
    y = buildTranspose(b, loc, y, swapLast);
  if (rank == 2)
    return linalg::MatmulOp::create(b, loc, TypeRange{type}, ValueRange{x, y},
                                    buildFilled(b, loc, type, zero))
        .getResult(0);
  int64_t batches = ShapedType::getNumElements(batch);
  auto asBatch3 = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    auto flat = RankedTensorType::get(
        {batches, t.getDimSize(rank - 2), t.getDimSize(rank - 1)},
        t.getElementType());
    return rank == 3 ? v : buildStaticReshape(b, loc, v, flat);
  };
  auto flatType = RankedTensorType::get(
      {batches, type.getDimSize(rank - 2), type.getDimSize(rank - 1)},
      type.getElementType());
  Value product =
      linalg::BatchMatmulOp::create(b, loc, TypeRange{flatType},
                                    ValueRange{asBatch3(x), asBatch3(y)},
                                    buildFilled(b, loc, flatType, zero))
          .getResult(0);
  return rank == 3 ? product : buildStaticReshape(b, loc, product, type);
}

struct BatchMatMulLowering : TfaotPattern<BatchMatMulV2Op> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(BatchMatMulV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    if (Value named = buildNamedBatchMatMul(rewriter, op, adaptor.getX(),
                                            adaptor.getY(), type)) {
      rewriter.replaceOp(op, named);
      return success();
    }
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
