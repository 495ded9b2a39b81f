//===- OpReport.h - tfaot ops: which ops a graph uses -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot ops --graph G` reads a graph the way `tfaot compile` does and lists
// its ops with counts, marking those tfaot cannot compile, so a user learns
// what stands between a model and tfaot before writing any flags.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_OPREPORT_H
#define TFAOT_COMPILER_OPREPORT_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tfaot {

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

#endif // TFAOT_COMPILER_OPREPORT_H
