//===- BatchRows.cpp - Does a function compute each batch row alone? ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Every value of the function gets a kind: Rows (its first dimension is the
// batch and row i depends only on the arguments' row i), Uniform (the same
// for every row: an empty tensor, or one filled with a scalar, which is what
// destination operands start as) or Invariant (computed without the
// arguments: weights, constants). A linalg op keeps rows apart when one
// parallel loop indexes the first dimension of every Rows operand and of its
// outputs, and no other loop and no Invariant operand touches that loop.
// A few tensor ops that leave the first dimension alone (pads, reshapes that
// keep it a group of its own, whole-batch slices) pass rows through.
// Anything else that touches a Rows or Uniform value ends the analysis.
//
//===----------------------------------------------------------------------===//
#include "passes/BatchRows.h"

#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace {

enum class RowKind { Invariant, Uniform, Rows };

int64_t bytesOf(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  int64_t bits = shaped.getElementType().getIntOrFloatBitWidth();
  return shaped.getNumElements() * std::max<int64_t>(1, bits / 8);
}

class BatchRowAnalysis {
public:
  BatchRowAnalysis(int64_t batch, std::string &why) : batch(batch), why(why) {}

  bool run(func::FuncOp func) {
    for (BlockArgument arg : func.getArguments()) {
      if (!hasBatchRows(arg.getType()))
        return fail("argument " + std::to_string(arg.getArgNumber()) +
                    " has no batch of " + std::to_string(batch) +
                    " as its first dimension");
      kinds[arg] = RowKind::Rows;
    }
    for (Operation &op : func.getBody().front())
      if (!visit(&op))
        return false;
    return true;
  }

  tfaot::BatchRowTraffic traffic;

private:
  int64_t batch;
  std::string &why;
  llvm::DenseMap<Value, RowKind> kinds;

  bool fail(const std::string &reason) {
    why = reason;
    return false;
  }
  bool failOp(Operation *op, const std::string &reason) {
    std::optional<std::string> node = tfaot::nodeNameOf(op->getLoc());
    return fail("'" + op->getName().getStringRef().str() + "'" +
                (node ? " of node '" + *node + "'" : std::string()) + " " +
                reason);
  }
  RowKind kindOf(Value value) const {
    auto it = kinds.find(value);
    return it == kinds.end() ? RowKind::Invariant : it->second;
  }
  bool hasBatchRows(Type type) const {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.hasStaticShape() && tensor.getRank() >= 1 &&
           tensor.getDimSize(0) == batch;
  }
  void setAll(Operation *op, RowKind kind) {
    for (Value result : op->getResults())
      kinds[result] = kind;
  }
  bool touchesRows(Operation *op) const {
    return llvm::any_of(op->getOperands(), [&](Value v) {
      return kindOf(v) != RowKind::Invariant;
    });
  }

  /// Whether a region of `op` reads a value carrying rows from above (a
  /// gather's tensor.extract does): which row it reads is not visible.
  bool capturesRows(Operation *op) const {
    bool captures = false;
    op->walk([&](Operation *inner) {
      if (inner == op)
        return;
      for (Value value : inner->getOperands())
        if (kindOf(value) != RowKind::Invariant &&
            !op->isAncestor(value.getParentRegion()->getParentOp()))
          captures = true;
    });
    return captures;
  }

  bool visit(Operation *op) {
    if (op->getNumRegions() && capturesRows(op))
      return failOp(op, "reads rows inside its body");
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return visitLinalg(linalgOp);
    if (isa<tensor::EmptyOp>(op)) {
      setAll(op, RowKind::Uniform);
      return true;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value value : ret.getOperands())
        if (kindOf(value) != RowKind::Rows || !hasBatchRows(value.getType()))
          return fail("a result does not keep the batch rows apart");
      return true;
    }
    if (auto pad = dyn_cast<tensor::PadOp>(op))
      return passRows(op, pad.getSource(),
                      pad.getStaticLow()[0] == 0 && pad.getStaticHigh()[0] == 0);
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      return passRows(op, collapse.getSrc(),
                      collapse.getReassociationIndices()[0].size() == 1);
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      return passRows(op, expand.getSrc(),
                      expand.getReassociationIndices()[0].size() == 1);
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      return passRows(op, slice.getSource(), wholeBatch(slice));
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      if (kindOf(insert.getSource()) != RowKind::Rows ||
          kindOf(insert.getDest()) == RowKind::Invariant || !wholeBatch(insert))
        return failOp(op, "inserts rows at other rows");
      kinds[insert.getResult()] = RowKind::Rows;
      return true;
    }
    if (op->getNumRegions() == 0 && !touchesRows(op)) {
      setAll(op, RowKind::Invariant);
      return true;
    }
    return failOp(op, "is not known to keep batch rows apart");
  }

  /// A one-source tensor op whose result row i is the source's row i when
  /// `keepsRows` holds.
  bool passRows(Operation *op, Value source, bool keepsRows) {
    RowKind kind = kindOf(source);
    if (kind == RowKind::Invariant) {
      setAll(op, RowKind::Invariant);
      return true;
    }
    if (!keepsRows || kind != RowKind::Rows ||
        !hasBatchRows(op->getResult(0).getType()))
      return failOp(op, "changes the batch dimension");
    setAll(op, RowKind::Rows);
    return true;
  }

  template <typename SliceOp> bool wholeBatch(SliceOp slice) const {
    return slice.getStaticOffsets()[0] == 0 &&
           slice.getStaticSizes()[0] == batch &&
           slice.getStaticStrides()[0] == 1;
  }

  bool visitLinalg(linalg::LinalgOp op) {
    bool anyRows = llvm::any_of(op->getOperands(), [&](Value v) {
      return kindOf(v) == RowKind::Rows;
    });
    if (!anyRows) {
      // A fill of a destination stays the same for every row.
      bool uniform = isa<linalg::FillOp>(op) &&
                     kindOf(op.getDpsInits()[0]) == RowKind::Uniform;
      setAll(op, uniform ? RowKind::Uniform : RowKind::Invariant);
      return true;
    }
    // The loop that walks the batch: the first index of every Rows operand.
    std::optional<unsigned> batchLoop;
    for (OpOperand &operand : op->getOpOperands()) {
      if (kindOf(operand.get()) != RowKind::Rows)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      auto first = map.getNumResults()
                       ? dyn_cast<AffineDimExpr>(map.getResult(0))
                       : nullptr;
      if (!first || (batchLoop && *batchLoop != first.getPosition()))
        return failOp(op, "does not index the batch with one loop");
      batchLoop = first.getPosition();
    }
    unsigned loop = *batchLoop;
    if (op.getIteratorTypesArray()[loop] != utils::IteratorType::parallel)
      return failOp(op, "reduces over the batch");
    int64_t rowBytes = 0;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      RowKind kind = kindOf(operand.get());
      bool isInit = op.isDpsInit(&operand);
      // Rows and destinations are indexed by the loop first and only
      // there; every other operand (weights, a pooling window's shape)
      // never sees it.
      bool rowIndexed = kind == RowKind::Rows || isInit;
      for (unsigned r = 0; r < map.getNumResults(); ++r) {
        bool usesLoop = map.getResult(r).isFunctionOfDim(loop);
        bool isLoop = r == 0 && map.getResult(0) ==
                                    getAffineDimExpr(loop, op->getContext());
        if (rowIndexed ? usesLoop != isLoop || (r == 0 && !isLoop)
                       : usesLoop)
          return failOp(op, "reads other rows through operand " +
                                std::to_string(operand.getOperandNumber()));
      }
      if (isInit && (kind == RowKind::Invariant ||
                     !hasBatchRows(operand.get().getType())))
        return failOp(op, "writes rows into a tensor without them");
      if (kind == RowKind::Invariant)
        traffic.invariantBytes += bytesOf(operand.get().getType());
      else if (kind == RowKind::Rows)
        rowBytes += bytesOf(operand.get().getType());
    }
    // A body that asks for its batch index would see the slice's.
    bool readsBatchIndex = false;
    op->walk([&](linalg::IndexOp index) {
      readsBatchIndex |= index.getDim() == loop;
    });
    if (readsBatchIndex)
      return failOp(op, "reads its batch index");
    for (Value result : op->getResults())
      rowBytes += bytesOf(result.getType());
    traffic.bytesPerRow += rowBytes / batch;
    traffic.peakBytesPerRow =
        std::max(traffic.peakBytesPerRow, rowBytes / batch);
    setAll(op, RowKind::Rows);
    return true;
  }
};

} // namespace

std::optional<mlir::tfaot::BatchRowTraffic>
mlir::tfaot::analyzeBatchRows(func::FuncOp func, int64_t batch,
                              std::string &why) {
  if (batch < 2) {
    why = "the batch is " + std::to_string(batch);
    return std::nullopt;
  }
  if (func.getBody().getBlocks().size() != 1) {
    why = "the function has more than one block";
    return std::nullopt;
  }
  BatchRowAnalysis analysis(batch, why);
  if (!analysis.run(func))
    return std::nullopt;
  return analysis.traffic;
}
