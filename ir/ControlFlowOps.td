//===- ControlFlowOps.td - If, While, Case with regions ----*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// TensorFlow's functional control flow (If/StatelessIf, While/StatelessWhile,
// Case/StatelessCase) as ops with regions. Each region is one block whose
// arguments are the op's inputs, as TF's branch and body functions take
// them as _Arg nodes: the regions are isolated from above, so every graph
// pass sees a region as it sees a function body, and the lowering
// (passes/LowerControlFlowOps.cpp) only has to substitute the operands for
// the block arguments. Results are what the regions' Yield returns. Shapes
// are static like everywhere else: a loop variable whose shape the body
// changes is rejected at import.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_CONTROLFLOWOPS_TD
#define TFAOT_IR_CONTROLFLOWOPS_TD

def Tfaot_IfOp : Tfaot_Op<"If", [IsolatedFromAbove, RecursiveMemoryEffects]> {
  let summary = "runs one of two regions (TF's If and StatelessIf)";
  let description = [{
    `cond` is TF's predicate: a scalar is true when non-zero, a tensor of
    rank 1 or more when it has any element (TF's rule), so only a scalar
    decides at run time. Both regions take `inputs` as block arguments and
    yield the results.
  }];
  let arguments = (ins Tfaot_Tensor:$cond, Variadic<Tfaot_Tensor>:$inputs);
  let results = (outs Variadic<Tfaot_Tensor>:$outputs);
  let regions = (region SizedRegion<1>:$then_branch,
                        SizedRegion<1>:$else_branch);
  let assemblyFormat = [{
    $cond `,` `(` $inputs `)` attr-dict `:` type($cond) `,`
    functional-type($inputs, $outputs) $then_branch $else_branch
  }];
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

def Tfaot_WhileOp : Tfaot_Op<"While", [IsolatedFromAbove,
    RecursiveMemoryEffects, AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "a loop over loop-carried tensors (TF's While, StatelessWhile)";
  let description = [{
    `cond` takes the loop variables and yields one predicate tensor (TF's
    truth rule, as for If); while it is true, `body` takes them and yields
    their next values, of the same types. The results are the loop
    variables when `cond` first yields false.
  }];
  let arguments = (ins Variadic<Tfaot_Tensor>:$inputs);
  let results = (outs Variadic<Tfaot_Tensor>:$outputs);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` type($inputs) $cond $body
  }];
  let hasVerifier = 1;
}

def Tfaot_CaseOp : Tfaot_Op<"Case", [IsolatedFromAbove,
                                    RecursiveMemoryEffects]> {
  let summary = "runs the region `branch_index` picks (TF's Case)";
  let description = [{
    `branch_index` is an int32 scalar; an index outside [0, N) runs the last
    region, as TF's Case does. Every region takes `inputs` and yields the
    results.
  }];
  let arguments = (ins 0DTensorOf<[I32]>:$branch_index,
                   Variadic<Tfaot_Tensor>:$inputs);
  let results = (outs Variadic<Tfaot_Tensor>:$outputs);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let assemblyFormat = [{
    $branch_index `,` `(` $inputs `)` attr-dict `:` type($branch_index) `,`
    functional-type($inputs, $outputs) $branches
  }];
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

def Tfaot_YieldOp : Tfaot_Op<"Yield", [Pure, Terminator,
    ParentOneOf<["IfOp", "WhileOp", "CaseOp"]>]> {
  let summary = "a region's results (TF's _Retval nodes of a branch or body)";
  let arguments = (ins Variadic<Tfaot_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // TFAOT_IR_CONTROLFLOWOPS_TD
