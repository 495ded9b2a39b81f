//===- HeaderWriter.h - The generated C++ header ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Writes the header users include: a class deriving from
// tfaot::CompiledFunction with static buffer tables and typed, named
// accessors, in the spirit of tfcompile's generated headers. The API is
// documented in docs/generated-api.md. It lives in compiler/, beside the
// driver that calls it, rather than in a backend: it writes the CPU and the
// CUDA class alike, from the importer's FunctionSignature.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_HEADERWRITER_H
#define TFAOT_COMPILER_DRIVER_HEADERWRITER_H

#include "compiler/frontend/GraphImporter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfaot {

struct HeaderOptions {
  std::string cppClass;     ///< "ns::sub::Name" (namespaces optional).
  std::string entrySymbol;  ///< The object's extern "C" function.
  std::string sourceGraph;  ///< Shown in the banner.
  /// Scratch memory one call needs in all: the arena plus any temporaries
  /// the plan left as heap allocations made during Run().
  uint64_t tempBytes = 0;
  /// The planned arena (kTempBytes); when non-zero the entry function takes
  /// a pointer to it after the results.
  uint64_t arenaBytes = 0;
  uint64_t naiveTempBytes = 0;  ///< Sum of the planned buffers' sizes.
  uint64_t peakLiveBytes = 0;   ///< Most bytes live at once (lower bound).

  /// One entry of a library with batch buckets (tfaot compile --batch).
  struct Bucket {
    int64_t batch = 0;
    std::string entrySymbol;
    bool hasArena = false;  ///< The entry takes the arena after the results.
  };
  /// In increasing batch order; the signature is the last bucket's. Empty:
  /// one entry, `entrySymbol`, taking the arena if arenaBytes > 0.
  std::vector<Bucket> buckets;
  /// --target=cuda: the class derives from tfaot::CudaCompiledFunction
  /// (runtime/lib/cuda), whose Run() runs the entry on the GPU; the arena
  /// (kTempBytes) is then device memory. `cudaNote` says how the kernels
  /// are embedded.
  bool cuda = false;
  std::string cudaNote;
};

/// Returns false and sets `error` if cppClass is not a valid C++ name.
bool writeHeader(const FunctionSignature &signature,
                 const HeaderOptions &options, std::string &header,
                 std::string &error);

/// Whether `name` is a valid "ns::Name" class path.
bool isValidCppClassName(const std::string &name);

/// Bytes of one element of `type` in the generated buffers.
int64_t elementBytes(tensorflow::DataType type);

/// The accessor name of each of `sigs` (arg_<name>_data, ...):
/// sanitizeIdentifier's, with "_2", "_3", ... added where two collide.
std::vector<std::string> accessorNames(const std::vector<TensorSignature> &sigs);

/// `name` with every character outside [A-Za-z0-9_] replaced by '_'.
std::string sanitizeIdentifier(const std::string &name);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_HEADERWRITER_H
