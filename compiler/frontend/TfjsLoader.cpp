//===- TfjsLoader.cpp - Read TensorFlow.js graph models -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// model.json -> GraphDef with the weights put back into their Const nodes.
//
// This file parses the model.json and its topology and runs the steps;
// the weights and the signature are read in TfjsWeights.cpp and
// TfjsSignature.cpp (see TfjsLoaderInternal.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TfjsLoader.h"

#include "compiler/frontend/TfjsLoaderInternal.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <google/protobuf/util/json_util.h>

using namespace tfaot;
using namespace tfaot::tfjs;

namespace {

/// "[L:C, byte=B]: msg" (llvm::json's form) -> "line L:C: msg".
std::string describeParseError(llvm::Error error) {
  std::string text = llvm::toString(std::move(error));
  static const llvm::Regex position(
      "^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$");
  llvm::SmallVector<StringRef, 4> groups;
  if (position.match(text, &groups))
    return ("line " + groups[1] + ":" + groups[2] + ": " + groups[3]).str();
  return text;
}

/// llvm::json parses, prints and destroys nested values recursively, so a
/// model.json of a few hundred thousand '[' would overflow the stack. Real
/// models nest about ten levels (and protobuf's JSON parser, which reads the
/// topology, stops at 100), so deeper input is rejected before parsing.
constexpr int kMaxJsonDepth = 256;

/// The line and column (1-based) where `text` nests deeper than
/// kMaxJsonDepth, outside strings; nullopt if it never does.
std::optional<std::pair<size_t, size_t>> findTooDeepJson(StringRef text) {
  int depth = 0;
  bool inString = false;
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    }
    if (inString) {
      if (c == '\\')
        ++i; // The escaped character cannot end the string.
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return std::make_pair(line, i - lineStart + 1);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

} // namespace

namespace tfaot::tfjs {

std::optional<int64_t> getInteger(const json::Value &value) {
  if (auto i = value.getAsInteger())
    return i;
  if (auto s = value.getAsString()) {
    int64_t result;
    if (!s->trim().getAsInteger(10, result))
      return result;
  }
  return std::nullopt;
}

} // namespace tfaot::tfjs

std::optional<tensorflow::GraphDef>
TfjsModelLoader::load(StringRef text,
                      tensorflow::tf2xla::Config *signatureConfig) {
  int errorsBefore = diags_.errorCount();
  if (auto at = findTooDeepJson(text)) {
    diags_.error(llvm::formatv("cannot parse JSON: line {0}:{1}: nested "
                               "deeper than {2} levels",
                               at->first, at->second, kMaxJsonDepth)
                     .str());
    return std::nullopt;
  }
  auto parsed = json::parse(text);
  if (!parsed) {
    diags_.error("cannot parse JSON: " +
                 describeParseError(parsed.takeError()));
    return std::nullopt;
  }
  const json::Object *root = parsed->getAsObject();
  if (!root) {
    diags_.error("not a TF.js graph model: the JSON is not an object");
    return std::nullopt;
  }
  if (auto format = root->getString("format");
      format && *format != "graph-model") {
    diags_.error("not a TF.js graph model: \"format\" is '" + *format +
                 "'; tfaot reads graph models (tensorflowjs_converter "
                 "--output_format=tfjs_graph_model)");
    return std::nullopt;
  }
  if (!parseTopology(*root) || !parseManifest(*root) || !readShards())
    return std::nullopt;
  decodeWeights();
  checkConstsHaveValues();
  if (signatureConfig) {
    signatureConfig->Clear();
    parseSignature(*root, text, *signatureConfig);
  }
  if (diags_.errorCount() != errorsBefore)
    return std::nullopt;
  return std::move(graph_);
}

bool TfjsModelLoader::parseTopology(const json::Object &root) {
  const json::Object *topology = root.getObject("modelTopology");
  if (!topology) {
    diags_.error("not a TF.js graph model: no \"modelTopology\" object");
    return false;
  }
  if (!topology->get("node")) {
    diags_.error("not a TF.js graph model: \"modelTopology\" has no \"node\" "
                 "list (a layers model? tfaot reads graph models)");
    return false;
  }
  // Back to text for protobuf's JSON parser (llvm::json prints doubles with
  // 17 significant digits, so float attributes survive the round trip).
  std::string topologyText;
  llvm::raw_string_ostream os(topologyText);
  os << *root.get("modelTopology");
  os.flush();
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  auto status = google::protobuf::util::JsonStringToMessage(topologyText,
                                                            &graph_, options);
  if (!status.ok()) {
    diags_.error("cannot read \"modelTopology\" as a GraphDef: " +
                 std::string(status.message().data(), status.message().size()));
    return false;
  }
  auto addConst = [&](tensorflow::NodeDef &node) {
    if (node.op() == "Const")
      consts_[node.name()].push_back(&node);
  };
  for (tensorflow::NodeDef &node : *graph_.mutable_node())
    addConst(node);
  for (auto &function : *graph_.mutable_library()->mutable_function())
    for (tensorflow::NodeDef &node : *function.mutable_node_def())
      addConst(node);
  return true;
}

std::optional<tensorflow::GraphDef>
tfaot::loadTfjsModel(const std::string &path, GraphDiagnostics &diags,
                     tensorflow::tf2xla::Config *signatureConfig) {
  if (signatureConfig)
    signatureConfig->Clear();
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    diags.error("cannot read file: " + buffer.getError().message());
    return std::nullopt;
  }
  TfjsShardReader readShard = [](StringRef shard) {
    return llvm::MemoryBuffer::getFile(shard, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
  };
  return TfjsModelLoader(path, readShard, diags)
      .load((*buffer)->getBuffer(), signatureConfig);
}

std::optional<tensorflow::GraphDef>
tfaot::parseTfjsModel(const std::string &path, StringRef json,
                      const TfjsShardReader &readShard,
                      GraphDiagnostics &diags,
                      tensorflow::tf2xla::Config *signatureConfig) {
  if (signatureConfig)
    signatureConfig->Clear();
  return TfjsModelLoader(path, readShard, diags).load(json, signatureConfig);
}
