//===- Passes.h - CPU backend codegen passes --------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declarations generated from backends/cpu/Passes.td, their registration,
// what two of these passes share (the mark tfaot-fuse-epilogues puts on a
// loop for tfaot-parallelize-loops, and how both weigh a linalg op's work),
// and the module attribute tfaot-instrument-profile writes for the driver.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_PASSES_H
#define TFAOT_BACKENDS_CPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {

/// Marks an scf.for whose iterations are independent (they write disjoint
/// parts of buffers nothing in the loop reads across iterations), which
/// tfaot-parallelize-loops may run on several threads.
inline constexpr llvm::StringLiteral kParallelLoopAttr = "tfaot.parallel";

/// Set by tfaot-fuse-epilogues on a convolution whose constant filter it
/// packed into panels of this many output channels (an integer), which
/// tfaot-vectorize-contractions may then cover with one register tile that
/// wide: the tile reads each panel row whole, contiguously.
inline constexpr llvm::StringLiteral kPanelColumnsAttr = "tfaot.panel_columns";

/// Marks the input ("input") and output ("output") transforms
/// tfaot-winograd-convolutions makes, which
/// tfaot-vectorize-winograd-transforms turns into vector loops over
/// channels once they are on buffers.
inline constexpr llvm::StringLiteral kWinogradTransformAttr =
    "tfaot.winograd_transform";

/// The module attribute tfaot-instrument-profile writes: the name of each
/// timed op, indexed by the id its timing calls pass. The driver reads it
/// back for `tfaot bench --profile`.
inline constexpr llvm::StringLiteral kProfileNamesAttr = "tfaot.profile_names";
/// Beside it, per id: the floating-point operations of the op's
/// contractions (2 per multiply-add; 0 when none or not known) and the
/// bytes of the buffers it reads or writes, each counted once.
inline constexpr llvm::StringLiteral kProfileFlopAttr = "tfaot.profile_flop";
inline constexpr llvm::StringLiteral kProfileBytesAttr =
    "tfaot.profile_bytes";
/// On a call of a runtime kernel that replaced a contraction
/// (tfaot-cpu-int8-ukernels): the floating-point operations the call runs
/// (2 per multiply-add of its tiles, the zero padding of a partial tile
/// included), which the profile counts for it.
inline constexpr llvm::StringLiteral kCallFlopAttr = "tfaot.flop";

/// What one element of an op without reduction loops (elementwise code,
/// copies, fills, im2col gathers) is worth in multiply-adds of a
/// contraction. Such an element is a few loads, arithmetic ops and a store,
/// mostly from memory: on the Zen 5 dev VM ResNet-50 int8's requantizing of
/// a 56x56x256 activation took 54 us on one core (0.07 ns an element),
/// while its convolutions ran at 0.001-0.005 ns a multiply-add. 8 is on
/// the low side of that, so an elementwise op goes to the thread pool from
/// 131,072 elements (min-work / 8) instead of a million: the million-element
/// requantizations and residual sums it left serial were 16% of ResNet-50
/// int8's 2-thread run.
inline constexpr int64_t kElementwiseWork = 8;

/// What one multiply-add of a depthwise convolution is worth in those of
/// a dense one. Each reads an input and a weight that serve that one output
/// channel alone, so it runs at the speed of the cache, not of the FMAs:
/// MobileNetV2's depthwise layers ran at 25-106 GFLOP/s on one Sapphire
/// Rapids core, its 1x1 layers of the same sizes at 150-170. Weighed so,
/// its 7x7x960 and 14x14x192 depthwise layers (0.3-0.4M multiply-adds)
/// reach min-work and are split among threads; left serial, they took
/// twice as long on two threads as on one, reading the input the other
/// core had just written.
inline constexpr int64_t kDepthwiseWork = 4;

/// Multiply-adds (or weighted elements) `op` computes: the product of its
/// static loop ranges, a dynamic one counting as 1, times kElementwiseWork
/// when it has no reduction loop, or kDepthwiseWork for a depthwise
/// convolution. How the passes that share work among threads
/// (tfaot-fuse-epilogues, tfaot-parallelize-loops) weigh it.
inline int64_t staticWorkOf(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t range : op.getStaticLoopRanges())
    work = range == ShapedType::kDynamic ? work : work * range;
  if (op.getNumReductionLoops() == 0)
    return work * kElementwiseWork;
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::DepthwiseConv2DNhwcHwcmOp>(
          op.getOperation()))
    return work * kDepthwiseWork;
  return work;
}

#define GEN_PASS_DECL
#include "backends/cpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "backends/cpu/Passes.h.inc"

} // namespace mlir::tfaot

#endif // TFAOT_BACKENDS_CPU_PASSES_H
