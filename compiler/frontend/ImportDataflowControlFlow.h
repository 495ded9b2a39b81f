//===- ImportDataflowControlFlow.h - Switch/Merge, Enter/Exit ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// TF1 dataflow control flow (Switch, Merge, Enter, Exit, NextIteration,
// LoopCond) structured into tfaot.If / tfaot.Case / tfaot.While while the
// graph importer builds a graph's nodes.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_IMPORTDATAFLOWCONTROLFLOW_H
#define TFAOT_COMPILER_FRONTEND_IMPORTDATAFLOWCONTROLFLOW_H

#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/graph.pb.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tfaot {

/// Switch, _SwitchN, Merge, Enter, Exit, NextIteration, LoopCond.
bool isDataflowControlFlowOp(llvm::StringRef op);

/// Whether the import must follow control input `source` (a "^node" input):
/// a cond's pivot (an Identity of a Switch output, or the Switch itself)
/// places a node without data inputs (a branch's constant) in its branch,
/// and leads to the predicate a branch without data inputs still needs.
bool isPivotSource(const tensorflow::NodeDef &source,
                   const std::function<const tensorflow::NodeDef *(
                       llvm::StringRef)> &lookup);

/// What the structuring needs from the graph importer.
struct DataflowImportHooks {
  /// The node named `name`, or null.
  std::function<const tensorflow::NodeDef *(llvm::StringRef)> lookup;
  /// Imports one ordinary node from its data operands at the end of
  /// `block`; returns its outputs from 0, or failure after an error.
  std::function<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(
      const tensorflow::NodeDef &, llvm::ArrayRef<mlir::Value>,
      mlir::Block *)>
      importNode;
};

/// Builds `order` (the nodes the fetches need, topologically sorted with
/// NextIteration's back edges left out) into `entry`, turning each cond
/// (the Merge of Switch outputs on one predicate) into tfaot.If or
/// tfaot.Case and each loop frame (Enter ... Exit) into tfaot.While.
/// `values` ("node:index") holds the fed values on entry and the values of
/// the top-level nodes on return. Errors name the node at fault.
mlir::LogicalResult
importDataflowGraph(llvm::ArrayRef<const tensorflow::NodeDef *> order,
                    std::map<std::string, mlir::Value> &values,
                    mlir::Block *entry, const DataflowImportHooks &hooks,
                    GraphDiagnostics &diags);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_IMPORTDATAFLOWCONTROLFLOW_H
