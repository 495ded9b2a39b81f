//===- CheckHostCode.cpp - No device memory access on the host ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-check-host-code: the host function may only compute addresses
// and launch kernels: everything else would dereference device memory on
// the CPU.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"
#include "backends/gpu/HostCode.h"
#include "backends/gpu/HostLaunch.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_CHECKHOSTCODEPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using ::tfaot::gpu::isAddressOnly;

namespace {

struct CheckHostCodePass
    : mlir::tfaot::impl::CheckHostCodePassBase<CheckHostCodePass> {
  void runOnOperation() override {
    bool failed = false;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Branches and loops (tfaot.If/While/Case) decide on a value in
      // device memory, which host code would have to copy back first: said
      // once per node, rather than as the loads and stores around them.
      // An op whose size is a run-time count (TopKV2 with k a count, NMS's
      // post-processing) lowers to such a loop too, hence the second half.
      bool controlFlow = false;
      llvm::DenseSet<Location> said;
      for (Operation &op : func.getBody().getOps()) {
        if (!isa<scf::IfOp, scf::WhileOp, scf::IndexSwitchOp>(op) ||
            !said.insert(op.getLoc()).second)
          continue;
        mlir::emitError(op.getLoc())
            << "cannot run on the GPU: control flow (a branch or loop: If, "
               "While, Case or TF1 cond/while_loop, or the loop of an op "
               "sized by a count known only at run time) decides on a value "
               "in device memory, which the CUDA backend does not copy back "
               "to the host yet; --gpu_emulate runs it (as loops on the "
               "CPU), and --target=cpu compiles it";
        controlFlow = failed = true;
      }
      if (controlFlow)
        continue;
      for (Operation &op : func.getBody().getOps()) {
        if (isAddressOnly(&op) || isa<mlir::gpu::LaunchFuncOp>(op))
          continue;
        // The runtime's cuBLAS entry takes device addresses by value.
        if (auto call = dyn_cast<func::CallOp>(op);
            call && ::tfaot::gpu::isRuntimeLibraryCall(call.getCallee()))
          continue;
        // mlir::emitError, not op.emitError: the op's dump would not help
        // the user, the node name in the location does.
        InFlightDiagnostic diag = mlir::emitError(op.getLoc())
                                  << "cannot run on the GPU: ";
        if (auto call = dyn_cast<CallOpInterface>(op)) {
          auto callee = dyn_cast_if_present<SymbolRefAttr>(
              call.getCallableForCallee().dyn_cast<SymbolRefAttr>());
          diag << "it calls "
               << (callee ? "'" + callee.getLeafReference().str() + "'"
                          : std::string("a function"))
               << ", which runs on the CPU only";
        } else {
          diag << "'" << op.getName()
               << "' is left in host code, where it would access device "
                  "memory";
        }
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
