//===- SharedLibrary.h - tfaot compile --out_shared_library ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Links a model's object, the object defining tfaot_model_info() and
// libtfaot_runtime.a into one shared library that exports only the C API
// (tfaot/runtime/c_api.h), under the symbol version TFAOT_C_2, so that any
// language that can dlopen() a library can run the model. The link is done
// by a C++ compiler driver (clang++ of the LLVM tfaot was built with, with
// lld when it is there); see docs/generated-api.md for how each is found.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_SHAREDLIBRARY_H
#define TFAOT_COMPILER_DRIVER_SHAREDLIBRARY_H

#include "compiler/driver/Driver.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tfaot {

struct SharedLibraryInputs {
  std::string object;       ///< The model's object (with its C API table).
  std::string infoObject;   ///< Defines tfaot_model_info().
  std::string infoSymbol;   ///< The table's symbol, exported too.
  bool needsJpeg = false;   ///< The model decodes JPEGs: link -ljpeg.
};

/// The C API functions a model's shared library exports (c_api.h's
/// TFAOT_C_EXPORT functions).
const std::vector<std::string> &cApiFunctionNames();

/// Links `inputs` into a shared library, returned in `library`. `progress`
/// receives the commands run (for --verbose; may be null). On failure
/// returns false with `error` saying what was missing or what the linker
/// said.
bool linkSharedLibrary(const SharedLibraryInputs &inputs, std::string &library,
                       std::string &error, llvm::raw_ostream *progress);

/// Why --out_c_header / --out_shared_library cannot be used with the rest
/// of `options` ("" when they can, or are not given): a C header needs
/// --cpp_class (its names), both need a CPU model on a 64-bit target, and
/// a shared library links this machine's runtime, so it needs the host's.
std::string checkCApiFlags(const CompileOptions &options);

/// --out_shared_library: makes the object defining tfaot_model_info() for
/// `infoSymbol` and links it with `object` (linkSharedLibrary).
bool linkModelLibrary(const FunctionSignature &signature,
                      const std::string &object, const std::string &infoSymbol,
                      const cpu::TargetOptions &target, std::string &library,
                      std::string &error, llvm::raw_ostream *progress);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_SHAREDLIBRARY_H
