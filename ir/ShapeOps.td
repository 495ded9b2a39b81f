//===- ShapeOps.td - tfaot shape and data-movement ops -----*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The ops that move data rather than compute it, and the reductions:
// Reshape, ArgMax, Cast, gathers, Pad, ConcatV2, Transpose, StridedSlice,
// resizes and CropAndResize, reductions and TopKV2, slices, broadcasts,
// one-hot encoding, space <-> batch. Verifiers in ShapeOps.cpp, integer
// folders in OpFolders.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_SHAPEOPS_TD
#define TFAOT_IR_SHAPEOPS_TD

include "ir/Base.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Shapes, reductions and casts
//===----------------------------------------------------------------------===//

def Tfaot_ReshapeOp : Tfaot_Op<"Reshape", [Pure, AllElementTypesMatch<["tensor", "output"]>]> {
  let summary = "gives a tensor a new shape with the same elements (TF's Reshape)";
  let arguments = (ins Tfaot_Tensor:$tensor, Tfaot_IndexTensor:$shape);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat =
      "$tensor `,` $shape attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tfaot_ArgMaxOp : Tfaot_Op<"ArgMax", [Pure]> {
  let summary = "index of the largest value along one dimension (TF's ArgMax)";
  let description = [{
    Ties resolve to the smallest index, as in TensorFlow. The result element
    type is TF's `output_type` attribute (int32 or int64).
  }];
  let arguments = (ins Tfaot_NumericTensor:$input, Tfaot_IndexTensor:$dimension);
  let results = (outs Tfaot_IndexTensor:$output);
  let assemblyFormat =
      "$input `,` $dimension attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_CastOp : Tfaot_Op<"Cast", [Pure]> {
  let summary = "converts elements to another type (TF's Cast)";
  let arguments = (ins Tfaot_Tensor:$x,
                   DefaultValuedAttr<BoolAttr, "false">:$Truncate);
  let results = (outs Tfaot_Tensor:$y);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

def Tfaot_GatherV2Op : Tfaot_Op<"GatherV2", [Pure, AllElementTypesMatch<["params", "output"]>]> {
  let summary = "gathers slices along an axis (TF's GatherV2, batch_dims 0)";
  let description = [{
    Indices outside [0, size) are clamped: generated code never reads out of
    bounds.
  }];
  let arguments = (ins Tfaot_Tensor:$params, Tfaot_IndexTensor:$indices,
                   Tfaot_IndexTensor:$axis);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $params `,` $indices `,` $axis attr-dict `:` functional-type(operands, results)
  }];
}

def Tfaot_GatherNdOp : Tfaot_Op<"GatherNd", [Pure, AllElementTypesMatch<["params", "output"]>]> {
  let summary = "gathers slices by index tuples (TF's GatherNd)";
  let description = [{
    Indices outside the params' bounds are clamped, as in GatherV2.
  }];
  let arguments = (ins Tfaot_Tensor:$params, Tfaot_IndexTensor:$indices);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $params `,` $indices attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tfaot_PadOp : Tfaot_Op<"Pad", [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = "pads with a constant (TF's Pad and PadV2)";
  let description = [{
    `paddings` is a constant [rank, 2] tensor of (before, after) counts;
    `constant_value` is the fill value (0 for TF's Pad).
  }];
  let arguments = (ins Tfaot_Tensor:$input, Tfaot_IndexTensor:$paddings,
                   Tfaot_Tensor:$constant_value);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $input `,` $paddings `,` $constant_value attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tfaot_ConcatV2Op : Tfaot_Op<"ConcatV2", [Pure]> {
  let summary = "concatenates tensors along one axis (TF's ConcatV2)";
  let arguments = (ins Variadic<Tfaot_Tensor>:$values, Tfaot_IndexTensor:$axis);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    `(` $values `)` `,` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tfaot_TransposeOp : Tfaot_Op<"Transpose", [Pure, AllElementTypesMatch<["x", "y"]>]> {
  let summary = "permutes dimensions (TF's Transpose)";
  let arguments = (ins Tfaot_Tensor:$x, Tfaot_IndexTensor:$perm);
  let results = (outs Tfaot_Tensor:$y);
  let assemblyFormat =
      "$x `,` $perm attr-dict `:` functional-type(operands, results)";
}

def Tfaot_StridedSliceOp : Tfaot_Op<"StridedSlice", [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = "NumPy-style strided slice with TF's masks (TF's StridedSlice)";
  let description = [{
    `begin`, `end` and `strides` are constant 1-D tensors; the masks are
    TF's bit masks. tfaot handles positive strides.
  }];
  let arguments = (ins Tfaot_Tensor:$input, Tfaot_IndexTensor:$begin,
                   Tfaot_IndexTensor:$end, Tfaot_IndexTensor:$strides,
                   DefaultValuedAttr<I64Attr, "0">:$begin_mask,
                   DefaultValuedAttr<I64Attr, "0">:$end_mask,
                   DefaultValuedAttr<I64Attr, "0">:$ellipsis_mask,
                   DefaultValuedAttr<I64Attr, "0">:$new_axis_mask,
                   DefaultValuedAttr<I64Attr, "0">:$shrink_axis_mask);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $input `,` $begin `,` $end `,` $strides attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

// TF's resize ops take NHWC images only; `data_format` is tfaot's own, set
// by the layout pass so that NCHW graphs need no transposes around them.
class Tfaot_ResizeOp<string mnemonic, string desc, Type resultType>
    : Tfaot_Op<mnemonic, [Pure]> {
  let summary = desc # " of NHWC (or NCHW) images (TF's " # mnemonic # ")";
  let arguments = (ins Tfaot_NumericTensor:$images, Tfaot_IndexTensor:$size,
                   DefaultValuedAttr<BoolAttr, "false">:$align_corners,
                   DefaultValuedAttr<BoolAttr, "false">:$half_pixel_centers,
                   DefaultValuedAttr<StrAttr, "\"NHWC\"">:$data_format);
  let results = (outs resultType:$resized_images);
  let assemblyFormat =
      "$images `,` $size attr-dict `:` functional-type(operands, results)";
}

def Tfaot_ResizeBilinearOp
    : Tfaot_ResizeOp<"ResizeBilinear", "bilinear resize", RankedTensorOf<[F32]>>;
def Tfaot_ResizeNearestNeighborOp
    : Tfaot_ResizeOp<"ResizeNearestNeighbor", "nearest-neighbour resize",
                     Tfaot_NumericTensor>;

def Tfaot_CropAndResizeOp : Tfaot_Op<"CropAndResize", [Pure]> {
  let summary = "crops boxes out of NHWC images and resizes each to one "
                "size (TF's CropAndResize)";
  let description = [{
    `boxes` [num_boxes, 4] holds normalized [y1, x1, y2, x2] (y2 < y1
    flips the crop; coordinates outside [0, 1] sample outside the image,
    which gives `extrapolation_value`), `box_ind` [num_boxes] the image of
    each box, `crop_size` the [height, width] of every crop. `method` is
    "bilinear" or "nearest". The result is float32
    [num_boxes, height, width, depth]. tfaot needs the boxes and their
    indices as constants (the importer checks).
  }];
  let arguments = (ins Tfaot_NumericTensor:$image,
                   RankedTensorOf<[F32]>:$boxes,
                   Tfaot_IndexTensor:$box_ind,
                   Tfaot_IndexTensor:$crop_size,
                   DefaultValuedAttr<StrAttr, "\"bilinear\"">:$method,
                   DefaultValuedAttr<F32Attr, "0.0f">:$extrapolation_value);
  let results = (outs RankedTensorOf<[F32]>:$crops);
  let assemblyFormat = [{
    $image `,` $boxes `,` $box_ind `,` $crop_size attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Tfaot_ReductionOp<string mnemonic, string desc>
    : Tfaot_Op<mnemonic, [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = desc # " over some dimensions (TF's " # mnemonic # ")";
  let arguments = (ins Tfaot_NumericTensor:$input,
                   Tfaot_IndexTensor:$reduction_indices,
                   DefaultValuedAttr<BoolAttr, "false">:$keep_dims);
  let results = (outs Tfaot_NumericTensor:$output);
  let assemblyFormat = [{
    $input `,` $reduction_indices attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tfaot_MeanOp : Tfaot_ReductionOp<"Mean", "average">;
def Tfaot_SumOp : Tfaot_ReductionOp<"Sum", "sum">;
def Tfaot_MaxOp : Tfaot_ReductionOp<"Max", "maximum">;
def Tfaot_MinOp : Tfaot_ReductionOp<"Min", "minimum">;
def Tfaot_ProdOp : Tfaot_ReductionOp<"Prod", "product">;

def Tfaot_AnyOp : Tfaot_Op<"Any", [Pure]> {
  let summary = "logical or over some dimensions (TF's Any)";
  let arguments = (ins RankedTensorOf<[I1]>:$input,
                   Tfaot_IndexTensor:$reduction_indices,
                   DefaultValuedAttr<BoolAttr, "false">:$keep_dims);
  let results = (outs RankedTensorOf<[I1]>:$output);
  let assemblyFormat = [{
    $input `,` $reduction_indices attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tfaot_AllOp : Tfaot_Op<"All", [Pure]> {
  let summary = "logical and over some dimensions (TF's All)";
  let arguments = (ins RankedTensorOf<[I1]>:$input,
                   Tfaot_IndexTensor:$reduction_indices,
                   DefaultValuedAttr<BoolAttr, "false">:$keep_dims);
  let results = (outs RankedTensorOf<[I1]>:$output);
  let assemblyFormat = [{
    $input `,` $reduction_indices attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tfaot_TopKV2Op : Tfaot_Op<"TopKV2", [Pure, AllElementTypesMatch<["input", "values"]>]> {
  let summary = "the k largest entries of the last dimension, and where they are (TF's TopKV2)";
  let description = [{
    `k` is a constant scalar. Both results have the input's shape with the
    last dimension replaced by `k`; `values` are sorted in decreasing order
    and equal values keep their order in the input (the lower index comes
    first), as in TensorFlow. `sorted` must be true: TF leaves the order
    unspecified otherwise, and sorted order is a valid answer then too.
  }];
  let arguments = (ins Tfaot_NumericTensor:$input, Tfaot_IndexTensor:$k,
                   DefaultValuedAttr<BoolAttr, "true">:$sorted);
  let results = (outs Tfaot_NumericTensor:$values,
                      Tfaot_IndexTensor:$indices);
  let assemblyFormat =
      "$input `,` $k attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement: slices, mirrored padding, broadcasts, one-hot encoding and
// the space <-> batch rearrangements behind dilated convolutions
//===----------------------------------------------------------------------===//

def Tfaot_SliceOp : Tfaot_Op<"Slice", [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = "a contiguous block of a tensor (TF's Slice)";
  let description = [{
    `begin` and `size` are constant 1-D tensors with one entry per input
    dimension; a size of -1 takes everything from `begin` to the end.
  }];
  let arguments = (ins Tfaot_Tensor:$input, Tfaot_IndexTensor:$begin,
                   Tfaot_IndexTensor:$size);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $input `,` $begin `,` $size attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  // Slices of constant shape vectors fold, like StridedSlice's.
  let hasFolder = 1;
}

def Tfaot_MirrorPadOp : Tfaot_Op<"MirrorPad", [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = "pads with a mirror image of the input (TF's MirrorPad)";
  let description = [{
    `paddings` is a constant [rank, 2] tensor of (before, after) counts.
    `mode` "REFLECT" mirrors around the edge element without repeating it
    (at most size - 1 per side); "SYMMETRIC" repeats it (at most size).
  }];
  let arguments = (ins Tfaot_Tensor:$input, Tfaot_IndexTensor:$paddings,
                   StrAttr:$mode);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $input `,` $paddings attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tfaot_BroadcastToOp : Tfaot_Op<"BroadcastTo", [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = "broadcasts a tensor to a constant shape (TF's BroadcastTo)";
  let arguments = (ins Tfaot_Tensor:$input, Tfaot_IndexTensor:$shape);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat =
      "$input `,` $shape attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_OneHotOp : Tfaot_Op<"OneHot", [Pure, AllElementTypesMatch<["on_value", "off_value", "output"]>]> {
  let summary = "one-hot encoding of integer indices (TF's OneHot)";
  let description = [{
    The result has a new dimension of size `depth` (a constant scalar) at
    `axis` (-1: last). Entry j along it is `on_value` where the index is j
    and `off_value` elsewhere, so indices outside [0, depth) give a row of
    `off_value`.
  }];
  let arguments = (ins RankedTensorOf<[Tfaot_Int]>:$indices,
                   Tfaot_IndexTensor:$depth, Tfaot_Tensor:$on_value,
                   Tfaot_Tensor:$off_value,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $indices `,` $depth `,` $on_value `,` $off_value attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tfaot_SpaceToBatchNDOp : Tfaot_Op<"SpaceToBatchND", [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = "moves blocks of spatial positions into the batch (TF's SpaceToBatchND)";
  let description = [{
    The input is [batch, spatial..., rest...] with M = size(block_shape)
    spatial dimensions. They are zero-padded by `paddings` ([M, 2]), split
    into blocks, and the offset inside the block becomes the outer part of
    the batch: output [prod(block_shape) * batch, padded_i / block_i...,
    rest...]. `block_shape` and `paddings` are constants.
  }];
  let arguments = (ins Tfaot_Tensor:$input, Tfaot_IndexTensor:$block_shape,
                   Tfaot_IndexTensor:$paddings);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $input `,` $block_shape `,` $paddings attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tfaot_BatchToSpaceNDOp : Tfaot_Op<"BatchToSpaceND", [Pure, AllElementTypesMatch<["input", "output"]>]> {
  let summary = "the inverse of SpaceToBatchND (TF's BatchToSpaceND)";
  let description = [{
    The input is [prod(block_shape) * batch, spatial..., rest...]; the outer
    batch part is interleaved back into the spatial dimensions, which are
    then cropped by `crops` ([M, 2]). `block_shape` and `crops` are
    constants.
  }];
  let arguments = (ins Tfaot_Tensor:$input, Tfaot_IndexTensor:$block_shape,
                   Tfaot_IndexTensor:$crops);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $input `,` $block_shape `,` $crops attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TFAOT_IR_SHAPEOPS_TD
