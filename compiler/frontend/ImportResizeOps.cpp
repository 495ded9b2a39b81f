//===- ImportResizeOps.cpp - Resize and CropAndResize ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the ops passes/LowerResizeOps.cpp lowers. Sizes, boxes and
// box indices must be known at compile time (constants, or computed from
// shapes and constants: demandConstant evaluates them): the lowering turns
// them into sampling tables.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;

/// ResizeBilinear / ResizeNearestNeighbor: the new [height, width] is a
/// constant; bilinear always produces float32, as TF's kernel does.
FailureOr<Value>(::tfaot::importResize)(NodeImportContext &ctx) {
  auto size = constantInts(ctx, 1, "the size");
  if (failed(size))
    return failure();
  auto images = ctx.typeOf(0);
  if (images.getRank() != 4)
    return ctx.error("images must have rank 4 (NHWC), got " +
                     typeString(images));
  if (size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
    return ctx.error("size must hold two positive numbers");
  Type element = ctx.node.op() == "ResizeBilinear"
                     ? ctx.builder.getF32Type()
                     : images.getElementType();
  return buildOp(ctx, ctx.node.op(), ctx.operands,
                 RankedTensorType::get({images.getDimSize(0), (*size)[0],
                                        (*size)[1], images.getDimSize(3)},
                                       element));
}

/// CropAndResize: the crop size, the boxes and their image indices must be
/// constants (the boxes become sampling tables at compile time); every box
/// is checked here, so the lowering can trust them.
FailureOr<Value>(::tfaot::importCropAndResize)(NodeImportContext &ctx) {
  auto image = ctx.typeOf(0);
  if (image.getRank() != 4)
    return ctx.error("image must have rank 4 (NHWC), got " +
                     typeString(image));
  DenseElementsAttr boxes = demandConstant(ctx, 1, "the boxes");
  if (!boxes)
    return failure();
  auto boxesType = ctx.typeOf(1);
  if (boxesType.getRank() != 2 || boxesType.getDimSize(1) != 4 ||
      !boxesType.getElementType().isF32())
    return ctx.error("boxes must be float32 [num_boxes, 4], got " +
                     typeString(boxesType));
  auto boxInd = constantInts(ctx, 2, "box_ind");
  if (failed(boxInd))
    return failure();
  int64_t numBoxes = boxesType.getDimSize(0);
  if (int64_t(boxInd->size()) != numBoxes)
    return ctx.error(llvm::formatv("box_ind has {0} values for {1} boxes",
                                   boxInd->size(), numBoxes)
                         .str());
  for (auto [i, b] : llvm::enumerate(*boxInd))
    if (b < 0 || b >= image.getDimSize(0))
      return ctx.error(llvm::formatv("box_ind[{0}] = {1} is not an image of "
                                     "the batch of {2}",
                                     i, b, image.getDimSize(0))
                           .str());
  for (float v : boxes.getValues<float>())
    if (!std::isfinite(v))
      return ctx.error("boxes must be finite numbers");
  auto size = constantInts(ctx, 3, "crop_size");
  if (failed(size))
    return failure();
  if (size->size() != 2 || (*size)[0] <= 0 || (*size)[1] <= 0)
    return ctx.error("crop_size must hold two positive numbers");
  const tensorflow::AttrValue *method = ctx.attr("method");
  if (method && method->s() != "bilinear" && method->s() != "nearest")
    return ctx.error("method must be \"bilinear\" or \"nearest\", got \"" +
                     method->s() + "\"");
  return buildOp(ctx, "CropAndResize", ctx.operands,
                 RankedTensorType::get({numBoxes, (*size)[0], (*size)[1],
                                        image.getDimSize(3)},
                                       ctx.builder.getF32Type()));
}
