//===- OpImporters.h - One TensorFlow node to tfaot ops ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The per-op half of the importer: for each TF op tfaot compiles, a function
// that infers the result type and builds the tfaot op(s). GraphImporter does
// the graph-level work (checking, pruning, ordering) and calls these.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_OPIMPORTERS_H
#define TFAOT_COMPILER_FRONTEND_OPIMPORTERS_H

#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/graph.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <string>
#include <vector>

namespace tfaot {

struct ImportOptions;

/// What an op importer gets: the node, its data inputs already imported, a
/// builder positioned where the ops go, and the error sink.
class NodeImportContext {
public:
  NodeImportContext(const tensorflow::NodeDef &node,
                    llvm::MutableArrayRef<mlir::Value> operands,
                    mlir::OpBuilder &builder, GraphDiagnostics &diags);

  const tensorflow::NodeDef &node;
  /// Mutable so that an operand the op needs as a constant, once evaluated
  /// (demandConstant), is replaced by that constant for the op built.
  llvm::MutableArrayRef<mlir::Value> operands;
  mlir::OpBuilder &builder;
  mlir::Location loc;  ///< NameLoc of the node: errors name it.
  /// The command line's import options (--jpeg_size), or null.
  const ImportOptions *options = nullptr;
  /// The graph's function library: the branches and bodies of If, While and
  /// Case (ImportControlFlow.cpp); null where there is none.
  const tensorflow::FunctionDefLibrary *library = nullptr;
  /// Where errors go (for importers that import whole subgraphs).
  GraphDiagnostics &diagnostics() const { return diags_; }

  /// Reports an error about this node; always returns failure().
  mlir::LogicalResult error(const llvm::Twine &message) const;
  /// The TF attribute `name`, or null.
  const tensorflow::AttrValue *attr(llvm::StringRef name) const;
  /// Operand `i`'s ranked tensor type.
  mlir::RankedTensorType typeOf(unsigned i) const;

  /// Outputs 1.. of a node with several outputs (Split, Unpack); the
  /// importer returns output 0 and appends the others here.
  llvm::SmallVector<mlir::Value> extraOutputs;

private:
  GraphDiagnostics &diags_;
};

/// The most elements a tensor of the graph may have. Shapes come from the
/// file (placeholders, constants' shapes, shape operands), so without a
/// bound their element counts overflow int64 and every later size
/// computation with them; 2^40 is far beyond what an inference graph holds
/// and well inside int64 even in bytes.
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 40;

/// Builds the tfaot op(s) for one node and returns the node's output 0.
using OpImporter = mlir::FailureOr<mlir::Value> (*)(NodeImportContext &);

struct OpSpec {
  OpImporter import;  ///< Null for Placeholder (feeds become arguments).
  int numInputs;      ///< Data inputs; -1 for "N" (variadic) ops.
  /// Attribute naming the element type of the typed inputs ("T", "SrcT");
  /// empty if none. Checked against the operand types before import.
  const char *typeAttr;
  /// How many leading inputs `typeAttr` describes; -1 for all of them.
  int typedInputs;
};

/// The spec of TF op `op`, or null if tfaot cannot compile it.
const OpSpec *lookupOpSpec(llvm::StringRef op);

/// Ops the importer can turn into tfaot ops, sorted.
std::vector<std::string> supportedOps();

/// Number of outputs of `node` if its op is known (for edge checks).
std::optional<int64_t> numOutputsOf(const tensorflow::NodeDef &node);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_OPIMPORTERS_H
