//===- ImportDataflowControlFlow.cpp - TF1 conds and loops to regions -----===//
// SPDX-License-Identifier: Apache-2.0
//
// TF1 graphs express control flow as dataflow: a Switch forwards its data
// to output 1 or 0 as its predicate is true or false, a Merge forwards
// whichever input arrives, and a loop frame is entered by Enter nodes
// (is_constant ones carry invariants), goes round through Merge -> Switch
// (on LoopCond) -> body -> NextIteration -> Merge, and is left by Exit.
// As TensorFlow's functionalization does, the structure is recovered in
// two steps:
//   1. contexts: every node is given the scope it runs in (the top level, a
//      loop frame, or branch k of the cond on a predicate), propagated from
//      its inputs, control inputs included (a branch's constants hang on
//      its pivot by a control edge): a Switch's output k opens branch k, a
//      Merge closes its branches, Enter opens its frame and Exit leaves it.
//      Contradictions (a Merge of unrelated branches, an Exit whose input is
//      in no frame, ...) are reported naming the node.
//   2. building: each scope's nodes are built in dependency order, a loop
//      frame as one tfaot.While (its cond region computes LoopCond's input,
//      its body the NextIteration inputs) and each cond Merge as one
//      tfaot.If (or tfaot.Case for _SwitchN) whose branches compute what
//      its inputs need. Regions are isolated from above: a value from
//      outside becomes an extra operand and block argument (a loop
//      invariant), a constant is copied in so ops that need constant
//      operands still see one.
// A predicate known at import picks its branch in place, as for the
// functional If. A loop whose body changes a variable's shape cannot be a
// While (shapes are static); when its trip count is decided at import it is
// unrolled instead.
//
// A cond Merge becomes its own If: the Merges of one tf.cond with several
// outputs each get an If with a copy of their branches (correct; larger
// than one If with several results).
//
// This file holds the entry points; DataflowStructurer.h lists the files
// that hold the steps.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportDataflowControlFlow.h"

#include "compiler/frontend/DataflowStructurer.h"
#include "compiler/frontend/GraphLoader.h"

using namespace mlir;
using namespace ::tfaot;
using namespace ::tfaot::dataflow;

bool(::tfaot::isDataflowControlFlowOp)(llvm::StringRef op) {
  return op == "Switch" || op == "_SwitchN" || op == "Merge" ||
         op == "Enter" || op == "Exit" || op == "NextIteration" ||
         op == "LoopCond";
}

bool(::tfaot::isPivotSource)(
    const NodeDef &source,
    const std::function<const NodeDef *(llvm::StringRef)> &lookup) {
  if (isSwitch(source))
    return true;
  if (source.op() != "Identity" || source.input_size() == 0 ||
      llvm::StringRef(source.input(0)).starts_with("^"))
    return false;
  const NodeDef *input = lookup(nodeOfInput(source.input(0)));
  return input && isSwitch(*input);
}

LogicalResult Structurer::run(std::map<std::string, Value> &values,
                              Block *entry) {
  context_ = entry->getParentOp()->getContext();
  for (auto [i, n] : llvm::enumerate(order_))
    position_[n] = i;
  if (failed(assignScopes()) || failed(checkLoops()))
    return failure();
  layers_.push_back(Layer(entry, nullptr, values));
  if (failed(buildScope(root_, order_)))
    return failure();
  values = layers_.front().values;
  return success();
}

LogicalResult(::tfaot::importDataflowGraph)(
    ArrayRef<const NodeDef *> order, std::map<std::string, Value> &values,
    Block *entry, const DataflowImportHooks &hooks, GraphDiagnostics &diags) {
  return Structurer(order, hooks, diags).run(values, entry);
}
