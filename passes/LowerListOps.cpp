//===- LowerListOps.cpp - ListSetItem, CheckList -------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. A list write becomes a tensor.insert_slice
// of the item (rank-reduced: it drops the slice's leading 1) at row `index`,
// clamped into [0, N) as the gathers clamp theirs. One-shot bufferization
// then writes the row in place when the list is not used afterwards, which
// is the case for a list a loop carries: a write costs one element, not a
// copy of the list. CheckList, the range check of an operation on a list
// of run-time length, becomes a call of tfaot_rt_check_indices with one
// of the list kinds (declared by declareDataDependentRuntime).
//
//===----------------------------------------------------------------------===//
#include "passes/LowerListOps.h"

#include "passes/LoweringUtils.h"

#include "ir/ListOps.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"
#include "passes/RuntimeCalls.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

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

/// tfaot_rt_check_indices(indices, indices_shape, bounds, node, kind,
/// index_bytes, indices_rank, bounds_rank) on the int32 pair [value,
/// length], with the bound (and the shape, if any); then the op stands for
/// its value.
struct CheckListLowering : TfaotPattern<CheckListOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(CheckListOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    auto mode = module->getAttrOfType<StringAttr>(kRuntimeChecksAttr);
    if (mode && mode.getValue() == "none") {
      rewriter.replaceOp(op, adaptor.getValue());
      return success();
    }
    Location l = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto scalar = [&](Value tensor) -> Value {
      Value v = tensor::ExtractOp::create(rewriter, l, tensor, ValueRange{});
      return v.getType() == i32 ? v : arith::TruncIOp::create(rewriter, l, i32, v);
    };
    Value pair = tensor::FromElementsOp::create(
        rewriter, l, RankedTensorType::get({2}, i32),
        ValueRange{scalar(adaptor.getValue()), scalar(adaptor.getLength())});
    Value node = textGlobal(rewriter, l, module, "__tfaot_check_node",
                            nodeNameOf(l).value_or("?"));
    Value shape = i64Global(rewriter, l, module, "__tfaot_check_shape", {2});
    // The bound, then the shape of a non-empty-axis check for its message.
    SmallVector<int64_t> boundValues{int64_t(op.getBound())};
    if (std::optional<ArrayRef<int64_t>> shape = op.getShape())
      llvm::append_range(boundValues, *shape);
    Value bounds =
        i64Global(rewriter, l, module, "__tfaot_check_bounds", boundValues);
    Value buffer = bufferization::ToBufferOp::create(
        rewriter, l, MemRefType::get({2}, i32), pair,
        /*read_only=*/rewriter.getUnitAttr());
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, l, buffer);
    auto i64 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(rewriter, l, v, 64);
    };
    func::CallOp::create(rewriter, l, tfaot_rt::kCheckIndices, TypeRange{},
                         ValueRange{address, shape, bounds, node,
                                    i64(op.getKind()), i64(4), i64(1),
                                    i64(boundValues.size())});
    rewriter.replaceOp(op, adaptor.getValue());
    return success();
  }
};

} // namespace

void mlir::tfaot::populateListLoweringPatterns(RewritePatternSet &patterns,
                                               const TypeConverter &converter) {
  patterns.add<ListSetItemLowering, CheckListLowering>(converter,
                                                      patterns.getContext());
}
