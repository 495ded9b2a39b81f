//===- LowerDataMovementOps.cpp - Slices, padding, blocks -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. Ops that only move elements around:
//   - Slice is a tensor.extract_slice;
//   - MirrorPad and OneHot are linalg.generic ops over the result that
//     compute, per result element, which input element (or value) it takes;
//   - BroadcastTo is the broadcasting copy every elementwise op already does;
//   - SpaceToBatchND and BatchToSpaceND are pad/crop plus reshape-transpose-
//     reshape, the same shuffles as TF's reference kernels, so no element is
//     read through a computed index;
//   - TopKV2 is LowerTopK.cpp's (radix selection, linear in the row).
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tfaot;

namespace {

struct SliceLowering : TfaotPattern<SliceOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto begin = getConstantIntValues(op.getBegin());
    auto size = getConstantIntValues(op.getSize());
    if (!begin || !size)
      return rewriter.notifyMatchFailure(op, "begin/size are not constant");
    SmallVector<int64_t> sizes;
    std::string why;
    if (failed(resolveSlice(op.getInput().getType().getShape(), *begin, *size,
                            sizes, why)))
      return rewriter.notifyMatchFailure(op, why);
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<int64_t> strides(sizes.size(), 1);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, resultType(op), adaptor.getInput(),
        getAsIndexOpFoldResult(ctx, *begin), getAsIndexOpFoldResult(ctx, sizes),
        getAsIndexOpFoldResult(ctx, strides));
    return success();
  }
};

struct MirrorPadLowering : TfaotPattern<MirrorPadOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(MirrorPadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto paddings = getConstantIntValues(op.getPaddings());
    if (!paddings)
      return rewriter.notifyMatchFailure(op, "paddings are not constant");
    ArrayRef<int64_t> inputShape = op.getInput().getType().getShape();
    // Position p = o - before in the input's coordinates maps back inside:
    // p < 0 mirrors to -p (REFLECT) or -p - 1 (SYMMETRIC), p >= n to
    // 2n - 2 - p or 2n - 1 - p. The verifier bounds the paddings so one
    // reflection always suffices.
    int64_t symmetric = op.getMode() == "SYMMETRIC" ? 1 : 0;
    RankedTensorType type = resultType(op);
    Value result = buildElementwise(
        rewriter, op.getLoc(), type, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          SmallVector<Value> at;
          for (int64_t d = 0; d < type.getRank(); ++d) {
            Value o = linalg::IndexOp::create(b, l, d);
            int64_t before = (*paddings)[2 * d], n = inputShape[d];
            if (before == 0 && (*paddings)[2 * d + 1] == 0) {
              at.push_back(o);
              continue;
            }
            auto c = [&](int64_t v) {
              return arith::ConstantIndexOp::create(b, l, v);
            };
            Value p = arith::SubIOp::create(b, l, o, c(before));
            Value low = arith::SubIOp::create(b, l, c(-symmetric), p);
            Value high = arith::SubIOp::create(b, l, c(2 * n - 2 + symmetric), p);
            Value isLow = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                                p, c(0));
            Value isHigh = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::sge, p, c(n));
            Value q = arith::SelectOp::create(b, l, isHigh, high, p);
            at.push_back(arith::SelectOp::create(b, l, isLow, low, q));
          }
          return tensor::ExtractOp::create(b, l, adaptor.getInput(), at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BroadcastToLowering : TfaotPattern<BroadcastToOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = buildBroadcasting(
        rewriter, op.getLoc(), resultType(op), {adaptor.getInput()},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct OneHotLowering : TfaotPattern<OneHotOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultType(op);
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis() == -1 ? rank - 1 : op.getAxis();
    AffineMap indicesMap =
        rewriter.getMultiDimIdentityMap(rank).dropResult(axis);
    // on_value and off_value are one-element tensors of any rank.
    auto scalarMap = [&](Value v) {
      int64_t r = cast<RankedTensorType>(v.getType()).getRank();
      SmallVector<AffineExpr> zeros(r, getAffineConstantExpr(0, ctx));
      return AffineMap::get(rank, 0, zeros, ctx);
    };
    bool unsignedIndices = isUnsignedInt(op.getIndices().getType().getElementType());
    Value result = buildElementwise(
        rewriter, op.getLoc(), type,
        {adaptor.getIndices(), adaptor.getOnValue(), adaptor.getOffValue()},
        {indicesMap, scalarMap(adaptor.getOnValue()),
         scalarMap(adaptor.getOffValue())},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          // Negative indices cast to negative positions and never match.
          Value index =
              unsignedIndices
                  ? (Value)arith::IndexCastUIOp::create(b, l, b.getIndexType(),
                                                        args[0])
                  : (Value)arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                      args[0]);
          Value position = linalg::IndexOp::create(b, l, axis);
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            index, position);
          return arith::SelectOp::create(b, l, hit, args[1], args[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A static reshape of `value` to `shape` (same element type).
static Value reshapeTo(OpBuilder &b, Location loc, Value value,
                       ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  return buildStaticReshape(
      b, loc, value, RankedTensorType::get(shape, type.getElementType()));
}

struct SpaceToBatchNDLowering : TfaotPattern<SpaceToBatchNDOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(SpaceToBatchNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto block = getConstantIntValues(op.getBlockShape());
    auto paddings = getConstantIntValues(op.getPaddings());
    if (!block || !paddings)
      return rewriter.notifyMatchFailure(op, "block_shape/paddings not constant");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    ArrayRef<int64_t> in = inputType.getShape();
    int64_t m = block->size(), rank = in.size();

    // 1. Zero-pad the spatial dimensions.
    SmallVector<int64_t> low(rank, 0), high(rank, 0), padded(in);
    for (int64_t i = 0; i < m; ++i) {
      low[i + 1] = (*paddings)[2 * i];
      high[i + 1] = (*paddings)[2 * i + 1];
      padded[i + 1] += low[i + 1] + high[i + 1];
    }
    Value value = adaptor.getInput();
    if (llvm::any_of(*paddings, [](int64_t p) { return p != 0; })) {
      Value zero = scalarConstant(rewriter, loc, inputType.getElementType(), 0);
      value = tensor::PadOp::create(
          rewriter, loc,
          RankedTensorType::get(padded, inputType.getElementType()), value,
          getAsIndexOpFoldResult(ctx, low), getAsIndexOpFoldResult(ctx, high),
          zero);
    }
    // 2. [B, P1/b1, b1, ..., PM/bM, bM, rest...]
    SmallVector<int64_t> split = {in[0]};
    for (int64_t i = 0; i < m; ++i) {
      split.push_back(padded[i + 1] / (*block)[i]);
      split.push_back((*block)[i]);
    }
    split.append(in.begin() + m + 1, in.end());
    value = reshapeTo(rewriter, loc, value, split);
    // 3. [b1, ..., bM, B, P1/b1, ..., PM/bM, rest...]: the offset inside
    //    the block is the outer part of the new batch, as in TF.
    SmallVector<int64_t> perm;
    for (int64_t i = 0; i < m; ++i)
      perm.push_back(2 + 2 * i);
    perm.push_back(0);
    for (int64_t i = 0; i < m; ++i)
      perm.push_back(1 + 2 * i);
    for (int64_t j = 2 * m + 1; j < int64_t(split.size()); ++j)
      perm.push_back(j);
    value = buildTranspose(rewriter, loc, value, perm);
    // 4. Merge the block offsets into the batch.
    rewriter.replaceOp(op, buildStaticReshape(rewriter, loc, value,
                                              resultType(op)));
    return success();
  }
};

struct BatchToSpaceNDLowering : TfaotPattern<BatchToSpaceNDOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(BatchToSpaceNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto block = getConstantIntValues(op.getBlockShape());
    auto crops = getConstantIntValues(op.getCrops());
    if (!block || !crops)
      return rewriter.notifyMatchFailure(op, "block_shape/crops not constant");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    ArrayRef<int64_t> in = inputType.getShape();
    int64_t m = block->size(), rank = in.size();
    int64_t blocks = 1;
    for (int64_t b : *block)
      blocks *= b;

    // 1. [b1, ..., bM, B, S1, ..., SM, rest...]
    SmallVector<int64_t> split(*block);
    split.push_back(in[0] / blocks);
    split.append(in.begin() + 1, in.end());
    Value value = reshapeTo(rewriter, loc, adaptor.getInput(), split);
    // 2. [B, S1, b1, ..., SM, bM, rest...]
    SmallVector<int64_t> perm = {m};
    for (int64_t i = 0; i < m; ++i) {
      perm.push_back(m + 1 + i);
      perm.push_back(i);
    }
    for (int64_t j = 2 * m + 1; j < int64_t(split.size()); ++j)
      perm.push_back(j);
    value = buildTranspose(rewriter, loc, value, perm);
    // 3. [B, S1*b1, ..., SM*bM, rest...]
    SmallVector<int64_t> full = {in[0] / blocks};
    for (int64_t i = 0; i < m; ++i)
      full.push_back(in[i + 1] * (*block)[i]);
    full.append(in.begin() + m + 1, in.end());
    value = reshapeTo(rewriter, loc, value, full);
    // 4. Crop.
    if (llvm::any_of(*crops, [](int64_t c) { return c != 0; })) {
      RankedTensorType type = resultType(op);
      SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
      for (int64_t i = 0; i < m; ++i)
        offsets[i + 1] = (*crops)[2 * i];
      value = tensor::ExtractSliceOp::create(
          rewriter, loc, type, value, getAsIndexOpFoldResult(ctx, offsets),
          getAsIndexOpFoldResult(ctx, type.getShape()),
          getAsIndexOpFoldResult(ctx, strides));
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

} // namespace

void mlir::tfaot::populateDataMovementLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<SliceLowering, MirrorPadLowering, BroadcastToLowering,
               OneHotLowering, SpaceToBatchNDLowering, BatchToSpaceNDLowering>(
      converter, patterns.getContext());
  populateTopKLoweringPatterns(patterns, converter);
}
