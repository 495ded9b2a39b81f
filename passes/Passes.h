//===- Passes.h - tfaot graph and lowering passes ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declarations generated from Passes.td, and their registration.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_PASSES_H
#define TFAOT_PASSES_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_PASSES_H
