//===- Dialect.cpp - The tfaot dialect --------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Registers the ops; everything op-specific is in Ops.cpp and the files
// it names.
//
//===----------------------------------------------------------------------===//
#include "ir/Dialect.h"
#include "ir/DataDependentOps.h"
#include "ir/Ops.h"

using namespace mlir;
using namespace mlir::tfaot;

#include "ir/Dialect.cpp.inc"

void TfaotDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/Ops.cpp.inc"
      >();
  // A second list, from DataDependentOps.td, as linalg adds its structured
  // ops beside LinalgOps.
  addOperations<
#define GET_OP_LIST
#include "ir/DataDependentOps.cpp.inc"
      >();
}
