//===- DataDependentOps.cpp - Verifiers of the data-dependent ops ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "ir/DataDependentOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tfaot;

#define GET_OP_CLASSES
#include "ir/DataDependentOps.cpp.inc"

static bool isScalar(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank() == 0;
}

LogicalResult NonMaxSuppressionOp::verify() {
  auto boxes = getBoxes().getType();
  auto scores = getScores().getType();
  if (boxes.getRank() != 2 || boxes.getDimSize(1) != 4)
    return emitOpError("boxes must be [N, 4], got ") << boxes;
  if (scores.getRank() != 1 || scores.getDimSize(0) != boxes.getDimSize(0))
    return emitOpError("scores must be [N] with N = ")
           << boxes.getDimSize(0) << ", got " << scores;
  for (Value scalar : {getMaxOutputSize(), getIouThreshold(),
                       getScoreThreshold(), getSoftNmsSigma()})
    if (!isScalar(scalar))
      return emitOpError("max_output_size, iou_threshold, score_threshold and "
                         "soft_nms_sigma must be scalars");
  auto indices = getSelectedIndices().getType();
  auto selectedScores = getSelectedScores().getType();
  // B is at most N, or max_output_size with pad_to_max_output_size.
  if (indices.getRank() != 1 ||
      selectedScores.getShape() != indices.getShape())
    return emitOpError("selected_indices and selected_scores must be [B]");
  if (!isScalar(getValidOutputs()))
    return emitOpError("valid_outputs must be a scalar");
  return success();
}

LogicalResult WhereOp::verify() {
  auto input = getInput().getType();
  auto index = getIndex().getType();
  if (index.getRank() != 2 || index.getDimSize(0) != input.getNumElements() ||
      index.getDimSize(1) != int64_t(input.getRank()))
    return emitOpError("index must be [")
           << input.getNumElements() << ", " << input.getRank()
           << "] (elements, rank), got " << index;
  if (!isScalar(getCount()))
    return emitOpError("count must be a scalar");
  return success();
}

LogicalResult BoundedDimsOp::verify() {
  if (!isScalar(getCount()))
    return emitOpError("count must be a scalar");
  int64_t rank = int64_t(getBounds().size());
  auto dims = getDims().getType();
  if (dims.getRank() != 1 || dims.getDimSize(0) != rank)
    return emitOpError("dims must be [") << rank << "]";
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= rank)
    return emitOpError("dim ") << dim << " is not below the rank " << rank;
  return success();
}

LogicalResult CheckBoundedIndicesOp::verify() {
  if (!isScalar(getValidRows()) || !isScalar(getRowCount()))
    return emitOpError("valid_rows and row_count must be scalars");
  return success();
}
