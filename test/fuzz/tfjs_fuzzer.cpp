//===- tfjs_fuzzer.cpp - Fuzz TF.js graph models through the importer -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Input format: the model.json text, then one NUL byte, then the weight
// bytes (no NUL: all JSON, no weights). JSON text cannot hold a raw NUL, so
// the split is unambiguous, and seeds are just `cat model.json - shards`.
// The first shard the manifest lists holds all the weight bytes and any
// further shard is empty: the loader concatenates shards anyway, so this
// reaches every byte layout without the fuzzer knowing the shard names.
//
// As `tfaot compile --graph model.json` does, the model's signature gives
// the feeds and fetches (a derived config when it gives no fetches), and
// the graph is imported and verified.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "compiler/frontend/TfjsLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfaot::fuzz::quietLibraries();
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  auto [json, weights] = input.split('\0');
  tfaot::GraphDiagnostics diags("model.json", tfaot::fuzz::diagStream());
  bool first = true;
  tfaot::TfjsShardReader readShard = [&](llvm::StringRef path) {
    llvm::StringRef bytes = first ? weights : llvm::StringRef();
    first = false;
    return llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>(
        llvm::MemoryBuffer::getMemBuffer(bytes, path,
                                         /*RequiresNullTerminator=*/false));
  };
  tensorflow::tf2xla::Config signature;
  auto graph =
      tfaot::parseTfjsModel("model.json", json, readShard, diags, &signature);
  tfaot::fuzz::requireError(!graph, diags, "parseTfjsModel");
  if (!graph)
    return 0;
  tensorflow::tf2xla::Config config;
  tfaot::applyTfjsSignature(signature, config, diags);
  if (config.fetch().empty())
    config = tfaot::fuzz::deriveConfig(*graph);
  tfaot::fuzz::importAndVerify(*graph, config, diags);
  return 0;
}
