//===- CheckHostCode.cpp - No device memory access on the host ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-check-host-code: the host function may only compute addresses,
// launch kernels, call the runtime's device entries and branch or loop on
// scalars copied back: everything else would dereference device memory on
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
using ::tfaot::gpu::isHostControlFlow;

namespace {

/// Whether a kernel takes a buffer whose offset or strides are known only
/// at run time (hasRunTimeLayout).
bool takesRunTimeLayout(mlir::gpu::LaunchFuncOp launch) {
  return llvm::any_of(launch.getKernelOperands(), [](Value operand) {
    return ::tfaot::gpu::hasRunTimeLayout(operand.getType());
  });
}

/// Whether host code may run `op` as it is: address arithmetic, launches,
/// the runtime's entries that take device addresses, the runtime's calls
/// on host memory once given host copies (tfaot-gpu-stage-host-calls), the
/// terminators of host control flow.
bool runsOnHost(Operation &op) {
  if (isAddressOnly(&op))
    return true;
  if (auto launch = dyn_cast<mlir::gpu::LaunchFuncOp>(op))
    return !takesRunTimeLayout(launch);
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  if (::tfaot::gpu::hostMemoryCall(call.getCallee()))
    return call->hasAttr(::tfaot::gpu::kOnHostCopiesAttr);
  return ::tfaot::gpu::isRuntimeHostCall(call.getCallee());
}

/// The first op in `block` or the bodies of its host control flow that
/// host code cannot run, or null.
Operation *firstDeviceAccess(Block &block) {
  for (Operation &op : block) {
    if (isHostControlFlow(&op)) {
      for (Region &region : op.getRegions())
        for (Block &body : region)
          if (Operation *bad = firstDeviceAccess(body))
            return bad;
      continue;
    }
    if (!runsOnHost(op))
      return &op;
  }
  return nullptr;
}

/// What `op` does that host code cannot: "it calls 'f', which runs on the
/// CPU only" or "'memref.load' is left in host code, ...".
std::string describe(Operation &op) {
  if (isa<mlir::gpu::LaunchFuncOp>(op))
    return "a kernel takes a buffer picked at run time by a branch or "
           "switch (its offset is known only then), which the CUDA "
           "backend does not pass to kernels yet";
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee = dyn_cast_if_present<SymbolRefAttr>(
        call.getCallableForCallee().dyn_cast<SymbolRefAttr>());
    return "it calls " +
           (callee ? "'" + callee.getLeafReference().str() + "'"
                   : std::string("a function")) +
           ", which runs on the CPU only";
  }
  return "'" + op.getName().getStringRef().str() +
         "' is left in host code, where it would access device memory";
}

struct CheckHostCodePass
    : mlir::tfaot::impl::CheckHostCodePassBase<CheckHostCodePass> {
  void runOnOperation() override {
    bool failed = false;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Branches and loops (tfaot.If/While/Case) run on the host, on a
      // scalar copied back (tfaot-gpu-read-decisions). One whose body holds
      // work that stays on the host is said once per node, rather than as
      // the loads and stores inside it: that is what an op sized by a count
      // known only at run time (TopKV2 with k a count, NMS's
      // post-processing) lowers to.
      llvm::DenseSet<Location> said;
      for (Operation &op : func.getBody().getOps()) {
        // mlir::emitError, not op.emitError: the op's dump would not help
        // the user, the node name in the location does.
        if (!isHostControlFlow(&op)) {
          if (!runsOnHost(op)) {
            mlir::emitError(op.getLoc())
                << "cannot run on the GPU: " << describe(op);
            failed = true;
          }
          continue;
        }
        Operation *inside = nullptr;
        for (Region &region : op.getRegions())
          for (Block &body : region)
            if (!inside)
              inside = firstDeviceAccess(body);
        if (!inside || !said.insert(op.getLoc()).second)
          continue;
        mlir::emitError(op.getLoc())
            << "cannot run on the GPU: control flow (a branch or loop: If, "
               "While, Case or TF1 cond/while_loop, or the loop of an op "
               "sized by a count known only at run time) holds work the "
               "CUDA backend cannot run on the device or copy back ("
            << describe(*inside)
            << "); --gpu_emulate runs it (as loops on the CPU), and "
               "--target=cpu compiles it";
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
