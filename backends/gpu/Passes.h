//===- Passes.h - CUDA backend passes ---------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declarations generated from backends/gpu/Passes.td (the create functions
// of tfaot's own GPU passes and their options) and their registration,
// registerTfaotGpuPasses().
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_PASSES_H
#define TFAOT_BACKENDS_GPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {

/// The generic tfaot-gpu-direct-depthwise makes of a depthwise convolution
/// carries its window under this name (input shape, taps, strides,
/// dilations, low padding), for tfaot-gpu-tiled-depthwise.
inline constexpr llvm::StringLiteral kDepthwiseWindowAttr =
    "tfaot.depthwise_window";

#define GEN_PASS_DECL
#include "backends/gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "backends/gpu/Passes.h.inc"

} // namespace mlir::tfaot

#endif // TFAOT_BACKENDS_GPU_PASSES_H
