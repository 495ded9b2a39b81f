//===- ListOps.h - ops of TF's lists and TensorArrays -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declares the ops generated from ListOps.td. Include it only where they are
// built or lowered (see ListOps.td for why they have their own file).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_LISTOPS_H
#define TFAOT_IR_LISTOPS_H

#include "ir/Dialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ir/ListOps.h.inc"

#endif // TFAOT_IR_LISTOPS_H
