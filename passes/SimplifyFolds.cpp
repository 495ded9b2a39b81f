//===- SimplifyFolds.cpp - Constant folding of --tfaot-simplify -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// The constant-folding patterns of --tfaot-simplify (see Simplify.cpp):
// elementwise arithmetic computed on constants element by element as the
// generated code computes it, folds of Cast, Transpose and ConcatV2 of
// constants, and the materialization of the dialect's own folders'
// results as tfaot.Const ops.
//
//===----------------------------------------------------------------------===//
#include "passes/ConstantUtils.h"
#include "passes/SimplifyPatterns.h"

#include "ir/Ops.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::simplify;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Calls `fn(out, in)` for every element of `resultShape` in row-major
/// order, `in[k]` being the flat index that NumPy broadcasting reads from
/// operand k of `operandShapes` (shapes align from the right; a size-1
/// dimension repeats).
void walkBroadcast(ArrayRef<int64_t> resultShape,
                   ArrayRef<SmallVector<int64_t>> operandShapes,
                   function_ref<void(int64_t, ArrayRef<int64_t>)> fn) {
  size_t rank = resultShape.size(), n = operandShapes.size();
  // Per operand, the step of its flat index along each result dimension.
  SmallVector<SmallVector<int64_t>> steps;
  for (const SmallVector<int64_t> &shape : operandShapes) {
    SmallVector<int64_t> step(rank, 0);
    SmallVector<int64_t> strides = stridesOf(shape);
    size_t offset = rank - shape.size();
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] != 1)
        step[offset + d] = strides[d];
    steps.push_back(std::move(step));
  }
  int64_t total = 1;
  for (int64_t d : resultShape)
    total *= d;
  SmallVector<int64_t> index(rank, 0), in(n, 0);
  for (int64_t out = 0; out < total; ++out) {
    fn(out, in);
    // Advance the odometer; a dimension that wraps rewinds its offsets.
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
      for (size_t k = 0; k < n; ++k)
        in[k] += steps[k][d];
      if (++index[d] < resultShape[d])
        break;
      for (size_t k = 0; k < n; ++k)
        in[k] -= steps[k][d] * resultShape[d];
      index[d] = 0;
    }
  }
}

/// Checks a constant fold's result size against the limits (counting the
/// ones it skips).
bool withinLimits(Operation *op, RankedTensorType type,
                  ArrayRef<DenseElementsAttr> operands,
                  const FoldLimits &limits, Counters &counters) {
  if (!type.hasStaticShape())
    return false;
  int64_t n = type.getNumElements(), largest = 0;
  for (DenseElementsAttr operand : operands)
    largest = std::max<int64_t>(largest, operand.isSplat()
                                             ? 1
                                             : operand.getNumElements());
  if (n > limits.maxElements ||
      (n > largest && n > limits.maxBroadcastGrowth)) {
    counters.tooLarge.insert(op);
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic on constants
//
// Each element is computed the way the lowered code computes it (see
// LowerToLinalg.cpp and LowerCnnOps.cpp): f32 in float, f64 in double,
// f16/bf16 in float rounded once to the type (LLVM promotes half
// arithmetic to float the same way). Maximum/Minimum are arith.maximumf/
// minimumf: NaN wins and -0 < +0. Rsqrt is 1 / sqrt(x), as MathToLLVM
// lowers math.rsqrt; Exp and Log call the same libm as the generated code.
// No expression here may be contracted into an FMA: each result is one
// operation on already-rounded values.
//===----------------------------------------------------------------------===//

enum class UnaryKind {
  Neg, Abs, Sqrt, Rsqrt, Reciprocal, Exp, Log, Square, Relu, Relu6, Floor,
  Ceil
};
enum class BinaryKind { Add, Sub, Mul, Div, Max, Min, SquaredDifference };

template <typename T> T maximumOf(T a, T b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == b) // Only differs for +0 vs -0: +0 is the larger.
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

template <typename T> T minimumOf(T a, T b) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

template <typename T> T applyUnary(UnaryKind kind, T x) {
  switch (kind) {
  case UnaryKind::Neg:
    return -x;
  case UnaryKind::Abs:
    return std::fabs(x);
  case UnaryKind::Sqrt:
    return std::sqrt(x);
  case UnaryKind::Rsqrt: {
    T root = std::sqrt(x);
    return T(1) / root;
  }
  case UnaryKind::Reciprocal:
    return T(1) / x;
  case UnaryKind::Exp:
    return std::exp(x);
  case UnaryKind::Log:
    return std::log(x);
  case UnaryKind::Square:
    return x * x;
  case UnaryKind::Relu:
    return maximumOf(x, T(0));
  case UnaryKind::Relu6:
    return minimumOf(maximumOf(x, T(0)), T(6));
  case UnaryKind::Floor:
    return std::floor(x);
  case UnaryKind::Ceil:
    return std::ceil(x);
  }
  llvm_unreachable("unknown unary kind");
}

template <typename T> T applyBinary(BinaryKind kind, T x, T y) {
  switch (kind) {
  case BinaryKind::Add:
    return x + y;
  case BinaryKind::Sub:
    return x - y;
  case BinaryKind::Mul:
    return x * y;
  case BinaryKind::Div:
    return x / y;
  case BinaryKind::Max:
    return maximumOf(x, y);
  case BinaryKind::Min:
    return minimumOf(x, y);
  case BinaryKind::SquaredDifference: {
    T d = x - y;
    return d * d;
  }
  }
  llvm_unreachable("unknown binary kind");
}

/// Integer versions (wrapping, like arith on signless integers); nullopt
/// where the generated code would divide by zero or overflow a division.
std::optional<APInt> applyUnaryInt(UnaryKind kind, const APInt &x,
                                   bool isUnsigned) {
  APInt zero = APInt::getZero(x.getBitWidth());
  switch (kind) {
  case UnaryKind::Neg:
    return zero - x;
  case UnaryKind::Abs:
    return isUnsigned || !x.isNegative() ? x : zero - x;
  case UnaryKind::Square:
    return x * x;
  case UnaryKind::Relu:
    return isUnsigned || !x.isNegative() ? x : zero;
  case UnaryKind::Relu6: {
    APInt six(x.getBitWidth(), 6);
    APInt r = isUnsigned || !x.isNegative() ? x : zero;
    bool greater = isUnsigned ? r.ugt(six) : r.sgt(six);
    return greater ? six : r;
  }
  default:
    return std::nullopt; // Float-only ops.
  }
}

std::optional<APInt> applyBinaryInt(BinaryKind kind, const APInt &x,
                                    const APInt &y, bool isUnsigned) {
  switch (kind) {
  case BinaryKind::Add:
    return x + y;
  case BinaryKind::Sub:
    return x - y;
  case BinaryKind::Mul:
    return x * y;
  case BinaryKind::Div:
    if (y.isZero())
      return std::nullopt;
    if (isUnsigned)
      return x.udiv(y);
    if (x.isMinSignedValue() && y.isAllOnes())
      return std::nullopt;
    return x.sdiv(y); // Truncates, as TF and arith.divsi do.
  case BinaryKind::Max:
    return (isUnsigned ? x.uge(y) : x.sge(y)) ? x : y;
  case BinaryKind::Min:
    return (isUnsigned ? x.ule(y) : x.sle(y)) ? x : y;
  case BinaryKind::SquaredDifference: {
    APInt d = x - y;
    return d * d;
  }
  }
  llvm_unreachable("unknown binary kind");
}

/// The elements of a float constant in the computation type T (float for
/// every float type but f64). A splat gives one element.
template <typename T> std::vector<T> readFloats(DenseElementsAttr attr) {
  Type type = attr.getElementType();
  std::vector<T> values;
  auto convert = [](APFloat v) -> T {
    bool lost;
    v.convert(std::is_same_v<T, float> ? APFloat::IEEEsingle()
                                       : APFloat::IEEEdouble(),
              APFloat::rmNearestTiesToEven, &lost);
    if constexpr (std::is_same_v<T, float>)
      return v.convertToFloat();
    else
      return v.convertToDouble();
  };
  if (attr.isSplat()) {
    values.push_back(convert(attr.getSplatValue<APFloat>()));
  } else if (type.isF32() && std::is_same_v<T, float>) {
    auto range = attr.getValues<float>();
    values.assign(range.begin(), range.end());
  } else if (type.isF64() && std::is_same_v<T, double>) {
    auto range = attr.getValues<double>();
    values.assign(range.begin(), range.end());
  } else {
    for (APFloat v : attr.getValues<APFloat>())
      values.push_back(convert(v));
  }
  return values;
}

/// A constant of `type` from values computed in T, rounded once to the
/// element type where it is narrower.
template <typename T>
DenseElementsAttr writeFloats(RankedTensorType type, ArrayRef<T> values) {
  Type element = type.getElementType();
  if ((element.isF32() && std::is_same_v<T, float>) ||
      (element.isF64() && std::is_same_v<T, double>))
    return DenseElementsAttr::get(type, values);
  const llvm::fltSemantics &semantics =
      cast<FloatType>(element).getFloatSemantics();
  SmallVector<APFloat> rounded;
  rounded.reserve(values.size());
  for (T v : values) {
    APFloat f(v);
    bool lost;
    f.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    rounded.push_back(f);
  }
  return DenseElementsAttr::get(type, rounded);
}

/// The shape an operand takes part in broadcasting with: a splat reads as
/// a scalar.
SmallVector<int64_t> foldShape(DenseElementsAttr attr) {
  if (attr.isSplat())
    return {};
  return SmallVector<int64_t>(attr.getType().getShape());
}

/// Computes an elementwise op of `operands` into a constant of `type`;
/// `floatFn` and `intFn` compute one element. Fails (null) where an element
/// cannot be folded.
template <typename FloatFn, typename IntFn>
DenseElementsAttr foldElementwise(RankedTensorType type,
                                  ArrayRef<DenseElementsAttr> operands,
                                  FloatFn floatFn, IntFn intFn) {
  SmallVector<SmallVector<int64_t>> shapes;
  bool allSplat = true;
  for (DenseElementsAttr operand : operands) {
    shapes.push_back(foldShape(operand));
    allSplat &= operand.isSplat();
  }
  // All splats: one element, and the result is a splat too.
  SmallVector<int64_t> walkShape =
      allSplat ? SmallVector<int64_t>{} : SmallVector<int64_t>(type.getShape());
  Type element = type.getElementType();
  auto compute = [&](auto tag) -> DenseElementsAttr {
    using T = decltype(tag);
    std::vector<std::vector<T>> inputs;
    for (DenseElementsAttr operand : operands)
      inputs.push_back(readFloats<T>(operand));
    std::vector<T> results(allSplat ? 1 : type.getNumElements());
    SmallVector<T, 2> args(operands.size());
    walkBroadcast(walkShape, shapes, [&](int64_t out, ArrayRef<int64_t> in) {
      for (size_t k = 0; k < in.size(); ++k)
        args[k] = inputs[k][in[k]];
      results[out] = floatFn(ArrayRef<T>(args));
    });
    return writeFloats<T>(type, results);
  };
  if (isa<FloatType>(element))
    return element.isF64() ? compute(double()) : compute(float());
  if (!isa<IntegerType>(element) || element.isInteger(1))
    return {};
  bool isUnsigned = element.isUnsignedInteger();
  std::vector<std::vector<APInt>> inputs;
  for (DenseElementsAttr operand : operands) {
    if (operand.isSplat())
      inputs.push_back({operand.getSplatValue<APInt>()});
    else
      inputs.emplace_back(operand.getValues<APInt>().begin(),
                          operand.getValues<APInt>().end());
  }
  SmallVector<APInt> results(allSplat ? 1 : type.getNumElements());
  SmallVector<APInt, 2> args(operands.size());
  bool ok = true;
  walkBroadcast(walkShape, shapes, [&](int64_t out, ArrayRef<int64_t> in) {
    if (!ok)
      return;
    for (size_t k = 0; k < in.size(); ++k)
      args[k] = inputs[k][in[k]];
    std::optional<APInt> r = intFn(ArrayRef<APInt>(args), isUnsigned);
    if (!r)
      ok = false;
    else
      results[out] = *r;
  });
  if (!ok)
    return {};
  return DenseElementsAttr::get(type, results);
}

//===----------------------------------------------------------------------===//
// 4. Constant folding
//===----------------------------------------------------------------------===//

/// Base of the folding patterns: the constant operands, the size check and
/// the replacement by a tfaot.Const.
template <typename OpTy>
struct ConstantFold : OpRewritePattern<OpTy> {
  // Before MaterializeFolds, so that integer ops the dialect folds too are
  // folded here, with broadcasting and the same results.
  ConstantFold(MLIRContext *ctx, Counters &counters, const FoldLimits &limits)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/2), counters(counters),
        limits(limits) {}

  /// The dense constants behind `values`, or none if one is not constant.
  static std::optional<SmallVector<DenseElementsAttr>>
  constants(ValueRange values) {
    SmallVector<DenseElementsAttr> attrs;
    for (Value v : values) {
      DenseElementsAttr attr = denseConstant(v);
      if (!attr)
        return std::nullopt;
      attrs.push_back(attr);
    }
    return attrs;
  }

  LogicalResult replaceWith(OpTy op, DenseElementsAttr value,
                            PatternRewriter &rewriter) const {
    if (!value || value.getType() != op->getResult(0).getType())
      return failure();
    counters.record(counters.constantsFolded, op,
                    "folded " + op->getName().stripDialect().str() +
                        " of constants");
    rewriter.replaceOpWithNewOp<ConstOp>(op, value.getType(), value);
    return success();
  }

  Counters &counters;
  const FoldLimits &limits;
};

/// The arithmetic of a unary or binary kind on one element's operands.
template <typename Args> auto applyKind(UnaryKind kind, const Args &args) {
  return applyUnary(kind, args[0]);
}
template <typename Args> auto applyKind(BinaryKind kind, const Args &args) {
  return applyBinary(kind, args[0], args[1]);
}
std::optional<APInt> applyKindInt(UnaryKind kind, ArrayRef<APInt> args,
                                  bool isUnsigned) {
  return applyUnaryInt(kind, args[0], isUnsigned);
}
std::optional<APInt> applyKindInt(BinaryKind kind, ArrayRef<APInt> args,
                                  bool isUnsigned) {
  return applyBinaryInt(kind, args[0], args[1], isUnsigned);
}

/// Folds an elementwise op whose operands are all constants; `Kind`
/// (UnaryKind or BinaryKind) selects the arithmetic.
template <typename OpTy, typename Kind>
struct FoldElementwise : ConstantFold<OpTy> {
  FoldElementwise(MLIRContext *ctx, Counters &counters,
                  const FoldLimits &limits, Kind kind)
      : ConstantFold<OpTy>(ctx, counters, limits), kind(kind) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto operands = this->constants(op->getOperands());
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!operands ||
        !withinLimits(op, type, *operands, this->limits, this->counters))
      return failure();
    Kind k = kind;
    DenseElementsAttr value = foldElementwise(
        type, *operands, [k](auto args) { return applyKind(k, args); },
        [k](ArrayRef<APInt> args, bool isUnsigned) {
          return applyKindInt(k, args, isUnsigned);
        });
    return this->replaceWith(op, value, rewriter);
  }
  Kind kind;
};
template <typename OpTy>
using FoldUnary = FoldElementwise<OpTy, UnaryKind>;
template <typename OpTy>
using FoldBinary = FoldElementwise<OpTy, BinaryKind>;

/// One element of a Cast, as CastLowering's castScalar computes it; nullopt
/// where the generated code's result is undefined (a float that the target
/// integer type cannot hold, NaN included).
std::optional<APInt> castToInt(Attribute element, Type from, Type to) {
  unsigned width = to.getIntOrFloatBitWidth();
  if (isa<FloatType>(from)) {
    APFloat v = cast<FloatAttr>(element).getValue();
    if (to.isInteger(1)) // != 0, unordered: NaN is true.
      return APInt(1, !v.isZero());
    APSInt result(width, /*isUnsigned=*/to.isUnsignedInteger());
    bool exact;
    if (v.convertToInteger(result, APFloat::rmTowardZero, &exact) &
        APFloat::opInvalidOp)
      return std::nullopt;
    return APInt(result);
  }
  APInt v = cast<IntegerAttr>(element).getValue();
  if (to.isInteger(1))
    return APInt(1, !v.isZero());
  // Unsigned sources (and bool) widen with zeros, signed ones with the sign.
  bool fromUnsigned = from.isUnsignedInteger() || from.isInteger(1);
  return fromUnsigned ? v.zextOrTrunc(width) : v.sextOrTrunc(width);
}

std::optional<APFloat> castToFloat(Attribute element, Type from, Type to) {
  const llvm::fltSemantics &semantics = cast<FloatType>(to).getFloatSemantics();
  if (isa<FloatType>(from)) {
    APFloat v = cast<FloatAttr>(element).getValue();
    bool lost;
    v.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    return v;
  }
  APInt v = cast<IntegerAttr>(element).getValue();
  bool fromUnsigned = from.isUnsignedInteger() || from.isInteger(1);
  APFloat result(semantics);
  result.convertFromAPInt(v, /*IsSigned=*/!fromUnsigned,
                          APFloat::rmNearestTiesToEven);
  return result;
}

struct FoldCast : ConstantFold<CastOp> {
  using ConstantFold::ConstantFold;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto operands = constants(op->getOperands());
    RankedTensorType type = op.getType();
    if (!operands || op.getX().getType() == type ||
        !withinLimits(op, type, *operands, limits, counters))
      return failure();
    DenseElementsAttr input = (*operands)[0];
    Type from = input.getElementType(), to = type.getElementType();
    auto elements = input.isSplat()
                        ? SmallVector<Attribute>{input.getSplatValue<Attribute>()}
                        : SmallVector<Attribute>(input.getValues<Attribute>());
    if (isa<FloatType>(to)) {
      SmallVector<APFloat> values;
      for (Attribute e : elements)
        values.push_back(*castToFloat(e, from, to));
      return replaceWith(op, DenseElementsAttr::get(type, values), rewriter);
    }
    if (!isa<IntegerType>(to))
      return failure();
    if (to.isInteger(1)) {
      SmallVector<bool> values;
      for (Attribute e : elements) {
        auto v = castToInt(e, from, to);
        values.push_back(v && !v->isZero());
      }
      return replaceWith(op, DenseElementsAttr::get(type, values), rewriter);
    }
    SmallVector<APInt> values;
    for (Attribute e : elements) {
      auto v = castToInt(e, from, to);
      if (!v)
        return failure();
      values.push_back(*v);
    }
    return replaceWith(op, DenseElementsAttr::get(type, values), rewriter);
  }
};

/// Transpose of a constant: the elements permuted, moved as raw bytes (or
/// bools).
struct FoldTranspose : ConstantFold<TransposeOp> {
  using ConstantFold::ConstantFold;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr input = denseConstant(op.getX());
    auto perm = getConstantIntValues(op.getPerm());
    RankedTensorType type = op.getType();
    auto inputType = op.getX().getType();
    if (!input || !perm || !inputType.hasStaticShape() ||
        !withinLimits(op, type, {input}, limits, counters))
      return failure();
    int64_t rank = inputType.getRank();
    if (int64_t(perm->size()) != rank ||
        llvm::any_of(*perm, [&](int64_t p) { return p < 0 || p >= rank; }))
      return failure();
    return replaceWith(op, transposeElements(input, *perm), rewriter);
  }
};

/// ConcatV2 of constants, of any element type and along any axis (the
/// dialect's folder takes integer vectors along axis 0): for each index of
/// the dimensions before the axis, every operand's block in turn.
struct FoldConcat : ConstantFold<ConcatV2Op> {
  using ConstantFold::ConstantFold;
  LogicalResult matchAndRewrite(ConcatV2Op op,
                                PatternRewriter &rewriter) const override {
    auto axisValues = getConstantIntValues(op.getAxis());
    auto operands = constants(op.getValues());
    RankedTensorType type = op.getType();
    if (!axisValues || axisValues->size() != 1 || !operands ||
        !withinLimits(op, type, *operands, limits, counters))
      return failure();
    int64_t rank = type.getRank();
    int64_t axis = (*axisValues)[0] < 0 ? (*axisValues)[0] + rank
                                        : (*axisValues)[0];
    if (axis < 0 || axis >= rank)
      return failure();
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= type.getDimSize(d);
    // Elements of each operand per index of the outer dimensions.
    SmallVector<int64_t> blocks;
    for (DenseElementsAttr operand : *operands) {
      auto operandType = operand.getType();
      if (operandType.getRank() != rank || !operandType.hasStaticShape())
        return failure();
      blocks.push_back(outer ? operandType.getNumElements() / outer : 0);
    }
    Type element = type.getElementType();
    if (element.isInteger(1)) {
      SmallVector<bool> values;
      SmallVector<SmallVector<bool>> inputs;
      for (DenseElementsAttr operand : *operands)
        inputs.emplace_back(operand.getValues<bool>());
      for (int64_t o = 0; o < outer; ++o)
        for (auto [input, block] : llvm::zip(inputs, blocks))
          values.append(input.begin() + o * block,
                        input.begin() + (o + 1) * block);
      return replaceWith(op, DenseElementsAttr::get(type, values), rewriter);
    }
    size_t bytes = element.getIntOrFloatBitWidth() / 8;
    if (bytes == 0)
      return failure();
    std::vector<char> buffer;
    buffer.reserve(type.getNumElements() * bytes);
    for (int64_t o = 0; o < outer; ++o)
      for (auto [operand, block] : llvm::zip(*operands, blocks)) {
        ArrayRef<char> raw = operand.getRawData();
        if (operand.isSplat()) {
          for (int64_t i = 0; i < block; ++i)
            buffer.insert(buffer.end(), raw.begin(), raw.begin() + bytes);
        } else {
          auto first = raw.begin() + o * block * bytes;
          buffer.insert(buffer.end(), first, first + block * bytes);
        }
      }
    if (buffer.size() != size_t(type.getNumElements()) * bytes)
      return failure();
    return replaceWith(op, DenseElementsAttr::getFromRawBuffer(type, buffer),
                       rewriter);
  }
};

/// The dialect's folders (integer arithmetic, Reshape, ConcatV2,
/// StridedSlice, Slice of constants) return attributes, which the greedy
/// driver cannot turn into ops: the dialect has no constant materializer.
/// This pattern calls them and makes each constant result a tfaot.Const.
struct MaterializeFolds : RewritePattern {
  MaterializeFolds(MLIRContext *ctx, Counters &counters)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        counters(counters) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<TfaotDialect>(op->getDialect()) || isa<ConstOp>(op) ||
        op->getNumOperands() == 0)
      return failure();
    SmallVector<Attribute> operands;
    bool anyConstant = false;
    for (Value v : op->getOperands()) {
      Attribute attr;
      matchPattern(v, m_Constant(&attr));
      anyConstant |= bool(attr);
      operands.push_back(attr);
    }
    SmallVector<OpFoldResult> results;
    if (!anyConstant || failed(op->fold(operands, results)) ||
        results.size() != op->getNumResults())
      return failure();
    SmallVector<Value> replacements;
    for (auto [result, folded] : llvm::zip(op->getResults(), results)) {
      auto attr = dyn_cast_if_present<ElementsAttr>(
          dyn_cast_if_present<Attribute>(folded));
      if (!attr || attr.getType() != result.getType())
        return failure();
    }
    for (auto [result, folded] : llvm::zip(op->getResults(), results)) {
      auto attr = cast<ElementsAttr>(cast<Attribute>(folded));
      replacements.push_back(
          ConstOp::create(rewriter, op->getLoc(), result.getType(), attr));
    }
    counters.record(counters.foldsMaterialized, op,
                    "folded " + op->getName().stripDialect().str() +
                        " of constants");
    rewriter.replaceOp(op, replacements);
    return success();
  }
  Counters &counters;
};

} // namespace

void simplify::populateConstantFoldPatterns(RewritePatternSet &patterns,
                                            Counters &counters,
                                            const FoldLimits &limits) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FoldUnary<NegOp>>(ctx, counters, limits, UnaryKind::Neg);
  patterns.add<FoldUnary<AbsOp>>(ctx, counters, limits, UnaryKind::Abs);
  patterns.add<FoldUnary<SqrtOp>>(ctx, counters, limits, UnaryKind::Sqrt);
  patterns.add<FoldUnary<RsqrtOp>>(ctx, counters, limits, UnaryKind::Rsqrt);
  patterns.add<FoldUnary<ReciprocalOp>>(ctx, counters, limits,
                                        UnaryKind::Reciprocal);
  patterns.add<FoldUnary<ExpOp>>(ctx, counters, limits, UnaryKind::Exp);
  patterns.add<FoldUnary<LogOp>>(ctx, counters, limits, UnaryKind::Log);
  patterns.add<FoldUnary<SquareOp>>(ctx, counters, limits,
                                    UnaryKind::Square);
  patterns.add<FoldUnary<ReluOp>>(ctx, counters, limits, UnaryKind::Relu);
  patterns.add<FoldUnary<Relu6Op>>(ctx, counters, limits, UnaryKind::Relu6);
  patterns.add<FoldUnary<FloorOp>>(ctx, counters, limits, UnaryKind::Floor);
  patterns.add<FoldUnary<CeilOp>>(ctx, counters, limits, UnaryKind::Ceil);
  patterns.add<FoldBinary<AddOp>>(ctx, counters, limits, BinaryKind::Add);
  patterns.add<FoldBinary<AddV2Op>>(ctx, counters, limits, BinaryKind::Add);
  patterns.add<FoldBinary<SubOp>>(ctx, counters, limits, BinaryKind::Sub);
  patterns.add<FoldBinary<MulOp>>(ctx, counters, limits, BinaryKind::Mul);
  patterns.add<FoldBinary<RealDivOp>>(ctx, counters, limits,
                                      BinaryKind::Div);
  patterns.add<FoldBinary<MaximumOp>>(ctx, counters, limits,
                                      BinaryKind::Max);
  patterns.add<FoldBinary<MinimumOp>>(ctx, counters, limits,
                                      BinaryKind::Min);
  patterns.add<FoldBinary<SquaredDifferenceOp>>(
      ctx, counters, limits, BinaryKind::SquaredDifference);
  patterns.add<FoldCast, FoldTranspose, FoldConcat>(ctx, counters, limits);
  patterns.add<MaterializeFolds>(ctx, counters);
}
