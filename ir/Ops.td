//===- Ops.td - tfaot dialect operations -------------------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One def per TensorFlow op tfaot compiles. Keep them grouped as TensorFlow's
// documentation groups them; each verifier checks what TensorFlow would reject
// at graph construction time, so malformed graphs fail at import with the node
// named, not deep in code generation.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_OPS_TD
#define TFAOT_IR_OPS_TD

include "ir/Base.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Constants and identity
//===----------------------------------------------------------------------===//

def Tfaot_ConstOp : Tfaot_Op<"Const", [ConstantLike, Pure,
                                      AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor (TF's Const)";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Tfaot_IdentityOp : Tfaot_Op<"Identity", [Pure, AllTypesMatch<["input", "output"]>]> {
  let summary = "returns its input (TF's Identity)";
  let arguments = (ins Tfaot_Tensor:$input);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($output)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops with NumPy-style broadcasting
//===----------------------------------------------------------------------===//

class Tfaot_BinaryOp<string mnemonic, string desc>
    : Tfaot_Op<mnemonic, [Pure, AllElementTypesMatch<["x", "y", "z"]>]> {
  let summary = desc # " (TF's " # mnemonic # "), broadcasting like NumPy";
  let arguments = (ins Tfaot_NumericTensor:$x, Tfaot_NumericTensor:$y);
  let results = (outs Tfaot_NumericTensor:$z);
  let assemblyFormat =
      "$x `,` $y attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  // Folds integer constants (shape arithmetic) so computed shapes become
  // constants at import.
  let hasFolder = 1;
}

def Tfaot_AddOp : Tfaot_BinaryOp<"Add", "x + y">;
def Tfaot_AddV2Op : Tfaot_BinaryOp<"AddV2", "x + y">;
def Tfaot_SubOp : Tfaot_BinaryOp<"Sub", "x - y">;
def Tfaot_MulOp : Tfaot_BinaryOp<"Mul", "x * y">;
def Tfaot_RealDivOp : Tfaot_BinaryOp<"RealDiv", "x / y">;
def Tfaot_MaximumOp : Tfaot_BinaryOp<"Maximum", "max(x, y)">;
def Tfaot_MinimumOp : Tfaot_BinaryOp<"Minimum", "min(x, y)">;

//===----------------------------------------------------------------------===//
// Elementwise unary ops (activations)
//===----------------------------------------------------------------------===//

class Tfaot_UnaryOp<string mnemonic, string desc, Type operandType>
    : Tfaot_Op<mnemonic, [Pure, AllTypesMatch<["x", "y"]>]> {
  let summary = desc # " (TF's " # mnemonic # ")";
  let arguments = (ins operandType:$x);
  let results = (outs operandType:$y);
  let assemblyFormat = "$x attr-dict `:` type($y)";
}

def Tfaot_ReluOp : Tfaot_UnaryOp<"Relu", "max(x, 0)", Tfaot_NumericTensor>;
def Tfaot_Relu6Op : Tfaot_UnaryOp<"Relu6", "min(max(x, 0), 6)", Tfaot_NumericTensor>;
def Tfaot_SigmoidOp : Tfaot_UnaryOp<"Sigmoid", "1 / (1 + exp(-x))", Tfaot_FloatTensor>;
def Tfaot_TanhOp : Tfaot_UnaryOp<"Tanh", "hyperbolic tangent", Tfaot_FloatTensor>;

def Tfaot_SoftmaxOp : Tfaot_Op<"Softmax", [Pure, AllTypesMatch<["logits", "softmax"]>]> {
  let summary = "softmax over the last dimension (TF's Softmax)";
  let arguments = (ins Tfaot_FloatTensor:$logits);
  let results = (outs Tfaot_FloatTensor:$softmax);
  let assemblyFormat = "$logits attr-dict `:` type($softmax)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions and bias
//===----------------------------------------------------------------------===//

def Tfaot_MatMulOp : Tfaot_Op<"MatMul", [Pure, AllElementTypesMatch<["a", "b", "product"]>]> {
  let summary = "matrix product of two 2-D tensors (TF's MatMul)";
  let description = [{
    `product = op(a) * op(b)` where `op` transposes its operand when the
    matching `transpose_*` attribute is true.
  }];
  let arguments = (ins Tfaot_NumericTensor:$a, Tfaot_NumericTensor:$b,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
  let results = (outs Tfaot_NumericTensor:$product);
  let assemblyFormat =
      "$a `,` $b attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_BiasAddOp : Tfaot_Op<"BiasAdd", [Pure, AllElementTypesMatch<["value", "bias", "output"]>,
                                          AllTypesMatch<["value", "output"]>]> {
  let summary = "adds a 1-D bias along the channel dimension (TF's BiasAdd)";
  let arguments = (ins Tfaot_NumericTensor:$value, Tfaot_NumericTensor:$bias,
                   DefaultValuedAttr<StrAttr, "\"NHWC\"">:$data_format);
  let results = (outs Tfaot_NumericTensor:$output);
  let assemblyFormat =
      "$value `,` $bias attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Dimension of `value` that `bias` runs along.
    int64_t getChannelDim();
  }];
}

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
// More elementwise ops
//===----------------------------------------------------------------------===//

def Tfaot_ExpOp : Tfaot_UnaryOp<"Exp", "e^x", Tfaot_FloatTensor>;
def Tfaot_LogOp : Tfaot_UnaryOp<"Log", "natural logarithm", Tfaot_FloatTensor>;
def Tfaot_SqrtOp : Tfaot_UnaryOp<"Sqrt", "square root", Tfaot_FloatTensor>;
def Tfaot_RsqrtOp : Tfaot_UnaryOp<"Rsqrt", "1 / sqrt(x)", Tfaot_FloatTensor>;
def Tfaot_ReciprocalOp : Tfaot_UnaryOp<"Reciprocal", "1 / x", Tfaot_FloatTensor>;
def Tfaot_FloorOp : Tfaot_UnaryOp<"Floor", "largest integer <= x", Tfaot_FloatTensor>;
def Tfaot_NegOp : Tfaot_UnaryOp<"Neg", "-x", Tfaot_NumericTensor>;
def Tfaot_AbsOp : Tfaot_UnaryOp<"Abs", "|x|", Tfaot_NumericTensor>;
def Tfaot_SquareOp : Tfaot_UnaryOp<"Square", "x * x", Tfaot_NumericTensor>;
def Tfaot_EluOp : Tfaot_UnaryOp<"Elu", "x if x > 0 else exp(x) - 1", Tfaot_FloatTensor>;

def Tfaot_LeakyReluOp : Tfaot_Op<"LeakyRelu", [Pure, AllTypesMatch<["features", "activations"]>]> {
  let summary = "x if x > 0 else alpha * x (TF's LeakyRelu)";
  let arguments = (ins Tfaot_FloatTensor:$features,
                   DefaultValuedAttr<F32Attr, "0.2f">:$alpha);
  let results = (outs Tfaot_FloatTensor:$activations);
  let assemblyFormat = "$features attr-dict `:` type($activations)";
}

def Tfaot_SquaredDifferenceOp : Tfaot_BinaryOp<"SquaredDifference", "(x - y)^2">;
def Tfaot_FloorDivOp : Tfaot_BinaryOp<"FloorDiv", "floor(x / y)">;
def Tfaot_FloorModOp : Tfaot_BinaryOp<"FloorMod", "x - floor(x / y) * y">;
def Tfaot_PowOp : Tfaot_BinaryOp<"Pow", "x^y">;

// Comparisons: numeric operands, bool result, NumPy broadcasting.
class Tfaot_CompareOp<string mnemonic, string desc>
    : Tfaot_Op<mnemonic, [Pure, AllElementTypesMatch<["x", "y"]>]> {
  let summary = desc # " (TF's " # mnemonic # "), broadcasting like NumPy";
  let arguments = (ins Tfaot_NumericTensor:$x, Tfaot_NumericTensor:$y);
  let results = (outs RankedTensorOf<[I1]>:$z);
  let assemblyFormat =
      "$x `,` $y attr-dict `:` functional-type(operands, results)";
}

def Tfaot_GreaterOp : Tfaot_CompareOp<"Greater", "x > y">;
def Tfaot_GreaterEqualOp : Tfaot_CompareOp<"GreaterEqual", "x >= y">;
def Tfaot_LessOp : Tfaot_CompareOp<"Less", "x < y">;
def Tfaot_LessEqualOp : Tfaot_CompareOp<"LessEqual", "x <= y">;
def Tfaot_EqualOp : Tfaot_CompareOp<"Equal", "x == y">;
def Tfaot_NotEqualOp : Tfaot_CompareOp<"NotEqual", "x != y">;

class Tfaot_LogicalOp<string mnemonic, string desc>
    : Tfaot_Op<mnemonic, [Pure]> {
  let summary = desc # " (TF's " # mnemonic # "), broadcasting like NumPy";
  let arguments = (ins RankedTensorOf<[I1]>:$x, RankedTensorOf<[I1]>:$y);
  let results = (outs RankedTensorOf<[I1]>:$z);
  let assemblyFormat =
      "$x `,` $y attr-dict `:` functional-type(operands, results)";
}
def Tfaot_LogicalAndOp : Tfaot_LogicalOp<"LogicalAnd", "x and y">;
def Tfaot_LogicalOrOp : Tfaot_LogicalOp<"LogicalOr", "x or y">;
def Tfaot_LogicalNotOp : Tfaot_UnaryOp<"LogicalNot", "not x", RankedTensorOf<[I1]>>;

def Tfaot_SelectV2Op : Tfaot_Op<"SelectV2", [Pure, AllElementTypesMatch<["t", "e", "output"]>]> {
  let summary = "condition ? t : e, all three broadcast (TF's SelectV2)";
  let arguments = (ins RankedTensorOf<[I1]>:$condition, Tfaot_Tensor:$t,
                   Tfaot_Tensor:$e);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $condition `,` $t `,` $e attr-dict `:` functional-type(operands, results)
  }];
}

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

def Tfaot_BatchMatMulV2Op : Tfaot_Op<"BatchMatMulV2", [Pure, AllElementTypesMatch<["x", "y", "output"]>]> {
  let summary = "batched matrix product with broadcast batch dimensions (TF's BatchMatMulV2)";
  let arguments = (ins Tfaot_NumericTensor:$x, Tfaot_NumericTensor:$y,
                   DefaultValuedAttr<BoolAttr, "false">:$adj_x,
                   DefaultValuedAttr<BoolAttr, "false">:$adj_y);
  let results = (outs Tfaot_NumericTensor:$output);
  let assemblyFormat =
      "$x `,` $y attr-dict `:` functional-type(operands, results)";
}

def Tfaot_SinOp : Tfaot_UnaryOp<"Sin", "sine", Tfaot_FloatTensor>;
def Tfaot_ErfOp : Tfaot_UnaryOp<"Erf", "Gauss error function (exact Gelu is x * (1 + erf(x / sqrt(2))) / 2)", Tfaot_FloatTensor>;
def Tfaot_CosOp : Tfaot_UnaryOp<"Cos", "cosine", Tfaot_FloatTensor>;
def Tfaot_Atan2Op : Tfaot_BinaryOp<"Atan2", "the angle of the point (y, x) = (operand 1, operand 0), i.e. atan(x / y) by quadrant">;

def Tfaot_SoftplusOp : Tfaot_UnaryOp<"Softplus", "log(1 + exp(x))", Tfaot_FloatTensor>;
def Tfaot_SeluOp : Tfaot_UnaryOp<"Selu", "scaled ELU", Tfaot_FloatTensor>;
def Tfaot_RoundOp : Tfaot_UnaryOp<"Round", "round half to even", Tfaot_FloatTensor>;

def Tfaot_PreluOp : Tfaot_Op<"Prelu", [Pure, AllElementTypesMatch<["x", "alpha", "y"]>,
                                      AllTypesMatch<["x", "y"]>]> {
  let summary = "x if x > 0 else alpha * x, alpha broadcast against x (TF.js's Prelu)";
  let arguments = (ins Tfaot_FloatTensor:$x, Tfaot_FloatTensor:$alpha);
  let results = (outs Tfaot_FloatTensor:$y);
  let assemblyFormat =
      "$x `,` $alpha attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_AddNOp : Tfaot_Op<"AddN", [Pure, SameOperandsAndResultType]> {
  let summary = "sum of N tensors of the same shape (TF's AddN)";
  let arguments = (ins Variadic<Tfaot_NumericTensor>:$inputs);
  let results = (outs Tfaot_NumericTensor:$sum);
  let assemblyFormat = "$inputs attr-dict `:` type($sum)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Convolutions and pooling
//===----------------------------------------------------------------------===//

// Window attributes shared by convolutions and pools, as TensorFlow spells
// them: 4-element strides/dilations in data_format order, padding "SAME",
// "VALID" or "EXPLICIT" (then explicit_paddings holds 8 before/after pairs).
class Tfaot_WindowOp<string mnemonic, string desc, dag extraArgs>
    : Tfaot_Op<mnemonic, [Pure]> {
  let summary = desc # " (TF's " # mnemonic # ")";
  let arguments = !con(extraArgs, (ins
      I64ArrayAttr:$strides,
      StrAttr:$padding,
      DefaultValuedAttr<I64ArrayAttr, "{}">:$explicit_paddings,
      DefaultValuedAttr<StrAttr, "\"NHWC\"">:$data_format));
  let results = (outs Tfaot_NumericTensor:$output);
  let hasVerifier = 1;
}

def Tfaot_Conv2DOp : Tfaot_WindowOp<"Conv2D", "2-D convolution",
    (ins Tfaot_NumericTensor:$input, Tfaot_NumericTensor:$filter,
         DefaultValuedAttr<I64ArrayAttr, "{1, 1, 1, 1}">:$dilations)> {
  let description = [{
    `filter` is [filter_height, filter_width, in_channels, out_channels].
  }];
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

def Tfaot_DepthwiseConv2dNativeOp : Tfaot_WindowOp<"DepthwiseConv2dNative",
    "depthwise 2-D convolution",
    (ins Tfaot_NumericTensor:$input, Tfaot_NumericTensor:$filter,
         DefaultValuedAttr<I64ArrayAttr, "{1, 1, 1, 1}">:$dilations)> {
  let description = [{
    `filter` is [filter_height, filter_width, in_channels, multiplier]; output
    channel `c * multiplier + m` convolves input channel `c` with filter `m`.
  }];
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

def Tfaot_MaxPoolOp : Tfaot_WindowOp<"MaxPool", "max pooling",
    (ins Tfaot_NumericTensor:$input, I64ArrayAttr:$ksize)> {
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Tfaot_AvgPoolOp : Tfaot_WindowOp<"AvgPool",
    "average pooling; SAME padding averages only the in-bounds elements",
    (ins Tfaot_FloatTensor:$input, I64ArrayAttr:$ksize)> {
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
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

//===----------------------------------------------------------------------===//
// Normalization, rounding and random numbers
//===----------------------------------------------------------------------===//

def Tfaot_CeilOp : Tfaot_UnaryOp<"Ceil", "smallest integer >= x", Tfaot_FloatTensor>;

def Tfaot_FusedBatchNormOp : Tfaot_Op<"FusedBatchNorm", [Pure,
    AllTypesMatch<["x", "y"]>,
    AllElementTypesMatch<["x", "scale", "offset", "mean", "variance"]>]> {
  let summary = "inference-mode batch normalization (TF's FusedBatchNorm, V2 and V3)";
  let description = [{
    y = (x - mean) * scale / sqrt(variance + epsilon) + offset, with the
    four 1-D parameters running along the channel dimension of x (last for
    NHWC, 1 for NCHW). Only TF's output 0 exists here: the batch statistics
    are outputs of training, and `is_training` must be false.
  }];
  let arguments = (ins Tfaot_FloatTensor:$x, Tfaot_FloatTensor:$scale,
                   Tfaot_FloatTensor:$offset, Tfaot_FloatTensor:$mean,
                   Tfaot_FloatTensor:$variance,
                   DefaultValuedAttr<F32Attr, "0.0001f">:$epsilon,
                   DefaultValuedAttr<StrAttr, "\"NHWC\"">:$data_format,
                   DefaultValuedAttr<BoolAttr, "false">:$is_training);
  let results = (outs Tfaot_FloatTensor:$y);
  let assemblyFormat = [{
    $x `,` $scale `,` $offset `,` $mean `,` $variance attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Dimension of `x` that the parameters run along.
    int64_t getChannelDim();
  }];
}

def Tfaot_RandomUniformOp : Tfaot_Op<"RandomUniform", [Pure]> {
  let summary = "floats uniformly distributed in [0, 1) (TF's RandomUniform)";
  let description = [{
    `shape` is a constant. The numbers are NOT TensorFlow's Philox stream:
    element i is a 64-bit counter-based hash (SplitMix64's finalizer) of i
    and a key made from `seed` and `seed2`, whose top bits become a float in
    [0, 1) exactly. Every run of the compiled function yields the same
    tensor. When the graph gives no seed (both 0, where TF would pick a
    random one), the importer derives `seed2` from the node name so that two
    unseeded generators of one graph differ.
  }];
  let arguments = (ins Tfaot_IndexTensor:$shape,
                   DefaultValuedAttr<I64Attr, "0">:$seed,
                   DefaultValuedAttr<I64Attr, "0">:$seed2);
  let results = (outs Tfaot_FloatTensor:$output);
  let assemblyFormat = "$shape attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Quantized tensors: TF's quint8/qint8/qint32 values with a float range
//===----------------------------------------------------------------------===//
// As in TensorFlow, a quantized tensor travels as three values: its storage
// integers (quint8 is ui8, qint8 i8, qint32 i32) and two f32 scalars, the
// float values the lowest and highest integers stand for. TF's quantized
// kernels (QuantizedConv2D, QuantizedAdd, QuantizedRelu, ...) are imported
// as these few ops plus ordinary integer and float ops; the formulas are
// those of TensorFlow's quantization_utils.h, float where TF computes in
// float, so that results match its CPU kernels.

def Tfaot_ScalarF32 : 0DTensorOf<[F32]>;
def Tfaot_QuantizedTensor : RankedTensorOf<[I8, UI8, I16, UI16, I32]>;

def Tfaot_DequantizeOp : Tfaot_Op<"Dequantize",
    [Pure, AllShapesMatch<["input", "output"]>]> {
  let summary = "quantized integers to floats (TF's Dequantize of a computed tensor)";
  let description = [{
    MIN_FIRST: with s = (max - min) / (2^bits - 1) and m = round(min / s) * s
    (f32), output = (m - lowest * s) + q * s, as TF's Eigen kernel. MIN_COMBINED:
    output = (q + half) * (max - min) / (highest - lowest) + min, half being
    (highest - lowest + 1) / 2 for signed types. Dequantize of a constant is
    folded at import instead.
  }];
  let arguments = (ins Tfaot_QuantizedTensor:$input, Tfaot_ScalarF32:$min_range,
                   Tfaot_ScalarF32:$max_range, StrAttr:$mode);
  let results = (outs RankedTensorOf<[F32]>:$output);
  let assemblyFormat = [{
    $input `,` $min_range `,` $max_range attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tfaot_QuantizeOp : Tfaot_Op<"Quantize",
    [Pure, AllShapesMatch<["input", "output"]>]> {
  let summary = "floats to quantized integers over [min_range, max_range] (MIN_FIRST)";
  let description = [{
    With s = (2^bits - 1) / (max - min) (f32; 0 when max == min),
    output = clamp(round(x * s) - (round(min * s) - lowest)), rounding half
    away from zero, as TF's QUANTIZE_WITH_EIGEN. The range is used as given:
    QuantizeV2's widening of it to include 0 is done by the importer.
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$input, Tfaot_ScalarF32:$min_range,
                   Tfaot_ScalarF32:$max_range);
  let results = (outs Tfaot_QuantizedTensor:$output);
  let assemblyFormat = [{
    $input `,` $min_range `,` $max_range attr-dict `:` functional-type(operands, results)
  }];
}

def Tfaot_SubtractZeroPointOp : Tfaot_Op<"SubtractZeroPoint",
    [Pure, AllShapesMatch<["input", "output"]>]> {
  let summary = "q - (the integer that stands for 0.0), widened to i32";
  let description = [{
    The first step of TF's quantized contractions: the zero point is
    FloatToQuantizedUnclamped(0, min, max) (lowest when min == max), computed
    in double at run time, so QuantizedConv2D and QuantizedMatMul become
    ordinary i32 Conv2D and MatMul of the offset inputs.
  }];
  let arguments = (ins RankedTensorOf<[I8, UI8, I16, UI16]>:$input,
                   Tfaot_ScalarF32:$min_range, Tfaot_ScalarF32:$max_range);
  let results = (outs RankedTensorOf<[I32]>:$output);
  let assemblyFormat = [{
    $input `,` $min_range `,` $max_range attr-dict `:` functional-type(operands, results)
  }];
}

def Tfaot_RequantizationRangeOp : Tfaot_Op<"RequantizationRange", [Pure]> {
  let summary = "the float range qint32 values actually use (TF's RequantizationRange)";
  let description = [{
    The float values of the smallest and largest element (the smallest
    clamped to at most 0), converted with TF's QuantizedToFloat.
  }];
  let arguments = (ins RankedTensorOf<[I32]>:$input, Tfaot_ScalarF32:$input_min,
                   Tfaot_ScalarF32:$input_max);
  let results = (outs Tfaot_ScalarF32:$output_min, Tfaot_ScalarF32:$output_max);
  let assemblyFormat = [{
    $input `,` $input_min `,` $input_max attr-dict `:` functional-type(operands, results)
  }];
}

def Tfaot_RequantizeOp : Tfaot_Op<"Requantize",
    [Pure, AllShapesMatch<["input", "output"]>]> {
  let summary = "qint32 to quint8 in a new range (TF's Requantize)";
  let description = [{
    TF's 16-bit fixed-point formula (RequantizeManyInNewRangeReference), so
    that every output byte is the one TensorFlow computes.
  }];
  let arguments = (ins RankedTensorOf<[I32]>:$input, Tfaot_ScalarF32:$input_min,
                   Tfaot_ScalarF32:$input_max, Tfaot_ScalarF32:$output_min,
                   Tfaot_ScalarF32:$output_max);
  let results = (outs RankedTensorOf<[UI8]>:$output);
  let assemblyFormat = [{
    $input `,` $input_min `,` $input_max `,` $output_min `,` $output_max attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Post-training int8 (--quantize=int8)
//===----------------------------------------------------------------------===//

// What tfaot-quantize-int8 puts in place of a float Conv2D or MatMul with a
// constant filter: the activation is quantized per tensor (asymmetric, i8
// with a zero point), the filter per output channel (symmetric, i8), and the
// product accumulates in i32. The float ops around it (quantize, rescale)
// are ordinary tfaot ops, so they fuse with their neighbours.

def Tfaot_Int8Conv2DOp : Tfaot_WindowOp<"Int8Conv2D",
    "int8 2-D convolution with int32 accumulation",
    (ins RankedTensorOf<[I8]>:$input, RankedTensorOf<[I8]>:$filter,
         DefaultValuedAttr<I64ArrayAttr, "{1, 1, 1, 1}">:$dilations,
         I32Attr:$input_zero_point)> {
  let description = [{
    output = sum over the window of (input - input_zero_point) * filter, in
    i32; padded taps count as input_zero_point, i.e. contribute nothing (the
    float conv pads with 0.0, which quantizes to the zero point). `filter` is
    HWCF. Only NHWC is accepted: layout assignment has run before.
  }];
  let results = (outs RankedTensorOf<[I32]>:$output);
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

def Tfaot_Int8DepthwiseConv2DOp : Tfaot_WindowOp<"Int8DepthwiseConv2D",
    "int8 depthwise 2-D convolution with int32 accumulation",
    (ins RankedTensorOf<[I8]>:$input, RankedTensorOf<[I8]>:$filter,
         DefaultValuedAttr<I64ArrayAttr, "{1, 1, 1, 1}">:$dilations,
         I32Attr:$input_zero_point)> {
  let description = [{
    output[n, y, x, c] = sum over the window of (input - input_zero_point) *
    filter[i, j, c, 0], in i32; padded taps count as input_zero_point.
    `filter` is DepthwiseConv2dNative's HWCM with channel multiplier M = 1.
    Only NHWC is accepted: layout assignment has run before.
  }];
  let results = (outs RankedTensorOf<[I32]>:$output);
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

def Tfaot_Int8MatMulOp : Tfaot_Op<"Int8MatMul", [Pure]> {
  let summary = "int8 matrix product with int32 accumulation";
  let description = [{
    product[m, n] = sum over k of (a[m, k] - a_zero_point) * b[k, n], in i32.
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$a, RankedTensorOf<[I8]>:$b,
                   I32Attr:$a_zero_point);
  let results = (outs RankedTensorOf<[I32]>:$product);
  let assemblyFormat =
      "$a `,` $b attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Tfaot_Int8WeightMatMulOp : Tfaot_Op<"Int8WeightMatMul", [Pure]> {
  let summary = "float rows times int8 weights, in float32";
  let description = [{
    product[m, n] = sum over k of a[m, k] * float(b[k, n]). What
    `--quantize=int8` makes of a MatMul it keeps in float32 ("weight-only":
    the weights stored as int8 per column, their scales applied after the
    product by a Mul, the activations left in float32).
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$a, RankedTensorOf<[I8]>:$b);
  let results = (outs RankedTensorOf<[F32]>:$product);
  let assemblyFormat =
      "$a `,` $b attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Image decoding
//===----------------------------------------------------------------------===//

def Tfaot_DecodeJpegOp : Tfaot_Op<"DecodeJpeg"> {
  let summary = "decodes a JPEG (TF's DecodeJpeg and DecodeAndCropJpeg)";
  let description = [{
    `contents` is a string (bytes) argument, as the function receives it: a
    tensor<2xi64> standing for the {data pointer, byte count} descriptor of
    the generated API. The result is always static, height x width x
    channels uint8: without `crop_window` the whole image is decoded and
    must have that size (checked at run time); with it ([y, x, h, w],
    int32, h and w equal to the result's) only that window of the image is
    decoded, and `image_size`, when present, is the size the whole image
    must have. Sizes are those after scaling by 1/`ratio`. `dct_method` is
    TF's: "" and "INTEGER_FAST" are libjpeg's IFAST, "INTEGER_ACCURATE" its
    ISLOW. Not Pure: a bad image makes the function report an error.
  }];
  let arguments = (ins RankedTensorOf<[I64]>:$contents,
                   Optional<RankedTensorOf<[I32]>>:$crop_window,
                   I64Attr:$channels,
                   DefaultValuedAttr<I64Attr, "1">:$ratio,
                   DefaultValuedAttr<BoolAttr, "true">:$fancy_upscaling,
                   DefaultValuedAttr<StrAttr, "\"\"">:$dct_method,
                   OptionalAttr<DenseI64ArrayAttr>:$image_size);
  let results = (outs RankedTensorOf<[UI8]>:$image);
  let assemblyFormat = [{
    $contents (`crop` $crop_window^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TFAOT_IR_OPS_TD
