//===- AssignLayoutMotion.cpp - Moving transposes through groups of ops ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Step 2 of --tfaot-assign-layout (see AssignLayout.cpp): which ops can
// compute their result permuted by p from permuted operands (a Motion), and
// LayoutRewriter's moves of a transpose through the connected group of such
// ops when that removes transposes or moves them towards the results.
//
//===----------------------------------------------------------------------===//
#include "passes/AssignLayoutRewriter.h"
#include "passes/ConstantUtils.h"

#include "ir/Ops.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::assign_layout;

//===----------------------------------------------------------------------===//
// Which ops transposes move through
//===----------------------------------------------------------------------===//

namespace mlir::tfaot::assign_layout {

bool isUnaryElementwise(Operation *op) {
  return isa<IdentityOp, ReluOp, Relu6Op, SigmoidOp, TanhOp, ExpOp, LogOp,
             SqrtOp, RsqrtOp, ReciprocalOp, FloorOp, CeilOp, RoundOp, NegOp,
             AbsOp, SquareOp, EluOp, SeluOp, SoftplusOp, SinOp, CosOp, ErfOp,
             LeakyReluOp, LogicalNotOp, CastOp>(op);
}

bool isBroadcastingElementwise(Operation *op) {
  return isa<AddOp, AddV2Op, SubOp, MulOp, RealDivOp, MaximumOp, MinimumOp,
             SquaredDifferenceOp, FloorDivOp, FloorModOp, PowOp, Atan2Op,
             GreaterOp, GreaterEqualOp, LessOp, LessEqualOp, EqualOp,
             NotEqualOp, LogicalAndOp, LogicalOrOp, SelectV2Op, PreluOp,
             AddNOp>(op);
}

static bool isReduction(Operation *op) {
  return isa<MeanOp, SumOp, MaxOp, MinOp, ProdOp, AnyOp, AllOp>(op);
}

/// Ops with a data_format attribute.
bool hasDataFormat(Operation *op) {
  return isa<Conv2DOp, DepthwiseConv2dNativeOp, MaxPoolOp, AvgPoolOp, BiasAddOp,
             FusedBatchNormOp, ResizeBilinearOp, ResizeNearestNeighborOp>(op);
}

StringRef dataFormatOf(Operation *op) {
  auto attr = op->getAttrOfType<StringAttr>("data_format");
  return attr ? attr.getValue() : StringRef("NHWC"); // Ops.td's default.
}

} // namespace mlir::tfaot::assign_layout

/// Ops that work in one layout and so are where transposes should end:
/// moving a transpose past the ops in front of them is pointless.
static bool isLayoutAnchor(Operation *op) { return hasDataFormat(op); }

/// For a Reshape of x = Transpose(x', p): the permutation q with
/// Reshape(x) = Transpose(Reshape'(x'), q), where Reshape' reshapes x' to
/// the result's dimensions in another order; nullopt when there is none.
///
/// A reshape only regroups the row-major sequence of elements. Leaving out
/// dimensions of size 1, it splits the input and result dimensions into
/// consecutive groups of equal size, each a run of input dimensions that
/// becomes a run of result dimensions. If every group's input dimensions
/// are still consecutive (up to size-1 dimensions) and in order in x', x'
/// is the same groups in another order, and Reshape' gives each group its
/// result dimensions in that order. Size-1 result dimensions go with the
/// dimension they follow (leading ones stay first).
static std::optional<Perm> reshapePerm(ReshapeOp reshape, ArrayRef<int64_t> p) {
  auto inputType = reshape.getTensor().getType();
  auto resultType = reshape.getOutput().getType();
  if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> in = inputType.getShape(), out = resultType.getShape();
  SmallVector<int64_t> inDims, outDims; // Those of size > 1.
  for (auto [k, size] : llvm::enumerate(in))
    if (size != 1)
      inDims.push_back(k);
  for (auto [k, size] : llvm::enumerate(out))
    if (size != 1)
      outDims.push_back(k);
  struct ReshapeGroup {
    SmallVector<int64_t> in, out;
  };
  SmallVector<ReshapeGroup> groups;
  size_t i = 0, j = 0;
  while (i < inDims.size() && j < outDims.size()) {
    ReshapeGroup group;
    int64_t a = in[inDims[i]], b = out[outDims[j]];
    group.in.push_back(inDims[i++]);
    group.out.push_back(outDims[j++]);
    while (a != b) {
      if (a < b && i < inDims.size()) {
        a *= in[inDims[i]];
        group.in.push_back(inDims[i++]);
      } else if (b < a && j < outDims.size()) {
        b *= out[outDims[j]];
        group.out.push_back(outDims[j++]);
      } else {
        return std::nullopt;
      }
    }
    groups.push_back(std::move(group));
  }
  if (i != inDims.size() || j != outDims.size())
    return std::nullopt;
  // Where each group's input dimensions are in x' (shape of x' at m: in of
  // the x dimension that p maps to m).
  Perm inv = inverse(p);
  SmallVector<std::pair<int64_t, size_t>> starts; // (x' position, group)
  for (auto [g, group] : llvm::enumerate(groups)) {
    for (size_t t = 1; t < group.in.size(); ++t) {
      int64_t from = p[group.in[t - 1]], to = p[group.in[t]];
      if (to <= from)
        return std::nullopt;
      for (int64_t m = from + 1; m < to; ++m)
        if (in[inv[m]] != 1)
          return std::nullopt;
    }
    starts.push_back({p[group.in.front()], g});
  }
  llvm::sort(starts);
  // The result dimensions in their new order: leading size-1 ones where
  // they are, then group by group in x' order, each size > 1 dimension
  // followed by the size-1 ones that follow it in the result. (Keeping a
  // size-1 dimension next to the one it follows is what lets a Pad that
  // grows it, as in a zero-interleaving upsampling, move along too.)
  SmallVector<int64_t> newOrder;
  int64_t leading = outDims.empty() ? out.size() : outDims.front();
  for (int64_t k = 0; k < leading; ++k)
    newOrder.push_back(k);
  for (auto [position, g] : starts) {
    for (int64_t k : groups[g].out) {
      newOrder.push_back(k);
      for (int64_t u = k + 1; u < int64_t(out.size()) && out[u] == 1; ++u)
        newOrder.push_back(u);
    }
  }
  Perm resultPerm(out.size());
  for (auto [m, k] : llvm::enumerate(newOrder))
    resultPerm[k] = m;
  return resultPerm;
}

/// Reduction axes of `op` (constant, normalized, in order), or nullopt.
static std::optional<SmallVector<int64_t>> reductionAxes(Operation *op,
                                                         int64_t rank) {
  auto axes = getConstantIntValues(op->getOperand(1));
  if (!axes)
    return std::nullopt;
  SmallVector<int64_t> result;
  for (int64_t a : *axes) {
    if (a < -rank || a >= rank)
      return std::nullopt;
    result.push_back(a < 0 ? a + rank : a);
  }
  return result;
}

static bool keepDims(Operation *op) {
  auto attr = op->getAttrOfType<BoolAttr>("keep_dims");
  return attr && attr.getValue();
}

/// The channel dimension of the target layout for a rank-`rank` tensor.
static int64_t targetChannelDim(StringRef target, int64_t rank) {
  return target == "NCHW" && rank >= 3 ? 1 : rank - 1;
}

//===----------------------------------------------------------------------===//
// Step 2: moving transposes
//===----------------------------------------------------------------------===//

/// How `op` would compute its result permuted by `p` (the permutation of
/// its rank-|p| operands), or nullopt if it cannot.
std::optional<Motion> LayoutRewriter::motionOf(Operation *op,
                                               ArrayRef<int64_t> p) {
  if (op->getBlock() != &block || op->getNumResults() != 1 ||
      !isa<TfaotDialect>(op->getDialect()))
    return std::nullopt;
  int64_t rank = p.size();
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || op->getNumOperands() == 0)
    return std::nullopt;
  Motion motion;
  motion.resultPerm = Perm(p);
  auto inputHasRank = [&] { return rankOf(op->getOperand(0)) == rank; };

  if (isUnaryElementwise(op)) {
    if (!inputHasRank())
      return std::nullopt;
    motion.permuted = {0};
    return motion;
  }
  if (isBroadcastingElementwise(op)) {
    if (resultType.getRank() != rank)
      return std::nullopt;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      int64_t operandRank = rankOf(operand);
      if (operandRank == rank)
        motion.permuted.push_back(i);
      else if (operandRank == 0)
        continue; // A scalar broadcasts the same either way.
      else if (denseConstant(operand))
        motion.broadcast.push_back(i);
      else
        return std::nullopt;
    }
    return motion;
  }
  if (isa<BiasAddOp, FusedBatchNormOp>(op)) {
    // Only if the channel ends up where the target layout has it.
    if (!inputHasRank() || dataFormatOf(op) != target)
      return std::nullopt;
    int64_t channel = isa<BiasAddOp>(op)
                          ? cast<BiasAddOp>(op).getChannelDim()
                          : cast<FusedBatchNormOp>(op).getChannelDim();
    if (p[channel] != targetChannelDim(target, rank))
      return std::nullopt;
    motion.permuted = {0};
    return motion;
  }
  if (isa<PadOp, MirrorPadOp>(op)) {
    auto paddings = getConstantIntValues(op->getOperand(1));
    if (!inputHasRank() || !paddings ||
        static_cast<int64_t>(paddings->size()) != 2 * rank)
      return std::nullopt;
    motion.permuted = {0};
    return motion;
  }
  if (auto concat = dyn_cast<ConcatV2Op>(op)) {
    auto axis = getConstantIntValues(concat.getAxis());
    if (resultType.getRank() != rank || !axis || axis->size() != 1)
      return std::nullopt;
    for (unsigned i = 0, e = concat.getValues().size(); i < e; ++i)
      motion.permuted.push_back(i);
    return motion;
  }
  if (auto slice = dyn_cast<SliceOp>(op)) {
    auto begin = getConstantIntValues(slice.getBegin());
    auto size = getConstantIntValues(slice.getSize());
    if (!inputHasRank() || !begin || !size ||
        static_cast<int64_t>(begin->size()) != rank ||
        static_cast<int64_t>(size->size()) != rank)
      return std::nullopt;
    motion.permuted = {0};
    return motion;
  }
  if (auto slice = dyn_cast<StridedSliceOp>(op)) {
    // Masks that add, drop or stand for dimensions would need more than a
    // permutation of the per-dimension lists.
    if (!inputHasRank() || slice.getEllipsisMask() || slice.getNewAxisMask() ||
        slice.getShrinkAxisMask())
      return std::nullopt;
    for (Value list : {slice.getBegin(), slice.getEnd(), slice.getStrides()}) {
      auto values = getConstantIntValues(list);
      if (!values || static_cast<int64_t>(values->size()) != rank)
        return std::nullopt;
    }
    motion.permuted = {0};
    return motion;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    std::optional<Perm> resultPerm =
        inputHasRank() ? reshapePerm(reshape, p) : std::nullopt;
    if (!resultPerm)
      return std::nullopt;
    motion.permuted = {0};
    motion.resultPerm = *resultPerm;
    return motion;
  }
  if (isReduction(op)) {
    auto axes = inputHasRank() ? reductionAxes(op, rank) : std::nullopt;
    if (!axes)
      return std::nullopt;
    motion.permuted = {0};
    if (keepDims(op))
      return motion;
    // Old result dimension t is the t-th kept input dimension k_t; in the
    // new result it is the rank of p[k_t] among the kept new dimensions.
    SmallVector<bool> reduced(rank, false);
    for (int64_t a : *axes)
      reduced[a] = true;
    SmallVector<int64_t> keptNew;
    for (int64_t k = 0; k < rank; ++k)
      if (!reduced[k])
        keptNew.push_back(p[k]);
    SmallVector<int64_t> sorted(keptNew);
    llvm::sort(sorted);
    motion.resultPerm.clear();
    for (int64_t j : keptNew)
      motion.resultPerm.push_back(llvm::find(sorted, j) - sorted.begin());
    return motion;
  }
  return std::nullopt;
}

/// Whether `user`, a group member, reads its operand `index` permuted.
bool LayoutRewriter::usesPermuted(Operation *user, unsigned index,
                                  const Group &group) {
  auto it = group.motions.find(user);
  return it != group.motions.end() &&
         llvm::is_contained(it->second.permuted, index);
}

/// Collects the connected group of ops that move with `p`, from `starts`,
/// following operands to their producers (`up`) and results to their users
/// (`down`).
void LayoutRewriter::grow(ArrayRef<Operation *> starts, ArrayRef<int64_t> p,
                          bool up, bool down, Group &group) {
  SmallVector<Operation *> worklist(starts);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (group.members.contains(op))
      continue;
    std::optional<Motion> motion = motionOf(op, p);
    if (!motion)
      continue;
    group.members.insert(op);
    group.motions[op] = *motion;
    if (up) {
      for (unsigned index : motion->permuted) {
        Operation *def = op->getOperand(index).getDefiningOp();
        if (!def || group.members.contains(def))
          continue;
        // Only producers whose result is permuted by p itself.
        std::optional<Motion> defMotion = motionOf(def, p);
        if (defMotion && defMotion->resultPerm == Perm(p))
          worklist.push_back(def);
      }
    }
    if (down && motion->resultPerm == Perm(p)) {
      for (OpOperand &use : op->getResult(0).getUses()) {
        Operation *user = use.getOwner();
        if (group.members.contains(user))
          continue;
        std::optional<Motion> userMotion = motionOf(user, p);
        if (userMotion &&
            llvm::is_contained(userMotion->permuted, use.getOperandNumber()))
          worklist.push_back(user);
      }
    }
  }
}

/// Whether rewriting `group` for `p` pays: it removes transposes, or it
/// keeps their number and only moves them, either down past the group
/// (towards the results or an op that cannot be permuted, but not in front
/// of an op that works in one layout) or up to the function's arguments
/// (from in front of ops that work in one layout). The two moves cannot
/// undo each other.
bool LayoutRewriter::worthwhile(const Group &group, ArrayRef<int64_t> p) {
  Perm inv = inverse(p);
  int64_t delta = 0;
  bool sinks = true, hoists = true;
  bool anyEntryTranspose = false, anyEntryArgument = false;
  DenseSet<Value> entries;
  llvm::SetVector<Operation *> entryTransposes;
  for (Operation *op : group.members) {
    for (unsigned index : motionIn(group, op).permuted) {
      Value operand = op->getOperand(index);
      Operation *def = operand.getDefiningOp();
      if (def && group.members.contains(def)) {
        // From a member whose result is permuted by another permutation
        // (a Reshape): a transpose between the two unless that is p too.
        const Perm &resultPerm = motionIn(group, def).resultPerm;
        if (resultPerm != Perm(p) && entries.insert(operand).second &&
            !isIdentity(compose(resultPerm, inv))) {
          ++delta;
          sinks = hoists = false;
        }
        continue;
      }
      if (!entries.insert(operand).second || denseConstant(operand))
        continue;
      if (auto t = dyn_cast_or_null<TransposeOp>(def)) {
        if (std::optional<Perm> q = permOf(t)) {
          if (!isIdentity(compose(*q, inv))) {
            ++delta;
            sinks = false;
          }
          entryTransposes.insert(t);
          anyEntryTranspose = true;
          hoists = false;
          continue;
        }
      }
      // A new transpose in front of the group.
      ++delta;
      sinks = false;
      if (isa<BlockArgument>(operand))
        anyEntryArgument = true;
      else
        hoists = false;
    }
  }
  for (Operation *t : entryTransposes) {
    bool dies = llvm::all_of(t->getResult(0).getUses(), [&](OpOperand &use) {
      return usesPermuted(use.getOwner(), use.getOperandNumber(), group);
    });
    if (dies)
      --delta;
    else
      sinks = false;
  }
  for (Operation *op : group.members) {
    const Perm &resultPerm = motionIn(group, op).resultPerm;
    bool needsExit = false;
    for (OpOperand &use : op->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      if (usesPermuted(user, use.getOperandNumber(), group))
        continue; // Counted above.
      if (auto t = dyn_cast<TransposeOp>(user);
          t && use.getOperandNumber() == 0) {
        if (std::optional<Perm> q = permOf(t)) {
          if (isIdentity(compose(resultPerm, *q))) {
            --delta;
            if (!llvm::all_of(t->getUsers(), isLayoutAnchor))
              hoists = false;
          } else {
            hoists = false;
          }
          continue;
        }
      }
      needsExit = true;
      if (isLayoutAnchor(user))
        sinks = false;
    }
    if (needsExit && !isIdentity(resultPerm)) {
      ++delta;
      hoists = false;
    }
  }
  return delta < 0 || (delta == 0 && ((sinks && anyEntryTranspose) ||
                                      (hoists && anyEntryArgument)));
}

/// Rewrites every member of `group` to compute its result permuted by `p`
/// (see Motion), with transposes where the group meets other values.
void LayoutRewriter::rewrite(Group &group, ArrayRef<int64_t> p) {
  Perm inv = inverse(p);
  int64_t rank = p.size();
  SmallVector<Operation *> members(group.members.begin(), group.members.end());
  llvm::sort(members,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  DenseMap<Value, Value> newResults; // old member result -> new one
  DenseMap<Value, Value> newInputs;  // other old operand -> permuted by p
  OpBuilder b(members.front());
  for (Operation *op : members) {
    const Motion &motion = motionIn(group, op);
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    SmallVector<Value> operands(op->getOperands());
    for (unsigned index : motion.permuted) {
      Value operand = operands[index];
      Value &newOperand = newInputs[operand];
      if (!newOperand) {
        // operand = Transpose(new operand, p).
        auto t = operand.getDefiningOp<TransposeOp>();
        std::optional<Perm> q = t ? permOf(t) : std::nullopt;
        auto it = newResults.find(operand);
        if (it != newResults.end()) // Another member's, permuted by its own.
          newOperand = transpose(
              b, loc, it->second,
              compose(motionIn(group, operand.getDefiningOp()).resultPerm,
                      inv));
        else if (q)
          newOperand = transpose(b, loc, t.getX(), compose(*q, inv));
        else
          newOperand = transpose(b, loc, operand, inv);
      }
      operands[index] = newOperand;
    }
    for (unsigned index : motion.broadcast) {
      // NumPy broadcasting reads a rank-s constant as [1, ..., 1, shape...]
      // of the full rank; permute that, then drop leading 1s down to rank
      // s again.
      DenseElementsAttr attr = denseConstant(operands[index]);
      auto type = cast<RankedTensorType>(attr.getType());
      SmallVector<int64_t> shape(rank - type.getRank(), 1);
      llvm::append_range(shape, type.getShape());
      DenseElementsAttr full =
          transposeElements(attr.reshape(type.clone(shape)), inv);
      ArrayRef<int64_t> fullShape = full.getType().getShape();
      int64_t drop = 0;
      while (rank - drop > type.getRank() && fullShape[drop] == 1)
        ++drop;
      DenseElementsAttr value =
          full.reshape(type.clone(fullShape.drop_front(drop)));
      operands[index] = ConstOp::create(b, loc, value.getType(), value);
    }

    Operation *newOp = b.clone(*op);
    b.setInsertionPoint(newOp); // New parameters go in front of it.
    newOp->setOperands(operands);
    newOp->getResult(0).setType(
        transposeType(op->getResult(0).getType(), inverse(motion.resultPerm)));
    // Per-dimension parameters follow the dimensions.
    // (BiasAdd and FusedBatchNorm only move when they keep their
    // data_format.)
    if (isa<PadOp, MirrorPadOp>(op)) {
      SmallVector<int64_t> pads = *getConstantIntValues(op->getOperand(1));
      SmallVector<int64_t> newPads(2 * rank);
      for (int64_t k = 0; k < rank; ++k) {
        newPads[2 * p[k]] = pads[2 * k];
        newPads[2 * p[k] + 1] = pads[2 * k + 1];
      }
      newOp->setOperand(
          1, intConstant(b, loc, op->getOperand(1).getType(), newPads));
    } else if (auto concat = dyn_cast<ConcatV2Op>(op)) {
      int64_t axis = (*getConstantIntValues(concat.getAxis()))[0];
      if (axis < 0)
        axis += rank;
      Value oldAxis = concat.getAxis();
      newOp->setOperand(op->getNumOperands() - 1,
                        intConstant(b, loc, oldAxis.getType(), {p[axis]}));
    } else if (isa<SliceOp, StridedSliceOp>(op)) {
      for (unsigned i = 1; i < op->getNumOperands(); ++i) {
        SmallVector<int64_t> values = *getConstantIntValues(op->getOperand(i));
        newOp->setOperand(i, intConstant(b, loc, op->getOperand(i).getType(),
                                         scatter<int64_t>(values, p)));
      }
      for (StringRef name : {"begin_mask", "end_mask"}) {
        auto attr = op->getAttrOfType<IntegerAttr>(name);
        if (!attr)
          continue;
        uint64_t mask = attr.getInt(), newMask = 0;
        for (int64_t k = 0; k < rank; ++k)
          if (mask & (uint64_t(1) << k))
            newMask |= uint64_t(1) << p[k];
        newOp->setAttr(name, b.getI64IntegerAttr(newMask));
      }
    } else if (isa<ReshapeOp>(op)) {
      auto newType = cast<RankedTensorType>(newOp->getResult(0).getType());
      newOp->setOperand(1, intConstant(b, loc, op->getOperand(1).getType(),
                                       newType.getShape()));
    } else if (isReduction(op)) {
      SmallVector<int64_t> axes = *reductionAxes(op, rank);
      for (int64_t &a : axes)
        a = p[a];
      newOp->setOperand(1,
                        intConstant(b, loc, op->getOperand(1).getType(), axes));
    }
    newResults[op->getResult(0)] = newOp->getResult(0);
    if (motion.resultPerm == Perm(p))
      newInputs[op->getResult(0)] = newOp->getResult(0);
  }

  // Where the group's results leave it: transposes back (or composed into
  // the transposes already there). Erased ops' operands go to `dead`.
  llvm::SetVector<Operation *> dead;
  for (Operation *op : members) {
    Value oldResult = op->getResult(0);
    Value newResult = newResults.lookup(oldResult);
    const Perm &resultPerm = motionIn(group, op).resultPerm;
    Value exit;
    for (OpOperand &use : llvm::make_early_inc_range(oldResult.getUses())) {
      Operation *user = use.getOwner();
      if (group.members.contains(user))
        continue; // Erased below.
      if (auto t = dyn_cast<TransposeOp>(user);
          t && use.getOperandNumber() == 0) {
        if (std::optional<Perm> q = permOf(t)) {
          b.setInsertionPoint(t);
          Value composed =
              transpose(b, t.getLoc(), newResult, compose(resultPerm, *q));
          t.getY().replaceAllUsesWith(composed);
          eraseKeepingOperands(t, dead);
          continue;
        }
      }
      if (!exit) {
        b.setInsertionPointAfterValue(newResult);
        exit = transpose(b, op->getLoc(), newResult, resultPerm);
      }
      use.set(exit);
    }
  }
  // Members are erased last to first, so that each is unused when its turn
  // comes; then whatever only they used.
  for (Operation *op : llvm::reverse(members)) {
    assert(op->use_empty() && "a group member is still used");
    eraseKeepingOperands(op, dead);
  }
  eraseDead(dead);
  ++groupsMoved;
}

/// Moves `transpose` down through its users, or up through its producer,
/// if that pays.
bool LayoutRewriter::tryMove(TransposeOp transpose) {
  std::optional<Perm> perm = permOf(transpose);
  if (!perm)
    return false;
  // Down: the transpose's users compute with its input.
  SmallVector<Operation *> users;
  for (OpOperand &use : transpose.getY().getUses()) {
    std::optional<Motion> motion = motionOf(use.getOwner(), *perm);
    if (motion &&
        llvm::is_contained(motion->permuted, use.getOperandNumber()) &&
        !llvm::is_contained(users, use.getOwner()))
      users.push_back(use.getOwner());
  }
  if (!users.empty()) {
    for (bool up : {true, false}) {
      Group group;
      grow(users, *perm, up, /*down=*/true, group);
      if (worthwhile(group, *perm)) {
        rewrite(group, *perm);
        return true;
      }
    }
  }
  // Up: the producer computes the transposed value, so that the transpose
  // composes into the identity.
  Perm inv = inverse(*perm);
  Operation *def = transpose.getX().getDefiningOp();
  std::optional<Motion> motion = def ? motionOf(def, inv) : std::nullopt;
  if (motion && motion->resultPerm == inv) {
    for (bool down : {true, false}) {
      Group group;
      grow({def}, inv, /*up=*/true, down, group);
      if (worthwhile(group, inv)) {
        rewrite(group, inv);
        return true;
      }
    }
  }
  return false;
}
