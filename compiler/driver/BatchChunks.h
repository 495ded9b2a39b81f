//===- BatchChunks.h - A batch computed as runs over slices of it -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A batch of N images computed at once reads and writes N images of
// activations per layer; MobileNetV2's first layers at batch 8 write 38 MB,
// more than the L3 cache, so every layer goes to memory, and a batch of 8
// took 27% longer per image than a batch of 1 (2-core Zen 5). When every
// row of the graph's results depends only on the same row of its inputs
// (passes/BatchRows.h), the entry for batch N can instead run the graph
// compiled for c rows N/c times, on consecutive slices of its arguments and
// results, with one arena of the c-row size: `--batch_chunk`
// (docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_DRIVER_BATCHCHUNKS_H
#define TFAOT_COMPILER_DRIVER_BATCHCHUNKS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tfaot {

/// Whether `flag` is a valid --batch_chunk: "auto", "off" or a positive
/// number of rows (then in `rows`; 0 otherwise).
bool parseBatchChunk(llvm::StringRef flag, int64_t &rows);

/// The rows per run for an entry of batch `batch` whose graph (the tfaot
/// dialect, after the graph passes) is `module` with entry `symbol`, as
/// --batch_chunk `flag` (valid: parseBatchChunk) asks: 0 runs
/// the whole batch at once. `note` says why, for --report. A number that
/// does not divide the batch leaves it whole (it may divide another
/// bucket's); one asked of a graph that mixes rows sets `error`.
int64_t chooseBatchChunk(mlir::ModuleOp module, llvm::StringRef symbol,
                         int64_t batch, llvm::StringRef flag,
                         std::string &note, std::string &error);

/// Adds to `module` (the LLVM dialect, holding `chunkSymbol`, the entry for
/// one chunk) the entry `entrySymbol` with the same parameters: it calls
/// the chunk `runs` times, parameter i advanced by `sliceBytes[i]` bytes
/// per run (the arena, the last parameter when there are more parameters
/// than slices, is passed unchanged). The chunk becomes internal.
bool appendBatchLoop(mlir::ModuleOp module, llvm::StringRef chunkSymbol,
                     llvm::StringRef entrySymbol, int64_t runs,
                     llvm::ArrayRef<int64_t> sliceBytes, std::string &error);

} // namespace tfaot

#endif // TFAOT_COMPILER_DRIVER_BATCHCHUNKS_H
