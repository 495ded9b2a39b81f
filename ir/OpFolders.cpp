//===- OpFolders.cpp - Folders of constant shape arithmetic ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The integer folders of Reshape, ConcatV2, StridedSlice and the binary
// elementwise ops, which fold the shape computations of real graphs (see
// the section comment below).
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
// Folders: constant shape arithmetic
//
// Real graphs compute shapes (Shape -> StridedSlice -> Pack -> Reshape); with
// static shapes every step is a constant, and folding them lets the importer
// treat the result like a written-out shape. Only integer data is folded:
// float math stays in the generated code, where it is rounded the same way
// as at run time.
//===----------------------------------------------------------------------===//

namespace mlir::tfaot::op_helpers {

/// The values of an integer constant as int64, or nullopt.
std::optional<SmallVector<int64_t>> intValues(Attribute attr) {
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
Attribute intAttr(ShapedType type, ArrayRef<int64_t> values) {
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  return DenseElementsAttr::get(type, ints);
}

} // namespace mlir::tfaot::op_helpers

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  auto input = dyn_cast_or_null<DenseElementsAttr>(adaptor.getTensor());
  if (!input || !getOutput().getType().hasStaticShape())
    return {};
  return input.reshape(getOutput().getType());
}

OpFoldResult ConcatV2Op::fold(FoldAdaptor adaptor) {
  // In row-major order the result is, for each index before the axis, the
  // inputs' rows there one after the other (along axis 0: the inputs'
  // element lists appended; a Pack along axis 1 builds TF's paddings so).
  auto axis = intValues(adaptor.getAxis());
  auto type = getOutput().getType();
  if (!axis || !type.hasStaticShape() || !type.getElementType().isIntOrIndex())
    return {};
  int64_t a = (*axis)[0] < 0 ? (*axis)[0] + type.getRank() : (*axis)[0];
  if (a < 0 || a >= type.getRank())
    return {};
  int64_t outer = 1;
  for (int64_t d = 0; d < a; ++d)
    outer *= type.getDimSize(d);
  SmallVector<SmallVector<int64_t>> inputs;
  for (Attribute value : adaptor.getValues()) {
    auto values = intValues(value);
    if (!values)
      return {};
    inputs.push_back(std::move(*values));
  }
  SmallVector<int64_t> all;
  for (int64_t o = 0; o < outer; ++o)
    for (const SmallVector<int64_t> &values : inputs) {
      int64_t chunk = int64_t(values.size()) / outer;
      all.append(values.begin() + o * chunk, values.begin() + (o + 1) * chunk);
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
