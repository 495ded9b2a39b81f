//===- SplitEntry.cpp - Entry functions in pieces of bounded size ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-split-entry{max-ops=N}: each public function whose body (nested
// operations counted) holds more than N operations is cut into pieces of
// consecutive top-level operations of at most about N each; each piece
// becomes a private function, and the entry calls them in order.
//
// Why: after bufferization a 100k-node graph is one function of some 500
// fused loops, and LLVM's per-function passes grow faster than the
// function (GVN 33x, IndVarSimplify 76x, the greedy register allocator 20x
// for 10x the nodes: bench/results/2026-11-28-devvm-compile-scaling-3.md).
// Functions of bounded size make those costs linear in the graph.
//
// Runs on bufferized code, before the lowering to loops and LLVM (and
// after tfaot-instrument-profile, whose timing calls and their ids move
// into the pieces with the ops they time). A top-level operation moves
// whole, regions and all: a loop or branch is never cut.
//
// What a piece reads from before it and what it defines for after it cross
// the call. Values computed for free are not passed but recomputed in each
// piece that uses them: constants, reads of globals, address extractions
// and views (memref.view of the buffer plan's arena, subviews, reshapes,
// casts), followed through to what they are computed from. What is left
// must cross the bare-pointer ABI, and safely:
// - scalars (integers, indices, floats), either way;
// - the entry's own arguments (inputs, outputs, the arena), passed on with
//   their argument attributes (the arena's noalias and alignment);
// - nothing else. A buffer allocated in the function (a heap allocation the
//   plan left, a stack alloca) would cross as its aligned pointer alone, so
//   a later dealloc would free the wrong address, or an alloca would die
//   with its piece: no cut is made where such a value is live, and a piece
//   grows until the next point where none is.
//
// The pieces are noinline (LLVM's inliner would fold a single-call internal
// function right back) and internal, so two models linked together do not
// clash. The generated code does the same work in the same order; only the
// calls are new. Deterministic: pieces and their arguments follow the op
// order.
//
//===----------------------------------------------------------------------===//
#include "passes/SplitEntry.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace {

/// Whether a piece recomputes `op`'s result rather than taking it as an
/// argument: operations that cost nothing at run time (an address or a
/// constant) and read no memory.
bool isRecomputed(Operation *op) {
  if (!op || op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<memref::GetGlobalOp, ub::PoisonOp,
             memref::ExtractAlignedPointerAsIndexOp, memref::CastOp,
             ViewLikeOpInterface>(op);
}

bool isScalar(Type type) { return isa<IntegerType, IndexType, FloatType>(type); }

/// A buffer the bare-pointer ABI passes as one pointer, its descriptor
/// rebuilt from the type: static shape, strides and offset.
bool isBarePointerBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(memref.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// Whether `op` calls the profile hook `hook` (tfaot-instrument-profile).
bool callsHook(Operation *op, StringRef hook) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && call.getCallee() == hook;
}

/// Operations in `op`, itself included: the size measure of a piece.
int64_t sizeOf(Operation *op) {
  int64_t size = 0;
  op->walk([&](Operation *) { ++size; });
  return size;
}

/// Splits one function. Top-level operations are numbered in block order,
/// the terminator last; a cut at position c puts operations c and after in
/// a later piece than operations before c.
class EntrySplitter {
public:
  EntrySplitter(func::FuncOp entry, SymbolTable &symbols, int64_t maxOps)
      : entry(entry), body(entry.getBody().front()), symbols(symbols),
        maxOps(maxOps) {}

  /// Returns the pieces made (0 when the function stays whole).
  int split() {
    eraseDeadRecomputed();
    erased.clear();
    for (Operation &op : body.without_terminator())
      ops.push_back(&op);
    for (auto [i, op] : llvm::enumerate(ops))
      position[op] = i;
    SmallVector<unsigned> cuts = chooseCuts();
    if (cuts.empty())
      return 0;
    cuts.push_back(ops.size());
    unsigned begin = 0;
    for (auto [k, end] : llvm::enumerate(cuts)) {
      outline(begin, end, k);
      begin = end;
    }
    eraseDeadRecomputed();
    return cuts.size();
  }

private:
  /// Calls `leaf` once for each value that `op` (and what it holds) reads
  /// from the function's top level and that a piece cannot recompute: the
  /// function's arguments and results of other operations, seen through
  /// the recomputed operations in between.
  void forEachLeaf(Operation *op, function_ref<void(Value)> leaf) {
    SmallVector<Value> work;
    op->walk([&](Operation *inner) {
      for (Value value : inner->getOperands())
        if (value.getParentBlock() == &body)
          work.push_back(value);
    });
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Value value = work.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      Operation *def = value.getDefiningOp();
      if (isRecomputed(def))
        llvm::append_range(work, def->getOperands());
      else
        leaf(value);
    }
  }

  /// Where a cut may go: nowhere that a value other than a scalar or an
  /// argument passable as a pointer is defined before and used after.
  /// Then cuts every time the piece so far would pass max-ops.
  SmallVector<unsigned> chooseCuts() {
    int64_t total = 0;
    SmallVector<int64_t> sizes;
    for (Operation *op : ops)
      total += sizes.emplace_back(isRecomputed(op) ? 0 : sizeOf(op));
    if (total <= maxOps)
      return {};
    // blocked[c] > 0: cut c would pass a value that cannot cross (a
    // difference array over the intervals such values are live).
    SmallVector<int> blocked(ops.size() + 2, 0);
    auto noteUses = [&](Operation *user, unsigned at) {
      forEachLeaf(user, [&](Value value) {
        bool crosses = isScalar(value.getType()) ||
                       (isa<BlockArgument>(value) &&
                        isBarePointerBuffer(value.getType()));
        if (crosses)
          return;
        // A cut c in (definition, use] would cross it.
        unsigned from = isa<BlockArgument>(value)
                            ? 0
                            : position.lookup(value.getDefiningOp()) + 1;
        ++blocked[from];
        --blocked[at + 1];
      });
    };
    for (auto [i, op] : llvm::enumerate(ops))
      if (!isRecomputed(op))
        noteUses(op, i);
    noteUses(body.getTerminator(), ops.size());

    SmallVector<unsigned> cuts;
    int64_t piece = 0;
    int open = 0;
    for (unsigned c = 0; c < ops.size(); ++c) {
      open += blocked[c];
      // A profiled op stays with its timing calls, so that its time is
      // its own and not a piece's call.
      bool timed = c > 0 && (callsHook(ops[c - 1], tfaot_rt::kProfileBegin) ||
                             callsHook(ops[c], tfaot_rt::kProfileEnd));
      // Each piece starts with an operation it moves (size > 0).
      if (open == 0 && !timed && piece > 0 && sizes[c] > 0 &&
          piece + sizes[c] > maxOps) {
        cuts.push_back(c);
        piece = 0;
      }
      piece += sizes[c];
    }
    return cuts;
  }

  /// Moves the operations [begin, end) but the recomputed ones into the
  /// private function `<entry>_piece<index>` and calls it in their place.
  void outline(unsigned begin, unsigned end, unsigned index) {
    MLIRContext *context = entry.getContext();
    Location loc = ops[begin]->getLoc();
    OpBuilder b(context);
    b.setInsertionPointAfter(lastPiece ? lastPiece.getOperation()
                                       : entry.getOperation());
    auto piece = func::FuncOp::create(
        b, entry.getLoc(), (entry.getSymName() + "_piece" + Twine(index)).str(),
        b.getFunctionType({}, {}));
    symbols.insert(piece); // Renamed if the name is taken.
    piece.setPrivate();
    piece.setNoInline(true);
    piece->setAttr("llvm.linkage",
                   LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
    lastPiece = piece;
    Block *pieceBody = piece.addEntryBlock();
    OpBuilder atEnd = OpBuilder::atBlockEnd(pieceBody);
    auto ret = func::ReturnOp::create(atEnd, entry.getLoc());

    SmallVector<Operation *> moved;
    for (unsigned i = begin; i < end; ++i)
      if (!erased.contains(ops[i]) && !isRecomputed(ops[i]))
        moved.push_back(ops[i]);
    assert(!moved.empty() && "each piece starts with an operation it moves");
    // The call goes where the first moved operation was: held by a call
    // without operands until the piece's arguments are known.
    OpBuilder atFirst(moved.front());
    Operation *placeholder = func::CallOp::create(
        atFirst, loc, piece.getSymName(), TypeRange{}, ValueRange{});
    for (Operation *op : moved)
      op->moveBefore(ret);

    // What the moved operations read from the entry: recomputed at the top
    // of the piece, or passed as arguments.
    SmallVector<OpOperand *> outside;
    pieceBody->walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands())
        if (operand.get().getParentBlock() == &body)
          outside.push_back(&operand);
    });
    IRMapping mapping;
    SmallVector<Value> arguments;
    OpBuilder atTop = OpBuilder::atBlockBegin(pieceBody);
    std::function<Value(Value)> inPiece = [&](Value value) -> Value {
      if (value.getParentBlock() != &body)
        return value; // defined in the piece (by a moved operation)
      if (Value mapped = mapping.lookupOrNull(value))
        return mapped;
      Operation *def = value.getDefiningOp();
      if (!isRecomputed(def)) {
        Value local = pieceBody->addArgument(value.getType(), value.getLoc());
        arguments.push_back(value);
        mapping.map(value, local);
        return local;
      }
      // The copy goes at the top of the piece, or right after the last of
      // its operands that a moved operation defines (a view sized by a
      // scalar computed in the piece).
      Operation *last = nullptr;
      for (Value operand : def->getOperands())
        if (Operation *local = inPiece(operand).getDefiningOp())
          if (!last || last->isBeforeInBlock(local))
            last = local;
      Operation *copy;
      if (last) {
        OpBuilder afterLast(last->getContext());
        afterLast.setInsertionPointAfter(last);
        copy = afterLast.clone(*def, mapping);
      } else {
        copy = atTop.clone(*def, mapping);
      }
      return copy->getResult(cast<OpResult>(value).getResultNumber());
    };
    for (OpOperand *operand : outside)
      operand->set(inPiece(operand->get()));
    eraseDeadRecomputed();

    // What the rest of the entry reads from the piece: returned.
    SmallVector<Value> results;
    for (Operation &op : pieceBody->without_terminator())
      for (Value result : op.getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !piece->isProperAncestor(user);
            }))
          results.push_back(result);
    ret->setOperands(results);
    piece.setFunctionType(b.getFunctionType(
        pieceBody->getArgumentTypes(), ValueRange(results).getTypes()));
    for (auto [i, value] : llvm::enumerate(arguments))
      if (auto argument = dyn_cast<BlockArgument>(value))
        if (DictionaryAttr attrs =
                entry.getArgAttrDict(argument.getArgNumber()))
          piece.setArgAttrs(i, attrs);

    OpBuilder atCall(placeholder);
    auto call = func::CallOp::create(atCall, loc, piece, arguments);
    placeholder->erase();
    call.setNoInline(true);
    for (auto [result, value] : llvm::zip(results, call.getResults()))
      result.replaceUsesWithIf(value, [&](OpOperand &use) {
        return !piece->isProperAncestor(use.getOwner());
      });
  }

  /// Erases recomputed operations of the entry that nothing reads any
  /// more (their users moved into pieces, which made copies).
  void eraseDeadRecomputed() {
    // Last first, so that a chain of them goes at once.
    SmallVector<Operation *> dead;
    for (Operation &op : body.without_terminator())
      if (isRecomputed(&op))
        dead.push_back(&op);
    for (Operation *op : llvm::reverse(dead))
      if (op->use_empty()) {
        erased.insert(op);
        op->erase();
      }
  }

  func::FuncOp entry;
  Block &body;
  SymbolTable &symbols;
  int64_t maxOps;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> position;
  /// Operations of `ops` erased since (recomputed ones nothing read).
  llvm::DenseSet<Operation *> erased;
  func::FuncOp lastPiece;
};

struct SplitEntryPass : PassWrapper<SplitEntryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SplitEntryPass)

  SplitEntryPass() = default;
  SplitEntryPass(const SplitEntryPass &other) : PassWrapper(other) {}

  StringRef getArgument() const override { return "tfaot-split-entry"; }
  StringRef getDescription() const override {
    return "Cut each public function larger than max-ops operations into "
           "private noinline pieces of consecutive top-level operations, "
           "called in order (LLVM's per-function passes grow faster than "
           "the function)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<func::FuncDialect, LLVM::LLVMDialect>();
  }

  Option<int64_t> maxOps{
      *this, "max-ops",
      llvm::cl::desc("operations, nested ones included, per piece; a "
                     "function no larger stays whole (0: every one does)"),
      llvm::cl::init(tfaot::kSplitEntryMaxOps)};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxOps < 0) {
      module.emitError("tfaot-split-entry: max-ops must be at least 0, not ")
          << static_cast<int64_t>(maxOps);
      return signalPassFailure();
    }
    if (maxOps == 0)
      return; // never cut
    SmallVector<func::FuncOp> entries;
    for (auto function : module.getOps<func::FuncOp>())
      if (function.isPublic() && !function.isExternal() &&
          function.getBody().hasOneBlock())
        entries.push_back(function);
    SymbolTable symbols(module);
    for (func::FuncOp entry : entries)
      EntrySplitter(entry, symbols, maxOps).split();
  }
};

} // namespace

void mlir::tfaot::registerSplitEntryPass() {
  PassRegistration<SplitEntryPass>();
}
