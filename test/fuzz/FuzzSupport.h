//===- FuzzSupport.h - What the tfaot fuzz targets share --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The fuzz targets feed bytes to the same loaders `tfaot compile --graph`
// uses and import the result up to a verified tfaot-dialect module. They
// check two things beyond "no crash, leak or UB": a failure always comes
// with an error (never a silent one), and the context stays quiet, since
// printing every rejected input would dominate the run time.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_FUZZ_FUZZSUPPORT_H
#define TFAOT_TEST_FUZZ_FUZZSUPPORT_H

#include "compiler/frontend/GraphImporter.h"
#include "compiler/frontend/OpImporters.h"
#include "ir/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <google/protobuf/stubs/logging.h>

#include <cstdio>
#include <cstdlib>

namespace tfaot::fuzz {

/// Where diagnostics go: nowhere, unless TFAOT_FUZZ_VERBOSE is set (to see
/// why a reproducer or seed is rejected when replaying it).
inline llvm::raw_ostream &diagStream() {
  static bool verbose = std::getenv("TFAOT_FUZZ_VERBOSE") != nullptr;
  return verbose ? llvm::errs() : llvm::nulls();
}

/// Silences protobuf's own logging (it prints an ERROR line for every
/// string field holding invalid UTF-8, i.e. for most mutated .pb inputs);
/// the loaders report parse failures through GraphDiagnostics anyway.
inline void quietLibraries() {
  static bool once = (google::protobuf::SetLogHandler(nullptr), true);
  (void)once;
}

/// Aborts (a finding for libFuzzer) when a stage failed without saying why.
inline void requireError(bool failed, const GraphDiagnostics &diags,
                         const char *stage) {
  if (failed && !diags.hasErrors()) {
    std::fprintf(stderr, "tfaot fuzz: %s failed without an error\n", stage);
    std::abort();
  }
}

/// A config that reaches as far into the importer as the graph allows when
/// the input brings none: every Placeholder fed with its declared shape (an
/// unknown dimension becomes 1, as a user's --feed would fix it; an unknown
/// shape becomes [1]), and every
/// node of a supported op that no data edge consumes fetched. Both capped, so
/// a large graph does not turn into thousands of arguments.
inline tensorflow::tf2xla::Config
deriveConfig(const tensorflow::GraphDef &graph) {
  constexpr int kMaxFeeds = 16, kMaxFetches = 16;
  tensorflow::tf2xla::Config config;
  llvm::StringSet<> consumed;
  for (const tensorflow::NodeDef &node : graph.node())
    for (llvm::StringRef input : node.input())
      if (!input.starts_with("^"))
        consumed.insert(input.split(':').first);
  for (const tensorflow::NodeDef &node : graph.node()) {
    if (node.op() != "Placeholder" || config.feed_size() >= kMaxFeeds)
      continue;
    tensorflow::tf2xla::Feed *feed = config.add_feed();
    feed->mutable_id()->set_node_name(node.name());
    auto shape = node.attr().find("shape");
    if (shape == node.attr().end() || shape->second.shape().unknown_rank()) {
      // Any guess beats the importer's "unknown shape" for coverage; a
      // vector of one fits the elementwise graphs that leave shapes out.
      feed->mutable_shape()->add_dim()->set_size(1);
      continue;
    }
    for (const auto &dim : shape->second.shape().dim())
      feed->mutable_shape()->add_dim()->set_size(dim.size() < 0 ? 1
                                                                : dim.size());
  }
  for (const tensorflow::NodeDef &node : graph.node()) {
    if (config.fetch_size() >= kMaxFetches)
      break;
    const OpSpec *spec = lookupOpSpec(node.op());
    if (spec && spec->import && !consumed.contains(node.name()))
      config.add_fetch()->mutable_id()->set_node_name(node.name());
  }
  if (config.fetch().empty() && graph.node_size() > 0)
    config.add_fetch()->mutable_id()->set_node_name(
        graph.node(graph.node_size() - 1).name());
  return config;
}

/// Imports `graph` into a fresh context (so constants of one input do not
/// pile up across millions of them) and checks the outcome is consistent.
inline void importAndVerify(const tensorflow::GraphDef &graph,
                            const tensorflow::tf2xla::Config &config,
                            GraphDiagnostics &diags) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tfaot::TfaotDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  // Anything the importer's own handler does not catch is dropped too.
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  FunctionSignature signature;
  ImportOptions options;
  auto module = importGraph(graph, config, options, &context, diags, signature);
  requireError(!module, diags, "importGraph");
  if (module && (signature.results.empty() ||
                 signature.results.size() != size_t(config.fetch_size()))) {
    std::fprintf(stderr, "tfaot fuzz: import succeeded with %zu results for "
                         "%d fetches\n",
                 signature.results.size(), config.fetch_size());
    std::abort();
  }
}

} // namespace tfaot::fuzz

#endif // TFAOT_TEST_FUZZ_FUZZSUPPORT_H
