//===- GraphLoader.h - Read GraphDefs and tf2xla configs --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Reads binary (.pb) and text (.pbtxt) GraphDefs, tfcompile's tf2xla.Config
// text files, and the --feed / --fetch command-line forms of the same
// information.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_GRAPHLOADER_H
#define TFAOT_COMPILER_FRONTEND_GRAPHLOADER_H

#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/graph.pb.h"
#include "compiler/proto/tf2xla.pb.h"

#include <optional>
#include <string>
#include <vector>

namespace tfaot {

/// Loads a GraphDef. Text format is chosen by extension (.pbtxt, .txt,
/// .prototxt); any other file is read as binary, falling back to text when
/// that fails. Errors go to `diags`.
std::optional<tensorflow::GraphDef> loadGraphDef(const std::string &path,
                                                 GraphDiagnostics &diags);

/// loadGraphDef on bytes already in memory (the fuzzers' entry point):
/// `path` only picks the format, as above.
std::optional<tensorflow::GraphDef> parseGraphDef(llvm::StringRef contents,
                                                  llvm::StringRef path,
                                                  GraphDiagnostics &diags);

/// Loads what --graph names: a SavedModel directory (see SavedModelLoader.h;
/// `signature` is --signature, `config` the user's feeds and fetches), a
/// TF.js model.json, or a GraphDef file. `signatureConfig` (may be null)
/// receives the model's own signature, left empty for a plain GraphDef.
std::optional<tensorflow::GraphDef>
loadModel(const std::string &path, const std::string &signature,
          tensorflow::tf2xla::Config &config, GraphDiagnostics &diags,
          tensorflow::tf2xla::Config *signatureConfig);

/// Loads a text-format tensorflow.tf2xla.Config.
std::optional<tensorflow::tf2xla::Config>
loadConfig(const std::string &path, GraphDiagnostics &diags);

/// Adds `--feed name[:0][:shape[:dtype]]` to `config`. The shape is
/// comma-separated dimensions ("1,784"; empty for a scalar; -1 for unknown);
/// the dtype is a TF name ("float32", "int32", "DT_FLOAT", ...). A field
/// `0` right after the name is TF's output index (the tensor name "x:0"),
/// not a shape: output 0 is the only one a feed can take, and a shape [0]
/// (no elements) is no input.
bool addFeedFlag(const std::string &flag, tensorflow::tf2xla::Config &config,
                 GraphDiagnostics &diags);

/// A TensorFlow tensor name taken apart: "logits:1" is output 1 of node
/// "logits".
struct TensorName {
  llvm::StringRef node;
  int64_t index = 0;
  bool hasIndex = false; ///< Whether the name ended in ":<index>".
};

/// The one rule for tensor names: node names hold no ':', so a non-empty
/// node, ':' and decimal digits (up to INT64_MAX) are a node and an output
/// index; any other name is all node, output 0 ("logits", and also
/// "logits:x" or ":1", which then name no node). A ':' left in `node` marks
/// a name that is malformed where an index must be well formed.
TensorName splitTensorName(llvm::StringRef name);

/// The node a NodeDef input reads: "a" for "a", "a:1" and "^a".
llvm::StringRef nodeOfInput(llvm::StringRef input);

/// Adds `--fetch name[:output_index]` to `config`.
bool addFetchFlag(const std::string &flag, tensorflow::tf2xla::Config &config,
                  GraphDiagnostics &diags);

/// Splits TF tensor names ("logits:0") written as a config entry's
/// node_name into the node and its output index. False, with an error, when
/// the suffix contradicts the entry's own output_index.
bool splitConfigTensorNames(tensorflow::tf2xla::Config &config,
                            GraphDiagnostics &diags);

/// For an unknown feed or fetch `wanted`: "; did you mean 'a' or 'b'?"
/// (didYouMean in ir/DidYouMean.h: the closest of `candidates`, each the
/// names of one tensor), or "" when none is close.
std::string
suggestNames(llvm::StringRef wanted,
             llvm::ArrayRef<std::vector<std::string>> candidates);

/// Parses a TF dtype name in any of the usual spellings.
std::optional<tensorflow::DataType> parseDataType(llvm::StringRef name);

/// TF's short name for a dtype ("float32").
std::string dataTypeName(tensorflow::DataType type);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_GRAPHLOADER_H
