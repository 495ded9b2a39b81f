//===- Ops.cpp - tfaot dialect operations -----------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Verifiers and folders of the tfaot ops. Verifiers reject what TensorFlow
// itself would reject when the graph is built (shape and attribute errors), so
// a malformed graph fails at import with the node named. Dynamic dimensions
// are accepted wherever the static check cannot decide.
//
// This file holds the shape helpers every op family uses, Const and
// Identity, the op classes generated from Ops.td, and the two families
// Ops.td itself defines (image decoding, quantized tensors), a few lines
// each. The other families are in ElementwiseOps.cpp, NnOps.cpp and
// ShapeOps.cpp, beside their .td files, and the integer folders in
// OpFolders.cpp; OpHelpers.h declares the checks they share.
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

namespace mlir::tfaot::op_helpers {

/// Checks that two dimensions agree when both are static.
bool dimsCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

} // namespace mlir::tfaot::op_helpers

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
