//===- ConvsToMatmuls.cpp - Convolutions as im2col + matmul ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The generated kernels are one thread per output element; for the
// contractions that dominate conv nets that is 5-10x slower than a tuned
// GEMM (ncu on ResNet-50, bench/results/2026-11-26-h200). cuBLAS ships with
// every CUDA install, so the GPU backend hands it the products, in two
// steps: this pass (on tensors) makes every convolution a matrix product,
// and tfaot-gpu-matmuls-to-cublas (MatmulsToCublas.cpp, on buffers) makes
// every matrix product a cuBLAS call.
//
// tfaot-gpu-convs-to-matmuls runs after the elementwise fusion, which
// would turn the matmul back into a generic, and before bufferization.
// Every f32 linalg.conv_2d_nhwc_hwcf becomes an im2col copy (a parallel
// linalg.generic gathering each output pixel's KHxKWxC window into one row;
// a zero padding before the conv is folded into it) and a linalg.matmul
// with the HWCF filter seen as a (KH*KW*C)xF matrix; a 1x1 stride-1 conv
// needs no copy: its NHWC input already is the (N*H*W)xC matrix.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"
#include "passes/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_CONVSTOMATMULSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// An f32 output from f32 inputs, or (--gpu_conv=cudnn with
/// --precision=fp16|bf16: the convolutions tfaot-gpu-convs-to-cudnn left,
/// which tfaot-gpu-store-half gave 16-bit inputs) from 16-bit ones.
bool hasProductTypes(linalg::Conv2DNhwcHwcfOp conv) {
  Type input = getElementTypeOrSelf(conv.getInputs()[0].getType());
  return getElementTypeOrSelf(conv.getResult(0).getType()).isF32() &&
         input == getElementTypeOrSelf(conv.getInputs()[1].getType()) &&
         (input.isF32() || input.isF16() || input.isBF16());
}

/// Whether `value` is the constant +0.0 (what a zero padding holds).
bool isPositiveZero(Value value) {
  return matchPattern(value, m_PosZeroFloat());
}


/// `input`'s tensor.pad if it pads only H and W, statically, with zeros.
tensor::PadOp zeroSpatialPad(Value input) {
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad)
    return {};
  Value value = pad.getConstantPaddingValue();
  if (!value || !isPositiveZero(value))
    return {};
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  auto sourceType = cast<RankedTensorType>(pad.getSource().getType());
  bool spatialOnly = low.size() == 4 && low[0] == 0 && low[3] == 0 &&
                     high[0] == 0 && high[3] == 0 &&
                     llvm::none_of(low, ShapedType::isDynamic) &&
                     llvm::none_of(high, ShapedType::isDynamic) &&
                     sourceType.hasStaticShape();
  return spatialOnly ? pad : tensor::PadOp();
}

/// The (N*Ho*Wo) x (KH*KW*C) matrix of `conv`'s input windows.
Value buildPatchMatrix(OpBuilder &b, linalg::Conv2DNhwcHwcfOp conv) {
  Location loc = conv.getLoc();
  Value input = conv.getInputs()[0];
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto outputType = cast<RankedTensorType>(conv.getOutputs()[0].getType());
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
  auto dilations = llvm::to_vector(conv.getDilations().getValues<int64_t>());
  bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 &&
                   inputType.getDimSize(1) == outputType.getDimSize(1) &&
                   inputType.getDimSize(2) == outputType.getDimSize(2);
  if (pointwise)
    return tensor::CollapseShapeOp::create(
        b, loc, input, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});

  SmallVector<int64_t> shape = {outputType.getDimSize(0),
                                outputType.getDimSize(1),
                                outputType.getDimSize(2), kh, kw,
                                inputType.getDimSize(3)};
  Value empty =
      tensor::EmptyOp::create(b, loc, shape, inputType.getElementType());
  Value patches;
  if (auto pad = zeroSpatialPad(input)) {
    // The zero padding is read as it goes: no padded copy.
    Value zero = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(inputType.getElementType()));
    patches = mlir::tfaot::buildPaddedPatches(
        b, loc, pad.getSource(), pad.getStaticLow()[1], pad.getStaticLow()[2],
        zero, empty, strides, dilations);
  } else {
    // patches[n, oh, ow, i, j, c] = input[n, oh*sh + i*dh, ow*sw + j*dw, c]
    MLIRContext *context = b.getContext();
    AffineExpr n, oh, ow, i, j, c;
    bindDims(context, n, oh, ow, i, j, c);
    auto readMap = AffineMap::get(6, 0,
                                  {n, oh * strides[0] + i * dilations[0],
                                   ow * strides[1] + j * dilations[1], c},
                                  context);
    patches =
        linalg::GenericOp::create(
            b, loc, empty.getType(), ValueRange{input}, ValueRange{empty},
            ArrayRef<AffineMap>{readMap, b.getMultiDimIdentityMap(6)},
            SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
            [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
              linalg::YieldOp::create(nested, nestedLoc, args[0]);
            })
            .getResult(0);
  }
  return tensor::CollapseShapeOp::create(
      b, loc, patches, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
}

struct ConvsToMatmulsPass
    : mlir::tfaot::impl::ConvsToMatmulsPassBase<ConvsToMatmulsPass> {
  void runOnOperation() override {
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      bool staticShapes = llvm::all_of(conv->getOperands(), [](Value v) {
        auto type = dyn_cast<RankedTensorType>(v.getType());
        return type && type.hasStaticShape();
      });
      if (staticShapes && hasProductTypes(conv))
        convs.push_back(conv);
    });
    for (linalg::Conv2DNhwcHwcfOp conv : convs) {
      OpBuilder b(conv);
      Location loc = conv.getLoc();
      SmallVector<ReassociationIndices> rowsByChannels = {{0, 1, 2}, {3}};
      Value patches = buildPatchMatrix(b, conv);
      Value filter = tensor::CollapseShapeOp::create(
          b, loc, conv.getInputs()[1], rowsByChannels);
      Value init = tensor::CollapseShapeOp::create(b, loc, conv.getOutputs()[0],
                                                   rowsByChannels);
      Value product = linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                               ValueRange{patches, filter},
                                               ValueRange{init})
                          .getResult(0);
      Value result = tensor::ExpandShapeOp::create(
          b, loc, conv.getResult(0).getType(), product, rowsByChannels);
      conv.getResult(0).replaceAllUsesWith(result);
      Operation *input = conv.getInputs()[0].getDefiningOp();
      conv.erase();
      // A padding folded into the im2col (buildPaddedPatches) is dead now;
      // nothing after this pass would remove it before bufferization.
      if (isa_and_nonnull<tensor::PadOp>(input) && input->use_empty())
        input->erase();
    }
  }
};

} // namespace
