//===- QuantizeLayers.cpp - Which contractions become int8 ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The rule both compilations of compileQuantized pick the layers with, on
// the same graph-pass output, so that the i-th layer calibrated is the
// i-th layer quantized.
//
//===----------------------------------------------------------------------===//
#include "compiler/quantize/QuantizeInternal.h"

#include "ir/Ops.h"
#include "passes/Remarks.h"

#include <string>

using namespace tfaot;

namespace {

/// How many products each output of a quantizable contraction sums (K:
/// kh * kw * in_channels for a convolution, kh * kw for a depthwise one).
int64_t productsPerOutput(mlir::Operation *op) {
  auto weights = llvm::cast<mlir::ShapedType>(op->getOperand(1).getType());
  if (auto matmul = llvm::dyn_cast<mlir::tfaot::MatMulOp>(op))
    return weights.getDimSize(matmul.getTransposeB() ? 1 : 0);
  if (llvm::isa<mlir::tfaot::DepthwiseConv2dNativeOp>(op))
    return weights.getDimSize(0) * weights.getDimSize(1);
  return weights.getNumElements() / weights.getShape().back();
}

} // namespace

namespace tfaot::quantize {

std::string layerName(mlir::Operation *op, size_t index) {
  return mlir::tfaot::nodeNameOf(op->getLoc())
      .value_or("contraction #" + std::to_string(index));
}

std::vector<mlir::Operation *>
chooseLayers(mlir::ModuleOp module, bool allLayers, int64_t minK,
             std::vector<mlir::Operation *> &all) {
  all.clear();
  module.walk([&](mlir::Operation *op) {
    if (mlir::tfaot::isQuantizableContraction(op))
      all.push_back(op);
  });
  std::vector<mlir::Operation *> ops = all;
  if (!allLayers) {
    if (ops.size() <= 2)
      return {};
    ops.erase(ops.begin());
    ops.pop_back();
  }
  // Few products per output also means less averaging of the 8-bit
  // rounding: a 3x3 depthwise convolution sums 9, so --quantize_min_k 10
  // keeps those in float when the report shows too large an error.
  llvm::erase_if(ops, [&](mlir::Operation *op) {
    return productsPerOutput(op) < minK;
  });
  return ops;
}

} // namespace tfaot::quantize
