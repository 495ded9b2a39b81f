//===- CompileReport.h - tfaot compile --report -----------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What the compiler did to a graph, for people: per graph pass, what it
// rewrote and at which TensorFlow nodes (from the passes' remarks, see
// passes/Remarks.h); op counts before and after the graph passes; and the
// memory plan (arena, its lower bound, the naive sum). Text or JSON.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_COMPILEREPORT_H
#define TFAOT_COMPILER_DRIVER_COMPILEREPORT_H

#include "passes/MemoryPlan.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tfaot {

/// A map that iterates in insertion order (std::string keys).
template <typename K, typename V>
using InsertionOrderMap = llvm::MapVector<K, V, std::map<K, unsigned>>;
using OpCounts = InsertionOrderMap<std::string, int64_t>;

struct CompileReport {
  /// One "[pass] what: detail" remark, at TensorFlow node `node`.
  struct Rewrite {
    std::string pass, what, detail, node;
  };
  using Memory = mlir::tfaot::MemoryPlan;

  std::string graph;
  std::string layout;
  bool graphPasses = true;
  std::vector<Rewrite> rewrites;
  /// tfaot op name (without "tfaot.") -> count, Const excluded.
  OpCounts opsImported, opsAfterGraphPasses;
  std::optional<Memory> memory;
  /// How a batch is computed: at once, or in runs over slices of it and
  /// why (--batch_chunk, BatchChunks.h); empty when there is no batch.
  std::string batchChunks;

  /// Parses a remark's message; messages not in the "[pass] what" form are
  /// ignored (returns false).
  bool addRemark(llvm::StringRef message, std::string node);

  void print(llvm::raw_ostream &os) const;
  void printJson(llvm::raw_ostream &os) const;
};

/// Counts the tfaot ops (except Const) in `module`, in order of appearance.
OpCounts countTfaotOps(mlir::ModuleOp module);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_COMPILEREPORT_H
