//===- Ops.td - tfaot dialect operations -------------------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One def per TensorFlow op tfaot compiles. Keep them grouped as TensorFlow's
// documentation groups them; each verifier checks what TensorFlow would reject
// at graph construction time, so malformed graphs fail at import with the node
// named, not deep in code generation.
//
// The op families have their own files, included below, each beside the C++
// of its verifiers: ElementwiseOps.td, NnOps.td and ShapeOps.td. This file
// holds Const, Identity and the two small families (quantized tensors, image
// decoding), as Ops.cpp does. mlir-tblgen emits the ops sorted by name, so
// the generated Ops.h.inc and Ops.cpp.inc do not depend on where a def sits.
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

include "ir/ElementwiseOps.td"
include "ir/NnOps.td"
include "ir/ShapeOps.td"
include "ir/ControlFlowOps.td"

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
