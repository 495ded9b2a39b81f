//===- Int8Quantization.h - What --quantize=int8 quantizes, and how -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by tfaot-quantize-int8 (which rewrites the ops) and the driver's
// calibration and report (which pick the ops and print their scales), so
// both use the same rules.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_INT8QUANTIZATION_H
#define TFAOT_PASSES_INT8QUANTIZATION_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::tfaot {

/// The discardable attribute naming the float range [min, max] (two f32)
/// of a contraction's input, which tfaot-quantize-int8 quantizes to.
inline constexpr llvm::StringLiteral kQuantizeRangeAttr =
    "tfaot.quantize_range";

/// The discardable unit attribute asking tfaot-quantize-int8 to store a
/// float32 MatMul's weights as int8 per column and leave its activations in
/// float32 (Int8WeightMatMul, then a Mul by the column scales).
inline constexpr llvm::StringLiteral kQuantizeWeightsOnlyAttr =
    "tfaot.quantize_weights_only";

/// The discardable i64 attribute tfaot-quantize-int8 (with `residuals`)
/// leaves on the module: how many residual additions it made read an int8
/// tensor. The compile report reads it, since pass statistics are not kept
/// in a build without LLVM's statistics.
inline constexpr llvm::StringLiteral kInt8ResidualsAttr =
    "tfaot.int8_residuals";

/// Whether `op` is a contraction --quantize=int8 can replace: a float32
/// Conv2D (NHWC), DepthwiseConv2dNative (NHWC, multiplier 1) or MatMul (a
/// not transposed) with constant weights.
bool isQuantizableContraction(Operation *op);

/// The float weights of a quantizable contraction, row-major [k, n] with n
/// its output channels: Conv2D's HWCF filter as it is, a depthwise
/// filter as [kh * kw, c], MatMul's b (transposed when transpose_b).
DenseElementsAttr contractionWeights(Operation *op);

/// Per-tensor asymmetric int8 for an activation: q = clamp(round(x / scale)
/// + zeroPoint, -128, 127).
struct ActivationQuantization {
  float scale = 1.0f;
  int32_t zeroPoint = 0;
};

/// The quantization of [min, max], widened to contain 0 so that 0.0 (a
/// convolution's padding, a ReLU's floor) is exact.
ActivationQuantization quantizeRange(float min, float max);

/// Symmetric per-column scales of row-major [k, n] weights: max |w| / 127
/// (1 for an all-zero column), so that w / scale lies in [-127, 127].
SmallVector<float> columnScales(ArrayRef<float> weights, int64_t k, int64_t n);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_INT8QUANTIZATION_H
