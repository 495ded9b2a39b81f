//===- LowerScanOps.cpp - Cumsum ------------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. A Cumsum along a dimension of n is an
// scf.for over the n positions, in order (backwards for `reverse`), that
// carries the running sum of one slice (the input's shape without that
// dimension) and the output: each step adds the input's slice at that
// position to the running sum, in place (a linalg.generic whose output is
// the sum itself), and writes the sum into the output's slice, after the
// addition or, for `exclusive`, before it. So the work is linear in the
// input, each step one pass over a slice that vectorizes across the other
// dimensions, and the additions happen in TF's order.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerScanOps.h"

#include "passes/LoweringUtils.h"

#include "ir/ScanOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tfaot;

namespace {

struct CumsumLowering : TfaotPattern<CumsumOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    RankedTensorType type = resultType(op);
    Type originalElement = op.getX().getType().getElementType();
    Type element = type.getElementType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    int64_t n = type.getDimSize(axis);
    SmallVector<int64_t> sliceShape(type.getShape());
    sliceShape.erase(sliceShape.begin() + axis);
    auto sliceType = RankedTensorType::get(sliceShape, element);

    Value sum0 = buildFilled(rewriter, loc, sliceType,
                             scalarConstant(rewriter, loc, element, 0));
    Value output0 = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            element);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value count = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value last = arith::ConstantIndexOp::create(rewriter, loc, n - 1);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();

    auto loop = scf::ForOp::create(
        rewriter, loc, zero, count, one, ValueRange{sum0, output0},
        [&](OpBuilder &b, Location l, Value step, ValueRange carried) {
          Value position =
              reverse ? arith::SubIOp::create(b, l, last, step).getResult()
                      : step;
          // The slice at `position` along the axis, the axis dropped.
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          offsets[axis] = position;
          SmallVector<OpFoldResult> sizes;
          for (int64_t d : type.getShape())
            sizes.push_back(b.getIndexAttr(d));
          sizes[axis] = b.getIndexAttr(1);
          SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
          Value slice = tensor::ExtractSliceOp::create(
              b, l, sliceType, x, offsets, sizes, strides);
          Value sum = carried[0], output = carried[1];
          auto write = [&](Value value) {
            output = tensor::InsertSliceOp::create(b, l, value, output,
                                                   offsets, sizes, strides);
          };
          if (exclusive)
            write(sum);
          AffineMap identity = b.getMultiDimIdentityMap(sliceShape.size());
          SmallVector<utils::IteratorType> parallel(
              sliceShape.size(), utils::IteratorType::parallel);
          sum = linalg::GenericOp::create(
                    b, l, TypeRange{sliceType}, ValueRange{slice},
                    ValueRange{sum}, ArrayRef<AffineMap>{identity, identity},
                    parallel,
                    [&](OpBuilder &nb, Location nl, ValueRange args) {
                      Value added = buildBinaryScalar(
                          nb, nl, BinaryKind::Add, originalElement, args[1],
                          args[0]);
                      linalg::YieldOp::create(nb, nl, added);
                    })
                    .getResult(0);
          if (!exclusive)
            write(sum);
          scf::YieldOp::create(b, l, ValueRange{sum, output});
        });
    rewriter.replaceOp(op, loop.getResult(1));
    return success();
  }
};

} // namespace

void mlir::tfaot::populateScanLoweringPatterns(RewritePatternSet &patterns,
                                               const TypeConverter &converter) {
  patterns.add<CumsumLowering>(converter, patterns.getContext());
}
