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

namespace tfaot {

mlir::FailureOr<mlir::Value> importNonMaxSuppression(NodeImportContext &ctx);
mlir::FailureOr<mlir::Value> importWhere(NodeImportContext &ctx);

/// A tensor sized for an upper bound along `dim`, of which the first
/// `count` (a scalar int32 tensor computed at run time) entries are valid.
struct BoundedDim {
  mlir::Value count;
  int64_t dim = 0;
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
  /// Marks `to` (the folded or replaced value of `from`) bounded like it.
  void forward(mlir::Value from, mlir::Value to);
  const BoundedDim *lookup(mlir::Value value) const {
    auto it = bounds_.find(value);
    return it == bounds_.end() ? nullptr : &it->second;
  }

private:
  llvm::DenseMap<mlir::Value, BoundedDim> bounds_;
};

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_IMPORTDATADEPENDENTOPS_H
