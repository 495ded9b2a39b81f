//===- DistinctResultBuffers.cpp - One buffer per returned result ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-distinct-result-buffers: a bufferized function that returns one
// buffer more than once (two fetches of one tensor, e.g. `--fetch y --fetch
// y`) gets a fresh buffer and a memref.copy for each repeat, so every result
// is a buffer of its own.
//
// buffer-results-to-out-params{hoist-static-allocs}, which both backends run
// next, replaces the alloc of a returned buffer by the caller's
// out-parameter and erases it; an alloc returned twice is then replaced a
// second time after it was erased (a crash). With one buffer per result the
// first result still takes over its alloc, and the copy writes the second
// out-parameter.
//
// Why on buffers and not in the importer (returning a copy of the tensor):
// at tensor level a copy is exactly what canonicalization and bufferization
// remove (Identity folds, a copy into an empty tensor is elided), and the
// function would return one buffer twice again. Here the pass runs right
// before the pass that needs it, with nothing in between to undo it, on the
// CPU and the CUDA pipelines alike (the GPU's copies become kernels).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_DISTINCTRESULTBUFFERSPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

struct DistinctResultBuffersPass
    : mlir::tfaot::impl::DistinctResultBuffersPassBase<
          DistinctResultBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::ReturnOp ret) {
      if (failed(copyRepeats(ret)))
        signalPassFailure();
    });
  }

  LogicalResult copyRepeats(func::ReturnOp ret) {
    llvm::SmallPtrSet<Value, 8> returned;
    OpBuilder builder(ret);
    Location loc = ret.getLoc();
    for (OpOperand &operand : ret->getOpOperands()) {
      Value buffer = operand.get();
      auto type = dyn_cast<MemRefType>(buffer.getType());
      if (!type || returned.insert(buffer).second)
        continue;
      // Function results have the identity layout (one-shot-bufferize's
      // function-boundary-type-conversion), which an alloc can have too.
      if (!type.getLayout().isIdentity())
        return ret.emitOpError("returns buffer ")
               << operand.getOperandNumber()
               << " a second time with a non-identity layout, which cannot "
                  "be given a buffer of its own";
      SmallVector<Value> dynamicSizes;
      for (auto [dim, size] : llvm::enumerate(type.getShape()))
        if (ShapedType::isDynamic(size))
          dynamicSizes.push_back(
              memref::DimOp::create(builder, loc, buffer, dim));
      Value copy = memref::AllocOp::create(builder, loc, type, dynamicSizes);
      memref::CopyOp::create(builder, loc, buffer, copy);
      operand.set(copy);
    }
    return success();
  }
};

} // namespace
