//===- SplitSharedEmpties.cpp - Bound the users of one tensor.empty -------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-split-shared-empties{max-users=N}: a tensor.empty with more than N
// users in its block keeps its first N; each further run of N users (in
// block order) gets a copy of the empty, placed before the run's first
// user. Users in nested regions keep the original.
//
// Why: CSE merges identical tensor.empty ops, so in a long graph one empty
// becomes the `outs` of hundreds of linalg ops (the 100k-node benchmark of
// bench/compile_scaling: one empty, 470 fused generics). One-shot
// bufferization puts every tensor that may share its buffer in one alias
// set and walks that set for each in-place decision: super-linear in the
// number of users (14 s of a 100k-node compile on a quiet machine, 50 s on
// a loaded one). Giving each user its own empty made that step linear but
// changed every corpus model's buffers: a shared empty lets a chain of
// elementwise ops write one buffer in place, and separate empties each
// became a buffer of their own (liveness's naive sum of temporaries 273 ->
// 372 KB). Runs of N users keep that reuse within each run, and with N
// above what real models have (the TF.js corpus: at most 36 users of one
// empty, facemesh-attention; default 64) their IR does not change at all.
//
// An empty tensor's contents are undefined, so any of its users may take
// another one: the split never changes what the code computes.
//
//===----------------------------------------------------------------------===//
#include "passes/SplitSharedEmpties.h"
#include "passes/LoweringUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace {

struct SplitSharedEmptiesPass
    : PassWrapper<SplitSharedEmptiesPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SplitSharedEmptiesPass)

  SplitSharedEmptiesPass() = default;
  SplitSharedEmptiesPass(const SplitSharedEmptiesPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const override {
    return "tfaot-split-shared-empties";
  }
  StringRef getDescription() const override {
    return "Give each run of max-users users of one tensor.empty (in block "
           "order) an empty of its own, so one-shot bufferization's alias "
           "sets stay small";
  }

  Option<int64_t> maxUsers{
      *this, "max-users",
      llvm::cl::desc("users of one tensor.empty left sharing it"),
      llvm::cl::init(64)};

  void runOnOperation() override {
    if (maxUsers < 1) {
      getOperation().emitError("tfaot-split-shared-empties: max-users must "
                               "be at least 1, not ")
          << static_cast<int64_t>(maxUsers);
      return signalPassFailure();
    }
    SmallVector<tensor::EmptyOp> empties;
    getOperation().walk([&](tensor::EmptyOp op) { empties.push_back(op); });
    for (tensor::EmptyOp empty : empties)
      split(empty);
  }

  void split(tensor::EmptyOp empty) {
    tfaot::splitUsesIntoRuns(empty.getResult(), maxUsers, [&](OpBuilder &b) {
      return b.clone(*empty)->getResult(0);
    });
  }
};

} // namespace

void mlir::tfaot::registerSplitSharedEmptiesPass() {
  PassRegistration<SplitSharedEmptiesPass>();
}
