//===- FunctionInliner.h - Inline function-library calls --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// TF2 SavedModels keep the whole model in the function library: the graph
// holds placeholders, variable handles and a StatefulPartitionedCall of the
// signature's function. The importer compiles plain graphs, so every call
// (PartitionedCall, StatefulPartitionedCall, or a node whose op is a library
// function) is replaced by the function's body, renamed under the call's
// name ("call/body_node"), until no call is left.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_FUNCTIONINLINER_H
#define TFAOT_COMPILER_FRONTEND_FUNCTIONINLINER_H

#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/graph.pb.h"
#include "compiler/proto/saved_model.pb.h"

#include <map>
#include <string>

namespace tfaot {

/// Where the outputs of inlined calls went: "call:k" -> the body tensor
/// ("call/node:i") that now computes it.
class InlinedOutputs {
public:
  /// `tensor` ("node", "node:k") with inlined call outputs replaced by the
  /// tensors that compute them; anything else is returned unchanged.
  std::string resolve(llvm::StringRef tensor) const;

  std::map<std::string, std::string> aliases;
};

/// Inlines every function call in `graph` (nested calls too). `opDefs` (a
/// meta graph's stripped_op_list; may be null) names the outputs of the ops
/// used inside functions, which body references use ("node:output_arg:i");
/// a small built-in table and the importer's output counts cover the rest.
/// Consumers of call outputs are rewired to the inlined tensors, and
/// `outputs` says where each call output went (for signatures and fetches).
/// Errors name the function, the node and its op; returns false after one.
bool inlineFunctionCalls(tensorflow::GraphDef &graph,
                         const tensorflow::OpList *opDefs,
                         GraphDiagnostics &diags, InlinedOutputs &outputs);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_FUNCTIONINLINER_H
