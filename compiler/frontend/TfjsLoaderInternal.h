//===- TfjsLoaderInternal.h - The TF.js model reader's parts ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the compiler library. TfjsModelLoader reads one model.json;
// its methods are defined by job:
//   - TfjsLoader.cpp: the JSON and the topology (load, parseTopology) and
//     the entry points loadTfjsModel and parseTfjsModel;
//   - TfjsWeights.cpp: the weights manifest, the shards and the decoding
//     of each weight into its Const node;
//   - TfjsSignature.cpp: the model's signature, and applyTfjsSignature and
//     defaultTfjsFeeds, which combine it with the user's feeds and fetches.
// Everything is in namespace tfaot::tfjs.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_TFJSLOADERINTERNAL_H
#define TFAOT_COMPILER_FRONTEND_TFJSLOADERINTERNAL_H

#include "compiler/frontend/TfjsLoader.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tfaot::tfjs {

namespace json = llvm::json;
using llvm::StringRef;

/// One entry of the weights manifest.
struct WeightSpec {
  std::string name;
  std::vector<int64_t> shape;
  std::string dtype;      ///< "float32", "int32", "bool", "string", ...
  std::string quantDtype; ///< "", "uint8", "uint16", "float16", ...
  std::string originalDtype;
  double min = 0, scale = 1;
  bool hasMin = false, hasScale = false;
};

/// Reads an int64 from a JSON number or a decimal string ("-1", as protobuf
/// JSON writes int64).
std::optional<int64_t> getInteger(const json::Value &value);

class TfjsModelLoader {
public:
  TfjsModelLoader(const std::string &path, const TfjsShardReader &readShard,
                  GraphDiagnostics &diags)
      : path_(path), readShard_(readShard), diags_(diags) {}

  std::optional<tensorflow::GraphDef>
  load(StringRef text, tensorflow::tf2xla::Config *signatureConfig);

private:
  bool parseTopology(const json::Object &root);
  bool parseManifest(const json::Object &root);
  bool readShards();
  bool decodeWeights();
  /// Decodes `spec` at `offset` into `tensor`; sets `size` to the bytes it
  /// occupies. Returns false with an error reported; `size` stays 0 when the
  /// size is unknown (then no later weight can be located).
  bool decodeWeight(const WeightSpec &spec, size_t offset,
                    tensorflow::TensorProto &tensor, size_t &size);
  void assignWeight(const WeightSpec &spec, tensorflow::TensorProto tensor);
  void checkConstsHaveValues();
  void parseSignature(const json::Object &root, StringRef text,
                      tensorflow::tf2xla::Config &config);
  bool truncated(const WeightSpec &spec, size_t offset, size_t size);

  std::string path_;
  const TfjsShardReader &readShard_;
  GraphDiagnostics &diags_;
  tensorflow::GraphDef graph_;
  std::vector<WeightSpec> weights_;
  std::vector<std::string> shardNames_; ///< As the manifest writes them.
  std::vector<size_t> shardSizes_;
  std::string data_; ///< All shards, concatenated.
  /// Const nodes by name: the graph's and those in library functions.
  llvm::StringMap<std::vector<tensorflow::NodeDef *>> consts_;
  llvm::StringMap<bool> assigned_;
  llvm::StringSet<> inManifest_;
};

} // namespace tfaot::tfjs

#endif // TFAOT_COMPILER_FRONTEND_TFJSLOADERINTERNAL_H
