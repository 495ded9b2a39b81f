//===- AssignLayoutFolds.cpp - Transposes folded away ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The parts of --tfaot-assign-layout's step 2 (see AssignLayout.cpp) that
// remove transposes without moving them: identity and composed transposes,
// transposes absorbed into the weights of the MatMuls that read them
// flattened, and transposes of size-1 dimensions made Reshapes.
//
//===----------------------------------------------------------------------===//
#include "passes/AssignLayoutRewriter.h"
#include "passes/ConstantUtils.h"
#include "passes/Remarks.h"

#include "ir/Ops.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::assign_layout;

/// Identity transposes go, transposes of transposes compose, and
/// transposes of constants fold. Returns whether anything changed.
bool LayoutRewriter::foldTransposes() {
  bool changed = false;
  SmallVector<TransposeOp> transposes(block.getOps<TransposeOp>());
  DenseSet<Operation *> erased;
  for (TransposeOp t : transposes) {
    if (erased.contains(t))
      continue;
    std::optional<Perm> perm = permOf(t);
    if (!perm)
      continue;
    Value x = t.getX();
    auto inner = x.getDefiningOp<TransposeOp>();
    std::optional<Perm> innerPerm = inner ? permOf(inner) : std::nullopt;
    if (!isIdentity(*perm) && !denseConstant(x) && !innerPerm)
      continue;
    OpBuilder b(t);
    Value replacement = innerPerm ? transpose(b, t.getLoc(), inner.getX(),
                                              compose(*innerPerm, *perm))
                                  : transpose(b, t.getLoc(), x, *perm);
    t.getY().replaceAllUsesWith(replacement);
    erased.insert(t);
    if (inner && inner->hasOneUse())
      erased.insert(inner);
    erase(t);
    changed = true;
  }
  return changed;
}

/// `attr` with its dimension `axis`, the flattening of a tensor y =
/// Transpose(x, perm) without its first dimension, reordered to flatten x
/// instead: element j of the new axis is the element of the old one that
/// holds the same element of x.
static DenseElementsAttr reorderFlattened(DenseElementsAttr attr, int64_t axis,
                                          ArrayRef<int64_t> xShape,
                                          ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t rank = xShape.size();
  // The axis split into y's dimensions 1..rank-1; x dimension k is y
  // dimension inv[k].
  Perm inv = inverse(perm);
  SmallVector<int64_t> shape(type.getShape().take_front(axis));
  SmallVector<int64_t> q;
  for (int64_t d = 0; d < axis; ++d)
    q.push_back(d);
  for (int64_t k = 1; k < rank; ++k) {
    shape.push_back(xShape[perm[k]]);
    q.push_back(axis + inv[k] - 1);
  }
  for (int64_t d = axis + 1; d < type.getRank(); ++d) {
    q.push_back(shape.size());
    shape.push_back(type.getDimSize(d));
  }
  DenseElementsAttr reordered =
      transposeElements(attr.reshape(type.clone(shape)), q);
  return reordered ? reordered.reshape(type) : reordered;
}

/// Folds y = Transpose(x, perm) into the MatMuls that read it flattened,
/// Reshape(y) to [batch, K] times constant weights W, possibly through
/// elementwise ops on the flattened rows (Mul of two branches flattened the
/// same way, Add of a constant). Flattening x instead orders the K columns
/// differently; every flattened value keeps that order up to the MatMuls,
/// whose weight rows (and any [K]-shaped constant on the way) are reordered
/// to match. The batch dimension stays first (perm[0] = 0). All users of
/// the transposes and of the values on the way must be part of this, or a
/// transpose would stay anyway.
bool LayoutRewriter::absorbIntoMatMuls(TransposeOp transpose) {
  std::optional<Perm> perm = permOf(transpose);
  auto xType = dyn_cast<RankedTensorType>(transpose.getX().getType());
  if (!perm || (*perm)[0] != 0 || !xType || !xType.hasStaticShape() ||
      transpose->use_empty())
    return false;
  ArrayRef<int64_t> xShape = xType.getShape();
  int64_t batch = xShape[0];
  // Another transpose flattened exactly the same way joins the group.
  auto sameFlattening = [&](Value v) -> TransposeOp {
    auto reshape = v.getDefiningOp<ReshapeOp>();
    auto t = reshape ? reshape.getTensor().getDefiningOp<TransposeOp>()
                     : TransposeOp();
    if (!t || t.getX().getType() != xType || permOf(t) != perm)
      return {};
    return t;
  };
  auto isFlat = [&](Type type) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    return ranked && ranked.hasStaticShape() && ranked.getRank() == 2 &&
           ranked.getDimSize(0) == batch &&
           ranked.getNumElements() == xType.getNumElements();
  };
  // Values whose columns are in y's flattened order (to become x's).
  llvm::SetVector<Operation *> transposes, members; // members: reshapes too
  SmallVector<MatMulOp> matmuls;
  SmallVector<Operation *> worklist;
  auto addTranspose = [&](TransposeOp t) {
    if (!transposes.insert(t))
      return true;
    for (Operation *user : t->getUsers()) {
      auto reshape = dyn_cast<ReshapeOp>(user);
      if (!reshape || reshape.getTensor() != t.getY() ||
          !isFlat(reshape.getType()))
        return false;
      worklist.push_back(reshape);
    }
    return true;
  };
  if (!addTranspose(transpose))
    return false;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!members.insert(op))
      continue;
    // Operands of elementwise members: flattened alike, or constant.
    if (!isa<ReshapeOp>(op)) {
      for (Value operand : op->getOperands()) {
        if (Operation *def = operand.getDefiningOp();
            def && members.contains(def))
          continue;
        if (TransposeOp t = sameFlattening(operand)) {
          if (!addTranspose(t))
            return false;
          continue;
        }
        auto type = dyn_cast<RankedTensorType>(operand.getType());
        bool uniform = type && (type.getRank() == 0 ||
                                type.getDimSize(type.getRank() - 1) == 1);
        if (!uniform && !denseConstant(operand))
          return false;
      }
    }
    for (OpOperand &use : op->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      if (auto matmul = dyn_cast<MatMulOp>(user)) {
        if (use.getOperandNumber() != 0 || matmul.getTransposeA() ||
            !denseConstant(matmul.getB()))
          return false;
        if (!llvm::is_contained(matmuls, matmul))
          matmuls.push_back(matmul);
        continue;
      }
      bool elementwise =
          isUnaryElementwise(user) ||
          (isBroadcastingElementwise(user) && !isa<PreluOp>(user));
      if (!elementwise || user->getNumResults() != 1 ||
          !isFlat(user->getResult(0).getType()))
        return false;
      worklist.push_back(user);
    }
  }
  // Every constant on the way that varies along the columns, then the
  // weights, reordered; nothing changes unless all of them can be.
  SmallVector<std::pair<OpOperand *, DenseElementsAttr>> replacements;
  for (Operation *op : members) {
    if (isa<ReshapeOp>(op))
      continue;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      Operation *def = operand.get().getDefiningOp();
      if ((def && members.contains(def)) || !type || type.getRank() == 0 ||
          type.getDimSize(type.getRank() - 1) == 1)
        continue;
      DenseElementsAttr value = denseConstant(operand.get());
      value = value ? reorderFlattened(value, type.getRank() - 1, xShape, *perm)
                    : value;
      if (!value)
        return false;
      replacements.push_back({&operand, value});
    }
  }
  for (MatMulOp matmul : matmuls) {
    DenseElementsAttr w = reorderFlattened(
        denseConstant(matmul.getB()), matmul.getTransposeB() ? 1 : 0, xShape,
        *perm);
    if (!w)
      return false;
    replacements.push_back({&matmul.getBMutable(), w});
  }
  llvm::SetVector<Operation *> dead;
  for (auto [operand, value] : replacements) {
    OpBuilder b(operand->getOwner());
    if (Operation *def = operand->get().getDefiningOp())
      dead.insert(def);
    operand->set(ConstOp::create(b, operand->get().getLoc(), value.getType(),
                                 value));
  }
  for (Operation *op : members)
    if (auto reshape = dyn_cast<ReshapeOp>(op))
      reshape.getTensorMutable().assign(
          cast<TransposeOp>(reshape.getTensor().getDefiningOp()).getX());
  for (Operation *t : transposes) {
    remarkRewrite(t->getLoc(), "tfaot-assign-layout",
                  "Transpose folded into MatMul weights");
    eraseKeepingOperands(t, dead);
  }
  eraseDead(dead);
  return true;
}

/// Transposes left that only move size-1 dimensions become Reshapes
/// (done last: while transposes still move, such a one can cancel with
/// another, which a Reshape would prevent).
void LayoutRewriter::unitTransposesToReshapes() {
  SmallVector<TransposeOp> transposes(block.getOps<TransposeOp>());
  for (TransposeOp t : transposes) {
    std::optional<Perm> perm = permOf(t);
    if (!perm || isIdentity(*perm) || !movesOnlyUnitDims(t, *perm))
      continue;
    OpBuilder b(t);
    Value x = t.getX();
    auto type = cast<RankedTensorType>(t.getY().getType());
    Value reshape = x;
    if (type != x.getType()) {
      Value shape = intConstant(
          b, t.getLoc(),
          RankedTensorType::get({type.getRank()}, b.getI32Type()),
          type.getShape());
      reshape = ReshapeOp::create(b, t.getLoc(), type, x, shape);
    }
    auto dims = [](ArrayRef<int64_t> shape) {
      return llvm::join(llvm::map_range(shape,
                                        [](int64_t d) { return std::to_string(d); }),
                        "x");
    };
    remarkRewrite(t.getLoc(), "tfaot-assign-layout",
                  "Transpose of size-1 dimensions made a Reshape",
                  dims(cast<RankedTensorType>(x.getType()).getShape()) +
                      " to " + dims(type.getShape()));
    t.getY().replaceAllUsesWith(reshape);
    erase(t);
  }
}
