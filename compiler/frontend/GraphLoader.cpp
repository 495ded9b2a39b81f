//===- GraphLoader.cpp - Read GraphDefs and tf2xla configs ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// File and flag parsing only; what the graph means is GraphImporter's job.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/GraphLoader.h"

#include "compiler/frontend/DataTypes.h"
#include "compiler/frontend/SavedModelLoader.h"
#include "compiler/frontend/TfjsLoader.h"
#include "ir/DidYouMean.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <limits>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>

using namespace tfaot;

namespace {
/// Collects the text parser's first error with its line and column.
class TextErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (first.empty())
      first = "line " + std::to_string(line + 1) + ":" +
              std::to_string(column + 1) + ": " + message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber,
                  const std::string &) override {}
  std::string first;
};
} // namespace

static std::optional<std::string> readFile(const std::string &path,
                                           GraphDiagnostics &diags) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    diags.error("cannot read file: " + buffer.getError().message());
    return std::nullopt;
  }
  return (*buffer)->getBuffer().str();
}

static bool parseText(llvm::StringRef text,
                      google::protobuf::Message &message, std::string &error) {
  google::protobuf::TextFormat::Parser parser;
  TextErrorCollector collector;
  parser.RecordErrorsTo(&collector);
  google::protobuf::io::ArrayInputStream stream(text.data(), int(text.size()));
  if (parser.Parse(&stream, &message))
    return true;
  error = collector.first.empty() ? "malformed text" : collector.first;
  return false;
}

static bool isTextPath(llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".pbtxt" || ext == ".txt" || ext == ".prototxt";
}

/// The error for a SavedModel's saved_model.pb given as --graph.
static void savedModelFileError(llvm::StringRef path, GraphDiagnostics &diags) {
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  diags.error("this is a SavedModel's saved_model.pb: pass its directory "
              "(--graph " + (dir.empty() ? llvm::StringRef(".") : dir) + ")");
}

/// Whether `contents` are a SavedModel proto with a graph of nodes. Asked
/// only of files that do not read as a GraphDef with nodes (a SavedModel
/// may read as an empty one), so GraphDefs never pay for it.
static bool holdsSavedModel(llvm::StringRef contents, bool text) {
  tensorflow::SavedModel model;
  std::string ignored;
  bool parsed;
  {
    google::protobuf::LogSilencer quiet;
    parsed = !text &&
             model.ParseFromArray(contents.data(), int(contents.size()));
  }
  if (!parsed) {
    model.Clear();
    parsed = parseText(contents, model, ignored);
  }
  return parsed && model.meta_graphs_size() > 0 &&
         model.meta_graphs(0).graph_def().node_size() > 0;
}

std::optional<tensorflow::GraphDef>
tfaot::loadGraphDef(const std::string &path, GraphDiagnostics &diags) {
  // saved_model.pb next to variables/ is a SavedModel directory's.
  llvm::StringRef name = llvm::sys::path::filename(path);
  llvm::SmallString<128> variables = llvm::sys::path::parent_path(path);
  llvm::sys::path::append(variables, "variables");
  if ((name == "saved_model.pb" || name == "saved_model.pbtxt") &&
      llvm::sys::fs::is_directory(variables)) {
    savedModelFileError(path, diags);
    return std::nullopt;
  }
  auto contents = readFile(path, diags);
  if (!contents)
    return std::nullopt;
  return parseGraphDef(*contents, path, diags);
}

std::optional<tensorflow::GraphDef>
tfaot::parseGraphDef(llvm::StringRef contents, llvm::StringRef path,
                     GraphDiagnostics &diags) {
  // Protobuf's sizes are int: refuse what it cannot address instead of
  // letting the size wrap.
  if (contents.size() > size_t(std::numeric_limits<int>::max())) {
    diags.error("file is too large for a GraphDef (" +
                llvm::Twine(contents.size()) + " bytes; the limit is 2 GiB)");
    return std::nullopt;
  }
  llvm::StringRef text = contents;
  tensorflow::GraphDef graph;
  std::string textError;
  const bool textPath = isTextPath(path);
  bool parsed = false;
  if (!textPath) {
    // Protobuf logs its own "ERROR ..." line for some malformed input (a
    // string field that is not UTF-8); the error below says it for us.
    google::protobuf::LogSilencer quiet;
    parsed = graph.ParseFromArray(text.data(), int(text.size()));
  }
  if (!parsed) {
    graph.Clear();
    parsed = parseText(text, graph, textError);
  }
  if ((!parsed || graph.node_size() == 0) && holdsSavedModel(text, textPath)) {
    savedModelFileError(path, diags);
    return std::nullopt;
  }
  if (parsed)
    return graph;
  diags.error(textPath ? "cannot parse text-format GraphDef: " + textError
                       : "cannot parse GraphDef: not a binary GraphDef, and "
                         "as text: " + textError);
  return std::nullopt;
}

std::optional<tensorflow::GraphDef>
tfaot::loadModel(const std::string &path, const std::string &signature,
                 tensorflow::tf2xla::Config &config, GraphDiagnostics &diags,
                 tensorflow::tf2xla::Config *signatureConfig) {
  if (llvm::sys::fs::is_directory(path))
    return loadSavedModel(path, signature, config, diags, signatureConfig);
  if (!signature.empty()) {
    diags.usageError("--signature '" + signature +
                     "' needs a SavedModel directory as --graph");
    return std::nullopt;
  }
  if (!llvm::StringRef(path).ends_with_insensitive(".json"))
    return loadGraphDef(path, diags);
  auto graph = loadTfjsModel(path, diags, signatureConfig);
  if (graph && signatureConfig)
    defaultTfjsFeeds(*graph, *signatureConfig, config, diags);
  return graph;
}

std::optional<tensorflow::tf2xla::Config>
tfaot::loadConfig(const std::string &path, GraphDiagnostics &diags) {
  auto contents = readFile(path, diags);
  if (!contents)
    return std::nullopt;
  tensorflow::tf2xla::Config config;
  std::string error;
  if (parseText(*contents, config, error))
    return config;
  diags.error("cannot parse tf2xla.Config: " + error);
  return std::nullopt;
}

std::optional<tensorflow::DataType> tfaot::parseDataType(llvm::StringRef name) {
  std::string lower = name.lower();
  llvm::StringRef n(lower);
  n.consume_front("dt_");
  for (const DataTypeInfo &info : dataTypeTable()) {
    if (info.role != DataTypeRole::Plain)
      continue;
    if (n == info.name)
      return info.type;
    for (const char *alias : info.aliases)
      if (alias && n == alias)
        return info.type;
  }
  return std::nullopt;
}

std::string tfaot::dataTypeName(tensorflow::DataType type) {
  const DataTypeInfo *info = findDataType(type);
  if (info && info->role == DataTypeRole::Plain)
    return info->name;
  return tensorflow::DataType_Name(type);
}

bool tfaot::addFeedFlag(const std::string &flag,
                        tensorflow::tf2xla::Config &config,
                        GraphDiagnostics &diags) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(flag).split(parts, ':');
  // "x:0" is TF's name for the tensor x feeds (see the header).
  bool outputIndex = parts.size() >= 2 && parts[1] == "0";
  if (outputIndex)
    parts.erase(parts.begin() + 1);
  if (parts.empty() || parts[0].empty() || parts.size() > 3) {
    diags.error("bad --feed '" + flag +
                "': expected name[:0][:shape[:dtype]], e.g. x:1,784:float32 "
                "or x:0:1,784");
    return false;
  }
  tensorflow::tf2xla::Feed *feed = config.add_feed();
  feed->mutable_id()->set_node_name(parts[0].str());
  if (parts.size() >= 2) {
    tensorflow::TensorShapeProto *shape = feed->mutable_shape();
    llvm::SmallVector<llvm::StringRef, 4> dims;
    if (!parts[1].empty())
      parts[1].split(dims, ',');
    for (llvm::StringRef dim : dims) {
      int64_t size;
      if (dim.trim().getAsInteger(10, size) || size < -1) {
        diags.error("bad --feed '" + flag + "': dimension '" + dim +
                    "' is not a size (use -1 for unknown)");
        return false;
      }
      shape->add_dim()->set_size(size);
    }
  }
  if (parts.size() == 3) {
    auto type = parseDataType(parts[2]);
    if (!type) {
      diags.error("bad --feed '" + flag + "': unknown dtype '" + parts[2] +
                  "'");
      return false;
    }
    feed->set_type(*type);
  }
  return true;
}

TensorName tfaot::splitTensorName(llvm::StringRef name) {
  auto [node, digits] = name.rsplit(':');
  uint64_t index;
  // getAsInteger on an unsigned takes digits only (no sign, no spaces).
  if (node.size() == name.size() || node.empty() ||
      digits.getAsInteger(10, index) ||
      index > uint64_t(std::numeric_limits<int64_t>::max()))
    return {name, 0, false};
  return {node, int64_t(index), true};
}

llvm::StringRef tfaot::nodeOfInput(llvm::StringRef input) {
  input.consume_front("^");
  return splitTensorName(input).node;
}

bool tfaot::addFetchFlag(const std::string &flag,
                         tensorflow::tf2xla::Config &config,
                         GraphDiagnostics &diags) {
  TensorName tensor = splitTensorName(flag);
  if (tensor.node.empty() || tensor.node.contains(':')) {
    diags.error("bad --fetch '" + flag + "': expected name[:output_index]");
    return false;
  }
  tensorflow::tf2xla::Fetch *fetch = config.add_fetch();
  fetch->mutable_id()->set_node_name(tensor.node.str());
  fetch->mutable_id()->set_output_index(tensor.index);
  return true;
}

bool tfaot::splitConfigTensorNames(tensorflow::tf2xla::Config &config,
                                   GraphDiagnostics &diags) {
  bool ok = true;
  auto split = [&](tensorflow::tf2xla::TensorId &id, llvm::StringRef kind) {
    llvm::StringRef name = id.node_name();
    auto [node, index, hasIndex] = splitTensorName(name);
    if (!hasIndex)
      return;
    if (id.output_index() != 0 && id.output_index() != index) {
      diags.error(llvm::formatv("config {0} '{1}' names output {2} but has "
                                "output_index {3}",
                                kind, name, index, id.output_index())
                      .str());
      ok = false;
      return;
    }
    id.set_node_name(node.str());
    id.set_output_index(index);
  };
  for (auto &feed : *config.mutable_feed())
    split(*feed.mutable_id(), "feed");
  for (auto &fetch : *config.mutable_fetch())
    split(*fetch.mutable_id(), "fetch");
  return ok;
}

std::string
tfaot::suggestNames(llvm::StringRef wanted,
                    llvm::ArrayRef<std::vector<std::string>> candidates) {
  std::string suggestion = didYouMean(wanted, candidates);
  return suggestion.empty() ? "" : "; " + suggestion;
}
