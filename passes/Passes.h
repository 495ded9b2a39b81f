//===- Passes.h - tfaot graph and lowering passes ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declarations generated from Passes.td, and their registration.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_PASSES_H
#define TFAOT_PASSES_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
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

/// Module attribute: "none" (tfaot compile --runtime_checks=none, and every
/// --target=cuda build) makes tfaot-lower-to-linalg emit no run-time checks
/// of indices read from data; absent or "all", it emits them. An attribute
/// rather than a pass option, so that the backends' textual pipelines stay
/// one string each.
inline constexpr char kRuntimeChecksAttr[] = "tfaot.runtime_checks";

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_PASSES_H
