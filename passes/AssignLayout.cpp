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
//===----------------------------------------------------------------------===//
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

using Perm = SmallVector<int64_t, 4>;

//===----------------------------------------------------------------------===//
// Permutations and constants
//===----------------------------------------------------------------------===//

static bool isIdentity(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

static Perm inverse(ArrayRef<int64_t> perm) {
  Perm result(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    result[p] = i;
  return result;
}

/// Transpose(Transpose(x, first), second) == Transpose(x, compose(first,
/// second)).
static Perm compose(ArrayRef<int64_t> first, ArrayRef<int64_t> second) {
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

static RankedTensorType transposeType(Type type, ArrayRef<int64_t> perm) {
  auto ranked = cast<RankedTensorType>(type);
  return ranked.clone(transposeShape(ranked.getShape(), perm));
}

static int64_t rankOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getRank();
}

/// The permutation of a Transpose whose perm is a constant permutation of
/// its operand's dimensions.
static std::optional<Perm> permOf(TransposeOp op) {
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
static bool movesOnlyUnitDims(TransposeOp op, ArrayRef<int64_t> perm) {
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
static Value intConstant(OpBuilder &b, Location loc, Type type,
                         ArrayRef<int64_t> values) {
  auto tensorType = cast<RankedTensorType>(type);
  unsigned width = tensorType.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  return ConstOp::create(b, loc, tensorType,
                         DenseElementsAttr::get(tensorType, ints));
}

/// `values` (one per old dimension) in the order of the new dimensions:
/// result[perm[k]] = values[k].
template <typename T>
static SmallVector<T> scatter(ArrayRef<T> values, ArrayRef<int64_t> perm) {
  SmallVector<T> result(values.size());
  for (auto [k, p] : llvm::enumerate(perm))
    result[p] = values[k];
  return result;
}

//===----------------------------------------------------------------------===//
// Which ops transposes move through
//===----------------------------------------------------------------------===//

/// How an op computes its result permuted by p from permuted operands.
struct Motion {
  /// Operands of the op's rank, which the new op reads permuted.
  SmallVector<unsigned, 4> permuted;
  /// Constants of lower rank (NumPy broadcasting), which the new op reads
  /// expanded to the full rank and permuted.
  SmallVector<unsigned, 2> broadcast;
  /// old result = Transpose(new result, resultPerm): p, except for
  /// reductions that drop dimensions.
  Perm resultPerm;
};

static bool isUnaryElementwise(Operation *op) {
  return isa<IdentityOp, ReluOp, Relu6Op, SigmoidOp, TanhOp, ExpOp, LogOp,
             SqrtOp, RsqrtOp, ReciprocalOp, FloorOp, CeilOp, RoundOp, NegOp,
             AbsOp, SquareOp, EluOp, SeluOp, SoftplusOp, SinOp, CosOp, ErfOp,
             LeakyReluOp, LogicalNotOp, CastOp>(op);
}

static bool isBroadcastingElementwise(Operation *op) {
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
static bool hasDataFormat(Operation *op) {
  return isa<Conv2DOp, DepthwiseConv2dNativeOp, MaxPoolOp, AvgPoolOp, BiasAddOp,
             FusedBatchNormOp, ResizeBilinearOp, ResizeNearestNeighborOp>(op);
}

static StringRef dataFormatOf(Operation *op) {
  auto attr = op->getAttrOfType<StringAttr>("data_format");
  return attr ? attr.getValue() : StringRef("NHWC"); // Ops.td's default.
}

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

namespace {

/// Transposes moved, created and erased in one function body.
class LayoutRewriter {
public:
  LayoutRewriter(Block &block, StringRef target)
      : block(block), target(target) {}

  void relayout(Operation *op);
  void optimize();

  int64_t inserted = 0, removed = 0, relaidOut = 0, groupsMoved = 0;

private:
  struct Group {
    llvm::SetVector<Operation *> members;
    DenseMap<Operation *, Motion> motions;
  };

  static const Motion &motionIn(const Group &group, Operation *op) {
    return group.motions.find(op)->second;
  }
  std::optional<Motion> motionOf(Operation *op, ArrayRef<int64_t> p);
  bool usesPermuted(Operation *user, unsigned index, const Group &group);
  void grow(ArrayRef<Operation *> starts, ArrayRef<int64_t> p, bool up,
            bool down, Group &group);
  bool worthwhile(const Group &group, ArrayRef<int64_t> p);
  void rewrite(Group &group, ArrayRef<int64_t> p);
  bool tryMove(TransposeOp transpose);
  bool foldTransposes();
  bool absorbIntoMatMuls(TransposeOp transpose);
  void unitTransposesToReshapes();

  Value transpose(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> perm);
  void erase(Operation *op);
  void eraseKeepingOperands(Operation *op, llvm::SetVector<Operation *> &defs);
  void eraseDead(llvm::SetVector<Operation *> &worklist);

  Block &block;
  StringRef target;
};

} // namespace

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
