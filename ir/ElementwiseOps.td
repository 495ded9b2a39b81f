//===- ElementwiseOps.td - tfaot elementwise ops -----------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The elementwise ops: binary ops with NumPy broadcasting, unary ops
// (activations, math functions, rounding), comparisons and logical ops,
// SelectV2, Softmax, Prelu and AddN. Verifiers in ElementwiseOps.cpp,
// integer folders in OpFolders.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_ELEMENTWISEOPS_TD
#define TFAOT_IR_ELEMENTWISEOPS_TD

include "ir/Base.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

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

def Tfaot_SinOp : Tfaot_UnaryOp<"Sin", "sine", Tfaot_FloatTensor>;
def Tfaot_ErfOp : Tfaot_UnaryOp<"Erf", "Gauss error function (exact Gelu is x * (1 + erf(x / sqrt(2))) / 2)", Tfaot_FloatTensor>;
def Tfaot_CosOp : Tfaot_UnaryOp<"Cos", "cosine", Tfaot_FloatTensor>;
def Tfaot_Atan2Op : Tfaot_BinaryOp<"Atan2", "the angle of the point (y, x) = (operand 1, operand 0), i.e. atan(x / y) by quadrant">;

def Tfaot_SoftplusOp : Tfaot_UnaryOp<"Softplus", "log(1 + exp(x))", Tfaot_FloatTensor>;
def Tfaot_SeluOp : Tfaot_UnaryOp<"Selu", "scaled ELU", Tfaot_FloatTensor>;
def Tfaot_RoundOp : Tfaot_UnaryOp<"Round", "round half to even", Tfaot_FloatTensor>;
def Tfaot_CeilOp : Tfaot_UnaryOp<"Ceil", "smallest integer >= x", Tfaot_FloatTensor>;

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

#endif // TFAOT_IR_ELEMENTWISEOPS_TD
