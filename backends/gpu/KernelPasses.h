//===- KernelPasses.h - Shape bufferized code into GPU kernels --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot's own passes of the GPU pipeline (see KernelPasses.cpp for what each
// does); the upstream ones do the mapping, outlining and NVVM lowering.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_KERNELPASSES_H
#define TFAOT_BACKENDS_GPU_KERNELPASSES_H

namespace tfaot::gpu {

/// Registers tfaot-gpu-copies-to-linalg, tfaot-gpu-accumulate-in-registers,
/// tfaot-gpu-wrap-host-work,
/// tfaot-gpu-flatten-parallel-loops, tfaot-gpu-merge-kernel-modules,
/// tfaot-gpu-contract-fp and tfaot-gpu-check-host-code.
void registerKernelPasses();

/// Registers tfaot-gpu-convs-to-matmuls and tfaot-gpu-matmuls-to-cublas
/// (LibraryGemms.cpp).
void registerLibraryGemmPasses();

/// Registers tfaot-gpu-emulate-launches (EmulateLaunches.cpp).
void registerEmulateLaunchesPass();

/// Registers tfaot-gpu-split-small-reductions (SplitReductions.cpp).
void registerSplitReductionsPass();

/// Registers tfaot-gpu-define-emulated-gemm (EmulatedGemm.cpp).
void registerEmulatedGemmPass();

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_KERNELPASSES_H
