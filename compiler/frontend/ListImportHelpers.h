//===- ListImportHelpers.h - Shared by the two list importers --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What ImportListOps.cpp (lists whose length is known at import: Reserve,
// FromTensor, TensorArrayV3, lists of lists) and ImportRunTimeLengthLists.cpp
// (EmptyTensorList with max_num_elements, PushBack and PopBack) both use.
// A list is a tensor [n, element...]; the functions are documented where
// they are defined. Only those two files include this header.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_LISTIMPORTHELPERS_H
#define TFAOT_COMPILER_FRONTEND_LISTIMPORTHELPERS_H

#include "compiler/frontend/OpImporters.h"
#include "tfaot/runtime/check_kinds.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tfaot::lists {

/// An element shape as TF gives it: std::nullopt for an unknown rank, -1 for
/// an unknown dimension.
using PartialShape = std::optional<llvm::SmallVector<int64_t>>;

/// Marks the constant that stands for a list whose element shape is not
/// known yet; its value is the partially known shape (-1 for unknown
/// dimensions), absent for an unknown rank.
inline constexpr llvm::StringLiteral kUnshapedList = "tfaot.unshaped_list";
inline constexpr llvm::StringLiteral kPartialShape = "tfaot.partial_shape";
/// Marks the marker of a list of lists (element_dtype DT_VARIANT) that no
/// inner list was written into yet: its first write gives the inner lists'
/// element type and shape as well.
inline constexpr llvm::StringLiteral kListOfLists = "tfaot.list_of_lists";

// Shapes, types and attributes (ImportListOps.cpp).
std::string shapeString(llvm::ArrayRef<int64_t> shape);
bool isFullyKnown(const PartialShape &shape);
llvm::SmallVector<int64_t> withLeading(int64_t n,
                                       llvm::ArrayRef<int64_t> shape);
mlir::FailureOr<PartialShape> elementShapeOperand(NodeImportContext &ctx,
                                                  unsigned i);
bool isVariantAttr(NodeImportContext &ctx, const char *name);
mlir::FailureOr<mlir::Type> elementTypeAttr(NodeImportContext &ctx,
                                            const char *name);
int64_t numElements(mlir::Value list);
llvm::ArrayRef<int64_t> elementShapeOf(mlir::Value list);
mlir::Type elementTypeOf(mlir::Value list);
mlir::Operation *unshapedMarker(mlir::Value list);

// Building and checking lists (ImportListOps.cpp).
mlir::Value buildZeros(NodeImportContext &ctx, llvm::ArrayRef<int64_t> shape,
                       mlir::Type elementType);
mlir::Value buildZeroList(NodeImportContext &ctx, int64_t n,
                          llvm::ArrayRef<int64_t> shape,
                          mlir::Type elementType);
mlir::FailureOr<mlir::Value> buildNewList(NodeImportContext &ctx, int64_t n,
                                          const PartialShape &shape,
                                          mlir::Type elementType);
mlir::FailureOr<mlir::Value> requireShaped(NodeImportContext &ctx,
                                           mlir::Value list,
                                           const char *dtypeAttr);
mlir::FailureOr<mlir::Value> prepareForWrite(NodeImportContext &ctx,
                                             mlir::Value list,
                                             llvm::ArrayRef<int64_t> itemShape,
                                             mlir::Type itemType);
mlir::LogicalResult checkReadShape(NodeImportContext &ctx, unsigned i,
                                   mlir::Value list);
mlir::Value buildRead(NodeImportContext &ctx, mlir::Value list,
                      mlir::Value indices);
mlir::Value buildCheck(NodeImportContext &ctx, IndexCheckKind kind,
                       mlir::Value value, mlir::Value length, int64_t bound);

// Lists of run-time length (ImportRunTimeLengthLists.cpp).
bool hasRunTimeLength(mlir::Value list);
mlir::LogicalResult refuseRunTimeLength(NodeImportContext &ctx);
mlir::LogicalResult checkItem(NodeImportContext &ctx, mlir::Value list,
                              mlir::RankedTensorType item);
mlir::Value buildLength(NodeImportContext &ctx, mlir::Value list);
mlir::Value buildReadAtRunTimeLength(NodeImportContext &ctx, mlir::Value list,
                                     mlir::Value index);
mlir::Value buildWriteAtRunTimeLength(NodeImportContext &ctx,
                                      mlir::Value list, mlir::Value index,
                                      mlir::Value item);
mlir::FailureOr<mlir::Value>
buildStackOfRunTimeLength(NodeImportContext &ctx, mlir::Value list);

} // namespace tfaot::lists

#endif // TFAOT_COMPILER_FRONTEND_LISTIMPORTHELPERS_H
