//===- GraphImporter.h - GraphDef to the tfaot dialect ----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Checks a GraphDef (names, edges, the function library), prunes it to what
// the fetches need, and builds one func.func of tfaot ops whose arguments
// are the feeds and whose results are the fetches.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_GRAPHIMPORTER_H
#define TFAOT_COMPILER_FRONTEND_GRAPHIMPORTER_H

#include "compiler/frontend/FrozenFeeds.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/graph.pb.h"
#include "compiler/proto/tf2xla.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace tfaot {

/// One argument or result of the compiled function, as the header shows it.
struct TensorSignature {
  std::string name;  ///< Accessor name: the config's name, else the node's.
  std::string node;  ///< Graph node it binds to.
  int64_t outputIndex = 0;
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  std::vector<int64_t> shape;
  /// A result whose size depends on data: `shape` is its upper bound and
  /// the run writes the actual dims (docs/dynamic-shapes.md).
  bool bounded = false;
};

struct FunctionSignature {
  std::vector<TensorSignature> args;
  std::vector<TensorSignature> results;
};

struct ImportOptions {
  /// Name of the generated func.func (and of the object's entry symbol).
  std::string functionName = "entry";
  /// --jpeg_size: [height, width] of every image DecodeJpeg decodes (after
  /// its `ratio`), or empty.
  std::vector<int64_t> jpegSize;
  /// --feed_value: placeholders that become constants (FrozenFeeds.h).
  std::vector<FrozenFeed> frozenFeeds;
};

/// Imports `graph`. Returns null after reporting every problem found to
/// `diags`; on success fills `signature`.
mlir::OwningOpRef<mlir::ModuleOp>
importGraph(const tensorflow::GraphDef &graph,
            const tensorflow::tf2xla::Config &config,
            const ImportOptions &options, mlir::MLIRContext *ctx,
            GraphDiagnostics &diags, FunctionSignature &signature);

/// Imports the nodes of `graph` that `fetches` ("node" or "node:i") need,
/// at `builder`'s insertion point, with node `argNodes[i]` standing for `args[i]`; returns the
/// fetched values. Branches and loop bodies (ImportControlFlow.cpp) are
/// imported this way, nested control flow included.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importSubgraph(const tensorflow::GraphDef &graph,
               llvm::ArrayRef<std::string> argNodes, mlir::ValueRange args,
               llvm::ArrayRef<std::string> fetches,
               mlir::OpBuilder &builder, const ImportOptions &options, GraphDiagnostics &diags);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_GRAPHIMPORTER_H
