//===- DataDependentOps.td - Ops whose output size depends on data -*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// NonMaxSuppression and Where: how many elements they produce depends on the
// values of their inputs. tfaot gives them bounded shapes
// (docs/dynamic-shapes.md): each result is sized for the largest count
// possible, known at compile time, and a second result carries the count
// the run found; entries past it are zero. BoundedDims turns such a count
// into the run-time dims of a graph result.
//
// A file of its own, with its own generated header (DataDependentOps.h), so
// that adding to it recompiles only the files that use these ops.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_DATADEPENDENTOPS_TD
#define TFAOT_IR_DATADEPENDENTOPS_TD

include "ir/Base.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tfaot_NonMaxSuppressionOp : Tfaot_Op<"NonMaxSuppression", [Pure]> {
  let summary = "greedy non-max suppression of boxes by score (TF's NonMaxSuppressionV3/V4/V5)";
  let description = [{
    `boxes` is [N, 4] (any two opposite corners, y before x), `scores` [N];
    the four scalars are max_output_size, iou_threshold, score_threshold and
    soft_nms_sigma (0: hard NMS). Boxes are taken in decreasing score order,
    equal scores lower index first; a box whose IoU with a selected one
    exceeds iou_threshold is dropped, with sigma > 0 its score decays by
    exp(-0.5 * iou^2 / sigma) per selected box instead, and a box whose
    score is no longer above score_threshold is dropped.
    `selected_indices` and `selected_scores` have the bound B as their size
    (the constant max_output_size clamped to N, else N; with TF's
    pad_to_max_output_size, max_output_size); their first `valid_outputs`
    entries are filled, the rest are zero.
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$boxes, RankedTensorOf<[F32]>:$scores,
                   Tfaot_IndexTensor:$max_output_size,
                   RankedTensorOf<[F32]>:$iou_threshold, RankedTensorOf<[F32]>:$score_threshold,
                   RankedTensorOf<[F32]>:$soft_nms_sigma);
  let results = (outs RankedTensorOf<[I32]>:$selected_indices,
                      RankedTensorOf<[F32]>:$selected_scores,
                      RankedTensorOf<[I32]>:$valid_outputs);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_WhereOp : Tfaot_Op<"Where", [Pure]> {
  let summary = "coordinates of the non-zero (true) elements, in row-major order (TF's Where)";
  let description = [{
    `index` is [M, rank] int64 with M the input's element count (the bound);
    its first `count` rows hold the coordinates of the non-zero elements in
    row-major order, the rest are zero.
  }];
  let arguments = (ins Tfaot_Tensor:$input);
  let results = (outs RankedTensorOf<[I64]>:$index, RankedTensorOf<[I32]>:$count);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_BoundedDimsOp : Tfaot_Op<"BoundedDims", [Pure]> {
  let summary = "the run-time dims of a bounded tensor: `bounds` with dim `dim` replaced by `count`";
  let arguments = (ins RankedTensorOf<[I32]>:$count, DenseI64ArrayAttr:$bounds,
                   I64Attr:$dim);
  let results = (outs RankedTensorOf<[I64]>:$dims);
  let assemblyFormat = "$count attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_CheckBoundedIndicesOp : Tfaot_Op<"CheckBoundedIndices", [
    AllTypesMatch<["indices", "checked"]>]> {
  let summary = "fails Run() if a valid index is not below a run-time row count; returns the indices";
  let description = [{
    Guards a GatherV2 whose params are bounded along the gathered axis: the
    buffer has the bound's rows, but only the first `row_count` (computed
    at run time) are valid, so an index is checked against that count, as
    TensorFlow checks it against the params' actual size. Of the indices,
    the first `valid_rows` rows along dim 0 are checked (all of them when
    the indices are not bounded); the rest are padding. `checked` is
    `indices` itself: the gather reads it, which orders it after the check.
    Not Pure: the check is a side effect that must not be dropped or merged.
  }];
  let arguments = (ins Tfaot_IndexTensor:$indices, RankedTensorOf<[I32]>:$valid_rows,
                   RankedTensorOf<[I32]>:$row_count);
  let results = (outs Tfaot_IndexTensor:$checked);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // TFAOT_IR_DATADEPENDENTOPS_TD
