//===- savedmodel_fuzzer.cpp - Fuzz SavedModel directories -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Input format: three length-prefixed parts, each length 4 bytes little
// endian: saved_model.pb, variables/variables.index, and (the rest, no
// prefix) variables/variables.data-00000-of-00001. A missing part is an
// empty file. The parts are written into a directory of this process's
// own and loaded with the loader `tfaot compile --graph DIR` uses (meta
// graph and signature choice, function inlining, the checkpoint's table,
// CRCs and shard reads, freezing), then imported and verified with the
// signature as feeds and fetches. scripts/fuzz.sh makes the seeds from
// the directories tfaot-write-savedmodel writes and the corpus's
// saved_model.pb files.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "compiler/frontend/SavedModelLoader.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>

namespace {

/// Splits off one length-prefixed part of `input`.
llvm::StringRef takePart(llvm::StringRef &input) {
  if (input.size() < 4) {
    input = {};
    return {};
  }
  uint32_t length = 0;
  for (int i = 3; i >= 0; --i)
    length = length << 8 | uint8_t(input[i]);
  input = input.drop_front(4);
  llvm::StringRef part = input.take_front(length);
  input = input.drop_front(part.size());
  return part;
}

void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error) {
    std::fprintf(stderr, "tfaot fuzz: cannot write %s: %s\n", path.c_str(),
                 error.message().c_str());
    std::abort();
  }
  out << bytes;
}

/// This process's model directory, made once (libFuzzer runs one input at
/// a time, so the files are rewritten for each).
const std::string &modelDir() {
  static std::string dir = [] {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createUniqueDirectory("tfaot-fuzz-savedmodel", path)) {
      std::fprintf(stderr, "tfaot fuzz: cannot make a temporary directory\n");
      std::abort();
    }
    llvm::sys::fs::create_directory(path + "/variables");
    return std::string(path);
  }();
  return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfaot::fuzz::quietLibraries();
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  llvm::StringRef savedModel = takePart(input);
  llvm::StringRef index = takePart(input);
  const std::string &dir = modelDir();
  writeFile(dir + "/saved_model.pb", savedModel);
  writeFile(dir + "/variables/variables.index", index);
  writeFile(dir + "/variables/variables.data-00000-of-00001", input);

  tfaot::GraphDiagnostics diags(dir, tfaot::fuzz::diagStream());
  tensorflow::tf2xla::Config config, signature;
  auto graph = tfaot::loadSavedModel(dir, "", config, diags, &signature);
  tfaot::fuzz::requireError(!graph, diags, "loadSavedModel");
  if (!graph)
    return 0;
  if (signature.fetch().empty())
    signature = tfaot::fuzz::deriveConfig(*graph);
  // Unknown dimensions (a batch of -1) as a user's --feed would fix them.
  for (tensorflow::tf2xla::Feed &feed : *signature.mutable_feed())
    for (auto &dim : *feed.mutable_shape()->mutable_dim())
      if (dim.size() < 0)
        dim.set_size(1);
  tfaot::fuzz::importAndVerify(*graph, signature, diags);
  return 0;
}
