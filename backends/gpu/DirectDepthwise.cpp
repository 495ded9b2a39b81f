//===- DirectDepthwise.cpp - Depthwise convolutions as one kernel ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-direct-depthwise runs on tensors, before tfaot-gpu-store-half.
// A depthwise convolution arrives as up to four kernels: the zero-padded
// copy of its input (a fill of the padded buffer and a copy into its
// interior), the fill of its f32 accumulator, the convolution, and the
// epilogue (bias, ReLU6) that reads the accumulator back. On MobileNetV2 at
// batch 32 in fp16 those took 59% of the kernel time on an H200
// (bench/results/2026-11-27-h200-half, prof_mobilenet_v2_b32_fp16.csv),
// each moving the whole activation through memory.
//
// Here each linalg.depthwise_conv_2d_nhwc_hwcm whose accumulator is a fill
// becomes a linalg.generic over its output with the window unrolled in the
// body: each tap reads the unpadded input with tensor.extract, at an index
// clamped into bounds, and takes the pad's value where the tap falls in the
// padding; the sum starts at the fill's value. The elementwise epilogue
// that reads the result is then fused into the same generic. One kernel
// reads the input once and writes the final output once, with the
// accumulator in a register. The arithmetic is the named op's, in its
// order (taps row by row, each `acc + x * w` after widening x and w to the
// accumulator's type), so the CPU, --gpu_emulate and the GPU agree as
// before. Windows of more than kMaxTaps taps keep the named op (the
// unrolled body would be too large).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_DIRECTDEPTHWISEPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// The largest window unrolled into the kernel's body (7x7).
constexpr int64_t kMaxTaps = 49;

/// Where a depthwise convolution reads: its unpadded input, with the pad's
/// low sizes along H and W and the padding value (null without a pad).
struct PaddedInput {
  Value source;
  int64_t lowH = 0, lowW = 0;
  Value padValue;
};

/// `input` seen through a constant zero-or-more pad of its H and W only.
std::optional<PaddedInput> unpad(Value input) {
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad)
    return PaddedInput{input, 0, 0, Value()};
  Value value = pad.getConstantPaddingValue();
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (!value || ShapedType::isDynamicShape(low) ||
      ShapedType::isDynamicShape(high) || low.size() != 4 || low[0] != 0 ||
      low[3] != 0 || high[0] != 0 || high[3] != 0)
    return std::nullopt;
  return PaddedInput{pad.getSource(), low[1], low[2], value};
}

/// The value `fill` fills with, if `init` is a linalg.fill's result.
Value fillValue(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  return fill ? fill.getInputs()[0] : Value();
}

/// `value` converted to the float type `to`, as a named linalg op's
/// operand is before its arithmetic.
Value castTo(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, to, value);
  return arith::TruncFOp::create(b, loc, to, value);
}

struct DirectDepthwisePass
    : mlir::tfaot::impl::DirectDepthwisePassBase<DirectDepthwisePass> {

  /// Why `conv` keeps the named op, or "".
  static std::string unsupported(linalg::DepthwiseConv2DNhwcHwcmOp conv) {
    for (Value v : conv->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !type.hasStaticShape())
        return "dynamic shapes";
      if (!isa<FloatType>(type.getElementType()))
        return "not floating point";
    }
    if (!fillValue(conv.getOutputs()[0]))
      return "accumulates into a computed output";
    if (!unpad(conv.getInputs()[0]))
      return "a pad of N or C, or not by a constant";
    auto filter = cast<RankedTensorType>(conv.getInputs()[1].getType());
    if (filter.getDimSize(0) * filter.getDimSize(1) > kMaxTaps)
      return "window of more than " + std::to_string(kMaxTaps) + " taps";
    return "";
  }

  /// The generic that computes `conv` reading its input in place.
  static linalg::GenericOp buildDirect(OpBuilder &b,
                                       linalg::DepthwiseConv2DNhwcHwcmOp conv) {
    Location loc = conv.getLoc();
    PaddedInput in = *unpad(conv.getInputs()[0]);
    Value filter = conv.getInputs()[1];
    Value start = fillValue(conv.getOutputs()[0]);
    auto resultType = cast<RankedTensorType>(conv.getResult(0).getType());
    auto sourceType = cast<RankedTensorType>(in.source.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    int64_t height = sourceType.getDimSize(1), width = sourceType.getDimSize(2);
    int64_t outH = resultType.getDimSize(1), outW = resultType.getDimSize(2);
    int64_t taps[2] = {filterType.getDimSize(0), filterType.getDimSize(1)};
    auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
    auto dilations = llvm::to_vector(conv.getDilations().getValues<int64_t>());
    Type accType = resultType.getElementType();

    Value empty = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                          accType);
    SmallVector<AffineMap> maps = {
        b.getMultiDimIdentityMap(resultType.getRank())};
    SmallVector<utils::IteratorType> iterators(
        resultType.getRank(), utils::IteratorType::parallel);
    return linalg::GenericOp::create(
        b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{empty}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange) {
          auto index = [&](int64_t v) {
            return arith::ConstantIndexOp::create(b, l, v).getResult();
          };
          Value n = linalg::IndexOp::create(b, l, 0);
          Value oh = linalg::IndexOp::create(b, l, 1);
          Value ow = linalg::IndexOp::create(b, l, 2);
          Value c = linalg::IndexOp::create(b, l, 3);
          Value m = linalg::IndexOp::create(b, l, 4);
          Value zero = index(0);
          // The input coordinate of tap k along one axis, and whether it
          // is inside the input (null: always, for every output).
          auto coordinate = [&](Value out, int64_t axis, int64_t k,
                                int64_t low, int64_t size, int64_t outSize,
                                Value &inside) -> Value {
            int64_t offset = k * dilations[axis] - low;
            Value at = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, out, index(strides[axis])),
                index(offset));
            auto both = [&](Value cond) {
              inside = inside ? arith::AndIOp::create(b, l, inside, cond)
                                    .getResult()
                              : cond;
            };
            if (offset < 0)
              both(arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, at,
                                         zero));
            if ((outSize - 1) * strides[axis] + offset >= size)
              both(arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, at,
                                         index(size)));
            return at;
          };
          Value acc = start;
          for (int64_t kh = 0; kh < taps[0]; ++kh) {
            for (int64_t kw = 0; kw < taps[1]; ++kw) {
              Value inside;
              Value ih = coordinate(oh, 0, kh, in.lowH, height, outH, inside);
              Value iw = coordinate(ow, 1, kw, in.lowW, width, outW, inside);
              if (inside) {
                ih = arith::SelectOp::create(b, l, inside, ih, zero);
                iw = arith::SelectOp::create(b, l, inside, iw, zero);
              }
              Value x = tensor::ExtractOp::create(b, l, in.source,
                                                  ValueRange{n, ih, iw, c});
              if (inside)
                x = arith::SelectOp::create(b, l, inside, x, in.padValue);
              Value w = tensor::ExtractOp::create(
                  b, l, filter, ValueRange{index(kh), index(kw), c, m});
              Value product =
                  arith::MulFOp::create(b, l, castTo(b, l, x, accType),
                                        castTo(b, l, w, accType));
              acc = arith::AddFOp::create(b, l, acc, product);
            }
          }
          linalg::YieldOp::create(b, l, acc);
        });
  }

  /// Fuses the elementwise generic that alone reads `direct`'s result
  /// into it; returns the generic that computes the convolution then.
  static linalg::GenericOp fuseEpilogue(RewriterBase &rewriter,
                                        linalg::GenericOp direct) {
    Value result = direct->getResult(0);
    if (!result.hasOneUse())
      return direct;
    OpOperand &use = *result.getUses().begin();
    auto epilogue = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!epilogue || !linalg::areElementwiseOpsFusable(&use))
      return direct;
    rewriter.setInsertionPoint(epilogue);
    FailureOr<linalg::ElementwiseOpFusionResult> fused =
        linalg::fuseElementwiseOps(rewriter, &use);
    if (failed(fused))
      return direct;
    for (auto [from, to] : fused->replacements)
      if (from.getDefiningOp() == epilogue)
        rewriter.replaceAllUsesWith(from, to);
    rewriter.eraseOp(epilogue);
    if (direct->use_empty())
      rewriter.eraseOp(direct);
    return cast<linalg::GenericOp>(fused->fusedOp);
  }

  /// The window of `conv`, which marks its generic for
  /// tfaot-gpu-tiled-depthwise (on buffers it is a generic like any other).
  static DictionaryAttr windowOf(linalg::DepthwiseConv2DNhwcHwcmOp conv) {
    Builder b(conv.getContext());
    PaddedInput in = *unpad(conv.getInputs()[0]);
    auto filter = cast<RankedTensorType>(conv.getInputs()[1].getType());
    auto source = cast<RankedTensorType>(in.source.getType());
    NamedAttribute fields[] = {
        b.getNamedAttr("input", b.getDenseI64ArrayAttr(source.getShape())),
        b.getNamedAttr("taps", b.getDenseI64ArrayAttr(
                                   {filter.getDimSize(0),
                                    filter.getDimSize(1)})),
        b.getNamedAttr("strides",
                       b.getDenseI64ArrayAttr(llvm::to_vector(
                           conv.getStrides().getValues<int64_t>()))),
        b.getNamedAttr("dilations",
                       b.getDenseI64ArrayAttr(llvm::to_vector(
                           conv.getDilations().getValues<int64_t>()))),
        b.getNamedAttr("low", b.getDenseI64ArrayAttr({in.lowH, in.lowW}))};
    return b.getDictionaryAttr(fields);
  }

  void runOnOperation() override {
    SmallVector<linalg::DepthwiseConv2DNhwcHwcmOp> convs;
    getOperation().walk(
        [&](linalg::DepthwiseConv2DNhwcHwcmOp conv) { convs.push_back(conv); });
    IRRewriter rewriter(&getContext());
    for (linalg::DepthwiseConv2DNhwcHwcmOp conv : convs) {
      std::string why = unsupported(conv);
      if (!why.empty()) {
        mlir::tfaot::remarkRewrite(conv.getLoc(), getArgument(),
                                   "generated kernel (depthwise)", why);
        continue;
      }
      Location loc = conv.getLoc();
      Operation *padded = conv.getInputs()[0].getDefiningOp();
      Operation *init = conv.getOutputs()[0].getDefiningOp();
      rewriter.setInsertionPoint(conv);
      DictionaryAttr window = windowOf(conv);
      linalg::GenericOp direct = buildDirect(rewriter, conv);
      rewriter.replaceOp(conv, direct->getResults());
      linalg::GenericOp kernel = fuseEpilogue(rewriter, direct);
      kernel->setAttr(mlir::tfaot::kDepthwiseWindowAttr, window);
      // A fused generic is located at its epilogue (ReLU6): put the
      // convolution's node first, which tfaot-gpu-tiled-depthwise's
      // remarks (and errors) name.
      if (kernel.getLoc() != loc)
        kernel->setLoc(rewriter.getFusedLoc({loc, kernel.getLoc()}));
      for (Operation *op : {padded, init})
        if (op && op->use_empty())
          rewriter.eraseOp(op);
      mlir::tfaot::remarkRewrite(loc, getArgument(),
                                 "generated kernel (depthwise, padding read "
                                 "in place, epilogue fused)");
    }
  }
};

} // namespace
