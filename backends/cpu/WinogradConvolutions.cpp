//===- WinogradConvolutions.cpp - 3x3 convolutions as Winograd F(4x4,3x3) -===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-winograd-convolutions (see the pass description in Passes.td).
// Each 4x4 block of output pixels of a 3x3 stride-1 convolution is
//   Y = A^T [ (G g G^T) (.) (B^T d B) ] A
// over the 6x6 input patch d under it (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016): the 36 elementwise products of one
// patch, summed over input channels, are 36 independent matrix products
// [tiles x C_in] x [C_in x C_out], one linalg.batch_matmul, which the
// matmul kernels of tfaot-vectorize-contractions run. The filter is constant, so G g G^T is
// computed here once, in double precision.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"
#include "backends/cpu/WinogradMatrices.h"
#include "passes/ConstantUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_WINOGRADCONVOLUTIONSPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::winograd;

namespace {


bool allOnes(DenseIntElementsAttr attr) {
  return llvm::all_of(attr.getValues<int64_t>(),
                      [](int64_t v) { return v == 1; });
}

/// `value` is a linalg.fill of 0.0: the convolution adds nothing to its
/// products, so its init can be dropped.
bool isZeroFilled(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

/// The 36 transformed filters U[a*6+b] = (G g G^T)[a][b] as one constant
/// [36, C_in, C_out] (the batch of the product), from the HWCF filter
/// `filter` (3 x 3 x C_in x C_out).
DenseElementsAttr transformFilter(DenseElementsAttr filter, int64_t cin,
                                  int64_t cout) {
  SmallVector<float> g(filter.getValues<float>());
  int64_t plane = cin * cout;
  std::vector<float> u(kProducts * plane);
  for (int64_t e = 0; e < plane; ++e) {
    double gg[3][3], t[kPatch][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        gg[i][j] = g[(i * 3 + j) * plane + e];
    for (int a = 0; a < kPatch; ++a)
      for (int j = 0; j < 3; ++j)
        t[a][j] = kG[a][0] * gg[0][j] + kG[a][1] * gg[1][j] +
                  kG[a][2] * gg[2][j];
    for (int a = 0; a < kPatch; ++a)
      for (int b = 0; b < kPatch; ++b)
        u[(a * kPatch + b) * plane + e] =
            float(t[a][0] * kG[b][0] + t[a][1] * kG[b][1] + t[a][2] * kG[b][2]);
  }
  auto type = RankedTensorType::get({kProducts, cin, cout},
                                    Float32Type::get(filter.getContext()));
  return DenseElementsAttr::get(type, ArrayRef<float>(u));
}

/// The transformed input patches V[a*6+b] = (B^T d B)[a][b] as one tensor
/// [36, N, tilesH, tilesW, C_in] (one buffer, which the batched product
/// reads), from the padded input (rows and columns 4 * tiles + 2 at
/// least). The generic states the transform plainly, over (k, n, tile
/// row, tile column, channel): V[k] = sum_m coeff[k][m] d[m] over the 36
/// patch positions m = i*6+j, coeff[a*6+b][i*6+j] = BT[a][i] BT[b][j] from
/// a constant table. tfaot-vectorize-winograd-transforms computes it in
/// factored form instead (B^T d, then (B^T d) B: about 8 operations per
/// value rather than 36 multiply-adds), all 36 values of a patch at once.
Value transformInput(OpBuilder &b, Location loc, Value input, int64_t n,
                     int64_t tilesH, int64_t tilesW, int64_t cin) {
  MLIRContext *ctx = b.getContext();
  SmallVector<float> table;
  for (int a = 0; a < kPatch; ++a)
    for (int c = 0; c < kPatch; ++c)
      for (int i = 0; i < kPatch; ++i)
        for (int j = 0; j < kPatch; ++j)
          table.push_back(float(kBT[a][i] * kBT[c][j]));
  auto tableType = RankedTensorType::get({kProducts, kProducts}, b.getF32Type());
  Value coeffs = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tableType, ArrayRef<float>(table)));
  AffineExpr k, d0, d1, d2, d3;
  bindDims(ctx, k, d0, d1, d2, d3);
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (int i = 0; i < kPatch; ++i)
    for (int j = 0; j < kPatch; ++j) {
      inputs.push_back(input);
      maps.push_back(AffineMap::get(
          5, 0, {d0, d1 * kBlock + i, d2 * kBlock + j, d3}, ctx));
    }
  for (int m = 0; m < kProducts; ++m) {
    inputs.push_back(coeffs);
    maps.push_back(
        AffineMap::get(5, 0, {k, getAffineConstantExpr(m, ctx)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(5, ctx));
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{kProducts, n, tilesH, tilesW, cin},
      b.getF32Type());
  SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum;
        for (int m = 0; m < kProducts; ++m) {
          Value term = arith::MulFOp::create(nb, nloc, args[kProducts + m],
                                             args[m]);
          sum = sum ? arith::AddFOp::create(nb, nloc, sum, term).getResult()
                    : term;
        }
        linalg::YieldOp::create(nb, nloc, sum);
      });
  generic->setAttr(kWinogradTransformAttr, b.getStringAttr("input"));
  return generic.getResult(0);
}

/// The output transform over the convolution's own output shape [N, H, W,
/// C_out]: pixel (h, w) of the 4x4 block (h/4, w/4) is sum_k coeff[h%4][w%4][k]
/// * M[k][n][h/4][w/4][c] (the batched product), with coeff[p][q][a*6+b] = AT[p][a] AT[q][b] read
/// from a constant table (so the generic has only parallel loops and the
/// epilogue can be fused into it).
Value transformOutput(OpBuilder &b, Location loc, Value products,
                      RankedTensorType outputType) {
  MLIRContext *ctx = b.getContext();
  SmallVector<float> table;
  for (int p = 0; p < kBlock; ++p)
    for (int q = 0; q < kBlock; ++q)
      for (int a = 0; a < kPatch; ++a)
        for (int c = 0; c < kPatch; ++c)
          table.push_back(float(kAT[p][a] * kAT[q][c]));
  auto tableType =
      RankedTensorType::get({kBlock, kBlock, kProducts}, b.getF32Type());
  Value coeffs = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tableType, ArrayRef<float>(table)));
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (int k = 0; k < kProducts; ++k) {
    inputs.push_back(products);
    maps.push_back(AffineMap::get(4, 0,
                                  {getAffineConstantExpr(k, ctx), d0,
                                   d1.floorDiv(kBlock), d2.floorDiv(kBlock),
                                   d3},
                                  ctx));
  }
  for (int k = 0; k < kProducts; ++k) {
    inputs.push_back(coeffs);
    maps.push_back(AffineMap::get(
        4, 0,
        {d1 % kBlock, d2 % kBlock, getAffineConstantExpr(k, ctx)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value init = tensor::EmptyOp::create(b, loc, outputType.getShape(),
                                       outputType.getElementType());
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outputType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum;
        for (int k = 0; k < kProducts; ++k) {
          Value term = arith::MulFOp::create(nb, nloc, args[kProducts + k],
                                             args[k]);
          sum = sum ? arith::AddFOp::create(nb, nloc, sum, term).getResult()
                    : term;
        }
        // Where tfaot-vectorize-winograd-transforms finds the transform's
        // value once the epilogue is fused after it.
        sum.getDefiningOp()->setAttr(kSumAttr, nb.getUnitAttr());
        linalg::YieldOp::create(nb, nloc, sum);
      });
  generic->setAttr(kWinogradTransformAttr, b.getStringAttr("output"));
  return generic.getResult(0);
}

struct WinogradConvolutionsPass
    : public tfaot::impl::WinogradConvolutionsPassBase<
          WinogradConvolutionsPass> {
  using WinogradConvolutionsPassBase::WinogradConvolutionsPassBase;

  /// The filter of a convolution this pass rewrites, or null.
  DenseElementsAttr candidateFilter(linalg::Conv2DNhwcHwcfOp conv) {
    if (!conv.hasPureTensorSemantics() || !allOnes(conv.getStrides()) ||
        !allOnes(conv.getDilations()) || !isZeroFilled(conv.getOutputs()[0]))
      return {};
    auto inputType = dyn_cast<RankedTensorType>(conv.getInputs()[0].getType());
    auto filterType =
        dyn_cast<RankedTensorType>(conv.getInputs()[1].getType());
    auto outputType = cast<RankedTensorType>(conv.getResult(0).getType());
    if (!inputType || !filterType || !inputType.hasStaticShape() ||
        !filterType.hasStaticShape() || !outputType.hasStaticShape() ||
        !inputType.getElementType().isF32() ||
        !outputType.getElementType().isF32() ||
        filterType.getDimSize(0) != 3 || filterType.getDimSize(1) != 3 ||
        filterType.getDimSize(2) != inputType.getDimSize(3) ||
        // Channels in whole vectors of at least 4 lanes, which the
        // transforms' vector loops need (an RGB input layer is mostly
        // transforms anyway).
        filterType.getDimSize(2) % 4 != 0 || filterType.getDimSize(3) % 4 != 0)
      return {};
    DenseElementsAttr filter = denseConstant(conv.getInputs()[1]);
    if (!filter || !filter.getElementType().isF32())
      return {};
    int64_t tiles = outputType.getDimSize(0) *
                    llvm::divideCeil(outputType.getDimSize(1), kBlock) *
                    llvm::divideCeil(outputType.getDimSize(2), kBlock);
    // The `auto` rule (measurements in docs/performance.md): with fewer
    // blocks each transformed filter, 4x the direct one, is read for too
    // few rows to pay for its size (ResNet-50's 7x7 layers at batch 1).
    if (algorithm == "auto" && tiles < minTiles)
      return {};
    return filter;
  }

  void rewrite(linalg::Conv2DNhwcHwcfOp conv, DenseElementsAttr filter) {
    IRRewriter rewriter(conv);
    Location loc = conv.getLoc();
    Value input = conv.getInputs()[0];
    auto inputType = cast<RankedTensorType>(input.getType());
    auto outputType = cast<RankedTensorType>(conv.getResult(0).getType());
    int64_t n = outputType.getDimSize(0), cin = inputType.getDimSize(3),
            cout = outputType.getDimSize(3);
    int64_t tilesH = llvm::divideCeil(outputType.getDimSize(1), kBlock);
    int64_t tilesW = llvm::divideCeil(outputType.getDimSize(2), kBlock);
    // The last block of a row or column may hang over the output: pad the
    // input with zeros so its patch exists (its extra outputs are never
    // computed, the output transform runs over the real output only).
    int64_t rows = tilesH * kBlock + 2, cols = tilesW * kBlock + 2;
    if (rows > inputType.getDimSize(1) || cols > inputType.getDimSize(2)) {
      Value zero = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getF32FloatAttr(0));
      auto paddedType = RankedTensorType::get(
          {n, std::max(rows, inputType.getDimSize(1)),
           std::max(cols, inputType.getDimSize(2)), cin},
          inputType.getElementType());
      input = tensor::createPadHighOp(paddedType, input, zero,
                                      /*nofold=*/false, loc, rewriter);
    }
    Value patches = transformInput(rewriter, loc, input, n, tilesH, tilesW, cin);
    DenseElementsAttr filters = transformFilter(filter, cin, cout);
    // The 36 products [tiles x C_in] x [C_in x C_out] as one batched
    // product: one kernel per layer (36 separate matmuls made 36 copies of
    // it, which took most of the compile time) whose batch the thread pool
    // splits.
    int64_t tiles = n * tilesH * tilesW;
    auto productType =
        RankedTensorType::get({kProducts, tiles, cout}, rewriter.getF32Type());
    auto blockType = RankedTensorType::get({kProducts, n, tilesH, tilesW, cout},
                                           rewriter.getF32Type());
    SmallVector<ReassociationIndices> tileDims = {{0}, {1, 2, 3}, {4}};
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
    Value lhs = tensor::CollapseShapeOp::create(rewriter, loc, patches, tileDims);
    Value rhs = arith::ConstantOp::create(rewriter, loc, filters);
    Value empty = tensor::EmptyOp::create(rewriter, loc, productType.getShape(),
                                          productType.getElementType());
    Value init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    Value product =
        linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{productType},
                                      ValueRange{lhs, rhs}, ValueRange{init})
            .getResult(0);
    Value products = tensor::ExpandShapeOp::create(rewriter, loc, blockType,
                                                   product, tileDims);
    Value result = transformOutput(rewriter, loc, products, outputType);
    rewriter.replaceOp(conv, result);
    ++numConvolutionsRewritten;
    fuseEpilogue(rewriter, result);
  }

  /// Folds the one elementwise consumer of the output transform (the
  /// convolution's bias, activation, residual add) into it, so the result
  /// is written once.
  void fuseEpilogue(RewriterBase &rewriter, Value result) {
    if (!result.hasOneUse())
      return;
    OpOperand &use = *result.getUses().begin();
    auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!consumer || !linalg::areElementwiseOpsFusable(&use))
      return;
    rewriter.setInsertionPoint(consumer);
    FailureOr<linalg::ElementwiseOpFusionResult> fused =
        linalg::fuseElementwiseOps(rewriter, &use);
    if (failed(fused))
      return;
    fused->fusedOp->setAttr(kWinogradTransformAttr,
                            rewriter.getStringAttr("output"));
    for (OpResult r : consumer->getResults())
      if (Value replacement = fused->replacements.lookup(r))
        rewriter.replaceAllUsesWith(r, replacement);
    for (Operation *op : {consumer.getOperation(), result.getDefiningOp()})
      if (op->use_empty())
        rewriter.eraseOp(op);
  }

  void runOnOperation() override {
    if (algorithm != "winograd" && algorithm != "auto") {
      getOperation().emitError("tfaot-winograd-convolutions: algorithm must "
                               "be winograd or auto, not '")
          << algorithm << "'";
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::Conv2DNhwcHwcfOp, DenseElementsAttr>> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      if (DenseElementsAttr filter = candidateFilter(conv))
        convs.push_back({conv, filter});
    });
    for (auto [conv, filter] : convs)
      rewrite(conv, filter);
  }
};

} // namespace
