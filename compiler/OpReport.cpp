//===- OpReport.cpp - tfaot ops: which ops a graph uses ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/OpReport.h"

#include "compiler/Diagnostics.h"
#include "compiler/GraphLoader.h"
#include "compiler/OpImporters.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <vector>

using namespace tfaot;

namespace {
struct OpCount {
  std::string op;
  int64_t inGraph = 0;      ///< Nodes of the main graph.
  int64_t inFunctions = 0;  ///< Nodes inside the function library.
};
} // namespace

int tfaot::reportGraphOps(const std::string &graphPath,
                          const std::string &signature, bool json,
                          llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  GraphDiagnostics diags(graphPath, errs);
  if (graphPath.empty()) {
    diags.error("no graph: give --graph model.pb");
    return 1;
  }
  tensorflow::tf2xla::Config noConfig;
  auto graph = loadModel(graphPath, signature, noConfig, diags, nullptr);
  if (!graph)
    return 1;

  llvm::StringMap<OpCount> counts;
  for (const tensorflow::NodeDef &node : graph->node())
    ++counts[node.op()].inGraph;
  int64_t functionNodes = 0;
  for (const tensorflow::FunctionDef &fn : graph->library().function())
    for (const tensorflow::NodeDef &node : fn.node_def()) {
      ++counts[node.op()].inFunctions;
      ++functionNodes;
    }

  std::vector<OpCount> rows;
  for (auto &entry : counts) {
    entry.second.op = entry.getKey().str();
    rows.push_back(entry.second);
  }
  // Most used first; ties by name, so the output is stable.
  std::sort(rows.begin(), rows.end(), [](const OpCount &a, const OpCount &b) {
    int64_t na = a.inGraph + a.inFunctions, nb = b.inGraph + b.inFunctions;
    return na != nb ? na > nb : a.op < b.op;
  });
  std::vector<std::string> unsupported;
  for (const OpCount &row : rows)
    if (!lookupOpSpec(row.op))
      unsupported.push_back(row.op);
  std::sort(unsupported.begin(), unsupported.end());

  int exitCode = unsupported.empty() ? 0 : 2;
  if (json) {
    llvm::json::Array ops;
    for (const OpCount &row : rows)
      ops.push_back(llvm::json::Object{{"op", row.op},
                                       {"count", row.inGraph},
                                       {"in_functions", row.inFunctions},
                                       {"supported", bool(lookupOpSpec(row.op))}});
    llvm::json::Array missing;
    for (const std::string &op : unsupported)
      missing.push_back(op);
    out << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                      {"graph", graphPath},
                                      {"nodes", graph->node_size()},
                                      {"function_nodes", functionNodes},
                                      {"ops", std::move(ops)},
                                      {"unsupported", std::move(missing)}}))
        << "\n";
    return exitCode;
  }

  out << graphPath << ": " << graph->node_size() << " nodes";
  if (functionNodes)
    out << " (+" << functionNodes << " in " << graph->library().function_size()
        << " functions)";
  out << ", " << rows.size() << " ops, " << unsupported.size()
      << " unsupported\n";
  out << llvm::format("%8s  %-32s %s\n", "count", "op", "tfaot");
  for (const OpCount &row : rows) {
    std::string count = std::to_string(row.inGraph);
    if (row.inFunctions)
      count += "+" + std::to_string(row.inFunctions);
    out << llvm::format("%8s  %-32s %s\n", count.c_str(), row.op.c_str(),
                        lookupOpSpec(row.op) ? "yes" : "NO");
  }
  if (!unsupported.empty()) {
    out << "unsupported:";
    for (const std::string &op : unsupported)
      out << " " << op;
    out << "\n(only the ops that the fetches need are compiled: 'tfaot compile' "
           "says which of these stand in the way)\n";
  }
  return exitCode;
}
