//===- VectorizeContractions.cpp - Register-blocked conv/matmul kernels ---===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-vectorize-contractions (see the pass description in Passes.td).
//
// The recipe is the classic one for buffers: tile each contraction so one
// tile's outputs fit in vector registers, shrink the 2-D convolution tile to
// a 1-D one (its kernel window is tiled to 1x1), vectorize the tile, then
// hoist the accumulator's load and store out of the reduction loops so it
// stays in registers while every filter tap and input channel is added in.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/ContractionEpilogues.h"
#include "backends/cpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_VECTORIZECONTRACTIONSPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using ::tfaot::cpu::applyEpilogueByTiles;
using ::tfaot::cpu::epilogueOf;
using ::tfaot::cpu::fillOfOutput;
using ::tfaot::cpu::isNarrowElementwise;
using ::tfaot::cpu::narrowEpilogue;
using ::tfaot::cpu::tileInPlace;
using ::tfaot::cpu::vectorizeByRows;

namespace {

/// How many accumulator vectors a tile `vectors` wide may keep live: x86-64
/// has 32 vector registers with AVX-512 and 16 before it; the rest hold the
/// filter row and the broadcast input. A four-vector tile on AVX-512 (only
/// over a packed panel, see kPanelColumnsAttr) takes 7 rows, one register
/// more than there are: LLVM spills about six values per reduction step,
/// and the tile is still faster than two narrower ones where the reduction
/// is short (ResNet-50's 512 -> 2048 1x1 convolutions: 90-95% of the FMA
/// peak against 76-81%, bench/results/2026-11-28-devvm-conv-panels.md).
int64_t accumulatorRegisters(int64_t vectorBits, int64_t vectors) {
  if (vectorBits < 512)
    return 12;
  return vectors > 2 ? 28 : 16;
}
/// Reduction elements (input channels, K) handled per loop iteration: enough
/// independent work per iteration, a body LLVM still schedules quickly.
constexpr int64_t kReductionUnroll = 8;
/// Output pixels (or matrix rows) per tile.
constexpr int64_t kMaxRowsPerTile = 8;

/// The largest divisor of `size` that is at most `limit`. Tiles that divide
/// their dimension keep every tile static, so the vectorizer needs no masks.
int64_t largestDivisorAtMost(int64_t size, int64_t limit) {
  for (int64_t d = std::min(size, limit); d > 1; --d)
    if (size % d == 0)
      return d;
  return 1;
}

/// The reduction tile: the largest power of two up to kReductionUnroll that
/// divides `size`. Each row's input for a tile is read as one vector whose
/// elements are then broadcast; LLVM turns that into one broadcast load per
/// element only for vector types it has registers for. A tile of 3 (an RGB
/// stem's input channels) was read as two floats and one, and two of every
/// three broadcasts came from shuffles on port 5, the port that also runs
/// half of the FMAs: ResNet-50's 7x7 stem ran at 76 GFLOP/s on one Sapphire
/// Rapids core.
int64_t reductionTile(int64_t size) {
  int64_t tile = kReductionUnroll;
  while (tile > 1 && size % tile != 0)
    tile /= 2;
  return tile;
}

/// The vector width (in f32 lanes) a tile's columns are counted in: the
/// widest of `lanes`, lanes/2, ... 4 that divides `columns`, else `lanes`.
/// 24 output channels on AVX-512 become three 8-lane vectors rather than
/// one 24-lane vector, which LLVM widens to two registers with masked
/// loads and stores: a 1x1 convolution of 24 channels at 128x128 went from
/// 0.93 to 0.65 ms.
int64_t lanesDividing(int64_t columns, int64_t lanes) {
  for (int64_t l = lanes; l >= 4; l /= 2)
    if (columns % l == 0)
      return l;
  return lanes;
}

/// The output tile: how many rows (output pixels, M) by how many columns
/// (output channels, N; the contiguous dimension, one to two vectors of
/// `lanes`, narrowed by lanesDividing) one tile computes. Each step of the reduction loads one
/// broadcast input per row and one filter vector per column vector, and
/// does rows x vectors FMAs; filter loads count double, since the weights
/// of a large layer stream from memory while the input row stays in cache.
/// Among tiles that divide both dimensions and fit the accumulator budget,
/// the one with the most FMAs per load wins (on ties, the wider one).
/// `maxVectors` (2; 4 over a packed panel that wide; up to 8 for a matrix
/// product of few rows, see matmulVectors) bounds the width.
std::pair<int64_t, int64_t> outputTile(int64_t rows, int64_t columns,
                                       int64_t lanes, int64_t maxVectors = 2) {
  lanes = lanesDividing(columns, lanes);
  SmallVector<int64_t> widths;
  if (columns <= maxVectors * lanes)
    widths.push_back(columns);
  for (int64_t vectors = maxVectors; vectors >= 1; vectors /= 2)
    if (vectors * lanes < columns && columns % (vectors * lanes) == 0)
      widths.push_back(vectors * lanes);
  if (widths.empty())
    widths.push_back(largestDivisorAtMost(columns, 2 * lanes));
  std::pair<int64_t, int64_t> best{1, widths.front()};
  double bestScore = -1;
  for (int64_t width : widths) {
    int64_t vectors = (width + lanes - 1) / lanes;
    int64_t limit = std::max<int64_t>(
        1, std::min(kMaxRowsPerTile,
                    accumulatorRegisters(lanes * 32, vectors) / vectors));
    int64_t height = largestDivisorAtMost(rows, limit);
    double fmas = static_cast<double>(height * width) / lanes;
    double score = fmas / static_cast<double>(height + 2 * vectors);
    if (score > bestScore) {
      bestScore = score;
      best = {height, width};
    }
  }
  return best;
}

/// The widest tile, in vectors, for a convolution of `columns` output
/// channels: 4 where tfaot-fuse-epilogues packed its filter in panels of
/// exactly that many 16-lane vectors (kPanelColumnsAttr), else 2.
int64_t panelVectors(linalg::Conv2DNhwcHwcfOp conv, int64_t columns,
                     int64_t lanes) {
  auto panel = conv->getAttrOfType<IntegerAttr>(mlir::tfaot::kPanelColumnsAttr);
  if (!panel || panel.getInt() != columns || lanes != 16 ||
      columns != 4 * lanes)
    return 2;
  return 4;
}

/// The widest tile, in vectors, for a matrix product of `rows` rows (M).
/// With one row the tile's FMAs form one dependent chain per vector: two
/// vectors keep two FMAs in flight where the core needs about eight (two
/// units, four cycles each), so a matrix-vector product (a classifier at
/// batch 1) ran at a fraction of what its weights' stream allows. Few rows
/// get enough vectors to fill the accumulator registers with independent
/// chains instead; each vector reads a contiguous piece of the same weight
/// row. Each output's sum keeps its order, so results are unchanged.
int64_t matmulVectors(int64_t rows) {
  if (rows <= 1)
    return 8;
  if (rows <= 3)
    return 4;
  return 2;
}

OpFoldResult indexAttr(Builder &b, int64_t v) { return b.getIndexAttr(v); }

/// The tile of a depthwise convolution's window-column loop (KW): 0, the
/// whole row, for undilated windows up to 3 wide with AVX-512's 32
/// registers, else 1.
///
/// With the window row whole, the tile is vectorized as one read of the
/// input pixels it spans, (pixels - 1) x stride + KW vectors, from which
/// each window column takes its pixels: a 3-wide window loads each input
/// vector once instead of three times (LLVM did not merge the loads that
/// steps of one column each share). MobileNetV2's depthwise layers went
/// from 779 to 692-728 us in all (the stride-2 block_1 from 192 to
/// 134-148). Wider windows, or 16 registers, leave too few registers for
/// the window's weights beside the accumulators.
int64_t windowRowTile(linalg::DepthwiseConv2DNhwcHwcOp op,
                      int64_t windowWidth, int64_t lanes) {
  bool dilated = op.getDilations().getValues<int64_t>()[1] != 1;
  return !dilated && windowWidth <= 3 && lanes >= 16 ? 0 : 1;
}

/// Tile sizes for each loop of `op` (in its loop order), or an empty vector
/// when the op is not one this pass handles.
SmallVector<int64_t> tileSizesFor(linalg::LinalgOp op, int64_t lanes) {
  if (op.hasDynamicShape() || !op.hasPureBufferSemantics())
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
    // Loops: n, oh, ow, f, kh, kw, c.
    auto [ow, f] = outputTile(ranges[2], ranges[3], lanes,
                              panelVectors(conv, ranges[3], lanes));
    return {1, 1, ow, f, 1, 1, reductionTile(ranges[6])};
  }
  if (auto depthwise =
          dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(op.getOperation())) {
    // Loops: n, oh, ow, c, kh, kw. Channels are the vector; each output
    // pixel is one accumulator per vector of channels.
    auto [ow, c] = outputTile(ranges[2], ranges[3], lanes);
    return {1, 1, ow, c, 1, windowRowTile(depthwise, ranges[5], lanes)};
  }
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
    if (matmul.hasUserDefinedMaps())
      return {};
    // Loops: m, n, k.
    auto [m, n] = outputTile(ranges[0], ranges[1], lanes,
                             matmulVectors(ranges[0]));
    return {m, n, reductionTile(ranges[2])};
  }
  if (auto batched = dyn_cast<linalg::BatchMatmulOp>(op.getOperation())) {
    if (batched.hasUserDefinedMaps())
      return {};
    // Loops: b, m, n, k.
    auto [m, n] = outputTile(ranges[1], ranges[2], lanes,
                             matmulVectors(ranges[1]));
    return {1, m, n, reductionTile(ranges[3])};
  }
  return {};
}

/// `value` (a buffer with unit dimensions at `dropped`) as a rank-reduced
/// view without them.
Value dropUnitDims(OpBuilder &b, Location loc, Value value,
                   ArrayRef<unsigned> dropped) {
  ArrayRef<int64_t> shape = cast<MemRefType>(value.getType()).getShape();
  SmallVector<int64_t> kept;
  for (auto [i, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(dropped, i))
      kept.push_back(size);
  return memref::createCanonicalRankReducingSubViewOp(b, loc, value, kept);
}

DenseIntElementsAttr elementAt(Builder &b, DenseIntElementsAttr attr,
                               unsigned index) {
  int64_t value = attr.getValues<int64_t>()[index];
  return b.getI64TensorAttr({value});
}

/// Rewrites a 2-D convolution tile of output height 1 whose window is one
/// row high as the 1-D convolution the vectorizer knows (linalg's own
/// rewrite of this kind only handles tensors). Returns null, leaving the
/// tile as it is, for any other op.
Operation *narrowToConv1D(RewriterBase &rewriter, Operation *tile) {
  rewriter.setInsertionPoint(tile);
  Location loc = tile->getLoc();
  auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(tile);
  auto depthwise = dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(tile);
  if (!conv && !depthwise)
    return nullptr;
  auto linalgOp = cast<linalg::LinalgOp>(tile);
  // Both ops: input N,H,W,C; filter KH,KW,...; output N,OH,OW,...
  Value input = linalgOp.getDpsInputOperand(0)->get();
  Value filter = linalgOp.getDpsInputOperand(1)->get();
  Value output = linalgOp.getDpsInitOperand(0)->get();
  if (cast<MemRefType>(input.getType()).getDimSize(1) != 1 ||
      cast<MemRefType>(filter.getType()).getDimSize(0) != 1 ||
      cast<MemRefType>(output.getType()).getDimSize(1) != 1)
    return nullptr;
  Value input1D = dropUnitDims(rewriter, loc, input, {1});
  Value filter1D = dropUnitDims(rewriter, loc, filter, {0});
  Value output1D = dropUnitDims(rewriter, loc, output, {1});
  auto strides = cast<DenseIntElementsAttr>(tile->getAttr("strides"));
  auto dilations = cast<DenseIntElementsAttr>(tile->getAttr("dilations"));
  Attribute stride = elementAt(rewriter, strides, 1);
  Attribute dilation = elementAt(rewriter, dilations, 1);
  Operation *narrow;
  if (conv)
    narrow = linalg::Conv1DNwcWcfOp::create(
        rewriter, loc, TypeRange{}, ValueRange{input1D, filter1D},
        ValueRange{output1D}, stride, dilation);
  else
    narrow = linalg::DepthwiseConv1DNwcWcOp::create(
        rewriter, loc, TypeRange{}, ValueRange{input1D, filter1D},
        ValueRange{output1D}, stride, dilation);
  rewriter.eraseOp(tile);
  return narrow;
}

/// Whether two index lists are the same values or equal constants.
bool sameIndices(ValueRange a, ValueRange b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip(a, b), [](auto pair) {
           return isEqualConstantIntOrValue(std::get<0>(pair),
                                            std::get<1>(pair));
         });
}

/// The transfer_read/transfer_write pair of the accumulator in the body of
/// `loop`: a write and a read of the same buffer at the same indices, both
/// unmasked and with identity maps.
std::pair<vector::TransferReadOp, vector::TransferWriteOp>
findAccumulator(scf::ForOp loop) {
  vector::TransferWriteOp write;
  for (auto op : loop.getBody()->getOps<vector::TransferWriteOp>()) {
    if (write)
      return {};
    write = op;
  }
  if (!write || write.getMask() || !write.getPermutationMap().isIdentity())
    return {};
  for (auto read : loop.getBody()->getOps<vector::TransferReadOp>())
    if (read.getBase() == write.getBase() &&
        sameIndices(read.getIndices(), write.getIndices()) &&
        read.getVectorType() == write.getVectorType() && !read.getMask() &&
        read.getPermutationMap().isIdentity())
      return {read, write};
  return {};
}

/// The positions of the 1-D rows of an n-D vector type, in order.
SmallVector<SmallVector<int64_t>> rowPositions(VectorType type) {
  ArrayRef<int64_t> outer = type.getShape().drop_back();
  SmallVector<SmallVector<int64_t>> positions(1);
  for (int64_t size : outer) {
    SmallVector<SmallVector<int64_t>> next;
    for (const SmallVector<int64_t> &prefix : positions)
      for (int64_t i = 0; i < size; ++i) {
        next.push_back(prefix);
        next.back().push_back(i);
      }
    positions = std::move(next);
  }
  return positions;
}

/// The indices of `position`'s row in a transfer starting at `indices`.
SmallVector<Value> rowIndices(OpBuilder &b, Location loc, ValueRange indices,
                              ArrayRef<int64_t> position) {
  SmallVector<Value> result(indices.begin(), indices.end());
  for (auto [i, offset] : llvm::enumerate(position))
    if (offset != 0)
      result[i] = arith::AddIOp::create(
          b, loc, result[i], arith::ConstantIndexOp::create(b, loc, offset));
  return result;
}

/// Reads the rows of `read`'s vector one 1-D transfer each.
SmallVector<Value> readRows(OpBuilder &b, vector::TransferReadOp read) {
  VectorType type = read.getVectorType();
  auto rowType = VectorType::get(type.getShape().back(),
                                 type.getElementType());
  SmallVector<Value> rows;
  for (const SmallVector<int64_t> &position : rowPositions(type)) {
    SmallVector<Value> indices =
        rowIndices(b, read.getLoc(), read.getIndices(), position);
    rows.push_back(vector::TransferReadOp::create(
        b, read.getLoc(), rowType, read.getBase(), indices,
        read.getPadding(), ArrayRef<bool>{true}));
  }
  return rows;
}

/// One 1-D row per row of `type`, each `value` in every lane. Each row is
/// its own op: hoistAccumulator gives each row its own loop argument by
/// replacing the row's uses inside the loops, which one shared value would
/// merge.
SmallVector<Value> splatRows(OpBuilder &b, Location loc, VectorType type,
                             Value value) {
  auto rowType = VectorType::get(type.getShape().back(),
                                 type.getElementType());
  SmallVector<Value> rows;
  for (size_t i = 0, e = rowPositions(type).size(); i < e; ++i)
    rows.push_back(vector::BroadcastOp::create(b, loc, rowType, value));
  return rows;
}

/// Writes `rows` where `write` would write its vector, one 1-D transfer
/// each.
void writeRows(OpBuilder &b, vector::TransferWriteOp write, ValueRange rows) {
  VectorType type = write.getVectorType();
  for (auto [row, position] : llvm::zip(rows, rowPositions(type))) {
    SmallVector<Value> indices =
        rowIndices(b, write.getLoc(), write.getIndices(), position);
    vector::TransferWriteOp::create(b, write.getLoc(), row, write.getBase(),
                                    indices, ArrayRef<bool>{true});
  }
}

/// Splits `value` into its 1-D rows.
SmallVector<Value> splitRows(OpBuilder &b, Location loc, Value value) {
  auto type = cast<VectorType>(value.getType());
  SmallVector<Value> rows;
  for (const SmallVector<int64_t> &position : rowPositions(type))
    rows.push_back(type.getRank() == 1
                       ? value
                       : vector::ExtractOp::create(b, loc, value, position)
                             .getResult());
  return rows;
}

/// Rebuilds a vector of `type` from its 1-D rows.
Value joinRows(OpBuilder &b, Location loc, VectorType type, ValueRange rows) {
  if (type.getRank() == 1)
    return rows.front();
  Value result = ub::PoisonOp::create(b, loc, type);
  for (auto [row, position] : llvm::zip(rows, rowPositions(type)))
    result = vector::InsertOp::create(b, loc, row, result, position);
  return result;
}

/// Keeps the accumulator of a vectorized tile in registers across the tile
/// loops `loops` (outermost first) that do not move it, i.e. the reduction
/// loops: its load moves before them, its store after, and the loops carry
/// it as one 1-D vector per row. (An n-D vector would reach LLVM as an
/// array, which it keeps in memory; linalg's own hoisting also refuses
/// buffers reached through subviews, which is all a tile has. Here the
/// buffer is the tile's output, which nothing else in these loops touches.)
///
/// With `initialValue` (the scalar a fill just wrote over the whole output)
/// the accumulator starts as that value splatted instead of being loaded,
/// provided every loop of `reductionLoops` is among those it is carried
/// through, so each output element starts from it exactly once. Returns
/// whether it did: the fill is then dead.
bool hoistAccumulator(RewriterBase &rewriter, ArrayRef<scf::ForOp> loops,
                      ArrayRef<scf::ForOp> reductionLoops = {},
                      Value initialValue = {}) {
  if (loops.empty())
    return false;
  for (scf::ForOp loop : llvm::reverse(loops))
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
  scf::ForOp innermost = loops.back();
  auto accumulator = findAccumulator(innermost);
  vector::TransferReadOp read = accumulator.first;
  vector::TransferWriteOp write = accumulator.second;
  if (!read || read.getMask() || write.getMask())
    return false;
  // The loops the accumulator's location does not depend on.
  auto invariantIn = [&](scf::ForOp loop) {
    auto outside = [&](Value v) { return loop.isDefinedOutsideOfLoop(v); };
    return outside(write.getBase()) && outside(read.getPadding()) &&
           llvm::all_of(write.getIndices(), outside);
  };
  SmallVector<scf::ForOp> nest;
  for (scf::ForOp loop : llvm::reverse(loops)) {
    if (!invariantIn(loop))
      break;
    nest.insert(nest.begin(), loop);
  }
  if (nest.empty())
    return false;
  scf::ForOp outer = nest.front();
  VectorType shape = read.getVectorType();
  Location loc = read.getLoc();
  rewriter.setInsertionPoint(outer);
  bool startsFromFill =
      initialValue &&
      initialValue.getType() == shape.getElementType() &&
      llvm::all_of(reductionLoops, [&](scf::ForOp loop) {
        return llvm::is_contained(nest, loop);
      });
  SmallVector<Value> initial =
      startsFromFill ? splatRows(rewriter, loc, shape, initialValue)
                     : readRows(rewriter, read);

  // Inside, the body sees the rows joined again; the join's operands become
  // the innermost loop's new block arguments below. The fold of extract
  // (insert) then leaves only 1-D vectors.
  rewriter.setInsertionPointToStart(innermost.getBody());
  Value joined = joinRows(rewriter, loc, shape, initial);
  rewriter.replaceAllUsesWith(read.getResult(), joined);
  rewriter.setInsertionPoint(write);
  SmallVector<Value> carried =
      splitRows(rewriter, loc, write.getValueToStore());
  scf::ForOp newOuter;
  for (scf::ForOp loop : llvm::reverse(nest)) {
    FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
        rewriter, initial, /*replaceInitOperandUsesInLoop=*/true,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return carried;
        });
    newOuter = cast<scf::ForOp>(replaced->getOperation());
    ValueRange results = newOuter.getResults().take_back(initial.size());
    carried.assign(results.begin(), results.end());
  }
  rewriter.setInsertionPointAfter(newOuter);
  writeRows(rewriter, write, carried);
  rewriter.eraseOp(write);
  rewriter.eraseOp(read);
  return startsFromFill;
}

/// The loops of `tileLoops` (one per non-zero tile size of `op`, in `op`'s
/// loop order) that step over a reduction dimension; null when the loops
/// cannot be matched to the dimensions.
std::optional<SmallVector<scf::ForOp>>
reductionTileLoops(linalg::LinalgOp op, ArrayRef<int64_t> sizes,
                   ArrayRef<scf::ForOp> tileLoops) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<scf::ForOp> reductions;
  size_t next = 0;
  for (auto [size, iterator] : llvm::zip(sizes, iterators)) {
    if (size == 0)
      continue;
    if (next == tileLoops.size())
      return std::nullopt;
    if (iterator == utils::IteratorType::reduction)
      reductions.push_back(tileLoops[next]);
    ++next;
  }
  if (next != tileLoops.size())
    return std::nullopt;
  return reductions;
}

/// Tiles, narrows and vectorizes one contraction. Leaves `op` untouched
/// (for the scalar loop path) when any step does not apply.
LogicalResult vectorizeContraction(RewriterBase &rewriter,
                                   linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> sizes = tileSizesFor(op, lanes);
  if (sizes.empty())
    return failure();
  linalg::FillOp fill = fillOfOutput(op);
  linalg::GenericOp epilogue = epilogueOf(op);
  SmallVector<OpFoldResult> tileSizes;
  for (int64_t size : sizes)
    tileSizes.push_back(indexAttr(rewriter, size));
  FailureOr<scf::SCFTilingResult> tiled = tileInPlace(rewriter, op, tileSizes);
  if (failed(tiled))
    return failure();
  Operation *tile = tiled->tiledOps.front();
  auto outputTile = cast<linalg::LinalgOp>(tile)
                        .getDpsInitOperand(0)
                        ->get()
                        .getDefiningOp<memref::SubViewOp>();
  SmallVector<scf::ForOp> tileLoops;
  for (LoopLikeOpInterface loop : tiled->loops)
    tileLoops.push_back(cast<scf::ForOp>(loop.getOperation()));
  std::optional<SmallVector<scf::ForOp>> reductions =
      reductionTileLoops(op, sizes, tileLoops);
  rewriter.eraseOp(op);
  Operation *narrow = tile;
  if (isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp>(tile)) {
    narrow = narrowToConv1D(rewriter, tile);
    if (!narrow)
      return success(); // Tiled; the scalar loops handle the tile.
  }
  rewriter.setInsertionPoint(narrow);
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, narrow, /*inputVectorSizes=*/{},
                        /*inputScalableVecDims=*/{},
                        /*vectorizeNDExtract=*/false,
                        /*flatten1DDepthwiseConv=*/false,
                        /*assumeDynamicDimsMatchVecSizes=*/false,
                        /*createNamedContraction=*/true);
  if (failed(vectorized))
    return success(); // Tiled; the scalar loops handle the tile.
  rewriter.eraseOp(narrow);
  // A fill the accumulators start from instead of loading it is dead: the
  // tiles write every element of the output.
  if (hoistAccumulator(rewriter, tileLoops,
                       reductions ? *reductions : SmallVector<scf::ForOp>{},
                       fill && reductions ? fill.value() : Value{}))
    rewriter.eraseOp(fill);
  // The epilogue goes at the end of the innermost loop over output tiles
  // (the loops come in the op's order, its parallel dimensions first).
  if (epilogue && reductions) {
    scf::ForOp lastTileLoop;
    for (scf::ForOp loop : tileLoops)
      if (!llvm::is_contained(*reductions, loop))
        lastTileLoop = loop;
    if (lastTileLoop &&
        applyEpilogueByTiles(rewriter, epilogue, lastTileLoop, outputTile,
                             lanes))
      rewriter.eraseOp(epilogue);
  }
  return success();
}

/// The last-dimension slice [offset, offset + size) of the buffer `value`.
Value lastDimSlice(OpBuilder &b, Location loc, Value value, int64_t offset,
                   int64_t size) {
  ArrayRef<int64_t> shape = cast<MemRefType>(value.getType()).getShape();
  SmallVector<OpFoldResult> offsets(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(shape.size(), b.getIndexAttr(1));
  for (int64_t extent : shape)
    sizes.push_back(b.getIndexAttr(extent));
  offsets.back() = b.getIndexAttr(offset);
  sizes.back() = b.getIndexAttr(size);
  return memref::SubViewOp::create(b, loc, value, offsets, sizes, strides);
}

/// Splits a convolution or matrix product whose output channels (columns)
/// are more than one vector but not a whole number of vectors into the
/// columns that fill whole vectors and the rest, each part with its own
/// copy of the fill before it: MobileNetV2's projections to 24 channels on
/// AVX-512 then run as one 16-lane and one 8-lane column tile (two FMAs per
/// row and input channel) instead of three 8-lane ones (three). Returns the
/// parts, or `op` alone when it is not such a product.
SmallVector<linalg::LinalgOp> splitRaggedColumns(RewriterBase &rewriter,
                                                 linalg::LinalgOp op,
                                                 int64_t lanes) {
  bool columnsLast =
      isa<linalg::Conv2DNhwcHwcfOp>(op.getOperation()) ||
      (isa<linalg::MatmulOp>(op.getOperation()) &&
       !cast<linalg::MatmulOp>(op.getOperation()).hasUserDefinedMaps());
  if (!columnsLast || op.hasDynamicShape() || !op.hasPureBufferSemantics())
    return {op};
  Value weights = op.getDpsInputOperand(1)->get();
  Value output = op.getDpsInitOperand(0)->get();
  int64_t columns = cast<MemRefType>(output.getType()).getShape().back();
  int64_t whole = columns / lanes * lanes;
  if (whole == 0 || whole == columns)
    return {op};
  linalg::FillOp fill = fillOfOutput(op);
  Location loc = op.getLoc();
  SmallVector<linalg::LinalgOp> parts;
  for (auto [offset, size] : {std::pair<int64_t, int64_t>{0, whole},
                              {whole, columns - whole}}) {
    // Each part's fill right before it, as vectorizeContraction looks for.
    rewriter.setInsertionPoint(op);
    Value weightsPart = lastDimSlice(rewriter, loc, weights, offset, size);
    Value outputPart = lastDimSlice(rewriter, loc, output, offset, size);
    if (fill)
      linalg::FillOp::create(rewriter, loc, fill.value(), outputPart);
    Operation *part = rewriter.clone(*op);
    part->setOperand(op.getDpsInputOperand(1)->getOperandNumber(),
                     weightsPart);
    part->setOperand(op.getDpsInitOperand(0)->getOperandNumber(),
                     outputPart);
    parts.push_back(cast<linalg::LinalgOp>(part));
  }
  if (fill)
    rewriter.eraseOp(fill);
  rewriter.eraseOp(op);
  return parts;
}

/// Rewrites a depthwise convolution with channel multiplier 1 in the
/// NHWC x HWCM form (what the lowering makes; tfaot-fuse-epilogues narrows
/// it only where a collapse follows) as the NHWC x HWC one this pass
/// vectorizes, through rank-reducing views of the filter and the output:
/// the same loops but M, whose one iteration adds nothing. The zeroing
/// fill before it moves onto the narrowed output, right before the new op,
/// where vectorizeContraction finds it and starts the accumulators from it:
/// left on the wide view it stayed a memset of every output row, and the
/// accumulators were loaded back from memory (MobileNetV2's depthwise
/// layers at half the speed of their loads). The epilogue after it is
/// narrowed alike, for vectorizeContraction to apply by tiles.
void narrowDepthwiseMultiplier(RewriterBase &rewriter,
                               linalg::DepthwiseConv2DNhwcHwcmOp op) {
  if (op.hasDynamicShape() || !op.hasPureBufferSemantics())
    return;
  Value filter = op.getDpsInputOperand(1)->get();
  Value output = op.getDpsInitOperand(0)->get();
  if (cast<MemRefType>(filter.getType()).getDimSize(3) != 1)
    return;
  linalg::FillOp fill = fillOfOutput(op);
  linalg::GenericOp epilogue = epilogueOf(op);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value narrowFilter = dropUnitDims(rewriter, loc, filter, {3});
  Value narrowOutput = dropUnitDims(rewriter, loc, output, {4});
  // The epilogue over the output loses M too (its operands' views made
  // here, before the convolution, so that the epilogue stays right after
  // it where vectorizeContraction looks).
  if (epilogue)
    (void)narrowEpilogue(rewriter, epilogue, narrowOutput);
  if (fill) {
    linalg::FillOp::create(rewriter, fill.getLoc(), fill.value(),
                           narrowOutput);
    rewriter.eraseOp(fill);
  }
  linalg::DepthwiseConv2DNhwcHwcOp::create(
      rewriter, loc, TypeRange{},
      ValueRange{op.getDpsInputOperand(0)->get(), narrowFilter},
      ValueRange{narrowOutput}, op.getStridesAttr(), op.getDilationsAttr());
  rewriter.eraseOp(op);
}

struct VectorizeContractionsPass
    : public mlir::tfaot::impl::VectorizeContractionsPassBase<
          VectorizeContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t lanes = std::max<int64_t>(1, vectorBits / 32);
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::DepthwiseConv2DNhwcHwcmOp> multiplierForm;
    func.walk([&](linalg::DepthwiseConv2DNhwcHwcmOp op) {
      multiplierForm.push_back(op);
    });
    for (linalg::DepthwiseConv2DNhwcHwcmOp op : multiplierForm)
      narrowDepthwiseMultiplier(rewriter, op);
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (!tileSizesFor(op, lanes).empty())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      for (linalg::LinalgOp part : splitRaggedColumns(rewriter, op, lanes))
        (void)vectorizeContraction(rewriter, part, lanes);
    SmallVector<linalg::GenericOp> narrow;
    func.walk([&](linalg::GenericOp op) {
      if (isNarrowElementwise(op, lanes))
        narrow.push_back(op);
    });
    for (linalg::GenericOp op : narrow)
      vectorizeByRows(rewriter, op);

    // vector.contract -> outer products -> FMAs with a broadcast input.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
