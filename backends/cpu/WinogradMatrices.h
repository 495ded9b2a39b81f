//===- WinogradMatrices.h - Winograd transform matrices ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by tfaot-winograd-convolutions (which builds the transforms) and
// tfaot-vectorize-winograd-transforms (which computes them patch by patch
// and block by block). Both algorithms in the correlation form convolution
// layers compute (Lavin and Gray, "Fast Algorithms for Convolutional Neural
// Networks", 2016).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_WINOGRADMATRICES_H
#define TFAOT_BACKENDS_CPU_WINOGRADMATRICES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tfaot::winograd {

/// Marks, in the output transform's body, the op whose result is the
/// transformed value (what a fused epilogue starts from).
inline constexpr llvm::StringLiteral kSumAttr = "tfaot.winograd_sum";

constexpr int kMaxPatch = 6;
constexpr int kMaxBlock = 4;

/// One algorithm F(m x m, 3x3): an m x m block of output pixels from the
/// (m + 2) x (m + 2) input patch under it, through patch^2 elementwise
/// products. Rows of the matrices past `patch` (or `block`) are unused.
struct Variant {
  int block; ///< output block side m
  int patch; ///< input patch side m + 2
  double bt[kMaxPatch][kMaxPatch];
  double g[kMaxPatch][3];
  double at[kMaxBlock][kMaxPatch];
  constexpr int products() const { return patch * patch; }
  ArrayRef<double> btRow(int a) const { return ArrayRef(bt[a], patch); }
  ArrayRef<double> atRow(int p) const { return ArrayRef(at[p], patch); }
};

/// F(4x4,3x3): 36 products for 16 pixels, 2.25 multiplications per pixel
/// instead of direct's 9; filters 4x the direct ones. Points 0, -1, 1, -2,
/// 2 and infinity.
constexpr Variant kF4x4 = {4,
                           6,
                           {{4, 0, -5, 0, 1, 0},
                            {0, -4, -4, 1, 1, 0},
                            {0, 4, -4, -1, 1, 0},
                            {0, -2, -1, 2, 1, 0},
                            {0, 2, -1, -2, 1, 0},
                            {0, 4, 0, -5, 0, 1}},
                           {{1.0 / 4, 0, 0},
                            {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                            {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                            {1.0 / 24, 1.0 / 12, 1.0 / 6},
                            {1.0 / 24, -1.0 / 12, 1.0 / 6},
                            {0, 0, 1}},
                           {{1, 1, 1, 1, 1, 0},
                            {0, 1, -1, 2, -2, 0},
                            {0, 1, 1, 4, 4, 0},
                            {0, 1, -1, 8, -8, 1}}};

/// F(2x2,3x3): 16 products for 4 pixels, 4 multiplications per pixel
/// instead of 9; filters 16/9 the direct ones, so it pays on layers with
/// too few 4x4 blocks to read F(4x4)'s filters for (7x7 maps at batch 1).
/// Points 0, -1, 1 and infinity.
constexpr Variant kF2x2 = {
    2,
    4,
    {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}},
    {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}},
    {{1, 1, 1, 0}, {0, 1, -1, -1}}};

/// The variant with `products` elementwise products (the batch of its
/// product), or null.
inline const Variant *variantWithProducts(int64_t products) {
  for (const Variant *v : {&kF4x4, &kF2x2})
    if (v->products() == products)
      return v;
  return nullptr;
}

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
