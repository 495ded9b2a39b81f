//===- FoldBatchNorm.cpp - Per-channel affine ops into contraction weights ===//
// SPDX-License-Identifier: Apache-2.0
//
// Inference batch norm is a per-channel affine map y = x * s + t. After a
// convolution or matrix product with constant weights it costs a full pass
// over the activations for nothing: scaling the weights of output channel c
// by s[c] and adding t[c] to the bias gives the same result. This pass folds
// FusedBatchNorm and its decomposed forms (Mul by a per-channel constant,
// Add/AddV2/Sub/BiasAdd of one) into the producing Conv2D,
// DepthwiseConv2dNative or MatMul, leaving contraction -> BiasAdd, the form
// the lowering fuses into one loop nest.
//
//===----------------------------------------------------------------------===//
#include "passes/ConstantUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "ir/Ops.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::tfaot {
#define GEN_PASS_DEF_FOLDBATCHNORMPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// y[c] = x[c] * scale[c] + shift[c] along the channel dimension; an empty
/// `scale` means 1.
struct ChannelAffine {
  SmallVector<float> scale;
  SmallVector<float> shift;
};

/// The f32 constant defining `value`, if a tfaot.Const of f32 does.
static DenseFPElementsAttr f32Constant(Value value) {
  auto constant = value.getDefiningOp<ConstOp>();
  if (!constant)
    return {};
  auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
  if (!dense || !dense.getElementType().isF32())
    return {};
  return dense;
}

/// The f32 values of `value` if a tfaot.Const defines it (a copy: checks
/// that only need to know use f32Constant).
static std::optional<SmallVector<float>> constantFloats(Value value) {
  DenseFPElementsAttr dense = f32Constant(value);
  if (!dense)
    return std::nullopt;
  SmallVector<float> values;
  values.reserve(dense.getNumElements());
  for (float v : dense.getValues<float>())
    values.push_back(v);
  return values;
}

/// Reads the affine map applied by `op` to operand `x` (the one coming from
/// the contraction), or nothing if `op` is not a per-channel affine op with
/// constant parameters.
static std::optional<ChannelAffine> affineOf(Operation *op, Value x,
                                             int64_t channelDim) {
  auto xType = cast<RankedTensorType>(x.getType());
  if (op->getNumResults() != 1 || op->getResult(0).getType() != xType)
    return std::nullopt;
  ChannelAffine affine;
  if (auto bn = dyn_cast<FusedBatchNormOp>(op)) {
    if (bn.getX() != x || bn.getChannelDim() != channelDim)
      return std::nullopt;
    auto scale = constantFloats(bn.getScale());
    auto offset = constantFloats(bn.getOffset());
    auto mean = constantFloats(bn.getMean());
    auto variance = constantFloats(bn.getVariance());
    if (!scale || !offset || !mean || !variance)
      return std::nullopt;
    float epsilon = bn.getEpsilon().convertToFloat();
    for (size_t c = 0; c < scale->size(); ++c) {
      // TF: y = (x - mean) * (scale * rsqrt(var + eps)) + offset.
      float s = (*scale)[c] * (1.0f / std::sqrt((*variance)[c] + epsilon));
      affine.scale.push_back(s);
      affine.shift.push_back((*offset)[c] - (*mean)[c] * s);
    }
    return affine;
  }
  if (auto bias = dyn_cast<BiasAddOp>(op)) {
    if (bias.getValue() != x || bias.getChannelDim() != channelDim)
      return std::nullopt;
    auto values = constantFloats(bias.getBias());
    if (!values)
      return std::nullopt;
    affine.shift = std::move(*values);
    return affine;
  }
  if (!isa<MulOp, AddOp, AddV2Op, SubOp>(op))
    return std::nullopt;
  // x must be the first operand of Sub; Mul and Add commute.
  Value other = op->getOperand(1);
  if (op->getOperand(0) != x) {
    if (isa<SubOp>(op) || op->getOperand(1) != x)
      return std::nullopt;
    other = op->getOperand(0);
  }
  if (other == x)
    return std::nullopt;
  auto values = channelConstant(other, xType, channelDim);
  if (!values)
    return std::nullopt;
  if (isa<MulOp>(op)) {
    affine.scale = std::move(*values);
    return affine;
  }
  if (isa<SubOp>(op))
    for (float &v : *values)
      v = -v;
  affine.shift = std::move(*values);
  return affine;
}

/// A contraction with constant weights whose output channel `c` is computed
/// from the weight elements with flat index i where channelOf(i) == c.
struct Contraction {
  Operation *op = nullptr;
  OpOperand *weights = nullptr;
  int64_t channelDim = 0; ///< Of the result.
  std::function<int64_t(int64_t)> channelOf;
};

static std::optional<Contraction> matchContraction(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  Contraction contraction;
  contraction.op = op;
  auto resultType = cast<RankedTensorType>(value.getType());
  if (auto conv = dyn_cast<Conv2DOp>(op)) {
    // HWIO: the output channel is the innermost filter dimension.
    int64_t outChannels = conv.getFilter().getType().getDimSize(3);
    contraction.weights = &conv.getFilterMutable();
    contraction.channelDim = conv.getDataFormat() == "NCHW" ? 1 : 3;
    contraction.channelOf = [=](int64_t i) { return i % outChannels; };
  } else if (auto conv = dyn_cast<DepthwiseConv2dNativeOp>(op)) {
    // HWCM: output channel c * M + m is the flattened pair of inner dims.
    auto filterType = conv.getFilter().getType();
    int64_t outChannels = filterType.getDimSize(2) * filterType.getDimSize(3);
    contraction.weights = &conv.getFilterMutable();
    contraction.channelDim = conv.getDataFormat() == "NCHW" ? 1 : 3;
    contraction.channelOf = [=](int64_t i) { return i % outChannels; };
  } else if (auto matmul = dyn_cast<MatMulOp>(op)) {
    // b is [K, N], or [N, K] with transpose_b.
    auto bType = matmul.getB().getType();
    contraction.weights = &matmul.getBMutable();
    contraction.channelDim = 1;
    if (matmul.getTransposeB()) {
      int64_t k = bType.getDimSize(1);
      contraction.channelOf = [=](int64_t i) { return i / k; };
    } else {
      int64_t n = bType.getDimSize(1);
      contraction.channelOf = [=](int64_t i) { return i % n; };
    }
  } else {
    return std::nullopt;
  }
  if (!resultType.getElementType().isF32() ||
      !f32Constant(contraction.weights->get()))
    return std::nullopt;
  return contraction;
}

static ConstOp makeConstant(PatternRewriter &rewriter, Location loc,
                            RankedTensorType type, ArrayRef<float> values) {
  return ConstOp::create(rewriter, loc,
                         DenseElementsAttr::get(type, values));
}

/// Folds `affine` (applied by `root`) into `contraction`, whose result goes
/// through `bias` (a BiasAdd with constant bias, or null) before `root`:
/// root becomes contraction' -> BiasAdd' with weights' = weights * scale and
/// bias' = bias * scale + shift.
static void foldInto(PatternRewriter &rewriter, Operation *root,
                     Contraction &contraction, BiasAddOp bias,
                     const ChannelAffine &affine) {
  auto resultType =
      cast<RankedTensorType>(contraction.op->getResult(0).getType());
  int64_t channels = resultType.getDimSize(contraction.channelDim);
  SmallVector<float> newBias(channels, 0.0f);
  if (bias)
    newBias = *constantFloats(bias.getBias());
  Operation *newContraction = contraction.op;
  if (!affine.scale.empty()) {
    Value weights = contraction.weights->get();
    SmallVector<float> scaled = *constantFloats(weights);
    for (size_t i = 0; i < scaled.size(); ++i)
      scaled[i] *= affine.scale[contraction.channelOf(i)];
    auto newWeights =
        makeConstant(rewriter, weights.getLoc(),
                     cast<RankedTensorType>(weights.getType()), scaled);
    newContraction = rewriter.clone(*contraction.op);
    newContraction->setOperand(contraction.weights->getOperandNumber(),
                               newWeights);
    for (int64_t c = 0; c < channels; ++c)
      newBias[c] *= affine.scale[c];
  }
  if (!affine.shift.empty())
    for (int64_t c = 0; c < channels; ++c)
      newBias[c] += affine.shift[c];

  Location loc = root->getLoc();
  auto biasType = RankedTensorType::get({channels}, rewriter.getF32Type());
  StringRef format = contraction.channelDim == 1 && resultType.getRank() == 4
                         ? "NCHW"
                         : "NHWC";
  auto biasAdd = BiasAddOp::create(
      rewriter, loc, resultType, newContraction->getResult(0),
      makeConstant(rewriter, loc, biasType, newBias),
      rewriter.getStringAttr(format));
  rewriter.replaceOp(root, biasAdd.getResult());
}

/// Rooted at a per-channel affine op whose input is a contraction with
/// constant weights, possibly through a BiasAdd with a constant bias.
struct FoldChannelAffine : RewritePattern {
  FoldChannelAffine(MLIRContext *ctx, Pass::Statistic &batchNorms,
                    Pass::Statistic &scales, Pass::Statistic &shifts)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        batchNorms(batchNorms), scales(scales), shifts(shifts) {}

  LogicalResult matchAndRewrite(Operation *root,
                                PatternRewriter &rewriter) const override {
    if (!isa<FusedBatchNormOp, BiasAddOp, MulOp, AddOp, AddV2Op, SubOp>(root))
      return failure();
    for (Value x : root->getOperands()) {
      BiasAddOp bias = x.getDefiningOp<BiasAddOp>();
      Value product = x;
      if (bias) {
        if (!bias->hasOneUse() || !f32Constant(bias.getBias()))
          continue;
        product = bias.getValue();
      }
      std::optional<Contraction> contraction = matchContraction(product);
      if (!contraction || !product.hasOneUse())
        continue;
      if (bias && bias.getChannelDim() != contraction->channelDim)
        continue;
      std::optional<ChannelAffine> affine =
          affineOf(root, x, contraction->channelDim);
      if (!affine)
        continue;
      // contraction -> BiasAdd is the goal, not something to rewrite.
      if (isa<BiasAddOp>(root) && !bias)
        return failure();
      count(root);
      std::string into = contraction->op->getName().stripDialect().str() +
                         " '" +
                         nodeNameOf(contraction->op->getLoc()).value_or("?") +
                         "'";
      remarkRewrite(root->getLoc(), "tfaot-fold-batch-norm",
                    "folded " + root->getName().stripDialect().str(),
                    "into " + into);
      foldInto(rewriter, root, *contraction, bias, *affine);
      return success();
    }
    return failure();
  }

  void count(Operation *root) const {
    if (isa<FusedBatchNormOp>(root))
      ++batchNorms;
    else if (isa<MulOp>(root))
      ++scales;
    else
      ++shifts;
  }

  Pass::Statistic &batchNorms, &scales, &shifts;
};

struct FoldBatchNormPass
    : mlir::tfaot::impl::FoldBatchNormPassBase<FoldBatchNormPass> {
  using FoldBatchNormPassBase::FoldBatchNormPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldChannelAffine>(&getContext(), numBatchNormsFolded,
                                    numScalesFolded, numShiftsFolded);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
