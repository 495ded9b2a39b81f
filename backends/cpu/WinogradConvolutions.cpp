//===- WinogradConvolutions.cpp - 3x3 convolutions as Winograd F(4x4,3x3) -===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-winograd-convolutions (see the pass description in Passes.td).
// Each 4x4 block of output pixels of a 3x3 stride-1 convolution is
//   Y = A^T [ (G g G^T) (.) (B^T d B) ] A
// over the 6x6 input patch d under it (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016): the 36 elementwise products of one
// patch, summed over input channels, are 36 independent matrix products
// [tiles x C_in] x [C_in x C_out], which the matmul kernels of
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

/// The 36 transformed filters U[a*6+b] = (G g G^T)[a][b], each C_in x C_out,
/// from the HWCF filter `filter` (3 x 3 x C_in x C_out).
SmallVector<DenseElementsAttr> transformFilter(DenseElementsAttr filter,
                                               int64_t cin, int64_t cout) {
  SmallVector<float> g(filter.getValues<float>());
  int64_t plane = cin * cout;
  std::vector<std::vector<float>> u(kProducts, std::vector<float>(plane));
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
        u[a * kPatch + b][e] =
            float(t[a][0] * kG[b][0] + t[a][1] * kG[b][1] + t[a][2] * kG[b][2]);
  }
  auto type = RankedTensorType::get({cin, cout},
                                    Float32Type::get(filter.getContext()));
  SmallVector<DenseElementsAttr> result;
  for (const std::vector<float> &plane : u)
    result.push_back(DenseElementsAttr::get(type, ArrayRef<float>(plane)));
  return result;
}

/// The 36 transformed input patches V[a*6+b] = (B^T d B)[a][b], each
/// [N, tilesH, tilesW, C_in], from the padded input (rows and columns
/// 4 * tiles + 2 at least), in one linalg.generic over (n, tile row, tile
/// column, channel) with the 36 patch positions as 36 inputs.
SmallVector<Value> transformInput(OpBuilder &b, Location loc, Value input,
                                  int64_t n, int64_t tilesH, int64_t tilesW,
                                  int64_t cin) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  SmallVector<AffineMap> maps;
  for (int i = 0; i < kPatch; ++i)
    for (int j = 0; j < kPatch; ++j)
      maps.push_back(AffineMap::get(
          4, 0, {d0, d1 * kBlock + i, d2 * kBlock + j, d3}, ctx));
  auto vType = RankedTensorType::get({n, tilesH, tilesW, cin}, b.getF32Type());
  SmallVector<Value> inits;
  for (int k = 0; k < kProducts; ++k) {
    inits.push_back(tensor::EmptyOp::create(b, loc, vType.getShape(),
                                            vType.getElementType()));
    maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  }
  SmallVector<Value> inputs(kProducts, input);
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, SmallVector<Type>(kProducts, vType), inputs, inits, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // Columns first: t[a][j] = sum_i BT[a][i] d[i][j], then
        // v[a][b] = sum_j t[a][j] BT[b][j].
        Value t[kPatch][kPatch];
        for (int a = 0; a < kPatch; ++a)
          for (int j = 0; j < kPatch; ++j) {
            SmallVector<Value> column;
            for (int i = 0; i < kPatch; ++i)
              column.push_back(args[i * kPatch + j]);
            t[a][j] = linearCombination(nb, nloc, kBT[a], column);
          }
        SmallVector<Value> results;
        for (int a = 0; a < kPatch; ++a)
          for (int c = 0; c < kPatch; ++c)
            results.push_back(linearCombination(nb, nloc, kBT[c], t[a]));
        linalg::YieldOp::create(nb, nloc, results);
      });
  generic->setAttr(kWinogradTransformAttr, b.getStringAttr("input"));
  return SmallVector<Value>(generic.getResults());
}

/// The output transform over the convolution's own output shape [N, H, W,
/// C_out]: pixel (h, w) of the 4x4 block (h/4, w/4) is sum_k coeff[h%4][w%4][k]
/// * M_k[n][h/4][w/4][c], with coeff[p][q][a*6+b] = AT[p][a] AT[q][b] read
/// from a constant table (so the generic has only parallel loops and the
/// epilogue can be fused into it).
Value transformOutput(OpBuilder &b, Location loc, ArrayRef<Value> products,
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
  for (Value m : products) {
    inputs.push_back(m);
    maps.push_back(AffineMap::get(
        4, 0, {d0, d1.floorDiv(kBlock), d2.floorDiv(kBlock), d3}, ctx));
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
    SmallVector<Value> patches =
        transformInput(rewriter, loc, input, n, tilesH, tilesW, cin);
    SmallVector<DenseElementsAttr> filters =
        transformFilter(filter, cin, cout);
    int64_t tiles = n * tilesH * tilesW;
    auto productType = RankedTensorType::get({tiles, cout}, rewriter.getF32Type());
    auto blockType =
        RankedTensorType::get({n, tilesH, tilesW, cout}, rewriter.getF32Type());
    SmallVector<ReassociationIndices> tileDims = {{0, 1, 2}, {3}};
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
    SmallVector<Value> products;
    for (int k = 0; k < kProducts; ++k) {
      Value lhs =
          tensor::CollapseShapeOp::create(rewriter, loc, patches[k], tileDims);
      Value rhs = arith::ConstantOp::create(rewriter, loc, filters[k]);
      Value empty = tensor::EmptyOp::create(rewriter, loc,
                                            productType.getShape(),
                                            productType.getElementType());
      Value init =
          linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
      Value product = linalg::MatmulOp::create(rewriter, loc, TypeRange{productType},
                                               ValueRange{lhs, rhs},
                                               ValueRange{init})
                          .getResult(0);
      products.push_back(tensor::ExpandShapeOp::create(
          rewriter, loc, blockType, product, tileDims));
    }
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
