//===- ContractFp.cpp - FMA contraction in kernels ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-contract-fp: kernels may fuse a multiply and an add into one
// FMA, as nvcc does by default (--fmad).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_CONTRACTFPPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

struct ContractFpPass
    : mlir::tfaot::impl::ContractFpPassBase<ContractFpPass> {
  void runOnOperation() override {
    getOperation().walk([](arith::ArithFastMathInterface op) {
      // Conversions (arith.truncf, extf) may carry no flags at all.
      arith::FastMathFlagsAttr flags = op.getFastMathFlagsAttr();
      op->setAttr(op.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(
                      op->getContext(),
                      (flags ? flags.getValue() : arith::FastMathFlags::none) |
                          arith::FastMathFlags::contract));
    });
  }
};

} // namespace
