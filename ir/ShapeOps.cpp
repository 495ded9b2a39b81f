//===- ShapeOps.cpp - Verifiers of the shape and data-movement ops --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Verifiers (and the Slice folder) of the shape ops (ShapeOps.td):
// Reshape, ArgMax, Cast, StridedSlice, ConcatV2, and the data movement ops
// (Slice, MirrorPad, BroadcastTo, OneHot, SpaceToBatchND, BatchToSpaceND,
// TopKV2), with the shape rules the importer shares with them.
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
// Reshape
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto input = getTensor().getType();
  auto shapeType = getShape().getType();
  auto output = getOutput().getType();
  if (shapeType.getRank() != 1)
    return emitOpError("shape must be a 1-D tensor, got ") << shapeType;
  if (!shapeType.isDynamicDim(0) && shapeType.getDimSize(0) != output.getRank())
    return emitOpError("shape has ")
           << shapeType.getDimSize(0) << " elements but the result has rank "
           << output.getRank();
  if (input.hasStaticShape() && output.hasStaticShape() &&
      input.getNumElements() != output.getNumElements())
    return emitOpError("cannot reshape ")
           << input.getNumElements() << " elements into " << output;
  if (auto requested = getConstantIntValues(getShape())) {
    if (input.hasStaticShape()) {
      SmallVector<int64_t> resolved;
      std::string why;
      if (failed(resolveReshape(input.getNumElements(), *requested, resolved,
                                why)))
        return emitOpError(why);
      for (auto [want, got] : llvm::zip(resolved, output.getShape()))
        if (!dimsCompatible(want, got))
          return emitOpError("result type ")
                 << output << " does not match the constant shape operand";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ArgMax
//===----------------------------------------------------------------------===//

LogicalResult ArgMaxOp::verify() {
  auto input = getInput().getType();
  auto output = getOutput().getType();
  if (getDimension().getType().getRank() > 1 ||
      (getDimension().getType().getRank() == 1 &&
       getDimension().getType().getDimSize(0) != 1))
    return emitOpError("dimension must be a scalar, got ")
           << getDimension().getType();
  if (input.getRank() < 1)
    return emitOpError("input must have rank >= 1, got a scalar");
  if (output.getRank() != input.getRank() - 1)
    return emitOpError("result must have rank ")
           << input.getRank() - 1 << ", got " << output;
  if (auto dim = getConstantIntValues(getDimension())) {
    int64_t axis = (*dim)[0];
    if (axis < -input.getRank() || axis >= input.getRank())
      return emitOpError("dimension ")
             << axis << " is out of range for input of rank "
             << input.getRank();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto x = getX().getType(), y = getY().getType();
  if (x.getRank() != y.getRank())
    return emitOpError("result rank differs from the input rank");
  for (auto [a, b] : llvm::zip(x.getShape(), y.getShape()))
    if (!dimsCompatible(a, b))
      return emitOpError("result shape ") << y << " differs from " << x;
  return success();
}

//===----------------------------------------------------------------------===//
// StridedSlice
//===----------------------------------------------------------------------===//

FailureOr<StridedSliceSpec> mlir::tfaot::computeStridedSlice(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> begin,
    ArrayRef<int64_t> end, ArrayRef<int64_t> strides, int64_t beginMask,
    int64_t endMask, int64_t ellipsisMask, int64_t newAxisMask,
    int64_t shrinkAxisMask, std::string &why) {
  size_t n = begin.size();
  if (end.size() != n || strides.size() != n) {
    why = "begin, end and strides must have the same length";
    return failure();
  }
  if (llvm::popcount(static_cast<uint64_t>(ellipsisMask)) > 1) {
    why = "at most one ellipsis is allowed";
    return failure();
  }
  int64_t rank = inputShape.size();
  // Sparse spec -> one entry per input dimension (TF's BuildDenseSpec).
  // `outputDims` lists, in order, either an input dimension that survives
  // or -1 for a new axis.
  StridedSliceSpec spec;
  SmallVector<int64_t> outputDims;
  SmallVector<bool> shrink(rank, false);
  auto bit = [](int64_t mask, size_t i) { return (mask >> i) & 1; };
  bool sawEllipsis = false;
  int64_t dim = 0;
  auto fullDim = [&](int64_t d) {
    spec.offsets.push_back(0);
    spec.sizes.push_back(inputShape[d]);
    spec.strides.push_back(1);
    outputDims.push_back(d);
  };
  for (size_t i = 0; i < n; ++i) {
    if (bit(ellipsisMask, i)) {
      sawEllipsis = true;
      int64_t newAxesAfter = 0, slicedAfter = 0;
      for (size_t j = i + 1; j < n; ++j)
        bit(newAxisMask, j) ? ++newAxesAfter : ++slicedAfter;
      (void)newAxesAfter;
      for (int64_t stop = rank - slicedAfter; dim < stop; ++dim)
        fullDim(dim);
      continue;
    }
    if (bit(newAxisMask, i)) {
      outputDims.push_back(-1);
      continue;
    }
    if (dim >= rank) {
      why = "the slice has more entries than the input has dimensions";
      return failure();
    }
    int64_t size = inputShape[dim];
    int64_t stride = strides[i];
    if (stride == 0) {
      why = "strides must not be 0";
      return failure();
    }
    if (stride < 0) {
      why = "negative strides are not supported yet";
      return failure();
    }
    auto wrap = [&](int64_t v) { return v < 0 ? v + size : v; };
    if (bit(shrinkAxisMask, i)) {
      int64_t index = wrap(begin[i]);
      if (index < 0 || index >= size) {
        why = "index " + std::to_string(begin[i]) + " is out of range for a "
              "dimension of size " + std::to_string(size);
        return failure();
      }
      spec.offsets.push_back(index);
      spec.sizes.push_back(1);
      spec.strides.push_back(1);
      shrink[dim] = true;
      ++dim;
      continue;
    }
    int64_t b = bit(beginMask, i) ? 0 : std::clamp<int64_t>(wrap(begin[i]), 0, size);
    int64_t e = bit(endMask, i) ? size : std::clamp<int64_t>(wrap(end[i]), 0, size);
    int64_t count = e > b ? (e - b + stride - 1) / stride : 0;
    spec.offsets.push_back(count ? b : 0);
    spec.sizes.push_back(count);
    spec.strides.push_back(stride);
    outputDims.push_back(dim);
    ++dim;
  }
  (void)sawEllipsis;
  for (; dim < rank; ++dim) // An implicit ellipsis at the end.
    fullDim(dim);
  for (int64_t d : outputDims)
    spec.outputShape.push_back(d < 0 ? 1 : spec.sizes[d]);
  return spec;
}

//===----------------------------------------------------------------------===//
// ConcatV2
//===----------------------------------------------------------------------===//

LogicalResult ConcatV2Op::verify() {
  if (getValues().empty())
    return emitOpError("needs at least one value to concatenate");
  int64_t rank = cast<RankedTensorType>(getValues()[0].getType()).getRank();
  for (Value v : getValues())
    if (cast<RankedTensorType>(v.getType()).getRank() != rank)
      return emitOpError("all values must have the same rank");
  if (auto axis = getConstantIntValues(getAxis())) {
    if (axis->size() != 1 || (*axis)[0] < -rank || (*axis)[0] >= rank)
      return emitOpError("axis is out of range for rank ") << rank;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement: Slice, MirrorPad, BroadcastTo, OneHot, SpaceToBatchND,
// BatchToSpaceND; TopKV2
//
// The shape rules live in free functions so that the importer infers result
// types with exactly the checks the verifiers apply.
//===----------------------------------------------------------------------===//

LogicalResult mlir::tfaot::resolveSlice(ArrayRef<int64_t> inputShape,
                                        ArrayRef<int64_t> begin,
                                        ArrayRef<int64_t> size,
                                        SmallVectorImpl<int64_t> &sizes,
                                        std::string &why) {
  size_t rank = inputShape.size();
  if (begin.size() != rank || size.size() != rank) {
    why = "begin and size must have one entry per input dimension (" +
          std::to_string(rank) + "), got " + std::to_string(begin.size()) +
          " and " + std::to_string(size.size());
    return failure();
  }
  sizes.clear();
  for (size_t d = 0; d < rank; ++d) {
    int64_t dim = inputShape[d], b = begin[d], s = size[d];
    if (b < 0 || b > dim) {
      why = "begin " + std::to_string(b) + " is out of range for dimension " +
            std::to_string(d) + " of size " + std::to_string(dim);
      return failure();
    }
    if (s == -1)
      s = dim - b;
    if (s < 0 || b + s > dim) {
      why = "size " + std::to_string(size[d]) + " from begin " +
            std::to_string(b) + " does not fit dimension " + std::to_string(d) +
            " of size " + std::to_string(dim);
      return failure();
    }
    sizes.push_back(s);
  }
  return success();
}

LogicalResult mlir::tfaot::computeMirrorPad(ArrayRef<int64_t> inputShape,
                                            ArrayRef<int64_t> paddings,
                                            StringRef mode,
                                            SmallVectorImpl<int64_t> &shape,
                                            std::string &why) {
  if (mode != "REFLECT" && mode != "SYMMETRIC") {
    why = "mode must be \"REFLECT\" or \"SYMMETRIC\", got \"" + mode.str() +
          "\"";
    return failure();
  }
  size_t rank = inputShape.size();
  if (paddings.size() != 2 * rank) {
    why = "paddings must be [" + std::to_string(rank) + ", 2]";
    return failure();
  }
  // REFLECT does not repeat the edge element, so it has one fewer to
  // mirror.
  int64_t slack = mode == "REFLECT" ? 1 : 0;
  shape.clear();
  for (size_t d = 0; d < rank; ++d) {
    int64_t before = paddings[2 * d], after = paddings[2 * d + 1];
    int64_t limit = inputShape[d] - slack;
    if (before < 0 || after < 0 || before > limit || after > limit) {
      why = "paddings of dimension " + std::to_string(d) + " (" +
            std::to_string(before) + ", " + std::to_string(after) +
            ") must be in [0, " + std::to_string(limit) + "] in " + mode.str() +
            " mode for a dimension of size " + std::to_string(inputShape[d]);
      return failure();
    }
    shape.push_back(inputShape[d] + before + after);
  }
  return success();
}

/// Checks a block_shape and its [M, 2] companion against an input shape.
static LogicalResult checkBlocks(ArrayRef<int64_t> inputShape,
                                 ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> pairs, StringRef pairName,
                                 std::string &why) {
  size_t m = block.size();
  if (m < 1 || m + 1 > inputShape.size()) {
    why = "block_shape must have between 1 and rank - 1 = " +
          std::to_string(int64_t(inputShape.size()) - 1) + " entries, got " +
          std::to_string(m);
    return failure();
  }
  if (pairs.size() != 2 * m) {
    why = pairName.str() + " must be [" + std::to_string(m) + ", 2]";
    return failure();
  }
  for (int64_t b : block)
    if (b < 1) {
      why = "block_shape entries must be >= 1";
      return failure();
    }
  for (int64_t p : pairs)
    if (p < 0) {
      why = pairName.str() + " must not be negative";
      return failure();
    }
  return success();
}

LogicalResult mlir::tfaot::computeSpaceToBatch(ArrayRef<int64_t> inputShape,
                                               ArrayRef<int64_t> block,
                                               ArrayRef<int64_t> paddings,
                                               SmallVectorImpl<int64_t> &shape,
                                               std::string &why) {
  if (failed(checkBlocks(inputShape, block, paddings, "paddings", why)))
    return failure();
  shape.assign(inputShape.begin(), inputShape.end());
  for (size_t i = 0; i < block.size(); ++i) {
    int64_t padded = inputShape[i + 1] + paddings[2 * i] + paddings[2 * i + 1];
    if (padded % block[i] != 0) {
      why = "padded spatial dimension " + std::to_string(i + 1) + " (" +
            std::to_string(padded) + ") is not a multiple of block size " +
            std::to_string(block[i]);
      return failure();
    }
    shape[i + 1] = padded / block[i];
    shape[0] *= block[i];
  }
  return success();
}

LogicalResult mlir::tfaot::computeBatchToSpace(ArrayRef<int64_t> inputShape,
                                               ArrayRef<int64_t> block,
                                               ArrayRef<int64_t> crops,
                                               SmallVectorImpl<int64_t> &shape,
                                               std::string &why) {
  if (failed(checkBlocks(inputShape, block, crops, "crops", why)))
    return failure();
  int64_t blocks = 1;
  for (int64_t b : block)
    blocks *= b;
  if (inputShape[0] % blocks != 0) {
    why = "batch " + std::to_string(inputShape[0]) +
          " is not a multiple of the block count " + std::to_string(blocks);
    return failure();
  }
  shape.assign(inputShape.begin(), inputShape.end());
  shape[0] = inputShape[0] / blocks;
  for (size_t i = 0; i < block.size(); ++i) {
    int64_t full = inputShape[i + 1] * block[i];
    int64_t cropped = full - crops[2 * i] - crops[2 * i + 1];
    if (cropped < 0) {
      why = "crops of spatial dimension " + std::to_string(i + 1) +
            " remove more than its " + std::to_string(full) + " elements";
      return failure();
    }
    shape[i + 1] = cropped;
  }
  return success();
}

namespace mlir::tfaot::op_helpers {

/// Compares a computed shape with a result type.
LogicalResult checkResultShape(Operation *op, ArrayRef<int64_t> want,
                               RankedTensorType got) {
  if (want.size() != size_t(got.getRank()) ||
      !llvm::all_of(llvm::zip(want, got.getShape()), [](auto pair) {
        return dimsCompatible(std::get<0>(pair), std::get<1>(pair));
      })) {
    std::string shape;
    llvm::raw_string_ostream os(shape);
    llvm::interleave(want, os, "x");
    return op->emitOpError("result type ")
           << got << " does not match the computed shape [" << shape << "]";
  }
  return success();
}

} // namespace mlir::tfaot::op_helpers

LogicalResult SliceOp::verify() {
  auto input = getInput().getType();
  auto begin = getConstantIntValues(getBegin());
  auto size = getConstantIntValues(getSize());
  if (!begin || !size || !input.hasStaticShape())
    return success();
  SmallVector<int64_t> sizes;
  std::string why;
  if (failed(resolveSlice(input.getShape(), *begin, *size, sizes, why)))
    return emitOpError(why);
  return checkResultShape(*this, sizes, getOutput().getType());
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto input = intValues(adaptor.getInput());
  auto begin = intValues(adaptor.getBegin());
  auto size = intValues(adaptor.getSize());
  auto type = getInput().getType();
  if (!input || !begin || !size || !type.hasStaticShape())
    return {};
  SmallVector<int64_t> sizes;
  std::string why;
  if (failed(resolveSlice(type.getShape(), *begin, *size, sizes, why)))
    return {};
  int64_t rank = type.getRank(), count = 1;
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  for (int64_t s : sizes)
    count *= s;
  SmallVector<int64_t> values, index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += ((*begin)[d] + index[d]) * strides[d];
    values.push_back((*input)[flat]);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == sizes[d]; --d)
      index[d] = 0;
  }
  return intAttr(getOutput().getType(), values);
}

LogicalResult MirrorPadOp::verify() {
  StringRef mode = getMode();
  if (mode != "REFLECT" && mode != "SYMMETRIC")
    return emitOpError("mode must be \"REFLECT\" or \"SYMMETRIC\", got \"")
           << mode << "\"";
  auto input = getInput().getType();
  auto paddings = getConstantIntValues(getPaddings());
  if (!paddings || !input.hasStaticShape())
    return success();
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(computeMirrorPad(input.getShape(), *paddings, mode, shape, why)))
    return emitOpError(why);
  return checkResultShape(*this, shape, getOutput().getType());
}

LogicalResult BroadcastToOp::verify() {
  auto input = getInput().getType(), output = getOutput().getType();
  SmallVector<int64_t> shape;
  if (input.getRank() > output.getRank() ||
      failed(broadcastShapes(input.getShape(), output.getShape(), shape)) ||
      failed(checkResultShape(*this, shape, output)))
    return emitOpError("cannot broadcast ") << input << " to " << output;
  if (auto requested = getConstantIntValues(getShape()))
    return checkResultShape(*this, *requested, output);
  return success();
}

LogicalResult OneHotOp::verify() {
  auto indices = getIndices().getType(), output = getOutput().getType();
  if (output.getRank() != indices.getRank() + 1)
    return emitOpError("result must have rank ")
           << indices.getRank() + 1 << " (the indices' plus one), got "
           << output;
  int64_t axis = getAxis();
  if (axis < -1 || axis > indices.getRank())
    return emitOpError("axis ") << axis << " must be in [-1, "
                                << indices.getRank() << "]";
  if (axis == -1)
    axis = indices.getRank();
  if (getOnValue().getType().getNumElements() != 1 ||
      getOffValue().getType().getNumElements() != 1)
    return emitOpError("on_value and off_value must be scalars");
  if (auto depth = getConstantIntValues(getDepth())) {
    if (depth->size() != 1 || (*depth)[0] < 0)
      return emitOpError("depth must be a non-negative scalar");
    SmallVector<int64_t> shape(indices.getShape());
    shape.insert(shape.begin() + axis, (*depth)[0]);
    return checkResultShape(*this, shape, output);
  }
  return success();
}

/// Shared verifier of SpaceToBatchND and BatchToSpaceND.
template <typename OpTy>
static LogicalResult verifySpaceBatch(OpTy op, Value pairs, bool toBatch) {
  auto input = cast<RankedTensorType>(op->getOperand(0).getType());
  auto block = getConstantIntValues(op.getBlockShape());
  auto values = getConstantIntValues(pairs);
  if (!block || !values || !input.hasStaticShape())
    return success();
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(toBatch
                 ? computeSpaceToBatch(input.getShape(), *block, *values,
                                       shape, why)
                 : computeBatchToSpace(input.getShape(), *block, *values,
                                       shape, why)))
    return op.emitOpError(why);
  return checkResultShape(op, shape,
                          cast<RankedTensorType>(op->getResult(0).getType()));
}

LogicalResult SpaceToBatchNDOp::verify() {
  return verifySpaceBatch(*this, getPaddings(), /*toBatch=*/true);
}

LogicalResult BatchToSpaceNDOp::verify() {
  return verifySpaceBatch(*this, getCrops(), /*toBatch=*/false);
}

LogicalResult TopKV2Op::verify() {
  auto input = getInput().getType();
  if (input.getRank() < 1)
    return emitOpError("input must have rank >= 1, got a scalar");
  if (!getSorted())
    return emitOpError("sorted = false is not supported");
  auto k = getConstantIntValues(getK());
  if (!k)
    return success();
  int64_t last = input.getShape().back();
  if (k->size() != 1 || (*k)[0] < 0 ||
      (!ShapedType::isDynamic(last) && (*k)[0] > last))
    return emitOpError("k must be a scalar in [0, ")
           << last << "], the size of the last dimension";
  SmallVector<int64_t> shape(input.getShape());
  shape.back() = (*k)[0];
  if (failed(checkResultShape(*this, shape, getValues().getType())) ||
      failed(checkResultShape(*this, shape, getIndices().getType())))
    return failure();
  return success();
}
