//===- BatchRows.h - Does a function compute each batch row alone? -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// An analysis of an entry function in linalg on tensors: whether row i of
// every result (its first dimension, the batch) depends only on row i of
// every argument. Such a function computes a batch of N as N/c runs on
// slices of c rows, which the compiler uses to keep a run's activations in
// the cache (compiler/driver/BatchChunks.cpp, docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_BATCHROWS_H
#define TFAOT_PASSES_BATCHROWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tfaot {

/// What the per-row computation of a function reads and writes.
struct BatchRowTraffic {
  /// The most bytes one op touches for one row: its operands and result
  /// that carry the batch, divided by the batch.
  int64_t peakBytesPerRow = 0;
  /// Per row: the bytes of every op's batch-carrying operands and results.
  int64_t bytesPerRow = 0;
  /// Bytes of the operands that do not carry the batch (weights), counted
  /// once per op that reads them: what each extra run reads again.
  int64_t invariantBytes = 0;
};

/// Whether every result row of `func` depends only on the same row of its
/// arguments, where every argument and result has `batch` as its first
/// dimension. The function must be in linalg on tensors (after
/// tfaot-lower-to-linalg). Returns nullopt with the first op that mixes
/// rows, or that the analysis does not know, in `why`; the answer is
/// conservative: any op it does not understand makes it say no.
std::optional<BatchRowTraffic> analyzeBatchRows(func::FuncOp func,
                                                int64_t batch,
                                                std::string &why);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_BATCHROWS_H
