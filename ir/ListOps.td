//===- ListOps.td - ops of TF's lists and TensorArrays ------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The ops TensorList and TensorArrayV3 need beyond the existing ones
// (compiler/frontend/ImportListOps.cpp and ImportRunTimeLengthLists.cpp).
// A list is a tensor [max_elements, element...]; reads are GatherV2. They
// have their own tablegen target (ListOps.h.inc / ListOps.cpp.inc),
// registered beside Ops.td's in TfaotDialect::initialize(), so that
// changing them does not rebuild every file that includes ir/Ops.h.
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

def Tfaot_CheckListOp : Tfaot_Op<"CheckList", [Pure]> {
  let summary = "fails Run() with TF's message when an operation on a list "
                "of run-time length is out of range; returns `value`";
  let description = [{
    For the lists whose length is known only at run time (EmptyTensorList
    with max_num_elements >= 0: PushBack and PopBack change the length;
    compiler/frontend/ImportRunTimeLengthLists.cpp). `kind` is a
    tfaot::IndexCheckKind of runtime/include/tfaot/runtime/check_kinds.h:
    push (`value`, the length, must be below `bound`, max_num_elements),
    pop (`value`, the length, must be positive), access and modify (`value`,
    an index, must be in [0, `length`)), stack (`value`, the length, must
    equal `bound`, TensorListStack's num_elements), written (a read of an
    inner list of a list of lists: `length`, the row's written flag, must
    be nonzero), and, for an ArgMax
    along a dim whose size is a run-time count (ImportCountOps.cpp), the
    non-empty-axis check (`value` and `length` the count, which must be
    positive; `bound` the ArgMax's dimension as the graph gives it and
    `shape` the input's, -1 at the counted dim, for TF's message). Lowered
    to a call of
    tfaot_rt_check_indices (none with --runtime_checks=none). The importer
    builds every use on the result, so the check stays as long as what it
    guards; what it guards clamps its indices anyway, so a failed check
    never makes the generated code read or write out of bounds.
  }];
  let arguments = (ins 0DTensorOf<[Tfaot_IndexInt]>:$value,
                   0DTensorOf<[I32]>:$length, I64Attr:$kind, I64Attr:$bound,
                   OptionalAttr<DenseI64ArrayAttr>:$shape);
  let results = (outs 0DTensorOf<[Tfaot_IndexInt]>:$checked);
  let assemblyFormat = [{
    $value `,` $length attr-dict `:` functional-type(operands, results)
  }];
}

#endif // TFAOT_IR_LISTOPS_TD
