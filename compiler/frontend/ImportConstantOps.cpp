//===- ImportConstantOps.cpp - Const, Fill, Range, ZerosLike, ... ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the ops that make tensors rather than compute on them:
// Const, and Fill, Range, SparseToDense, ZerosLike and OnesLike, which
// with constant operands (as graphs use them) become constants at import.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace ::tfaot;

FailureOr<Value>(::tfaot::importConst)(NodeImportContext &ctx) {
  const tensorflow::AttrValue *value = ctx.attr("value");
  if (!value || !value->has_tensor())
    return ctx.error("has no 'value' tensor");
  std::string error;
  DenseElementsAttr attr =
      convertTensor(value->tensor(), ctx.builder.getContext(), error);
  if (!attr)
    return ctx.error("value " + error);
  const tensorflow::AttrValue *dtype = ctx.attr("dtype");
  if (dtype && dtype->type() != value->tensor().dtype())
    return ctx.error("attribute dtype is " + dataTypeName(dtype->type()) +
                     " but the value tensor is " +
                     dataTypeName(value->tensor().dtype()));
  return buildConst(ctx, attr);
}

/// Fill (dims, value): a constant when the value is one, else a broadcast
/// of the value (an AddV2 with a zero tensor of the target shape).
FailureOr<Value>(::tfaot::importFill)(NodeImportContext &ctx) {
  auto dims = constantInts(ctx, 0, "the dims");
  if (failed(dims))
    return failure();
  auto valueType = ctx.typeOf(1);
  if (valueType.getNumElements() != 1)
    return ctx.error("the value must be a scalar");
  auto type = RankedTensorType::get(*dims, valueType.getElementType());
  if (auto constant = constantElements(ctx.operands[1]))
    return buildConst(ctx, DenseElementsAttr::get(
                               type, *constant.getValues<Attribute>().begin()));
  Value zeros = buildConst(ctx, DenseElementsAttr::get(
                                    type, ctx.builder.getZeroAttr(
                                              valueType.getElementType())));
  return buildOpWithAttrs(ctx, "AddV2", {zeros, ctx.operands[1]}, type, {});
}

/// Range (start, limit, delta), all known at compile time: a constant vector.
FailureOr<Value>(::tfaot::importRange)(NodeImportContext &ctx) {
  SmallVector<double> v;
  for (unsigned i = 0; i < 3; ++i) {
    DenseElementsAttr c =
        demandConstant(ctx, i, i == 0 ? "start" : i == 1 ? "limit" : "delta");
    if (!c)
      return failure();
    if (c.getNumElements() != 1)
      return ctx.error("start, limit and delta must be scalars");
    Attribute a = *c.getValues<Attribute>().begin();
    v.push_back(isa<FloatAttr>(a) ? cast<FloatAttr>(a).getValueAsDouble()
                                  : double(cast<IntegerAttr>(a).getInt()));
  }
  if (v[2] == 0)
    return ctx.error("delta must not be 0");
  int64_t count = std::max<int64_t>(0, (int64_t)std::ceil((v[1] - v[0]) / v[2]));
  Type element = ctx.typeOf(0).getElementType();
  auto type = RankedTensorType::get({count}, element);
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < count; ++i) {
    double x = v[0] + i * v[2];
    values.push_back(isa<FloatType>(element)
                         ? (Attribute)ctx.builder.getFloatAttr(element, x)
                         : (Attribute)ctx.builder.getIntegerAttr(element, int64_t(x)));
  }
  return buildConst(ctx, DenseElementsAttr::get(type, values));
}

/// SparseToDense with constant operands (what graphs use it for: building
/// masks and index maps) is evaluated at import into a constant.
FailureOr<Value>(::tfaot::importSparseToDense)(NodeImportContext &ctx) {
  DenseElementsAttr indices = demandConstant(ctx, 0, "sparse_indices");
  if (!indices)
    return failure();
  auto shape = constantInts(ctx, 1, "output_shape");
  if (failed(shape))
    return failure();
  DenseElementsAttr values = demandConstant(ctx, 2, "sparse_values");
  if (!values)
    return failure();
  DenseElementsAttr fill = demandConstant(ctx, 3, "default_value");
  if (!fill)
    return failure();
  int64_t rank = shape->size(), total = 1;
  for (int64_t d : *shape)
    total *= d;
  SmallVector<int64_t> flatIndices;
  for (const APInt &v : indices.getValues<APInt>())
    flatIndices.push_back(v.getSExtValue());
  int64_t n = rank == 0 ? 0 : int64_t(flatIndices.size()) / std::max<int64_t>(rank, 1);
  auto type = cast<RankedTensorType>(values.getType());
  SmallVector<Attribute> dense(total, *fill.getValues<Attribute>().begin());
  SmallVector<Attribute> given(values.getValues<Attribute>());
  for (int64_t i = 0; i < n; ++i) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t index = flatIndices[i * rank + d];
      if (index < 0 || index >= (*shape)[d])
        return ctx.error(llvm::formatv("sparse index {0} is out of bounds for "
                                       "dimension {1} of size {2}",
                                       index, d, (*shape)[d]));
      flat = flat * (*shape)[d] + index;
    }
    dense[flat] = given[given.size() == 1 ? 0 : i];
  }
  return buildConst(ctx, DenseElementsAttr::get(
                             RankedTensorType::get(*shape, type.getElementType()),
                             dense));
}

/// ZerosLike / OnesLike of a static tensor are constants.
FailureOr<Value>(::tfaot::importFillLike)(NodeImportContext &ctx) {
  auto type = ctx.typeOf(0);
  Type element = type.getElementType();
  double one = ctx.node.op() == "OnesLike" ? 1 : 0;
  Attribute value = isa<FloatType>(element)
                        ? (Attribute)ctx.builder.getFloatAttr(element, one)
                        : (Attribute)ctx.builder.getIntegerAttr(element, int64_t(one));
  return buildConst(ctx, DenseElementsAttr::get(type, value));
}
