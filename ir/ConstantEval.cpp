//===- ConstantEval.cpp - Compile-time evaluation of demanded values ------===//
// SPDX-License-Identifier: Apache-2.0
//
// The evaluator ConstantEval.h declares. Tensors are evaluated into a
// simple host form (doubles for float elements, already rounded to their
// type; int64 for integers and bools, wrapped to their width) so that every
// op is a few lines over flat element lists.
//
//===----------------------------------------------------------------------===//
#include "ir/ConstantEval.h"

#include "ir/Ops.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <functional>
#include <optional>

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// A tensor's elements on the host. Exactly one of `f` and `i` is used,
/// by the element type.
struct HostTensor {
  RankedTensorType type;
  SmallVector<double> f;
  SmallVector<int64_t> i;

  bool isFloat() const { return isa<FloatType>(type.getElementType()); }
  int64_t size() const { return type.getNumElements(); }
};

/// `x` rounded to float element type `t`, as an op of that type computes it.
double roundTo(Type t, double x) {
  if (t.isF64())
    return x;
  if (t.isF32())
    return double(float(x));
  APFloat v(x);
  bool lost;
  v.convert(cast<FloatType>(t).getFloatSemantics(),
            APFloat::rmNearestTiesToEven, &lost);
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return v.convertToDouble();
}

/// `x` wrapped to integer element type `t`, as its arithmetic wraps.
int64_t wrapTo(Type t, int64_t x) {
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 1)
    return x != 0;
  if (width >= 64)
    return x;
  uint64_t mask = (uint64_t(1) << width) - 1, bits = uint64_t(x) & mask;
  if (t.isUnsignedInteger())
    return int64_t(bits);
  return int64_t(bits ^ (uint64_t(1) << (width - 1))) -
         int64_t(uint64_t(1) << (width - 1));
}

HostTensor fromAttr(DenseElementsAttr attr) {
  HostTensor t{cast<RankedTensorType>(attr.getType()), {}, {}};
  Type element = t.type.getElementType();
  if (t.isFloat()) {
    for (APFloat v : attr.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      t.f.push_back(v.convertToDouble());
    }
  } else {
    bool zext = element.isUnsignedInteger() || element.isInteger(1);
    for (const APInt &v : attr.getValues<APInt>())
      t.i.push_back(zext ? int64_t(v.getZExtValue()) : v.getSExtValue());
  }
  return t;
}

DenseElementsAttr toAttr(const HostTensor &t) {
  Type element = t.type.getElementType();
  if (t.isFloat()) {
    SmallVector<APFloat> values;
    for (double x : t.f) {
      APFloat v(x);
      bool lost;
      v.convert(cast<FloatType>(element).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lost);
      values.push_back(v);
    }
    return DenseElementsAttr::get(t.type, values);
  }
  unsigned width = element.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (int64_t x : t.i)
    values.push_back(APInt(width, uint64_t(x), /*isSigned=*/false,
                           /*implicitTrunc=*/true));
  return DenseElementsAttr::get(t.type, values);
}

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// The flat index into a tensor of `in` shape that NumPy broadcasting reads
/// for flat index `flat` of the `out` shape.
int64_t broadcastIndex(ArrayRef<int64_t> out, ArrayRef<int64_t> in,
                       int64_t flat) {
  int64_t offset = int64_t(out.size()) - int64_t(in.size()), index = 0,
          stride = 1;
  for (int64_t d = int64_t(out.size()) - 1; d >= 0; --d) {
    int64_t coordinate = flat % out[d];
    flat /= out[d];
    int64_t di = d - offset;
    if (di < 0)
      continue;
    if (in[di] != 1)
      index += coordinate * stride;
    stride *= in[di];
  }
  return index;
}

/// A new tensor of `type` whose element n is element `source(n)` of `from`
/// (gathers, slices, transposes, broadcasts: every op that only moves).
HostTensor moveElements(const HostTensor &from, RankedTensorType type,
                        function_ref<int64_t(int64_t)> source) {
  HostTensor t{type, {}, {}};
  for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
    if (from.isFloat())
      t.f.push_back(from.f[source(n)]);
    else
      t.i.push_back(from.i[source(n)]);
  }
  return t;
}

/// The evaluator of one demanded value, with the values already computed.
class Evaluator {
public:
  explicit Evaluator(EvalFailure &failure) : failure_(failure) {}

  std::optional<HostTensor> evaluate(Value value);

private:
  std::optional<HostTensor> stop(Value value, std::string why = {}) {
    failure_.blocker = value;
    failure_.why = std::move(why);
    return std::nullopt;
  }
  std::optional<HostTensor> compute(Operation *op, Value value,
                                    ArrayRef<HostTensor> in);
  std::optional<HostTensor> binary(Operation *op, Value value,
                                   ArrayRef<HostTensor> in);
  std::optional<HostTensor> unary(Operation *op, Value value,
                                  const HostTensor &x);
  std::optional<HostTensor> reduce(Operation *op, Value value,
                                   ArrayRef<HostTensor> in);

  EvalFailure &failure_;
  DenseMap<Value, HostTensor> done_;
};

} // namespace

/// The ops the evaluator knows, by name (without the dialect prefix).
static bool isEvaluable(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"Identity", "Reshape", "Cast", "Add", "AddV2", "Sub", "Mul",
              "RealDiv", "Maximum", "Minimum", "FloorDiv", "FloorMod"},
             true)
      .Cases({"SquaredDifference", "Greater", "GreaterEqual", "Less",
              "LessEqual", "Equal", "NotEqual", "LogicalAnd", "LogicalOr",
              "LogicalNot", "SelectV2"},
             true)
      .Cases({"Neg", "Abs", "Square", "Floor", "Ceil", "Round", "Sqrt",
              "Reciprocal", "Relu", "Relu6"},
             true)
      .Cases({"StridedSlice", "Slice", "ConcatV2", "GatherV2", "Transpose",
              "Pad", "BroadcastTo"},
             true)
      .Cases({"Sum", "Prod", "Max", "Min", "Mean", "Any", "All"}, true)
      .Default(false);
}

std::optional<HostTensor> Evaluator::evaluate(Value value) {
  if (auto it = done_.find(value); it != done_.end())
    return it->second;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return stop(value, "its shape is not static");
  if (type.getNumElements() > kMaxEvalElements)
    return stop(value, "it has " + std::to_string(type.getNumElements()) +
                           " elements, more than the compile-time evaluation "
                           "computes (" +
                           std::to_string(kMaxEvalElements) + ")");
  Operation *op = value.getDefiningOp();
  if (!op)
    return stop(value); // A function argument: a feed.
  std::optional<HostTensor> result;
  if (auto constant = dyn_cast<ConstOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense)
      return stop(value, "its constant is not a dense tensor");
    result = fromAttr(dense);
  } else {
    if (op->getName().getDialectNamespace() != "tfaot" ||
        !isEvaluable(op->getName().stripDialect()))
      return stop(value);
    SmallVector<HostTensor> in;
    for (Value operand : op->getOperands()) {
      std::optional<HostTensor> t = evaluate(operand);
      if (!t)
        return std::nullopt;
      in.push_back(std::move(*t));
    }
    result = compute(op, value, in);
  }
  if (result)
    done_[value] = *result;
  return result;
}

std::optional<HostTensor> Evaluator::compute(Operation *op, Value value,
                                             ArrayRef<HostTensor> in) {
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  StringRef name = op->getName().stripDialect();
  if (name == "Identity" || name == "Reshape") {
    HostTensor t = in[0];
    t.type = type;
    return t;
  }
  if (name == "Cast") {
    HostTensor t{type, {}, {}};
    const HostTensor &x = in[0];
    for (int64_t n = 0; n < x.size(); ++n) {
      if (element.isInteger(1)) // "!= 0", as TF and the lowering do.
        t.i.push_back(x.isFloat() ? x.f[n] != 0 : x.i[n] != 0);
      else if (t.isFloat())
        t.f.push_back(roundTo(element, x.isFloat() ? x.f[n] : double(x.i[n])));
      else if (x.isFloat()) {
        // Float to integer rounds toward zero; outside the type's range C++
        // (and so TF's kernel) is undefined, so that is no constant.
        double v = std::trunc(x.f[n]);
        if (!(std::fabs(v) < 9.2e18))
          return stop(value, "it casts " + std::to_string(x.f[n]) +
                                 " to an integer type that cannot hold it");
        t.i.push_back(wrapTo(element, int64_t(v)));
      } else
        t.i.push_back(wrapTo(element, x.i[n]));
    }
    return t;
  }
  if (name == "SelectV2") {
    HostTensor t{type, {}, {}};
    for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
      const HostTensor &pick =
          in[0].i[broadcastIndex(type.getShape(), in[0].type.getShape(), n)]
              ? in[1]
              : in[2];
      int64_t at = broadcastIndex(type.getShape(), pick.type.getShape(), n);
      if (t.isFloat())
        t.f.push_back(pick.f[at]);
      else
        t.i.push_back(pick.i[at]);
    }
    return t;
  }
  if (op->getNumOperands() == 1)
    return unary(op, value, in[0]);
  if (isa<StridedSliceOp, SliceOp>(op)) {
    auto inputType = in[0].type;
    SmallVector<int64_t> offsets, sizes, steps;
    std::string why;
    if (auto slice = dyn_cast<StridedSliceOp>(op)) {
      auto spec = computeStridedSlice(
          inputType.getShape(), in[1].i, in[2].i, in[3].i,
          slice.getBeginMask(), slice.getEndMask(), slice.getEllipsisMask(),
          slice.getNewAxisMask(), slice.getShrinkAxisMask(), why);
      if (failed(spec))
        return stop(value, why);
      offsets = spec->offsets;
      sizes = spec->sizes;
      steps = spec->strides;
    } else {
      if (failed(resolveSlice(inputType.getShape(), in[1].i, in[2].i, sizes,
                              why)))
        return stop(value, why);
      offsets = in[1].i;
      steps.assign(sizes.size(), 1);
    }
    SmallVector<int64_t> inStrides = stridesOf(inputType.getShape());
    return moveElements(in[0], type, [&](int64_t n) {
      int64_t flat = 0;
      for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
        flat += (offsets[d] + (n % sizes[d]) * steps[d]) * inStrides[d];
        n /= sizes[d];
      }
      return flat;
    });
  }
  if (name == "ConcatV2") {
    int64_t rank = type.getRank();
    int64_t axis = in.back().i[0] < 0 ? in.back().i[0] + rank : in.back().i[0];
    // Element n lies in the piece whose range of the axis holds its
    // coordinate there; outer = the product of the dims before the axis.
    SmallVector<int64_t> starts;
    int64_t start = 0;
    for (const HostTensor &piece : in.drop_back()) {
      starts.push_back(start);
      start += piece.type.getDimSize(axis);
    }
    int64_t inner = 1;
    for (int64_t d = axis + 1; d < rank; ++d)
      inner *= type.getDimSize(d);
    HostTensor t{type, {}, {}};
    for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
      int64_t along = (n / inner) % type.getDimSize(axis),
              outer = n / (inner * type.getDimSize(axis)), p = 0;
      while (p + 1 < int64_t(starts.size()) && starts[p + 1] <= along)
        ++p;
      int64_t size = in[p].type.getDimSize(axis);
      int64_t at = (outer * size + along - starts[p]) * inner + n % inner;
      if (t.isFloat())
        t.f.push_back(in[p].f[at]);
      else
        t.i.push_back(in[p].i[at]);
    }
    return t;
  }
  if (name == "GatherV2") {
    const HostTensor &params = in[0], &indices = in[1];
    int64_t axis = in[2].i[0] < 0 ? in[2].i[0] + params.type.getRank()
                                  : in[2].i[0];
    int64_t size = params.type.getDimSize(axis), inner = 1;
    for (int64_t d = axis + 1; d < params.type.getRank(); ++d)
      inner *= params.type.getDimSize(d);
    for (int64_t index : indices.i)
      if (index < 0 || index >= size)
        return stop(value, "it gathers index " + std::to_string(index) +
                               " of a dimension of size " +
                               std::to_string(size));
    int64_t count = indices.size();
    return moveElements(params, type, [&](int64_t n) {
      int64_t within = n % inner, j = (n / inner) % count,
              outer = n / (inner * count);
      return (outer * size + indices.i[j]) * inner + within;
    });
  }
  if (name == "Transpose") {
    ArrayRef<int64_t> perm = in[1].i;
    SmallVector<int64_t> inStrides = stridesOf(in[0].type.getShape());
    return moveElements(in[0], type, [&](int64_t n) {
      int64_t flat = 0;
      for (int64_t d = type.getRank() - 1; d >= 0; --d) {
        flat += (n % type.getDimSize(d)) * inStrides[perm[d]];
        n /= type.getDimSize(d);
      }
      return flat;
    });
  }
  if (name == "BroadcastTo")
    return moveElements(in[0], type, [&](int64_t n) {
      return broadcastIndex(type.getShape(), in[0].type.getShape(), n);
    });
  if (name == "Pad") {
    // Element n is the fill value unless every coordinate lies inside.
    HostTensor t{type, {}, {}};
    SmallVector<int64_t> inStrides = stridesOf(in[0].type.getShape());
    for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
      int64_t rest = n, flat = 0;
      bool inside = true;
      for (int64_t d = type.getRank() - 1; d >= 0; --d) {
        int64_t c = rest % type.getDimSize(d) - in[1].i[2 * d];
        rest /= type.getDimSize(d);
        inside &= c >= 0 && c < in[0].type.getDimSize(d);
        flat += c * inStrides[d];
      }
      if (t.isFloat())
        t.f.push_back(inside ? in[0].f[flat] : in[2].f[0]);
      else
        t.i.push_back(inside ? in[0].i[flat] : in[2].i[0]);
    }
    return t;
  }
  if (isa<SumOp, ProdOp, MaxOp, MinOp, MeanOp, AnyOp, AllOp>(op))
    return reduce(op, value, in);
  return binary(op, value, in);
}

// The six comparisons, for float (double) and integer (int64_t) operands
// alike; nullopt when `name` is not a comparison.
template <typename T>
static std::optional<bool> compare(StringRef name, T a, T b) {
  return llvm::StringSwitch<std::optional<bool>>(name)
      .Case("Greater", a > b)
      .Case("GreaterEqual", a >= b)
      .Case("Less", a < b)
      .Case("LessEqual", a <= b)
      .Case("Equal", a == b)
      .Case("NotEqual", a != b)
      .Default(std::nullopt);
}

std::optional<HostTensor> Evaluator::binary(Operation *op, Value value,
                                            ArrayRef<HostTensor> in) {
  auto type = cast<RankedTensorType>(value.getType());
  StringRef name = op->getName().stripDialect();
  const HostTensor &x = in[0], &y = in[1];
  HostTensor t{type, {}, {}};
  Type element = x.type.getElementType();
  for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
    int64_t ax = broadcastIndex(type.getShape(), x.type.getShape(), n);
    int64_t ay = broadcastIndex(type.getShape(), y.type.getShape(), n);
    if (x.isFloat()) {
      double a = x.f[ax], b = y.f[ay];
      if (std::optional<bool> c = compare(name, a, b)) {
        t.i.push_back(*c);
        continue;
      }
      double r;
      if (name == "Add" || name == "AddV2")
        r = a + b;
      else if (name == "Sub")
        r = a - b;
      else if (name == "Mul")
        r = a * b;
      else if (name == "RealDiv")
        r = a / b;
      else if (name == "Maximum")
        r = std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
      else if (name == "Minimum")
        r = std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
      else if (name == "FloorDiv") // TF: floor of the rounded quotient.
        r = std::floor(roundTo(element, a / b));
      else if (name == "FloorMod") { // TF: fmod, moved to y's sign.
        double m = std::fmod(a, b);
        r = m != 0 && ((b < 0) != (m < 0)) ? m + b : m;
      } else if (name == "SquaredDifference") {
        double d = roundTo(element, a - b);
        r = d * d;
      } else
        return stop(value);
      t.f.push_back(roundTo(element, r));
      continue;
    }
    int64_t a = x.i[ax], b = y.i[ay];
    if (std::optional<bool> c = compare(name, a, b)) {
      t.i.push_back(*c);
      continue;
    }
    std::optional<int64_t> r =
        llvm::StringSwitch<std::optional<int64_t>>(name)
            .Case("LogicalAnd", a && b)
            .Case("LogicalOr", a || b)
            .Cases({"Add", "AddV2"}, int64_t(uint64_t(a) + uint64_t(b)))
            .Case("Sub", int64_t(uint64_t(a) - uint64_t(b)))
            .Case("Mul", int64_t(uint64_t(a) * uint64_t(b)))
            .Case("Maximum", std::max(a, b))
            .Case("Minimum", std::min(a, b))
            .Case("SquaredDifference",
                  int64_t(uint64_t(a - b) * uint64_t(a - b)))
            .Default(std::nullopt);
    if (!r && (name == "RealDiv" || name == "FloorDiv" || name == "FloorMod")) {
      if (b == 0)
        return stop(value, "it divides by zero");
      int64_t q = a / b, m = a % b; // C++ and TF's integer RealDiv truncate.
      bool adjust = m != 0 && ((m < 0) != (b < 0));
      r = name == "RealDiv"    ? q
          : name == "FloorDiv" ? (adjust ? q - 1 : q)
                               : (adjust ? m + b : m);
    }
    if (!r)
      return stop(value);
    t.i.push_back(wrapTo(type.getElementType(), *r));
  }
  return t;
}

std::optional<HostTensor> Evaluator::unary(Operation *op, Value value,
                                           const HostTensor &x) {
  auto type = cast<RankedTensorType>(value.getType());
  StringRef name = op->getName().stripDialect();
  HostTensor t{type, {}, {}};
  Type element = type.getElementType();
  for (int64_t n = 0; n < x.size(); ++n) {
    if (x.isFloat()) {
      double a = x.f[n];
      std::optional<double> r =
          llvm::StringSwitch<std::optional<double>>(name)
              .Case("Neg", -a)
              .Case("Abs", std::fabs(a))
              .Case("Square", a * a)
              .Case("Floor", std::floor(a))
              .Case("Ceil", std::ceil(a))
              .Case("Round", std::nearbyint(a)) // half to even
              .Case("Sqrt", std::sqrt(a))
              .Case("Reciprocal", 1 / a)
              .Case("Relu", a > 0 ? a : 0)
              .Case("Relu6", std::min(std::max(a, 0.0), 6.0))
              .Default(std::nullopt);
      if (!r)
        return stop(value);
      t.f.push_back(roundTo(element, *r));
      continue;
    }
    int64_t a = x.i[n];
    std::optional<int64_t> r =
        llvm::StringSwitch<std::optional<int64_t>>(name)
            .Case("Neg", int64_t(0 - uint64_t(a)))
            .Case("Abs", a < 0 ? -a : a)
            .Case("Square", int64_t(uint64_t(a) * uint64_t(a)))
            .Case("LogicalNot", !a)
            .Case("Relu", std::max<int64_t>(a, 0))
            .Case("Relu6", std::min<int64_t>(std::max<int64_t>(a, 0), 6))
            .Default(std::nullopt);
    if (!r)
      return stop(value);
    t.i.push_back(wrapTo(element, *r));
  }
  return t;
}

std::optional<HostTensor> Evaluator::reduce(Operation *op, Value value,
                                            ArrayRef<HostTensor> in) {
  const HostTensor &x = in[0];
  StringRef name = op->getName().stripDialect();
  int64_t rank = x.type.getRank();
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : in[1].i) {
    if (axis < -rank || axis >= rank)
      return stop(value, "it reduces axis " + std::to_string(axis) +
                             " of a rank-" + std::to_string(rank) + " tensor");
    reduced[axis < 0 ? axis + rank : axis] = true;
  }
  // Each input element goes to the output element with its reduced
  // coordinates dropped; the result type says whether they stay as 1s.
  SmallVector<int64_t> keptShape;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      keptShape.push_back(x.type.getDimSize(d));
  SmallVector<int64_t> keptStrides = stridesOf(keptShape);
  auto type = cast<RankedTensorType>(value.getType());
  int64_t count = x.size() / std::max<int64_t>(type.getNumElements(), 1);
  Type element = type.getElementType();
  SmallVector<double> accF(type.getNumElements());
  SmallVector<int64_t> accI(type.getNumElements());
  SmallVector<bool> seen(type.getNumElements(), false);
  for (int64_t n = 0; n < x.size(); ++n) {
    int64_t rest = n, out = 0, k = int64_t(keptShape.size()) - 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t c = rest % x.type.getDimSize(d);
      rest /= x.type.getDimSize(d);
      if (!reduced[d])
        out += c * keptStrides[k--];
    }
    bool first = !seen[out];
    seen[out] = true;
    if (x.isFloat()) {
      // In input order, rounded at each step: TF's kernels may sum in
      // another order, which only matters for float sums of many terms.
      double a = x.f[n], &acc = accF[out];
      acc = first                           ? a
            : name == "Max"                 ? std::max(acc, a)
            : name == "Min"                 ? std::min(acc, a)
            : name == "Prod"                ? roundTo(element, acc * a)
                                            : roundTo(element, acc + a);
    } else {
      int64_t a = x.i[n], &acc = accI[out];
      acc = first                           ? a
            : name == "Max"                 ? std::max(acc, a)
            : name == "Min"                 ? std::min(acc, a)
            : name == "Prod"                ? wrapTo(element, acc * a)
            : name == "Any"                 ? int64_t(acc || a)
            : name == "All"                 ? int64_t(acc && a)
                                            : wrapTo(element, acc + a);
    }
  }
  HostTensor t{type, {}, {}};
  for (int64_t o = 0; o < type.getNumElements(); ++o) {
    bool empty = !seen[o];
    if (t.isFloat()) {
      double v = empty ? (name == "Prod" ? 1 : 0) : accF[o];
      t.f.push_back(name == "Mean" && count ? roundTo(element, v / count) : v);
    } else {
      int64_t v = empty ? (name == "Prod" || name == "All" ? 1 : 0) : accI[o];
      t.i.push_back(name == "Mean" && count ? v / count : v);
    }
  }
  if (x.size() == 0 && (name == "Max" || name == "Min"))
    return stop(value, "it reduces an empty tensor with " + name.str());
  return t;
}

FailureOr<DenseElementsAttr>
mlir::tfaot::evaluateConstant(Value value, EvalFailure &failure) {
  Evaluator evaluator(failure);
  std::optional<HostTensor> t = evaluator.evaluate(value);
  if (!t)
    return mlir::failure();
  return toAttr(*t);
}
