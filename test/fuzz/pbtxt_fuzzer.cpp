//===- pbtxt_fuzzer.cpp - Fuzz text-format GraphDefs through the importer -===//
// SPDX-License-Identifier: Apache-2.0
//
// The input is a .pbtxt file's text, parsed as `tfaot compile --graph
// x.pbtxt` does (text only), then imported with a derived config
// (FuzzSupport.h) and verified.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "compiler/frontend/GraphLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfaot::fuzz::quietLibraries();
  tfaot::GraphDiagnostics diags("fuzz.pbtxt", tfaot::fuzz::diagStream());
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto graph = tfaot::parseGraphDef(text, "fuzz.pbtxt", diags);
  tfaot::fuzz::requireError(!graph, diags, "parseGraphDef");
  if (graph)
    tfaot::fuzz::importAndVerify(*graph, tfaot::fuzz::deriveConfig(*graph),
                                 diags);
  return 0;
}
