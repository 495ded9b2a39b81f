//===- LowerEntry.h - One entry function, bufferized -> CUDA ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The CUDA half of `tfaot compile --target=cuda`, after the shared import,
// graph passes and GPU bufferization (which the driver runs, to measure the
// memory plan as for the CPU): kernels -> PTX -> cubin (when ptxas is
// installed) -> the image embedded in the host code, which is left in the
// LLVM dialect for the CPU backend's object emitter. Kept out of the driver
// so that the driver only chooses the backend.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_LOWERENTRY_H
#define TFAOT_BACKENDS_GPU_LOWERENTRY_H

#include "backends/gpu/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tfaot::gpu {

struct EntryOptions {
  std::string arch = "sm_90";  ///< --gpu_arch
  GemmOptions gemms;           ///< --gpu_gemm, --allow_tf32
  /// Where to stop: after mapping to kernels, after PTX, or at the host
  /// code ready for object emission.
  enum class Stop { Kernels, Ptx, Host } stop = Stop::Host;
  /// --gpu_emulate: run the launches as loops on the CPU and lower to the
  /// LLVM dialect with the CPU pipeline instead (`vectorBits` sizes its
  /// kernels); `stop` is then ignored.
  bool emulate = false;
  unsigned vectorBits = 128;
  bool verbose = false;     ///< Notes on ptxas to `notes`.
  std::string graphName;    ///< Prefix of the notes.
};

/// Runs one pipeline on the module, reporting failures; the driver's.
using PipelineRunner = llvm::function_ref<bool(
    llvm::function_ref<mlir::LogicalResult(mlir::OpPassManager &)>)>;

struct LoweredKernels {
  std::string ptx;     ///< The kernels' PTX (after Stop::Ptx).
  bool cubin = false;  ///< Whether a cubin was embedded with it.
  bool cublas = false; ///< Whether the host code calls cuBLAS.
};

/// Lowers the bufferized `module` as `options` say. False after reporting
/// through `run` or with `error` set.
bool lowerBufferizedEntry(mlir::ModuleOp module, const EntryOptions &options,
                          PipelineRunner run, LoweredKernels &kernels,
                          std::string &error, llvm::raw_ostream &notes);

/// The header's sentences on how the kernels are embedded and, if
/// `cublas`, that the program needs cuBLAS at run time.
std::string embeddingNote(const std::string &arch, bool cubin, bool cublas);

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_LOWERENTRY_H
