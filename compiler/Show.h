//===- Show.h - tfaot show: what a graph takes and gives --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot show --graph G` is the first command to run on a new model: it
// says what to call the inputs and outputs (signature keys, tensor names,
// node names), their dtypes and shapes (-1 where unknown), the SavedModel's
// tags and signatures, which ops tfaot compiles (OpReport's table), and
// the --feed/--fetch flags that compile it, checked by importing the graph
// with them (which also gives the outputs' dtypes and shapes).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_SHOW_H
#define TFAOT_COMPILER_SHOW_H

#include "compiler/driver/OpReport.h"
#include "compiler/proto/graph.pb.h"
#include "compiler/proto/types.pb.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tfaot {

/// One input or output as a user names it.
struct ShownTensor {
  std::string name;  ///< The signature key, else the node (the header's name).
  std::string tensor;  ///< "node:index", as the model declares it.
  std::string node;    ///< What --feed/--fetch take.
  int64_t index = 0;
  std::string op;      ///< Outputs: the op of the node, when known.
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  std::optional<std::vector<int64_t>> shape;  ///< Unset: unknown rank.
};

/// A SavedModel signature in the list of all of them.
struct ShownSignature {
  std::string name;
  bool isDefault = false;
  std::vector<std::string> inputs, outputs;  ///< Keys, sorted.
};

/// Everything `tfaot show` prints.
struct ShowReport {
  std::string graph;
  std::string format;      ///< "GraphDef", "TF.js graph model", "SavedModel".
  std::string ioSource;    ///< Where inputs and outputs come from.
  std::vector<std::string> tags;           ///< SavedModel: the meta graph's.
  std::vector<ShownSignature> signatures;  ///< SavedModel: all of them.
  std::string signature;                   ///< The one shown.
  std::vector<ShownTensor> inputs, outputs;
  /// Outputs' dtype and shape come from importing with `flags`; when that
  /// failed, the first error says why.
  bool imported = false;
  std::string importError;
  OpSummary ops;
  std::vector<std::string> flags;  ///< "--feed x:1,784:float32", ...
  std::vector<std::string> notes;  ///< About the flags.
};

/// A plain GraphDef's likely outputs: the nodes no other node reads, less
/// those that exist only for their effect or hold values (NoOp, Const,
/// Assign, SaveV2, ...). `tfaot show` suggests them as --fetch flags and
/// `tfaot run` fetches them when given none.
std::vector<ShownTensor> unreadOutputs(const tensorflow::GraphDef &graph);

/// Builds the report of `graphPath` (`signature`: a SavedModel's, empty for
/// the default); false after printing "<file>: error: ..." to `errs`.
bool buildShowReport(const std::string &graphPath, const std::string &signature,
                     ShowReport &report, llvm::raw_ostream &errs);

/// `tfaot show`: prints the report as text or one JSON object. Returns the
/// exit code: 0, or 1 when the graph cannot be read.
int showGraph(const std::string &graphPath, const std::string &signature,
              bool json, llvm::raw_ostream &out, llvm::raw_ostream &errs);

} // namespace tfaot

#endif // TFAOT_COMPILER_SHOW_H
