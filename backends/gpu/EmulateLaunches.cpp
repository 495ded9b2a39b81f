//===- EmulateLaunches.cpp - Run GPU launches as loops on the CPU ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-emulate-launches replaces every gpu.launch with sequential loops
// over its blocks and threads, the body seeing the loop indices as its block
// and thread ids. Compiled for the CPU (tfaot compile --target=cuda
// --gpu_emulate), this checks the numbers the GPU kernel mapping produces on
// machines without a GPU; only the NVVM lowering, which is upstream's, is
// left out.
//
// A kernel without barriers has each thread write its own outputs, so any
// order of threads, this one included, computes what the GPU computes. A
// kernel whose body is phases separated by gpu.barrier at its top level
// (tfaot-gpu-tiled-depthwise's: stage a tile in workgroup memory, then
// compute from it) runs each phase for every thread of the block before the
// next phase starts, which is what the barrier guarantees on the GPU. Its
// workgroup memory is one buffer reused by every block in turn (blocks run
// one after another; like the GPU's, it starts uninitialized). A value a
// later phase uses from an earlier one would be a per-thread register
// surviving the barrier: pure computations are recomputed in the later
// phase (they depend only on ids and values from outside the launch);
// anything else (a load, whose memory the barrier may have changed) is
// refused.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_EMULATELAUNCHESPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// Loops from `zero` to each bound by `one` (outermost first), each index
/// standing for its `id` in `mapping`; the builder ends inside the
/// innermost.
void buildLoops(OpBuilder &builder, Location loc, Value zero, Value one,
                ArrayRef<std::pair<Value, Value>> loops, IRMapping &mapping) {
  for (auto [bound, id] : loops) {
    auto loop = scf::ForOp::create(builder, loc, zero, bound, one);
    mapping.map(id, loop.getInductionVar());
    builder.setInsertionPoint(loop.getBody()->getTerminator());
  }
}

struct EmulateLaunchesPass
    : mlir::tfaot::impl::EmulateLaunchesPassBase<EmulateLaunchesPass> {

  /// The launch body's ops between barriers, terminator left out; fails on
  /// a barrier nested in the body's regions (its threads could not be run
  /// phase by phase).
  static FailureOr<SmallVector<SmallVector<Operation *>>>
  phases(mlir::gpu::LaunchOp launch) {
    SmallVector<SmallVector<Operation *>> result(1);
    for (Operation &op : launch.getBody().front()) {
      if (isa<mlir::gpu::TerminatorOp>(op))
        continue;
      if (isa<mlir::gpu::BarrierOp>(op)) {
        result.emplace_back();
        continue;
      }
      WalkResult nested = op.walk([&](mlir::gpu::BarrierOp barrier) {
        barrier.emitError("cannot emulate a barrier inside a region of the "
                          "kernel (only between its top-level ops)");
        return WalkResult::interrupt();
      });
      if (nested.wasInterrupted())
        return failure();
      result.back().push_back(&op);
    }
    return result;
  }

  /// Makes `value`, defined in an earlier phase of `launch`, available in
  /// this phase's thread loop by cloning the pure ops it is computed by.
  static LogicalResult recompute(OpBuilder &builder, Value value,
                                 IRMapping &mapping,
                                 mlir::gpu::LaunchOp launch) {
    if (mapping.contains(value) || !launch.getBody().isAncestor(
                                       value.getParentRegion()))
      return success();
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumRegions() != 0 || !isPure(def))
      return launch.emitError("cannot emulate a kernel whose thread keeps "
                              "a value across a barrier that is not "
                              "recomputable (")
             << (def ? def->getName().getStringRef() : "a block argument")
             << ")";
    for (Value operand : def->getOperands())
      if (failed(recompute(builder, operand, mapping, launch)))
        return failure();
    builder.clone(*def, mapping);
    return success();
  }

  static LogicalResult emulate(mlir::gpu::LaunchOp launch) {
    if (launch.getAsyncToken() || !launch.getBody().hasOneBlock() ||
        launch.getClusterSizeX() || !launch.getPrivateAttributions().empty())
      return launch.emitError("cannot emulate this launch");
    FailureOr<SmallVector<SmallVector<Operation *>>> body = phases(launch);
    if (failed(body))
      return failure();
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    IRMapping mapping;
    auto sizes = {std::pair(launch.getGridSize(), grid),
                  std::pair(launch.getBlockSize(), block)};
    for (auto [inside, outside] : sizes) {
      mapping.map(inside.x, outside.x);
      mapping.map(inside.y, outside.y);
      mapping.map(inside.z, outside.z);
    }
    // One buffer per workgroup attribution, shared by the blocks in turn.
    SmallVector<Value> workgroup;
    for (BlockArgument attribution : launch.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(attribution.getType());
      auto host = MemRefType::get(type.getShape(), type.getElementType());
      Value buffer = memref::AllocOp::create(builder, loc, host);
      workgroup.push_back(buffer);
      mapping.map(attribution, buffer);
    }
    // Blocks outermost, then each phase's threads, z to x: x varies
    // fastest.
    OpBuilder::InsertPoint after = builder.saveInsertionPoint();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    SmallVector<std::pair<Value, Value>> blockLoops = {
        {grid.z, launch.getBlockIds().z},
        {grid.y, launch.getBlockIds().y},
        {grid.x, launch.getBlockIds().x}};
    buildLoops(builder, loc, zero, one, blockLoops, mapping);
    OpBuilder::InsertPoint inBlock = builder.saveInsertionPoint();
    SmallVector<std::pair<Value, Value>> threadLoops = {
        {block.z, launch.getThreadIds().z},
        {block.y, launch.getThreadIds().y},
        {block.x, launch.getThreadIds().x}};
    for (ArrayRef<Operation *> phase : *body) {
      builder.restoreInsertionPoint(inBlock);
      IRMapping threads = mapping;
      buildLoops(builder, loc, zero, one, threadLoops, threads);
      for (Operation *op : phase) {
        for (Value operand : op->getOperands())
          if (failed(recompute(builder, operand, threads, launch)))
            return failure();
        // Values used inside the op's regions, from earlier phases.
        WalkResult inner = op->walk([&](Operation *nested) {
          for (Value operand : nested->getOperands())
            if (!op->isAncestor(operand.getParentRegion()->getParentOp()) &&
                failed(recompute(builder, operand, threads, launch)))
              return WalkResult::interrupt();
          return WalkResult::advance();
        });
        if (inner.wasInterrupted())
          return failure();
        builder.clone(*op, threads);
      }
    }
    builder.restoreInsertionPoint(after);
    for (Value buffer : workgroup)
      memref::DeallocOp::create(builder, loc, buffer);
    launch.erase();
    return success();
  }

  void runOnOperation() override {
    SmallVector<mlir::gpu::LaunchOp> launches;
    getOperation().walk(
        [&](mlir::gpu::LaunchOp launch) { launches.push_back(launch); });
    for (mlir::gpu::LaunchOp launch : launches)
      if (failed(emulate(launch)))
        return signalPassFailure();
  }
};

} // namespace
