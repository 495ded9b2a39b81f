//===- DataDependentOps.h - Ops whose output size depends on data -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declares the ops of DataDependentOps.td (NonMaxSuppression, Where,
// BoundedDims). Included only by the files that use them.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_DATADEPENDENTOPS_H
#define TFAOT_IR_DATADEPENDENTOPS_H

#include "ir/Dialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ir/DataDependentOps.h.inc"

#endif // TFAOT_IR_DATADEPENDENTOPS_H
