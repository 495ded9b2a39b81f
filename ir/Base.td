//===- Base.td - tfaot dialect definition and shared constraints -*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The tfaot dialect models a TensorFlow inference graph after import: one op
// per TensorFlow op, named as TensorFlow names it, with TensorFlow's
// attributes. Type attributes ("T", "dtype", "output_type", ...) are not
// repeated as attributes: they are the element types of the operand and
// result tensors. Signed integers are signless (as in upstream MLIR); TF's
// unsigned types are MLIR's unsigned integers (ui8, ui16, ...).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_BASE_TD
#define TFAOT_IR_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TfaotDialect : Dialect {
  let name = "tfaot";
  let cppNamespace = "::mlir::tfaot";
  let summary = "TensorFlow inference graphs as tfaot imports them";
  let description = [{
    Ops mirror TensorFlow ops one to one (`tfaot.MatMul` is TF's `MatMul`).
    The node name of each op is its location, so every diagnostic can name
    the graph node it is about.
  }];
  let useDefaultAttributePrinterParser = 0;
  let useDefaultTypePrinterParser = 0;
}

class Tfaot_Op<string mnemonic, list<Trait> traits = []>
    : Op<TfaotDialect, mnemonic, traits>;

// Element types tfaot accepts in tensors (TF's DT_* values it can compile).
def Tfaot_Float : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;
def Tfaot_Int : AnyTypeOf<[I8, I16, I32, I64, UI8, UI16, UI32, UI64],
                          "integer">;
def Tfaot_IndexInt : AnyTypeOf<[I32, I64], "32/64-bit integer">;
def Tfaot_Element : AnyTypeOf<[Tfaot_Float, Tfaot_Int, I1]>;
def Tfaot_Numeric : AnyTypeOf<[Tfaot_Float, Tfaot_Int]>;

def Tfaot_Tensor : RankedTensorOf<[Tfaot_Element]>;
def Tfaot_NumericTensor : RankedTensorOf<[Tfaot_Numeric]>;
def Tfaot_FloatTensor : RankedTensorOf<[Tfaot_Float]>;
def Tfaot_IndexTensor : RankedTensorOf<[Tfaot_IndexInt]>;

#endif // TFAOT_IR_BASE_TD
