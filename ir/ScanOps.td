//===- ScanOps.td - running reductions (TF's Cumsum) -----*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Ops whose every output element folds a prefix of the input along one
// dimension. They have their own tablegen target (ScanOps.h.inc /
// ScanOps.cpp.inc), registered beside Ops.td's in
// TfaotDialect::initialize(), as ListOps.td's are, so that adding one does
// not rebuild every file that includes ir/Ops.h.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_SCANOPS_TD
#define TFAOT_IR_SCANOPS_TD

include "ir/Base.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tfaot_CumsumOp : Tfaot_Op<"Cumsum", [Pure, AllTypesMatch<["x", "output"]>]> {
  let summary = "running sums along one dimension (TF's Cumsum)";
  let description = [{
    output[..., i, ...] is the sum of x[..., j, ...] for j <= i along
    `axis` (j < i when `exclusive`; j >= i, or j > i, when `reverse`),
    added one element after the other in that order, as TF's CPU kernel
    does, so float results round as TF's. `axis` is in [0, rank); the
    importer normalizes TF's negative axis and takes it from a constant.
  }];
  let arguments = (ins Tfaot_NumericTensor:$x, I64Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Tfaot_NumericTensor:$output);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasVerifier = 1;
}

#endif // TFAOT_IR_SCANOPS_TD
