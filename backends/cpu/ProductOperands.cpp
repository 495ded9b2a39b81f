//===- ProductOperands.cpp - Operands of runtime-kernel products ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// See ProductOperands.h.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/ProductOperands.h"

#include "passes/ConstantUtils.h"
#include "passes/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tfaot;
namespace cpu = ::tfaot::cpu;

namespace {

/// `value` is a linalg.fill of +-0.0: the product adds to nothing.
bool isZeroFilled(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

bool isStaticF32(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getElementType().isF32();
}

} // namespace

std::optional<cpu::ConstantProduct> cpu::matchConstantProduct(Operation *op) {
  auto product = dyn_cast<linalg::LinalgOp>(op);
  if (!product ||
      !isa<linalg::Conv2DNhwcHwcfOp, linalg::MatmulOp, linalg::BatchMatmulOp>(
          op) ||
      !product.hasPureTensorSemantics() ||
      !isStaticF32(product.getDpsInputOperand(0)->get()) ||
      !isStaticF32(op->getResult(0)) ||
      !isZeroFilled(product.getDpsInitOperand(0)->get()))
    return std::nullopt;
  // Default indexing maps only (no transposes or broadcasts folded in).
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
    if (matmul.getIndexingMapsArray() != matrixProductMaps(op->getContext()))
      return std::nullopt;
  if (auto batched = dyn_cast<linalg::BatchMatmulOp>(op))
    if (batched.hasUserDefinedMaps())
      return std::nullopt;
  DenseElementsAttr weights =
      denseConstant(product.getDpsInputOperand(1)->get());
  if (!weights || !weights.getElementType().isF32())
    return std::nullopt;
  auto w = cast<RankedTensorType>(weights.getType()).getShape();
  auto result = cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  if (isa<linalg::Conv2DNhwcHwcfOp>(op))
    return ConstantProduct{product, weights, 1, result[0] * result[1] * result[2],
                           w[0] * w[1] * w[2], w[3], false};
  if (isa<linalg::MatmulOp>(op))
    return ConstantProduct{product, weights, 1, result[0], w[0], w[1], false};
  return ConstantProduct{product, weights, w[0], result[1], w[1], w[2], true};
}

void cpu::replaceProduct(OpBuilder &b, const ConstantProduct &p,
                         Value product) {
  Value result = product;
  if (isa<linalg::Conv2DNhwcHwcfOp>(p.op))
    result = tensor::ExpandShapeOp::create(
        b, p.op->getLoc(), p.op->getResult(0).getType(), product,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  p.op->getResult(0).replaceAllUsesWith(result);
  p.op->erase();
}

bool cpu::inputIsRows(linalg::Conv2DNhwcHwcfOp conv) {
  auto input = cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filter = cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto result = cast<RankedTensorType>(conv.getResult(0).getType());
  return filter.getDimSize(0) == 1 && filter.getDimSize(1) == 1 &&
         llvm::all_of(conv.getStrides().getValues<int64_t>(),
                      [](int64_t s) { return s == 1; }) &&
         input.getDimSize(1) == result.getDimSize(1) &&
         input.getDimSize(2) == result.getDimSize(2);
}

Value cpu::im2colRows(OpBuilder &b, Location loc, linalg::Conv2DNhwcHwcfOp conv,
                      int64_t kPadded, Type element, ConvertRowValue convert) {
  MLIRContext *ctx = b.getContext();
  Value input = conv.getInputs()[0];
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto resultType = cast<RankedTensorType>(conv.getResult(0).getType());
  int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(3);
  int64_t oh = resultType.getDimSize(1), ow = resultType.getDimSize(2);
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
  auto dilations = llvm::to_vector(conv.getDilations().getValues<int64_t>());
  int64_t rows = n * oh * ow;
  if (inputIsRows(conv)) {
    Value flat = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({rows, c}, inputType.getElementType()),
        input, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    if (element == inputType.getElementType())
      return flat;
    return buildElementwise(b, loc, RankedTensorType::get({rows, c}, element),
                            ValueRange{flat}, {b.getMultiDimIdentityMap(2)},
                            [&](OpBuilder &nb, Location l, ValueRange args) {
                              return convert(nb, l, args[0]);
                            });
  }
  if (dilations[1] == 1) {
    // A window row (kw, c) is kw * c contiguous values of the input seen as
    // [N, H, W * C]: loops (n, oh, ow, kh, j), j = kw * C + c, read at
    // (n, oh * s + kh * d, ow * s * C + j). The innermost loop then spans
    // KW * C values rather than C (21 rather than 3 for ResNet's 7x7 stem,
    // which was 6x slower per value that way).
    auto wideType = RankedTensorType::get(
        {n, inputType.getDimSize(1), inputType.getDimSize(2) * c},
        b.getF32Type());
    Value wide = tensor::CollapseShapeOp::create(
        b, loc, wideType, input,
        ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    AffineExpr d0, d1, d2, d3, d4;
    bindDims(ctx, d0, d1, d2, d3, d4);
    AffineMap read = AffineMap::get(
        5, 0,
        {d0, d1 * strides[0] + d3 * dilations[0], d2 * (strides[1] * c) + d4},
        ctx);
    // The rows go straight into the [rows, kPadded] operand: its padding
    // column is zeroed on its own and the generic writes the rest, rather
    // than padding a copy of the whole matrix.
    int64_t k = kh * kw * c;
    Value dest = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{rows, kPadded}, element);
    if (kPadded != k) {
      Value padding = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get({rows, kPadded - k}, element), dest,
          getAsIndexOpFoldResult(ctx, {0, k}),
          getAsIndexOpFoldResult(ctx, {rows, kPadded - k}),
          getAsIndexOpFoldResult(ctx, {1, 1}));
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
      Value zeros =
          linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{padding})
              .getResult(0);
      dest = tensor::InsertSliceOp::create(
          b, loc, zeros, dest, getAsIndexOpFoldResult(ctx, {0, k}),
          getAsIndexOpFoldResult(ctx, {rows, kPadded - k}),
          getAsIndexOpFoldResult(ctx, {1, 1}));
    }
    Value inner = kPadded == k
                      ? dest
                      : tensor::ExtractSliceOp::create(
                            b, loc, RankedTensorType::get({rows, k}, element),
                            dest, getAsIndexOpFoldResult(ctx, {0, 0}),
                            getAsIndexOpFoldResult(ctx, {rows, k}),
                            getAsIndexOpFoldResult(ctx, {1, 1}));
    auto patchesType = RankedTensorType::get({n, oh, ow, kh, kw * c}, element);
    Value window = tensor::ExpandShapeOp::create(
        b, loc, patchesType, inner,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
    SmallVector<AffineMap> maps = {read, b.getMultiDimIdentityMap(5)};
    SmallVector<utils::IteratorType> iterators(5,
                                               utils::IteratorType::parallel);
    Value patches =
        linalg::GenericOp::create(
            b, loc, TypeRange{patchesType}, ValueRange{wide},
            ValueRange{window}, maps, iterators,
            [&](OpBuilder &nb, Location l, ValueRange args) {
              linalg::YieldOp::create(nb, l, convert(nb, l, args[0]));
            })
            .getResult(0);
    Value filled = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({rows, k}, element), patches,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
    if (kPadded == k)
      return filled;
    return tensor::InsertSliceOp::create(b, loc, filled, dest,
                                         getAsIndexOpFoldResult(ctx, {0, 0}),
                                         getAsIndexOpFoldResult(ctx, {rows, k}),
                                         getAsIndexOpFoldResult(ctx, {1, 1}));
  }
  // Loops (n, oh, ow, kh, kw, c); the input is read at the window position.
  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(ctx, d0, d1, d2, d3, d4, d5);
  AffineMap read = AffineMap::get(6, 0,
                                  {d0, d1 * strides[0] + d3 * dilations[0],
                                   d2 * strides[1] + d4 * dilations[1], d5},
                                  ctx);
  Value patches = buildElementwise(
      b, loc, RankedTensorType::get({n, oh, ow, kh, kw, c}, element),
      ValueRange{input}, {read},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        return convert(nb, l, args[0]);
      });
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({rows, kh * kw * c}, element), patches,
      ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
}
