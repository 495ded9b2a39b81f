//===- RuntimeCalls.h - Constant data for runtime calls ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What the lowerings that call the runtime (index checks, NonMaxSuppression,
// Where) pass it besides buffers: static facts as private constant globals,
// by address. Defined in LowerIndexChecks.cpp, their first user.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_RUNTIMECALLS_H
#define TFAOT_PASSES_RUNTIMECALLS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tfaot {

/// The address (index) of a new private constant global holding `data`,
/// named `prefix`, or `prefix_N` when taken.
Value constantGlobal(ConversionPatternRewriter &rewriter, Location loc,
                     ModuleOp module, StringRef prefix, DenseElementsAttr data);

/// The address of a constant global holding `values` as int64 (one unused
/// element when empty, so that it has an address).
Value i64Global(ConversionPatternRewriter &rewriter, Location loc,
                ModuleOp module, StringRef prefix, ArrayRef<int64_t> values);

/// The address of a NUL-terminated constant global holding `text`.
Value textGlobal(ConversionPatternRewriter &rewriter, Location loc,
                 ModuleOp module, StringRef prefix, StringRef text);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_RUNTIMECALLS_H
