//===- Int8Epilogue.h - Elementwise code the int8 kernel can apply --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// An int8 product (linalg.mmt4d, i32 sums) is almost always read by one
// elementwise linalg.generic that rescales the sums to float, adds the
// bias, clamps (ReLU, ReLU6) and often quantizes the result again for the
// next int8 layer. tfaot_rt_mmt4d_s8s8_fused (runtime/lib/int8_gemm.h)
// applies exactly that sequence to each panel of sums while it is in
// cache; this matcher recognizes a generic that is that sequence, so the
// int32 sums are never written out and read back.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_INT8EPILOGUE_H
#define TFAOT_BACKENDS_CPU_INT8EPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace tfaot::cpu {

/// Whether `buffer` is a static memref of `element` stored densely
/// row-major (any offset): what the kernels' plain pointers assume.
bool isDenseOf(mlir::Value buffer, mlir::Type element);

/// The generic after an int8 product, as the fused kernel's arguments.
struct Int8EpilogueMatch {
  mlir::linalg::GenericOp generic;
  /// Views of the product's buffer the generic reads through, innermost
  /// (the product's buffer's user) first (none for an NHWC result); erased
  /// with the generic where nothing else uses them.
  llvm::SmallVector<mlir::Operation *> views;
  mlir::Value scale;  ///< memref<n x f32>, per column (null: float sums).
  mlir::Value bias;   ///< memref<n x f32>, or null.
  mlir::Value residual; ///< f32, the result's shape (added after the bias), or null.
  /// Or an int8 residual of the result's shape, added as
  /// (float(q) - residualZp) * residualScale (at most one of the two).
  mlir::Value residualInt8;
  float residualScale = 1, residualZp = 0;
  /// The generic's output, f32 or i8 with n columns: dense, or the
  /// interior of a padded NHWC buffer (see rowPixels).
  mlir::Value result;
  int64_t n = 0;      ///< Columns of the result (<= those of the product).
  float lo, hi;       ///< Clamp after the bias (+-inf when none).
  bool int8Result = false;
  float qMul = 1, qZp = 0, qLo = -128, qHi = 127;
  /// Where the result is the interior of a padded buffer: rows of
  /// rowPixels pixels rowStride elements apart (0: dense).
  int64_t rowPixels = 0, rowStride = 0;
  /// A float result also stored requantized (see addInt8Copy): the
  /// generic that did that, and its dense int8 output; or null.
  mlir::linalg::GenericOp copyGeneric;
  mlir::Value int8Copy;
};

/// The epilogue of `product` (bufferized: an int8 mmt4d with tiles 1x16x4,
/// or a product with an NHWC result such as a depthwise convolution) if
/// the only reader of its result is an elementwise generic computing
///   y = clamp(float(acc) * scale[col] (+ bias[col]) (+ residual), lo, hi)
/// (the residual f32, or i8 dequantized with constants:
/// (sitofp(q) - zp) * s, or sitofp(q) * s where zp was 0)
/// and storing y, or int8(clamp(roundeven(y * qMul) + qZp, qLo, qHi))
/// (or int8(roundeven(y)), the form tfaot-fold-requantize leaves: qMul 1,
/// qZp 0), with nothing that touches memory between the two but fills of
/// buffers allocated there.
/// A float32 mmt4d's sums (tiles 1x64x1, tfaot_rt_mmt4d_f32_fused) are
/// matched the same way without the conversion and the scale:
///   y = clamp(acc (+ bias[col]) (+ residual), lo, hi)
/// (the caller turns down what its kernel lacks: int8 residuals and
/// results); match.scale is then null.
std::optional<Int8EpilogueMatch>
matchInt8Epilogue(mlir::linalg::LinalgOp product);

/// For a dense float result: whether the next op that touches memory is
/// a generic requantizing that result whole,
///   int8(clamp(roundeven(y * qMul) + qZp, qLo, qHi)),
/// into a dense int8 buffer of its shape that shares no bytes with what
/// the product and its epilogue read or write (a ResNet block's output,
/// float for the next residual add and int8 for the next block's first
/// product). If so the matrix product's kernel stores that too
/// (Int8Epilogue::int8_copy): `match` takes the requantization, the
/// generic and its output. Only tfaot_rt_mmt4d_s8s8_fused takes a copy.
bool addInt8Copy(mlir::linalg::LinalgOp product, Int8EpilogueMatch &match);

/// Splits each generic that adds two int8 products' rescaled sums, or two
/// float32 mmt4d products' sums plus biases (a ResNet stage's first block:
/// shortcut plus last 1x1) into a generic
/// writing the earlier product's term as float right after it and the
/// join reading that as a residual, so that both become epilogues the
/// fused kernel applies. Bit for bit the same results
/// (Int8ResidualJoin.cpp).
void splitJoinsOfTwoProducts(mlir::ModuleOp module);

} // namespace tfaot::cpu

#endif // TFAOT_BACKENDS_CPU_INT8EPILOGUE_H
