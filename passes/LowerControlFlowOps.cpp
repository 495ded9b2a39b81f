//===- LowerControlFlowOps.cpp - If, While, Case to scf -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg: tfaot.If becomes scf.if, tfaot.While
// scf.while and tfaot.Case scf.index_switch, all on tensors, so that
// one-shot bufferization gives the loop-carried values their buffers and the
// buffer planner sees ordinary nested regions. The regions of the tfaot ops
// take their inputs as block arguments (they are isolated from above); the
// scf ops read values of the enclosing block, so each block is moved into
// the scf op with the operands put in place of its arguments. The tfaot ops
// inside are converted by the same conversion, as the driver visits them
// after their parent.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// TF's truth value of a predicate tensor as an i1: a scalar is true when
/// non-zero; a tensor of rank >= 1 when it has elements (import folds those,
/// but a pass may have made one).
Value truthOf(OpBuilder &b, Location loc, Value pred) {
  auto type = cast<RankedTensorType>(pred.getType());
  if (type.getRank() > 0)
    return arith::ConstantIntOp::create(b, loc, type.getNumElements() > 0, 1);
  Value x = tensor::ExtractOp::create(b, loc, pred, ValueRange{});
  Type element = x.getType();
  if (element.isInteger(1))
    return x;
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  if (isa<FloatType>(element))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
}

struct IfLowering : public OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    Value cond = truthOf(rewriter, op.getLoc(), adaptor.getCond());
    auto scfIf = scf::IfOp::create(rewriter, op.getLoc(), types, cond,
                                   /*addThenBlock=*/false,
                                   /*addElseBlock=*/false);
    // The scf.if's blocks take no arguments: the inputs are used directly.
    for (auto [from, to] : {std::pair{&op.getThenBranch(), &scfIf.getThenRegion()},
                            std::pair{&op.getElseBranch(), &scfIf.getElseRegion()}}) {
      Block *block = rewriter.createBlock(to);
      rewriter.inlineBlockBefore(&from->front(), block, block->end(),
                                 adaptor.getInputs());
    }
    rewriter.replaceOp(op, scfIf.getResults());
    return success();
  }
};

struct WhileLowering : public OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    auto loop = scf::WhileOp::create(rewriter, op.getLoc(), types,
                                     adaptor.getInputs());
    SmallVector<Location> locs(types.size(), op.getLoc());
    // before: the cond region on the loop variables, ending in
    // scf.condition, which passes them on to the body or out as results.
    Block *before =
        rewriter.createBlock(&loop.getBefore(), {}, types, locs);
    rewriter.inlineBlockBefore(&op.getCond().front(), before, before->end(),
                               before->getArguments());
    auto yield = cast<YieldOp>(before->getTerminator());
    rewriter.setInsertionPoint(yield);
    Value pred = truthOf(rewriter, yield.getLoc(), yield.getValues()[0]);
    scf::ConditionOp::create(rewriter, yield.getLoc(), pred,
                             before->getArguments());
    rewriter.eraseOp(yield);
    // after: the body; its Yield becomes scf.yield (YieldLowering).
    Block *after = rewriter.createBlock(&loop.getAfter(), {}, types, locs);
    rewriter.inlineBlockBefore(&op.getBody().front(), after, after->end(),
                               after->getArguments());
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct CaseLowering : public OpConversionPattern<CaseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    Location loc = op.getLoc();
    Value index = tensor::ExtractOp::create(rewriter, loc,
                                            adaptor.getBranchIndex(),
                                            ValueRange{});
    index = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                       index);
    // Cases 0..N-2; the default region is the last branch, which TF runs
    // for an index out of range as well.
    int64_t n = op.getBranches().size();
    SmallVector<int64_t> cases = llvm::to_vector(llvm::seq<int64_t>(0, n - 1));
    auto sw = scf::IndexSwitchOp::create(rewriter, loc, types, index, cases,
                                         n - 1);
    for (int64_t b = 0; b < n; ++b) {
      Region &to = b == n - 1 ? sw.getDefaultRegion() : sw.getCaseRegions()[b];
      Block *block = rewriter.createBlock(&to);
      rewriter.inlineBlockBefore(&op.getBranches()[b].front(), block,
                                 block->end(), adaptor.getInputs());
    }
    rewriter.replaceOp(op, sw.getResults());
    return success();
  }
};

/// The Yield of a then/else branch, loop body or Case branch (a cond
/// region's Yield is replaced by WhileLowering).
struct YieldLowering : public OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<scf::IfOp, scf::WhileOp, scf::IndexSwitchOp>(op->getParentOp()))
      return failure();
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

} // namespace

void mlir::tfaot::populateControlFlowLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<IfLowering, WhileLowering, CaseLowering, YieldLowering>(
      converter, patterns.getContext());
}
