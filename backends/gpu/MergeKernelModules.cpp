//===- MergeKernelModules.cpp - One gpu.module per entry ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-merge-kernel-modules: one gpu.module per entry (one PTX image).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_MERGEKERNELMODULESPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

struct MergeKernelModulesPass
    : mlir::tfaot::impl::MergeKernelModulesPassBase<MergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<mlir::gpu::GPUModuleOp> kernelModules(
        module.getOps<mlir::gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    OpBuilder builder(kernelModules.front());
    auto merged = mlir::gpu::GPUModuleOp::create(builder, module.getLoc(),
                                           "tfaot_kernels");
    SymbolTable symbols(module);
    symbols.insert(merged);
    // Old kernel reference (module::function) -> new one.
    DenseMap<Attribute, SymbolRefAttr> renamed;
    Block &body = merged.getBodyRegion().front();
    for (mlir::gpu::GPUModuleOp old : kernelModules) {
      for (Operation &op : llvm::make_early_inc_range(old.getBody()->getOperations())) {
        auto kernel = dyn_cast<mlir::gpu::GPUFuncOp>(op);
        if (!kernel) {
          old.emitError("kernel module holds more than kernels; cannot merge");
          return signalPassFailure();
        }
        // Outlined module names are unique; kernels inside repeat names.
        std::string name = old.getName().str();
        auto oldRef = SymbolRefAttr::get(
            old.getNameAttr(), {FlatSymbolRefAttr::get(kernel.getNameAttr())});
        kernel.setName(name);
        kernel->moveBefore(&body, body.end());
        renamed[oldRef] = SymbolRefAttr::get(
            merged.getNameAttr(), {FlatSymbolRefAttr::get(kernel.getContext(), name)});
      }
    }
    module.walk([&](mlir::gpu::LaunchFuncOp launch) {
      auto it = renamed.find(launch.getKernel());
      if (it != renamed.end())
        launch.setKernelAttr(it->second);
    });
    for (mlir::gpu::GPUModuleOp old : kernelModules)
      old.erase();
  }
};

} // namespace
