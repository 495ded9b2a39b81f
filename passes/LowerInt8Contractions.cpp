//===- LowerInt8Contractions.cpp - int8 products to linalg ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-lower-int8-contractions. tfaot-lower-to-linalg leaves the int8
// products (Int8Conv2D, Int8MatMul, Int8DepthwiseConv2D) in place, and
// they are lowered here, after tfaot-fuse-elementwise: that pass
// propagates reshapes through every linalg op whose indexing maps are
// projected permutations, mmt4d included, and would turn the product into
// a linalg.generic the CPU kernel pass no longer recognizes. The ops
// themselves are opaque to it, so the float ops around them still fuse.
//
// Int8Conv2D and Int8MatMul become one int8 product
// A[M, K] x W[K, N] -> i32 written as linalg.mmt4d with tiles M0=1, N0=16,
// K0=4:
//  - A is the activation, as rows (a convolution's im2col copy, or the input
//    itself for a 1x1 stride-1 convolution), seen as [M, K/4, 1, 4]: no
//    packing copy is needed for the left side;
//  - W is a constant, packed here at compile time into [N/16, K/4, 16, 4],
//    the layout in which each 32-bit lane of a vpdpbusd reads four
//    consecutive k of one column (the CPU backend's ukernel reads it so);
//  - the [M, N/16, 1, 16] result is row-major [M, N] after a collapse.
// K and N are padded to multiples of 4 and 16 with zero weights (padded A
// columns are zeros too). The zero point becomes the product's initial
// value, -zp * sum_k W[k, n] per column, so the contraction itself is the
// plain signed product that linalg.mmt4d defines.
//
// With product=matmul (the GPU backend) the same product is a
// linalg.matmul of the rows by W^T, a constant [N, K] (K padded to 4): the
// "TN" int8 GEMM that cuBLAS runs on tensor cores, which
// tfaot-gpu-matmuls-to-cublas hands it (MatmulsToCublas.cpp).
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"
#include "passes/Passes.h"

#include "ir/Ops.h"

#include "mlir/IR/Matchers.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_LOWERINT8CONTRACTIONSPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

namespace {

constexpr int64_t kTileN = 16; // output columns per packed tile (N0)
constexpr int64_t kTileK = 4;  // reduction values per 32-bit lane (K0)

int64_t roundUp(int64_t x, int64_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

/// The weights as a row-major [K, N] int8 matrix, from a constant operand.
FailureOr<SmallVector<int8_t>> constantWeights(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) ||
      !attr.getElementType().isInteger(8))
    return failure();
  SmallVector<int8_t> weights;
  weights.reserve(attr.getNumElements());
  for (const APInt &w : attr.getValues<APInt>())
    weights.push_back(static_cast<int8_t>(w.getSExtValue()));
  return weights;
}

/// `weights` ([k, n] row-major) in the [N1, K1, 16, 4] tile layout.
DenseElementsAttr packWeights(MLIRContext *ctx, ArrayRef<int8_t> weights,
                              int64_t k, int64_t n) {
  int64_t k1 = roundUp(k, kTileK) / kTileK, n1 = roundUp(n, kTileN) / kTileN;
  std::vector<int8_t> packed(n1 * k1 * kTileN * kTileK, 0);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t col = 0; col < n; ++col) {
      int64_t at = (((col / kTileN) * k1 + row / kTileK) * kTileN +
                    col % kTileN) * kTileK + row % kTileK;
      packed[at] = weights[row * n + col];
    }
  auto type = RankedTensorType::get({n1, k1, kTileN, kTileK},
                                    IntegerType::get(ctx, 8));
  return DenseElementsAttr::get(type, ArrayRef<int8_t>(packed));
}

/// How the products are built (the pass's `product` option).
enum class ProductForm { Mmt4d, Matmul };

/// -zp * (the sum over k of weights[k, j]) for each of the n columns j,
/// then zeros up to `columns`: sum (a - zp) * w = sum a * w - zp * sum w,
/// so the product starts from this row.
SmallVector<int32_t> zeroPointRow(ArrayRef<int8_t> weights, int64_t k,
                                  int64_t n, int32_t zeroPoint,
                                  int64_t columns) {
  SmallVector<int32_t> row(columns, 0);
  for (int64_t r = 0; r < k; ++r)
    for (int64_t col = 0; col < n; ++col)
      row[col] -= weights[r * n + col];
  for (int32_t &c : row)
    c *= zeroPoint;
  return row;
}

/// `rows` [M, k] with zero columns appended up to `columns`.
Value padColumns(OpBuilder &b, Location loc, Value rows, int64_t columns) {
  auto type = cast<RankedTensorType>(rows.getType());
  int64_t m = type.getDimSize(0), k = type.getDimSize(1);
  if (k == columns)
    return rows;
  Value zero = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type.getElementType(), 0));
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get({m, columns}, type.getElementType()), rows,
      getAsIndexOpFoldResult(b.getContext(), {0, 0}),
      getAsIndexOpFoldResult(b.getContext(), {0, columns - k}), zero);
}

/// An i32 tensor of `type` with `row` (as a constant of `rowType`)
/// broadcast along `broadcastDims`, or zeros if the zero point is 0.
Value zeroPointInit(OpBuilder &b, Location loc, RankedTensorType type,
                    RankedTensorType rowType, ArrayRef<int32_t> row,
                    int32_t zeroPoint, ArrayRef<int64_t> broadcastDims) {
  if (zeroPoint == 0)
    return buildFilled(b, loc, type,
                       scalarConstant(b, loc, b.getI32Type(), 0));
  Value constant = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(rowType, row));
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        b.getI32Type());
  return linalg::BroadcastOp::create(b, loc, constant, empty, broadcastDims)
      .getResult()[0];
}

/// rows[M, k] (i8) x weights[k, n] -> [M, n] i32 of sum (rows - zp) * w, as
/// a linalg.mmt4d (file comment).
Value buildMmt4dProduct(OpBuilder &b, Location loc, Value rows,
                        ArrayRef<int8_t> weights, int64_t k, int64_t n,
                        int32_t zeroPoint) {
  MLIRContext *ctx = b.getContext();
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  int64_t m = cast<RankedTensorType>(rows.getType()).getDimSize(0);
  int64_t kPadded = roundUp(k, kTileK), nPadded = roundUp(n, kTileN);
  int64_t k1 = kPadded / kTileK, n1 = nPadded / kTileN;

  rows = padColumns(b, loc, rows, kPadded);
  Value lhs = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({m, k1, 1, kTileK}, i8), rows,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  Value rhs = arith::ConstantOp::create(b, loc,
                                        packWeights(ctx, weights, k, n));
  // One row of zero-point terms broadcast to every row (the CPU kernel
  // takes that row instead of the broadcast, kMmt4dColumnInit).
  auto tiledType = RankedTensorType::get({m, n1, 1, kTileN}, i32);
  Value init = zeroPointInit(
      b, loc, tiledType, RankedTensorType::get({n1, kTileN}, i32),
      zeroPointRow(weights, k, n, zeroPoint, nPadded), zeroPoint, {0, 2});
  Value tiled = linalg::Mmt4DOp::create(b, loc, TypeRange{tiledType},
                                        ValueRange{lhs, rhs}, ValueRange{init})
                    .getResult(0);
  Value product = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({m, nPadded}, i32), tiled,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  if (nPadded == n)
    return product;
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({m, n}, i32), product,
      getAsIndexOpFoldResult(ctx, {0, 0}), getAsIndexOpFoldResult(ctx, {m, n}),
      getAsIndexOpFoldResult(ctx, {1, 1}));
}

/// The same product as a linalg.matmul with B transposed: rows [M, K4] by
/// the weights as a constant [n, K4] (K4 = k rounded up to 4, zero weights
/// past k), from the zero-point row broadcast to [M, n]. cuBLAS's int8
/// GEMM wants both leading dimensions (K4 here) multiples of 4, and its
/// tensor-core kernels this "TN" layout.
Value buildMatmulProduct(OpBuilder &b, Location loc, Value rows,
                         ArrayRef<int8_t> weights, int64_t k, int64_t n,
                         int32_t zeroPoint) {
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  int64_t m = cast<RankedTensorType>(rows.getType()).getDimSize(0);
  int64_t kPadded = roundUp(k, kTileK);
  rows = padColumns(b, loc, rows, kPadded);
  std::vector<int8_t> transposed(n * kPadded, 0);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t col = 0; col < n; ++col)
      transposed[col * kPadded + row] = weights[row * n + col];
  Value rhs = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({n, kPadded}, i8),
                             ArrayRef<int8_t>(transposed)));
  auto type = RankedTensorType::get({m, n}, i32);
  Value init = zeroPointInit(b, loc, type, RankedTensorType::get({n}, i32),
                             zeroPointRow(weights, k, n, zeroPoint, n),
                             zeroPoint, {0});
  return linalg::MatmulTransposeBOp::create(b, loc, TypeRange{type},
                                            ValueRange{rows, rhs},
                                            ValueRange{init})
      .getResult(0);
}

Value buildInt8Product(OpBuilder &b, Location loc, ProductForm form,
                       Value rows, ArrayRef<int8_t> weights, int64_t k,
                       int64_t n, int32_t zeroPoint) {
  return form == ProductForm::Mmt4d
             ? buildMmt4dProduct(b, loc, rows, weights, k, n, zeroPoint)
             : buildMatmulProduct(b, loc, rows, weights, k, n, zeroPoint);
}

Value lowerMatMul(OpBuilder &b, Int8MatMulOp op, ProductForm form) {
  auto weights = constantWeights(op.getB());
  if (failed(weights))
    return nullptr;
  auto bType = op.getB().getType();
  return buildInt8Product(b, op.getLoc(), form, op.getA(), *weights,
                          bType.getDimSize(0), bType.getDimSize(1),
                          op.getAZeroPoint());
}

/// a [m, k] (f32) times b [k, n] (i8) as a zero fill and a linalg.generic
/// summing a * float(b) over k, in either form: the CPU backend calls
/// tfaot_rt_matmul_f32s8 for it (tfaot/runtime/cpu_kernels.h), elsewhere it is
/// a loop nest.
Value lowerWeightMatMul(OpBuilder &b, Int8WeightMatMulOp op) {
  Location loc = op.getLoc();
  RankedTensorType type = op.getProduct().getType();
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value sums = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{op.getA(), op.getB()}, sums,
             matrixProductMaps(b.getContext()), matrixProductIterators(),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value weight =
                   arith::SIToFPOp::create(nb, l, nb.getF32Type(), args[1]);
               Value term = arith::MulFOp::create(nb, l, args[0], weight);
               linalg::YieldOp::create(
                   nb, l, arith::AddFOp::create(nb, l, args[2], term).getResult());
             })
      .getResult(0);
}

/// The convolution's input as im2col rows [N*OH*OW, KH*KW*C], column
/// (kh, kw, c) in the filter's HWC order. Padding is the zero point: a
/// padded copy of the input that the im2col reads (the CPU backend has the
/// producer write that copy's interior directly), or with `foldPadding`
/// (the GPU's form, where each pass over the activations is a kernel)
/// the im2col itself reading the input with bounds checks.
Value im2colRows(OpBuilder &b, Location loc, Value input,
                 RankedTensorType filterType, RankedTensorType resultType,
                 const Window2D &window, ArrayRef<int64_t> strides,
                 ArrayRef<int64_t> dilations, int32_t zeroPoint,
                 bool foldPadding) {
  MLIRContext *ctx = b.getContext();
  Type i8 = b.getI8Type();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(3);
  int64_t oh = resultType.getDimSize(1), ow = resultType.getDimSize(2);
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  int64_t rows = n * oh * ow;
  bool pointwise = kh == 1 && kw == 1 && strides[1] == 1 && strides[2] == 1 &&
                   !window.padTop && !window.padBottom && !window.padLeft &&
                   !window.padRight;
  if (pointwise)
    return tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({rows, c}, i8), input,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});

  Value padValue =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, zeroPoint));
  auto patchType = RankedTensorType::get({n, oh, ow, kh, kw, c}, i8);
  auto rowsOf = [&](Value patches) -> Value {
    return tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({rows, kh * kw * c}, i8), patches,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
  };
  bool padded = window.padTop || window.padBottom || window.padLeft ||
                window.padRight;
  if (foldPadding && padded) {
    Value empty = tensor::EmptyOp::create(b, loc, patchType.getShape(), i8);
    return rowsOf(buildPaddedPatches(
        b, loc, input, window.padTop, window.padLeft, padValue, empty,
        {strides[1], strides[2]}, {dilations[1], dilations[2]}));
  }
  input = padSpatial(b, loc, input, window, padValue);
  // Loops (n, oh, ow, kh, kw, c); the input is read at the window position.
  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(ctx, d0, d1, d2, d3, d4, d5);
  AffineMap read = AffineMap::get(
      6, 0,
      {d0, d1 * strides[1] + d3 * dilations[1],
       d2 * strides[2] + d4 * dilations[2], d5},
      ctx);
  return rowsOf(buildElementwise(
      b, loc, patchType, ValueRange{input}, {read},
      [](OpBuilder &, Location, ValueRange args) { return args[0]; }));
}

Value lowerConv(OpBuilder &b, Int8Conv2DOp op, ProductForm form) {
  auto weights = constantWeights(op.getFilter());
  if (failed(weights))
    return nullptr;
  Location loc = op.getLoc();
  auto filterType = op.getFilter().getType();
  auto type = op.getOutput().getType();
  SmallVector<int64_t> strides = getI64Values(op.getStrides());
  SmallVector<int64_t> dilations = getI64Values(op.getDilations());
  std::string why;
  auto window = computeWindow2D(
      op.getInput().getType().getShape(), op.getDataFormat(),
      filterType.getDimSize(0), filterType.getDimSize(1), strides, dilations,
      op.getPadding(), getI64Values(op.getExplicitPaddings()),
      filterType.getDimSize(3), why);
  if (failed(window))
    return nullptr;
  int32_t zeroPoint = op.getInputZeroPoint();
  Value rows = im2colRows(b, loc, op.getInput(), filterType, type, *window,
                          strides, dilations, zeroPoint,
                          /*foldPadding=*/form == ProductForm::Matmul);
  int64_t k = filterType.getDimSize(0) * filterType.getDimSize(1) *
              filterType.getDimSize(2);
  Value product = buildInt8Product(b, loc, form, rows, *weights, k,
                                   filterType.getDimSize(3), zeroPoint);
  return tensor::ExpandShapeOp::create(
      b, loc, type, product, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
}

/// A depthwise convolution stays one: linalg.depthwise_conv_2d_nhwc_hwc on
/// the input padded with the zero point and the [KH, KW, C] filter, from
/// -zp * (the filter's sum over the window) per channel. (The CPU backend
/// replaces it with the runtime's depthwise kernel together with its
/// epilogue.)
Value lowerDepthwise(OpBuilder &b, Int8DepthwiseConv2DOp op) {
  auto weights = constantWeights(op.getFilter());
  if (failed(weights))
    return nullptr;
  Location loc = op.getLoc();
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  auto filterType = op.getFilter().getType();
  auto type = op.getOutput().getType();
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  int64_t channels = filterType.getDimSize(2);
  SmallVector<int64_t> strides = getI64Values(op.getStrides());
  SmallVector<int64_t> dilations = getI64Values(op.getDilations());
  std::string why;
  auto window = computeWindow2D(
      op.getInput().getType().getShape(), op.getDataFormat(), kh, kw, strides,
      dilations, op.getPadding(), getI64Values(op.getExplicitPaddings()),
      channels, why);
  if (failed(window))
    return nullptr;
  int32_t zeroPoint = op.getInputZeroPoint();
  Value padded = padSpatial(
      b, loc, op.getInput(), *window,
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, zeroPoint)));
  // HWCM with M = 1 is [KH, KW, C] as it is.
  Value filter = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({kh, kw, channels}, i8),
                             ArrayRef<int8_t>(*weights)));
  // Per channel, -zp * (the filter's sum over the window): the weights as
  // a [KH*KW, C] matrix summed over its rows.
  Value init = zeroPointInit(
      b, loc, type, RankedTensorType::get({channels}, i32),
      zeroPointRow(*weights, kh * kw, channels, zeroPoint, channels),
      zeroPoint, {0, 1, 2});
  return linalg::DepthwiseConv2DNhwcHwcOp::create(
             b, loc, TypeRange{type}, ValueRange{padded, filter},
             ValueRange{init}, spatialAttr(b, strides, *window),
             spatialAttr(b, dilations, *window))
      .getResult(0);
}

struct LowerInt8ContractionsPass
    : mlir::tfaot::impl::LowerInt8ContractionsPassBase<
          LowerInt8ContractionsPass> {
  using LowerInt8ContractionsPassBase::LowerInt8ContractionsPassBase;

  void runOnOperation() override {
    ProductForm form;
    if (product == "mmt4d") {
      form = ProductForm::Mmt4d;
    } else if (product == "matmul") {
      form = ProductForm::Matmul;
    } else {
      getOperation().emitError("tfaot-lower-int8-contractions: product must "
                               "be mmt4d or matmul, not '")
          << product << "'";
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<Int8Conv2DOp, Int8DepthwiseConv2DOp, Int8MatMulOp,
              Int8WeightMatMulOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Value replacement;
      if (auto conv = dyn_cast<Int8Conv2DOp>(op))
        replacement = lowerConv(b, conv, form);
      else if (auto depthwise = dyn_cast<Int8DepthwiseConv2DOp>(op))
        replacement = lowerDepthwise(b, depthwise);
      else if (auto weightsOnly = dyn_cast<Int8WeightMatMulOp>(op))
        replacement = lowerWeightMatMul(b, weightsOnly);
      else
        replacement = lowerMatMul(b, cast<Int8MatMulOp>(op), form);
      if (!replacement) {
        op->emitOpError("needs constant int8 weights and a valid window");
        return signalPassFailure();
      }
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }
};

} // namespace
