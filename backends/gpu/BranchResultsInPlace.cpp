//===- BranchResultsInPlace.cpp - Branch results in one buffer ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-branch-results-in-place: when the branches of an scf.if or
// scf.index_switch (a lowered tfaot.If/Case) yield buffers of different
// layouts, one-shot bufferization gives the result a fully dynamic layout:
// which buffer, and so its offset, is known only when the branch has run.
// Kernels take bare pointers, which carry no offset, so such a result
// cannot reach a kernel. This pass gives each such result one buffer,
// allocated before the branch, with the identity layout: a branch whose
// value is a buffer it allocates itself writes into the shared one instead
// (no copy), any other branch copies its value into it at its end. An
// arith.select of two such buffers (an scf.if that only picked one,
// canonicalized) becomes an scf.if with a copy in each branch.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/HostCode.h"
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_BRANCHRESULTSINPLACEPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// Whether a buffer of `type` has an offset or strides known only at run
/// time (and a static shape, so that one buffer can hold every branch's).
bool needsSharedBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() &&
         ::tfaot::gpu::hasRunTimeLayout(memref);
}

/// `type` with the identity layout.
MemRefType withIdentityLayout(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

/// `value` with the layout casts bufferization put before a yield removed.
Value throughLayoutCasts(Value value) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  return value;
}

/// Makes the branch ending in `yield` leave its operand `i` in `shared`
/// and yield `sharedAsResult` (shared cast to the result's type) instead:
/// the branch's own allocation becomes `shared` where it can, otherwise
/// its value is copied at the end of the branch.
void writeInto(Operation *yield, unsigned i, Value shared,
               Value sharedAsResult) {
  Value value = throughLayoutCasts(yield->getOperand(i));
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  bool ownAllocation = alloc && alloc->getBlock() == yield->getBlock() &&
                       alloc.getType() == shared.getType() &&
                       alloc.getDynamicSizes().empty();
  if (ownAllocation) {
    alloc.getResult().replaceAllUsesWith(shared);
    alloc.erase();
  } else {
    OpBuilder builder(yield);
    memref::CopyOp::create(builder, yield->getLoc(), value, shared);
  }
  yield->setOperand(i, sharedAsResult);
}

/// Gives result `i` of `op` (an scf.if or scf.index_switch) its shared
/// buffer.
void shareResult(Operation *op, unsigned i) {
  auto type = cast<MemRefType>(op->getResult(i).getType());
  OpBuilder builder(op);
  Location loc = op->getLoc();
  Value shared = memref::AllocOp::create(builder, loc,
                                         withIdentityLayout(type),
                                         builder.getI64IntegerAttr(64));
  // Users keep the type they had; canonicalization folds the cast into
  // them, so that they (and the kernels they become) see the static layout.
  Value sharedAsResult = memref::CastOp::create(builder, loc, type, shared);
  for (Region &region : op->getRegions())
    writeInto(region.front().getTerminator(), i, shared, sharedAsResult);
  // The result is now unused: canonicalization drops it.
  op->getResult(i).replaceAllUsesWith(sharedAsResult);
}

/// `select` as an scf.if that copies the buffer it picks into a buffer of
/// its own.
void selectByCopy(arith::SelectOp select) {
  auto type = cast<MemRefType>(select.getType());
  OpBuilder builder(select);
  Location loc = select.getLoc();
  Value shared = memref::AllocOp::create(builder, loc,
                                         withIdentityLayout(type),
                                         builder.getI64IntegerAttr(64));
  scf::IfOp::create(
      builder, loc, select.getCondition(),
      [&](OpBuilder &b, Location l) {
        memref::CopyOp::create(b, l, throughLayoutCasts(select.getTrueValue()),
                               shared);
        scf::YieldOp::create(b, l);
      },
      [&](OpBuilder &b, Location l) {
        memref::CopyOp::create(
            b, l, throughLayoutCasts(select.getFalseValue()), shared);
        scf::YieldOp::create(b, l);
      });
  select.getResult().replaceAllUsesWith(
      memref::CastOp::create(builder, loc, type, shared).getResult());
  select.erase();
}

struct BranchResultsInPlacePass
    : mlir::tfaot::impl::BranchResultsInPlacePassBase<
          BranchResultsInPlacePass> {
  void runOnOperation() override {
    // Inner branches first: an outer branch then sees their shared buffer
    // as an allocation of its own.
    SmallVector<Operation *> branches;
    getOperation().walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isa<scf::IfOp, scf::IndexSwitchOp>(op) ||
          (isa<arith::SelectOp>(op) &&
           needsSharedBuffer(op->getResult(0).getType())))
        branches.push_back(op);
    });
    for (Operation *op : branches) {
      if (auto select = dyn_cast<arith::SelectOp>(op)) {
        selectByCopy(select);
        continue;
      }
      for (unsigned i = 0; i < op->getNumResults(); ++i)
        if (needsSharedBuffer(op->getResult(i).getType()))
          shareResult(op, i);
    }
  }
};

} // namespace
