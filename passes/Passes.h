//===- Passes.h - tfaot graph and lowering passes ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declarations generated from Passes.td, and their registration.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_PASSES_H
#define TFAOT_PASSES_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {

/// Marks an scf.for whose iterations are independent (they write disjoint
/// parts of buffers nothing in the loop reads across iterations), which
/// tfaot-parallelize-loops may run on several threads.
inline constexpr llvm::StringLiteral kParallelLoopAttr = "tfaot.parallel";

/// Multiply-adds (or elements) `op` computes: the product of its static
/// loop ranges, a dynamic one counting as 1. How the passes that share work
/// among threads (tfaot-fuse-epilogues, tfaot-parallelize-loops) weigh it.
inline int64_t staticWorkOf(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t range : op.getStaticLoopRanges())
    work = range == ShapedType::kDynamic ? work : work * range;
  return work;
}

/// The module attribute tfaot-instrument-profile writes: the name of each
/// timed op, indexed by the id its timing calls pass.
inline constexpr llvm::StringLiteral kProfileNamesAttr = "tfaot.profile_names";

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_PASSES_H
