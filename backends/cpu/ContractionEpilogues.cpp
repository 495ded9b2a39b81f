//===- ContractionEpilogues.cpp - Epilogues of vectorized products --------===//
// SPDX-License-Identifier: Apache-2.0
//
// See ContractionEpilogues.h. Why by tiles: tfaot-fuse-epilogues leaves a
// product's bias and activation (and residual add) as a generic over the
// product's whole output, which ran as a second pass: every accumulator
// stored, loaded back, and stored again. Leaving the epilogues out of
// MobileNetV2 b1 (wrong results, to see what they cost) took 0.4-0.55 ms
// of its 6.8: a third of what its depthwise layers cost, and 5% of its
// 1x1 convolutions'. Applied to each tile right after its accumulators are
// written, the loads read what was just stored, and LLVM forwards the
// registers instead.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/ContractionEpilogues.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;

namespace tfaot::cpu {

FailureOr<scf::SCFTilingResult> tileInPlace(RewriterBase &rewriter,
                                            Operation *op,
                                            ArrayRef<OpFoldResult> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  return tiled;
}

linalg::FillOp fillOfOutput(linalg::LinalgOp op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || op.getNumDpsInits() != 1 || fill.getOutputs().size() != 1 ||
      fill.getOutputs().front() != op.getDpsInitOperand(0)->get())
    return {};
  return fill;
}

linalg::GenericOp epilogueOf(linalg::LinalgOp product) {
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(product->getNextNode());
  if (!epilogue || product.getNumDpsInits() != 1 ||
      epilogue.getNumDpsInits() != 1 || !epilogue.hasPureBufferSemantics() ||
      epilogue.hasDynamicShape() || epilogue.getNumReductionLoops() != 0 ||
      epilogue.hasIndexSemantics())
    return {};
  Value output = product.getDpsInitOperand(0)->get();
  OpOperand *init = epilogue.getDpsInitOperand(0);
  if (init->get() != output ||
      !epilogue.getMatchingIndexingMap(init).isIdentity())
    return {};
  // Tiling slices every operand by its map; the output itself may only be
  // read where it is written.
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation() ||
        (input->get() == output && !map.isIdentity()))
      return {};
  }
  return epilogue;
}

linalg::GenericOp narrowEpilogue(RewriterBase &rewriter,
                                 linalg::GenericOp epilogue,
                                 Value narrowOutput) {
  unsigned rank = epilogue.getNumLoops();
  if (rank < 2 || epilogue.getStaticLoopRanges().back() != 1 ||
      epilogue.hasIndexSemantics())
    return {};
  MLIRContext *context = rewriter.getContext();
  unsigned dropped = rank - 1;
  // Each input's map without the dropped loop, and the shape of its buffer
  // without the (unit) dimensions that loop indexed. All are checked before
  // any view is made.
  SmallVector<AffineMap> maps;
  SmallVector<SmallVector<int64_t>> keptShapes;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type)
      return {};
    SmallVector<AffineExpr> results;
    SmallVector<int64_t> &keptShape = keptShapes.emplace_back();
    for (auto [i, result] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim || (dim.getPosition() == dropped && type.getDimSize(i) != 1))
        return {};
      if (dim.getPosition() == dropped)
        continue;
      results.push_back(result);
      keptShape.push_back(type.getDimSize(i));
    }
    maps.push_back(AffineMap::get(rank - 1, 0, results, context));
  }
  SmallVector<Value> inputs;
  for (auto [input, keptShape] :
       llvm::zip(epilogue.getDpsInputOperands(), keptShapes)) {
    auto type = cast<MemRefType>(input->get().getType());
    inputs.push_back(
        keptShape.size() == static_cast<size_t>(type.getRank())
            ? input->get()
            : memref::createCanonicalRankReducingSubViewOp(
                  rewriter, epilogue.getLoc(), input->get(), keptShape));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank - 1, context));
  SmallVector<utils::IteratorType> iterators(rank - 1,
                                             utils::IteratorType::parallel);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(epilogue);
  auto narrow = linalg::GenericOp::create(rewriter, epilogue.getLoc(),
                                          TypeRange{}, inputs,
                                          ValueRange{narrowOutput}, maps,
                                          iterators);
  rewriter.inlineRegionBefore(epilogue.getRegion(), narrow.getRegion(),
                              narrow.getRegion().begin());
  rewriter.eraseOp(epilogue);
  return narrow;
}

namespace {

/// The chain of subviews from `tile` to `view` (outermost first), or
/// nothing when `view` is not reached from `tile` through subviews alone.
std::optional<SmallVector<memref::SubViewOp>> subviewsFrom(Value tile,
                                                           Value view) {
  SmallVector<memref::SubViewOp> chain;
  while (view != tile) {
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    if (!subview)
      return std::nullopt;
    chain.insert(chain.begin(), subview);
    view = subview.getSource();
  }
  return chain;
}

/// `chain`'s subviews taken again, in order, of `base`.
Value replaySubviews(OpBuilder &b, Value base,
                     ArrayRef<memref::SubViewOp> chain) {
  for (memref::SubViewOp subview : chain) {
    auto sourceType = cast<MemRefType>(base.getType());
    MemRefType type = memref::SubViewOp::inferRankReducedResultType(
        subview.getType().getShape(), sourceType, subview.getMixedOffsets(),
        subview.getMixedSizes(), subview.getMixedStrides());
    base = memref::SubViewOp::create(
        b, subview.getLoc(), type, base, subview.getMixedOffsets(),
        subview.getMixedSizes(), subview.getMixedStrides());
  }
  return base;
}

/// Why the accumulators go through the stack: the tile's accumulators were
/// stored into the output and the epilogue loaded them back. Where the
/// epilogue also reads another buffer (a residual), LLVM cannot tell that
/// buffer from the output, so the first stores stay: every output vector
/// was stored twice, to lines that are not in the cache yet. A stack
/// buffer that nothing else can reach lets LLVM forward the registers and
/// drop those stores.
linalg::GenericOp readAccumulatorsFromStack(RewriterBase &rewriter,
                                            linalg::GenericOp epilogue,
                                            linalg::GenericOp piece,
                                            scf::ForOp tileLoop,
                                            memref::SubViewOp outputTile) {
  Value output = epilogue.getDpsInitOperand(0)->get();
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == output)
      return piece;
  BlockArgument accumulator =
      piece.getMatchingBlockArgument(piece.getDpsInitOperand(0));
  MemRefType tileType = outputTile.getType();
  if (accumulator.use_empty() || !tileType.hasStaticShape())
    return piece;
  // The accumulators' stores: in the tile loop's body, before the piece,
  // into views of the output tile.
  SmallVector<
      std::pair<vector::TransferWriteOp, SmallVector<memref::SubViewOp>>>
      stores;
  for (Operation &op : tileLoop.getBody()->without_terminator()) {
    if (&op == piece.getOperation())
      break;
    auto write = dyn_cast<vector::TransferWriteOp>(op);
    if (!write)
      continue;
    std::optional<SmallVector<memref::SubViewOp>> chain =
        subviewsFrom(outputTile.getResult(), write.getBase());
    if (!chain)
      return piece;
    stores.emplace_back(write, std::move(*chain));
  }
  if (stores.empty())
    return piece;

  auto func = tileLoop->getParentOfType<FunctionOpInterface>();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
  Location loc = piece.getLoc();
  auto stack = memref::AllocaOp::create(
      rewriter, loc,
      MemRefType::get(tileType.getShape(), tileType.getElementType()),
      rewriter.getI64IntegerAttr(64));
  for (auto &[write, chain] : stores) {
    rewriter.setInsertionPoint(write);
    Value view = replaySubviews(rewriter, stack, chain);
    vector::TransferWriteOp::create(
        rewriter, write.getLoc(), write.getValueToStore(), view,
        write.getIndices(), write.getPermutationMapAttr(),
        write.getInBoundsAttr());
    rewriter.eraseOp(write);
  }

  // The piece again, reading the accumulators from the stack buffer as one
  // more input; the output becomes write-only.
  rewriter.setInsertionPoint(piece);
  SmallVector<Value> inputs(piece.getDpsInputs());
  inputs.push_back(stack);
  SmallVector<AffineMap> maps;
  for (OpOperand *input : piece.getDpsInputOperands())
    maps.push_back(piece.getMatchingIndexingMap(input));
  // The stack buffer has the output tile's shape: both take the output's
  // map.
  AffineMap outputMap =
      piece.getMatchingIndexingMap(piece.getDpsInitOperand(0));
  maps.push_back(outputMap);
  maps.push_back(outputMap);
  auto replacement = linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, inputs, piece.getDpsInits(), maps,
      piece.getIteratorTypesArray());
  rewriter.inlineRegionBefore(piece.getRegion(), replacement.getRegion(),
                              replacement.getRegion().begin());
  Block &body = replacement.getRegion().front();
  BlockArgument fromStack = body.insertArgument(
      inputs.size() - 1, accumulator.getType(), accumulator.getLoc());
  rewriter.replaceAllUsesWith(accumulator, fromStack);
  rewriter.eraseOp(piece);
  return replacement;
}

} // namespace

bool applyEpilogueByTiles(RewriterBase &rewriter, linalg::GenericOp epilogue,
                          scf::ForOp tileLoop, memref::SubViewOp outputTile,
                          int64_t lanes) {
  if (!outputTile ||
      outputTile.getSource() != epilogue.getDpsInitOperand(0)->get() ||
      outputTile.getType().getRank() !=
          static_cast<int64_t>(epilogue.getNumLoops()) ||
      !llvm::all_of(outputTile.getStaticStrides(),
                    [](int64_t s) { return s == 1; }))
    return false;
  // The tile's view depends on every tile loop's index, so hoisting leaves
  // it in the innermost one's body: there it comes before the end.
  if (outputTile->getParentOp() != tileLoop.getOperation())
    return false;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(tileLoop.getBody()->getTerminator());
  FailureOr<TilingResult> tiled =
      cast<TilingInterface>(epilogue.getOperation())
          .getTiledImplementation(rewriter, outputTile.getMixedOffsets(),
                                  outputTile.getMixedSizes());
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return false;
  auto piece = dyn_cast<linalg::GenericOp>(tiled->tiledOps.front());
  if (!piece || !isNarrowElementwise(piece, lanes)) {
    rewriter.eraseOp(tiled->tiledOps.front());
    for (Operation *slice : llvm::reverse(tiled->generatedSlices))
      if (slice->use_empty())
        rewriter.eraseOp(slice);
    return false;
  }
  piece = readAccumulatorsFromStack(rewriter, epilogue, piece, tileLoop,
                                    outputTile);
  vectorizeByRows(rewriter, piece);
  return true;
}

/// LLVM fully unrolls so short an inner loop and then vectorizes the loop
/// around it, whose iterations are a whole row apart: gathers and
/// scatters. A bias added to MobileNetV2's 16-channel 112x112 projection
/// took more time than the convolution (the layer at 42% of the FMA peak).
bool isNarrowElementwise(linalg::GenericOp op, int64_t lanes) {
  if (!op.hasPureBufferSemantics() || op.hasDynamicShape() ||
      op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned last = ranges.size() - 1;
  if (ranges.size() < 2 || ranges[last] > 4 * lanes || ranges[last] % 4 != 0 ||
      ShapedType::getNumElements(ArrayRef<int64_t>(ranges).drop_back()) < 2)
    return false;
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (unsigned i = 0, e = map.getNumResults(); i < e; ++i)
      if (map.getResult(i).isFunctionOfDim(last) &&
          (i != e - 1 || !isa<AffineDimExpr>(map.getResult(i))))
        return false;
  }
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.isLastDimUnitStride())
      return false;
  }
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

void vectorizeByRows(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(1));
  sizes.back() = rewriter.getIndexAttr(0); // whole
  FailureOr<scf::SCFTilingResult> tiled = tileInPlace(rewriter, op, sizes);
  if (failed(tiled))
    return;
  rewriter.eraseOp(op);
  Operation *row = tiled->tiledOps.front();
  rewriter.setInsertionPoint(row);
  if (succeeded(linalg::vectorize(rewriter, row)))
    rewriter.eraseOp(row);
}

} // namespace tfaot::cpu
