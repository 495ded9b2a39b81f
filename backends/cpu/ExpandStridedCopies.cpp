//===- ExpandStridedCopies.cpp - memref.copy to linalg.copy ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-expand-strided-copies: keeps generated objects free of MLIR's C
// runner library (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_EXPANDSTRIDEDCOPIESPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {
struct ExpandStridedCopiesPass
    : public tfaot::impl::ExpandStridedCopiesPassBase<ExpandStridedCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (!source.getLayout().isIdentity() || !target.getLayout().isIdentity())
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
      ++numCopiesExpanded;
    }
  }
};
} // namespace
