//===- WinogradMatrices.h - The F(4x4,3x3) transform matrices ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by tfaot-winograd-convolutions (which builds the transforms) and
// tfaot-vectorize-winograd-transforms (which computes the output transform
// block by block). F(4x4, 3x3) in the correlation form convolution layers
// compute, interpolation points 0, -1, 1, -2, 2 and infinity (Lavin and
// Gray, "Fast Algorithms for Convolutional Neural Networks", 2016).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_WINOGRADMATRICES_H
#define TFAOT_BACKENDS_CPU_WINOGRADMATRICES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tfaot::winograd {

constexpr int kPatch = 6; ///< input patch side
constexpr int kBlock = 4; ///< output block side
constexpr int kProducts = kPatch * kPatch;

/// Marks, in the output transform's body, the op whose result is the
/// transformed value (what a fused epilogue starts from).
inline constexpr llvm::StringLiteral kSumAttr = "tfaot.winograd_sum";

constexpr double kBT[kPatch][kPatch] = {
    {4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
    {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
constexpr double kG[kPatch][3] = {{1.0 / 4, 0, 0},
                                  {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                  {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                  {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                  {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                  {0, 0, 1}};
constexpr double kAT[kBlock][kPatch] = {{1, 1, 1, 1, 1, 0},
                                        {0, 1, -1, 2, -2, 0},
                                        {0, 1, 1, 4, 4, 0},
                                        {0, 1, -1, 8, -8, 1}};

/// sum_k coeffs[k] * terms[k] (f32 scalars or vectors), skipping zero
/// coefficients and multiplying by none of +-1. At least one coefficient
/// must be nonzero.
inline Value linearCombination(OpBuilder &b, Location loc,
                               ArrayRef<double> coeffs, ArrayRef<Value> terms) {
  auto scaled = [&](double c, Value term) -> Value {
    TypedAttr value =
        isa<VectorType>(term.getType())
            ? TypedAttr(DenseElementsAttr::get(
                  cast<ShapedType>(term.getType()), float(c)))
            : TypedAttr(b.getF32FloatAttr(float(c)));
    Value factor = arith::ConstantOp::create(b, loc, value);
    return arith::MulFOp::create(b, loc, term, factor);
  };
  Value sum;
  for (auto [c, term] : llvm::zip_equal(coeffs, terms)) {
    if (c == 0)
      continue;
    if (!sum)
      sum = c == 1    ? term
            : c == -1 ? arith::NegFOp::create(b, loc, term).getResult()
                      : scaled(c, term);
    else if (c == 1)
      sum = arith::AddFOp::create(b, loc, sum, term);
    else if (c == -1)
      sum = arith::SubFOp::create(b, loc, sum, term);
    else
      sum = arith::AddFOp::create(b, loc, sum, scaled(c, term));
  }
  return sum;
}

} // namespace mlir::tfaot::winograd

#endif // TFAOT_BACKENDS_CPU_WINOGRADMATRICES_H
