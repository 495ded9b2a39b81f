//===- ListOps.td - ops of TF's lists and TensorArrays ------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The ops TensorList and TensorArrayV3 need beyond the existing ones
// (compiler/frontend/ImportListOps.cpp). A list is a tensor
// [max_elements, element...]; reads are GatherV2. They have their own
// tablegen target (ListOps.h.inc / ListOps.cpp.inc), registered beside
// Ops.td's in TfaotDialect::initialize(), so that changing them does not
// rebuild every file that includes ir/Ops.h.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_LISTOPS_TD
#define TFAOT_IR_LISTOPS_TD

include "ir/Base.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tfaot_ListSetItemOp : Tfaot_Op<"ListSetItem",
    [Pure, AllTypesMatch<["list", "output"]>,
     AllElementTypesMatch<["list", "item"]>]> {
  let summary = "a list with row `index` replaced by `item` (TF's "
                "TensorListSetItem and TensorArrayWriteV3)";
  let description = [{
    `list` is [N, element...], `item` one element. The index is clamped into
    [0, N), so no input makes the generated code write out of bounds; the
    importer checks it first (a constant at compile time, one from data at
    run time, which fails Run() with the node named). Lowers to
    tensor.insert_slice, which bufferizes in place when `list` is not used
    afterwards (a loop-carried list), so a write costs one element.
  }];
  let arguments = (ins Tfaot_Tensor:$list, 0DTensorOf<[Tfaot_IndexInt]>:$index,
                   Tfaot_Tensor:$item);
  let results = (outs Tfaot_Tensor:$output);
  let assemblyFormat = [{
    $list `[` $index `]` `,` $item attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TFAOT_IR_LISTOPS_TD
