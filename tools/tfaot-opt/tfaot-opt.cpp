//===- tfaot-opt.cpp - mlir-opt with the tfaot dialect and passes ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Parses, verifies, round-trips and transforms tfaot IR; every upstream
// dialect and pass is available too, plus the CPU pipelines
// (--tfaot-graph-pipeline, --tfaot-cpu-bufferize,
// --tfaot-cpu-to-llvm) and the GPU ones (--tfaot-gpu-bufferize,
// --tfaot-gpu-kernels, --tfaot-gpu-to-nvvm). Used by the lit tests.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Pipeline.h"
#include "backends/gpu/Pipeline.h"
#include "ir/Dialect.h"
#include "passes/GraphPipeline.h"
#include "passes/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::tfaot::TfaotDialect>();
  tfaot::cpu::registerCpuPipelines();
  tfaot::gpu::registerGpuPipelines();
  tfaot::gpu::registerGpuTranslations(registry);
  mlir::tfaot::registerGraphPipeline();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tfaot optimizer driver\n", registry));
}
