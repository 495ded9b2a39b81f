//===- WinogradConvolutions.cpp - 3x3 convolutions as Winograd ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-winograd-convolutions (see the pass description in Passes.td).
// Each 4x4 (or 2x2) block of output pixels of a 3x3 stride-1 convolution is
//   Y = A^T [ (G g G^T) (.) (B^T d B) ] A
// over the 6x6 (or 4x4) input patch d under it (Lavin and Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2016): the 36 (16)
// elementwise products of one patch, summed over input channels, are 36
// (16) independent matrix products [tiles x C_in] x [C_in x C_out], one
// linalg.batch_matmul, which the matmul kernels of
// tfaot-vectorize-contractions run. The filter is constant, so G g G^T is
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

/// The transformed filters U[a*P+b] = (G g G^T)[a][b] (P = the patch side)
/// as one constant [P*P, C_in, C_out] (the batch of the product), from the
/// HWCF filter `filter` (3 x 3 x C_in x C_out).
DenseElementsAttr transformFilter(DenseElementsAttr filter, int64_t cin,
                                  int64_t cout, const Variant &v) {
  SmallVector<float> g(filter.getValues<float>());
  int64_t plane = cin * cout;
  std::vector<float> u(v.products() * plane);
  for (int64_t e = 0; e < plane; ++e) {
    double gg[3][3], t[kMaxPatch][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        gg[i][j] = g[(i * 3 + j) * plane + e];
    for (int a = 0; a < v.patch; ++a)
      for (int j = 0; j < 3; ++j)
        t[a][j] =
            v.g[a][0] * gg[0][j] + v.g[a][1] * gg[1][j] + v.g[a][2] * gg[2][j];
    for (int a = 0; a < v.patch; ++a)
      for (int b = 0; b < v.patch; ++b)
        u[(a * v.patch + b) * plane + e] = float(
            t[a][0] * v.g[b][0] + t[a][1] * v.g[b][1] + t[a][2] * v.g[b][2]);
  }
  auto type = RankedTensorType::get({v.products(), cin, cout},
                                    Float32Type::get(filter.getContext()));
  return DenseElementsAttr::get(type, ArrayRef<float>(u));
}

/// The transformed input patches V[a*P+b] = (B^T d B)[a][b] (P = the patch
/// side, 6 for F(4x4), 4 for F(2x2)) as one tensor [P*P, N, tilesH, tilesW,
/// C_in] (one buffer, which the batched product reads), from the padded
/// input (rows and columns block * tiles + 2 at least). The generic states
/// the transform plainly, over (k, n, tile row, tile column, channel): V[k]
/// = sum_m coeff[k][m] d[m] over the P*P patch positions m = i*P+j,
/// coeff[a*P+b][i*P+j] = BT[a][i] BT[b][j] from a constant table.
/// tfaot-vectorize-winograd-transforms computes it in factored form instead
/// (B^T d, then (B^T d) B: about 8 operations per value rather than 36
/// multiply-adds for F(4x4)), all values of a patch at once.
Value transformInput(OpBuilder &b, Location loc, Value input, int64_t n,
                     int64_t tilesH, int64_t tilesW, int64_t cin,
                     const Variant &v) {
  const int patchSide = v.patch, blockSide = v.block,
            numProducts = v.products();
  MLIRContext *ctx = b.getContext();
  SmallVector<float> table;
  for (int a = 0; a < patchSide; ++a)
    for (int c = 0; c < patchSide; ++c)
      for (int i = 0; i < patchSide; ++i)
        for (int j = 0; j < patchSide; ++j)
          table.push_back(float(v.bt[a][i] * v.bt[c][j]));
  auto tableType =
      RankedTensorType::get({numProducts, numProducts}, b.getF32Type());
  Value coeffs = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tableType, ArrayRef<float>(table)));
  AffineExpr k, d0, d1, d2, d3;
  bindDims(ctx, k, d0, d1, d2, d3);
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (int i = 0; i < patchSide; ++i)
    for (int j = 0; j < patchSide; ++j) {
      inputs.push_back(input);
      maps.push_back(AffineMap::get(
          5, 0, {d0, d1 * blockSide + i, d2 * blockSide + j, d3}, ctx));
    }
  for (int m = 0; m < numProducts; ++m) {
    inputs.push_back(coeffs);
    maps.push_back(
        AffineMap::get(5, 0, {k, getAffineConstantExpr(m, ctx)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(5, ctx));
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{numProducts, n, tilesH, tilesW, cin},
      b.getF32Type());
  SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum;
        for (int m = 0; m < numProducts; ++m) {
          Value term =
              arith::MulFOp::create(nb, nloc, args[numProducts + m], args[m]);
          sum = sum ? arith::AddFOp::create(nb, nloc, sum, term).getResult()
                    : term;
        }
        linalg::YieldOp::create(nb, nloc, sum);
      });
  generic->setAttr(kWinogradTransformAttr, b.getStringAttr("input"));
  return generic.getResult(0);
}

/// The output transform over the convolution's own output shape [N, H, W,
/// C_out]: pixel (h, w) of the m x m block (h/m, w/m) is sum_k
/// coeff[h%m][w%m][k] * M[k][n][h/m][w/m][c] (the batched product), with
/// coeff[p][q][a*P+b] = AT[p][a] AT[q][b] read from a constant table (so the
/// generic has only parallel loops and the epilogue can be fused into it).
Value transformOutput(OpBuilder &b, Location loc, Value products,
                      RankedTensorType outputType, const Variant &v) {
  const int patchSide = v.patch, blockSide = v.block,
            numProducts = v.products();
  MLIRContext *ctx = b.getContext();
  SmallVector<float> table;
  for (int p = 0; p < blockSide; ++p)
    for (int q = 0; q < blockSide; ++q)
      for (int a = 0; a < patchSide; ++a)
        for (int c = 0; c < patchSide; ++c)
          table.push_back(float(v.at[p][a] * v.at[q][c]));
  auto tableType = RankedTensorType::get({blockSide, blockSide, numProducts},
                                         b.getF32Type());
  Value coeffs = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tableType, ArrayRef<float>(table)));
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (int k = 0; k < numProducts; ++k) {
    inputs.push_back(products);
    maps.push_back(
        AffineMap::get(4, 0,
                       {getAffineConstantExpr(k, ctx), d0,
                        d1.floorDiv(blockSide), d2.floorDiv(blockSide), d3},
                       ctx));
  }
  for (int k = 0; k < numProducts; ++k) {
    inputs.push_back(coeffs);
    maps.push_back(AffineMap::get(
        4, 0, {d1 % blockSide, d2 % blockSide, getAffineConstantExpr(k, ctx)},
        ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value init = tensor::EmptyOp::create(b, loc, outputType.getShape(),
                                       outputType.getElementType());
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outputType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum;
        for (int k = 0; k < numProducts; ++k) {
          Value term =
              arith::MulFOp::create(nb, nloc, args[numProducts + k], args[k]);
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

  /// A convolution this pass rewrites: its constant filter and the
  /// algorithm that computes it.
  struct Candidate {
    linalg::Conv2DNhwcHwcfOp conv;
    DenseElementsAttr filter;
    const Variant *variant;
  };

  /// The output blocks of side `block` over the batch of `outputType`.
  static int64_t blocksOf(RankedTensorType outputType, int64_t block) {
    return outputType.getDimSize(0) *
           llvm::divideCeil(outputType.getDimSize(1), block) *
           llvm::divideCeil(outputType.getDimSize(2), block);
  }

  /// `conv` as a candidate, or nothing when this pass leaves it direct.
  std::optional<Candidate> candidate(linalg::Conv2DNhwcHwcfOp conv) {
    if (!conv.hasPureTensorSemantics() || !allOnes(conv.getStrides()) ||
        !allOnes(conv.getDilations()) || !isZeroFilled(conv.getOutputs()[0]))
      return std::nullopt;
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
      return std::nullopt;
    DenseElementsAttr filter = denseConstant(conv.getInputs()[1]);
    if (!filter || !filter.getElementType().isF32())
      return std::nullopt;
    if (algorithm == "winograd")
      return Candidate{conv, filter, &kF4x4};
    // The `auto` rule (measurements in docs/performance.md): each
    // transformed filter is read once for all blocks of the layer, F(4x4)'s
    // at 4x the size of the direct filter, F(2x2)'s at 16/9. With fewer
    // than min-tiles blocks of 4x4 (ResNet-50's 7x7 layers at batch 1)
    // F(4x4)'s filters cost more to read than its products save; F(2x2)
    // then has 4x the blocks to read its smaller filters for.
    if (blocksOf(outputType, kF4x4.block) >= minTiles)
      return Candidate{conv, filter, &kF4x4};
    if (blocksOf(outputType, kF2x2.block) >= minTiles)
      return Candidate{conv, filter, &kF2x2};
    return std::nullopt;
  }

  void rewrite(const Candidate &candidate) {
    linalg::Conv2DNhwcHwcfOp conv = candidate.conv;
    const Variant &v = *candidate.variant;
    const int blockSide = v.block;
    IRRewriter rewriter(conv);
    Location loc = conv.getLoc();
    Value input = conv.getInputs()[0];
    auto inputType = cast<RankedTensorType>(input.getType());
    auto outputType = cast<RankedTensorType>(conv.getResult(0).getType());
    int64_t n = outputType.getDimSize(0), cin = inputType.getDimSize(3),
            cout = outputType.getDimSize(3);
    int64_t tilesH = llvm::divideCeil(outputType.getDimSize(1), blockSide);
    int64_t tilesW = llvm::divideCeil(outputType.getDimSize(2), blockSide);
    // The last block of a row or column may hang over the output: pad the
    // input with zeros so its patch exists (its extra outputs are never
    // computed, the output transform runs over the real output only).
    int64_t rows = tilesH * blockSide + 2, cols = tilesW * blockSide + 2;
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
    Value patches =
        transformInput(rewriter, loc, input, n, tilesH, tilesW, cin, v);
    DenseElementsAttr filters = transformFilter(candidate.filter, cin, cout, v);
    // The 36 (or 16) products [tiles x C_in] x [C_in x C_out] as one
    // batched product: one kernel per layer (36 separate matmuls made 36
    // copies of it, which took most of the compile time) whose batch the
    // thread pool splits.
    int64_t tiles = n * tilesH * tilesW;
    auto productType = RankedTensorType::get({v.products(), tiles, cout},
                                             rewriter.getF32Type());
    auto blockType = RankedTensorType::get(
        {v.products(), n, tilesH, tilesW, cout}, rewriter.getF32Type());
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
    Value result = transformOutput(rewriter, loc, products, outputType, v);
    rewriter.replaceOp(conv, result);
    ++numConvolutionsRewritten;
    if (&v == &kF2x2)
      ++numSmallBlockConvolutions;
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
    SmallVector<Candidate> candidates;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      if (std::optional<Candidate> c = candidate(conv))
        candidates.push_back(*c);
    });
    for (const Candidate &c : candidates)
      rewrite(c);
  }
};

} // namespace
