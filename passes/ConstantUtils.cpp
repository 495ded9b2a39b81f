//===- ConstantUtils.cpp - Constant tensors in the graph passes -----------===//
// SPDX-License-Identifier: Apache-2.0
#include "passes/ConstantUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <cstring>
#include <vector>

using namespace mlir;

DenseElementsAttr mlir::tfaot::denseConstant(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  return attr;
}

std::optional<SmallVector<float>>
mlir::tfaot::channelConstant(Value c, RankedTensorType valueType,
                             int64_t channelDim) {
  auto type = dyn_cast<RankedTensorType>(c.getType());
  if (!type || type.getRank() > valueType.getRank())
    return std::nullopt;
  int64_t channels = valueType.getDimSize(channelDim);
  int64_t offset = valueType.getRank() - type.getRank();
  for (int64_t i = 0; i < type.getRank(); ++i) {
    int64_t dim = type.getDimSize(i);
    bool isChannel = i + offset == channelDim;
    if (dim != 1 && !(isChannel && dim == channels))
      return std::nullopt;
  }
  DenseElementsAttr attr = denseConstant(c);
  if (!attr || !attr.getElementType().isF32())
    return std::nullopt;
  SmallVector<float> values(attr.getValues<float>());
  if (values.size() == 1)
    values.assign(channels, values.front());
  return values;
}

DenseElementsAttr mlir::tfaot::transposeElements(DenseElementsAttr attr,
                                                 ArrayRef<int64_t> perm) {
  auto inputType = cast<RankedTensorType>(attr.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> outShape;
  for (int64_t p : perm)
    outShape.push_back(inputType.getDimSize(p));
  RankedTensorType type = inputType.clone(outShape);
  if (attr.isSplat())
    return attr.resizeSplat(type);
  // Output element `out` (row-major) reads input element `in`; stepping
  // along output dimension d moves `in` by the input stride of perm[d].
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inputType.getDimSize(d + 1);
  SmallVector<int64_t> steps;
  for (int64_t p : perm)
    steps.push_back(inStrides[p]);
  int64_t n = type.getNumElements();
  auto forEach = [&](function_ref<void(int64_t, int64_t)> fn) {
    SmallVector<int64_t> index(rank, 0);
    int64_t in = 0;
    for (int64_t out = 0; out < n; ++out) {
      fn(out, in);
      for (int64_t d = rank - 1; d >= 0; --d) {
        in += steps[d];
        if (++index[d] < outShape[d])
          break;
        in -= steps[d] * outShape[d];
        index[d] = 0;
      }
    }
  };
  Type element = type.getElementType();
  if (element.isInteger(1)) {
    SmallVector<bool> source(attr.getValues<bool>());
    SmallVector<bool> values(n);
    forEach([&](int64_t out, int64_t in) { values[out] = source[in]; });
    return DenseElementsAttr::get(type, values);
  }
  // Every other element type tfaot has is a whole number of bytes, stored
  // densely.
  size_t bytes = element.getIntOrFloatBitWidth() / 8;
  ArrayRef<char> raw = attr.getRawData();
  if (bytes == 0 || raw.size() != size_t(n) * bytes)
    return {};
  std::vector<char> buffer(raw.size());
  forEach([&](int64_t out, int64_t in) {
    std::memcpy(&buffer[out * bytes], &raw[in * bytes], bytes);
  });
  return DenseElementsAttr::getFromRawBuffer(type, buffer);
}
