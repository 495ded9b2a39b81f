//===- WriteIntoPaddedBuffers.cpp - Producers write padded interiors ------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-write-into-padded-buffers: see the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"
#include "passes/LoweringUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_WRITEINTOPADDEDBUFFERSPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// Whether `op` sets every element of its one init buffer from its inputs
/// alone: identity output map, the output's old value not read, by the
/// payload or through an input.
bool overwritesInit(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(init).isIdentity() ||
      op.payloadUsesValueFromOperand(init))
    return false;
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get() == init->get())
      return false;
  return true;
}

SmallVector<memref::SubViewOp>
tileWrittenWhole(scf::ForOp loop, Value buffer,
                 SmallVector<memref::CopyOp> &selfCopies);

/// Whether the fill `fill` (a linalg.fill, or an input-less linalg.map
/// whose body yields a value from outside it, so a clone on any view of
/// the buffer writes the same value) may be cloned onto parts of its
/// buffer.
bool fillsOneValue(Operation *fill) {
  if (isa<linalg::FillOp>(fill))
    return true;
  auto map = dyn_cast<linalg::MapOp>(fill);
  if (!map)
    return false;
  Value yielded = map.getMapper().front().getTerminator()->getOperand(0);
  return !map.getMapper().isAncestor(yielded.getParentRegion());
}

/// Replaces the fill of the padded buffer `interior` views, which its
/// producer now writes, by fills of the rows above and below the interior
/// and the columns left and right of it: the interior's elements were
/// written twice (MobileNetV2 at batch 8 spent 8% of a run zeroing the
/// depthwise convolutions' padded inputs). Leaves `fill` alone when the
/// interior's position is not static.
void fillBorderOnly(Operation *fill, memref::SubViewOp interior) {
  auto padded = cast<MemRefType>(interior.getSource().getType());
  ArrayRef<int64_t> offsets = interior.getStaticOffsets();
  ArrayRef<int64_t> sizes = interior.getStaticSizes();
  if (!fillsOneValue(fill) ||
      llvm::any_of(offsets, ShapedType::isDynamic) ||
      llvm::any_of(sizes, ShapedType::isDynamic))
    return;
  int64_t n = padded.getDimSize(0), rows = padded.getDimSize(1),
          cols = padded.getDimSize(2), channels = padded.getDimSize(3);
  int64_t top = offsets[1], left = offsets[2], height = sizes[1],
          width = sizes[2];
  // (row, column, rows, columns) of each border part.
  SmallVector<std::array<int64_t, 4>> parts = {
      {0, 0, top, cols},
      {top + height, 0, rows - top - height, cols},
      {top, 0, height, left},
      {top, left + width, height, cols - left - width}};
  OpBuilder b(fill);
  Value buffer = interior.getSource();
  for (auto [row, col, numRows, numCols] : parts) {
    if (numRows <= 0 || numCols <= 0)
      continue;
    SmallVector<int64_t> partOffsets = {0, row, col, 0};
    SmallVector<int64_t> partSizes = {n, numRows, numCols, channels};
    SmallVector<int64_t> unit(4, 1);
    auto part = memref::SubViewOp::create(b, fill->getLoc(), buffer,
                                          partOffsets, partSizes, unit);
    Operation *clone = b.clone(*fill);
    cast<DestinationStyleOpInterface>(clone).getDpsInitOperand(0)->set(
        part.getResult());
  }
  fill->erase();
}

/// Whether `writer` (a linalg op) reads i32 buffers: the sums of an int8
/// product.
bool readsInt32(Operation *writer) {
  auto op = dyn_cast<linalg::LinalgOp>(writer);
  return op && llvm::any_of(op.getDpsInputOperands(), [](OpOperand *input) {
           auto type = dyn_cast<MemRefType>(input->get().getType());
           return type && type.getElementType().isInteger(32);
         });
}

/// When `result` is an NHWC buffer of its own (an alloc) that the
/// op `writer` writes whole, and the only thing done with it after `writer`
/// is one copy into the interior of a padded buffer (followed by nothing,
/// deallocs, or a later layer that reuses the buffer and overwrites all of
/// it first, an op or a tile loop), moves the padded buffer's alloc, fill and interior subview
/// before `writer`, erases the copy and returns the subview, which the
/// caller makes `writer` write instead of `result`, and the fill in
/// `padFill`. Returns null and changes nothing otherwise.
memref::SubViewOp redirectCopyIntoPaddedBuffer(Value result, Operation *writer,
                                               Operation *&padFill) {
  auto resultAlloc = result.getDefiningOp<memref::AllocOp>();
  auto type = cast<MemRefType>(result.getType());
  if (!resultAlloc || type.getRank() != 4 ||
      resultAlloc->getBlock() != writer->getBlock())
    return {};
  // The int8 kernels apply an epilogue reading their i32 sums themselves
  // when its result is dense or the interior of one padded image
  // (Int8Epilogue.cpp): a batch's padded interior would cost that fusion.
  if (type.getDimSize(0) != 1 && readsInt32(writer))
    return {};
  // The result's users: the writer, then one copy out; after that only
  // deallocs, or a later layer that reuses the buffer and starts by
  // overwriting all of it (bufferization shares buffers so). Which use is
  // first is decided by block order: the order of the use list changes
  // from run to run.
  Block *block = writer->getBlock();
  SmallVector<Operation *> after;
  for (Operation *user : result.getUsers()) {
    Operation *at = block->findAncestorOpInBlock(*user);
    if (!at)
      return {};
    // Uses before the writer are earlier layers' (the writer writes all of
    // the buffer).
    if (at == writer || isa<memref::DeallocOp>(at) ||
        at->isBeforeInBlock(writer))
      continue;
    after.push_back(at);
  }
  auto inBlockOrder = [](Operation *a, Operation *b) {
    return a != b && a->isBeforeInBlock(b);
  };
  llvm::sort(after, inBlockOrder);
  after.erase(llvm::unique(after), after.end());
  auto copy = after.empty() ? memref::CopyOp()
                            : dyn_cast<memref::CopyOp>(after.front());
  if (!copy || copy.getSource() != result)
    return {};
  Operation *firstLater = after.size() > 1 ? after[1] : nullptr;
  if (firstLater) {
    auto overwrite = dyn_cast<linalg::LinalgOp>(firstLater);
    auto loop = dyn_cast<scf::ForOp>(firstLater);
    SmallVector<memref::CopyOp> selfCopies;
    bool overwrites =
        overwrite ? overwritesInit(overwrite) &&
                        overwrite.getDpsInitOperand(0)->get() == result
                  : loop && loop->hasAttr(tfaot::kParallelLoopAttr) &&
                        !tileWrittenWhole(loop, result, selfCopies).empty();
    if (!overwrites)
      return {};
  }
  auto interior = copy.getTarget().getDefiningOp<memref::SubViewOp>();
  if (!interior || !interior.hasUnitStride() ||
      interior.getType().getShape() != type.getShape())
    return {};
  Value padded = interior.getSource();
  auto paddedAlloc = padded.getDefiningOp<memref::AllocOp>();
  auto paddedType = cast<MemRefType>(padded.getType());
  if (!paddedAlloc || !paddedType.getLayout().isIdentity() ||
      // Padded in rows and columns only: the interior then keeps the
      // buffer's images and channels whole (a batch of images too).
      paddedType.getDimSize(0) != type.getDimSize(0) ||
      paddedType.getDimSize(3) != type.getDimSize(3))
    return {};
  // Before the copy, the padded buffer is only allocated, filled whole with
  // the pad value (a linalg.fill or an input-less linalg.map) and viewed.
  Operation *fill = nullptr;
  for (Operation *user : padded.getUsers()) {
    Operation *at = block->findAncestorOpInBlock(*user);
    if (!at || (!at->isBeforeInBlock(copy) && at != copy.getOperation()))
      continue;
    if (at == interior.getOperation())
      continue;
    if (tfaot::filledBuffer(at) != padded || fill)
      return {};
    fill = at;
  }
  if (!fill || !writer->isBeforeInBlock(paddedAlloc) ||
      !fill->isBeforeInBlock(copy))
    return {};
  // What the fill and the view use must exist there; constants defined
  // later (the pad value) move along.
  SmallVector<Operation *> constants;
  auto availableAt = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == block &&
        def->hasTrait<OpTrait::ConstantLike>() &&
        !def->isBeforeInBlock(writer)) {
      constants.push_back(def);
      return true;
    }
    return !def || def == paddedAlloc.getOperation() ||
           (def->getBlock() == block && def->isBeforeInBlock(writer)) ||
           def->getBlock() != block;
  };
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(fill->getRegions(), captured);
  for (Value v : llvm::concat<Value>(fill->getOperands(), captured,
                                     interior->getOperands()))
    if (!availableAt(v))
      return {};
  for (Operation *constant : constants)
    constant->moveBefore(writer);
  paddedAlloc->moveBefore(writer);
  fill->moveBefore(writer);
  interior->moveBefore(writer);
  copy.erase();
  padFill = fill;
  return interior;
}

/// Whether `op` is elementwise on buffers and overwrites its output (so
/// the buffer it writes may be any other of the same shape; reading that
/// buffer through an input would break once the output moves).
bool writesWholeInit(linalg::LinalgOp op) {
  return op.hasPureBufferSemantics() &&
         op.getNumLoops() == op.getNumParallelLoops() && overwritesInit(op);
}

/// Whether two views take the same offsets, sizes and strides.
bool sameWindow(memref::SubViewOp a, memref::SubViewOp b) {
  auto same = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return same(a.getMixedOffsets(), b.getMixedOffsets()) &&
         same(a.getMixedSizes(), b.getMixedSizes()) &&
         same(a.getMixedStrides(), b.getMixedStrides());
}

/// The views through which the tile loop nest `loop` (a
/// tfaot-fuse-epilogues loop: scf.for marked kParallelLoopAttr) writes
/// `buffer`, when they all take one tile (bufferization leaves two equal
/// views and a copy between them, for the loop's insert_slice, until CSE),
/// the tiles cover every element of the buffer, each tile is first
/// overwritten by a linalg.fill (the contraction's zero accumulator; the
/// epilogue then reads only its own tile), and only linalg ops and such
/// self-copies (appended to `selfCopies`) use them; empty otherwise. Such a
/// loop writes the buffer whole from its other operands, as an elementwise
/// writer does. Coverage: in each dimension the tile's offset is 0 with the
/// full size, or the induction variable of a loop of the nest running from
/// 0 to the dimension's size in steps of the tile's size.
SmallVector<memref::SubViewOp>
tileWrittenWhole(scf::ForOp loop, Value buffer,
                 SmallVector<memref::CopyOp> &selfCopies) {
  SmallVector<memref::SubViewOp> views;
  for (Operation *user : buffer.getUsers()) {
    if (!loop->isProperAncestor(user))
      continue;
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (!view || !view.hasUnitStride() ||
        view.getType().getRank() != view.getSourceType().getRank() ||
        (!views.empty() && (view->getBlock() != views.front()->getBlock() ||
                            !sameWindow(view, views.front()))))
      return {};
    views.push_back(view);
  }
  if (views.empty())
    return {};
  auto isView = [&](Value v) {
    return llvm::any_of(views, [&](memref::SubViewOp view) {
      return view.getResult() == v;
    });
  };
  Operation *first = nullptr;
  for (memref::SubViewOp view : views)
    for (Operation *user : view->getUsers()) {
      if (user->getBlock() != view->getBlock())
        return {};
      if (auto copy = dyn_cast<memref::CopyOp>(user)) {
        if (!isView(copy.getSource()) || !isView(copy.getTarget()))
          return {};
        if (!llvm::is_contained(selfCopies, copy))
          selfCopies.push_back(copy);
      } else if (!isa<linalg::LinalgOp>(user)) {
        return {};
      }
      if (!first || user->isBeforeInBlock(first))
        first = user;
    }
  auto fill = dyn_cast_or_null<linalg::FillOp>(first);
  if (!fill || !isView(fill.getDpsInitOperand(0)->get()))
    return {};
  memref::SubViewOp tile = views.front();
  ArrayRef<int64_t> shape = tile.getSourceType().getShape();
  for (auto [d, offset] : llvm::enumerate(tile.getMixedOffsets())) {
    std::optional<int64_t> size = getConstantIntValue(tile.getMixedSizes()[d]);
    if (!size)
      return {};
    if (isConstantIntValue(offset, 0) && *size == shape[d])
      continue;
    auto iv = dyn_cast_if_present<BlockArgument>(dyn_cast<Value>(offset));
    auto owner = iv ? dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp())
                    : scf::ForOp();
    if (!owner || owner.getInductionVar() != iv ||
        (owner != loop && !loop->isProperAncestor(owner)) ||
        getConstantIntValue(owner.getLowerBound()) != 0 ||
        getConstantIntValue(owner.getStep()) != *size ||
        getConstantIntValue(owner.getUpperBound()) != shape[d])
      return {};
  }
  return views;
}

struct WriteIntoPaddedBuffersPass
    : public tfaot::impl::WriteIntoPaddedBuffersPassBase<
          WriteIntoPaddedBuffersPass> {
  void runOnOperation() override {
    // Each padded buffer whose interior gets a producer, with its fill,
    // which then shrinks to the border. Done last: a fill may itself be
    // one of the writers below (an input-less linalg.map).
    SmallVector<std::pair<Operation *, memref::SubViewOp>> padFills;
    Operation *padFill = nullptr;
    SmallVector<linalg::LinalgOp> writers;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (writesWholeInit(op))
        writers.push_back(op);
    });
    for (linalg::LinalgOp op : writers) {
      OpOperand *init = op.getDpsInitOperand(0);
      memref::SubViewOp interior =
          redirectCopyIntoPaddedBuffer(init->get(), op, padFill);
      if (!interior)
        continue;
      init->set(interior.getResult());
      padFills.push_back({padFill, interior});
      ++numCopiesRemoved;
    }
    // The fused convolution loops of tfaot-fuse-epilogues write their
    // result tile by tile: their tile view is rebuilt on the padded
    // buffer's interior (same offsets and sizes, the interior's strides).
    // MobileNetV2 copied each expand convolution's result into the padded
    // input of its depthwise convolution: 12% of a run on one Zen 5 core.
    SmallVector<scf::ForOp> loops;
    for (auto loop : getOperation().getBody().getOps<scf::ForOp>())
      if (loop->hasAttr(tfaot::kParallelLoopAttr))
        loops.push_back(loop);
    for (scf::ForOp loop : loops) {
      SmallVector<Value> buffers;
      loop.walk([&](memref::SubViewOp view) {
        auto alloc = view.getSource().getDefiningOp<memref::AllocOp>();
        if (alloc && alloc->getBlock() == loop->getBlock() &&
            !llvm::is_contained(buffers, view.getSource()))
          buffers.push_back(view.getSource());
      });
      for (Value buffer : buffers) {
        SmallVector<memref::CopyOp> selfCopies;
        SmallVector<memref::SubViewOp> views =
            tileWrittenWhole(loop, buffer, selfCopies);
        if (views.empty())
          continue;
        memref::SubViewOp interior =
            redirectCopyIntoPaddedBuffer(buffer, loop, padFill);
        if (!interior)
          continue;
        for (memref::CopyOp copy : selfCopies)
          copy.erase();
        for (memref::SubViewOp tile : views) {
          OpBuilder builder(tile);
          auto moved = memref::SubViewOp::create(
              builder, tile.getLoc(), interior.getResult(),
              tile.getMixedOffsets(), tile.getMixedSizes(),
              tile.getMixedStrides());
          // The tile's users are linalg ops on buffers, which take any
          // strided layout.
          tile.getResult().replaceAllUsesWith(moved.getResult());
          tile.erase();
        }
        padFills.push_back({padFill, interior});
        ++numCopiesRemoved;
      }
    }
    for (auto [fill, interior] : padFills)
      fillBorderOnly(fill, interior);
  }
};

} // namespace
