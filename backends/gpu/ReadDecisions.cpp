//===- ReadDecisions.cpp - Host control flow reads its scalars back -------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-read-decisions: the lowered tfaot.If/While/Case stay in host
// code (their bodies' kernels are launched from inside the branches and
// loops), but the predicate, loop condition or switch index they decide on
// is a tensor that a kernel wrote to device memory. Each memref.load that
// the decision comes from becomes tfaot_rt_cuda_read_scalar(address,
// bytes): a synchronous device-to-host copy of that one element. The loads
// are found by walking back from the decision through pure arithmetic
// (`x > 0` on a loaded value, an index_cast of a loaded i32), so that what
// else the host code computes from memory still goes to a kernel
// (tfaot-gpu-wrap-host-work, which runs next).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/HostCode.h"
#include "backends/gpu/HostLaunch.h"
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_READDECISIONSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// The value a host branch, loop, switch or choice of buffer decides on;
/// null for other ops.
Value decisionOf(Operation *op) {
  using ::tfaot::gpu::isHostControlFlow;
  // A branch, loop or switch that holds no host work is a one-thread
  // kernel's (tfaot-gpu-wrap-host-work): it decides on the device.
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return isHostControlFlow(op) ? branch.getCondition() : Value();
  if (auto condition = dyn_cast<scf::ConditionOp>(op))
    return isHostControlFlow(op->getParentOp()) ? condition.getCondition()
                                                : Value();
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
    return isHostControlFlow(op) ? switchOp.getArg() : Value();
  // An scf.if whose branches only pick a buffer, canonicalized.
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType()))
    return select.getCondition();
  return nullptr;
}

/// Bytes of one element of type `type` in memory (i1 is stored as a byte),
/// or 0 for types the copy does not handle.
int64_t elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (isa<IntegerType, FloatType>(type)) {
    unsigned bits = type.getIntOrFloatBitWidth();
    return bits <= 64 ? (bits + 7) / 8 : 0;
  }
  return 0;
}

/// The loads `decision` is computed from through pure region-free ops.
void collectLoads(Value decision,
                  llvm::SetVector<memref::LoadOp> &loads) {
  SmallVector<Value> worklist{decision};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    Operation *def = value.getDefiningOp();
    if (!def)
      continue; // A block argument: a host value (a loop's i1 flag).
    if (auto load = dyn_cast<memref::LoadOp>(def)) {
      loads.insert(load);
      continue;
    }
    if (def->getNumRegions() == 0 && isPure(def))
      llvm::append_range(worklist, def->getOperands());
  }
}

/// Whether `op` is host code: in a function's body or in the bodies of
/// host control flow only. Anything else is inside a parallel loop (a
/// kernel's own) or inside sequential code that tfaot-gpu-wrap-host-work
/// makes a one-thread kernel (an scf.for, as TopKV2's selection loops).
bool inHostCode(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<func::FuncOp>(parent))
      return true;
    if (!::tfaot::gpu::isHostControlFlow(parent))
      return false;
  }
  return false;
}

struct ReadDecisionsPass
    : mlir::tfaot::impl::ReadDecisionsPassBase<ReadDecisionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::SetVector<memref::LoadOp> loads;
    module.walk([&](Operation *op) {
      if (Value decision = decisionOf(op); decision && inHostCode(op))
        collectLoads(decision, loads);
    });
    if (loads.empty())
      return;
    OpBuilder builder(module.getContext());
    Type i64 = builder.getI64Type();
    auto read = module.lookupSymbol<func::FuncOp>(tfaot_rt::kCudaReadScalar);
    if (!read) {
      builder.setInsertionPointToEnd(module.getBody());
      read = func::FuncOp::create(builder, module.getLoc(),
                                  tfaot_rt::kCudaReadScalar,
                                  builder.getFunctionType({i64, i64}, {i64}));
      read.setPrivate();
    }
    for (memref::LoadOp load : loads) {
      Type type = load.getType();
      int64_t bytes = elementBytes(type);
      if (!bytes)
        continue; // Left as a load: tfaot-gpu-check-host-code reports it.
      builder.setInsertionPoint(load);
      load.getResult().replaceAllUsesWith(readBack(builder, load, read, bytes));
      load.erase();
    }
  }

  /// The element `load` reads, copied to the host by `read`.
  static Value readBack(OpBuilder &builder, memref::LoadOp load,
                        func::FuncOp read, int64_t bytes) {
    Location loc = load.getLoc();
    Type i64 = builder.getI64Type();
    Value memref = load.getMemRef();
    // address = aligned pointer + (offset + sum of index * stride) * bytes
    auto metadata =
        memref::ExtractStridedMetadataOp::create(builder, loc, memref);
    Value element = metadata.getOffset();
    for (auto [index, stride] :
         llvm::zip_equal(load.getIndices(), metadata.getStrides())) {
      Value step = arith::MulIOp::create(builder, loc, index, stride);
      element = arith::AddIOp::create(builder, loc, element, step);
    }
    Value size = arith::ConstantIndexOp::create(builder, loc, bytes);
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
    Value address = arith::AddIOp::create(
        builder, loc, base, arith::MulIOp::create(builder, loc, element, size));
    Value bytesArg = arith::ConstantIntOp::create(builder, loc, i64, bytes);
    Value bits = func::CallOp::create(
                     builder, loc, read,
                     ValueRange{arith::IndexCastUIOp::create(builder, loc, i64,
                                                             address),
                                bytesArg})
                     .getResult(0);
    // The runtime returns the bytes zero-extended to 64 bits.
    Type type = load.getType();
    if (type.isIndex())
      return arith::IndexCastUIOp::create(builder, loc, type, bits);
    unsigned width = type.getIntOrFloatBitWidth();
    Type asInt = builder.getIntegerType(width);
    Value value = bits;
    if (width < 64)
      value = arith::TruncIOp::create(builder, loc, asInt, bits);
    if (isa<FloatType>(type))
      value = arith::BitcastOp::create(builder, loc, type, value);
    return value;
  }
};

} // namespace
