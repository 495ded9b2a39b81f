//===- WrapHostWork.cpp - Host work into one-thread kernels ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-wrap-host-work: memory-touching code outside any parallel loop
// (0-d ops, full reductions, branches and loops that hold no host work)
// goes into a one-iteration scf.parallel: one thread runs it. Host
// branches, loops and switches (the lowered tfaot.If/While/Case around
// kernels, HostCode.h) stay on the host; the work in their bodies is
// wrapped the same way. Scalars a wrapped run computes for later code
// pass through one-element device buffers.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"
#include "backends/gpu/HostCode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_WRAPHOSTWORKPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using ::tfaot::gpu::isAddressOnly;
using ::tfaot::gpu::isHostControlFlow;

namespace {

struct WrapHostWorkPass
    : mlir::tfaot::impl::WrapHostWorkPassBase<WrapHostWorkPass> {
  /// The maximal runs of top-level ops that touch memory, with the pure ops
  /// between them (they feed the stores). Runs end at parallel loops and at
  /// ops that only name memory.
  static SmallVector<SmallVector<Operation *>> hostWorkRuns(Block &block) {
    SmallVector<SmallVector<Operation *>> runs;
    SmallVector<Operation *> current;
    auto close = [&] {
      // Trailing pure ops belong to whatever follows.
      while (!current.empty() && isAddressOnly(current.back()))
        current.pop_back();
      if (!current.empty())
        runs.push_back(current);
      current.clear();
    };
    for (Operation &op : block) {
      // Calls stay on the host (tfaot-gpu-check-host-code reports them):
      // what they call is host code, not something a kernel can run.
      bool work = !isAddressOnly(&op) && !isHostControlFlow(&op) &&
                  !isa<scf::ParallelOp, mlir::gpu::LaunchOp, CallOpInterface>(op);
      bool pure = op.getNumRegions() == 0 && isPure(&op) &&
                  !isa<ViewLikeOpInterface>(op);
      if (work || (pure && !current.empty()))
        current.push_back(&op);
      else
        close();
    }
    close();
    return runs;
  }

  /// The function's body and the bodies of its host control flow, nested
  /// ones included.
  static SmallVector<Block *> hostBlocks(func::FuncOp func) {
    SmallVector<Block *> blocks{&func.getBody().front()};
    for (size_t i = 0; i < blocks.size(); ++i)
      for (Operation &op : *blocks[i])
        if (isHostControlFlow(&op))
          for (Region &region : op.getRegions())
            for (Block &block : region)
              blocks.push_back(&block);
    return blocks;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<SmallVector<Operation *>> runs;
    for (Block *block : hostBlocks(func))
      llvm::append_range(runs, hostWorkRuns(*block));
    for (SmallVector<Operation *> &run : runs) {
      llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
      Block &body = *run.front()->getBlock();
      // Scalars the run computes for code after it (the position and count
      // TopKV2's histogram walk ends at) go through device memory: the
      // thread stores them, later code loads them (tfaot-gpu-sink-views-
      // into-kernels then moves the loads into the kernels that use them).
      SmallVector<Value> escaping;
      for (Operation *op : run)
        for (Value result : op->getResults())
          if (llvm::any_of(result.getUsers(), [&](Operation *user) {
                return !inRun.contains(body.findAncestorOpInBlock(*user));
              }))
            escaping.push_back(result);
      if (!llvm::all_of(escaping, [](Value value) {
            return value.getType().isIntOrIndexOrFloat();
          }))
        continue; // tfaot-gpu-check-host-code reports it.
      OpBuilder builder(run.front());
      Location loc = run.front()->getLoc();
      SmallVector<Value> slots;
      for (Value value : escaping)
        slots.push_back(memref::AllocOp::create(
            builder, loc, MemRefType::get({}, value.getType())));
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value one = arith::ConstantIndexOp::create(builder, loc, 1);
      auto loop = scf::ParallelOp::create(builder, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
      Operation *terminator = loop.getBody()->getTerminator();
      for (Operation *op : run)
        op->moveBefore(terminator);
      builder.setInsertionPoint(terminator);
      for (auto [value, slot] : llvm::zip_equal(escaping, slots))
        memref::StoreOp::create(builder, loc, value, slot);
      builder.setInsertionPointAfter(loop);
      for (auto [value, slot] : llvm::zip_equal(escaping, slots)) {
        Value loaded = memref::LoadOp::create(builder, loc, slot);
        value.replaceUsesWithIf(loaded, [&](OpOperand &use) {
          return !loop->isAncestor(use.getOwner());
        });
      }
      // Every use is in this block (the loads, and the kernels they move
      // into): freed at its end (a device build's runtime frees at the end
      // of the Run() anyway; an emulated build's would leak).
      builder.setInsertionPoint(body.getTerminator());
      for (Value slot : slots)
        memref::DeallocOp::create(builder, loc, slot);
    }
  }
};

} // namespace
