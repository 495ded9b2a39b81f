//===- Ops.cpp - tfaot dialect operations -----------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Verifiers and folders of the tfaot ops. Verifiers reject what TensorFlow
// itself would reject when the graph is built (shape and attribute errors), so
// a malformed graph fails at import with the node named. Dynamic dimensions
// are accepted wherever the static check cannot decide.
//
//===----------------------------------------------------------------------===//
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

//===----------------------------------------------------------------------===//
// Shape helpers
//===----------------------------------------------------------------------===//

LogicalResult mlir::tfaot::broadcastShapes(ArrayRef<int64_t> a,
                                           ArrayRef<int64_t> b,
                                           SmallVectorImpl<int64_t> &result) {
  size_t rank = std::max(a.size(), b.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right, as NumPy does.
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == 1) {
      result[i] = db;
    } else if (db == 1) {
      result[i] = da;
    } else if (ShapedType::isDynamic(da)) {
      result[i] = db;
    } else if (ShapedType::isDynamic(db) || da == db) {
      result[i] = da;
    } else {
      return failure();
    }
  }
  return success();
}

LogicalResult mlir::tfaot::resolveReshape(int64_t numElements,
                                          ArrayRef<int64_t> requested,
                                          SmallVectorImpl<int64_t> &result,
                                          std::string &why) {
  result.assign(requested.begin(), requested.end());
  int64_t known = 1;
  int inferred = -1;
  for (auto [i, d] : llvm::enumerate(requested)) {
    if (d == -1) {
      if (inferred >= 0) {
        why = "only one dimension of the new shape may be -1";
        return failure();
      }
      inferred = i;
    } else if (d < 0) {
      why = "new shape has a negative dimension " + std::to_string(d);
      return failure();
    } else if (llvm::MulOverflow(known, d, known)) {
      // Shapes come from graph files: a product past int64 is an error,
      // not undefined behavior.
      why = "new shape has more elements than int64 can count";
      return failure();
    }
  }
  if (inferred >= 0) {
    if (known == 0 || numElements % known != 0) {
      why = "cannot infer the -1 dimension: " + std::to_string(numElements) +
            " elements are not a multiple of " + std::to_string(known);
      return failure();
    }
    result[inferred] = numElements / known;
    return success();
  }
  if (known != numElements) {
    why = "new shape has " + std::to_string(known) +
          " elements but the input has " + std::to_string(numElements);
    return failure();
  }
  return success();
}

std::optional<SmallVector<int64_t>>
mlir::tfaot::getConstantIntValues(Value value) {
  while (auto identity = value.getDefiningOp<IdentityOp>())
    value = identity.getInput();
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : attr.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

/// Checks that two dimensions agree when both are static.
static bool dimsCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

//===----------------------------------------------------------------------===//
// Const / Identity
//===----------------------------------------------------------------------===//

LogicalResult ConstOp::verify() {
  auto valueType = cast<ShapedType>(getValue().getType());
  if (valueType != getOutput().getType())
    return emitOpError("value type ")
           << valueType << " does not match result type "
           << getOutput().getType();
  return success();
}

OpFoldResult ConstOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) { return getInput(); }

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

/// Shared verifier: operands broadcast to the result shape.
static LogicalResult verifyBroadcastingBinaryOp(Operation *op) {
  auto x = cast<RankedTensorType>(op->getOperand(0).getType());
  auto y = cast<RankedTensorType>(op->getOperand(1).getType());
  auto z = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(x.getShape(), y.getShape(), shape)))
    return op->emitOpError("operand shapes ")
           << x << " and " << y << " are not broadcast-compatible";
  if (shape.size() != static_cast<size_t>(z.getRank()))
    return op->emitOpError("result rank ")
           << z.getRank() << " differs from the broadcast rank "
           << shape.size();
  for (auto [want, got] : llvm::zip(shape, z.getShape()))
    if (!dimsCompatible(want, got))
      return op->emitOpError("result type ")
             << z << " does not match the broadcast of " << x << " and " << y;
  return success();
}

#define TFAOT_BINARY_VERIFIER(OP)                                              \
  LogicalResult OP::verify() { return verifyBroadcastingBinaryOp(*this); }
TFAOT_BINARY_VERIFIER(AddOp)
TFAOT_BINARY_VERIFIER(AddV2Op)
TFAOT_BINARY_VERIFIER(SubOp)
TFAOT_BINARY_VERIFIER(MulOp)
TFAOT_BINARY_VERIFIER(RealDivOp)
TFAOT_BINARY_VERIFIER(MaximumOp)
TFAOT_BINARY_VERIFIER(MinimumOp)
TFAOT_BINARY_VERIFIER(SquaredDifferenceOp)
TFAOT_BINARY_VERIFIER(FloorDivOp)
TFAOT_BINARY_VERIFIER(FloorModOp)
TFAOT_BINARY_VERIFIER(PowOp)
TFAOT_BINARY_VERIFIER(Atan2Op)
#undef TFAOT_BINARY_VERIFIER

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  if (getLogits().getType().getRank() < 1)
    return emitOpError("logits must have rank >= 1, got a scalar");
  return success();
}

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
// Reshape
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto input = getTensor().getType();
  auto shapeType = getShape().getType();
  auto output = getOutput().getType();
  if (shapeType.getRank() != 1)
    return emitOpError("shape must be a 1-D tensor, got ") << shapeType;
  if (!shapeType.isDynamicDim(0) && shapeType.getDimSize(0) != output.getRank())
    return emitOpError("shape has ")
           << shapeType.getDimSize(0) << " elements but the result has rank "
           << output.getRank();
  if (input.hasStaticShape() && output.hasStaticShape() &&
      input.getNumElements() != output.getNumElements())
    return emitOpError("cannot reshape ")
           << input.getNumElements() << " elements into " << output;
  if (auto requested = getConstantIntValues(getShape())) {
    if (input.hasStaticShape()) {
      SmallVector<int64_t> resolved;
      std::string why;
      if (failed(resolveReshape(input.getNumElements(), *requested, resolved,
                                why)))
        return emitOpError(why);
      for (auto [want, got] : llvm::zip(resolved, output.getShape()))
        if (!dimsCompatible(want, got))
          return emitOpError("result type ")
                 << output << " does not match the constant shape operand";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ArgMax
//===----------------------------------------------------------------------===//

LogicalResult ArgMaxOp::verify() {
  auto input = getInput().getType();
  auto output = getOutput().getType();
  if (getDimension().getType().getRank() > 1 ||
      (getDimension().getType().getRank() == 1 &&
       getDimension().getType().getDimSize(0) != 1))
    return emitOpError("dimension must be a scalar, got ")
           << getDimension().getType();
  if (input.getRank() < 1)
    return emitOpError("input must have rank >= 1, got a scalar");
  if (output.getRank() != input.getRank() - 1)
    return emitOpError("result must have rank ")
           << input.getRank() - 1 << ", got " << output;
  if (auto dim = getConstantIntValues(getDimension())) {
    int64_t axis = (*dim)[0];
    if (axis < -input.getRank() || axis >= input.getRank())
      return emitOpError("dimension ")
             << axis << " is out of range for input of rank "
             << input.getRank();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto x = getX().getType(), y = getY().getType();
  if (x.getRank() != y.getRank())
    return emitOpError("result rank differs from the input rank");
  for (auto [a, b] : llvm::zip(x.getShape(), y.getShape()))
    if (!dimsCompatible(a, b))
      return emitOpError("result shape ") << y << " differs from " << x;
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
// StridedSlice
//===----------------------------------------------------------------------===//

FailureOr<StridedSliceSpec> mlir::tfaot::computeStridedSlice(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> begin,
    ArrayRef<int64_t> end, ArrayRef<int64_t> strides, int64_t beginMask,
    int64_t endMask, int64_t ellipsisMask, int64_t newAxisMask,
    int64_t shrinkAxisMask, std::string &why) {
  size_t n = begin.size();
  if (end.size() != n || strides.size() != n) {
    why = "begin, end and strides must have the same length";
    return failure();
  }
  if (llvm::popcount(static_cast<uint64_t>(ellipsisMask)) > 1) {
    why = "at most one ellipsis is allowed";
    return failure();
  }
  int64_t rank = inputShape.size();
  // Sparse spec -> one entry per input dimension (TF's BuildDenseSpec).
  // `outputDims` lists, in order, either an input dimension that survives
  // or -1 for a new axis.
  StridedSliceSpec spec;
  SmallVector<int64_t> outputDims;
  SmallVector<bool> shrink(rank, false);
  auto bit = [](int64_t mask, size_t i) { return (mask >> i) & 1; };
  bool sawEllipsis = false;
  int64_t dim = 0;
  auto fullDim = [&](int64_t d) {
    spec.offsets.push_back(0);
    spec.sizes.push_back(inputShape[d]);
    spec.strides.push_back(1);
    outputDims.push_back(d);
  };
  for (size_t i = 0; i < n; ++i) {
    if (bit(ellipsisMask, i)) {
      sawEllipsis = true;
      int64_t newAxesAfter = 0, slicedAfter = 0;
      for (size_t j = i + 1; j < n; ++j)
        bit(newAxisMask, j) ? ++newAxesAfter : ++slicedAfter;
      (void)newAxesAfter;
      for (int64_t stop = rank - slicedAfter; dim < stop; ++dim)
        fullDim(dim);
      continue;
    }
    if (bit(newAxisMask, i)) {
      outputDims.push_back(-1);
      continue;
    }
    if (dim >= rank) {
      why = "the slice has more entries than the input has dimensions";
      return failure();
    }
    int64_t size = inputShape[dim];
    int64_t stride = strides[i];
    if (stride == 0) {
      why = "strides must not be 0";
      return failure();
    }
    if (stride < 0) {
      why = "negative strides are not supported yet";
      return failure();
    }
    auto wrap = [&](int64_t v) { return v < 0 ? v + size : v; };
    if (bit(shrinkAxisMask, i)) {
      int64_t index = wrap(begin[i]);
      if (index < 0 || index >= size) {
        why = "index " + std::to_string(begin[i]) + " is out of range for a "
              "dimension of size " + std::to_string(size);
        return failure();
      }
      spec.offsets.push_back(index);
      spec.sizes.push_back(1);
      spec.strides.push_back(1);
      shrink[dim] = true;
      ++dim;
      continue;
    }
    int64_t b = bit(beginMask, i) ? 0 : std::clamp<int64_t>(wrap(begin[i]), 0, size);
    int64_t e = bit(endMask, i) ? size : std::clamp<int64_t>(wrap(end[i]), 0, size);
    int64_t count = e > b ? (e - b + stride - 1) / stride : 0;
    spec.offsets.push_back(count ? b : 0);
    spec.sizes.push_back(count);
    spec.strides.push_back(stride);
    outputDims.push_back(dim);
    ++dim;
  }
  (void)sawEllipsis;
  for (; dim < rank; ++dim) // An implicit ellipsis at the end.
    fullDim(dim);
  for (int64_t d : outputDims)
    spec.outputShape.push_back(d < 0 ? 1 : spec.sizes[d]);
  return spec;
}

//===----------------------------------------------------------------------===//
// Prelu, AddN, ConcatV2
//===----------------------------------------------------------------------===//

LogicalResult PreluOp::verify() {
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(getX().getType().getShape(),
                             getAlpha().getType().getShape(), shape)) ||
      shape.size() != static_cast<size_t>(getX().getType().getRank()))
    return emitOpError("alpha ")
           << getAlpha().getType() << " does not broadcast to x "
           << getX().getType();
  return success();
}

LogicalResult AddNOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  return success();
}

LogicalResult ConcatV2Op::verify() {
  if (getValues().empty())
    return emitOpError("needs at least one value to concatenate");
  int64_t rank = cast<RankedTensorType>(getValues()[0].getType()).getRank();
  for (Value v : getValues())
    if (cast<RankedTensorType>(v.getType()).getRank() != rank)
      return emitOpError("all values must have the same rank");
  if (auto axis = getConstantIntValues(getAxis())) {
    if (axis->size() != 1 || (*axis)[0] < -rank || (*axis)[0] >= rank)
      return emitOpError("axis is out of range for rank ") << rank;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Folders: constant shape arithmetic
//
// Real graphs compute shapes (Shape -> StridedSlice -> Pack -> Reshape); with
// static shapes every step is a constant, and folding them lets the importer
// treat the result like a written-out shape. Only integer data is folded:
// float math stays in the generated code, where it is rounded the same way
// as at run time.
//===----------------------------------------------------------------------===//

/// The values of an integer constant as int64, or nullopt.
static std::optional<SmallVector<int64_t>> intValues(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(dense.getElementType().isUnsignedInteger()
                         ? int64_t(v.getZExtValue())
                         : v.getSExtValue());
  return values;
}

/// Builds an integer constant of `type` from int64 values.
static Attribute intAttr(ShapedType type, ArrayRef<int64_t> values) {
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  return DenseElementsAttr::get(type, ints);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  auto input = dyn_cast_or_null<DenseElementsAttr>(adaptor.getTensor());
  if (!input || !getOutput().getType().hasStaticShape())
    return {};
  return input.reshape(getOutput().getType());
}

OpFoldResult ConcatV2Op::fold(FoldAdaptor adaptor) {
  // Along axis 0, concatenation is appending the row-major element lists.
  auto axis = intValues(adaptor.getAxis());
  auto type = getOutput().getType();
  if (!axis || (*axis)[0] != 0 || !type.hasStaticShape() ||
      !type.getElementType().isIntOrIndex())
    return {};
  SmallVector<int64_t> all;
  for (Attribute value : adaptor.getValues()) {
    auto values = intValues(value);
    if (!values)
      return {};
    all.append(values->begin(), values->end());
  }
  return intAttr(type, all);
}

OpFoldResult StridedSliceOp::fold(FoldAdaptor adaptor) {
  auto input = intValues(adaptor.getInput());
  auto begin = intValues(adaptor.getBegin());
  auto end = intValues(adaptor.getEnd());
  auto strides = intValues(adaptor.getStrides());
  auto inputType = getInput().getType();
  if (!input || !begin || !end || !strides || !inputType.hasStaticShape())
    return {};
  std::string why;
  auto spec = computeStridedSlice(inputType.getShape(), *begin, *end, *strides,
                                  getBeginMask(), getEndMask(),
                                  getEllipsisMask(), getNewAxisMask(),
                                  getShrinkAxisMask(), why);
  if (failed(spec))
    return {};
  // Walk the slice in row-major order, which is also the output's order.
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> inputStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inputStrides[d] = inputStrides[d + 1] * inputType.getDimSize(d + 1);
  int64_t count = 1;
  for (int64_t size : spec->sizes)
    count *= size;
  SmallVector<int64_t> values, index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += (spec->offsets[d] + index[d] * spec->strides[d]) * inputStrides[d];
    values.push_back((*input)[flat]);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == spec->sizes[d]; --d)
      index[d] = 0;
  }
  return intAttr(getOutput().getType(), values);
}

/// Folds an integer binary op whose operands are constants of the result's
/// shape or scalars.
static OpFoldResult foldIntegerBinary(
    Operation *op, Attribute x, Attribute y,
    function_ref<std::optional<int64_t>(int64_t, int64_t)> compute) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto a = intValues(x), b = intValues(y);
  if (!a || !b || !type.hasStaticShape() || type.getElementType().isInteger(1))
    return {};
  int64_t n = type.getNumElements();
  if (((int64_t)a->size() != n && a->size() != 1) ||
      ((int64_t)b->size() != n && b->size() != 1))
    return {};
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < n; ++i) {
    auto v = compute((*a)[a->size() == 1 ? 0 : i], (*b)[b->size() == 1 ? 0 : i]);
    if (!v)
      return {};
    values.push_back(*v);
  }
  return intAttr(type, values);
}

OpFoldResult AddOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) { return std::optional(x + y); });
}
OpFoldResult AddV2Op::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) { return std::optional(x + y); });
}
OpFoldResult SubOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) { return std::optional(x - y); });
}
OpFoldResult MulOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) { return std::optional(x * y); });
}
OpFoldResult RealDivOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) -> std::optional<int64_t> {
                             if (y == 0)
                               return std::nullopt;
                             return x / y; // C++ and TF both truncate.
                           });
}
OpFoldResult MaximumOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) { return std::optional(std::max(x, y)); });
}
OpFoldResult MinimumOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) { return std::optional(std::min(x, y)); });
}
OpFoldResult FloorDivOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) -> std::optional<int64_t> {
                             if (y == 0)
                               return std::nullopt;
                             int64_t q = x / y;
                             return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
                           });
}
OpFoldResult FloorModOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) -> std::optional<int64_t> {
                             if (y == 0)
                               return std::nullopt;
                             int64_t r = x % y;
                             return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
                           });
}
OpFoldResult PowOp::fold(FoldAdaptor) { return {}; }
OpFoldResult Atan2Op::fold(FoldAdaptor) { return {}; }
OpFoldResult SquaredDifferenceOp::fold(FoldAdaptor a) {
  return foldIntegerBinary(*this, a.getX(), a.getY(),
                           [](int64_t x, int64_t y) { return std::optional((x - y) * (x - y)); });
}

//===----------------------------------------------------------------------===//
// Data movement: Slice, MirrorPad, BroadcastTo, OneHot, SpaceToBatchND,
// BatchToSpaceND; TopKV2
//
// The shape rules live in free functions so that the importer infers result
// types with exactly the checks the verifiers apply.
//===----------------------------------------------------------------------===//

LogicalResult mlir::tfaot::resolveSlice(ArrayRef<int64_t> inputShape,
                                        ArrayRef<int64_t> begin,
                                        ArrayRef<int64_t> size,
                                        SmallVectorImpl<int64_t> &sizes,
                                        std::string &why) {
  size_t rank = inputShape.size();
  if (begin.size() != rank || size.size() != rank) {
    why = "begin and size must have one entry per input dimension (" +
          std::to_string(rank) + "), got " + std::to_string(begin.size()) +
          " and " + std::to_string(size.size());
    return failure();
  }
  sizes.clear();
  for (size_t d = 0; d < rank; ++d) {
    int64_t dim = inputShape[d], b = begin[d], s = size[d];
    if (b < 0 || b > dim) {
      why = "begin " + std::to_string(b) + " is out of range for dimension " +
            std::to_string(d) + " of size " + std::to_string(dim);
      return failure();
    }
    if (s == -1)
      s = dim - b;
    if (s < 0 || b + s > dim) {
      why = "size " + std::to_string(size[d]) + " from begin " +
            std::to_string(b) + " does not fit dimension " + std::to_string(d) +
            " of size " + std::to_string(dim);
      return failure();
    }
    sizes.push_back(s);
  }
  return success();
}

LogicalResult mlir::tfaot::computeMirrorPad(ArrayRef<int64_t> inputShape,
                                            ArrayRef<int64_t> paddings,
                                            StringRef mode,
                                            SmallVectorImpl<int64_t> &shape,
                                            std::string &why) {
  if (mode != "REFLECT" && mode != "SYMMETRIC") {
    why = "mode must be \"REFLECT\" or \"SYMMETRIC\", got \"" + mode.str() +
          "\"";
    return failure();
  }
  size_t rank = inputShape.size();
  if (paddings.size() != 2 * rank) {
    why = "paddings must be [" + std::to_string(rank) + ", 2]";
    return failure();
  }
  // REFLECT does not repeat the edge element, so it has one fewer to
  // mirror.
  int64_t slack = mode == "REFLECT" ? 1 : 0;
  shape.clear();
  for (size_t d = 0; d < rank; ++d) {
    int64_t before = paddings[2 * d], after = paddings[2 * d + 1];
    int64_t limit = inputShape[d] - slack;
    if (before < 0 || after < 0 || before > limit || after > limit) {
      why = "paddings of dimension " + std::to_string(d) + " (" +
            std::to_string(before) + ", " + std::to_string(after) +
            ") must be in [0, " + std::to_string(limit) + "] in " + mode.str() +
            " mode for a dimension of size " + std::to_string(inputShape[d]);
      return failure();
    }
    shape.push_back(inputShape[d] + before + after);
  }
  return success();
}

/// Checks a block_shape and its [M, 2] companion against an input shape.
static LogicalResult checkBlocks(ArrayRef<int64_t> inputShape,
                                 ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> pairs, StringRef pairName,
                                 std::string &why) {
  size_t m = block.size();
  if (m < 1 || m + 1 > inputShape.size()) {
    why = "block_shape must have between 1 and rank - 1 = " +
          std::to_string(int64_t(inputShape.size()) - 1) + " entries, got " +
          std::to_string(m);
    return failure();
  }
  if (pairs.size() != 2 * m) {
    why = pairName.str() + " must be [" + std::to_string(m) + ", 2]";
    return failure();
  }
  for (int64_t b : block)
    if (b < 1) {
      why = "block_shape entries must be >= 1";
      return failure();
    }
  for (int64_t p : pairs)
    if (p < 0) {
      why = pairName.str() + " must not be negative";
      return failure();
    }
  return success();
}

LogicalResult mlir::tfaot::computeSpaceToBatch(ArrayRef<int64_t> inputShape,
                                               ArrayRef<int64_t> block,
                                               ArrayRef<int64_t> paddings,
                                               SmallVectorImpl<int64_t> &shape,
                                               std::string &why) {
  if (failed(checkBlocks(inputShape, block, paddings, "paddings", why)))
    return failure();
  shape.assign(inputShape.begin(), inputShape.end());
  for (size_t i = 0; i < block.size(); ++i) {
    int64_t padded = inputShape[i + 1] + paddings[2 * i] + paddings[2 * i + 1];
    if (padded % block[i] != 0) {
      why = "padded spatial dimension " + std::to_string(i + 1) + " (" +
            std::to_string(padded) + ") is not a multiple of block size " +
            std::to_string(block[i]);
      return failure();
    }
    shape[i + 1] = padded / block[i];
    shape[0] *= block[i];
  }
  return success();
}

LogicalResult mlir::tfaot::computeBatchToSpace(ArrayRef<int64_t> inputShape,
                                               ArrayRef<int64_t> block,
                                               ArrayRef<int64_t> crops,
                                               SmallVectorImpl<int64_t> &shape,
                                               std::string &why) {
  if (failed(checkBlocks(inputShape, block, crops, "crops", why)))
    return failure();
  int64_t blocks = 1;
  for (int64_t b : block)
    blocks *= b;
  if (inputShape[0] % blocks != 0) {
    why = "batch " + std::to_string(inputShape[0]) +
          " is not a multiple of the block count " + std::to_string(blocks);
    return failure();
  }
  shape.assign(inputShape.begin(), inputShape.end());
  shape[0] = inputShape[0] / blocks;
  for (size_t i = 0; i < block.size(); ++i) {
    int64_t full = inputShape[i + 1] * block[i];
    int64_t cropped = full - crops[2 * i] - crops[2 * i + 1];
    if (cropped < 0) {
      why = "crops of spatial dimension " + std::to_string(i + 1) +
            " remove more than its " + std::to_string(full) + " elements";
      return failure();
    }
    shape[i + 1] = cropped;
  }
  return success();
}

/// Compares a computed shape with a result type.
static LogicalResult checkResultShape(Operation *op, ArrayRef<int64_t> want,
                                      RankedTensorType got) {
  if (want.size() != size_t(got.getRank()) ||
      !llvm::all_of(llvm::zip(want, got.getShape()), [](auto pair) {
        return dimsCompatible(std::get<0>(pair), std::get<1>(pair));
      })) {
    std::string shape;
    llvm::raw_string_ostream os(shape);
    llvm::interleave(want, os, "x");
    return op->emitOpError("result type ")
           << got << " does not match the computed shape [" << shape << "]";
  }
  return success();
}

LogicalResult SliceOp::verify() {
  auto input = getInput().getType();
  auto begin = getConstantIntValues(getBegin());
  auto size = getConstantIntValues(getSize());
  if (!begin || !size || !input.hasStaticShape())
    return success();
  SmallVector<int64_t> sizes;
  std::string why;
  if (failed(resolveSlice(input.getShape(), *begin, *size, sizes, why)))
    return emitOpError(why);
  return checkResultShape(*this, sizes, getOutput().getType());
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto input = intValues(adaptor.getInput());
  auto begin = intValues(adaptor.getBegin());
  auto size = intValues(adaptor.getSize());
  auto type = getInput().getType();
  if (!input || !begin || !size || !type.hasStaticShape())
    return {};
  SmallVector<int64_t> sizes;
  std::string why;
  if (failed(resolveSlice(type.getShape(), *begin, *size, sizes, why)))
    return {};
  int64_t rank = type.getRank(), count = 1;
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  for (int64_t s : sizes)
    count *= s;
  SmallVector<int64_t> values, index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += ((*begin)[d] + index[d]) * strides[d];
    values.push_back((*input)[flat]);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == sizes[d]; --d)
      index[d] = 0;
  }
  return intAttr(getOutput().getType(), values);
}

LogicalResult MirrorPadOp::verify() {
  StringRef mode = getMode();
  if (mode != "REFLECT" && mode != "SYMMETRIC")
    return emitOpError("mode must be \"REFLECT\" or \"SYMMETRIC\", got \"")
           << mode << "\"";
  auto input = getInput().getType();
  auto paddings = getConstantIntValues(getPaddings());
  if (!paddings || !input.hasStaticShape())
    return success();
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(computeMirrorPad(input.getShape(), *paddings, mode, shape, why)))
    return emitOpError(why);
  return checkResultShape(*this, shape, getOutput().getType());
}

LogicalResult BroadcastToOp::verify() {
  auto input = getInput().getType(), output = getOutput().getType();
  SmallVector<int64_t> shape;
  if (input.getRank() > output.getRank() ||
      failed(broadcastShapes(input.getShape(), output.getShape(), shape)) ||
      failed(checkResultShape(*this, shape, output)))
    return emitOpError("cannot broadcast ") << input << " to " << output;
  if (auto requested = getConstantIntValues(getShape()))
    return checkResultShape(*this, *requested, output);
  return success();
}

LogicalResult OneHotOp::verify() {
  auto indices = getIndices().getType(), output = getOutput().getType();
  if (output.getRank() != indices.getRank() + 1)
    return emitOpError("result must have rank ")
           << indices.getRank() + 1 << " (the indices' plus one), got "
           << output;
  int64_t axis = getAxis();
  if (axis < -1 || axis > indices.getRank())
    return emitOpError("axis ") << axis << " must be in [-1, "
                                << indices.getRank() << "]";
  if (axis == -1)
    axis = indices.getRank();
  if (getOnValue().getType().getNumElements() != 1 ||
      getOffValue().getType().getNumElements() != 1)
    return emitOpError("on_value and off_value must be scalars");
  if (auto depth = getConstantIntValues(getDepth())) {
    if (depth->size() != 1 || (*depth)[0] < 0)
      return emitOpError("depth must be a non-negative scalar");
    SmallVector<int64_t> shape(indices.getShape());
    shape.insert(shape.begin() + axis, (*depth)[0]);
    return checkResultShape(*this, shape, output);
  }
  return success();
}

/// Shared verifier of SpaceToBatchND and BatchToSpaceND.
template <typename OpTy>
static LogicalResult verifySpaceBatch(OpTy op, Value pairs, bool toBatch) {
  auto input = cast<RankedTensorType>(op->getOperand(0).getType());
  auto block = getConstantIntValues(op.getBlockShape());
  auto values = getConstantIntValues(pairs);
  if (!block || !values || !input.hasStaticShape())
    return success();
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(toBatch
                 ? computeSpaceToBatch(input.getShape(), *block, *values,
                                       shape, why)
                 : computeBatchToSpace(input.getShape(), *block, *values,
                                       shape, why)))
    return op.emitOpError(why);
  return checkResultShape(op, shape,
                          cast<RankedTensorType>(op->getResult(0).getType()));
}

LogicalResult SpaceToBatchNDOp::verify() {
  return verifySpaceBatch(*this, getPaddings(), /*toBatch=*/true);
}

LogicalResult BatchToSpaceNDOp::verify() {
  return verifySpaceBatch(*this, getCrops(), /*toBatch=*/false);
}

LogicalResult TopKV2Op::verify() {
  auto input = getInput().getType();
  if (input.getRank() < 1)
    return emitOpError("input must have rank >= 1, got a scalar");
  if (!getSorted())
    return emitOpError("sorted = false is not supported");
  auto k = getConstantIntValues(getK());
  if (!k)
    return success();
  int64_t last = input.getShape().back();
  if (k->size() != 1 || (*k)[0] < 0 ||
      (!ShapedType::isDynamic(last) && (*k)[0] > last))
    return emitOpError("k must be a scalar in [0, ")
           << last << "], the size of the last dimension";
  SmallVector<int64_t> shape(input.getShape());
  shape.back() = (*k)[0];
  if (failed(checkResultShape(*this, shape, getValues().getType())) ||
      failed(checkResultShape(*this, shape, getIndices().getType())))
    return failure();
  return success();
}

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

#define GET_OP_CLASSES
#include "ir/Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// DecodeJpeg
//===----------------------------------------------------------------------===//

LogicalResult DecodeJpegOp::verify() {
  if (getContents().getType().getShape() != ArrayRef<int64_t>{2})
    return emitOpError("expects the contents as a tensor<2xi64> bytes "
                       "descriptor, got ")
           << getContents().getType();
  int64_t channels = getChannels();
  if (channels != 1 && channels != 3)
    return emitOpError("channels must be 1 or 3, got ") << channels;
  int64_t ratio = getRatio();
  if (ratio != 1 && ratio != 2 && ratio != 4 && ratio != 8)
    return emitOpError("ratio must be 1, 2, 4 or 8, got ") << ratio;
  StringRef dct = getDctMethod();
  if (dct != "" && dct != "INTEGER_FAST" && dct != "INTEGER_ACCURATE")
    return emitOpError("dct_method must be \"\", \"INTEGER_FAST\" or "
                       "\"INTEGER_ACCURATE\", got \"")
           << dct << "\"";
  auto image = getImage().getType();
  if (image.getRank() != 3 || !image.hasStaticShape() ||
      image.getDimSize(2) != channels || image.getDimSize(0) < 1 ||
      image.getDimSize(1) < 1)
    return emitOpError("expects a static height x width x ")
           << channels << " image, got " << image;
  if (Value crop = getCropWindow();
      crop && cast<RankedTensorType>(crop.getType()).getShape() !=
                  ArrayRef<int64_t>{4})
    return emitOpError("expects crop_window as tensor<4xi32> [y, x, h, w]");
  if (auto size = getImageSize()) {
    if (size->size() != 2 || (*size)[0] < 1 || (*size)[1] < 1)
      return emitOpError("image_size must be [height, width], both positive");
    if (!getCropWindow() && ArrayRef<int64_t>(*size) != image.getShape().take_front(2))
      return emitOpError("image_size differs from the result's size without a "
                         "crop window");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Dequantize
//===----------------------------------------------------------------------===//

LogicalResult DequantizeOp::verify() {
  StringRef mode = getMode();
  if (mode != "MIN_FIRST" && mode != "MIN_COMBINED")
    return emitOpError("mode must be MIN_FIRST or MIN_COMBINED, got \"")
           << mode << "\"";
  return success();
}

QuantizedStorage mlir::tfaot::quantizedStorageOf(IntegerType type) {
  int bits = type.getWidth();
  bool isSigned = !type.isUnsigned();
  double lowest = isSigned ? -std::ldexp(1.0, bits - 1) : 0.0;
  double highest = isSigned ? std::ldexp(1.0, bits - 1) - 1
                            : std::ldexp(1.0, bits) - 1;
  return {bits, isSigned, lowest, highest};
}
