//===- Pipeline.h - CPU lowering pipelines ----------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot dialect -> LLVM dialect for the CPU backend, in two named halves so
// the driver can measure memory between them and lit tests can run each:
//   --tfaot-cpu-bufferize : tfaot -> linalg on tensors -> memrefs, results
//                           turned into caller-provided out-parameters;
//   --tfaot-cpu-to-llvm   : memrefs/loops -> LLVM dialect, bare-pointer ABI.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_PIPELINE_H
#define TFAOT_BACKENDS_CPU_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>

namespace tfaot::cpu {

/// Adds tfaot -> bufferized memref code to `pm`. `convAlgorithm` is
/// --conv_algorithm: "direct", or "winograd" / "auto" for
/// tfaot-winograd-convolutions. tfaot compile passes its default, auto; the
/// default here, direct, is what tfaot-opt's tfaot-cpu-bufferize pipeline
/// (and the lit tests that run it) gets. `bf16` (--precision=bf16) makes the
/// convolutions and matrix products with constant weights bf16 products
/// summed in float32 (tfaot-cpu-bf16-contractions); `amxBf16` says that
/// the target has AMX-BF16, whose bf16 products beat fp32 Winograd on
/// every layer, so that bf16 with auto then uses no Winograd. `f32Panels`
/// (--cpu_gemm=auto on an AVX-512 target) gives the float32 products with
/// large weights and small results, and Winograd's batched products, to the
/// runtime's packed kernel (tfaot-cpu-f32-panel-products).
mlir::LogicalResult buildBufferizePipeline(
    mlir::OpPassManager &pm, llvm::StringRef convAlgorithm = "direct",
    bool bf16 = false, bool amxBf16 = false, bool f32Panels = false);

/// Adds bufferized code -> LLVM dialect to `pm`. `vectorBits` is the width of
/// the target's vector registers (cpu::vectorBitsFor), which sizes the
/// contraction kernels' tiles; `profile` adds tfaot-instrument-profile;
/// an entry function of more than `maxFunctionOps` operations is cut into
/// functions of about that size (tfaot-split-entry; 0: never; -1: the
/// pass's default, kSplitEntryMaxOps in passes/SplitEntry.h).
mlir::LogicalResult buildToLLVMPipeline(mlir::OpPassManager &pm,
                                        unsigned vectorBits,
                                        bool profile = false,
                                        int64_t maxFunctionOps = -1);

/// Registers both pipelines (and the upstream passes they name).
void registerCpuPipelines();

/// Registers tfaot-cpu-int8-ukernels (Int8Ukernels.cpp).
void registerInt8UkernelPass();

/// Registers tfaot-cpu-bf16-contractions (Bf16Contractions.cpp).
void registerBf16ContractionsPass();

/// Registers tfaot-cpu-f32-panel-products (F32PanelProducts.cpp).
void registerF32PanelProductsPass();

} // namespace tfaot::cpu

#endif // TFAOT_BACKENDS_CPU_PIPELINE_H
