//===- GraphPipeline.h - The default graph pass pipeline --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The passes that rewrite the tfaot dialect before any lowering (clean-ups,
// batch-norm folding, layout assignment), in their default order.
// `tfaot compile` runs it unless --graph_passes=false; tfaot-opt registers it
// as --tfaot-graph-pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_GRAPHPIPELINE_H
#define TFAOT_PASSES_GRAPHPIPELINE_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir::tfaot {

struct GraphPipelineOptions {
  /// Data layout for convolutions, pools and batch norm: "nhwc" or "nchw".
  /// (The driver resolves --layout=auto per target before calling.)
  std::string layout = "nhwc";
  /// Decode JPEGs at 1/2, 1/4 or 1/8 scale when a resize shrinks them that
  /// much anyway (--jpeg_dct_scaling; changes the numbers slightly).
  bool jpegDctScaling = false;
};

/// Appends the graph passes to `pm` (a module pass manager).
void buildGraphPipeline(OpPassManager &pm, const GraphPipelineOptions &options);

/// Registers --tfaot-graph-pipeline (with the default options).
void registerGraphPipeline();

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_GRAPHPIPELINE_H
