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
/// Unique (ImportCountOps.cpp): y bounded, idx, and the count as output 2.
mlir::FailureOr<mlir::Value> importUnique(NodeImportContext &ctx);

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
  /// Non-null when the value equals offset + scale * count only as the
  /// size operand of a Slice of a value whose run-time size is
  /// `sliceOf`: TF's `where(n > limit, limit, -1)` (-1 meaning "to the
  /// end", so min(n, limit) entries), whose actual value is -1 when n <=
  /// limit. Nothing else may read it as that count.
  mlir::Value sliceOf;
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
  /// The largest value a count (a scalar int32 computed at run time) can
  /// have, known at compile time, or std::nullopt for a value that is no
  /// count.
  std::optional<int64_t> countBound(mlir::Value count) const {
    auto it = countBounds_.find(count);
    return it == countBounds_.end() ? std::nullopt
                                    : std::optional<int64_t>(it->second);
  }
  /// The count that `value` (a scalar) equals at run time, if it is one:
  /// a count itself or an element of a bounded value's Shape.
  mlir::Value asCount(mlir::Value value) const;

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
  /// A new count: `value` (a scalar int32) is one at run time, at most
  /// `bound`.
  void recordCount(mlir::Value value, int64_t bound);
  /// After a Minimum, Maximum or Select node imported as usual: records its
  /// output as a count if its operands are counts and constants
  /// (ImportCountOps.cpp).
  void recordDerivedCount(const tensorflow::NodeDef &node,
                          llvm::ArrayRef<mlir::Value> operands,
                          mlir::Value output);
  // ImportCountOps.cpp: ops whose size or meaning a count gives.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importFillToCount(NodeImportContext &ctx, const CountExpr &dims);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importRangeToCount(NodeImportContext &ctx, mlir::Value count);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importTopKOfBounded(NodeImportContext &ctx, const BoundedDim &bound);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importReductionOfBounded(NodeImportContext &ctx, const BoundedDim &bound);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importSliceOfBounded(NodeImportContext &ctx, const BoundedDim &bound);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importMeanOfBounded(NodeImportContext &ctx, const BoundedDim &bound);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importArgMaxOrMinOfBounded(NodeImportContext &ctx, const BoundedDim &bound);
  /// Bounded indices (operand `i` of a GatherV2 or GatherNd) whose padding
  /// may not be 0 (an elementwise op changed it: + 5) get it replaced by 0,
  /// an index always in range, so that the gather never reads past the
  /// params for a padding entry, nor fails the run-time check for one.
  void zeroIndicesPadding(NodeImportContext &ctx, unsigned i);
  std::optional<mlir::FailureOr<llvm::SmallVector<mlir::Value>>>
  importClipSize(NodeImportContext &ctx);
  /// Operands that are CountExprs not depending on the count (a static dim
  /// of a bounded value's Shape) replaced by their constant values, so that
  /// ops that need constants (and folding) see them.
  void substituteStaticCountExprs(NodeImportContext &ctx);
  mlir::LogicalResult checkBoundedParamsGather(NodeImportContext &ctx,
                                               const BoundedDim &params);

  llvm::DenseMap<mlir::Value, BoundedDim> bounds_;
  llvm::DenseMap<mlir::Value, CountExpr> countExprs_;
  llvm::DenseMap<mlir::Value, CountComplement> complements_;
  llvm::DenseMap<mlir::Value, int64_t> countBounds_;
};

/// `x` with the entries at positions >= `count` along `dim` replaced by
/// `fill` (a scalar): SelectV2(iota < count, x, fill).
mlir::Value maskPastCount(NodeImportContext &ctx, mlir::Value x, int64_t dim,
                          mlir::Value count, mlir::Value fill);
/// `values` as a constant of `type` (an integer tensor type).
mlir::DenseElementsAttr intsAttr(mlir::RankedTensorType type,
                                 llvm::ArrayRef<int64_t> values);
/// The error for a use of bounded input `input` that tfaot refuses, `why`
/// saying what it supports.
mlir::LogicalResult refuseBounded(NodeImportContext &ctx, unsigned input,
                                  const llvm::Twine &why);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_IMPORTDATADEPENDENTOPS_H
