//===- ContractionEpilogues.h - Epilogues of vectorized products -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The elementwise ops tfaot-fuse-epilogues leaves right after a product
// (bias, activation, residual add, over the product's output buffer), as
// tfaot-vectorize-contractions handles them: applied tile by tile, right
// after each tile's accumulators are written, rather than in a second pass
// over the whole output; and otherwise vectorized one row per vector.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_CONTRACTIONEPILOGUES_H
#define TFAOT_BACKENDS_CPU_CONTRACTIONEPILOGUES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace tfaot::cpu {

/// `op` tiled by `sizes` (one per loop; 0 keeps a loop whole) where it
/// stands: its tile loops and its one tiled op, or failure. `op` stays for
/// the caller to erase.
mlir::FailureOr<mlir::scf::SCFTilingResult>
tileInPlace(mlir::RewriterBase &rewriter, mlir::Operation *op,
            mlir::ArrayRef<mlir::OpFoldResult> sizes);

/// The linalg.fill right before `op` that writes all of `op`'s one output
/// buffer (the zeroing tfaot-fuse-epilogues puts before each product), or
/// null.
mlir::linalg::FillOp fillOfOutput(mlir::linalg::LinalgOp op);

/// The elementwise generic right after `product` that reads and writes its
/// whole output buffer (its one init is that buffer, with the identity
/// map), or null.
mlir::linalg::GenericOp epilogueOf(mlir::linalg::LinalgOp product);

/// Rewrites `epilogue`, a generic over a depthwise convolution's NHWCM
/// output with multiplier 1, over `narrowOutput` (the same buffer without
/// M), so that it matches the narrowed convolution: operands read with
/// the identity map lose M the same way, a per-channel C x 1 operand
/// becomes C. Returns the new generic, or null (and changes nothing) if an
/// operand is read any other way.
mlir::linalg::GenericOp narrowEpilogue(mlir::RewriterBase &rewriter,
                                       mlir::linalg::GenericOp epilogue,
                                       mlir::Value narrowOutput);

/// Applies `epilogue` to one output tile of its product, at the end of
/// `tileLoop`'s body (the innermost loop over the product's output tiles,
/// after the tile's accumulators are written), where `outputTile` is the
/// tile's view of the output. The tile's piece of the epilogue is vectorized
/// one row at a time: the rows it reads are those just written, which LLVM
/// then takes from the registers. The accumulators are written to a
/// one-tile stack buffer rather than the output (unless the epilogue reads
/// the output elsewhere too), so that the output is stored once, by the
/// epilogue. Returns false, changing nothing, where the tile's piece would
/// not be one vector per row; the caller erases `epilogue` on success.
bool applyEpilogueByTiles(mlir::RewriterBase &rewriter,
                          mlir::linalg::GenericOp epilogue,
                          mlir::scf::ForOp tileLoop,
                          mlir::memref::SubViewOp outputTile,
                          int64_t lanes);

/// Whether `op` is an elementwise generic (an epilogue, mostly) whose
/// innermost loop is the contiguous last dimension of every operand that
/// reads along it and spans at most four vectors of `lanes`: what
/// vectorizeByRows handles.
bool isNarrowElementwise(mlir::linalg::GenericOp op, int64_t lanes);

/// Vectorizes `op` one row of its innermost dimension at a time, as one
/// vector per row.
void vectorizeByRows(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op);

} // namespace tfaot::cpu

#endif // TFAOT_BACKENDS_CPU_CONTRACTIONEPILOGUES_H
