//===- WrapHostWork.cpp - Host work into one-thread kernels ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-wrap-host-work: memory-touching code outside any parallel loop
// (0-d ops, full reductions) goes into a one-iteration scf.parallel: one
// thread runs it. Host branches, loops and switches (the lowered
// tfaot.If/While/Case, HostCode.h) stay on the host; the work in their
// bodies is wrapped the same way.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"
#include "backends/gpu/HostCode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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
                  !isa<scf::ParallelOp, CallOpInterface>(op);
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
      bool escapes = llvm::any_of(run, [&](Operation *op) {
        return llvm::any_of(op->getUsers(), [&](Operation *user) {
          return !inRun.contains(body.findAncestorOpInBlock(*user));
        });
      });
      if (escapes)
        continue; // tfaot-gpu-check-host-code reports it.
      OpBuilder builder(run.front());
      Location loc = run.front()->getLoc();
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value one = arith::ConstantIndexOp::create(builder, loc, 1);
      auto loop = scf::ParallelOp::create(builder, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
      Operation *terminator = loop.getBody()->getTerminator();
      for (Operation *op : run)
        op->moveBefore(terminator);
    }
  }
};

} // namespace
