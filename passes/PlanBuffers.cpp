//===- PlanBuffers.cpp - Temporaries in one arena -------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-plan-buffers: static memory planning of the entry function's
// temporaries (see the pass description in Passes.td), and readMemoryPlan,
// the one reader of the figures it records (MemoryPlan.h).
//
// The plan is computed on the entry block's op order. A buffer is live from
// its alloc to the last top-level op that uses it or any value derived from
// it; two buffers may share bytes only if those intervals are disjoint.
// Anything the analysis cannot see through (an alloc in a nested region, a
// dynamic shape, a buffer that escapes through the terminator) is left as a
// heap allocation, so a conservative answer costs memory, never correctness.
//
//===----------------------------------------------------------------------===//
#include "passes/MemoryPlan.h"
#include "passes/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <random>
#include <tuple>

namespace mlir::tfaot {
#define GEN_PASS_DEF_PLANBUFFERSPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// Offsets in the arena are multiples of this: the runtime allocates the
/// arena 64-byte aligned, so every buffer keeps the alignment a heap
/// allocation would have had for vector loads.
constexpr int64_t kArenaAlignment = 64;

/// One planned buffer: its live interval [start, end] in entry-block op
/// indices, its size and, once placed, its offset.
struct Buffer {
  memref::AllocOp alloc;
  unsigned start = 0;
  unsigned end = 0;
  int64_t bytes = 0;
  int64_t offset = -1;
  SmallVector<Operation *> deallocs;
};

bool overlaps(const Buffer &a, const Buffer &b) {
  return a.start <= b.end && b.start <= a.end;
}

/// Bytes of a static memref, or -1 if the type is one the plan does not
/// handle (the alloc then stays a heap allocation).
int64_t plannableBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrFloat())
    return -1;
  if (std::optional<uint64_t> align = alloc.getAlignment())
    if (*align > static_cast<uint64_t>(kArenaAlignment))
      return -1;
  return type.getNumElements() *
         static_cast<int64_t>(
             llvm::divideCeil(type.getElementTypeBitWidth(), 8));
}

/// Computes the live interval of `buf` over `order` (top-level op -> index)
/// by following every value derived from the alloc. Returns false if the
/// buffer escapes where the interval cannot describe it.
bool computeLiveRange(Buffer &buf, Block &body,
                      const DenseMap<Operation *, unsigned> &order) {
  buf.start = buf.end = order.lookup(buf.alloc);
  SetVector<Value> aliases;
  aliases.insert(buf.alloc.getResult());
  for (size_t i = 0; i < aliases.size(); ++i) {
    Value value = aliases[i];
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DeallocOp>(user)) {
        buf.deallocs.push_back(user);
        continue;
      }
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        return false;
      // Returned (or yielded out of the function some other way): the
      // caller would see arena memory.
      if (top->hasTrait<OpTrait::IsTerminator>())
        return false;
      buf.end = std::max(buf.end, order.lookup(top));
      // The buffer's address as an integer (a runtime call's argument): the
      // buffer lives as long as anything computed from that address, which
      // is followed through side-effect-free arithmetic (offsets, casts) to
      // the op that finally uses it.
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user) ||
          (!isa<BaseMemRefType>(value.getType()) && isMemoryEffectFree(user))) {
        for (Value result : user->getResults())
          aliases.insert(result);
        continue;
      }
      // Views: the result aliases the source.
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value)
          for (Value result : user->getResults())
            if (isa<BaseMemRefType>(result.getType()))
              aliases.insert(result);
        continue;
      }
      // Anything else that hands back a memref (a loop carrying the buffer,
      // a select between buffers, ...) may return this one: treat its memref
      // results, and those of every op enclosing the use up to the top-level
      // one, as aliases too (all results, where an address is what flows).
      for (Operation *op = user; op; op = op->getParentOp()) {
        for (Value result : op->getResults())
          if (isa<BaseMemRefType>(result.getType()) ||
              !isa<BaseMemRefType>(value.getType()))
            aliases.insert(result);
        if (op == top)
          break;
      }
    }
  }
  return true;
}

/// Perturbed orders placeBuffers tries after the sorted ones.
constexpr int kRandomOrders = 64;

/// Greedy placement in the order `order`: each buffer goes into the
/// smallest gap (at an aligned offset) among already placed buffers whose
/// intervals overlap its own, or after the last of them. Sets the offsets
/// and returns the arena size.
int64_t placeInOrder(MutableArrayRef<Buffer> buffers, ArrayRef<unsigned> order) {
  int64_t arena = 0;
  SmallVector<const Buffer *> placed;
  for (unsigned index : order) {
    Buffer &buf = buffers[index];
    SmallVector<const Buffer *> conflicts;
    for (const Buffer *other : placed)
      if (overlaps(buf, *other))
        conflicts.push_back(other);
    llvm::sort(conflicts, [](const Buffer *a, const Buffer *b) {
      return a->offset < b->offset;
    });
    int64_t bestOffset = -1, bestGap = 0, frontier = 0;
    for (const Buffer *other : conflicts) {
      int64_t candidate = llvm::alignTo(frontier, kArenaAlignment);
      int64_t gap = other->offset - candidate;
      if (gap >= buf.bytes && (bestOffset < 0 || gap < bestGap)) {
        bestOffset = candidate;
        bestGap = gap;
      }
      frontier = std::max(frontier, other->offset + other->bytes);
    }
    if (bestOffset < 0)
      bestOffset = llvm::alignTo(frontier, kArenaAlignment);
    buf.offset = bestOffset;
    arena = std::max(arena, buf.offset + buf.bytes);
    placed.push_back(&buf);
  }
  return arena;
}

/// Places the buffers with the greedy best fit in a few orders (largest
/// first; longest-lived first; largest size x lifetime first; by start) and
/// keeps the smallest arena: no single order wins on every graph, and each
/// try costs O(n^2) on a few hundred buffers. Stops at `lowerBound`.
int64_t placeBuffers(MutableArrayRef<Buffer> buffers, int64_t lowerBound) {
  auto indices = llvm::to_vector(
      llvm::seq<unsigned>(0, static_cast<unsigned>(buffers.size())));
  auto length = [&](unsigned i) {
    return int64_t(buffers[i].end - buffers[i].start + 1);
  };
  using Key = std::function<std::tuple<int64_t, int64_t, int64_t>(unsigned)>;
  // Keys sort descending; the last element keeps the order deterministic.
  const Key keys[] = {
      [&](unsigned i) {
        return std::make_tuple(buffers[i].bytes, -int64_t(buffers[i].start),
                               -int64_t(i));
      },
      [&](unsigned i) {
        return std::make_tuple(length(i), buffers[i].bytes, -int64_t(i));
      },
      [&](unsigned i) {
        return std::make_tuple(buffers[i].bytes * length(i), int64_t(0),
                               -int64_t(i));
      },
      [&](unsigned i) {
        return std::make_tuple(-int64_t(buffers[i].start), buffers[i].bytes,
                               -int64_t(i));
      },
      [&](unsigned i) {
        return std::make_tuple(int64_t(buffers[i].end), buffers[i].bytes,
                               -int64_t(i));
      },
      [&](unsigned i) {
        return std::make_tuple(buffers[i].bytes, length(i), -int64_t(i));
      },
  };
  int64_t best = -1;
  SmallVector<int64_t> bestOffsets;
  auto tryOrder = [&](ArrayRef<unsigned> order) {
    int64_t arena = placeInOrder(buffers, order);
    if (best < 0 || arena < best) {
      best = arena;
      bestOffsets.clear();
      for (const Buffer &buf : buffers)
        bestOffsets.push_back(buf.offset);
    }
    return best <= lowerBound;
  };
  bool optimal = false;
  for (const Key &key : keys) {
    auto order = indices;
    llvm::sort(order, [&](unsigned a, unsigned b) { return key(a) > key(b); });
    if ((optimal = tryOrder(order)))
      break;
  }
  // Then largest-first orders with neighbours swapped at random (a fixed
  // seed and our own shuffle, so the plan is the same on every machine):
  // cheap, and it finds the last few percent on graphs where sizes tie.
  std::mt19937_64 random(0x7fa07);
  auto order = indices;
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return keys[0](a) > keys[0](b);
  });
  for (int trial = 0; trial < kRandomOrders && !optimal; ++trial) {
    auto perturbed = order;
    for (size_t i = 1; i < perturbed.size(); ++i)
      if (random() % 4 == 0)
        std::swap(perturbed[i - 1], perturbed[i]);
    optimal = tryOrder(perturbed);
  }
  for (auto [buf, offset] : llvm::zip(buffers, bestOffsets))
    buf.offset = offset;
  return best;
}

/// The most bytes live at any one op index.
int64_t peakLive(ArrayRef<Buffer> buffers, unsigned numOps) {
  SmallVector<int64_t> delta(numOps + 1, 0);
  for (const Buffer &buf : buffers) {
    delta[buf.start] += buf.bytes;
    delta[buf.end + 1] -= buf.bytes;
  }
  int64_t live = 0, peak = 0;
  for (int64_t d : delta) {
    live += d;
    peak = std::max(peak, live);
  }
  return peak;
}

struct PlanBuffersPass
    : public tfaot::impl::PlanBuffersPassBase<PlanBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        entries.push_back(func);
    // The compiler emits exactly one public function; with several there is
    // no single arena argument to add, so leave the module alone.
    if (entries.size() != 1)
      return;
    func::FuncOp entry = entries.front();
    if (!entry.getBody().hasOneBlock())
      return;
    Block &body = entry.getBody().front();

    DenseMap<Operation *, unsigned> order;
    unsigned numOps = 0;
    for (Operation &op : body)
      order[&op] = numOps++;

    SmallVector<Buffer> buffers;
    entry.walk([&](memref::AllocOp alloc) {
      int64_t bytes = plannableBytes(alloc);
      Buffer buf;
      buf.alloc = alloc;
      buf.bytes = bytes;
      if (bytes < 0 || alloc->getBlock() != &body ||
          !computeLiveRange(buf, body, order)) {
        ++numUnplanned;
        return;
      }
      buffers.push_back(std::move(buf));
    });

    int64_t naive = 0;
    for (const Buffer &buf : buffers)
      naive += buf.bytes;
    int64_t peak = peakLive(buffers, numOps);
    int64_t arena = placeBuffers(buffers, peak);

    if (arena > 0) {
      MLIRContext *ctx = &getContext();
      auto arenaType = MemRefType::get({arena}, IntegerType::get(ctx, 8));
      Builder b(ctx);
      // The runtime guarantees a private, 64-byte aligned block; telling
      // LLVM so lets it vectorize accesses to the views.
      SmallVector<NamedAttribute> argAttrs = {
          b.getNamedAttr(tfaot::kArenaArgAttr, b.getUnitAttr()),
          b.getNamedAttr("llvm.noalias", b.getUnitAttr()),
          b.getNamedAttr("llvm.align", b.getI64IntegerAttr(kArenaAlignment)),
      };
      unsigned argIndex = entry.getNumArguments();
      if (failed(entry.insertArgument(argIndex, arenaType,
                                      b.getDictionaryAttr(argAttrs),
                                      entry.getLoc()))) {
        entry.emitError("cannot add the arena argument");
        return signalPassFailure();
      }
      Value arenaArg = entry.getArgument(argIndex);
      for (Buffer &buf : buffers) {
        for (Operation *dealloc : buf.deallocs) {
          dealloc->erase();
          ++numDeallocsErased;
        }
        OpBuilder builder(buf.alloc);
        Location loc = buf.alloc.getLoc();
        Value offset = arith::ConstantIndexOp::create(builder, loc, buf.offset);
        Value view = memref::ViewOp::create(builder, loc, buf.alloc.getType(),
                                            arenaArg, offset, ValueRange{});
        buf.alloc.getResult().replaceAllUsesWith(view);
        buf.alloc.erase();
      }
    }
    // Zero-byte buffers still get views above only when an arena exists;
    // without one they are left as (empty) allocs and not counted here.
    numPlanned += arena > 0 ? buffers.size() : 0;
    arenaBytes = arena;
    naiveBytes = naive;
    peakLiveBytes = peak;

    Builder b(&getContext());
    module->setAttr(tfaot::kArenaBytesAttr, b.getI64IntegerAttr(arena));
    module->setAttr(tfaot::kNaiveTempBytesAttr, b.getI64IntegerAttr(naive));
    module->setAttr(tfaot::kPeakLiveBytesAttr, b.getI64IntegerAttr(peak));
  }
};

} // namespace

static uint64_t moduleBytes(ModuleOp module, StringRef name) {
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    return static_cast<uint64_t>(attr.getInt());
  return 0;
}

uint64_t mlir::tfaot::readArenaBytes(ModuleOp module) {
  return moduleBytes(module, kArenaBytesAttr);
}

mlir::tfaot::MemoryPlan mlir::tfaot::readMemoryPlan(ModuleOp module) {
  MemoryPlan plan;
  plan.arenaBytes = readArenaBytes(module);
  plan.naiveTempBytes = moduleBytes(module, kNaiveTempBytesAttr);
  plan.peakLiveBytes = moduleBytes(module, kPeakLiveBytesAttr);
  // Allocs still present after planning are heap allocations made by Run().
  module.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    // The deallocation pipeline's own allocs around loops and branches
    // (memref<Nxindex> lists of buffers to free) have index elements, which
    // have no bit width: count them as 64-bit.
    int64_t elementBytes =
        type.getElementType().isIndex()
            ? 8
            : llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    if (type.hasStaticShape())
      plan.heapTempBytes += type.getNumElements() * elementBytes;
  });
  return plan;
}
