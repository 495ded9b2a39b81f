//===- ParallelizeLoops.cpp - Loops for the runtime's thread pool ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-parallelize-loops (see the pass description in Passes.td).
//
// The runtime cannot call back into an MLIR region, so each parallel loop
// becomes a function of its own, body(context, begin, end), that runs
// iterations [begin, end), and the loop becomes one call of
// tfaot_rt_parallel_for(body, context, n). The context is a stack array of
// 8-byte slots holding what the body reads from outside the loop: buffers
// as their aligned pointers (every buffer here has a static shape and
// layout, so the body rebuilds its descriptor from the pointer alone) and
// scalars as they are. Constants are cloned into the body instead.
//
// The body is still memref/scf code: the passes after this one (tiling and
// vectorizing contractions, lowering to LLVM) treat it like any function.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/ContractionEpilogues.h"
#include "backends/cpu/Passes.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_PARALLELIZELOOPSPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using ::tfaot::cpu::fillOfOutput;

namespace {

/// Most pieces a linalg op outside a loop is split into: enough for 16
/// threads with some balance, few enough that each piece is real work.
constexpr int64_t kMaxPieces = 64;
/// Rows of a matrix product per piece: the register tile of
/// tfaot-vectorize-contractions, which then keeps its full height.
constexpr int64_t kMatmulRows = 8;
/// When only the output's contiguous dimension can be split (a batch-1
/// matrix-vector product), it is split into pieces of at least 64 elements
/// and a multiple of 8 (whole vectors for the kernel's column tiles).
constexpr int64_t kContiguousPiece = 64;
constexpr int64_t kContiguousMultiple = 8;

int64_t smallestDivisorAtLeast(int64_t size, int64_t least) {
  for (int64_t d = std::max<int64_t>(least, 1); d < size; ++d)
    if (size % d == 0)
      return d;
  return size;
}

int64_t workOf(scf::ForOp loop);

/// The work of the linalg ops in `region`, loops multiplying their bodies',
/// plus one per lane of each vector value computed in it: the Winograd
/// transforms arrive here already as vector loops
/// (tfaot-vectorize-winograd-transforms), so their work is the lanes their
/// loads and arithmetic process (a 56x56x64 layer's input transform counts
/// about 4M, its output transform about 3M).
int64_t workIn(Region &region) {
  int64_t work = 0;
  for (Operation &op : region.getOps()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      work += mlir::tfaot::staticWorkOf(linalgOp);
    else if (auto loop = dyn_cast<scf::ForOp>(op))
      work += workOf(loop);
    else
      for (Type type : op.getResultTypes())
        if (auto vector = dyn_cast<VectorType>(type))
          work += vector.getNumElements();
  }
  return work;
}

/// The work of all iterations of `loop` (one, if their number is unknown).
int64_t workOf(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  return (trips ? trips->getSExtValue() : 1) * workIn(loop.getRegion());
}

/// Where to split a linalg op among threads: the loop and how many of its
/// iterations one piece runs. The first parallel loop that has more than
/// one iteration and is not the output's contiguous dimension (the vector
/// code runs along that one); a matrix product's rows in register-tile
/// multiples; the contiguous dimension in whole vectors when it is all
/// there is.
std::optional<std::pair<unsigned, int64_t>> splitOf(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  std::optional<unsigned> contiguous;
  if (output.getNumResults() > 0)
    if (auto dim = dyn_cast<AffineDimExpr>(output.getResults().back()))
      contiguous = dim.getPosition();
  std::optional<unsigned> rows;
  if (isa<linalg::MatmulOp>(op.getOperation()))
    rows = 0;
  else if (isa<linalg::BatchMatmulOp>(op.getOperation()))
    rows = 1;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (iterators[d] != utils::IteratorType::parallel || ranges[d] < 2 ||
        d == contiguous)
      continue;
    // Pieces divide the loop, so every piece has the same static shape
    // (which the vectorizer needs); a prime size is split one by one.
    int64_t piece = smallestDivisorAtLeast(
        ranges[d], llvm::divideCeil(ranges[d], kMaxPieces));
    if (piece == ranges[d])
      piece = 1;
    if (d == rows) {
      piece = smallestDivisorAtLeast(ranges[d], std::max(piece, kMatmulRows));
      if (piece == ranges[d])
        continue;
    }
    return std::make_pair(d, piece);
  }
  if (!contiguous || ranges[*contiguous] < 2 * kContiguousPiece)
    return std::nullopt;
  int64_t range = ranges[*contiguous];
  for (int64_t piece = kContiguousPiece; piece < range;
       piece += kContiguousMultiple)
    if (range % piece == 0 && range / piece <= kMaxPieces)
      return std::make_pair(*contiguous, piece);
  return std::nullopt;
}

/// A buffer the body can rebuild from its aligned pointer alone.
bool isStaticBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)))
    return false;
  return offset != ShapedType::kDynamic &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

bool isClonedIntoBody(Operation *op) {
  return op && isa<arith::ConstantOp, memref::GetGlobalOp, ub::PoisonOp>(op);
}

struct ParallelizeLoopsPass
    : public mlir::tfaot::impl::ParallelizeLoopsPassBase<ParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal())
        functions.push_back(function);
    LowerToLLVMOptions options(&getContext());
    LLVMTypeConverter converter(&getContext(), options);
    for (func::FuncOp function : functions) {
      splitLinalgOps(function);
      int index = 0;
      SmallVector<scf::ForOp> loops;
      for (auto loop : function.getBody().getOps<scf::ForOp>())
        if (loop->hasAttr(mlir::tfaot::kParallelLoopAttr))
          loops.push_back(loop);
      for (scf::ForOp loop : loops) {
        if (workOf(loop) < minWork)
          continue;
        scf::ForOp split = coalesceNest(widestOf(loop));
        if (!outline(split, function, index, converter))
          continue;
        ++index;
        ++numLoopsParallelized;
      }
    }
  }

  /// Splits each large linalg op at the top of `function` into a loop of
  /// pieces (tfaot-fuse-epilogues made the loops of convolutions and
  /// matmuls with epilogues already) and marks the loop parallel.
  void splitLinalgOps(func::FuncOp function) {
    SmallVector<linalg::LinalgOp> ops;
    for (Operation &op : function.getBody().getOps())
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        // A Winograd transform left as a generic (channels its vector loops
        // could not take) reads its 4x4 blocks through floordiv / mod maps,
        // which a split along rows would cut through: it runs whole.
        if (linalgOp.hasPureBufferSemantics() && !linalgOp.hasDynamicShape() &&
            mlir::tfaot::staticWorkOf(linalgOp) >= minWork &&
            !linalgOp->hasAttr(mlir::tfaot::kWinogradTransformAttr))
          ops.push_back(linalgOp);
    // A fill that zeroes the output of the op right after it is split with
    // that op, each piece before its tile, rather than as a loop of its own
    // (should the op's tiling fail, the fill stays whole, on one thread).
    DenseSet<Operation *> candidates;
    for (linalg::LinalgOp op : ops)
      candidates.insert(op.getOperation());
    DenseMap<Operation *, linalg::FillOp> fillBefore;
    DenseSet<Operation *> fillsMoved;
    for (linalg::LinalgOp op : ops)
      if (linalg::FillOp fill = fillOfOutput(op))
        if (candidates.contains(fill.getOperation()) && splitOf(op)) {
          fillBefore[op] = fill;
          fillsMoved.insert(fill.getOperation());
        }
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      if (fillsMoved.contains(op.getOperation()))
        continue;
      std::optional<std::pair<unsigned, int64_t>> split = splitOf(op);
      if (!split)
        continue;
      SmallVector<OpFoldResult> sizes(op.getNumLoops(),
                                      rewriter.getIndexAttr(0));
      sizes[split->first] = rewriter.getIndexAttr(split->second);
      scf::SCFTilingOptions options;
      options.setTileSizes(sizes);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      if (linalg::FillOp fill = fillBefore.lookup(op)) {
        Operation *tile = tiled->tiledOps.front();
        rewriter.setInsertionPoint(tile);
        linalg::FillOp::create(
            rewriter, fill.getLoc(), fill.value(),
            cast<linalg::LinalgOp>(tile).getDpsInitOperand(0)->get());
        rewriter.eraseOp(fill);
      }
      // The tiled code computes the whole op, loop or not: the op goes.
      if (tiled->loops.size() == 1)
        tiled->loops.front()->setAttr(mlir::tfaot::kParallelLoopAttr,
                                      rewriter.getUnitAttr());
      rewriter.eraseOp(op);
    }
  }

  /// The loop to split among threads in the nest `loop` heads: a loop of
  /// one iteration (the batch of a batch-1 model) passes on to the parallel
  /// loop it holds alone.
  /// The perfect nest of parallel loops starting at `loop` (the batch,
  /// row and channel-block loops of a tiled convolution) as one loop over
  /// all their iterations, so that the thread pool can hand out every
  /// tile, not only the outer loop's; `loop` itself when it has no such
  /// nest. Each tile computes its own output elements as before.
  static scf::ForOp coalesceNest(scf::ForOp loop) {
    auto staticTrips = [](scf::ForOp l) -> std::optional<int64_t> {
      std::optional<APInt> trips = l.getStaticTripCount();
      if (!trips || l.getNumResults() != 0)
        return std::nullopt;
      return trips->getSExtValue();
    };
    std::optional<int64_t> total = staticTrips(loop);
    if (!total)
      return loop;
    SmallVector<scf::ForOp> nest{loop};
    for (;;) {
      Block *body = nest.back().getBody();
      if (body->getOperations().size() != 2)
        break;
      auto inner = dyn_cast<scf::ForOp>(body->front());
      if (!inner || !inner->hasAttr(mlir::tfaot::kParallelLoopAttr))
        break;
      std::optional<int64_t> trips = staticTrips(inner);
      if (!trips)
        break;
      *total *= *trips;
      nest.push_back(inner);
    }
    if (nest.size() < 2)
      return loop;
    IRRewriter rewriter(loop.getContext());
    if (failed(coalesceLoops(rewriter, nest)))
      return loop;
    // coalesceLoops leaves the bound as a product of the loops' bounds;
    // outlining wants it constant.
    rewriter.setInsertionPoint(loop);
    loop.setUpperBound(
        arith::ConstantIndexOp::create(rewriter, loop.getLoc(), *total));
    return loop;
  }

  static scf::ForOp widestOf(scf::ForOp loop) {
    for (;;) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      Block *body = loop.getBody();
      if (!trips || *trips != 1 || body->getOperations().size() != 2)
        return loop;
      auto inner = dyn_cast<scf::ForOp>(body->front());
      if (!inner || !inner->hasAttr(mlir::tfaot::kParallelLoopAttr))
        return loop;
      loop = inner;
    }
  }

  /// Replaces `loop` by a call of the runtime's parallel for on an
  /// outlined body. Returns false, leaving the loop as it is, when it reads
  /// something a context slot cannot carry or calls a function (the
  /// runtime's functions report errors per thread).
  bool outline(scf::ForOp loop, func::FuncOp parent, int index,
               const LLVMTypeConverter &converter) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!lower || !step || !trips || trips->getSExtValue() < 2 ||
        loop.getNumResults() != 0)
      return false;
    if (loop.getBody()
            ->walk([](CallOpInterface) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return false;
    SetVector<Value> used;
    getUsedValuesDefinedAbove(loop.getRegion(), used);
    SmallVector<Value> slots, cloned;
    for (Value value : used) {
      if (isClonedIntoBody(value.getDefiningOp()))
        cloned.push_back(value);
      else if (isStaticBuffer(value.getType()) ||
               value.getType().isIntOrIndexOrFloat())
        slots.push_back(value);
      else
        return false;
    }

    MLIRContext *context = &getContext();
    Location loc = loop.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    Type i64 = IntegerType::get(context, 64);
    OpBuilder b(context);
    IndexType indexType = b.getIndexType();
    FunctionType bodyType =
        b.getFunctionType({ptrType, indexType, indexType}, {});
    func::FuncOp callee = runtimeFunction(bodyType);

    // The body: slots loaded, constants cloned, the loop over [begin, end).
    b.setInsertionPointAfter(parent);
    auto body = func::FuncOp::create(
        b, loc, (parent.getSymName() + "_parallel" + Twine(index)).str(),
        bodyType);
    body.setPrivate();
    body->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
    Block *entry = body.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    for (auto [i, value] : llvm::enumerate(slots)) {
      Value slot = LLVM::GEPOp::create(b, loc, ptrType, i64,
                                       entry->getArgument(0),
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Type type = value.getType();
      Value loaded;
      if (auto memref = dyn_cast<MemRefType>(type)) {
        Value pointer = LLVM::LoadOp::create(b, loc, ptrType, slot);
        Value descriptor = MemRefDescriptor::fromStaticShape(
            b, loc, converter, memref, pointer);
        loaded = UnrealizedConversionCastOp::create(b, loc, type, descriptor)
                     .getResult(0);
      } else if (type.isIndex()) {
        loaded = arith::IndexCastOp::create(
            b, loc, indexType, LLVM::LoadOp::create(b, loc, i64, slot));
      } else {
        loaded = LLVM::LoadOp::create(b, loc, type, slot);
      }
      mapping.map(value, loaded);
    }
    for (Value value : cloned)
      mapping.map(value, b.clone(*value.getDefiningOp())->getResult(0));
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto inner = scf::ForOp::create(b, loc, entry->getArgument(1),
                                    entry->getArgument(2), one);
    b.setInsertionPoint(inner.getBody()->getTerminator());
    // The original induction variable: lower + i * step.
    Value iv = arith::AddIOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, *lower),
        arith::MulIOp::create(b, loc, inner.getInductionVar(),
                              arith::ConstantIndexOp::create(b, loc, *step)));
    mapping.map(loop.getInductionVar(), iv);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
    b.setInsertionPointAfter(inner);
    func::ReturnOp::create(b, loc);

    // The call: the context array at the top of the function (a static
    // alloca), filled where the loop was.
    b.setInsertionPointToStart(&parent.getBody().front());
    Value count = LLVM::ConstantOp::create(
        b, loc, i64, b.getI64IntegerAttr(std::max<int64_t>(1, slots.size())));
    Value contextArray = LLVM::AllocaOp::create(b, loc, ptrType, i64, count);
    b.setInsertionPoint(loop);
    for (auto [i, value] : llvm::enumerate(slots)) {
      Value slot = LLVM::GEPOp::create(b, loc, ptrType, i64, contextArray,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value stored = value;
      if (isa<MemRefType>(value.getType())) {
        Value address =
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, value);
        Value integer = arith::IndexCastOp::create(b, loc, i64, address);
        stored = LLVM::IntToPtrOp::create(b, loc, ptrType, ValueRange{integer});
      } else if (value.getType().isIndex()) {
        stored = arith::IndexCastOp::create(b, loc, i64, value);
      }
      LLVM::StoreOp::create(b, loc, stored, slot);
    }
    Value function = func::ConstantOp::create(
        b, loc, bodyType, SymbolRefAttr::get(body.getSymNameAttr()));
    Value n = arith::ConstantIndexOp::create(b, loc, trips->getSExtValue());
    func::CallOp::create(b, loc, callee, ValueRange{function, contextArray, n});
    loop.erase();
    return true;
  }

  /// The declaration of the runtime's tfaot_rt_parallel_for (tfaot/runtime/
  /// cpu_kernels.h), added on first use.
  func::FuncOp runtimeFunction(FunctionType bodyType) {
    ModuleOp module = getOperation();
    if (auto existing =
            module.lookupSymbol<func::FuncOp>(tfaot_rt::kParallelFor))
      return existing;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto ptrType = LLVM::LLVMPointerType::get(&getContext());
    auto declaration = func::FuncOp::create(
        b, module.getLoc(), tfaot_rt::kParallelFor,
        b.getFunctionType({bodyType, ptrType, b.getIndexType()}, {}));
    declaration.setPrivate();
    return declaration;
  }
};

} // namespace
