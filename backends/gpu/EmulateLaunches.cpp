//===- EmulateLaunches.cpp - Run GPU launches as loops on the CPU ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-emulate-launches replaces every gpu.launch with sequential loops
// over its blocks and threads, the body seeing the loop indices as its block
// and thread ids. Kernels tfaot generates have no barriers and each thread
// writes its own outputs, so any order of threads, this one included,
// computes what the GPU computes. Compiled for the CPU (tfaot compile
// --target=cuda --gpu_emulate), this checks the numbers the GPU kernel
// mapping produces on machines without a GPU; only the NVVM lowering, which
// is upstream's, is left out.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_EMULATELAUNCHESPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

struct EmulateLaunchesPass
    : mlir::tfaot::impl::EmulateLaunchesPassBase<EmulateLaunchesPass> {
  static LogicalResult emulate(mlir::gpu::LaunchOp launch) {
    if (launch.getAsyncToken() || !launch.getBody().hasOneBlock() ||
        launch.getClusterSizeX())
      return launch.emitError("cannot emulate this launch");
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    IRMapping mapping;
    // Blocks outermost, then threads, z to x: x varies fastest.
    SmallVector<std::pair<Value, Value>> loops = {
        {grid.z, launch.getBlockIds().z},   {grid.y, launch.getBlockIds().y},
        {grid.x, launch.getBlockIds().x},   {block.z, launch.getThreadIds().z},
        {block.y, launch.getThreadIds().y}, {block.x, launch.getThreadIds().x}};
    for (auto [bound, id] : loops) {
      auto loop = scf::ForOp::create(builder, loc, zero, bound, one);
      mapping.map(id, loop.getInductionVar());
      builder.setInsertionPoint(loop.getBody()->getTerminator());
    }
    auto sizes = {std::pair(launch.getGridSize(), grid),
                  std::pair(launch.getBlockSize(), block)};
    for (auto [inside, outside] : sizes) {
      mapping.map(inside.x, outside.x);
      mapping.map(inside.y, outside.y);
      mapping.map(inside.z, outside.z);
    }
    for (Operation &op : launch.getBody().front()) {
      if (isa<mlir::gpu::TerminatorOp>(op))
        continue;
      if (isa<mlir::gpu::BarrierOp>(op))
        return op.emitError("cannot emulate a kernel with barriers");
      builder.clone(op, mapping);
    }
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
