//===- ScanOps.h - running reductions (TF's Cumsum) -----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declares the ops generated from ScanOps.td. Include it only where they are
// built or lowered (see ScanOps.td for why they have their own file).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_SCANOPS_H
#define TFAOT_IR_SCANOPS_H

#include "ir/Dialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ir/ScanOps.h.inc"

#endif // TFAOT_IR_SCANOPS_H
