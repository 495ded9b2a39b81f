//===- LowerDataDependentOps.h - NMS and Where to runtime calls -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg, declared apart from LoweringUtils.h so
// that only LowerToLinalg.cpp depends on it.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_LOWERDATADEPENDENTOPS_H
#define TFAOT_PASSES_LOWERDATADEPENDENTOPS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tfaot {

/// NonMaxSuppression and Where to calls of the runtime (data_dependent.h);
/// BoundedDims to tensor.from_elements.
void populateDataDependentLoweringPatterns(RewritePatternSet &patterns,
                                           const TypeConverter &converter);

/// Declares the runtime functions those calls need, if the module uses them.
void declareDataDependentRuntime(ModuleOp module);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_LOWERDATADEPENDENTOPS_H
