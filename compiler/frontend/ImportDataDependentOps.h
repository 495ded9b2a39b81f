//===- ImportDataDependentOps.h - NMS, Where and bounded shapes -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the frontend. The importers of the ops whose output size
// depends on values (NonMaxSuppressionV2-V5, Where), and BoundTracker, which
// follows their bounded outputs through the graph (docs/dynamic-shapes.md).
// Apart from ImportHelpers.h so that only OpImporters.cpp and
// GraphImporter.cpp depend on it.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_IMPORTDATADEPENDENTOPS_H
#define TFAOT_COMPILER_FRONTEND_IMPORTDATADEPENDENTOPS_H

#include "compiler/frontend/OpImporters.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace tfaot {

mlir::FailureOr<mlir::Value> importNonMaxSuppression(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importWhere(NodeImportContext &ctx);

/// A tensor sized for an upper bound along `dim`, of which the first
/// `count` (a scalar int32 tensor computed at run time) entries are valid.
struct BoundedDim {
  mlir::Value count;
  int64_t dim = 0;
};

/// An integer tensor computed at run time from one count, element i being
/// offset[i] + scale[i] * count (row-major): the Shape of a bounded value
/// and the arithmetic on it (a slice of it, `limit - n`, a Pack of paddings)
/// that TF's "pad to a fixed size" idiom builds. The values are computed at
/// run time as usual; this is what the importer knows of them.
struct CountExpr {
  mlir::Value count;
  llvm::SmallVector<int64_t> offset, scale;
};

/// A tensor of `fill` whose size along `dim` is `size - count`: a Fill
/// whose dims a CountExpr gives (TF's `zeros([limit - n])`). Only a
/// concatenation after a value bounded by the same count can use it, which
/// then has the static size `size`.
struct CountComplement {
  mlir::Value count;
  int64_t dim = 0;
  int64_t size = 0;
  mlir::Value fill;
};

/// Which values of the function being imported are bounded, and along
/// which dim. Values whose entries past the count are padding may only
/// flow into ops that keep each entry apart (elementwise ops, casts, the
/// indices of a GatherV2); any other consumer would mix padding into real
/// results, so it is refused with an error naming the node.
class BoundTracker {
public:
  /// After `node` was imported into `outputs` from `operands`: records the
  /// bounds of its outputs, or reports an error and fails if it consumes a
  /// bounded operand in a way that padding would change.
  mlir::LogicalResult record(const tensorflow::NodeDef &node,
                             llvm::ArrayRef<mlir::Value> operands,
                             llvm::ArrayRef<mlir::Value> outputs,
                             GraphDiagnostics &diags);
  /// Imports the nodes that need to know the bounds before they are built
  /// (ImportBoundedOps.cpp): Shape of a bounded value, a Pad or ConcatV2
  /// that pads one to a static size, a Fill sized by a count; or prepares
  /// the operands of one that is then imported as usual (NonMaxSuppression
  /// of bounded boxes, GatherV2 from bounded params). Returns the node's
  /// outputs, failure after an error, or std::nullopt to import the node as
  /// usual.
  std::optional<mlir::FailureOr<llvm::SmallVector<mlir::Value>>>
  importBounded(NodeImportContext &ctx);
  /// Marks `to` (the folded or replaced value of `from`) bounded like it.
  void forward(mlir::Value from, mlir::Value to);
  const BoundedDim *lookup(mlir::Value value) const {
    auto it = bounds_.find(value);
    return it == bounds_.end() ? nullptr : &it->second;
  }
  const CountExpr *lookupCountExpr(mlir::Value value) const {
    auto it = countExprs_.find(value);
    return it == countExprs_.end() ? nullptr : &it->second;
  }

private:
  /// After `node` was imported as usual from operands of which some are
  /// CountExprs: records its output as one if the node is affine in them.
  void recordCountExpr(const tensorflow::NodeDef &node,
                       llvm::ArrayRef<mlir::Value> operands,
                       mlir::Value output);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importShapeOfBounded(NodeImportContext &ctx, const BoundedDim &bound);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importPadOfBounded(NodeImportContext &ctx, const BoundedDim &bound);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importFillOfCount(NodeImportContext &ctx, const CountExpr &dims);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importConcatToStatic(NodeImportContext &ctx);
  mlir::LogicalResult maskBoundedScores(NodeImportContext &ctx);
  mlir::LogicalResult checkBoundedParamsGather(NodeImportContext &ctx,
                                               const BoundedDim &params);

  llvm::DenseMap<mlir::Value, BoundedDim> bounds_;
  llvm::DenseMap<mlir::Value, CountExpr> countExprs_;
  llvm::DenseMap<mlir::Value, CountComplement> complements_;
};

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_IMPORTDATADEPENDENTOPS_H
