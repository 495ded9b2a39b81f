//===- TfjsLoader.h - Read TensorFlow.js graph models -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A TF.js graph model is a model.json holding
//   "modelTopology":   a GraphDef in protobuf's JSON form, whose Const nodes
//                      have had their values stripped;
//   "weightsManifest": groups of {"paths": [shard files], "weights": [...]},
//                      the weights' bytes concatenated across all shards of
//                      all groups, in manifest order;
//   "signature" (or "userDefinedMetadata"."signature"): the model's inputs
//                      and outputs, "name:0" -> {name, dtype, tensorShape}.
// loadTfjsModel turns that back into a frozen GraphDef: every weight becomes
// the "value" tensor of the Const node of the same name, dequantized
// (uint8/uint16 affine, float16) to the weight's dtype.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_TFJSLOADER_H
#define TFAOT_COMPILER_FRONTEND_TFJSLOADER_H

#include "compiler/frontend/Diagnostics.h"
#include "compiler/proto/graph.pb.h"
#include "compiler/proto/tf2xla.pb.h"

#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace tfaot {

/// Loads the TF.js graph model `path` (a model.json) and its weight shards.
/// Errors and warnings go to `diags` and name the file and the weight or node
/// at fault. When `signatureConfig` is non-null and the model declares a
/// signature, it receives one feed per input (sorted by signature key) and
/// one fetch per output (in the order the JSON lists them); otherwise it is
/// left empty.
std::optional<tensorflow::GraphDef>
loadTfjsModel(const std::string &path, GraphDiagnostics &diags,
              tensorflow::tf2xla::Config *signatureConfig);

/// Reads a weight shard: its manifest name appended to the model's
/// directory.
using TfjsShardReader =
    std::function<llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>(
        llvm::StringRef path)>;

/// loadTfjsModel on a model.json already in memory (the fuzzer's entry
/// point): `path` names the model in diagnostics and locates the shards,
/// which `readShard` reads (from memory, for the fuzzer).
std::optional<tensorflow::GraphDef>
parseTfjsModel(const std::string &path, llvm::StringRef json,
               const TfjsShardReader &readShard, GraphDiagnostics &diags,
               tensorflow::tf2xla::Config *signatureConfig);

/// Combines the model's signature (a TF.js model's or a SavedModel's) with
/// what the user gave (--config,
/// --feed, --fetch, already in `config`):
///  - no fetches given: the signature's outputs;
///  - no feeds given: the signature's inputs;
///  - feeds given that all name signature inputs: the signature's inputs,
///    each replaced in shape (and dtype, if given) by the user's feed of that
///    name; a feed naming any other node makes the user's feeds the whole
///    list.
/// A signature input whose shape is unknown only in dimension 0 and that the
/// user gave no shape for is compiled for batch 1, with a warning.
void applyTfjsSignature(const tensorflow::tf2xla::Config &signature,
                        tensorflow::tf2xla::Config &config,
                        GraphDiagnostics &diags);

/// A TF.js model whose signature lists no inputs, or that has none, is fed
/// as TF.js feeds it: at its Placeholder nodes. Adds one feed per
/// Placeholder of `graph` (in graph order, with its dtype and shape) to
/// `signature` when that has no feeds, so applyTfjsSignature treats them as
/// the model's inputs (batch 1 for an unknown batch, with its warning).
/// Warns, naming the feeds and their shapes, when the user gave no feeds
/// (`config`) and so these are what the model is compiled for.
void defaultTfjsFeeds(const tensorflow::GraphDef &graph,
                      tensorflow::tf2xla::Config &signature,
                      const tensorflow::tf2xla::Config &config,
                      GraphDiagnostics &diags);

/// IEEE binary16 -> binary32, exactly (subnormals, infinities, NaN payloads).
float halfToFloat(uint16_t half);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_TFJSLOADER_H
