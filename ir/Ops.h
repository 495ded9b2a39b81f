//===- Ops.h - tfaot dialect operations -------------------------*- C++ -*-===//
//
// Declares the ops generated from Ops.td, plus the shape helpers their
// verifiers and the importer's type inference share.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_OPS_H
#define TFAOT_IR_OPS_H

#include "ir/Dialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ir/Ops.h.inc"

namespace mlir::tfaot {

/// NumPy/TensorFlow broadcast of two shapes (dynamic dims are
/// ShapedType::kDynamic). Returns failure if they are incompatible.
LogicalResult broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                              SmallVectorImpl<int64_t> &result);

/// Resolves a TF Reshape target shape (at most one -1) against the number of
/// input elements. Returns failure and sets `why` when it cannot.
LogicalResult resolveReshape(int64_t numElements, ArrayRef<int64_t> requested,
                             SmallVectorImpl<int64_t> &result,
                             std::string &why);

/// The integer values of `value` if it is a constant (looking through
/// tfaot.Identity, as TF graphs often read constants via "x/read").
std::optional<SmallVector<int64_t>> getConstantIntValues(Value value);

} // namespace mlir::tfaot

#endif // TFAOT_IR_OPS_H
