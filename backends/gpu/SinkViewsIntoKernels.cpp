//===- SinkViewsIntoKernels.cpp - Views computed from data, in kernels ----===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-sink-views-into-kernels: a view whose offset is a value read
// from memory (a TensorArray or list write at a run-time row: a
// memref.subview at the row a kernel computed) cannot be made in host
// code: the host would read device memory, and the view's run-time offset
// would reach a kernel, whose bare-pointer parameters carry none. Each
// parallel loop (a kernel to be) that uses such a view gets the view's
// computation cloned into its body instead: the kernel reads the row
// itself, and takes the buffer the view is of, whose layout is static.
// A load is only moved when nothing between it and the loop may write the
// buffer it reads (the kernel then reads the same value the host code
// would have). What cannot be moved stays: tfaot-gpu-check-host-code
// reports it.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/HostCode.h"
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_SINKVIEWSINTOKERNELSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using ::tfaot::gpu::isHostControlFlow;

namespace {

/// The buffer `value` is a view of (through view ops), or `value`.
Value rootBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    value = view.getViewSource();
  }
  return value;
}

/// Whether an op may be cloned into a kernel: a view, a load, or pure
/// arithmetic; not what names a buffer of its own (a global is the host
/// object's, the kernel takes its device copy as a parameter).
bool sinkable(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (isa<ViewLikeOpInterface, memref::LoadOp>(op))
    return true;
  return isPure(op) && llvm::none_of(op->getResultTypes(), [](Type type) {
           return isa<MemRefType>(type);
         });
}

/// Whether some op from `from` (exclusive) to `to` (exclusive), both in one
/// block, or inside them, uses a view of `root` other than to read a
/// scalar from it or to name it: it may write it.
bool mayWriteBetween(Operation *from, Operation *to, Value root) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode()) {
    WalkResult result = op->walk([&](Operation *inner) {
      if (isa<memref::LoadOp, ViewLikeOpInterface>(inner))
        return WalkResult::advance();
      for (Value operand : inner->getOperands())
        if (isa<MemRefType>(operand.getType()) &&
            rootBuffer(operand) == root)
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return true;
  }
  return false;
}

/// The ops in `loop`'s block that compute `value` and may move into
/// `loop`, in order; empty if `value` need not or cannot move (a buffer
/// with a static layout, or one whose computation reads memory that may
/// change before the loop).
SmallVector<Operation *> chainToSink(Value value, scf::ParallelOp loop) {
  Block *block = loop->getBlock();
  llvm::SetVector<Operation *> chain;
  SmallVector<Value> worklist{value};
  bool readsMemory = false;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != block || chain.contains(def))
      continue;
    if (!sinkable(def)) {
      // A buffer of its own (an allocation, a global, a result): kernels
      // take it as it is, if its layout is static.
      if (::tfaot::gpu::hasRunTimeLayout(v.getType()))
        return {};
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(def)) {
      if (mayWriteBetween(load, loop, rootBuffer(load.getMemRef())))
        return {};
      readsMemory = true;
    }
    chain.insert(def);
    llvm::append_range(worklist, def->getOperands());
  }
  if (!readsMemory && !::tfaot::gpu::hasRunTimeLayout(value.getType()))
    return {};
  SmallVector<Operation *> ordered(chain.begin(), chain.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ordered;
}

struct SinkViewsIntoKernelsPass
    : mlir::tfaot::impl::SinkViewsIntoKernelsPassBase<
          SinkViewsIntoKernelsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // The parallel loops of host code: in the function's body and the
    // bodies of host control flow (HostCode.h).
    SmallVector<scf::ParallelOp> loops;
    SmallVector<Block *> blocks{&func.getBody().front()};
    for (size_t i = 0; i < blocks.size(); ++i)
      for (Operation &op : *blocks[i]) {
        if (auto loop = dyn_cast<scf::ParallelOp>(op))
          loops.push_back(loop);
        else if (isHostControlFlow(&op))
          for (Region &region : op.getRegions())
            for (Block &block : region)
              blocks.push_back(&block);
      }
    llvm::SetVector<Operation *> maybeDead;
    for (scf::ParallelOp loop : loops) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(loop.getRegion(), captured);
      OpBuilder builder = OpBuilder::atBlockBegin(loop.getBody());
      IRMapping mapping;
      for (Value value : captured) {
        SmallVector<Operation *> chain = chainToSink(value, loop);
        if (chain.empty())
          continue;
        for (Operation *op : chain)
          if (!mapping.contains(op->getResult(0)))
            builder.clone(*op, mapping);
        replaceAllUsesInRegionWith(value, mapping.lookup(value),
                                   loop.getRegion());
        maybeDead.insert(chain.begin(), chain.end());
      }
    }
    // The host's ops that nothing uses any more (the load the kernel now
    // makes): erased until none is left, users going first.
    SmallVector<Operation *> dead(maybeDead.begin(), maybeDead.end());
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&op : dead)
        if (op && op->use_empty() && isOpTriviallyDead(op)) {
          op->erase();
          op = nullptr;
          erased = true;
        }
    }
  }
};

} // namespace
