//===- DeviceImage.h - PTX, cubin and the embedded kernel image -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// After --tfaot-gpu-to-nvvm a module holds one gpu.binary with the PTX of
// its kernels. This takes the PTX out, assembles it with ptxas when ptxas is
// installed, and packs both into the image the host object embeds (layout:
// runtime/include/tfaot/runtime/cuda_image.h).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_DEVICEIMAGE_H
#define TFAOT_BACKENDS_GPU_DEVICEIMAGE_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tfaot::gpu {

/// The PTX of the module's gpu.binary (empty if it has no kernels). False,
/// with `error` set, if the binary is not PTX.
bool extractPtx(mlir::ModuleOp module, std::string &ptx, std::string &error);

/// The CUDA toolkit whose libdevice (nvvm/libdevice/libdevice.10.bc) the
/// kernels' math functions (exp, tanh, ...) are linked from: the first of
/// $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT, /usr/local/cuda that has it, or
/// $TFAOT_CUDA_PATH alone when set; empty if none has.
std::string findCudaToolkit();

/// False, with `error` naming them, if the PTX calls functions it does not
/// define (libdevice's, when no toolkit was found): the driver could not
/// load it.
bool checkPtxSelfContained(const std::string &ptx, std::string &error);

/// The ptxas to use: $TFAOT_PTXAS if set (a path that does not exist turns
/// assembly off), else /usr/local/cuda/bin/ptxas; empty if there is none.
std::string findPtxas();

/// Runs `ptxas --gpu-name <arch>` on `ptx`. False, with ptxas's messages in
/// `error`, if it rejects it.
bool assembleCubin(const std::string &ptxas, const std::string &ptx,
                   const std::string &arch, std::string &cubin,
                   std::string &error);

/// Packs `cubin` (may be empty) and `ptx` for `arch` ("sm_90").
std::string packImage(const std::string &arch, const std::string &cubin,
                      const std::string &ptx);

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_DEVICEIMAGE_H
