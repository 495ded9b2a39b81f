//===- GraphPipeline.cpp - The default graph pass pipeline ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Order matters: clean-ups first (they fold the constant subgraphs that
// batch-norm folding and layout assignment need to see as constants), then
// batch norm into the convolutions, then layout (fewer ops to move), then
// clean-ups again for what the earlier passes exposed. tfaot-simplify runs
// the greedy driver, so it also erases dead ops as canonicalize would.
//
//===----------------------------------------------------------------------===//
#include "passes/GraphPipeline.h"

#include "passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tfaot::buildGraphPipeline(OpPassManager &pm,
                                     const GraphPipelineOptions &options) {
  pm.addPass(createSimplifyPass());
  // After the clean-ups, which make the Slice bounds constants.
  pm.addNestedPass<func::FuncOp>(createFuseDecodeCropPass());
  // After the crop fusion: a decode that only a window is taken from is
  // left alone (its window is in full-size pixels).
  if (options.jpegDctScaling)
    pm.addNestedPass<func::FuncOp>(createScaleJpegDecodePass());
  pm.addPass(createFoldBatchNormPass());
  AssignLayoutPassOptions layoutOptions;
  layoutOptions.layout = options.layout;
  pm.addPass(createAssignLayoutPass(layoutOptions));
  // Moving transposes puts Pads next to the convolutions they feed.
  pm.addPass(createSimplifyPass());
  pm.addPass(createCSEPass());
}

void mlir::tfaot::registerGraphPipeline() {
  PassPipelineRegistration<>(
      "tfaot-graph-pipeline",
      "The default tfaot graph passes (clean-ups, batch-norm folding, layout "
      "assignment to NHWC)",
      [](OpPassManager &pm) { buildGraphPipeline(pm, {}); });
}
