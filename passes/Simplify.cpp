//===- Simplify.cpp - Exact algebraic clean-ups of the tfaot dialect ------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-simplify: rewrites of tfaot ops that leave every output bit as it
// was (x + 0.0 aside, see RemoveNeutral), run with the greedy driver before
// lowering. Reshape chains, neutral elements, zero Pads in front of
// convolutions, ops over constants and no-op ops; Passes.td lists them with
// examples. Constant folding computes each element the way the generated
// code does (same operation, same element type, same rounding), so that
// folding never moves a result.
//
// This file holds the pass and its structural patterns (groups 1-3 and 5);
// the constant folding (group 4) is in SimplifyFolds.cpp, and
// SimplifyPatterns.h declares what the two share.
//
//===----------------------------------------------------------------------===//
#include "passes/ConstantUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"
#include "passes/SimplifyPatterns.h"

#include "ir/Ops.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_SIMPLIFYPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::simplify;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Whether every element of `attr` satisfies `pred` (one check for a splat).
template <typename T, typename Pred>
bool allElements(DenseElementsAttr attr, Pred pred) {
  if (attr.isSplat())
    return pred(attr.getSplatValue<T>());
  return llvm::all_of(attr.getValues<T>(), pred);
}

/// Whether `attr` is 1 throughout (1.0 for floats).
bool isAllOne(DenseElementsAttr attr) {
  if (isa<FloatType>(attr.getElementType()))
    return allElements<APFloat>(
        attr, [](const APFloat &v) { return v.isExactlyValue(1.0); });
  if (attr.getElementType().isInteger(1))
    return false;
  return allElements<APInt>(attr, [](const APInt &v) { return v.isOne(); });
}

/// Whether `attr` is 0 throughout; +0.0 and -0.0 both count unless
/// `positiveOnly`.
bool isAllZero(DenseElementsAttr attr, bool positiveOnly) {
  if (isa<FloatType>(attr.getElementType()))
    return allElements<APFloat>(attr, [&](const APFloat &v) {
      return v.isZero() && !(positiveOnly && v.isNegative());
    });
  return allElements<APInt>(attr, [](const APInt &v) { return v.isZero(); });
}

//===----------------------------------------------------------------------===//
// 1. Reshape chains
//===----------------------------------------------------------------------===//

/// Reshape(Reshape(x, s1), s2) -> Reshape(x, s2): a reshape only depends on
/// the row-major element order, which the inner one keeps. A -1 in s2
/// resolves the same way, the element count being the same.
struct CollapseReshapeChain : OpRewritePattern<ReshapeOp> {
  CollapseReshapeChain(MLIRContext *ctx, Counters &counters)
      : OpRewritePattern(ctx), counters(counters) {}
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getTensor().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    counters.record(counters.reshapeChains, op, "collapsed Reshape chain");
    rewriter.modifyOpInPlace(
        op, [&] { op.getTensorMutable().assign(inner.getTensor()); });
    return success();
  }
  Counters &counters;
};

/// Reshape to the operand's own type -> the operand. (ReshapeOp::fold only
/// folds constant operands.)
struct RemoveSameTypeReshape : OpRewritePattern<ReshapeOp> {
  RemoveSameTypeReshape(MLIRContext *ctx, Counters &counters)
      : OpRewritePattern(ctx), counters(counters) {}
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getTensor().getType() != op.getType())
      return failure();
    counters.record(counters.reshapesRemoved, op, "removed no-op Reshape");
    rewriter.replaceOp(op, op.getTensor());
    return success();
  }
  Counters &counters;
};

//===----------------------------------------------------------------------===//
// 2. Neutral elements
//===----------------------------------------------------------------------===//

enum class Neutral { One, Zero };

/// `x op c` (and `c op x` when `commutative`) -> x when c is the neutral
/// element throughout and the result has x's type, so that broadcasting
/// changes neither shape nor dtype.
///
/// x * 1, x / 1 and x - (+0) are exact for every x. x + 0 is exact except
/// that -0.0 + +0.0 = +0.0 (and x - -0.0 likewise): dropping the op keeps
/// -0.0 where the graph would give +0.0. TF's Grappler (arithmetic
/// optimizer) makes the same trade; no comparison or later arithmetic but
/// 1/x and atan2 can tell the two apart.
template <typename OpTy>
struct RemoveNeutral : OpRewritePattern<OpTy> {
  RemoveNeutral(MLIRContext *ctx, Counters &counters, Neutral neutral,
                bool commutative)
      : OpRewritePattern<OpTy>(ctx), counters(counters), neutral(neutral),
        commutative(commutative) {}

  bool isNeutral(Value value) const {
    DenseElementsAttr attr = denseConstant(value);
    if (!attr)
      return false;
    return neutral == Neutral::One ? isAllOne(attr)
                                   : isAllZero(attr, /*positiveOnly=*/false);
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getX(), y = op.getY();
    Value kept;
    if (x.getType() == op.getType() && isNeutral(y))
      kept = x;
    else if (commutative && y.getType() == op.getType() && isNeutral(x))
      kept = y;
    else
      return failure();
    counters.record(counters.neutralRemoved, op,
                    "removed " + op->getName().stripDialect().str() +
                        " by a neutral constant");
    rewriter.replaceOp(op, kept);
    return success();
  }

  Counters &counters;
  Neutral neutral;
  bool commutative;
};

//===----------------------------------------------------------------------===//
// 3. Zero Pad into convolution padding
//===----------------------------------------------------------------------===//

/// Conv(Pad(x, p, +0), padding P) -> Conv(x, EXPLICIT, P' + p) where P' is
/// what P amounts to on the padded input (computeWindow2D, as the lowering
/// computes it: VALID 0, EXPLICIT its list, SAME from the padded size).
/// The lowering pads the input with +0 by P' in front of the convolution,
/// so padding x once by P' + p builds the very same tensor.
template <typename ConvOp>
struct FoldPadIntoConv : OpRewritePattern<ConvOp> {
  FoldPadIntoConv(MLIRContext *ctx, Counters &counters)
      : OpRewritePattern<ConvOp>(ctx), counters(counters) {}

  LogicalResult matchAndRewrite(ConvOp conv,
                                PatternRewriter &rewriter) const override {
    // The Pad may also reach the convolution through a Transpose used by
    // the convolution only (NCHW graphs pad, then transpose to NHWC):
    // Transpose(Pad(x, p)) is Pad(Transpose(x), p permuted) for any fill.
    auto transpose = conv.getInput().template getDefiningOp<TransposeOp>();
    SmallVector<int64_t> perm = {0, 1, 2, 3};
    PadOp pad;
    if (transpose) {
      auto values = getConstantIntValues(transpose.getPerm());
      if (!values || values->size() != 4 || !transpose->hasOneUse())
        return failure();
      perm = *values;
      for (int64_t p : perm)
        if (p < 0 || p > 3)
          return failure();
      pad = transpose.getX().template getDefiningOp<PadOp>();
    } else {
      pad = conv.getInput().template getDefiningOp<PadOp>();
    }
    if (!pad)
      return failure();
    StringRef format = conv.getDataFormat();
    if (format != "NHWC" && format != "NCHW")
      return failure();
    auto padValues = getConstantIntValues(pad.getPaddings());
    if (!padValues || padValues->size() != 8 ||
        llvm::any_of(*padValues, [](int64_t p) { return p < 0; }))
      return failure();
    // The Pad's amounts per dimension of the convolution's input.
    SmallVector<int64_t> paddings(8);
    for (int64_t d = 0; d < 4; ++d) {
      paddings[2 * d] = (*padValues)[2 * perm[d]];
      paddings[2 * d + 1] = (*padValues)[2 * perm[d] + 1];
    }
    // Only +0 (all bits zero) is what the convolution pads with itself.
    DenseElementsAttr fill = denseConstant(pad.getConstantValue());
    if (!fill || !isAllZero(fill, /*positiveOnly=*/true))
      return failure();
    int64_t h = format == "NCHW" ? 2 : 1, w = h + 1;
    int64_t c = format == "NCHW" ? 1 : 3;
    for (int64_t d : {int64_t(0), c})
      if (paddings[2 * d] != 0 || paddings[2 * d + 1] != 0)
        return failure();

    // The convolution's input without the padding.
    auto source = pad.getInput().getType();
    if (source.getRank() != 4)
      return failure();
    SmallVector<int64_t> unpaddedShape;
    for (int64_t p : perm)
      unpaddedShape.push_back(source.getDimSize(p));
    auto unpadded =
        RankedTensorType::get(unpaddedShape, source.getElementType());
    auto padded = conv.getInput().getType();
    auto filter = conv.getFilter().getType();
    auto result = conv.getType();
    if (!unpadded.hasStaticShape() || !padded.hasStaticShape() ||
        !filter.hasStaticShape() || !result.hasStaticShape())
      return failure();
    SmallVector<int64_t> strides = getI64Values(conv.getStrides());
    SmallVector<int64_t> dilations = getI64Values(conv.getDilations());
    int64_t outChannels = result.getDimSize(c);
    std::string why;
    auto window = computeWindow2D(
        padded.getShape(), format, filter.getDimSize(0), filter.getDimSize(1),
        strides, dilations, conv.getPadding(),
        getI64Values(conv.getExplicitPaddings()), outChannels, why);
    if (failed(window))
      return failure();
    SmallVector<int64_t> explicitPaddings(8, 0);
    explicitPaddings[2 * h] = window->padTop + paddings[2 * h];
    explicitPaddings[2 * h + 1] = window->padBottom + paddings[2 * h + 1];
    explicitPaddings[2 * w] = window->padLeft + paddings[2 * w];
    explicitPaddings[2 * w + 1] = window->padRight + paddings[2 * w + 1];
    // The same geometry on the unpadded input must give the same result
    // shape (it always does; checked rather than assumed).
    auto folded = computeWindow2D(unpadded.getShape(), format,
                                  filter.getDimSize(0), filter.getDimSize(1),
                                  strides, dilations, "EXPLICIT",
                                  explicitPaddings, outChannels, why);
    if (failed(folded) ||
        ArrayRef<int64_t>(folded->outputShape) != result.getShape())
      return failure();

    Value input = pad.getInput();
    if (transpose)
      input = TransposeOp::create(rewriter, transpose.getLoc(), unpadded,
                                  input, transpose.getPerm());
    counters.record(counters.padsFolded, pad,
                    "folded Pad into " +
                        conv->getName().stripDialect().str() + " padding");
    rewriter.modifyOpInPlace(conv, [&] {
      conv.getInputMutable().assign(input);
      conv.setPadding("EXPLICIT");
      conv.setExplicitPaddingsAttr(rewriter.getI64ArrayAttr(explicitPaddings));
    });
    return success();
  }

  Counters &counters;
};

//===----------------------------------------------------------------------===//
// 5. No-ops
//===----------------------------------------------------------------------===//

/// Replaces an op by `replacement(op)` when that gives a value of the op's
/// type.
template <typename OpTy>
struct RemoveNoOp : OpRewritePattern<OpTy> {
  using Fn = Value (*)(OpTy);
  RemoveNoOp(MLIRContext *ctx, Counters &counters, Fn fn)
      : OpRewritePattern<OpTy>(ctx), counters(counters), fn(fn) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value replacement = fn(op);
    if (!replacement || replacement.getType() != op->getResult(0).getType())
      return failure();
    counters.record(counters.noOpsRemoved, op,
                    "removed no-op " + op->getName().stripDialect().str());
    rewriter.replaceOp(op, replacement);
    return success();
  }
  Counters &counters;
  Fn fn;
};

/// Whether `value` is a constant of zeros (paddings, begins).
bool isZeroConstant(Value value) {
  auto values = getConstantIntValues(value);
  return values && llvm::all_of(*values, [](int64_t v) { return v == 0; });
}

Value castNoOp(CastOp op) { return op.getX(); }
Value concatNoOp(ConcatV2Op op) {
  return op.getValues().size() == 1 ? op.getValues()[0] : Value();
}
Value addNNoOp(AddNOp op) {
  return op.getInputs().size() == 1 ? op.getInputs()[0] : Value();
}
Value transposeNoOp(TransposeOp op) {
  auto perm = getConstantIntValues(op.getPerm());
  if (!perm)
    return {};
  for (auto [i, p] : llvm::enumerate(*perm))
    if (p != int64_t(i))
      return {};
  return op.getX();
}
/// A Slice from 0 whose result has the input's type takes all of it.
Value sliceNoOp(SliceOp op) {
  return isZeroConstant(op.getBegin()) ? op.getInput() : Value();
}
/// Whether a StridedSlice takes every element of its input in order (its
/// shrink and new-axis masks may still drop or add size-1 dimensions).
bool takesEveryElement(StridedSliceOp op) {
  auto input = op.getInput().getType();
  auto begin = getConstantIntValues(op.getBegin());
  auto end = getConstantIntValues(op.getEnd());
  auto strides = getConstantIntValues(op.getStrides());
  if (!begin || !end || !strides || !input.hasStaticShape())
    return false;
  std::string why;
  auto spec = computeStridedSlice(input.getShape(), *begin, *end, *strides,
                                  op.getBeginMask(), op.getEndMask(),
                                  op.getEllipsisMask(), op.getNewAxisMask(),
                                  op.getShrinkAxisMask(), why);
  return succeeded(spec) &&
         ArrayRef<int64_t>(spec->sizes) == input.getShape() &&
         llvm::all_of(spec->offsets, [](int64_t o) { return o == 0; }) &&
         llvm::all_of(spec->strides, [](int64_t s) { return s == 1; });
}
/// A StridedSlice taking every element in order, into the input's shape.
Value stridedSliceNoOp(StridedSliceOp op) {
  return takesEveryElement(op) ? op.getInput() : Value();
}

/// A StridedSlice taking every element in order into another shape (x[0]
/// of a batch of one, x[..., tf.newaxis]) -> a Reshape, which the layout
/// pass can move and the Reshape patterns can collapse.
struct StridedSliceToReshape : OpRewritePattern<StridedSliceOp> {
  StridedSliceToReshape(MLIRContext *ctx, Counters &counters)
      : OpRewritePattern(ctx), counters(counters) {}
  LogicalResult matchAndRewrite(StridedSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape() ||
        type == op.getInput().getType() || !takesEveryElement(op))
      return failure();
    counters.record(counters.noOpsRemoved, op,
                    "made StridedSlice of every element a Reshape");
    auto shapeType =
        RankedTensorType::get({type.getRank()}, rewriter.getI64Type());
    Value shape = ConstOp::create(
        rewriter, op.getLoc(), shapeType,
        DenseIntElementsAttr::get(shapeType, type.getShape()));
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, op.getInput(), shape);
    return success();
  }
  Counters &counters;
};
/// ResizeBilinear(Cast(x)), possibly with a Reshape between (the batch
/// ExpandDims), where the Cast converts integers or f16/bf16 to f32 ->
/// ResizeBilinear([Reshape](x)). TF's resize converts every pixel it reads
/// to float itself, with the same conversion (exact for these types, or
/// rounding the same way for wide integers), so the results are identical,
/// and decoded pixels are then read once, by the resize, instead of being
/// converted into a float copy of the whole image first.
struct ResizeConvertsOnRead : OpRewritePattern<ResizeBilinearOp> {
  ResizeConvertsOnRead(MLIRContext *ctx, Counters &counters)
      : OpRewritePattern(ctx), counters(counters) {}

  static bool convertsOnRead(Type from) {
    if (auto integer = dyn_cast<IntegerType>(from))
      return integer.getWidth() >= 8;
    return isa<Float16Type, BFloat16Type>(from);
  }

  LogicalResult matchAndRewrite(ResizeBilinearOp op,
                                PatternRewriter &rewriter) const override {
    Value images = op.getImages();
    auto reshape = images.getDefiningOp<ReshapeOp>();
    if (reshape) {
      if (!reshape->hasOneUse())
        return failure();
      images = reshape.getTensor();
    }
    auto convert = images.getDefiningOp<CastOp>();
    if (!convert || !convert->hasOneUse())
      return failure();
    auto from = dyn_cast<RankedTensorType>(convert.getX().getType());
    auto to = dyn_cast<RankedTensorType>(convert.getType());
    if (!from || !to || !to.getElementType().isF32() ||
        !convertsOnRead(from.getElementType()))
      return failure();
    counters.record(counters.castsIntoResize, op,
                    "made ResizeBilinear convert the pixels it reads (Cast "
                    "removed)");
    Value source = convert.getX();
    if (reshape) {
      auto type = cast<RankedTensorType>(reshape.getType())
                      .clone(from.getElementType());
      source = ReshapeOp::create(rewriter, reshape.getLoc(), type, source,
                                 reshape.getShape());
    }
    rewriter.modifyOpInPlace(op,
                             [&] { op.getImagesMutable().assign(source); });
    return success();
  }
  Counters &counters;
};

Value padNoOp(PadOp op) {
  return isZeroConstant(op.getPaddings()) ? op.getInput() : Value();
}
Value mirrorPadNoOp(MirrorPadOp op) {
  return isZeroConstant(op.getPaddings()) ? op.getInput() : Value();
}
Value broadcastToNoOp(BroadcastToOp op) { return op.getInput(); }

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct SimplifyPass : public tfaot::impl::SimplifyPassBase<SimplifyPass> {
  using SimplifyPassBase::SimplifyPassBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Counters counters;
    FoldLimits limits{maxFoldElements};
    RewritePatternSet patterns(ctx);

    patterns.add<CollapseReshapeChain, RemoveSameTypeReshape>(ctx, counters);

    patterns.add<RemoveNeutral<MulOp>>(ctx, counters, Neutral::One, true);
    patterns.add<RemoveNeutral<RealDivOp>>(ctx, counters, Neutral::One, false);
    patterns.add<RemoveNeutral<AddOp>>(ctx, counters, Neutral::Zero, true);
    patterns.add<RemoveNeutral<AddV2Op>>(ctx, counters, Neutral::Zero, true);
    patterns.add<RemoveNeutral<SubOp>>(ctx, counters, Neutral::Zero, false);

    patterns.add<FoldPadIntoConv<Conv2DOp>,
                 FoldPadIntoConv<DepthwiseConv2dNativeOp>>(ctx, counters);

    populateConstantFoldPatterns(patterns, counters, limits);

    patterns.add<RemoveNoOp<CastOp>>(ctx, counters, castNoOp);
    patterns.add<RemoveNoOp<ConcatV2Op>>(ctx, counters, concatNoOp);
    patterns.add<RemoveNoOp<AddNOp>>(ctx, counters, addNNoOp);
    patterns.add<RemoveNoOp<TransposeOp>>(ctx, counters, transposeNoOp);
    patterns.add<RemoveNoOp<SliceOp>>(ctx, counters, sliceNoOp);
    patterns.add<RemoveNoOp<StridedSliceOp>>(ctx, counters, stridedSliceNoOp);
    patterns.add<StridedSliceToReshape>(ctx, counters);
    patterns.add<ResizeConvertsOnRead>(ctx, counters);
    // A predicate or branch index folded to a constant here picks its
    // region, as import does for one that is constant from the start.
    patterns.add(IfOp::canonicalize);
    patterns.add(CaseOp::canonicalize);
    patterns.add<RemoveNoOp<PadOp>>(ctx, counters, padNoOp);
    patterns.add<RemoveNoOp<MirrorPadOp>>(ctx, counters, mirrorPadNoOp);
    patterns.add<RemoveNoOp<BroadcastToOp>>(ctx, counters, broadcastToNoOp);

    auto countIdentities = [&] {
      int64_t n = 0;
      getOperation().walk([&](IdentityOp) { ++n; });
      return n;
    };
    int64_t identitiesBefore = countIdentities();
    // Not converging within the driver's iteration limit leaves valid IR
    // with fewer rewrites, which is no reason to fail the compilation.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    int64_t identitiesAfter = countIdentities();
    numIdentitiesRemoved += identitiesBefore - identitiesAfter;
    numReshapeChains += counters.reshapeChains;
    numReshapesRemoved += counters.reshapesRemoved;
    numNeutralRemoved += counters.neutralRemoved;
    numPadsFolded += counters.padsFolded;
    numConstantsFolded += counters.constantsFolded;
    numFoldsMaterialized += counters.foldsMaterialized;
    numFoldsTooLarge += counters.tooLarge.size();
    numNoOpsRemoved += counters.noOpsRemoved;
    numCastsIntoResize += counters.castsIntoResize;
  }
};

} // namespace
