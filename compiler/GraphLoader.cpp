//===- GraphLoader.cpp - Read GraphDefs and tf2xla configs ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// File and flag parsing only; what the graph means is GraphImporter's job.
//
//===----------------------------------------------------------------------===//
#include "compiler/GraphLoader.h"

#include "compiler/SavedModelLoader.h"
#include "compiler/TfjsLoader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

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

std::optional<tensorflow::GraphDef>
tfaot::loadGraphDef(const std::string &path, GraphDiagnostics &diags) {
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
  if (isTextPath(path)) {
    if (parseText(text, graph, textError))
      return graph;
    diags.error("cannot parse text-format GraphDef: " + textError);
    return std::nullopt;
  }
  {
    // Protobuf logs its own "ERROR ..." line for some malformed input (a
    // string field that is not UTF-8); the error below says it for us.
    google::protobuf::LogSilencer quiet;
    if (graph.ParseFromArray(text.data(), int(text.size())))
      return graph;
  }
  graph.Clear();
  if (parseText(text, graph, textError))
    return graph;
  diags.error("cannot parse GraphDef: not a binary GraphDef, and as text: " +
              textError);
  return std::nullopt;
}

std::optional<tensorflow::GraphDef>
tfaot::loadModel(const std::string &path, const std::string &signature,
                 tensorflow::tf2xla::Config &config, GraphDiagnostics &diags,
                 tensorflow::tf2xla::Config *signatureConfig) {
  if (llvm::sys::fs::is_directory(path))
    return loadSavedModel(path, signature, config, diags, signatureConfig);
  if (!signature.empty()) {
    diags.error("--signature '" + signature +
                "' needs a SavedModel directory as --graph");
    return std::nullopt;
  }
  if (llvm::StringRef(path).ends_with_insensitive(".json"))
    return loadTfjsModel(path, diags, signatureConfig);
  return loadGraphDef(path, diags);
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
  return llvm::StringSwitch<std::optional<tensorflow::DataType>>(n)
      .Cases({"float", "float32", "f32"}, tensorflow::DT_FLOAT)
      .Cases({"double", "float64", "f64"}, tensorflow::DT_DOUBLE)
      .Cases({"half", "float16", "f16"}, tensorflow::DT_HALF)
      .Case("bfloat16", tensorflow::DT_BFLOAT16)
      .Cases({"int32", "i32"}, tensorflow::DT_INT32)
      .Cases({"int64", "i64"}, tensorflow::DT_INT64)
      .Cases({"int16", "i16"}, tensorflow::DT_INT16)
      .Cases({"int8", "i8"}, tensorflow::DT_INT8)
      .Cases({"uint8", "u8"}, tensorflow::DT_UINT8)
      .Cases({"uint16", "u16"}, tensorflow::DT_UINT16)
      .Cases({"uint32", "u32"}, tensorflow::DT_UINT32)
      .Cases({"uint64", "u64"}, tensorflow::DT_UINT64)
      .Case("bool", tensorflow::DT_BOOL)
      .Default(std::nullopt);
}

std::string tfaot::dataTypeName(tensorflow::DataType type) {
  switch (type) {
  case tensorflow::DT_FLOAT: return "float32";
  case tensorflow::DT_DOUBLE: return "float64";
  case tensorflow::DT_HALF: return "float16";
  case tensorflow::DT_BFLOAT16: return "bfloat16";
  case tensorflow::DT_INT32: return "int32";
  case tensorflow::DT_INT64: return "int64";
  case tensorflow::DT_INT16: return "int16";
  case tensorflow::DT_INT8: return "int8";
  case tensorflow::DT_UINT8: return "uint8";
  case tensorflow::DT_UINT16: return "uint16";
  case tensorflow::DT_UINT32: return "uint32";
  case tensorflow::DT_UINT64: return "uint64";
  case tensorflow::DT_BOOL: return "bool";
  default: return tensorflow::DataType_Name(type);
  }
}

bool tfaot::addFeedFlag(const std::string &flag,
                        tensorflow::tf2xla::Config &config,
                        GraphDiagnostics &diags) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  llvm::StringRef(flag).split(parts, ':');
  if (parts.empty() || parts[0].empty() || parts.size() > 3) {
    diags.error("bad --feed '" + flag +
                "': expected name[:shape[:dtype]], e.g. x:1,784:float32");
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

bool tfaot::addFetchFlag(const std::string &flag,
                         tensorflow::tf2xla::Config &config,
                         GraphDiagnostics &diags) {
  llvm::StringRef name = flag, index;
  // Node names may not contain ':', so the last one separates the index.
  if (size_t colon = name.rfind(':'); colon != llvm::StringRef::npos) {
    index = name.substr(colon + 1);
    name = name.substr(0, colon);
  }
  int64_t outputIndex = 0;
  if (name.empty() || (!index.empty() && index.getAsInteger(10, outputIndex)) ||
      outputIndex < 0) {
    diags.error("bad --fetch '" + flag + "': expected name[:output_index]");
    return false;
  }
  tensorflow::tf2xla::Fetch *fetch = config.add_fetch();
  fetch->mutable_id()->set_node_name(name.str());
  fetch->mutable_id()->set_output_index(outputIndex);
  return true;
}
