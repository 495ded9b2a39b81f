//===- graphdef_fuzzer.cpp - Fuzz binary GraphDefs through the importer ---===//
// SPDX-License-Identifier: Apache-2.0
//
// The input is a .pb file's bytes. As for `tfaot compile --graph x.pb`, a
// buffer that is not a binary GraphDef is retried as text; what parses is
// imported with a derived config (FuzzSupport.h) and verified.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "compiler/frontend/GraphLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfaot::fuzz::quietLibraries();
  tfaot::GraphDiagnostics diags("fuzz.pb", tfaot::fuzz::diagStream());
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto graph = tfaot::parseGraphDef(bytes, "fuzz.pb", diags);
  tfaot::fuzz::requireError(!graph, diags, "parseGraphDef");
  if (graph)
    tfaot::fuzz::importAndVerify(*graph, tfaot::fuzz::deriveConfig(*graph),
                                 diags);
  return 0;
}
