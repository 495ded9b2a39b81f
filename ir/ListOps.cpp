//===- ListOps.cpp - verifiers of the list ops --------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The C++ of ListOps.td.
//
//===----------------------------------------------------------------------===//
#include "ir/ListOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tfaot;

#define GET_OP_CLASSES
#include "ir/ListOps.cpp.inc"

LogicalResult ListSetItemOp::verify() {
  RankedTensorType list = getList().getType(), item = getItem().getType();
  if (list.getRank() < 1 || list.getShape().drop_front() != item.getShape())
    return emitOpError("needs an item of the list's element shape: list ")
           << list << ", item " << item;
  return success();
}
