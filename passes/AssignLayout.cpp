//===- AssignLayout.cpp - One data layout, as few transposes as possible --===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-assign-layout (see the pass description in Passes.td). Step 1 puts
// every op with a data_format into the target layout between two
// transposes. Step 2 moves transposes through layout-agnostic ops where
// that removes some: for a transpose with permutation p it takes the
// connected group of ops that can compute their values permuted by p,
// counts the transposes a rewrite of the group would remove and add, and
// rewrites the group when the count drops (or stays, moving transposes
// towards the results). Each rewrite only permutes elements, so numbers are
// unchanged.
//
// Notation: a value v of the old graph and its counterpart v' in the new
// one are related by v = Transpose(v', p), i.e. dimension k of v is
// dimension p[k] of v'.
//
// This file holds the permutation helpers, step 1 and the pass; step 2's
// moves are in AssignLayoutMotion.cpp, its folds in AssignLayoutFolds.cpp,
// and AssignLayoutRewriter.h declares what the three share.
//
//===----------------------------------------------------------------------===//
#include "passes/AssignLayoutRewriter.h"
#include "passes/ConstantUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "ir/Ops.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"


namespace mlir::tfaot {
#define GEN_PASS_DEF_ASSIGNLAYOUTPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::assign_layout;

//===----------------------------------------------------------------------===//
// Permutations and constants
//===----------------------------------------------------------------------===//

namespace mlir::tfaot::assign_layout {

bool isIdentity(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

Perm inverse(ArrayRef<int64_t> perm) {
  Perm result(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    result[p] = i;
  return result;
}

/// Transpose(Transpose(x, first), second) == Transpose(x, compose(first,
/// second)).
Perm compose(ArrayRef<int64_t> first, ArrayRef<int64_t> second) {
  Perm result;
  for (int64_t k : second)
    result.push_back(first[k]);
  return result;
}

/// The shape of Transpose(x, perm) for x of `shape`.
static SmallVector<int64_t> transposeShape(ArrayRef<int64_t> shape,
                                           ArrayRef<int64_t> perm) {
  SmallVector<int64_t> result;
  for (int64_t k : perm)
    result.push_back(shape[k]);
  return result;
}

RankedTensorType transposeType(Type type, ArrayRef<int64_t> perm) {
  auto ranked = cast<RankedTensorType>(type);
  return ranked.clone(transposeShape(ranked.getShape(), perm));
}

int64_t rankOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getRank();
}

/// The permutation of a Transpose whose perm is a constant permutation of
/// its operand's dimensions.
std::optional<Perm> permOf(TransposeOp op) {
  auto values = getConstantIntValues(op.getPerm());
  int64_t rank = rankOf(op.getX());
  if (!values || static_cast<int64_t>(values->size()) != rank)
    return std::nullopt;
  SmallVector<bool> seen(rank, false);
  for (int64_t v : *values) {
    if (v < 0 || v >= rank || seen[v])
      return std::nullopt;
    seen[v] = true;
  }
  return Perm(values->begin(), values->end());
}

/// Whether Transpose(x, perm) only moves dimensions of size 1, so that it
/// keeps the row-major order of the elements and is a Reshape.
bool movesOnlyUnitDims(TransposeOp op, ArrayRef<int64_t> perm) {
  auto type = dyn_cast<RankedTensorType>(op.getX().getType());
  if (!type || !type.hasStaticShape())
    return false;
  int64_t last = -1;
  for (int64_t k : perm) {
    if (type.getDimSize(k) == 1)
      continue;
    if (k < last)
      return false;
    last = k;
  }
  return true;
}

/// An integer constant of `type` holding `values`.
Value intConstant(OpBuilder &b, Location loc, Type type,
                  ArrayRef<int64_t> values) {
  auto tensorType = cast<RankedTensorType>(type);
  unsigned width = tensorType.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  return ConstOp::create(b, loc, tensorType,
                         DenseElementsAttr::get(tensorType, ints));
}

} // namespace mlir::tfaot::assign_layout

/// Transpose(x, perm), folded when x is a constant and absent for the
/// identity.
Value LayoutRewriter::transpose(OpBuilder &b, Location loc, Value x,
                                ArrayRef<int64_t> perm) {
  if (isIdentity(perm))
    return x;
  if (DenseElementsAttr attr = denseConstant(x)) {
    DenseElementsAttr folded = transposeElements(attr, perm);
    return ConstOp::create(b, loc, folded.getType(), folded);
  }
  SmallVector<int64_t> perm64(perm);
  Value permValue = intConstant(
      b, loc, RankedTensorType::get({rankOf(x)}, b.getI32Type()), perm64);
  ++inserted;
  return TransposeOp::create(b, loc, transposeType(x.getType(), perm), x,
                             permValue);
}

void LayoutRewriter::erase(Operation *op) {
  llvm::SetVector<Operation *> defs;
  eraseKeepingOperands(op, defs);
  eraseDead(defs);
}

/// Erases `op` and adds the producers of its operands to `defs`.
void LayoutRewriter::eraseKeepingOperands(Operation *op,
                                          llvm::SetVector<Operation *> &defs) {
  if (isa<TransposeOp>(op))
    ++removed;
  for (Value operand : op->getOperands())
    if (Operation *def = operand.getDefiningOp())
      defs.insert(def);
  defs.remove(op);
  op->erase();
}

/// Erases the ops of `worklist` that nothing uses any more, and then what
/// only they used (tfaot ops have no side effects).
void LayoutRewriter::eraseDead(llvm::SetVector<Operation *> &worklist) {
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (op->use_empty() && isa<TfaotDialect>(op->getDialect()) && isPure(op) &&
        op->getBlock() == &block)
      eraseKeepingOperands(op, worklist);
  }
}

//===----------------------------------------------------------------------===//
// Step 1: ops with a data_format into the target layout
//===----------------------------------------------------------------------===//

void LayoutRewriter::relayout(Operation *op) {
  int64_t rank = rankOf(op->getOperand(0));
  StringRef format = dataFormatOf(op);
  // BiasAdd of rank 2 adds along dimension 1 in both layouts.
  if (format == target || rank < 3 || (format != "NHWC" && format != "NCHW"))
    return;
  // Transpose(x, toTarget) is x in the target layout.
  Perm toTarget = {0};
  if (target == "NHWC") { // [0, 2, ..., rank - 1, 1]
    for (int64_t d = 2; d < rank; ++d)
      toTarget.push_back(d);
    toTarget.push_back(1);
  } else { // [0, rank - 1, 1, ..., rank - 2]
    toTarget.push_back(rank - 1);
    for (int64_t d = 1; d < rank - 1; ++d)
      toTarget.push_back(d);
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  remarkRewrite(loc, "tfaot-assign-layout",
                "converted " + op->getName().stripDialect().str() + " to " +
                    target.str());
  Value input = transpose(b, loc, op->getOperand(0), toTarget);
  Operation *newOp = b.clone(*op);
  newOp->setOperand(0, input);
  newOp->getResult(0).setType(
      transposeType(op->getResult(0).getType(), toTarget));
  newOp->setAttr("data_format", b.getStringAttr(target));
  // The 4-element window attributes follow the dimensions.
  for (StringRef name : {"strides", "dilations", "ksize"}) {
    auto attr = op->getAttrOfType<ArrayAttr>(name);
    if (!attr || static_cast<int64_t>(attr.size()) != rank)
      continue;
    SmallVector<Attribute> values;
    for (int64_t k : toTarget)
      values.push_back(attr[k]);
    newOp->setAttr(name, b.getArrayAttr(values));
  }
  if (auto attr = op->getAttrOfType<ArrayAttr>("explicit_paddings");
      attr && static_cast<int64_t>(attr.size()) == 2 * rank) {
    SmallVector<Attribute> values;
    for (int64_t k : toTarget) {
      values.push_back(attr[2 * k]);
      values.push_back(attr[2 * k + 1]);
    }
    newOp->setAttr("explicit_paddings", b.getArrayAttr(values));
  }
  b.setInsertionPointAfter(newOp);
  Value back = transpose(b, loc, newOp->getResult(0), inverse(toTarget));
  op->getResult(0).replaceAllUsesWith(back);
  erase(op);
  ++relaidOut;
}

void LayoutRewriter::optimize() {
  // Every rewrite removes a transpose or moves transposes down; the bound
  // only guards against a cycle of moves nobody foresaw.
  int64_t budget = 4 * static_cast<int64_t>(block.getOperations().size()) + 64;
  while (budget-- > 0) {
    while (foldTransposes()) {
    }
    // (One at a time: absorbing one transpose may erase others.)
    while (llvm::any_of(block.getOps<TransposeOp>(), [&](TransposeOp t) {
      return absorbIntoMatMuls(t);
    })) {
    }
    bool moved = false;
    SmallVector<TransposeOp> transposes(block.getOps<TransposeOp>());
    for (TransposeOp t : transposes) {
      if (tryMove(t)) {
        moved = true;
        break;
      }
    }
    if (!moved)
      break;
  }
  unitTransposesToReshapes();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct AssignLayoutPass
    : public tfaot::impl::AssignLayoutPassBase<AssignLayoutPass> {
  using AssignLayoutPassBase::AssignLayoutPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (layout != "nhwc" && layout != "nchw") {
      module.emitError("tfaot-assign-layout: layout must be 'nhwc' or 'nchw', "
                       "not '")
          << layout.getValue() << "'";
      return signalPassFailure();
    }
    StringRef target = layout == "nhwc" ? "NHWC" : "NCHW";
    module.walk([&](TransposeOp) { ++numTransposesBefore; });
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      for (Block &block : func.getBody()) {
        LayoutRewriter rewriter(block, target);
        SmallVector<Operation *> ops;
        for (Operation &op : block)
          if (hasDataFormat(&op) && dataFormatOf(&op) != target)
            ops.push_back(&op);
        for (Operation *op : ops)
          rewriter.relayout(op);
        rewriter.optimize();
        numOpsRelaidOut += rewriter.relaidOut;
        numTransposesInserted += rewriter.inserted;
        numTransposesRemoved += rewriter.removed;
        numGroupsMoved += rewriter.groupsMoved;
      }
    }
    module.walk([&](TransposeOp t) {
      bool atInput = isa<BlockArgument>(t.getX());
      bool atOutput =
          !t->use_empty() && llvm::all_of(t->getUsers(), [](Operation *user) {
            return user->hasTrait<OpTrait::ReturnLike>();
          });
      if (atInput || atOutput) {
        ++numTransposesAtIO;
        remarkRewrite(t.getLoc(), "tfaot-assign-layout",
                      "Transpose kept at a graph input or output");
      } else {
        ++numTransposesLeft;
        // Which ops need the data reordered: the reason it stays.
        llvm::SetVector<StringRef> readers;
        for (Operation *user : t->getUsers())
          readers.insert(user->getName().stripDialect());
        remarkRewrite(t.getLoc(), "tfaot-assign-layout",
                      "Transpose left inside the graph",
                      "read by " + llvm::join(readers, ", "));
      }
    });
  }
};
} // namespace
