//===- ImportListOps.h - TensorList and TensorArrayV3 importers -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The importers ImportListOps.cpp and ImportRunTimeLengthLists.cpp (the
// lists of run-time length: EmptyTensorList, PushBack, PopBack) define,
// for OpImporters.cpp's table. They have their own header rather than a
// block in ImportHelpers.h, which every importer file includes, so that
// changing them rebuilds few files.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_IMPORTLISTOPS_H
#define TFAOT_COMPILER_FRONTEND_IMPORTLISTOPS_H

#include "compiler/frontend/OpImporters.h"

#include "mlir/IR/BuiltinOps.h"

namespace tfaot {

mlir::FailureOr<mlir::Value> importTensorListReserve(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListFromTensor(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListSetItem(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListGetItem(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListStack(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListGather(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListScatter(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value>
importTensorListScatterIntoExistingList(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListLength(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value>
importTensorListElementShape(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importEmptyTensorList(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListPushBack(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorListPopBack(NodeImportContext &ctx);

mlir::FailureOr<mlir::Value> importTensorArrayV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArrayWriteV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArrayReadV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArrayGatherV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArrayScatterV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArrayConcatV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArraySplitV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArraySizeV3(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importTensorArrayCloseV3(NodeImportContext &ctx);

/// Fails, naming the variable, if one of a loop's `vars` is a list whose
/// element shape is still unknown: the body sees only the variable's type,
/// so the shape must be known on entry (from element_shape or a write
/// before the loop).
mlir::LogicalResult checkLoopCarriedLists(NodeImportContext &ctx,
                                          mlir::ValueRange vars);

/// Removes what only the import of lists needs, once every node is
/// imported: the tag of the lists of run-time length in the types
/// (EmptyTensorList with max_num_elements) and the attributes that mark
/// lists waiting for their first write, so that the passes see plain
/// tensors and constants.
void stripListImportMarks(mlir::ModuleOp module);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_IMPORTLISTOPS_H
