//===- QuantizeInt8.cpp - Calibrated float contractions to int8 -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Post-training quantization of the ops the driver calibrated (see
// Int8Quantization.h and Passes.td). Activations are per tensor and
// asymmetric, because after a ReLU they are all on one side of zero and a
// symmetric range would waste one of the eight bits; weights are per output
// channel and symmetric, so a channel with small weights keeps its
// resolution and the product needs no weight zero point.
//
//===----------------------------------------------------------------------===//
#include "passes/Int8Quantization.h"
#include "passes/ConstantUtils.h"
#include "passes/Passes.h"

#include "ir/Ops.h"

#include <algorithm>
#include <cmath>

namespace mlir::tfaot {
#define GEN_PASS_DEF_QUANTIZEINT8PASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

bool mlir::tfaot::isQuantizableContraction(Operation *op) {
  auto isF32 = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType().isF32();
  };
  if (auto conv = dyn_cast<Conv2DOp>(op))
    return isF32(conv.getInput()) && conv.getDataFormat() == "NHWC" &&
           denseConstant(conv.getFilter()) &&
           conv.getInput().getType().hasStaticShape();
  if (auto depthwise = dyn_cast<DepthwiseConv2dNativeOp>(op))
    return isF32(depthwise.getInput()) &&
           depthwise.getDataFormat() == "NHWC" &&
           depthwise.getFilter().getType().getDimSize(3) == 1 &&
           denseConstant(depthwise.getFilter()) &&
           depthwise.getInput().getType().hasStaticShape();
  if (auto matmul = dyn_cast<MatMulOp>(op))
    return isF32(matmul.getA()) && !matmul.getTransposeA() &&
           denseConstant(matmul.getB()) &&
           matmul.getA().getType().hasStaticShape();
  return false;
}

DenseElementsAttr mlir::tfaot::contractionWeights(Operation *op) {
  if (auto conv = dyn_cast<Conv2DOp>(op))
    return denseConstant(conv.getFilter());
  if (auto depthwise = dyn_cast<DepthwiseConv2dNativeOp>(op)) {
    // HWC1 is [kh * kw, c] row-major: each channel is a column.
    DenseElementsAttr filter = denseConstant(depthwise.getFilter());
    auto type = cast<ShapedType>(filter.getType());
    return filter.reshape(RankedTensorType::get(
        {type.getDimSize(0) * type.getDimSize(1), type.getDimSize(2)},
        type.getElementType()));
  }
  auto matmul = cast<MatMulOp>(op);
  DenseElementsAttr b = denseConstant(matmul.getB());
  return matmul.getTransposeB() ? transposeElements(b, {1, 0}) : b;
}

ActivationQuantization mlir::tfaot::quantizeRange(float min, float max) {
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  ActivationQuantization q;
  if (!(max > min) || !std::isfinite(min) || !std::isfinite(max))
    return q; // all zeros (or unusable): any scale represents them
  q.scale = (max - min) / 255.0f;
  q.zeroPoint = static_cast<int32_t>(
      std::clamp(std::nearbyint(-128.0f - min / q.scale), -128.0f, 127.0f));
  return q;
}

SmallVector<float> mlir::tfaot::columnScales(ArrayRef<float> weights,
                                             int64_t k, int64_t n) {
  SmallVector<float> scales(n, 0.0f);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t col = 0; col < n; ++col)
      scales[col] = std::max(scales[col], std::fabs(weights[row * n + col]));
  for (float &scale : scales)
    scale = scale > 0.0f ? scale / 127.0f : 1.0f;
  return scales;
}

namespace {

/// Weights [k, n] (row-major) as int8 per column n, and each column's scale.
struct ChannelWeights {
  SmallVector<int8_t> values;
  SmallVector<float> scales;
};

ChannelWeights quantizeColumns(ArrayRef<float> weights, int64_t k, int64_t n) {
  ChannelWeights q;
  q.scales = columnScales(weights, k, n);
  q.values.resize(k * n);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t col = 0; col < n; ++col)
      q.values[row * n + col] = static_cast<int8_t>(std::clamp(
          std::nearbyint(weights[row * n + col] / q.scales[col]), -127.0f,
          127.0f));
  return q;
}

SmallVector<float> floatValues(DenseElementsAttr attr) {
  return SmallVector<float>(attr.getValues<float>());
}

/// Builds the tfaot ops of one quantized contraction.
struct Builder {
  OpBuilder &b;
  Location loc;

  /// A 0-d f32 constant.
  Value scalar(double value) {
    auto type = RankedTensorType::get({}, b.getF32Type());
    return ConstOp::create(
        b, loc, DenseElementsAttr::get(type, static_cast<float>(value)));
  }

  /// clamp(round(x / scale) + zeroPoint, -128, 127) as i8.
  Value quantize(Value x, ActivationQuantization q) {
    auto type = cast<RankedTensorType>(x.getType());
    Value scaled = MulOp::create(b, loc, type, x, scalar(1.0 / q.scale));
    Value rounded = RoundOp::create(b, loc, type, scaled);
    Value shifted = AddV2Op::create(b, loc, type, rounded, scalar(q.zeroPoint));
    Value low = MaximumOp::create(b, loc, type, shifted, scalar(-128));
    Value clamped = MinimumOp::create(b, loc, type, low, scalar(127));
    return CastOp::create(b, loc, type.clone(b.getI8Type()), clamped);
  }

  /// The inverse of quantize: (float(q) - zeroPoint) * scale, as f32.
  Value dequantize(Value quantized, ActivationQuantization q) {
    auto type = cast<RankedTensorType>(quantized.getType())
                    .clone(b.getF32Type());
    Value asFloat = CastOp::create(b, loc, type, quantized);
    Value centred = SubOp::create(b, loc, type, asFloat, scalar(q.zeroPoint));
    return MulOp::create(b, loc, type, centred, scalar(q.scale));
  }

  /// The i32 product back in float: product * inputScale * weightScale[n].
  Value rescale(Value product, float inputScale, ArrayRef<float> scales) {
    auto type = cast<RankedTensorType>(product.getType()).clone(b.getF32Type());
    return scaleColumns(CastOp::create(b, loc, type, product), inputScale,
                        scales);
  }

  /// x * inputScale * scales[n] along x's last dimension.
  Value scaleColumns(Value x, float inputScale, ArrayRef<float> scales) {
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<float> combined;
    for (float s : scales)
      combined.push_back(inputScale * s);
    auto scaleType = RankedTensorType::get(
        {static_cast<int64_t>(combined.size())}, b.getF32Type());
    Value scaleConst = ConstOp::create(
        b, loc, DenseElementsAttr::get(scaleType, ArrayRef<float>(combined)));
    return MulOp::create(b, loc, type, x, scaleConst);
  }

  Value int8Constant(ArrayRef<int64_t> shape, ArrayRef<int8_t> values) {
    auto type = RankedTensorType::get(shape, b.getI8Type());
    return ConstOp::create(b, loc, DenseElementsAttr::get(type, values));
  }
};

/// Replaces `conv` by its int8 form reading `input`, its input quantized
/// with `q`.
Value quantizeConv(OpBuilder &b, Conv2DOp conv, ActivationQuantization q,
                   Value input) {
  Builder build{b, conv.getLoc()};
  DenseElementsAttr filter = contractionWeights(conv);
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t outChannels = filterType.getDimSize(3);
  // HWCF is already [kh * kw * c, f] row-major.
  ChannelWeights weights =
      quantizeColumns(floatValues(filter),
                      filterType.getNumElements() / outChannels, outChannels);
  auto resultType = conv.getOutput().getType();
  Value product = Int8Conv2DOp::create(
      b, conv.getLoc(), resultType.clone(b.getI32Type()), input,
      build.int8Constant(filterType.getShape(), weights.values),
      conv.getDilationsAttr(), b.getI32IntegerAttr(q.zeroPoint),
      conv.getStridesAttr(), conv.getPaddingAttr(),
      conv.getExplicitPaddingsAttr(), conv.getDataFormatAttr());
  return build.rescale(product, q.scale, weights.scales);
}

/// Replaces `depthwise` (multiplier 1) by its int8 form.
Value quantizeDepthwise(OpBuilder &b, DepthwiseConv2dNativeOp depthwise,
                        ActivationQuantization q, Value input) {
  Builder build{b, depthwise.getLoc()};
  DenseElementsAttr weightsAttr = contractionWeights(depthwise);
  auto weightsType = cast<RankedTensorType>(weightsAttr.getType());
  int64_t taps = weightsType.getDimSize(0), channels = weightsType.getDimSize(1);
  ChannelWeights weights =
      quantizeColumns(floatValues(weightsAttr), taps, channels);
  auto resultType = depthwise.getOutput().getType();
  Value product = Int8DepthwiseConv2DOp::create(
      b, depthwise.getLoc(), resultType.clone(b.getI32Type()), input,
      build.int8Constant(depthwise.getFilter().getType().getShape(),
                         weights.values),
      depthwise.getDilationsAttr(), b.getI32IntegerAttr(q.zeroPoint),
      depthwise.getStridesAttr(), depthwise.getPaddingAttr(),
      depthwise.getExplicitPaddingsAttr(), depthwise.getDataFormatAttr());
  return build.rescale(product, q.scale, weights.scales);
}

/// A MatMul's constant weights [k, n] as int8 per column, as an i8
/// constant, and the column scales.
struct MatMulWeights {
  Value values;
  SmallVector<float> scales;
};

MatMulWeights quantizeMatMulColumns(Builder &build, MatMulOp matmul) {
  DenseElementsAttr weightsAttr = contractionWeights(matmul);
  auto weightsType = cast<RankedTensorType>(weightsAttr.getType());
  int64_t k = weightsType.getDimSize(0), n = weightsType.getDimSize(1);
  ChannelWeights weights = quantizeColumns(floatValues(weightsAttr), k, n);
  return {build.int8Constant({k, n}, weights.values),
          std::move(weights.scales)};
}

Value quantizeMatMul(OpBuilder &b, MatMulOp matmul, ActivationQuantization q,
                     Value input) {
  Builder build{b, matmul.getLoc()};
  MatMulWeights weights = quantizeMatMulColumns(build, matmul);
  auto resultType = matmul.getProduct().getType();
  Value product = Int8MatMulOp::create(
      b, matmul.getLoc(), resultType.clone(b.getI32Type()), input,
      weights.values, b.getI32IntegerAttr(q.zeroPoint));
  return build.rescale(product, q.scale, weights.scales);
}

/// Replaces `matmul`'s weights by int8 ones, per column, keeping its
/// activations float32: Int8WeightMatMul, then the column scales.
Value quantizeMatMulWeights(OpBuilder &b, MatMulOp matmul) {
  Builder build{b, matmul.getLoc()};
  MatMulWeights weights = quantizeMatMulColumns(build, matmul);
  Value product = Int8WeightMatMulOp::create(
      b, matmul.getLoc(), matmul.getProduct().getType(), matmul.getA(),
      weights.values);
  return build.scaleColumns(product, 1.0f, weights.scales);
}

/// Whether `add` is a residual addition of `x`: an AddV2 or Add of x's
/// type whose other operand is computed (not a bias or other constant).
bool isResidualAddOf(Operation *add, Value x) {
  if (!isa<AddV2Op, AddOp>(add) || add->getResult(0).getType() != x.getType())
    return false;
  Value other = add->getOperand(0) == x ? add->getOperand(1) : add->getOperand(0);
  return other != x && !denseConstant(other);
}

/// Makes the residual additions of `x` read `quantized` (x quantized with
/// `q`) dequantized, (Cast(quantized) - zp) * s, instead of x; returns
/// how many. See the pass's `residuals` option.
int readResidualsFromInt8(Value x, Value quantized, ActivationQuantization q) {
  SmallVector<OpOperand *> uses;
  // Only additions after the quantization, which is built right before
  // its layer: the dequantized value must dominate them.
  Operation *quantize = quantized.getDefiningOp();
  for (OpOperand &use : x.getUses())
    if (use.getOwner()->getBlock() == quantize->getBlock() &&
        quantize->isBeforeInBlock(use.getOwner()) &&
        isResidualAddOf(use.getOwner(), x))
      uses.push_back(&use);
  if (uses.empty())
    return 0;
  OpBuilder b(quantized.getContext());
  b.setInsertionPointAfterValue(quantized);
  Value dequantized = Builder{b, quantized.getLoc()}.dequantize(quantized, q);
  for (OpOperand *use : uses)
    use->set(dequantized);
  return static_cast<int>(uses.size());
}

struct QuantizeInt8Pass
    : mlir::tfaot::impl::QuantizeInt8PassBase<QuantizeInt8Pass> {
  using QuantizeInt8PassBase::QuantizeInt8PassBase;

  void runOnOperation() override {
    SmallVector<Operation *> marked;
    SmallVector<MatMulOp> weightsOnly;
    // Counted here too: the statistic below counts nothing in an LLVM
    // built without statistics, and the report needs the number.
    int64_t residualCount = 0;
    bool failedAny = false;
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr(kQuantizeWeightsOnlyAttr)) {
        auto matmul = dyn_cast<MatMulOp>(op);
        if (!matmul || !isQuantizableContraction(op) ||
            op->hasAttr(kQuantizeRangeAttr)) {
          op->emitOpError(kQuantizeWeightsOnlyAttr)
              << " takes a float32 MatMul with constant weights (and no "
              << kQuantizeRangeAttr << ")";
          failedAny = true;
        } else {
          weightsOnly.push_back(matmul);
        }
        return;
      }
      auto range = op->getAttrOfType<ArrayAttr>(kQuantizeRangeAttr);
      if (!range)
        return;
      auto bound = [&](unsigned i) -> std::optional<float> {
        if (range.size() != 2)
          return std::nullopt;
        auto value = dyn_cast<FloatAttr>(range[i]);
        if (!value)
          return std::nullopt;
        return static_cast<float>(value.getValueAsDouble());
      };
      if (!bound(0) || !bound(1) || !(*bound(0) <= *bound(1))) {
        op->emitOpError(kQuantizeRangeAttr)
            << " must be [min, max] with min <= max";
        failedAny = true;
        return;
      }
      if (!isQuantizableContraction(op)) {
        op->emitOpError("cannot be quantized to int8: only float32 NHWC "
                        "Conv2D, DepthwiseConv2dNative (multiplier 1) and "
                        "MatMul with constant weights can");
        failedAny = true;
        return;
      }
      marked.push_back(op);
    });
    if (failedAny)
      return signalPassFailure();

    for (Operation *op : marked) {
      auto range = op->getAttrOfType<ArrayAttr>(kQuantizeRangeAttr);
      ActivationQuantization q = quantizeRange(
          cast<FloatAttr>(range[0]).getValueAsDouble(),
          cast<FloatAttr>(range[1]).getValueAsDouble());
      OpBuilder b(op);
      Value input = op->getOperand(0);
      Value quantized = Builder{b, op->getLoc()}.quantize(input, q);
      Value replacement;
      if (auto conv = dyn_cast<Conv2DOp>(op))
        replacement = quantizeConv(b, conv, q, quantized);
      else if (auto depthwise = dyn_cast<DepthwiseConv2dNativeOp>(op))
        replacement = quantizeDepthwise(b, depthwise, q, quantized);
      else
        replacement = quantizeMatMul(b, cast<MatMulOp>(op), q, quantized);
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
      ++numQuantized;
      if (residuals)
        residualCount += readResidualsFromInt8(input, quantized, q);
    }
    for (MatMulOp matmul : weightsOnly) {
      OpBuilder b(matmul);
      matmul.getProduct().replaceAllUsesWith(quantizeMatMulWeights(b, matmul));
      matmul.erase();
      ++numWeightsOnly;
    }
    if (residuals)
      getOperation()->setAttr(
          kInt8ResidualsAttr,
          IntegerAttr::get(IntegerType::get(&getContext(), 64),
                           residualCount));
    numResiduals += residualCount;
  }
};

} // namespace
