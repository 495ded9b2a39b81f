//===- ConvsToCudnn.cpp - Convolutions for cuDNN, on tensors --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-convs-to-cudnn (--gpu_conv=cudnn) runs on tensors, after
// tfaot-gpu-store-half (which, with keep-convs, leaves the convolutions
// named and gives them 16-bit inputs) and before tfaot-gpu-convs-to-matmuls
// (which makes the rest im2col + GEMM). It picks the convolutions cuDNN
// runs: a statically shaped linalg.conv_2d_nhwc_hwcf from a zero-filled
// f32 output, with constant weights, becomes a linalg.conv_2d_nhwc_fhwc
// with the weights transposed at compile time to KRSC (what cuDNN takes for
// NHWC data); tfaot-gpu-cudnn-calls later replaces it, and its epilogue
// when ConvEpilogue.h matches one, by one call to the runtime.
//
// cuDNN computes 16-bit convolutions only into 16-bit outputs, with the
// bias in 16 bits too (the "pseudo half" configurations of
// cudnnConvolutionBiasActivationForward). So with --precision=fp16|bf16 a
// convolution goes to cuDNN only with a fusable epilogue that stores 16
// bits; its bias is converted here (rounded to nearest even, as the weights
// are) and widened where the epilogue reads it, so that generated code,
// --gpu_emulate and cuDNN all add the same bias. Others stay im2col. In f32
// every eligible convolution goes, with its epilogue or alone (then the
// epilogue stays a kernel that reads cuDNN's f32 output).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/ConvEpilogue.h"
#include "backends/gpu/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

namespace mlir::tfaot {
#define GEN_PASS_DEF_CONVSTOCUDNNPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

/// HWCF weights as FHWC (KRSC), moving their bytes.
DenseElementsAttr toKrsc(DenseElementsAttr hwcf) {
  auto type = cast<RankedTensorType>(hwcf.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t h = shape[0], w = shape[1], c = shape[2], f = shape[3];
  auto krscType = type.clone({f, h, w, c});
  if (hwcf.isSplat())
    return hwcf.reshape(krscType);
  ArrayRef<char> raw = hwcf.getRawData();
  size_t bytes = type.getElementTypeBitWidth() / 8;
  std::vector<char> krsc(raw.size());
  for (int64_t i = 0; i < h; ++i)
    for (int64_t j = 0; j < w; ++j)
      for (int64_t k = 0; k < c; ++k)
        for (int64_t l = 0; l < f; ++l) {
          size_t from = (((i * w + j) * c + k) * f + l) * bytes;
          size_t to = (((l * h + i) * w + j) * c + k) * bytes;
          std::memcpy(&krsc[to], &raw[from], bytes);
        }
  return DenseElementsAttr::getFromRawBuffer(krscType, krsc);
}

/// An f32 constant rounded to nearest even in `half`.
DenseElementsAttr roundTo(DenseFPElementsAttr values, FloatType half) {
  return values.mapValues(half, [&](const APFloat &value) {
    APFloat rounded = value;
    bool losesInfo;
    rounded.convert(half.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    return rounded.bitcastToAPInt();
  });
}

struct ConvsToCudnnPass
    : mlir::tfaot::impl::ConvsToCudnnPassBase<ConvsToCudnnPass> {

  /// Whether `epilogue` of a convolution with `input` elements can be
  /// cuDNN's: with a constant bias, and y and z in the data type (f32, or
  /// the 16-bit type the inputs have).
  static bool fusable(const ::tfaot::gpu::ConvEpilogue &epilogue,
                      Type input) {
    linalg::GenericOp op = epilogue.op;
    if (!epilogue.biasInput ||
        !matchPattern(op.getDpsInputs()[*epilogue.biasInput], m_Constant()))
      return false;
    Type output = getElementTypeOrSelf(op->getResult(0).getType());
    if (output != input || epilogue.narrows != isHalf(input))
      return false;
    return !epilogue.residualInput ||
           getElementTypeOrSelf(
               op.getDpsInputs()[*epilogue.residualInput].getType()) == output;
  }

  /// Makes `epilogue`'s bias input a `half` constant, widened as it is read.
  static void narrowBias(const ::tfaot::gpu::ConvEpilogue &epilogue,
                         FloatType half) {
    linalg::GenericOp op = epilogue.op;
    OpOperand &use = op->getOpOperand(*epilogue.biasInput);
    if (getElementTypeOrSelf(use.get().getType()) == half)
      return;
    DenseFPElementsAttr bias;
    matchPattern(use.get(), m_Constant(&bias));
    OpBuilder b(use.get().getDefiningOp());
    use.set(arith::ConstantOp::create(b, op.getLoc(), roundTo(bias, half)));
    BlockArgument arg = op.getMatchingBlockArgument(&use);
    arg.setType(half);
    b.setInsertionPointToStart(op.getBody());
    Value wide = arith::ExtFOp::create(b, op.getLoc(), b.getF32Type(), arg);
    arg.replaceAllUsesExcept(wide, wide.getDefiningOp());
  }

  /// Why `conv` cannot go to cuDNN at all, or "".
  static StringRef unsupported(linalg::Conv2DNhwcHwcfOp conv,
                               DenseElementsAttr &weights) {
    bool staticShapes = llvm::all_of(conv->getOperands(), [](Value v) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      return type && type.hasStaticShape();
    });
    Type input = getElementTypeOrSelf(conv.getInputs()[0].getType());
    Type filter = getElementTypeOrSelf(conv.getInputs()[1].getType());
    auto fill = conv.getOutputs()[0].getDefiningOp<linalg::FillOp>();
    if (!staticShapes)
      return "dynamic shapes";
    if (input != filter || !(input.isF32() || isHalf(input)) ||
        !getElementTypeOrSelf(conv.getResult(0).getType()).isF32())
      return "element types cuDNN's path does not take";
    if (!matchPattern(conv.getInputs()[1], m_Constant(&weights)))
      return "weights not constant";
    if (!fill || !matchPattern(fill.getInputs()[0], m_PosZeroFloat()))
      return "accumulates into a non-zero output";
    return "";
  }

  void runOnOperation() override {
    // Depthwise convolutions stay generated kernels
    // (tfaot-gpu-direct-depthwise says how, for `explain`).
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation().walk(
        [&](linalg::Conv2DNhwcHwcfOp conv) { convs.push_back(conv); });
    for (linalg::Conv2DNhwcHwcfOp conv : convs) {
      DenseElementsAttr weights;
      StringRef why = unsupported(conv, weights);
      if (!why.empty()) {
        mlir::tfaot::remarkRewrite(conv.getLoc(), getArgument(),
                                   "im2col + cuBLAS (" + why.str() + ")");
        continue;
      }
      Type input = getElementTypeOrSelf(conv.getInputs()[0].getType());
      std::optional<::tfaot::gpu::ConvEpilogue> epilogue =
          ::tfaot::gpu::matchConvEpilogue(conv);
      if (epilogue && !fusable(*epilogue, input))
        epilogue.reset();
      if (isHalf(input) && !epilogue) {
        // im2col: cuDNN's 16-bit convolutions store 16 bits.
        mlir::tfaot::remarkRewrite(conv.getLoc(), getArgument(),
                                   "im2col + cuBLAS (16-bit, without an "
                                   "epilogue cuDNN fuses storing 16 bits)");
        continue;
      }
      if (epilogue && isHalf(input))
        narrowBias(*epilogue, cast<FloatType>(input));
      OpBuilder b(conv);
      Value krsc = arith::ConstantOp::create(
          b, conv.getLoc(), toKrsc(weights));
      auto cudnnConv = linalg::Conv2DNhwcFhwcOp::create(
          b, conv.getLoc(), conv->getResultTypes(),
          ValueRange{conv.getInputs()[0], krsc}, conv.getOutputs(),
          conv.getStrides(), conv.getDilations());
      if (epilogue)
        cudnnConv->setAttr(::tfaot::gpu::kFusedEpilogueAttr,
                           b.getUnitAttr());
      // A padded input: tfaot-gpu-cudnn-calls hands cuDNN the unpadded
      // buffer where the pad is symmetric (cuDNN's legacy call pads
      // symmetrically only); else a copy kernel pads first.
      if (conv.getInputs()[0].getDefiningOp<tensor::PadOp>())
        cudnnConv->setAttr(::tfaot::gpu::kPaddedInputAttr, b.getUnitAttr());
      conv->replaceAllUsesWith(cudnnConv->getResults());
      Operation *oldWeights = conv.getInputs()[1].getDefiningOp();
      conv.erase();
      if (oldWeights->use_empty())
        oldWeights->erase();
    }
  }
};

} // namespace
