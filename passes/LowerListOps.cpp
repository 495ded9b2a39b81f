//===- LowerListOps.cpp - ListSetItem to tensor.insert_slice --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. A list write becomes a tensor.insert_slice
// of the item (rank-reduced: it drops the slice's leading 1) at row `index`,
// clamped into [0, N) as the gathers clamp theirs. One-shot bufferization
// then writes the row in place when the list is not used afterwards, which
// is the case for a list a loop carries: a write costs one element, not a
// copy of the list.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerListOps.h"

#include "passes/LoweringUtils.h"

#include "ir/ListOps.h"

using namespace mlir;
using namespace mlir::tfaot;

namespace {

struct ListSetItemLowering : TfaotPattern<ListSetItemOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(ListSetItemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    auto list = cast<RankedTensorType>(adaptor.getList().getType());
    Value index = tensor::ExtractOp::create(rewriter, l, adaptor.getIndex(),
                                            ValueRange{});
    Value row = arith::IndexCastOp::create(rewriter, l,
                                           rewriter.getIndexType(), index);
    Value zero = arith::ConstantIndexOp::create(rewriter, l, 0);
    Value last =
        arith::ConstantIndexOp::create(rewriter, l, list.getDimSize(0) - 1);
    row = arith::MinSIOp::create(
        rewriter, l, arith::MaxSIOp::create(rewriter, l, row, zero), last);
    SmallVector<OpFoldResult> offsets(list.getRank(), rewriter.getIndexAttr(0));
    offsets[0] = row;
    SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
    for (int64_t d : list.getShape().drop_front())
      sizes.push_back(rewriter.getIndexAttr(d));
    SmallVector<OpFoldResult> strides(list.getRank(), rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, adaptor.getItem(), adaptor.getList(), offsets, sizes, strides);
    return success();
  }
};

} // namespace

void mlir::tfaot::populateListLoweringPatterns(RewritePatternSet &patterns,
                                               const TypeConverter &converter) {
  patterns.add<ListSetItemLowering>(converter, patterns.getContext());
}
