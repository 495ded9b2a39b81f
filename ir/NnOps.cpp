//===- NnOps.cpp - Verifiers of the contraction and window ops ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Verifiers of the neural-network ops (NnOps.td): MatMul and BiasAdd,
// the window ops (convolutions and pools, with their int8 forms and the
// int8 matrix products), FusedBatchNorm and RandomUniform; with
// computeWindow2D, the padding rule the importer infers types with.
//
//===----------------------------------------------------------------------===//
#include "ir/OpHelpers.h"
#include "ir/Ops.h"

#include <cmath>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::op_helpers;

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::verify() {
  auto a = getA().getType(), b = getB().getType();
  auto product = getProduct().getType();
  if (a.getRank() != 2 || b.getRank() != 2)
    return emitOpError("operands must be 2-D matrices, got ")
           << a << " and " << b;
  if (product.getRank() != 2)
    return emitOpError("result must be a 2-D matrix, got ") << product;
  int64_t m = a.getDimSize(getTransposeA() ? 1 : 0);
  int64_t ka = a.getDimSize(getTransposeA() ? 0 : 1);
  int64_t kb = b.getDimSize(getTransposeB() ? 1 : 0);
  int64_t n = b.getDimSize(getTransposeB() ? 0 : 1);
  if (!dimsCompatible(ka, kb))
    return emitOpError("inner dimensions do not match: ")
           << a << (getTransposeA() ? " (transposed)" : "") << " times " << b
           << (getTransposeB() ? " (transposed)" : "");
  if (!dimsCompatible(product.getDimSize(0), m) ||
      !dimsCompatible(product.getDimSize(1), n))
    return emitOpError("result type ")
           << product << " does not match the product shape";
  return success();
}

//===----------------------------------------------------------------------===//
// BiasAdd
//===----------------------------------------------------------------------===//

int64_t BiasAddOp::getChannelDim() {
  int64_t rank = getValue().getType().getRank();
  return getDataFormat() == "NCHW" ? (rank >= 3 ? 1 : rank - 1) : rank - 1;
}

LogicalResult BiasAddOp::verify() {
  StringRef format = getDataFormat();
  if (format != "NHWC" && format != "NCHW")
    return emitOpError("data_format must be \"NHWC\" or \"NCHW\", got \"")
           << format << "\"";
  auto value = getValue().getType();
  auto bias = getBias().getType();
  if (value.getRank() < 2)
    return emitOpError("value must have rank >= 2, got ") << value;
  if (bias.getRank() != 1)
    return emitOpError("bias must be 1-D, got ") << bias;
  int64_t channels = value.getDimSize(getChannelDim());
  if (!dimsCompatible(channels, bias.getDimSize(0)))
    return emitOpError("bias has ")
           << bias.getDimSize(0) << " elements but value has " << channels
           << " channels (" << format << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Window ops: Conv2D, DepthwiseConv2dNative, MaxPool, AvgPool
//===----------------------------------------------------------------------===//

SmallVector<int64_t> mlir::tfaot::getI64Values(ArrayAttr attr) {
  SmallVector<int64_t> values;
  for (Attribute a : attr)
    values.push_back(cast<IntegerAttr>(a).getInt());
  return values;
}

/// One spatial dimension under TF's padding rules.
static LogicalResult windowDim(int64_t in, int64_t window, int64_t stride,
                               int64_t dilation, StringRef padding,
                               int64_t explicitBefore, int64_t explicitAfter,
                               int64_t &out, int64_t &before, int64_t &after) {
  int64_t effective = (window - 1) * dilation + 1;
  if (padding == "SAME") {
    out = (in + stride - 1) / stride;
    int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
    before = total / 2; // TF puts the odd element after.
    after = total - before;
  } else {
    before = padding == "EXPLICIT" ? explicitBefore : 0;
    after = padding == "EXPLICIT" ? explicitAfter : 0;
    int64_t padded = in + before + after;
    if (padded < effective)
      return failure();
    out = (padded - effective) / stride + 1;
  }
  return success();
}

FailureOr<Window2D> mlir::tfaot::computeWindow2D(
    ArrayRef<int64_t> inputShape, StringRef dataFormat, int64_t windowH,
    int64_t windowW, ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
    StringRef padding, ArrayRef<int64_t> explicitPaddings,
    int64_t outChannels, std::string &why) {
  Window2D w;
  if (dataFormat == "NCHW") {
    w.channelDim = 1;
    w.heightDim = 2;
    w.widthDim = 3;
  } else if (dataFormat != "NHWC") {
    why = "data_format must be \"NHWC\" or \"NCHW\", got \"" +
          dataFormat.str() + "\"";
    return failure();
  }
  if (inputShape.size() != 4) {
    why = "input must have rank 4, got rank " +
          std::to_string(inputShape.size());
    return failure();
  }
  if (strides.size() != 4 || dilations.size() != 4) {
    why = "strides and dilations must have 4 elements";
    return failure();
  }
  int64_t batchDim = 0;
  if (strides[batchDim] != 1 || strides[w.channelDim] != 1 ||
      dilations[batchDim] != 1 || dilations[w.channelDim] != 1) {
    why = "strides and dilations must be 1 in the batch and channel dimensions";
    return failure();
  }
  for (int64_t v : llvm::concat<const int64_t>(strides, dilations))
    if (v < 1) {
      why = "strides and dilations must be positive";
      return failure();
    }
  if (padding != "SAME" && padding != "VALID" && padding != "EXPLICIT") {
    why = "padding must be \"SAME\", \"VALID\" or \"EXPLICIT\", got \"" +
          padding.str() + "\"";
    return failure();
  }
  if (padding == "EXPLICIT" && explicitPaddings.size() != 8) {
    why = "EXPLICIT padding needs 8 explicit_paddings, got " +
          std::to_string(explicitPaddings.size());
    return failure();
  }
  auto explicitAt = [&](int64_t dim, int side) -> int64_t {
    return padding == "EXPLICIT" ? explicitPaddings[2 * dim + side] : 0;
  };
  int64_t outH, outW;
  if (failed(windowDim(inputShape[w.heightDim], windowH, strides[w.heightDim],
                       dilations[w.heightDim], padding,
                       explicitAt(w.heightDim, 0), explicitAt(w.heightDim, 1),
                       outH, w.padTop, w.padBottom)) ||
      failed(windowDim(inputShape[w.widthDim], windowW, strides[w.widthDim],
                       dilations[w.widthDim], padding,
                       explicitAt(w.widthDim, 0), explicitAt(w.widthDim, 1),
                       outW, w.padLeft, w.padRight))) {
    why = "the window is larger than the padded input";
    return failure();
  }
  w.outputShape.assign(4, 0);
  w.outputShape[batchDim] = inputShape[batchDim];
  w.outputShape[w.channelDim] = outChannels;
  w.outputShape[w.heightDim] = outH;
  w.outputShape[w.widthDim] = outW;
  return w;
}

/// Checks a window op's result type against computeWindow2D.
static LogicalResult verifyWindowOp(Operation *op, int64_t windowH,
                                    int64_t windowW, int64_t outChannels,
                                    ArrayAttr dilations) {
  auto input = cast<RankedTensorType>(op->getOperand(0).getType());
  auto output = cast<RankedTensorType>(op->getResult(0).getType());
  if (!input.hasStaticShape())
    return success();
  std::string why;
  auto strides = getI64Values(op->getAttrOfType<ArrayAttr>("strides"));
  SmallVector<int64_t> dil =
      dilations ? getI64Values(dilations) : SmallVector<int64_t>{1, 1, 1, 1};
  auto window = computeWindow2D(
      input.getShape(), op->getAttrOfType<StringAttr>("data_format").getValue(),
      windowH, windowW, strides, dil,
      op->getAttrOfType<StringAttr>("padding").getValue(),
      getI64Values(op->getAttrOfType<ArrayAttr>("explicit_paddings")),
      outChannels, why);
  if (failed(window))
    return op->emitOpError(why);
  for (auto [want, got] : llvm::zip(window->outputShape, output.getShape()))
    if (!dimsCompatible(want, got))
      return op->emitOpError("result type ")
             << output << " does not match the computed output shape";
  return success();
}

/// The filter's [H, W, in, out-or-multiplier] dims, checked against input.
static LogicalResult verifyFilter(Operation *op, int64_t inputChannels) {
  auto filter = cast<RankedTensorType>(op->getOperand(1).getType());
  if (filter.getRank() != 4)
    return op->emitOpError("filter must have rank 4, got ") << filter;
  if (!dimsCompatible(filter.getDimSize(2), inputChannels))
    return op->emitOpError("filter has ")
           << filter.getDimSize(2) << " input channels but the input has "
           << inputChannels;
  return success();
}

static int64_t channelsOf(RankedTensorType input, StringRef dataFormat) {
  if (input.getRank() != 4)
    return ShapedType::kDynamic;
  return input.getDimSize(dataFormat == "NCHW" ? 1 : 3);
}

LogicalResult Conv2DOp::verify() {
  auto input = getInput().getType();
  if (input.getRank() != 4)
    return emitOpError("input must have rank 4, got ") << input;
  if (failed(verifyFilter(*this, channelsOf(input, getDataFormat()))))
    return failure();
  auto filter = getFilter().getType();
  return verifyWindowOp(*this, filter.getDimSize(0), filter.getDimSize(1),
                        filter.getDimSize(3), getDilations());
}

/// What the int8 convolutions check before their window: a rank-4 NHWC
/// input whose channels the filter takes.
template <typename Int8ConvOp>
static LogicalResult verifyInt8ConvInput(Int8ConvOp op) {
  auto input = op.getInput().getType();
  if (input.getRank() != 4)
    return op.emitOpError("input must have rank 4, got ") << input;
  if (op.getDataFormat() != "NHWC")
    return op.emitOpError("takes NHWC only, got ") << op.getDataFormat();
  return verifyFilter(op, channelsOf(input, op.getDataFormat()));
}

LogicalResult Int8Conv2DOp::verify() {
  if (failed(verifyInt8ConvInput(*this)))
    return failure();
  auto filter = getFilter().getType();
  return verifyWindowOp(*this, filter.getDimSize(0), filter.getDimSize(1),
                        filter.getDimSize(3), getDilations());
}

LogicalResult Int8DepthwiseConv2DOp::verify() {
  if (failed(verifyInt8ConvInput(*this)))
    return failure();
  auto filter = getFilter().getType();
  if (filter.getDimSize(3) != 1)
    return emitOpError("takes channel multiplier 1 only, got filter ")
           << filter;
  return verifyWindowOp(*this, filter.getDimSize(0), filter.getDimSize(1),
                        filter.getDimSize(2), getDilations());
}

/// a [m, k] x b [k, n] -> product [m, n], all 2-D.
static LogicalResult verifyMatrixProduct(Operation *op, RankedTensorType a,
                                         RankedTensorType b,
                                         RankedTensorType product) {
  if (a.getRank() != 2 || b.getRank() != 2 || product.getRank() != 2)
    return op->emitOpError("takes and returns 2-D tensors");
  if (!dimsCompatible(a.getDimSize(1), b.getDimSize(0)) ||
      !dimsCompatible(product.getDimSize(0), a.getDimSize(0)) ||
      !dimsCompatible(product.getDimSize(1), b.getDimSize(1)))
    return op->emitOpError("shapes ")
           << a << " x " << b << " -> " << product << " do not agree";
  return success();
}

LogicalResult Int8MatMulOp::verify() {
  return verifyMatrixProduct(*this, getA().getType(), getB().getType(),
                             getProduct().getType());
}

LogicalResult Int8WeightMatMulOp::verify() {
  return verifyMatrixProduct(*this, getA().getType(), getB().getType(),
                             getProduct().getType());
}

LogicalResult DepthwiseConv2dNativeOp::verify() {
  auto input = getInput().getType();
  if (input.getRank() != 4)
    return emitOpError("input must have rank 4, got ") << input;
  if (failed(verifyFilter(*this, channelsOf(input, getDataFormat()))))
    return failure();
  auto filter = getFilter().getType();
  return verifyWindowOp(*this, filter.getDimSize(0), filter.getDimSize(1),
                        filter.getDimSize(2) * filter.getDimSize(3),
                        getDilations());
}

/// Pools: ksize must be 1 in batch and channel dimensions.
template <typename PoolOp>
static LogicalResult verifyPool(PoolOp op) {
  auto input = op.getInput().getType();
  if (input.getRank() != 4)
    return op.emitOpError("input must have rank 4, got ") << input;
  auto ksize = getI64Values(op.getKsize());
  int64_t c = op.getDataFormat() == "NCHW" ? 1 : 3;
  int64_t h = op.getDataFormat() == "NCHW" ? 2 : 1;
  if (ksize.size() != 4 || ksize[0] != 1 || ksize[c] != 1)
    return op.emitOpError(
        "ksize must have 4 elements, 1 in the batch and channel dimensions");
  return verifyWindowOp(op, ksize[h], ksize[h + 1],
                        channelsOf(input, op.getDataFormat()), nullptr);
}

LogicalResult MaxPoolOp::verify() { return verifyPool(*this); }
LogicalResult AvgPoolOp::verify() { return verifyPool(*this); }

//===----------------------------------------------------------------------===//
// FusedBatchNorm, RandomUniform
//===----------------------------------------------------------------------===//

int64_t FusedBatchNormOp::getChannelDim() {
  return getDataFormat() == "NCHW" ? 1 : getX().getType().getRank() - 1;
}

LogicalResult FusedBatchNormOp::verify() {
  if (getIsTraining())
    return emitOpError("is_training = true is not supported: tfaot compiles "
                       "inference graphs, which normalize with the stored "
                       "mean and variance");
  StringRef format = getDataFormat();
  if (format != "NHWC" && format != "NCHW")
    return emitOpError("data_format must be \"NHWC\" or \"NCHW\", got \"")
           << format << "\"";
  auto x = getX().getType();
  if (x.getRank() != 4)
    return emitOpError("x must have rank 4, got ") << x;
  int64_t channels = x.getDimSize(getChannelDim());
  for (Value param : {getScale(), getOffset(), getMean(), getVariance()}) {
    auto type = cast<RankedTensorType>(param.getType());
    if (type.getRank() != 1 || !dimsCompatible(type.getDimSize(0), channels))
      return emitOpError("scale, offset, mean and variance must be 1-D with ")
             << channels << " elements (the channels of x in " << format
             << "), got " << type;
  }
  return success();
}

LogicalResult RandomUniformOp::verify() {
  if (auto shape = getConstantIntValues(getShape()))
    return checkResultShape(*this, *shape, getOutput().getType());
  return success();
}
