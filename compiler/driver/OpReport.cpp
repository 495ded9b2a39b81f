//===- OpReport.cpp - tfaot ops: which ops a graph uses ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/driver/OpReport.h"

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/OpImporters.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <vector>

using namespace tfaot;

OpSummary tfaot::summarizeOps(const tensorflow::GraphDef &graph) {
  OpSummary summary;
  summary.nodes = graph.node_size();
  summary.functions = graph.library().function_size();
  llvm::StringMap<OpCount> counts;
  for (const tensorflow::NodeDef &node : graph.node())
    ++counts[node.op()].inGraph;
  for (const tensorflow::FunctionDef &fn : graph.library().function())
    for (const tensorflow::NodeDef &node : fn.node_def()) {
      ++counts[node.op()].inFunctions;
      ++summary.functionNodes;
    }
  for (auto &entry : counts) {
    OpCount row = entry.second;
    row.op = entry.getKey().str();
    row.supported = lookupOpSpec(row.op) != nullptr;
    if (!row.supported)
      summary.unsupported.push_back(row.op);
    summary.ops.push_back(std::move(row));
  }
  // Most used first; ties by name, so the output is stable.
  std::sort(summary.ops.begin(), summary.ops.end(),
            [](const OpCount &a, const OpCount &b) {
              int64_t na = a.inGraph + a.inFunctions,
                      nb = b.inGraph + b.inFunctions;
              return na != nb ? na > nb : a.op < b.op;
            });
  std::sort(summary.unsupported.begin(), summary.unsupported.end());
  return summary;
}

void tfaot::printOpTable(const OpSummary &summary, llvm::raw_ostream &out) {
  out << llvm::format("%8s  %-32s %s\n", "count", "op", "tfaot");
  for (const OpCount &row : summary.ops) {
    std::string count = std::to_string(row.inGraph);
    if (row.inFunctions)
      count += "+" + std::to_string(row.inFunctions);
    out << llvm::format("%8s  %-32s %s\n", count.c_str(), row.op.c_str(),
                        row.supported ? "yes" : "NO");
  }
  if (!summary.unsupported.empty()) {
    out << "unsupported:";
    for (const std::string &op : summary.unsupported)
      out << " " << op;
    out << "\n(only the ops that the fetches need are compiled: 'tfaot compile' "
           "says which of these stand in the way)\n";
  }
}

llvm::json::Array tfaot::opsToJson(const OpSummary &summary) {
  llvm::json::Array ops;
  for (const OpCount &row : summary.ops)
    ops.push_back(llvm::json::Object{{"op", row.op},
                                     {"count", row.inGraph},
                                     {"in_functions", row.inFunctions},
                                     {"supported", row.supported}});
  return ops;
}

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
  OpSummary summary = summarizeOps(*graph);
  int exitCode = summary.unsupported.empty() ? 0 : 2;
  if (json) {
    llvm::json::Array missing;
    for (const std::string &op : summary.unsupported)
      missing.push_back(op);
    out << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                      {"graph", graphPath},
                                      {"nodes", summary.nodes},
                                      {"function_nodes", summary.functionNodes},
                                      {"ops", opsToJson(summary)},
                                      {"unsupported", std::move(missing)}}))
        << "\n";
    return exitCode;
  }

  out << graphPath << ": " << summary.nodes << " nodes";
  if (summary.functionNodes)
    out << " (+" << summary.functionNodes << " in " << summary.functions
        << " functions)";
  out << ", " << summary.ops.size() << " ops, " << summary.unsupported.size()
      << " unsupported\n";
  printOpTable(summary, out);
  return exitCode;
}
