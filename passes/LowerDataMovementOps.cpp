//===- LowerDataMovementOps.cpp - Slices, padding, blocks, TopKV2 ---------===//
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
//   - TopKV2 keeps, per row, a heap of the k best elements seen so far
//     (O(n log k) per row; TopKV2Lowering says how).
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

/// TopKV2 per row with a heap of the k best elements seen so far, ordered
/// worst on top: each element that beats the top replaces it and sinks,
/// so a row costs O(n log k) (and O(n) when few elements beat the top),
/// not the O(n^2) of ranking every element against every other. Ties go
/// to the lower index, as in TF: of two equal values the later one is the
/// worse. Rows run one after another as scf loops on tensors, which
/// bufferize into stores in place.
struct TopKV2Lowering : TfaotPattern<TopKV2Op> {
  using TfaotPattern::TfaotPattern;

  /// The heap (its values and i64 input positions) with the comparisons
  /// that order it.
  struct Heap {
    Type original; // Signed or unsigned: the comparison depends on it.

    /// a is worse than b: smaller, or equal at a later position.
    Value worse(OpBuilder &b, Location l, Value va, Value ia, Value vb,
                Value ib) const {
      Value less, equal;
      if (isa<FloatType>(original)) {
        less = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, va, vb);
        equal = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, va, vb);
      } else {
        less = arith::CmpIOp::create(b, l,
                                     isUnsignedInt(original)
                                         ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt,
                                     va, vb);
        equal = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, va, vb);
      }
      Value later =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, ia, ib);
      return arith::OrIOp::create(
          b, l, less, arith::AndIOp::create(b, l, equal, later));
    }

    /// Whether heap slot p is worse than slot q.
    Value slotWorse(OpBuilder &b, Location l, Value hv, Value hi, Value p,
                    Value q) const {
      return worse(b, l, tensor::ExtractOp::create(b, l, hv, p),
                   tensor::ExtractOp::create(b, l, hi, p),
                   tensor::ExtractOp::create(b, l, hv, q),
                   tensor::ExtractOp::create(b, l, hi, q));
    }

    /// (hv, hi) with slots p and q exchanged.
    std::pair<Value, Value> swap(OpBuilder &b, Location l, Value hv, Value hi,
                                 Value p, Value q) const {
      Value vp = tensor::ExtractOp::create(b, l, hv, p);
      Value ip = tensor::ExtractOp::create(b, l, hi, p);
      Value vq = tensor::ExtractOp::create(b, l, hv, q);
      Value iq = tensor::ExtractOp::create(b, l, hi, q);
      hv = tensor::InsertOp::create(b, l, vq, hv, p);
      hi = tensor::InsertOp::create(b, l, iq, hi, p);
      hv = tensor::InsertOp::create(b, l, vp, hv, q);
      hi = tensor::InsertOp::create(b, l, ip, hi, q);
      return {hv, hi};
    }

    /// Moves slot p up while it is worse than its parent.
    std::pair<Value, Value> siftUp(OpBuilder &b, Location l, Value hv,
                                   Value hi, Value p) const {
      auto loop = scf::WhileOp::create(
          b, l, TypeRange{p.getType(), hv.getType(), hi.getType()},
          ValueRange{p, hv, hi},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value zero = arith::ConstantIndexOp::create(b, l, 0);
            Value one = arith::ConstantIndexOp::create(b, l, 1);
            Value two = arith::ConstantIndexOp::create(b, l, 2);
            Value q = args[0];
            Value up = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt,
                                             q, zero);
            // At the root, read slot 0 against itself: never worse.
            Value parent = arith::DivUIOp::create(
                b, l, arith::MaxUIOp::create(
                          b, l, arith::SubIOp::create(b, l, q, one), zero),
                two);
            parent = arith::SelectOp::create(b, l, up, parent, zero);
            Value moves = arith::AndIOp::create(
                b, l, up, slotWorse(b, l, args[1], args[2], q, parent));
            scf::ConditionOp::create(b, l, moves, args);
          },
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value one = arith::ConstantIndexOp::create(b, l, 1);
            Value two = arith::ConstantIndexOp::create(b, l, 2);
            Value parent = arith::DivUIOp::create(
                b, l, arith::SubIOp::create(b, l, args[0], one), two);
            auto [v, i] = swap(b, l, args[1], args[2], args[0], parent);
            scf::YieldOp::create(b, l, ValueRange{parent, v, i});
          });
      return {loop.getResult(1), loop.getResult(2)};
    }

    /// Moves slot 0 down among the first `size` slots while a child is
    /// worse than it. The loop carries the slot the entry moves to; its
    /// parent, the slot it leaves, is (slot - 1) / 2. (Before and after
    /// regions carry the same values, as bufferization in place needs.)
    std::pair<Value, Value> siftDown(OpBuilder &b, Location l, Value hv,
                                     Value hi, Value size) const {
      Value start = arith::ConstantIndexOp::create(b, l, 0);
      auto loop = scf::WhileOp::create(
          b, l, TypeRange{b.getIndexType(), hv.getType(), hi.getType()},
          ValueRange{start, hv, hi},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value two = arith::ConstantIndexOp::create(b, l, 2);
            Value p = args[0], v = args[1], i = args[2];
            Value pick = p;
            for (int64_t c = 1; c <= 2; ++c) {
              Value child = arith::AddIOp::create(
                  b, l, arith::MulIOp::create(b, l, p, two),
                  arith::ConstantIndexOp::create(b, l, c));
              Value inside = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::ult, child, size);
              // Outside the heap, compare the pick with itself: not worse.
              Value read = arith::SelectOp::create(b, l, inside, child, pick);
              Value take = arith::AndIOp::create(
                  b, l, inside, slotWorse(b, l, v, i, read, pick));
              pick = arith::SelectOp::create(b, l, take, child, pick);
            }
            Value moves =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, pick, p);
            scf::ConditionOp::create(b, l, moves, ValueRange{pick, v, i});
          },
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value one = arith::ConstantIndexOp::create(b, l, 1);
            Value two = arith::ConstantIndexOp::create(b, l, 2);
            Value parent = arith::DivUIOp::create(
                b, l, arith::SubIOp::create(b, l, args[0], one), two);
            auto [v, i] = swap(b, l, args[1], args[2], parent, args[0]);
            scf::YieldOp::create(b, l, ValueRange{args[0], v, i});
          });
      return {loop.getResult(1), loop.getResult(2)};
    }
  };

  LogicalResult
  matchAndRewrite(TopKV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto valuesType = toSignless(op.getValues().getType());
    auto indicesType = toSignless(op.getIndices().getType());
    Type element = inputType.getElementType();
    Type indexElement = indicesType.getElementType();
    int64_t n = inputType.getShape().back(), k = valuesType.getShape().back();
    int64_t rows = n == 0 ? 0 : inputType.getNumElements() / n;
    if (n == 0)
      rows = valuesType.getNumElements() / std::max<int64_t>(k, 1);
    Type i64 = rewriter.getI64Type();
    Heap heap{op.getInput().getType().getElementType()};

    // Rows of the input and outputs as 2-D tensors.
    Value input = buildStaticReshape(
        rewriter, loc, adaptor.getInput(),
        RankedTensorType::get({rows, n}, element));
    Value outV = tensor::EmptyOp::create(rewriter, loc,
                                         ArrayRef<int64_t>{rows, k}, element);
    Value outI = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{rows, k}, indexElement);
    Value heapV =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{k}, element);
    Value heapI =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{k}, i64);
    auto c = [&](OpBuilder &b, Location l, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    auto position = [&](OpBuilder &b, Location l, Value i) -> Value {
      return arith::IndexCastOp::create(b, l, i64, i);
    };

    auto rowLoop = scf::ForOp::create(
        rewriter, loc, c(rewriter, loc, 0), c(rewriter, loc, rows),
        c(rewriter, loc, 1), ValueRange{outV, outI, heapV, heapI},
        [&](OpBuilder &b, Location l, Value row, ValueRange args) {
          // 1. The first k elements fill the heap.
          auto fill = scf::ForOp::create(
              b, l, c(b, l, 0), c(b, l, k), c(b, l, 1),
              ValueRange{args[2], args[3]},
              [&](OpBuilder &b, Location l, Value i, ValueRange h) {
                Value x = tensor::ExtractOp::create(b, l, input,
                                                    ValueRange{row, i});
                Value v = tensor::InsertOp::create(b, l, x, h[0], i);
                Value p = tensor::InsertOp::create(b, l, position(b, l, i),
                                                   h[1], i);
                auto [sv, sp] = heap.siftUp(b, l, v, p, i);
                scf::YieldOp::create(b, l, ValueRange{sv, sp});
              });
          // 2. Every later element that beats the worst kept one replaces
          //    it. A later element never wins a tie.
          auto scan = scf::ForOp::create(
              b, l, c(b, l, k), c(b, l, n), c(b, l, 1), fill.getResults(),
              [&](OpBuilder &b, Location l, Value i, ValueRange h) {
                Value x = tensor::ExtractOp::create(b, l, input,
                                                    ValueRange{row, i});
                Value zero = c(b, l, 0);
                Value top = tensor::ExtractOp::create(b, l, h[0], zero);
                Value topAt = tensor::ExtractOp::create(b, l, h[1], zero);
                Value beats = heap.worse(b, l, top, topAt, x, position(b, l, i));
                auto replace = scf::IfOp::create(
                    b, l, beats,
                    [&](OpBuilder &b, Location l) {
                      Value zero = c(b, l, 0);
                      Value v = tensor::InsertOp::create(b, l, x, h[0], zero);
                      Value p = tensor::InsertOp::create(
                          b, l, position(b, l, i), h[1], zero);
                      auto [sv, sp] = heap.siftDown(b, l, v, p, c(b, l, k));
                      scf::YieldOp::create(b, l, ValueRange{sv, sp});
                    },
                    [&](OpBuilder &b, Location l) {
                      scf::YieldOp::create(b, l, h);
                    });
                scf::YieldOp::create(b, l, replace.getResults());
              });
          // 3. Taking the worst off the top k times fills the row's slots
          //    from the last to the first.
          auto drain = scf::ForOp::create(
              b, l, c(b, l, 0), c(b, l, k), c(b, l, 1),
              ValueRange{args[0], args[1], scan.getResult(0),
                         scan.getResult(1)},
              [&](OpBuilder &b, Location l, Value t, ValueRange a) {
                Value zero = c(b, l, 0);
                Value slot = arith::SubIOp::create(b, l, c(b, l, k - 1), t);
                Value v = tensor::ExtractOp::create(b, l, a[2], zero);
                Value p = tensor::ExtractOp::create(b, l, a[3], zero);
                Value ov = tensor::InsertOp::create(b, l, v, a[0],
                                                    ValueRange{row, slot});
                Value at = indexElement.isInteger(64)
                               ? p
                               : (Value)arith::TruncIOp::create(
                                     b, l, indexElement, p);
                Value oi = tensor::InsertOp::create(b, l, at, a[1],
                                                    ValueRange{row, slot});
                // The last of the remaining `slot` entries moves to the top.
                Value lastV = tensor::ExtractOp::create(b, l, a[2], slot);
                Value lastP = tensor::ExtractOp::create(b, l, a[3], slot);
                Value hv = tensor::InsertOp::create(b, l, lastV, a[2], zero);
                Value hp = tensor::InsertOp::create(b, l, lastP, a[3], zero);
                auto [sv, sp] = heap.siftDown(b, l, hv, hp, slot);
                scf::YieldOp::create(b, l, ValueRange{ov, oi, sv, sp});
              });
          scf::YieldOp::create(b, l,
                               ValueRange{drain.getResult(0),
                                          drain.getResult(1),
                                          drain.getResult(2),
                                          drain.getResult(3)});
        });
    Value values = buildStaticReshape(rewriter, loc, rowLoop.getResult(0),
                                      valuesType);
    Value indices = buildStaticReshape(rewriter, loc, rowLoop.getResult(1),
                                       indicesType);
    rewriter.replaceOp(op, ValueRange{values, indices});
    return success();
  }
};

} // namespace

void mlir::tfaot::populateDataMovementLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<SliceLowering, MirrorPadLowering, BroadcastToLowering,
               OneHotLowering, SpaceToBatchNDLowering, BatchToSpaceNDLowering,
               TopKV2Lowering>(converter, patterns.getContext());
}
