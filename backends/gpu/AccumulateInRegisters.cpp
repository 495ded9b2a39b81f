//===- AccumulateInRegisters.cpp - Reduction outputs in registers ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-accumulate-in-registers: a reduction loop's load/store of its
// output element becomes a loop-carried value: one load before, one store
// after, registers in between (not a global read-modify-write per
// multiply-add).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_ACCUMULATEINREGISTERSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

struct AccumulateInRegistersPass
    : mlir::tfaot::impl::AccumulateInRegistersPassBase<
          AccumulateInRegistersPass> {
  /// The load/store pair of `loop`'s body that reads and writes one element
  /// at indices defined outside the loop, the load first, with no other
  /// access to that memref anywhere in the loop. Linalg's loops give such a
  /// pair to every reduction; the output of a reduction never aliases its
  /// inputs after bufferization (that would be a read-after-write conflict),
  /// so the other memrefs the loop reads cannot be views of it.
  static std::pair<memref::LoadOp, memref::StoreOp>
  findAccumulator(scf::ForOp loop) {
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto load = dyn_cast<memref::LoadOp>(op);
      if (!load)
        continue;
      Value memref = load.getMemRef();
      bool invariant = llvm::all_of(load.getIndices(), [&](Value index) {
        return loop.isDefinedOutsideOfLoop(index);
      });
      if (!invariant || !loop.isDefinedOutsideOfLoop(memref))
        continue;
      memref::StoreOp store;
      bool otherAccess = false;
      loop.getBody()->walk([&](Operation *user) {
        if (user == load)
          return;
        auto candidate = dyn_cast<memref::StoreOp>(user);
        bool same = candidate && candidate.getMemRef() == memref &&
                    candidate.getIndices() == load.getIndices() &&
                    candidate->getBlock() == loop.getBody() && !store;
        if (same) {
          store = candidate;
          return;
        }
        if (llvm::is_contained(user->getOperands(), memref))
          otherAccess = true;
      });
      if (store && !otherAccess && load->isBeforeInBlock(store))
        return {load, store};
    }
    return {};
  }

  static void promote(scf::ForOp loop, memref::LoadOp load,
                      memref::StoreOp store) {
    OpBuilder builder(loop);
    Location loc = load.getLoc();
    Value initial = memref::LoadOp::create(builder, loc, load.getMemRef(),
                                           load.getIndices());
    auto carried = scf::ForOp::create(
        builder, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
        loop.getStep(), ValueRange{initial});
    // Move the body over: the induction variable and the accumulator map to
    // the new loop's block arguments.
    Block *body = carried.getBody();
    // (The builder adds no yield to a loop with iteration arguments.)
    if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
      body->back().erase();
    body->getOperations().splice(body->end(), loop.getBody()->getOperations());
    loop.getInductionVar().replaceAllUsesWith(carried.getInductionVar());
    load.getResult().replaceAllUsesWith(carried.getRegionIterArgs()[0]);
    Operation *oldYield = body->getTerminator();
    builder.setInsertionPoint(oldYield);
    scf::YieldOp::create(builder, oldYield->getLoc(),
                         ValueRange{store.getValueToStore()});
    oldYield->erase();
    builder.setInsertionPointAfter(carried);
    memref::StoreOp::create(builder, store.getLoc(), carried.getResult(0),
                            store.getMemRef(), store.getIndices());
    store.erase();
    load.erase();
    loop.erase();
  }

  void runOnOperation() override {
    // Innermost loops first: the load/store a promotion puts around a loop
    // is then the pair of the loop enclosing it (a conv's window loops).
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (loop.getNumResults() != 0)
        continue;
      auto [load, store] = findAccumulator(loop);
      if (load)
        promote(loop, load, store);
    }
  }
};

} // namespace
