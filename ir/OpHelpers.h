//===- OpHelpers.h - Checks the tfaot op files share ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The verifier and folder helpers used by more than one of Ops.cpp,
// ElementwiseOps.cpp, NnOps.cpp, ShapeOps.cpp and OpFolders.cpp (each
// defined in the file named below). Internal to ir/.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_OPHELPERS_H
#define TFAOT_IR_OPHELPERS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::tfaot::op_helpers {

/// Checks that two dimensions agree when both are static (Ops.cpp).
bool dimsCompatible(int64_t a, int64_t b);

/// Compares a computed shape with a result type (ShapeOps.cpp).
LogicalResult checkResultShape(Operation *op, ArrayRef<int64_t> want,
                               RankedTensorType got);

/// The values of an integer constant as int64, or nullopt (OpFolders.cpp).
std::optional<SmallVector<int64_t>> intValues(Attribute attr);

/// Builds an integer constant of `type` from int64 values (OpFolders.cpp).
Attribute intAttr(ShapedType type, ArrayRef<int64_t> values);

} // namespace mlir::tfaot::op_helpers

#endif // TFAOT_IR_OPHELPERS_H
