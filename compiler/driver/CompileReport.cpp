//===- CompileReport.cpp - tfaot compile --report -------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/driver/CompileReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

using namespace tfaot;

bool CompileReport::addRemark(llvm::StringRef message, std::string node) {
  static const llvm::Regex form("^\\[([A-Za-z0-9_-]+)\\] ([^:]+)(: (.*))?$");
  llvm::SmallVector<llvm::StringRef, 5> groups;
  if (!form.match(message, &groups))
    return false;
  rewrites.push_back({groups[1].str(), groups[2].str(), groups[4].str(),
                      std::move(node)});
  return true;
}

OpCounts tfaot::countTfaotOps(mlir::ModuleOp module) {
  OpCounts counts;
  module.walk([&](mlir::Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "tfaot" &&
        op->getName().stripDialect() != "Const")
      ++counts[op->getName().stripDialect().str()];
  });
  return counts;
}

namespace {
/// Rewrites grouped by (pass, what), in order of first appearance.
using Groups = InsertionOrderMap<std::pair<std::string, std::string>,
                                 std::vector<const CompileReport::Rewrite *>>;
} // namespace

/// Passes whose remarks say how each layer runs, listed one line a node
/// with the detail (which GPU kernel and tile each depthwise convolution
/// gets, or why it stays direct); the others' details are in the JSON.
static bool listedByLayer(llvm::StringRef pass) {
  return pass == "tfaot-gpu-tiled-depthwise" ||
         pass == "tfaot-gpu-direct-depthwise";
}

static bool anyDetail(const std::vector<const CompileReport::Rewrite *> &list) {
  return llvm::any_of(list, [](const CompileReport::Rewrite *rewrite) {
    return !rewrite->detail.empty();
  });
}

static Groups groupRewrites(const std::vector<CompileReport::Rewrite> &all) {
  Groups groups;
  for (const CompileReport::Rewrite &rewrite : all)
    groups[{rewrite.pass, rewrite.what}].push_back(&rewrite);
  return groups;
}

static int64_t total(const OpCounts &counts) {
  int64_t sum = 0;
  for (const auto &entry : counts)
    sum += entry.second;
  return sum;
}

void CompileReport::print(llvm::raw_ostream &os) const {
  os << "tfaot compile report for " << graph << "\n\n";
  if (!graphPasses) {
    os << "Graph passes: off (--graph_passes=false)\n";
  } else {
    os << "Rewrites, by pass (layout " << layout << "):\n";
    Groups groups = groupRewrites(rewrites);
    if (groups.empty())
      os << "  nothing to rewrite\n";
    std::string lastPass;
    for (const auto &[key, list] : groups) {
      if (key.first != lastPass)
        os << "  " << key.first << "\n";
      lastPass = key.first;
      if (listedByLayer(key.first) && anyDetail(list)) {
        os << llvm::formatv("    {0,5}  {1}:\n", list.size(), key.second);
        for (const Rewrite *rewrite : list)
          os << "             '" << rewrite->node << "': " << rewrite->detail
             << "\n";
        continue;
      }
      // A few node names show where; --report_json lists them all.
      constexpr size_t kShown = 3;
      std::vector<std::string> names;
      for (size_t i = 0; i < list.size() && i < kShown; ++i)
        names.push_back("'" + list[i]->node + "'");
      std::string where = llvm::join(names, ", ");
      if (list.size() > kShown)
        where += llvm::formatv(", ... {0} more", list.size() - kShown).str();
      os << llvm::formatv("    {0,5}  {1}  ({2})\n", list.size(), key.second,
                          where);
    }
  }
  os << "\nOps (without constants): " << total(opsImported) << " imported";
  if (graphPasses)
    os << ", " << total(opsAfterGraphPasses) << " after the graph passes";
  os << "\n";
  for (const auto &[op, count] : opsImported) {
    auto after = opsAfterGraphPasses.find(op);
    int64_t now = after == opsAfterGraphPasses.end() ? 0 : after->second;
    if (graphPasses && now != count)
      os << llvm::formatv("  {0,-24} {1,5} -> {2}\n", op, count, now);
  }
  for (const auto &[op, count] : opsAfterGraphPasses)
    if (!opsImported.count(op))
      os << llvm::formatv("  {0,-24} {1,5} -> {2}\n", op, 0, count);
  if (!batchChunks.empty())
    os << "\nBatch: " << batchChunks << "\n";
  if (memory) {
    os << "\nMemory for temporaries (one arena, allocated once):\n";
    os << llvm::formatv("  arena        {0,12} bytes\n", memory->arenaBytes);
    os << llvm::formatv("  lower bound  {0,12} bytes (most bytes live at "
                        "once)\n",
                        memory->peakLiveBytes);
    os << llvm::formatv("  naive sum    {0,12} bytes (one buffer each)\n",
                        memory->naiveTempBytes);
    if (memory->peakLiveBytes)
      os << llvm::formatv("  arena / lower bound = {0:F3}\n",
                          double(memory->arenaBytes) / memory->peakLiveBytes);
    if (memory->heapTempBytes)
      os << llvm::formatv("  heap temporaries {0} bytes (not planned)\n",
                          memory->heapTempBytes);
  }
}

static llvm::json::Object countsToJson(const OpCounts &counts) {
  llvm::json::Object object;
  for (const auto &[op, count] : counts)
    object[op] = count;
  return object;
}

void CompileReport::printJson(llvm::raw_ostream &os) const {
  llvm::json::Array passes;
  for (const auto &[key, list] : groupRewrites(rewrites)) {
    llvm::json::Array nodes;
    for (const Rewrite *rewrite : list)
      nodes.push_back(llvm::json::Object{{"node", rewrite->node},
                                         {"detail", rewrite->detail}});
    passes.push_back(llvm::json::Object{{"pass", key.first},
                                        {"what", key.second},
                                        {"count", int64_t(list.size())},
                                        {"nodes", std::move(nodes)}});
  }
  llvm::json::Object root{{"graph", graph},
                          {"graph_passes", graphPasses},
                          {"layout", layout},
                          {"rewrites", std::move(passes)},
                          {"ops_imported", countsToJson(opsImported)},
                          {"ops_after_graph_passes",
                           countsToJson(opsAfterGraphPasses)}};
  if (!batchChunks.empty())
    root["batch_chunks"] = batchChunks;
  if (memory)
    root["memory"] = llvm::json::Object{
        {"arena_bytes", int64_t(memory->arenaBytes)},
        {"peak_live_bytes", int64_t(memory->peakLiveBytes)},
        {"naive_temp_bytes", int64_t(memory->naiveTempBytes)},
        {"heap_temp_bytes", int64_t(memory->heapTempBytes)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
