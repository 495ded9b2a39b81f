//===- FlattenParallelLoops.cpp - Parallel loops as 1-D block nests -------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-flatten-parallel-loops: every outermost scf.parallel becomes a
// 1-D (blocks x 256 threads) nest with a bounds guard, so that
// gpu-map-parallel-loops gives each kernel a full thread block whatever the
// rank.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_FLATTENPARALLELLOOPSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// Threads per block of every kernel: a multiple of the warp size that keeps
/// enough blocks in flight on small tensors and is within every sm_80+ limit.
constexpr int64_t kThreadsPerBlock = 256;

struct FlattenParallelLoopsPass
    : mlir::tfaot::impl::FlattenParallelLoopsPassBase<
          FlattenParallelLoopsPass> {
  static void flatten(scf::ParallelOp loop) {
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    // Trip count of each dimension, and their product.
    SmallVector<Value> counts;
    Value total = index(1);
    for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                         loop.getUpperBound(), loop.getStep())) {
      Value extent = arith::SubIOp::create(builder, loc, ub, lb);
      Value count = arith::CeilDivSIOp::create(builder, loc, extent, step);
      counts.push_back(count);
      total = arith::MulIOp::create(builder, loc, total, count);
    }
    Value threads = index(kThreadsPerBlock);
    Value blocks = arith::CeilDivSIOp::create(builder, loc, total, threads);
    auto blockLoop = scf::ParallelOp::create(builder, loc, ValueRange{index(0)},
                                             ValueRange{blocks},
                                             ValueRange{index(1)});
    builder.setInsertionPoint(blockLoop.getBody()->getTerminator());
    auto threadLoop = scf::ParallelOp::create(
        builder, loc, ValueRange{index(0)}, ValueRange{threads},
        ValueRange{index(1)});
    builder.setInsertionPoint(threadLoop.getBody()->getTerminator());
    Value linear = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc,
                              blockLoop.getInductionVars()[0], threads),
        threadLoop.getInductionVars()[0]);
    Value inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                          linear, total);
    auto guard = scf::IfOp::create(builder, loc, inRange, /*withElse=*/false);
    builder.setInsertionPoint(guard.thenBlock()->getTerminator());
    // Row-major delinearization: the last dimension varies fastest, so
    // neighbouring threads touch neighbouring elements (coalesced).
    IRMapping mapping;
    Value rest = linear;
    for (int64_t d = loop.getNumLoops() - 1; d >= 0; --d) {
      Value position = d ? arith::RemUIOp::create(builder, loc, rest, counts[d])
                               .getResult()
                         : rest;
      if (d)
        rest = arith::DivUIOp::create(builder, loc, rest, counts[d]);
      Value iv = arith::AddIOp::create(
          builder, loc, loop.getLowerBound()[d],
          arith::MulIOp::create(builder, loc, position, loop.getStep()[d]));
      mapping.map(loop.getInductionVars()[d], iv);
    }
    for (Operation &op : loop.getBody()->without_terminator())
      builder.clone(op, mapping);
    loop.erase();
  }

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() && loop.getNumResults() == 0)
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost)
      flatten(loop);
  }
};

} // namespace
