//===- LowerEntry.cpp - One entry function, bufferized -> CUDA ------------===//
// SPDX-License-Identifier: Apache-2.0
#include "backends/gpu/LowerEntry.h"

#include "backends/cpu/Pipeline.h"
#include "backends/gpu/DeviceImage.h"
#include "backends/gpu/HostLaunch.h"
#include "backends/gpu/Pipeline.h"

using namespace mlir;

bool tfaot::gpu::lowerBufferizedEntry(ModuleOp module,
                                      const EntryOptions &options,
                                      PipelineRunner run,
                                      LoweredKernels &kernels,
                                      std::string &error,
                                      llvm::raw_ostream &notes) {
  if (options.emulate)
    return run([&](OpPassManager &pm) {
             return buildEmulationPipeline(pm, options.gemms);
           }) &&
           run([&](OpPassManager &pm) {
             return cpu::buildToLLVMPipeline(pm, options.vectorBits);
           });
  if (!run([&](OpPassManager &pm) {
        return buildKernelPipeline(pm, options.gemms);
      }))
    return false;
  kernels.cublas = module.lookupSymbol(tfaot_rt::kCudaGemm) ||
                   module.lookupSymbol(tfaot_rt::kCudaGemmS8);
  if (options.stop == EntryOptions::Stop::Kernels)
    return true;
  if (!run([&](OpPassManager &pm) {
        return buildToNVVMPipeline(pm, options.arch, findCudaToolkit());
      }))
    return false;
  if (!extractPtx(module, kernels.ptx, error) ||
      !checkPtxSelfContained(kernels.ptx, error))
    return false;
  if (options.stop == EntryOptions::Stop::Ptx)
    return true;
  std::string cubin, ptxas = findPtxas();
  if (ptxas.empty()) {
    if (options.verbose)
      notes << options.graphName << ": note: no ptxas (set TFAOT_PTXAS or "
            << "install the CUDA toolkit): embedding PTX only, which the "
            << "driver compiles when the model is first run\n";
  } else if (!kernels.ptx.empty()) {
    if (!assembleCubin(ptxas, kernels.ptx, options.arch, cubin, error))
      return false;
    if (options.verbose)
      notes << options.graphName << ": note: " << ptxas << " assembled "
            << cubin.size() << " bytes of " << options.arch
            << " code; embedding it with the PTX\n";
  }
  kernels.cubin = !cubin.empty();
  return lowerHostLaunches(module, packImage(options.arch, cubin, kernels.ptx),
                           error);
}

std::string tfaot::gpu::embeddingNote(const std::string &arch, bool cubin,
                                      bool cublas) {
  std::string needs =
      cublas ? ". Its convolutions and matrix products run in cuBLAS: "
               "libcublas.so.13 or .12 must be loadable at run time"
             : "";
  return "CUDA (" + arch + "): the kernels are embedded as " +
         (cubin ? arch + " code (cubin) and PTX, which newer GPUs compile "
                         "when the model is loaded"
                : std::string("PTX only (no ptxas was found when compiling), "
                              "which the driver compiles when the model is "
                              "loaded")) +
         needs;
}
