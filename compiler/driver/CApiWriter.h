//===- CApiWriter.h - The C header and the object's model table -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot compile --out_c_header` and `--out_shared_library`: the C API of
// runtime/include/tfaot/runtime/c_api.h needs the model's tables (names,
// dtypes, shapes, entries) as data a C program can reach. The C++ header
// defines them in C++; for C they go into the object itself, as one
// constant tfaot_function_info written here in LLVM IR and compiled with
// the model (so a C program needs no compiler of ours, and a shared
// library carries its own description). The C header then only declares
// that constant and adds typed wrappers. See docs/generated-api.md.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_CAPIWRITER_H
#define TFAOT_COMPILER_DRIVER_CAPIWRITER_H

#include "compiler/driver/HeaderWriter.h"

#include <string>

namespace tfaot {

/// The symbol of the model's tfaot_function_info: the entry symbol (without
/// a bucket suffix) + "_info", e.g. tfaot_demo_Mnist_info.
std::string cInfoSymbol(const std::string &entrySymbol);

/// The prefix of the C header's names: the class with "::" as "_"
/// ("demo::Mnist" -> "demo_Mnist").
std::string cPrefix(const std::string &cppClass);

/// LLVM IR (text, for a 64-bit target) defining `infoSymbol` as the
/// model's tfaot_function_info, and one internal adapter per entry that
/// spreads the runtime's pointer arrays into the entry's arguments, as the
/// C++ class's Entry() does. Linked into the model's module before it is
/// optimized. `options` as for writeHeader (entries, arena, buckets).
std::string cApiTableIR(const FunctionSignature &signature,
                        const HeaderOptions &options,
                        const std::string &infoSymbol);

/// LLVM IR defining `const tfaot_function_info *tfaot_model_info(void)`,
/// which returns `infoSymbol`: what a shared library exports for dlopen().
std::string modelInfoIR(const std::string &infoSymbol);

/// Writes the C header. Returns false with `error` set for a dtype the API
/// does not support (the same ones writeHeader rejects).
bool writeCHeader(const FunctionSignature &signature,
                  const HeaderOptions &options, const std::string &infoSymbol,
                  std::string &header, std::string &error);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_CAPIWRITER_H
