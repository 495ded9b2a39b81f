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

/// When `result` is an NHWC batch-1 buffer of its own (an alloc) that the
/// op `writer` writes whole, and the only thing done with it after `writer`
/// is one copy into the interior of a padded buffer (followed by nothing,
/// deallocs, or a later layer that reuses the buffer and overwrites all of
/// it first), moves the padded buffer's alloc, fill and interior subview
/// before `writer`, erases the copy and returns the subview, which the
/// caller makes `writer` write instead of `result`. Returns null and
/// changes nothing otherwise.
memref::SubViewOp redirectCopyIntoPaddedBuffer(Value result,
                                               Operation *writer) {
  auto resultAlloc = result.getDefiningOp<memref::AllocOp>();
  auto type = cast<MemRefType>(result.getType());
  if (!resultAlloc || type.getRank() != 4 || type.getDimSize(0) != 1 ||
      resultAlloc->getBlock() != writer->getBlock())
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
    if (!overwrite || !overwritesInit(overwrite) ||
        overwrite.getDpsInitOperand(0)->get() != result)
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
      paddedType.getDimSize(0) != 1 ||
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
  return interior;
}

/// Whether `op` is elementwise on buffers and overwrites its output (so
/// the buffer it writes may be any other of the same shape; reading that
/// buffer through an input would break once the output moves).
bool writesWholeInit(linalg::LinalgOp op) {
  return op.hasPureBufferSemantics() &&
         op.getNumLoops() == op.getNumParallelLoops() && overwritesInit(op);
}

struct WriteIntoPaddedBuffersPass
    : public tfaot::impl::WriteIntoPaddedBuffersPassBase<
          WriteIntoPaddedBuffersPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> writers;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (writesWholeInit(op))
        writers.push_back(op);
    });
    for (linalg::LinalgOp op : writers) {
      OpOperand *init = op.getDpsInitOperand(0);
      memref::SubViewOp interior =
          redirectCopyIntoPaddedBuffer(init->get(), op);
      if (!interior)
        continue;
      init->set(interior.getResult());
      ++numCopiesRemoved;
    }
  }
};

} // namespace
