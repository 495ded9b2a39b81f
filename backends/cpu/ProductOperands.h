//===- ProductOperands.h - Operands of runtime-kernel products -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What the passes that hand float32 convolutions and matrix products to the
// runtime's packed kernels share (on tensors, before bufferization): which
// products qualify, and the convolution's input as rows of a matrix
// (im2col). Bf16Contractions.cpp (bf16 rows) and F32PanelProducts.cpp
// (float32 rows) use them.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_PRODUCTOPERANDS_H
#define TFAOT_BACKENDS_CPU_PRODUCTOPERANDS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>

namespace tfaot::cpu {

/// `x` rounded up to a multiple of `multiple`.
inline int64_t roundUp(int64_t x, int64_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

/// A float32 product with constant weights as the runtime's kernels take
/// it: a convolution (linalg.conv_2d_nhwc_hwcf), a matrix product
/// (linalg.matmul) or a batched one (linalg.batch_matmul) with static
/// shapes, a zero start and the default indexing maps, seen as rows
/// [(batch,) m, k] times weights [(batch,) k, n]: a convolution's rows are
/// its output pixels (im2colRows), its [KH, KW, C, N] filter is [KH*KW*C, N].
struct ConstantProduct {
  mlir::linalg::LinalgOp op;
  mlir::DenseElementsAttr weights; ///< Row-major, as the constant holds them.
  int64_t batch, m, k, n;
  bool batched; ///< A linalg.batch_matmul.
};

/// `op` as such a product, if it is one.
std::optional<ConstantProduct> matchConstantProduct(mlir::Operation *op);

/// Replaces the product's result by `product` ([(batch,) m, n]; a
/// convolution's seen as its NHWC result) and erases the op.
void replaceProduct(mlir::OpBuilder &b, const ConstantProduct &p,
                    mlir::Value product);

/// What each input value becomes as it is copied into the rows (a rounding
/// to the rows' element type, or the value itself).
using ConvertRowValue = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::Value)>;

/// Whether the convolution's input is its im2col rows as it is (a 1x1
/// stride-1 convolution that keeps the input's size): im2colRows then
/// copies nothing (for rows of the input's own element type).
bool inputIsRows(mlir::linalg::Conv2DNhwcHwcfOp conv);

/// The convolution's (already padded) NHWC input as im2col rows
/// [N*OH*OW, KH*KW*C] of `element`, column (kh, kw, c) in the filter's HWC
/// order, each value passed through `convert` as it is copied; where the
/// window's rows are contiguous, already padded with zero columns to
/// `kPadded`. A 1x1 stride-1 convolution's rows are its input itself, seen
/// as [N*H*W, C] (converted by one elementwise op unless `element` is the
/// input's own type, then not copied at all; not padded).
mlir::Value im2colRows(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::linalg::Conv2DNhwcHwcfOp conv, int64_t kPadded,
                       mlir::Type element, ConvertRowValue convert);

} // namespace tfaot::cpu

#endif // TFAOT_BACKENDS_CPU_PRODUCTOPERANDS_H
