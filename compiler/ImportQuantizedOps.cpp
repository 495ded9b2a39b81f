//===- ImportQuantizedOps.cpp - Dequantize of quantized weights -------------===//
//
// Weight-quantized graphs (TF's graph_transforms quantize_weights, as in
// tf-poets' quantized MobileNet) store weights as quint8 constants with a
// float range and turn them back into floats with Dequantize. tfaot folds
// such a Dequantize into a float constant at import, computing exactly what
// TensorFlow's kernel computes (in double, rounded once to float). Quantized
// tensors are imported as their storage integers (quint8 as ui8, qint8 as
// i8, ...), see convertDataType.
//
// Dequantize of a computed tensor (the output of quantized kernels such as
// QuantizedConv2D) needs those kernels, which tfaot does not compile yet; it
// is reported as such.
//
//===----------------------------------------------------------------------===//
#include "compiler/ImportHelpers.h"

#include "compiler/GraphLoader.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace mlir;
using namespace ::tfaot;

namespace {
/// The integer range of a quantized storage type.
struct QuantizedRange {
  double lowest, highest;
  int bits;
  bool isSigned;
};

QuantizedRange rangeOf(IntegerType type) {
  int bits = type.getWidth();
  bool isSigned = !type.isUnsigned();
  double lowest = isSigned ? -std::ldexp(1.0, bits - 1) : 0.0;
  double highest = isSigned ? std::ldexp(1.0, bits - 1) - 1
                            : std::ldexp(1.0, bits) - 1;
  return {lowest, highest, bits, isSigned};
}

/// The float TensorFlow's Dequantize kernel gives for stored value `q`.
/// MIN_COMBINED: (q + half) * (max - min) / (highest - lowest) + min, where
///   half is (highest - lowest + 1) / 2 for signed types (0 otherwise);
/// MIN_FIRST: (q - lowest) * s + round(min / float(s)) * float(s), with
///   s = (max - min) / (2^bits - 1): the range's minimum is snapped to a
///   multiple of the step so that 0.0 is exactly representable;
/// SCALED: q * f, f = max / highest for unsigned types, else the larger of
///   min / lowest' and max / highest, lowest' being lowest + 1 when
///   narrow_range.
double dequantize(double q, const QuantizedRange &r, llvm::StringRef mode,
                  bool narrowRange, double min, double max) {
  if (mode == "MIN_COMBINED") {
    double half = r.isSigned ? (r.highest - r.lowest + 1) / 2 : 0.0;
    return (q + half) * ((max - min) / (r.highest - r.lowest)) + min;
  }
  if (mode == "MIN_FIRST") {
    if (min == max)
      return min;
    double step = (max - min) / (std::ldexp(1.0, r.bits) - 1);
    double stepF = static_cast<float>(step);
    double minRounded = std::round(min / stepF) * stepF;
    return (q - r.lowest) * step + minRounded;
  }
  // SCALED
  double lowest = r.lowest + (narrowRange && r.isSigned ? 1 : 0);
  double factor = r.isSigned ? std::max(min / lowest, max / r.highest)
                             : max / r.highest;
  return q * factor;
}

/// Operand `i` as one constant float, or an error naming its role.
FailureOr<double> constantScalar(NodeImportContext &ctx, unsigned i,
                                 llvm::StringRef role) {
  DenseElementsAttr attr = constantElements(ctx.operands[i]);
  if (!attr || !isa<FloatType>(attr.getElementType()) ||
      attr.getNumElements() != 1)
    return ctx.error(role + " must be a constant float scalar (per-axis "
                            "ranges are not supported)");
  return (*attr.getValues<APFloat>().begin()).convertToDouble();
}
} // namespace

FailureOr<Value>(::tfaot::importDequantize)(NodeImportContext &ctx) {
  auto inputType = ctx.typeOf(0);
  auto storage = dyn_cast<IntegerType>(inputType.getElementType());
  if (!storage || storage.getWidth() < 8 || storage.getWidth() > 32)
    return ctx.error("input must be a quantized integer tensor (qint8, quint8, "
                     "qint16, quint16, qint32), got " +
                     typeString(inputType));
  std::string mode = stringAttr(ctx, "mode", "MIN_COMBINED");
  if (mode != "MIN_COMBINED" && mode != "MIN_FIRST" && mode != "SCALED")
    return ctx.error("unknown mode '" + mode + "'");
  if (const tensorflow::AttrValue *axis = ctx.attr("axis");
      axis && axis->i() != -1)
    return ctx.error("per-axis dequantization (axis " +
                     std::to_string(axis->i()) + ") is not supported");
  if (const tensorflow::AttrValue *dtype = ctx.attr("dtype");
      dtype && dtype->type() != tensorflow::DT_FLOAT)
    return ctx.error("only float output is supported, got dtype " +
                     dataTypeName(dtype->type()));
  const tensorflow::AttrValue *narrow = ctx.attr("narrow_range");
  bool narrowRange = narrow && narrow->b();

  DenseElementsAttr input = constantElements(ctx.operands[0]);
  if (!input)
    return ctx.error("dequantizing a computed tensor needs TensorFlow's "
                     "quantized kernels, which tfaot does not compile yet; "
                     "only constant (weight) inputs are supported");
  auto min = constantScalar(ctx, 1, "min_range");
  if (failed(min))
    return failure();
  auto max = constantScalar(ctx, 2, "max_range");
  if (failed(max))
    return failure();
  if (!(*min <= *max))
    return ctx.error("min_range " + std::to_string(*min) +
                     " is greater than max_range " + std::to_string(*max));

  QuantizedRange range = rangeOf(storage);
  std::vector<float> values;
  values.reserve(input.getNumElements());
  for (const APInt &q : input.getValues<APInt>()) {
    double stored = range.isSigned ? static_cast<double>(q.getSExtValue())
                                   : static_cast<double>(q.getZExtValue());
    values.push_back(static_cast<float>(
        dequantize(stored, range, mode, narrowRange, *min, *max)));
  }
  auto type = RankedTensorType::get(inputType.getShape(),
                                    ctx.builder.getF32Type());
  return buildConst(ctx, DenseElementsAttr::get(type, llvm::ArrayRef(values)));
}
