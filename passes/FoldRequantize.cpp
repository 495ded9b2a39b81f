//===- FoldRequantize.cpp - One multiply-add from int32 sums to int8 ------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-quantize-int8 leaves each quantized layer as "rescale its sums to
// float" and the next one as "quantize my float input", with the model's
// own bias and activation between them. Between two int8 layers the float
// value exists only to be quantized again, so the whole chain is an affine
// map plus a clamp and a rounding, folded here into one multiply, one add
// and one clamp with constants computed at compile time (see Passes.td).
// This is the chain every int8 kernel's epilogue runs per element, so
// fewer steps there are fewer vector instructions per 16 results.
//
//===----------------------------------------------------------------------===//
#include "passes/ConstantUtils.h"
#include "passes/Passes.h"

#include "ir/Ops.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace mlir::tfaot {
#define GEN_PASS_DEF_FOLDREQUANTIZEPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// The operand of binary `op` other than `x`, if `x` is one of them and
/// `op`'s result has x's type (no broadcast to a larger shape).
Value otherOperand(Operation *op, Value x) {
  if (op->getNumOperands() != 2 || op->getResult(0).getType() != x.getType())
    return nullptr;
  if (op->getOperand(0) == x)
    return op->getOperand(1);
  if (op->getOperand(1) == x)
    return op->getOperand(0);
  return nullptr;
}

/// The value of a splat f32 constant.
std::optional<double> splatConstant(Value value) {
  DenseElementsAttr attr = value ? denseConstant(value) : nullptr;
  if (!attr || !attr.getElementType().isF32() || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToDouble();
}

/// A clamp to [lo, hi] composed with max(., c) or min(., c) after it.
struct Clamp {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  void max(double c) {
    lo = std::max(lo, c);
    hi = std::max(hi, c);
  }
  void min(double c) {
    lo = std::min(lo, c);
    hi = std::min(hi, c);
  }
};

/// What the chain from a layer's i32 sums to the next
/// layer's i8 input, in the form tfaot-quantize-int8 writes it.
struct Chain {
  Value sumsAsFloat;         ///< Cast i32 -> f32 of the product.
  SmallVector<double> scale; ///< Per column.
  SmallVector<double> bias;  ///< Per column (zeros when none).
  Clamp clamp;               ///< The activation.
  double mul = 1, zeroPoint = 0;
  /// An int8 residual added to the sums (--quantize_residuals): the Cast
  /// of the i8 tensor to f32 (the tensor is read from it when folding, as
  /// an earlier fold may have replaced it) and its scale; its zero point is
  /// in `bias`. Or null.
  CastOp residual;
  double residualScale = 0;
  /// Every op from the rescale to the final Cast to i8, in order.
  SmallVector<Operation *> ops;
};

/// Whether `v` is an int8 tensor dequantized by splat constants, as
/// tfaot-quantize-int8's `residuals` option writes it: Mul(Sub(Cast(q),
/// zp), s) or Mul(Cast(q), s), each step used once. If so, records q, s
/// and zp in `chain` (the zero point's term -zp s in its bias), and
/// appends the steps, last first, to `reversed`.
bool matchDequantizedResidual(Value v, Chain &chain,
                              SmallVectorImpl<Operation *> &reversed) {
  auto mul = v.getDefiningOp<MulOp>();
  if (!mul || !v.hasOneUse() || chain.residual)
    return false;
  std::optional<double> scale = splatConstant(mul.getY());
  Value x = mul.getX();
  if (!scale || !x.hasOneUse() || x.getType() != v.getType())
    return false;
  double zeroPoint = 0;
  SmallVector<Operation *> steps = {mul};
  if (auto sub = x.getDefiningOp<SubOp>()) {
    std::optional<double> c = splatConstant(sub.getY());
    if (!c || sub.getX().getType() != v.getType() ||
        !sub.getX().hasOneUse())
      return false;
    zeroPoint = *c;
    steps.push_back(sub);
    x = sub.getX();
  }
  auto toFloat = x.getDefiningOp<CastOp>();
  if (!toFloat ||
      !cast<ShapedType>(toFloat.getX().getType()).getElementType().isInteger(8))
    return false;
  steps.push_back(toFloat);
  chain.residual = toFloat;
  chain.residualScale = *scale;
  for (double &b : chain.bias)
    b -= zeroPoint * *scale;
  reversed.append(steps.begin(), steps.end());
  return true;
}

/// The quantize tfaot-quantize-int8 writes, read backwards from its Cast:
/// Mul(y, m) -> Round -> AddV2(zp) -> Maximum(-128) -> Minimum(127) -> Cast.
/// Returns y.
Value matchQuantize(CastOp cast, Chain &chain) {
  auto clampTo = [](Value v, auto opTag, double bound) -> Value {
    using OpTy = decltype(opTag);
    auto op = v.getDefiningOp<OpTy>();
    if (!op || !op->getResult(0).hasOneUse())
      return nullptr;
    for (Value x : {op.getX(), op.getY()})
      if (splatConstant(otherOperand(op, x)) == bound)
        return x;
    return nullptr;
  };
  Value minimum = cast.getX();
  Value maximum = clampTo(minimum, MinimumOp(), 127.0);
  if (!maximum)
    return nullptr;
  Value shifted = clampTo(maximum, MaximumOp(), -128.0);
  auto add = shifted ? shifted.getDefiningOp<AddV2Op>() : nullptr;
  if (!add || !add->hasOneUse())
    return nullptr;
  auto round = add.getX().getDefiningOp<RoundOp>();
  std::optional<double> zeroPoint = splatConstant(add.getY());
  if (!round || !round->hasOneUse() || !zeroPoint ||
      add.getType() != round.getType())
    return nullptr;
  auto mul = round.getX().getDefiningOp<MulOp>();
  if (!mul || !mul->hasOneUse() || mul.getType() != round.getType())
    return nullptr;
  std::optional<double> factor = splatConstant(mul.getY());
  if (!factor || !(*factor > 0) || !std::isfinite(*factor))
    return nullptr;
  chain.mul = *factor;
  chain.zeroPoint = *zeroPoint;
  chain.ops.append({mul, round, add, maximum.getDefiningOp(),
                    minimum.getDefiningOp(), cast});
  return mul.getX();
}

/// The rescaled sums, bias adds and clamps that compute `y`, read
/// backwards. Each op's result must be used only by the next.
bool matchLayerResult(Value y, Chain &chain) {
  auto type = dyn_cast<RankedTensorType>(y.getType());
  if (!type || type.getRank() == 0 || !type.getElementType().isF32())
    return false;
  const int64_t n = type.getShape().back();
  chain.bias.assign(n, 0.0);
  // One f32 per column if `value` is a constant that broadcasts along the
  // other dimensions only: [n], [1, ..., 1, n] or a scalar.
  auto columnValues = [&](Value value) {
    return channelConstant(value, type, type.getRank() - 1);
  };
  SmallVector<Operation *> reversed;
  SmallVector<std::function<void(Clamp &)>> clampsReversed;
  bool sawAdd = false;
  Value v = y;
  while (true) {
    Operation *op = v.getDefiningOp();
    if (!op || !v.hasOneUse() || op->getNumResults() != 1 ||
        v.getType() != type)
      return false;
    reversed.push_back(op);
    // Read backwards, clamps come before adds: a clamp followed by an add
    // (forwards) is not one clamp of an affine map.
    const bool isClamp = isa<ReluOp, Relu6Op, MaximumOp, MinimumOp>(op);
    if (isClamp && sawAdd)
      return false;
    if (auto relu = dyn_cast<ReluOp>(op)) {
      clampsReversed.push_back([](Clamp &c) { c.max(0); });
      v = relu.getX();
      continue;
    }
    if (auto relu6 = dyn_cast<Relu6Op>(op)) {
      clampsReversed.push_back([](Clamp &c) { c.max(0), c.min(6); });
      v = relu6.getX();
      continue;
    }
    if (isa<MaximumOp, MinimumOp>(op)) {
      Value x = op->getOperand(0);
      std::optional<double> c = splatConstant(otherOperand(op, x));
      if (!c) {
        x = op->getOperand(1);
        c = splatConstant(otherOperand(op, x));
      }
      if (!c)
        return false;
      bool isMax = isa<MaximumOp>(op);
      clampsReversed.push_back(
          [=](Clamp &clamp) { isMax ? clamp.max(*c) : clamp.min(*c); });
      v = x;
      continue;
    }
    Value x, columns;
    if (auto biasAdd = dyn_cast<BiasAddOp>(op)) {
      if (biasAdd.getChannelDim() != type.getRank() - 1)
        return false;
      x = biasAdd.getValue();
      columns = biasAdd.getBias();
    } else if (isa<AddV2Op, AddOp, MulOp>(op)) {
      for (Value candidate : {op->getOperand(0), op->getOperand(1)}) {
        Value other = otherOperand(op, candidate);
        if (other && other != candidate && columnValues(other)) {
          x = candidate;
          columns = other;
          break;
        }
      }
      // One int8 residual, added before any clamp.
      bool residualAdded = false;
      if (!x && !isa<MulOp>(op))
        for (Value candidate : {op->getOperand(0), op->getOperand(1)}) {
          Value other = otherOperand(op, candidate);
          if (other && other != candidate &&
              matchDequantizedResidual(other, chain, reversed)) {
            residualAdded = true;
            v = candidate;
            break;
          }
        }
      if (residualAdded) {
        sawAdd = true;
        continue;
      }
    }
    if (!x)
      return false;
    std::optional<SmallVector<float>> values = columnValues(columns);
    if (!values)
      return false;
    if (!isa<MulOp>(op)) {
      for (int64_t j = 0; j < n; ++j)
        chain.bias[j] += (*values)[j];
      sawAdd = true;
      v = x;
      continue;
    }
    // The rescale: Mul(Cast(i32 sums), scale) ends the walk.
    auto toFloat = x.getDefiningOp<CastOp>();
    if (!toFloat || !x.hasOneUse() ||
        !cast<ShapedType>(toFloat.getX().getType())
             .getElementType()
             .isInteger(32))
      return false;
    chain.sumsAsFloat = x;
    chain.scale.assign(values->begin(), values->end());
    break;
  }
  for (auto &apply : llvm::reverse(clampsReversed))
    apply(chain.clamp);
  chain.ops.insert(chain.ops.begin(), reversed.rbegin(), reversed.rend());
  return true;
}

/// The folded form's constants.
struct Folded {
  SmallVector<float> scale, bias;
  bool hasBias = false;
  float residualScale = 0;
  Clamp clamp;
};

/// The chain's constants folded, or nothing where one is not a finite
/// float32 (a calibrated range so narrow that 1 / scale overflows, say).
std::optional<Folded> foldConstants(const Chain &chain) {
  Folded folded;
  const size_t n = chain.scale.size();
  folded.scale.resize(n);
  folded.bias.resize(n);
  for (size_t j = 0; j < n; ++j) {
    folded.scale[j] = static_cast<float>(chain.scale[j] * chain.mul);
    folded.bias[j] =
        static_cast<float>(chain.bias[j] * chain.mul + chain.zeroPoint);
    if (!std::isfinite(folded.scale[j]) || !std::isfinite(folded.bias[j]))
      return std::nullopt;
    folded.hasBias |= folded.bias[j] != 0.0f;
  }
  folded.residualScale =
      static_cast<float>(chain.residualScale * chain.mul);
  if (chain.residual && !std::isfinite(folded.residualScale))
    return std::nullopt;
  // The activation's bounds in the int8 domain, then the int8 range.
  folded.clamp.max(chain.clamp.lo * chain.mul + chain.zeroPoint);
  folded.clamp.min(chain.clamp.hi * chain.mul + chain.zeroPoint);
  folded.clamp.max(-128);
  folded.clamp.min(127);
  return folded;
}

/// Replaces the chain's final Cast by the folded form and erases the rest.
void fold(Chain &chain, const Folded &folded) {
  auto toInt8 = cast<CastOp>(chain.ops.back());
  OpBuilder b(toInt8);
  Location loc = toInt8.getLoc();
  auto type = cast<RankedTensorType>(chain.sumsAsFloat.getType());
  const int64_t n = type.getShape().back();
  auto columns = [&](ArrayRef<float> values) -> Value {
    auto columnType = RankedTensorType::get({n}, b.getF32Type());
    return ConstOp::create(b, loc, DenseElementsAttr::get(columnType, values));
  };
  auto scalar = [&](double value) -> Value {
    auto scalarType = RankedTensorType::get({}, b.getF32Type());
    return ConstOp::create(
        b, loc, DenseElementsAttr::get(scalarType, static_cast<float>(value)));
  };
  Value y =
      MulOp::create(b, loc, type, chain.sumsAsFloat, columns(folded.scale));
  if (folded.hasBias)
    y = AddV2Op::create(b, loc, type, y, columns(folded.bias));
  if (chain.residual) {
    Value residual = MulOp::create(
        b, loc, type, CastOp::create(b, loc, type, chain.residual.getX()),
        scalar(folded.residualScale));
    y = AddV2Op::create(b, loc, type, y, residual);
  }
  y = MaximumOp::create(b, loc, type, y, scalar(folded.clamp.lo));
  y = MinimumOp::create(b, loc, type, y, scalar(folded.clamp.hi));
  y = RoundOp::create(b, loc, type, y);
  Value q = CastOp::create(b, loc, toInt8.getType(), y);
  toInt8.getY().replaceAllUsesWith(q);
  for (Operation *op : llvm::reverse(chain.ops))
    op->erase();
}

struct FoldRequantizePass
    : mlir::tfaot::impl::FoldRequantizePassBase<FoldRequantizePass> {
  void runOnOperation() override {
    std::vector<std::pair<Chain, Folded>> chains;
    getOperation().walk([&](CastOp cast) {
      auto type = dyn_cast<RankedTensorType>(cast.getType());
      if (!type || !type.getElementType().isInteger(8))
        return;
      Chain chain;
      Value y = matchQuantize(cast, chain);
      if (!y || !matchLayerResult(y, chain))
        return;
      if (std::optional<Folded> folded = foldConstants(chain))
        chains.emplace_back(std::move(chain), std::move(*folded));
    });
    // Each chain's ops are its own (every result has one user), so folding
    // one leaves the others intact. An int8 residual is another chain's
    // result, replaced when that chain folds: it is read through the
    // chain's own Cast, whose operand the replacement updates.
    for (auto &[chain, folded] : chains)
      fold(chain, folded);
    numFolded += chains.size();
  }
};

} // namespace
