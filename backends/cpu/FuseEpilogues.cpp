//===- FuseEpilogues.cpp - Contractions and their elementwise epilogues ---===//
// SPDX-License-Identifier: Apache-2.0
//
// After lowering and elementwise fusion, Conv2D -> BiasAdd -> Relu is a
// linalg convolution that writes a whole temporary tensor and one
// elementwise linalg.generic that reads it back. This pass tiles the generic
// along its outer output dimensions and fuses the contraction (and the
// linalg.fill that zeroes its accumulator) into the tile loop, so each tile
// of the product is finished by the epilogue while it is still in cache, and
// the temporary disappears.
//
// The destination is what keeps bufferization free of allocations in the
// loop. Before tiling, the contraction's zero fill is pointed at the
// epilogue's destination tensor, and the generic is rewritten to compute in
// place on the contraction's result (its `outs` becomes the contraction
// result, the inputs that read it read the output block argument instead).
// Tiling then makes the contraction a producer of the loop's destination;
// fusing it (and then the fill) through the destination moves the loop's
// init back to the epilogue's original destination, and inside the loop
// fill, contraction and epilogue all work on the one extract_slice of the
// loop's iter_arg, which bufferizes to a subview of the result buffer.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"
#include "passes/ConstantUtils.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

#include <algorithm>

namespace mlir::tfaot {
#define GEN_PASS_DEF_FUSEEPILOGUESPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// Output tiles of a matmul epilogue hold at most this many elements (32 KiB
/// of f32, an L1 data cache): the rows of a tile are written by the product
/// and read back by the epilogue right away.
constexpr int64_t kMatmulTileElements = 8192;

/// A convolution epilogue with fewer (image, row) tiles than this also gets
/// split over output channels, so that the thread pool has pieces for 16
/// threads: ResNet-50's last stage has 7 rows, and a row-only split kept 7
/// of 16 threads busy (27% of its time at batch 1 on a 16-core Xeon).
constexpr int64_t kMinConvPieces = 32;
/// Channels per block at least (and a multiple of kChannelMultiple, whole
/// AVX-512 vectors for the register tiles of tfaot-vectorize-contractions).
constexpr int64_t kMinChannelBlock = 64;
constexpr int64_t kChannelMultiple = 16;
/// Only a full convolution with at least this many multiply-adds per output
/// row is split over channels: on 2 cores the split made ResNet-50 (16.5M
/// per row in its last 3x3 convolutions) 6% faster on one thread and on
/// two, but MobileNetV2 (depthwise convolutions and 1x1 convolutions of at
/// most 2.9M per row) 15% slower, its pieces too small for their overhead.
constexpr int64_t kMinRowWorkForChannelSplit = 4 << 20;
/// When a convolution is split over channels, one block's weights (its
/// "panel": KH x KW x C_in x block floats) should stay in a core's L2 cache
/// (1 MiB on Zen 5, 2 MiB on Sapphire Rapids) while every output row reads
/// it: the channel blocks are then the outer tile loop and the rows the
/// inner one, and blocks are narrowed (down to kMinPanelChannelBlock) until
/// the panel fits this budget. Row-outer, each row of ResNet-50's last stage
/// (7 pixels) read all 9.4 MB of a 3x3 convolution's weights.
constexpr int64_t kPanelBytes = 768 << 10;
/// Two AVX-512 vectors: the widest register tile of
/// tfaot-vectorize-contractions.
constexpr int64_t kMinPanelChannelBlock = 2 * kChannelMultiple;
/// A constant filter split over channel blocks is packed in blocks of one
/// register tile's width, not of the width chosen above: a tile then walks
/// its panel as one contiguous stream of whole 128-byte rows. In wider
/// blocks it read 128 of every 256 to 1024 bytes, a new 4 KiB page every
/// 4 to 16 reduction steps, which the prefetchers followed badly: on one
/// Zen 5 core ResNet-50's stage-5 1x1 convolutions ran at 65-75% of the
/// FMA peak in 64- to 256-channel blocks and at 81-91% in 32-channel ones
/// (bench/results/2026-11-28-devvm-conv-panels.md). The thread pool gets
/// more, smaller pieces, which costs nothing measurable.
constexpr int64_t kPackedPanelColumns = kMinPanelChannelBlock;
/// Convolutions with a short reduction (at most this many filter bytes per
/// output channel: KH x KW x C of 512 floats) get panels twice as wide and
/// the four-vector register tile that reads them (7 x 4 accumulators): a
/// 32-column tile over 512 input channels finishes too soon to hide its
/// start and end, and ResNet-50's 512 -> 2048 convolutions stayed at 76-81%
/// in 32-channel panels, 90-95% in 64-channel ones. Strided convolutions
/// keep 32 columns: the 512 -> 1024 stride-2 projection, whose seven
/// broadcast inputs per step lie 4 KiB apart, went from 89% to 77% with
/// the wider tile.
constexpr int64_t kShortReductionBytes = 2 << 10;
constexpr int64_t kWidePackedPanelColumns = 2 * kPackedPanelColumns;
/// A convolution whose output image has at most kMaxSmallImagePixels
/// pixels and at least kMinSmallImageChannels channels is split into packed
/// panels even when its filter fits kPanelBytes: MobileNetV2's 7x7 expand
/// convolutions (160 -> 960 channels, 614 KB of filter) ran at 62-63% of
/// the FMA peak reading the filter in its original layout, 960 floats
/// apart per input channel, for 7 pixels a row. Its 7x7 projections (576
/// or 960 -> 160 channels) gained 12-16% from the same packing, and the
/// whole model 0.9-1.6% at batch 1 (bench/results/
/// 2026-11-29-devvm-stack-epilogues-fills-panels.md), hence 128: filter
/// rows of at least 512 bytes.
constexpr int64_t kMaxSmallImagePixels = 49;
constexpr int64_t kMinSmallImageChannels = 128;

/// The contractions whose epilogues are fused.
bool isContraction(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
             linalg::DepthwiseConv2DNhwcHwcmOp, linalg::MatmulOp>(op);
}

/// Whether `generic` is elementwise in the sense an epilogue must be: all
/// loops parallel, one output written through the identity map and not
/// read by the payload.
bool isElementwise(linalg::GenericOp generic) {
  if (generic.getNumDpsInits() != 1 || generic->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.hasPureTensorSemantics())
    return false;
  OpOperand *init = generic.getDpsInitOperand(0);
  return generic.getMatchingIndexingMap(init).isIdentity() &&
         !generic.payloadUsesValueFromOperand(init);
}

/// Why `generic` cannot absorb `contraction` as its destination, or an
/// empty string when it can: it must be elementwise (all parallel, identity
/// output map, one output whose block argument the payload does not read),
/// with every use of the contraction's result among its inputs, read
/// through identity maps, and the result type unchanged. The contraction's
/// accumulator must be a linalg.fill (`destinationFill` gives it the
/// epilogue's destination).
std::string whyNotFused(linalg::GenericOp generic,
                        linalg::LinalgOp contraction) {
  if (!isElementwise(generic))
    return "the consumer is not elementwise";
  if (contraction->getNumResults() != 1 ||
      contraction.getNumDpsInits() != 1 ||
      !contraction.hasPureTensorSemantics())
    return "the product is not one tensor";
  Value product = contraction->getResult(0);
  auto type = dyn_cast<RankedTensorType>(product.getType());
  if (!type || !type.hasStaticShape() ||
      generic->getResult(0).getType() != type)
    return "the consumer's result has another type";
  for (OpOperand &use : product.getUses()) {
    if (use.getOwner() != generic.getOperation())
      return "the product is also read by " +
             use.getOwner()->getName().getStringRef().str();
    if (!generic.isDpsInput(&use) ||
        !generic.getMatchingIndexingMap(&use).isIdentity())
      return "the consumer reads the product transposed or broadcast";
  }
  auto fill = contraction.getDpsInitOperand(0)->get().getDefiningOp<
      linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics())
    return "the accumulator is not a zero fill";
  return "";
}

/// Makes `contraction` accumulate into `generic`'s own destination: a new
/// fill of that tensor with the old fill's value replaces the contraction's
/// init. The epilogue's destination is the one bufferization had planned for
/// the result (CSE may share a tensor.empty with a later op that can then
/// run in place on the same buffer); the contraction's own fill may be shared
/// with other contractions (CSE merges equal fills), which would make the
/// loops' destinations alias. When the epilogue's destination is not a
/// tensor.empty of this block, a fresh tensor.empty is used instead.
linalg::FillOp destinationFill(RewriterBase &rewriter,
                               linalg::LinalgOp contraction,
                               linalg::GenericOp generic) {
  OpOperand *init = contraction.getDpsInitOperand(0);
  auto fill = init->get().getDefiningOp<linalg::FillOp>();
  auto type = cast<RankedTensorType>(init->get().getType());
  Value dest = generic.getDpsInitOperand(0)->get();
  auto empty = dest.getDefiningOp<tensor::EmptyOp>();
  rewriter.setInsertionPoint(contraction);
  if (empty && empty->getBlock() == contraction->getBlock()) {
    // A static tensor.empty has no operands: it can move up to dominate
    // the contraction.
    if (contraction->isBeforeInBlock(empty))
      rewriter.moveOpBefore(empty, contraction);
  } else {
    dest = tensor::EmptyOp::create(rewriter, fill.getLoc(), type.getShape(),
                                   type.getElementType());
  }
  auto fresh = linalg::FillOp::create(
      rewriter, fill.getLoc(), fill.getDpsInputOperand(0)->get(), dest);
  rewriter.modifyOpInPlace(contraction,
                           [&] { init->set(fresh->getResult(0)); });
  if (fill->use_empty())
    rewriter.eraseOp(fill);
  return fresh;
}

/// Weight bytes of one output channel of a full convolution's filter
/// (KH x KW x C_in elements).
int64_t panelBytesPerChannel(linalg::LinalgOp contraction) {
  auto filterType = cast<ShapedType>(
      contraction.getDpsInputOperand(1)->get().getType());
  return filterType.getNumElements() / filterType.getDimSize(3) *
         filterType.getElementTypeBitWidth() / 8;
}

/// The elements of `filter` when packFilterBlocks can re-lay it out: a
/// constant tensor of static shape, 4-D (a convolution's filter), 2-D (a
/// matrix product's weights) or 3-D (a batched product's); else null.
DenseElementsAttr packableFilter(Value filter) {
  auto constant = filter.getDefiningOp<arith::ConstantOp>();
  auto dense =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  auto type = dyn_cast<RankedTensorType>(filter.getType());
  if (!dense || !type || type.getRank() < 2 || type.getRank() > 4 ||
      !type.hasStaticShape())
    return nullptr;
  return dense;
}

/// The filter of a convolution, as packableFilter reads it.
DenseElementsAttr packableFilter(linalg::LinalgOp contraction) {
  return packableFilter(contraction.getDpsInputOperand(1)->get());
}

/// The channels per block of a convolution split into blocks of `block`
/// whose filter will be packed: a whole number of register tiles
/// (kPackedPanelColumns, or kWidePackedPanelColumns for a short
/// unit-stride reduction) when that divides the channels and `block`.
int64_t packedBlock(linalg::LinalgOp contraction, int64_t channels,
                    int64_t block) {
  if (!packableFilter(contraction))
    return block;
  auto conv = cast<linalg::Conv2DNhwcHwcfOp>(contraction.getOperation());
  bool unitStrides = llvm::all_of(conv.getStrides().getValues<int64_t>(),
                                  [](int64_t s) { return s == 1; });
  int64_t columns =
      unitStrides && panelBytesPerChannel(contraction) <= kShortReductionBytes
          ? kWidePackedPanelColumns
          : kPackedPanelColumns;
  for (; columns >= kPackedPanelColumns; columns /= 2)
    if (channels % columns == 0 && block % columns == 0)
      return columns;
  return block;
}

/// Packed matmul panels are whole 8-lane vectors wide (the kernel takes 40
/// columns as one 16-lane pair and an 8-lane rest): N is often 1000, which
/// no multiple of kChannelMultiple divides.
constexpr int64_t kPackedColumnMultiple = 8;

/// The columns of a packed panel of constant matmul weights [K x N]: the
/// narrowest multiple of kPackedColumnMultiple from kPackedPanelColumns
/// (one register tile) up to kWidePackedPanelColumns that divides N (32
/// where it can, 40 for N = 1000), or 0. A function of N alone: every batch
/// bucket of a model then packs the weights alike, and the object holds one
/// copy of them.
int64_t packedPanelColumns(int64_t n) {
  for (int64_t columns = kPackedPanelColumns;
       columns <= kWidePackedPanelColumns; columns += kPackedColumnMultiple)
    if (n % columns == 0)
      return columns;
  return 0;
}

/// The columns per block of a matrix product [M x K] x [K x N] whose weights
/// do not fit kPanelBytes: packedPanelColumns for constant weights, which
/// packFilterBlocks then packs, else, when its rows span several output
/// tiles, the widest multiple of kChannelMultiple dividing N whose K x
/// block panel fits. The blocks are looped over outside the rows (as a
/// convolution's channel blocks), so each panel is read from memory once.
/// Row-outer, each tile of a few rows streamed all the weights again:
/// BERT's 768 -> 3072 product, in tiles of 2 rows, read its 9.4 MB 64
/// times and ran at a fifth of the FMA peak. With one tile of rows (a
/// classifier at batch 1) the weights are read once either way, but
/// unpacked the kernel's column tile walks K rows N floats apart, each in
/// another page, which the hardware prefetchers do not follow:
/// MobileNetV2's 1280 x 1000 classifier read its 5 MB at 12 GB/s where one
/// core streams 17-18, and took 0.41 ms where 40-column panels take 0.25.
/// 0 when the product stays unsplit.
int64_t matmulPanelColumns(ArrayRef<int64_t> shape,
                           linalg::LinalgOp contraction) {
  if (!isa<linalg::MatmulOp>(contraction.getOperation()))
    return 0;
  auto weights =
      cast<ShapedType>(contraction.getDpsInputOperand(1)->get().getType());
  if (!weights.hasStaticShape() || weights.getRank() != 2)
    return 0;
  int64_t m = shape[0], n = shape[1];
  int64_t columnBytes =
      weights.getDimSize(0) * weights.getElementTypeBitWidth() / 8;
  if (n * columnBytes <= kPanelBytes)
    return 0;
  if (packableFilter(contraction))
    if (int64_t columns = packedPanelColumns(n))
      return columns;
  int64_t unsplitRows = kMatmulTileElements / std::max<int64_t>(1, n);
  if (m <= unsplitRows)
    return 0;
  for (int64_t block = kPanelBytes / columnBytes / kChannelMultiple *
                       kChannelMultiple;
       block >= kMinPanelChannelBlock; block -= kChannelMultiple)
    if (n % block == 0)
      return block;
  return 0;
}

/// Tile sizes for the generic's loops. A convolution epilogue gets one tile
/// per output row (sizes [1, 1, 0, 0] over N, H, W, C, or [1, 1, 0, 0, 0]
/// over N, H, W, C, M for a depthwise one; N is left untiled when it is 1,
/// saving a one-trip loop): the row of the product (W * C
/// values) is finished while in cache, and the convolution loops inside a
/// tile are those of the untiled op. A full convolution also has its C
/// tiled into blocks of output channels when its filter is larger than
/// kPanelBytes (otherwise every row would stream the whole filter from
/// beyond L2), or when it has fewer than kMinConvPieces rows in all and is
/// large (see kMinRowWorkForChannelSplit): into the fewest blocks that
/// make kMinConvPieces pieces and whose weights fit kPanelBytes, or the
/// finest acceptable split if none do (each block a divisor of C and a
/// multiple of kChannelMultiple, at least kMinChannelBlock channels, or
/// down to kMinPanelChannelBlock only to make the panel fit; no split if C
/// has no such divisor), then, for a constant filter, narrowed to the
/// packed panel's width (packedBlock): the summation of each output
/// element is unchanged, so are its results. A matmul epilogue gets blocks
/// of rows, whole or of matmulPanelColumns' width, as many as fit
/// kMatmulTileElements, with a row count that divides M so every tile has
/// the same static shape.
SmallVector<int64_t> tileSizesFor(ArrayRef<int64_t> shape,
                                 linalg::LinalgOp contraction) {
  SmallVector<int64_t> sizes(shape.size(), 0);
  if (shape.size() >= 4) {
    sizes[0] = shape[0] == 1 ? 0 : 1;
    sizes[1] = 1;
    int64_t rows = shape[0] * shape[1];
    if (shape.size() != 4 ||
        !isa<linalg::Conv2DNhwcHwcfOp>(contraction.getOperation()))
      return sizes;
    int64_t panelPerChannel = panelBytesPerChannel(contraction);
    int64_t channels = shape[3];
    bool fewLargeRows =
        rows < kMinConvPieces &&
        staticWorkOf(contraction) / rows >= kMinRowWorkForChannelSplit;
    bool largeFilter = channels * panelPerChannel > kPanelBytes;
    bool smallImageManyChannels =
        shape[1] * shape[2] <= kMaxSmallImagePixels &&
        channels >= kMinSmallImageChannels && packableFilter(contraction);
    if (!fewLargeRows && !largeFilter && !smallImageManyChannels)
      return sizes;
    for (int64_t blocks = 2; channels / blocks >= kMinPanelChannelBlock;
         ++blocks) {
      int64_t block = channels / blocks;
      if (channels % blocks != 0 || block % kChannelMultiple != 0)
        continue;
      bool fits = block * panelPerChannel <= kPanelBytes;
      // Blocks under kMinChannelBlock only to make the panel fit.
      if (block < kMinChannelBlock &&
          (sizes[3] == 0 || sizes[3] * panelPerChannel <= kPanelBytes))
        break;
      sizes[3] = block; // The finest acceptable split so far.
      if (rows * blocks >= kMinConvPieces && fits)
        break;
    }
    if (sizes[3] != 0)
      sizes[3] = packedBlock(contraction, channels, sizes[3]);
    return sizes;
  }
  int64_t columns = shape.size() == 2 ? matmulPanelColumns(shape, contraction)
                                      : 0;
  int64_t rowWidth = columns ? columns : std::max<int64_t>(1, shape[1]);
  int64_t rows = std::max<int64_t>(
      1, std::min(shape[0], kMatmulTileElements / rowWidth));
  while (shape[0] % rows)
    --rows;
  sizes[0] = rows;
  if (columns)
    sizes[1] = columns;
  return sizes;
}

/// Replaces a multiplier-1 depthwise convolution (NHWC, HWCM filter with
/// M = 1) whose result is only collapsed to NHWC by the lowering with the
/// NHWC x HWC form, so its result has the shape of the epilogue. Returns
/// the new op, or null when `collapse` is not such a collapse.
linalg::DepthwiseConv2DNhwcHwcOp
narrowDepthwise(RewriterBase &rewriter, tensor::CollapseShapeOp collapse) {
  auto depthwise =
      collapse.getSrc().getDefiningOp<linalg::DepthwiseConv2DNhwcHwcmOp>();
  if (!depthwise || !depthwise->getResult(0).hasOneUse() ||
      !depthwise.hasPureTensorSemantics())
    return nullptr;
  auto wideType = cast<RankedTensorType>(depthwise->getResult(0).getType());
  Value filter = depthwise.getDpsInputOperand(1)->get();
  auto filterType = dyn_cast<RankedTensorType>(filter.getType());
  if (!wideType.hasStaticShape() || wideType.getDimSize(4) != 1 ||
      !filterType || filterType.getRank() != 4)
    return nullptr;
  auto fill =
      depthwise.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill)
    return nullptr;

  Location loc = depthwise.getLoc();
  rewriter.setInsertionPoint(depthwise);
  auto resultType = cast<RankedTensorType>(collapse.getType());
  Value narrowFilter = tensor::CollapseShapeOp::create(
      rewriter, loc, filter,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                        resultType.getElementType());
  Value init = linalg::FillOp::create(rewriter, fill.getLoc(),
                                      fill.getDpsInputOperand(0)->get(), empty)
                   .getResult(0);
  auto narrow = linalg::DepthwiseConv2DNhwcHwcOp::create(
      rewriter, loc, TypeRange{resultType},
      ValueRange{depthwise.getDpsInputOperand(0)->get(), narrowFilter},
      ValueRange{init}, depthwise.getStrides(), depthwise.getDilations());
  rewriter.replaceOp(collapse, narrow->getResults());
  rewriter.eraseOp(depthwise);
  if (fill->use_empty())
    rewriter.eraseOp(fill);
  return narrow;
}

/// `generic` rewritten to compute in place on the contraction's result: the
/// inputs that read `product` are dropped and their block arguments replaced
/// by the output's, whose initial value is now `product`.
linalg::GenericOp computeInPlace(RewriterBase &rewriter,
                                 linalg::GenericOp generic, Value product) {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<unsigned> dropped;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (input->get() == product) {
      dropped.push_back(input->getOperandNumber());
      continue;
    }
    inputs.push_back(input->get());
    maps.push_back(generic.getMatchingIndexingMap(input));
  }
  maps.push_back(generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)));

  rewriter.setInsertionPoint(generic);
  auto inPlace = linalg::GenericOp::create(
      rewriter, generic.getLoc(), generic->getResultTypes(), inputs,
      ValueRange{product}, maps, generic.getIteratorTypesArray());
  inPlace->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(generic.getRegion(), inPlace.getRegion(),
                              inPlace.getRegion().end());
  Block &body = inPlace.getRegion().front();
  BlockArgument out = body.getArguments().back();
  for (unsigned index : llvm::reverse(dropped)) {
    rewriter.replaceAllUsesWith(body.getArgument(index), out);
    body.eraseArgument(index);
  }
  rewriter.replaceOp(generic, inPlace->getResults());
  return inPlace;
}

/// Packs the constant weights of a contraction tiled over blocks of `block`
/// output channels so each block's weights are contiguous: a convolution's
/// KH x KW x C x F filter becomes F/block x KH x KW x C x block, a matrix
/// product's K x N weights N/block x K x block, a batched product's
/// B x K x N weights N/block x B x K x block (the output channels are the
/// last dimension of all three), and each tile's slice `w[0, .., 0, f0]
/// [.., block]` becomes the rank-reduced slice `packed[f0 / block, 0, ..]
/// [1, .., block]`. The values, and the order each output adds them, are
/// the same; a block's panel is one contiguous run of memory instead of
/// pieces of `block` floats F floats apart, which wastes cache sets, TLB
/// entries and DRAM pages (bench/results/2026-11-27-devvm-stage5.md).
/// Each convolution reading a packed panel gets kPanelColumnsAttr = `block`.
void packFilterBlocks(RewriterBase &rewriter, Operation *loopNest,
                      int64_t block) {
  SmallVector<linalg::LinalgOp> contractions;
  loopNest->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::Conv2DNhwcHwcfOp, linalg::MatmulOp, linalg::BatchMatmulOp>(
            op.getOperation()))
      contractions.push_back(op);
  });
  for (linalg::LinalgOp contraction : contractions) {
    auto slice = contraction.getDpsInputOperand(1)->get()
                     .getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride())
      continue;
    DenseElementsAttr dense = packableFilter(slice.getSource());
    auto type = cast<RankedTensorType>(slice.getSourceType());
    int64_t rank = type.getRank(), last = rank - 1;
    if (!dense || type.getDimSize(last) % block != 0 ||
        slice.getType().getRank() != rank)
      continue;
    auto constant = slice.getSource().getDefiningOp<arith::ConstantOp>();
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    bool blockSlice = true;
    for (int64_t d = 0; d < last; ++d)
      blockSlice &= isConstantIntValue(offsets[d], 0) &&
                    isConstantIntValue(sizes[d], type.getDimSize(d));
    if (!blockSlice || !isConstantIntValue(sizes[last], block))
      continue;
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<int64_t> splitShape(shape.drop_back());
    splitShape.append({shape[last] / block, block});
    SmallVector<int64_t> packedShape = {shape[last] / block};
    packedShape.append(shape.begin(), shape.end() - 1);
    packedShape.push_back(block);
    // Block index first, then the other dimensions in order, then the
    // channel within the block.
    SmallVector<int64_t> permutation = {last};
    for (int64_t d = 0; d < last; ++d)
      permutation.push_back(d);
    permutation.push_back(rank);
    auto split = RankedTensorType::get(splitShape, type.getElementType());
    auto packedType = RankedTensorType::get(packedShape, type.getElementType());
    // (A splat, as in tests, is the same splat in any layout.)
    DenseElementsAttr packed =
        dense.isSplat()
            ? DenseElementsAttr::get(packedType,
                                     dense.getSplatValue<Attribute>())
            : transposeElements(dense.reshape(split), permutation);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loopNest);
    Value packedValue =
        arith::ConstantOp::create(rewriter, constant.getLoc(), packed);
    rewriter.setInsertionPoint(slice);
    Location loc = slice.getLoc();
    AffineExpr d0 = rewriter.getAffineDimExpr(0);
    SmallVector<OpFoldResult> newOffsets(rank + 1, rewriter.getIndexAttr(0));
    newOffsets[0] = affine::makeComposedFoldedAffineApply(
        rewriter, loc, d0.floorDiv(block), {offsets[last]});
    SmallVector<OpFoldResult> newSizes = {rewriter.getIndexAttr(1)};
    for (int64_t d = 0; d < last; ++d)
      newSizes.push_back(rewriter.getIndexAttr(shape[d]));
    newSizes.push_back(rewriter.getIndexAttr(block));
    SmallVector<OpFoldResult> strides(rank + 1, rewriter.getIndexAttr(1));
    Value narrow = tensor::ExtractSliceOp::create(
        rewriter, loc, cast<RankedTensorType>(slice.getType()), packedValue,
        newOffsets, newSizes, strides);
    rewriter.replaceOp(slice, narrow);
    if (isa<linalg::Conv2DNhwcHwcfOp>(contraction.getOperation()))
      rewriter.modifyOpInPlace(contraction, [&] {
        contraction->setAttr(kPanelColumnsAttr,
                             rewriter.getI64IntegerAttr(block));
      });
    if (constant->use_empty())
      rewriter.eraseOp(constant);
  }
}

struct FuseEpiloguesPass
    : mlir::tfaot::impl::FuseEpiloguesPassBase<FuseEpiloguesPass> {
  using FuseEpiloguesPassBase::FuseEpiloguesPassBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp generic : generics)
      if (failed(fuse(rewriter, generic)))
        return signalPassFailure();
    // Before the blocking below puts unfused convolutions into loops.
    remarkUnfused();
    for (auto conv : outsideLoops<linalg::Conv2DNhwcHwcfOp>())
      if (failed(blockAlone(rewriter, conv)))
        return signalPassFailure();
    for (auto product : outsideLoops<linalg::BatchMatmulOp>())
      if (failed(blockBatchedProduct(rewriter, product)))
        return signalPassFailure();
    fillsBeforeUnfusedContractions(rewriter);
  }

  /// The ops of type OpTy not in a loop: those no epilogue was fused with
  /// (fusion tiles a contraction into loops).
  template <typename OpTy> SmallVector<OpTy> outsideLoops() {
    SmallVector<OpTy> ops;
    getOperation().walk([&](OpTy op) {
      if (!op->template getParentOfType<scf::ForOp>())
        ops.push_back(op);
    });
    return ops;
  }

  /// Gives a convolution that has no epilogue fused with it (ResNet-50's
  /// residual blocks whose add went to the shortcut's convolution, or to
  /// the mean that follows) the channel blocks of tileSizesFor, when it
  /// has any: without them each output row streams the whole filter, as
  /// the fused ones did before (ResNet-50's stage 4-5 1x1 expand
  /// convolutions ran at half the FMA peak). The convolution is tiled over
  /// blocks outside images and rows, with its zero fill fused through the
  /// destination as in `fuse`, and its constant filter packed.
  LogicalResult blockAlone(RewriterBase &rewriter,
                           linalg::Conv2DNhwcHwcfOp conv) {
    auto type = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
    if (!conv.hasPureTensorSemantics() || !type || !type.hasStaticShape())
      return success();
    SmallVector<int64_t> sizes =
        tileSizesFor(type.getShape(), cast<linalg::LinalgOp>(*conv));
    if (sizes.size() != 4 || sizes[3] == 0)
      return success();
    // Loops n, oh, ow, f, kh, kw, c: blocks of f outside n and oh.
    return tileOverPanels(rewriter, cast<linalg::LinalgOp>(*conv),
                          {sizes[0], sizes[1], 0, sizes[3], 0, 0, 0},
                          {3, 0, 1, 2, 4, 5, 6}, sizes[3]);
  }

  /// Splits a batched product whose constant right-hand side exceeds
  /// kPanelBytes into panels of kPackedPanelColumns columns, packed: the
  /// Winograd products of ResNet-50's stage 4 (36 x 256 x 256 weights, 9.4
  /// MB, read for 16 rows of 4x4 blocks) ran at 68-70% of the FMA peak,
  /// their 32-column tiles crossing a page every four reduction steps.
  LogicalResult blockBatchedProduct(RewriterBase &rewriter,
                                    linalg::BatchMatmulOp product) {
    auto type = dyn_cast<RankedTensorType>(product->getResult(0).getType());
    auto linalgOp = cast<linalg::LinalgOp>(*product);
    DenseElementsAttr weights =
        packableFilter(product.getDpsInputOperand(1)->get());
    if (!product.hasPureTensorSemantics() || !type || !type.hasStaticShape() ||
        product.hasUserDefinedMaps() || !weights ||
        type.getDimSize(2) % kPackedPanelColumns != 0 ||
        weights.getNumElements() *
                weights.getElementType().getIntOrFloatBitWidth() / 8 <=
            kPanelBytes)
      return success();
    // Loops b, m, n, k: only n, in panels.
    return tileOverPanels(rewriter, linalgOp, {0, 0, kPackedPanelColumns, 0},
                          {}, kPackedPanelColumns);
  }

  /// Tiles `op`, alone (no epilogue), by `loopSizes` in the order
  /// `interchange`, its zero fill fused through the destination as in
  /// `fuse`, and packs its constant weights in blocks of `block` output
  /// channels (packFilterBlocks). Does nothing to an op whose accumulator
  /// is not a fill.
  LogicalResult tileOverPanels(RewriterBase &rewriter, linalg::LinalgOp op,
                               ArrayRef<int64_t> loopSizes,
                               ArrayRef<int64_t> interchange, int64_t block) {
    OpOperand *init = op.getDpsInitOperand(0);
    auto fill = init->get().getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.hasPureTensorSemantics())
      return success();
    // A fill of its own, into a fresh tensor: CSE may have shared the fill
    // (and its tensor.empty) with other ops, whose values must not become
    // this loop's destination.
    linalg::FillOp fresh = ownFillBefore(rewriter, op, fill);

    scf::SCFTileAndFuseOptions options;
    options.tilingOptions.setTileSizes(
        getAsIndexOpFoldResult(&getContext(), loopSizes));
    if (!interchange.empty())
      options.tilingOptions.setInterchange(interchange);
    Operation *fillOp = fresh.getOperation();
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer,
            bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (producer.getOwner() == fillOp)
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          return std::nullopt;
        });
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(result))
      return op.emitError("tfaot-fuse-epilogues: tiling failed");
    if (!result->fusedProducers.contains(fillOp))
      return op.emitError(
          "tfaot-fuse-epilogues: fill was not fused into the loop");
    remarkRewrite(op.getLoc(), "tfaot-fuse-epilogues",
                  "split " + opShortName(op) + " over output-channel blocks",
                  "'" + nodeNameOf(op.getLoc()).value_or("?") + "', " +
                      std::to_string(block) + " channels per block");
    for (LoopLikeOpInterface loop : result->loops)
      loop->setAttr(kParallelLoopAttr, rewriter.getUnitAttr());
    Value product = op->getResult(0);
    rewriter.replaceAllUsesWith(product, result->replacements.lookup(product));
    if (!result->loops.empty())
      packFilterBlocks(rewriter, result->loops.front(), block);
    for (Operation *erased : {op.getOperation(), fillOp})
      if (erased->use_empty())
        rewriter.eraseOp(erased);
    ++numConvsBlocked;
    return success();
  }

  /// Gives `contraction`, whose accumulator `fill` zeroes, a fill of its
  /// own into a fresh tensor right before it, and erases `fill` if that
  /// was its last use. Returns the new fill.
  static linalg::FillOp ownFillBefore(RewriterBase &rewriter,
                                      linalg::LinalgOp contraction,
                                      linalg::FillOp fill) {
    OpOperand *init = contraction.getDpsInitOperand(0);
    auto type = cast<RankedTensorType>(init->get().getType());
    rewriter.setInsertionPoint(contraction);
    Value empty = tensor::EmptyOp::create(rewriter, fill.getLoc(),
                                          type.getShape(),
                                          type.getElementType());
    auto fresh = linalg::FillOp::create(
        rewriter, fill.getLoc(), fill.getDpsInputOperand(0)->get(), empty);
    rewriter.modifyOpInPlace(contraction,
                             [&] { init->set(fresh->getResult(0)); });
    if (fill->use_empty())
      rewriter.eraseOp(fill);
    return fresh;
  }

  /// Puts the zero fill of each contraction left outside a loop right
  /// before it (the fused ones have theirs in their loops already).
  /// Lowering and CSE leave such fills wherever the first of the same shape
  /// was made, often layers earlier; adjacent, tfaot-vectorize-contractions
  /// starts the accumulators from the fill's value in registers and drops
  /// the fill (ResNet-50's projection convolutions, MobileNetV2's last
  /// 1x1 convolution and its classifier's matmul).
  void fillsBeforeUnfusedContractions(RewriterBase &rewriter) {
    SmallVector<std::pair<linalg::LinalgOp, linalg::FillOp>> pairs;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
               linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) ||
          !op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
          op->getParentOfType<scf::ForOp>())
        return;
      auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
      auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (fill && fill.hasPureTensorSemantics() && type &&
          type.hasStaticShape() && op->getPrevNode() != fill.getOperation())
        pairs.push_back({op, fill});
    });
    for (auto [op, fill] : pairs)
      ownFillBefore(rewriter, op, fill);
  }

  /// Says, for each contraction left outside a loop whose result an
  /// elementwise op reads, why the two were not fused (so that
  /// `tfaot compile --report` shows what costs a round trip to memory).
  void remarkUnfused() {
    getOperation().walk([&](Operation *op) {
      if (!isContraction(op) || op->getParentOfType<scf::ForOp>())
        return;
      auto contraction = cast<linalg::LinalgOp>(op);
      for (Operation *user : op->getUsers()) {
        auto generic = dyn_cast<linalg::GenericOp>(user);
        if (!generic || !isElementwise(generic))
          continue;
        std::string reason = whyNotFused(generic, contraction);
        if (reason.empty())
          continue;
        remarkRewrite(op->getLoc(), "tfaot-fuse-epilogues",
                      "epilogue not fused into " + opShortName(op), reason);
        return;
      }
    });
  }

  /// The contraction feeding `generic` that can be fused with it, after
  /// narrowing a multiplier-1 depthwise convolution; null if none.
  linalg::LinalgOp findContraction(RewriterBase &rewriter,
                                   linalg::GenericOp generic) {
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Operation *producer = input->get().getDefiningOp();
      if (!producer)
        continue;
      if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(producer)) {
        // Narrow only when the narrowed op will be fused.
        if (!collapse->hasOneUse() ||
            !collapse.getSrc().getDefiningOp<linalg::DepthwiseConv2DNhwcHwcmOp>())
          continue;
        OpOperand *init = generic.getDpsInitOperand(0);
        if (generic.getNumDpsInits() != 1 ||
            generic.getNumParallelLoops() != generic.getNumLoops() ||
            !generic.getMatchingIndexingMap(input).isIdentity() ||
            !generic.getMatchingIndexingMap(init).isIdentity() ||
            generic->getResult(0).getType() != collapse.getType())
          continue;
        producer = narrowDepthwise(rewriter, collapse);
        if (!producer)
          continue;
      }
      if (!isContraction(producer))
        continue;
      auto contraction = cast<linalg::LinalgOp>(producer);
      if (whyNotFused(generic, contraction).empty())
        return contraction;
    }
    return nullptr;
  }

  LogicalResult fuse(RewriterBase &rewriter, linalg::GenericOp generic) {
    linalg::LinalgOp contraction = findContraction(rewriter, generic);
    if (!contraction)
      return success();
    linalg::FillOp fill = destinationFill(rewriter, contraction, generic);
    Value product = contraction->getResult(0);
    auto type = cast<RankedTensorType>(product.getType());

    remarkRewrite(generic.getLoc(), "tfaot-fuse-epilogues",
                  "fused epilogue into " + opShortName(contraction),
                  "'" + nodeNameOf(contraction.getLoc()).value_or("?") +
                      "'");

    linalg::GenericOp inPlace = computeInPlace(rewriter, generic, product);

    SmallVector<int64_t> sizes = tileSizesFor(type.getShape(), contraction);
    SmallVector<OpFoldResult> tileSizes =
        getAsIndexOpFoldResult(&getContext(), sizes);
    scf::SCFTileAndFuseOptions options;
    options.tilingOptions.setTileSizes(tileSizes);
    // A convolution split over channels loops over the channel blocks
    // outside the images and rows, so each block's weights are read from
    // memory once and from cache by every other row (see kPanelBytes).
    if (sizes.size() == 4 && sizes[3] != 0)
      options.tilingOptions.setInterchange({3, 0, 1, 2});
    // Likewise a matrix product's column panels (matmulPanelColumns).
    if (sizes.size() == 2 && sizes[1] != 0)
      options.tilingOptions.setInterchange({1, 0});
    // Fuse the contraction and its fill (both reached through the loop's
    // destination); nothing else: the padded input, the bias and residual
    // operands stay whole tensors computed before the loop.
    Operation *contractionOp = contraction.getOperation();
    Operation *fillOp = fill.getOperation();
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer,
            bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (producer.getOwner() == contractionOp ||
              producer.getOwner() == fillOp)
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          return std::nullopt;
        });

    rewriter.setInsertionPoint(inPlace);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(inPlace.getOperation()), options);
    if (failed(result))
      return inPlace.emitError("tfaot-fuse-epilogues: tiling failed");
    if (!result->fusedProducers.contains(contractionOp) ||
        !result->fusedProducers.contains(fillOp))
      return inPlace.emitError(
          "tfaot-fuse-epilogues: contraction was not fused into the loop");

    // Each iteration computes its own tile of the output from inputs the
    // loop does not write.
    for (LoopLikeOpInterface loop : result->loops)
      loop->setAttr(kParallelLoopAttr, rewriter.getUnitAttr());
    for (OpResult value : inPlace->getResults())
      rewriter.replaceAllUsesWith(value, result->replacements.lookup(value));
    if (sizes.size() == 4 && sizes[3] != 0 && !result->loops.empty())
      packFilterBlocks(rewriter, result->loops.front(), sizes[3]);
    if (sizes.size() == 2 && sizes[1] != 0 && !result->loops.empty())
      packFilterBlocks(rewriter, result->loops.front(), sizes[1]);
    for (Operation *op : {inPlace.getOperation(), contractionOp, fillOp})
      if (op->use_empty())
        rewriter.eraseOp(op);
    ++numEpiloguesFused;
    return success();
  }
};

} // namespace
