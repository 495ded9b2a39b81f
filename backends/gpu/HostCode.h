//===- HostCode.h - What may stay in a GPU entry's host code ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Tensors live in device memory, so the host function of a CUDA entry may
// only compute addresses, launch kernels and branch or loop on scalars it
// copied back. Which ops qualify is shared by
// the pass that moves the rest into a one-thread kernel
// (tfaot-gpu-wrap-host-work, WrapHostWork.cpp) and the one that reports
// what is left (tfaot-gpu-check-host-code, CheckHostCode.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_HOSTCODE_H
#define TFAOT_BACKENDS_GPU_HOSTCODE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tfaot::gpu {

/// Ops that only compute values (constants, index arithmetic) or name memory
/// without touching it: they may stay in host code.
inline bool isAddressOnly(mlir::Operation *op) {
  using namespace mlir;
  if (isa<ViewLikeOpInterface, memref::AllocOp, memref::DeallocOp,
          memref::GetGlobalOp, memref::AssumeAlignmentOp, func::ReturnOp>(op))
    return true;
  return op->getNumRegions() == 0 && isPure(op);
}

/// Whether `op` or an op inside it needs the host: a parallel loop (a
/// kernel to launch), a call, an allocation or a global, none of which a
/// kernel can make.
inline bool holdsHostWork(mlir::Operation *op) {
  using namespace mlir;
  return op
      ->walk([](Operation *inner) {
        return isa<scf::ParallelOp, CallOpInterface, memref::AllocOp,
                   memref::AllocaOp, memref::DeallocOp, memref::GetGlobalOp>(
                   inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Branches, loops and switches that stay in host code (the lowered
/// tfaot.If/While/Case around kernels): the host decides, on a scalar it
/// copies back from the device (tfaot-gpu-read-decisions, ReadDecisions.cpp),
/// and launches the kernels of the bodies. Their bodies are host code too.
/// One that holds no host work (TopKV2's walk over its histogram, a branch
/// between two scalar computations) is sequential work instead, which one
/// GPU thread runs (tfaot-gpu-wrap-host-work): no copy back.
inline bool isHostControlFlow(mlir::Operation *op) {
  using namespace mlir;
  return isa<scf::IfOp, scf::WhileOp, scf::IndexSwitchOp>(op) &&
         holdsHostWork(op);
}

/// Whether a buffer of `type` has an offset or strides known only at run
/// time: a branch or switch that picks one of several buffers yields such
/// a memref, and kernels take bare pointers, which carry no offset.
inline bool hasRunTimeLayout(mlir::Type type) {
  using namespace mlir;
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getLayout().isIdentity())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return failed(memref.getStridesAndOffset(strides, offset)) ||
         ShapedType::isDynamic(offset) ||
         llvm::any_of(strides, ShapedType::isDynamic);
}

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_HOSTCODE_H
