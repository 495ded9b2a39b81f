//===- Dialect.cpp - The tfaot dialect --------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Registers the ops of Ops.td, DataDependentOps.td, ListOps.td and
// ScanOps.td; everything op-specific is in Ops.cpp, DataDependentOps.cpp,
// ListOps.cpp, ScanOps.cpp and the files they name.
//
//===----------------------------------------------------------------------===//
#include "ir/Dialect.h"
#include "ir/DataDependentOps.h"
#include "ir/ListOps.h"
#include "ir/ScanOps.h"
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
  // The list ops come from their own tablegen target (ListOps.td).
  addOperations<
#define GET_OP_LIST
#include "ir/ListOps.cpp.inc"
      >();
  // And the scan ops from theirs (ScanOps.td).
  addOperations<
#define GET_OP_LIST
#include "ir/ScanOps.cpp.inc"
      >();
}
