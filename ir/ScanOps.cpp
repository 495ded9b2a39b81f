//===- ScanOps.cpp - verifiers of the scan ops ---------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The C++ of ScanOps.td.
//
//===----------------------------------------------------------------------===//
#include "ir/ScanOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tfaot;

#define GET_OP_CLASSES
#include "ir/ScanOps.cpp.inc"

LogicalResult CumsumOp::verify() {
  int64_t rank = getX().getType().getRank();
  // I64Attr's getter gives the bits unsigned.
  auto axis = static_cast<int64_t>(getAxis());
  if (rank < 1)
    return emitOpError("needs an input of rank >= 1, got a scalar");
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " is not in [0, " << rank << ")";
  return success();
}
