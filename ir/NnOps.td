//===- NnOps.td - tfaot contraction and window ops ---------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The neural-network ops: matrix products and BiasAdd, convolutions and
// pools (the window ops), FusedBatchNorm, RandomUniform, and the int8 ops
// --quantize=int8 puts in place of float convolutions and matrix products.
// Verifiers in NnOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_NNOPS_TD
#define TFAOT_IR_NNOPS_TD

include "ir/Base.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

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

def Tfaot_BatchMatMulV2Op : Tfaot_Op<"BatchMatMulV2", [Pure, AllElementTypesMatch<["x", "y", "output"]>]> {
  let summary = "batched matrix product with broadcast batch dimensions (TF's BatchMatMulV2)";
  let arguments = (ins Tfaot_NumericTensor:$x, Tfaot_NumericTensor:$y,
                   DefaultValuedAttr<BoolAttr, "false">:$adj_x,
                   DefaultValuedAttr<BoolAttr, "false">:$adj_y);
  let results = (outs Tfaot_NumericTensor:$output);
  let assemblyFormat =
      "$x `,` $y attr-dict `:` functional-type(operands, results)";
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
// Normalization and random numbers
//===----------------------------------------------------------------------===//

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

#endif // TFAOT_IR_NNOPS_TD
