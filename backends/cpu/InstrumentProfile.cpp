//===- InstrumentProfile.cpp - Timing calls around each top-level op ------===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-instrument-profile (see the pass description in Passes.td).
//
// `tfaot bench --profile` compiles with this pass and times each op of the
// entry function: after bufferization an op at the top of the function is
// one fused unit of work (a convolution's tile loop with its epilogue, an
// elementwise op, a copy, a runtime call), which is what a profile should
// show. The names travel as a module attribute rather than through the
// object: the bench reads them from the module it compiled.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"
#include "passes/Remarks.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#include <set>

namespace mlir::tfaot {
#define GEN_PASS_DEF_INSTRUMENTPROFILEPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// What a profile calls `op`: the kinds of linalg ops it runs ("fill +
/// conv_2d_nhwc_hwcf + generic" for a fused convolution), or its own kind,
/// then the TensorFlow node it comes from. Empty for ops that do no work
/// of their own (views, constants, allocations).
std::string describe(Operation *op) {
  std::vector<std::string> kinds;
  std::optional<std::string> node;
  bool named = false; // `node` is a contraction's.
  auto add = [&](Operation *inner) {
    // A call is named by what it calls (tfaot_rt_decode_jpeg).
    auto call = dyn_cast<CallOpInterface>(inner);
    SymbolRefAttr callee;
    if (call)
      callee = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
    std::string kind =
        callee ? callee.getLeafReference().str() : tfaot::opShortName(inner);
    if (llvm::find(kinds, kind) == kinds.end())
      kinds.push_back(kind);
    // The node of the contraction in a fused loop (the fill and the
    // epilogue carry other nodes' locations), else of the first op.
    bool elementwise = isa<linalg::FillOp, linalg::GenericOp>(inner);
    if (!node || (!elementwise && !named))
      if (std::optional<std::string> name = tfaot::nodeNameOf(inner->getLoc())) {
        node = name;
        named = !elementwise;
      }
  };
  if (isa<scf::ForOp, scf::ForallOp>(op)) {
    op->walk([&](linalg::LinalgOp inner) { add(inner); });
    if (kinds.empty())
      add(op);
  } else if (isa<linalg::LinalgOp, CallOpInterface, memref::CopyOp>(op)) {
    add(op);
  } else {
    return "";
  }
  std::string name = llvm::join(kinds, " + ");
  if (node)
    name += " '" + *node + "'";
  return name;
}

/// Whether `op` multiplies and adds: it has a reduction loop and its body
/// multiplies (a convolution, a matrix product of any layout, a generic
/// that is one). Pools, fills and elementwise ops are not counted as
/// floating-point work.
bool isContraction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  bool multiplies = false;
  op->walk([&](Operation *inner) {
    multiplies |= isa<arith::MulFOp, arith::MulIOp>(inner);
  });
  return multiplies;
}

/// 2 x the multiply-adds of the contractions `op` runs (itself, or inside
/// it), each times the trips of the loops around it up to `op` (itself
/// one, for a tile loop); 0 when one of those counts is not static.
int64_t flopOf(Operation *op) {
  if (auto counted = op->getAttrOfType<IntegerAttr>(tfaot::kCallFlopAttr))
    return counted.getInt();
  int64_t flop = 0;
  bool known = true;
  op->walk([&](linalg::LinalgOp inner) {
    if (!isContraction(inner))
      return;
    int64_t work = 2;
    for (int64_t range : inner.getStaticLoopRanges())
      work = ShapedType::isDynamic(range) ? (known = false, work)
                                          : work * range;
    // The loops from the contraction's parent up to `op` itself.
    for (Operation *parent = inner->getParentOp();
         parent && parent != op->getParentOp();
         parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      std::optional<APInt> trips =
          loop ? loop.getStaticTripCount() : std::nullopt;
      if (trips)
        work *= trips->getSExtValue();
      else if (!isa<linalg::LinalgOp>(parent))
        known = false; // A branch, another loop kind or a dynamic bound.
    }
    flop += work;
  });
  return known ? flop : 0;
}

/// The bytes of the statically shaped buffers `op` uses that are defined
/// outside it (each counted once: a buffer read by every tile of a loop is
/// still one buffer); views made inside it count through what they view.
int64_t bytesOf(Operation *op) {
  llvm::SetVector<Value> buffers;
  // The walk visits `op` too: its own operands are defined outside it.
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          !op->isAncestor(operand.getParentBlock()->getParentOp()))
        buffers.insert(operand);
  });
  int64_t bytes = 0;
  for (Value buffer : buffers) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.hasStaticShape() && type.getElementType().isIntOrFloat())
      bytes += type.getNumElements() *
               llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return bytes;
}

struct InstrumentProfilePass
    : public tfaot::impl::InstrumentProfilePassBase<InstrumentProfilePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    Type i64 = b.getI64Type();
    FunctionType hookType = b.getFunctionType({i64}, {});
    SmallVector<func::FuncOp> entries;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal() && function.isPublic())
        entries.push_back(function);
    SmallVector<Attribute> names;
    SmallVector<int64_t> flop, bytes;
    for (func::FuncOp function : entries) {
      SmallVector<std::pair<Operation *, std::string>> timed;
      for (Operation &op : function.getBody().front())
        if (std::string name = describe(&op); !name.empty())
          timed.push_back({&op, std::move(name)});
      OpBuilder atStart = OpBuilder::atBlockBegin(&function.getBody().front());
      for (auto &[op, name] : timed) {
        Value id = arith::ConstantIntOp::create(atStart, op->getLoc(), i64,
                                                names.size());
        names.push_back(b.getStringAttr(name));
        flop.push_back(flopOf(op));
        bytes.push_back(bytesOf(op));
        b.setInsertionPoint(op);
        func::CallOp::create(b, op->getLoc(), tfaot_rt::kProfileBegin,
                             TypeRange{}, id);
        b.setInsertionPointAfter(op);
        func::CallOp::create(b, op->getLoc(), tfaot_rt::kProfileEnd,
                             TypeRange{}, id);
      }
    }
    if (names.empty())
      return;
    b.setInsertionPointToStart(module.getBody());
    for (const char *hook : {tfaot_rt::kProfileBegin, tfaot_rt::kProfileEnd})
      if (!module.lookupSymbol(hook))
        func::FuncOp::create(b, module.getLoc(), hook, hookType)
            .setPrivate();
    module->setAttr(tfaot::kProfileNamesAttr, b.getArrayAttr(names));
    module->setAttr(tfaot::kProfileFlopAttr, b.getDenseI64ArrayAttr(flop));
    module->setAttr(tfaot::kProfileBytesAttr, b.getDenseI64ArrayAttr(bytes));
  }
};

} // namespace
