//===- Pipeline.h - CPU lowering pipelines ----------------------*- C++ -*-===//
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

/// Adds tfaot -> bufferized memref code to `pm`.
mlir::LogicalResult buildBufferizePipeline(mlir::OpPassManager &pm);

/// Adds bufferized code -> LLVM dialect to `pm`.
mlir::LogicalResult buildToLLVMPipeline(mlir::OpPassManager &pm);

/// Registers both pipelines (and the upstream passes they name).
void registerCpuPipelines();

/// Bytes of scratch memory a bufferized function allocates per call (the sum
/// of its static memref.alloc sizes: an upper bound, since buffers are not
/// yet reused).
uint64_t countTempBytes(mlir::ModuleOp module);

} // namespace tfaot::cpu

#endif // TFAOT_BACKENDS_CPU_PIPELINE_H
