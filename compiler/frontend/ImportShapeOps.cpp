//===- ImportShapeOps.cpp - Reshape, ExpandDims, Squeeze, Shape, ... ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the ops that change or read only the shape: Reshape,
// ExpandDims and Squeeze (all three become tfaot.Reshape), Transpose, and
// Shape, Size and Rank, which are constants since shapes are static.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;

FailureOr<Value>(::tfaot::importReshape)(NodeImportContext &ctx) {
  auto requested = constantInts(ctx, 1, "the shape");
  if (failed(requested))
    return failure();
  auto input = ctx.typeOf(0);
  SmallVector<int64_t> shape;
  std::string why;
  if (failed(mlir::tfaot::resolveReshape(input.getNumElements(), *requested,
                                         shape, why)))
    return ctx.error(why);
  // Operands 0 and 1 only: QuantizedReshape has its range after them.
  return buildOp(ctx, "Reshape", ctx.operands.take_front(2),
                 RankedTensorType::get(shape, input.getElementType()));
}

FailureOr<Value>(::tfaot::importExpandDims)(NodeImportContext &ctx) {
  auto dim = constantInts(ctx, 1, "the dimension");
  if (failed(dim))
    return failure();
  auto input = ctx.typeOf(0);
  if (dim->size() != 1)
    return ctx.error("the dimension must be a scalar");
  FailureOr<int64_t> axis = normalizeAxis(ctx, (*dim)[0], input.getRank() + 1);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(input.getShape());
  shape.insert(shape.begin() + *axis, 1);
  return buildReshape(ctx, ctx.operands[0], shape);
}

FailureOr<Value>(::tfaot::importSqueeze)(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  SmallVector<bool> drop(input.getRank(), false);
  const tensorflow::AttrValue *dims = ctx.attr("squeeze_dims");
  if (!dims || dims->list().i_size() == 0) {
    for (int64_t i = 0; i < input.getRank(); ++i)
      drop[i] = input.getDimSize(i) == 1;
  } else {
    for (int64_t d : dims->list().i()) {
      FailureOr<int64_t> axis = normalizeAxis(ctx, d, input.getRank());
      if (failed(axis))
        return failure();
      if (input.getDimSize(*axis) != 1)
        return ctx.error(llvm::formatv("cannot squeeze dimension {0} of size "
                                       "{1}",
                                       d, input.getDimSize(*axis)));
      drop[*axis] = true;
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < input.getRank(); ++i)
    if (!drop[i])
      shape.push_back(input.getDimSize(i));
  return buildReshape(ctx, ctx.operands[0], shape);
}

FailureOr<Value>(::tfaot::importTranspose)(NodeImportContext &ctx) {
  auto perm = constantInts(ctx, 1, "the permutation");
  if (failed(perm))
    return failure();
  auto input = ctx.typeOf(0);
  if ((int64_t)perm->size() != input.getRank())
    return ctx.error("the permutation has " + llvm::Twine(perm->size()) +
                     " elements but the input has rank " +
                     llvm::Twine(input.getRank()));
  SmallVector<int64_t> shape;
  SmallVector<bool> seen(input.getRank(), false);
  for (int64_t p : *perm) {
    if (p < 0 || p >= input.getRank() || seen[p])
      return ctx.error("the permutation is not a permutation of 0.." +
                       llvm::Twine(input.getRank() - 1));
    seen[p] = true;
    shape.push_back(input.getDimSize(p));
  }
  return buildOp(ctx, "Transpose", ctx.operands,
                 RankedTensorType::get(shape, input.getElementType()));
}

/// Shape, Size and Rank of a static tensor are constants.
FailureOr<Value>(::tfaot::importShapeQuery)(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  const tensorflow::AttrValue *outType = ctx.attr("out_type");
  Type element = convertDataType(outType ? outType->type() : tensorflow::DT_INT32,
                                 ctx.builder.getContext());
  if (!element || !element.isSignlessInteger())
    return ctx.error("out_type must be int32 or int64");
  StringRef op = ctx.node.op();
  SmallVector<int64_t> values =
      op == "Shape"  ? SmallVector<int64_t>(input.getShape())
      : op == "Size" ? SmallVector<int64_t>{input.getNumElements()}
                     : SmallVector<int64_t>{input.getRank()};
  SmallVector<int64_t> shape;
  if (op == "Shape")
    shape.push_back(input.getRank());
  SmallVector<APInt> ints;
  unsigned width = element.getIntOrFloatBitWidth();
  for (int64_t v : values) {
    // As TensorFlow does: an int32 result cannot hold a larger size.
    if (!llvm::isIntN(width, v))
      return ctx.error(llvm::formatv("{0} {1} does not fit out_type int{2}; "
                                     "use out_type int64",
                                     op == "Shape" ? "dimension" : "value", v,
                                     width));
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  }
  return buildConst(ctx, DenseElementsAttr::get(
                             RankedTensorType::get(shape, element), ints));
}
