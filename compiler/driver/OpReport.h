//===- OpReport.h - tfaot ops: which ops a graph uses -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot ops --graph G` reads a graph the way `tfaot compile` does and lists
// its ops with counts, marking those tfaot cannot compile, so a user learns
// what stands between a model and tfaot before writing any flags.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_OPREPORT_H
#define TFAOT_COMPILER_DRIVER_OPREPORT_H

#include "compiler/proto/graph.pb.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfaot {

/// How often one op occurs in a graph, and whether tfaot compiles it.
struct OpCount {
  std::string op;
  int64_t inGraph = 0;      ///< Nodes of the main graph.
  int64_t inFunctions = 0;  ///< Nodes inside the function library.
  bool supported = false;
};

/// A graph's ops, most used first (ties by name), and the unsupported ones
/// sorted by name. `tfaot ops` prints it; `tfaot show` prints it too.
struct OpSummary {
  int64_t nodes = 0, functionNodes = 0, functions = 0;
  std::vector<OpCount> ops;
  std::vector<std::string> unsupported;
};

OpSummary summarizeOps(const tensorflow::GraphDef &graph);

/// The table "count  op  tfaot" with one row per op (a count "N+M" when M
/// are in functions), then the unsupported ones if any.
void printOpTable(const OpSummary &summary, llvm::raw_ostream &out);

/// [{"op": ..., "count": ..., "in_functions": ..., "supported": b}, ...]
llvm::json::Array opsToJson(const OpSummary &summary);

/// Prints the op table of `graphPath` (GraphDef .pb/.pbtxt, TF.js
/// model.json, or a SavedModel directory: its signature `signature`, frozen
/// and inlined as `tfaot compile` sees it) to `out`, errors to `errs`. Returns the exit code: 0 when
/// tfaot supports every op, 2 when some op is unsupported, 1 when the graph
/// cannot be read. With `json`, the same as one JSON object:
///   {"graph": ..., "nodes": N, "function_nodes": M,
///    "ops": [{"op": ..., "count": ..., "in_functions": ..., "supported": b}],
///    "unsupported": [...]}
int reportGraphOps(const std::string &graphPath, const std::string &signature,
                   bool json,
                   llvm::raw_ostream &out, llvm::raw_ostream &errs);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_OPREPORT_H
