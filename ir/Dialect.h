//===- Dialect.h - The tfaot dialect ----------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declares the dialect class generated from Base.td.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_DIALECT_H
#define TFAOT_IR_DIALECT_H

#include "mlir/IR/Dialect.h"

#include "ir/Dialect.h.inc"

#endif // TFAOT_IR_DIALECT_H
