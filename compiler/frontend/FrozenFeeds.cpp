//===- FrozenFeeds.cpp - Feeds whose value is fixed at compile time -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Parsing --feed_value and turning its values into the constant the
// importer puts where the placeholder was (FrozenFeeds.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/FrozenFeeds.h"

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorConversion.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace ::tfaot;

std::optional<FrozenFeed>(::tfaot::parseFrozenFeed)(const std::string &text,
                                                   std::string &why) {
  auto [name, values] = StringRef(text).split('=');
  name = name.trim();
  if (name.empty() || values.trim().empty() || !StringRef(text).contains('=')) {
    why = "--feed_value takes name=value or name=v0,v1,... (e.g. scale=1.5), "
          "not '" + text + "'";
    return std::nullopt;
  }
  FrozenFeed feed;
  feed.name = name.str();
  // "x:0" names output 0 of x, as --feed accepts.
  if (StringRef(feed.name).ends_with(":0"))
    feed.name.resize(feed.name.size() - 2);
  SmallVector<StringRef> parts;
  values.split(parts, ',');
  for (StringRef part : parts)
    feed.values.push_back(part.trim().str());
  return feed;
}

/// `text` as one element of `element`, or null.
static Attribute parseElement(StringRef text, Type element) {
  if (auto floatType = dyn_cast<FloatType>(element)) {
    double v;
    if (text.getAsDouble(v))
      return nullptr;
    APFloat value(v);
    bool lost;
    value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
    return FloatAttr::get(element, value);
  }
  unsigned width = element.getIntOrFloatBitWidth();
  if (width == 1) {
    if (text == "true" || text == "1")
      return IntegerAttr::get(element, 1);
    if (text == "false" || text == "0")
      return IntegerAttr::get(element, 0);
    return nullptr;
  }
  APInt value;
  if (text.getAsInteger(10, value))
    return nullptr;
  bool isUnsigned = element.isUnsignedInteger();
  if (value.isNegative() && isUnsigned)
    return nullptr;
  unsigned needed = isUnsigned ? value.getActiveBits() : value.getSignificantBits();
  if (needed > width)
    return nullptr;
  return IntegerAttr::get(element, value.sextOrTrunc(width));
}

DenseElementsAttr(::tfaot::frozenFeedValue)(
    const FrozenFeed &feed, tensorflow::DataType dtype,
    const std::optional<std::vector<int64_t>> &shape, MLIRContext *ctx,
    std::string &why) {
  Type element = convertDataType(dtype, ctx);
  if (!element || dtype == tensorflow::DT_STRING) {
    why = "cannot be frozen: its dtype " + dataTypeName(dtype) +
          " is not a number type";
    return nullptr;
  }
  SmallVector<Attribute> values;
  for (const std::string &text : feed.values) {
    Attribute value = parseElement(text, element);
    if (!value) {
      why = "--feed_value '" + text + "' is not a value of type " +
            dataTypeName(dtype);
      return nullptr;
    }
    values.push_back(value);
  }
  SmallVector<int64_t> dims;
  if (shape)
    dims.assign(shape->begin(), shape->end());
  else if (values.size() > 1)
    dims.push_back(values.size());
  auto type = RankedTensorType::get(dims, element);
  if (values.size() == 1)
    return DenseElementsAttr::get(type, values.front());
  if (type.getNumElements() != int64_t(values.size())) {
    why = "--feed_value gives " + std::to_string(values.size()) +
          " values for a feed of shape " + showShape(dims) + " (" +
          std::to_string(type.getNumElements()) + " elements)";
    return nullptr;
  }
  return DenseElementsAttr::get(type, values);
}
