//===- Int8ResidualJoin.cpp - Two int8 products summed, as one residual ---===//
// SPDX-License-Identifier: Apache-2.0
//
// The first block of each ResNet stage adds two convolutions, its shortcut
// and its last 1x1, both int8: one generic reads both products' int32
// sums, rescales each (sitofp, times its scale, plus its bias), adds them
// and applies the ReLU. No kernel takes two sums, so both products used
// to write their int32 sums and that generic read them back (ResNet-50:
// 0.55 ms of the generic alone, one thread, plus the sums' traffic).
//
// Split here, before tfaot-cpu-int8-ukernels matches epilogues: the
// earlier product's term becomes a generic of its own right after it,
// writing a float buffer (an epilogue the fused kernel applies: scale,
// bias), and the join reads that buffer as the later product's residual
// (also an epilogue). The arithmetic is the same float32 operations on the
// same values; only the two terms of the one addition change sides, and
// IEEE addition is commutative, so the results are bit for bit the same.
//
// The float32 network's joins are the same with float32 sums (the panel
// kernel's, tfaot_rt_mmt4d_f32_fused): each term is the sums plus the
// bias, with no conversion and no scale.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Int8Epilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace tfaot::cpu {
namespace {

/// One rescaled product in the join's body: sitofp(sums) * scale[col]
/// (+ bias[col]) for int32 sums, sums (+ bias[col]) for float32 ones.
struct Term {
  unsigned input;                 ///< The sums' input number.
  SmallVector<Operation *> ops;   ///< sitofp, mulf and the optional addf.
  Value value;                    ///< The last of them (or the sums).
};

/// The only user of `v`, if it has exactly one.
Operation *onlyUser(Value v) {
  return v.hasOneUse() ? *v.getUsers().begin() : nullptr;
}

/// Whether `v` is one of `generic`'s per-column inputs (`columns`).
bool isColumnArg(linalg::GenericOp generic, Value v,
                 ArrayRef<bool> columns) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner() == &generic.getRegion().front() &&
         arg.getArgNumber() < columns.size() && columns[arg.getArgNumber()];
}

std::optional<Term> readTerm(linalg::GenericOp generic, unsigned input,
                             ArrayRef<bool> columns) {
  Term term{input, {}, generic.getRegion().front().getArgument(input)};
  auto other = [&](Operation *op) {
    return op->getOperand(0) == term.value ? op->getOperand(1)
                                           : op->getOperand(0);
  };
  if (!term.value.getType().isF32()) {
    auto toFloat = dyn_cast_or_null<arith::SIToFPOp>(onlyUser(term.value));
    if (!toFloat || !toFloat.getType().isF32())
      return std::nullopt;
    term.ops.push_back(toFloat);
    term.value = toFloat.getResult();
    auto mul = dyn_cast_or_null<arith::MulFOp>(onlyUser(term.value));
    if (!mul || !isColumnArg(generic, other(mul), columns))
      return std::nullopt;
    term.ops.push_back(mul);
    term.value = mul.getResult();
  }
  if (auto add = dyn_cast_or_null<arith::AddFOp>(onlyUser(term.value)))
    if (isColumnArg(generic, other(add), columns)) {
      term.ops.push_back(add);
      term.value = add.getResult();
    }
  return term;
}

/// Whether `mmt4d` sums int8 into int32 or float32 into float32.
bool isSumsOf(linalg::Mmt4DOp mmt4d) {
  Type sums = getElementTypeOrSelf(mmt4d.getDpsInitOperand(0)->get());
  Type lhs = getElementTypeOrSelf(mmt4d.getDpsInputOperand(0)->get());
  return (sums.isInteger(32) && lhs.isInteger(8)) ||
         (sums.isF32() && lhs.isF32());
}

/// The product whose sums buffer `sums` views, or null: an int8 mmt4d
/// (int32 sums) or a float32 one (float32 sums of float32 operands, the
/// panel kernel's).
linalg::Mmt4DOp productOf(Value sums) {
  while (Operation *def = sums.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::SubViewOp>(def))
      break;
    sums = def->getOperand(0);
  }
  if (!sums.getDefiningOp<memref::AllocOp>())
    return nullptr;
  for (Operation *user : sums.getUsers())
    if (auto mmt4d = dyn_cast<linalg::Mmt4DOp>(user))
      if (mmt4d.getDpsInitOperand(0)->get() == sums && isSumsOf(mmt4d))
        return mmt4d;
  return nullptr;
}

/// The views from the product's buffer to `sums`, outermost last, cloned
/// after `point`; returns the clone of `sums`.
Value cloneViewsAfter(Value sums, Operation *point) {
  SmallVector<Operation *> chain;
  for (Operation *def = sums.getDefiningOp();
       def && isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
                  memref::SubViewOp>(def);
       def = def->getOperand(0).getDefiningOp())
    chain.push_back(def);
  OpBuilder b(point->getContext());
  b.setInsertionPointAfter(point);
  IRMapping map;
  Value result = sums;
  for (Operation *view : llvm::reverse(chain))
    result = b.clone(*view, map)->getResult(0);
  return result;
}

/// Whether `v` is available before `op` (same block, defined earlier, or
/// an argument of an enclosing block).
bool availableBefore(Value v, Operation *op) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return true;
  return def->getBlock() == op->getBlock() && def->isBeforeInBlock(op);
}

void splitJoin(linalg::GenericOp join) {
  MLIRContext *ctx = join.getContext();
  if (!join.hasPureBufferSemantics() || join.getNumDpsInits() != 1 ||
      join.getNumParallelLoops() != join.getNumLoops())
    return;
  const unsigned rank = join.getNumLoops();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap lastColumn =
      AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx), ctx);
  Value result = join.getDpsInitOperand(0)->get();
  // A float result (the float residual stream), or an int8 one (the int8
  // stream of --quantize_residuals, where the stage's output is only read
  // quantized).
  if (!(isDenseOf(result, Float32Type::get(ctx)) ||
        isDenseOf(result, IntegerType::get(ctx, 8))) ||
      join.getMatchingIndexingMap(join.getDpsInitOperand(0)) != identity)
    return;
  SmallVector<bool> columns;
  SmallVector<unsigned> sums;
  for (OpOperand *input : join.getDpsInputOperands()) {
    AffineMap map = join.getMatchingIndexingMap(input);
    auto type = cast<MemRefType>(input->get().getType());
    columns.push_back(map == lastColumn && type.getElementType().isF32());
    if (map == identity && productOf(input->get()))
      sums.push_back(input->getOperandNumber());
  }
  if (sums.size() != 2)
    return;
  std::optional<Term> a = readTerm(join, sums[0], columns);
  std::optional<Term> b = readTerm(join, sums[1], columns);
  // (A float32 term that is the sums alone has nothing to split off.)
  if (!a || !b || a->ops.empty() || b->ops.empty())
    return;
  auto add = dyn_cast_or_null<arith::AddFOp>(onlyUser(a->value));
  if (!add || add != onlyUser(b->value))
    return;
  linalg::Mmt4DOp pa = productOf(join.getDpsInputOperand(a->input)->get());
  linalg::Mmt4DOp pb = productOf(join.getDpsInputOperand(b->input)->get());
  if (!pa || !pb || pa == pb || pa->getBlock() != join->getBlock() ||
      pb->getBlock() != join->getBlock() || !pa->isBeforeInBlock(join) ||
      !pb->isBeforeInBlock(join))
    return;
  // The earlier product's term gets its own generic; the later one keeps
  // the join, which must be the next generic after it for the fused
  // kernel to take it.
  if (pb->isBeforeInBlock(pa)) {
    std::swap(a, b);
    std::swap(pa, pb);
  }
  // What initializes the earlier product's sums comes right before it
  // (tfaot-cpu-int8-ukernels folds it into the call): the float buffer is
  // allocated before that.
  Operation *init = pa->getPrevNode();
  if (!init || !isa<linalg::FillOp, linalg::BroadcastOp>(init) ||
      init->getOperand(init->getNumOperands() - 1) !=
          pa.getDpsInitOperand(0)->get())
    return;
  // The term's scale and bias must exist before the earlier product.
  SmallVector<OpOperand *> termColumns;
  for (Operation *op : a->ops)
    for (Value operand : op->getOperands())
      if (isColumnArg(join, operand, columns))
        termColumns.push_back(
            join.getDpsInputOperand(cast<BlockArgument>(operand).getArgNumber()));
  for (OpOperand *column : termColumns)
    if (!availableBefore(column->get(), init))
      return;

  // term = sitofp(sums) * scale (+ bias), into a new float buffer.
  OpBuilder builder(init);
  Location loc = join.getLoc();
  auto floatType = MemRefType::get(
      cast<MemRefType>(result.getType()).getShape(), Float32Type::get(ctx));
  Value term = memref::AllocOp::create(builder, loc, floatType,
                                       builder.getI64IntegerAttr(64));
  Value sumsView =
      cloneViewsAfter(join.getDpsInputOperand(a->input)->get(), pa);
  builder.setInsertionPointAfter(sumsView.getDefiningOp()
                                     ? sumsView.getDefiningOp()
                                     : pa.getOperation());
  SmallVector<Value> termInputs = {sumsView};
  SmallVector<AffineMap> termMaps = {identity};
  IRMapping termArgs; // The join's block arguments -> the new generic's.
  for (OpOperand *column : termColumns) {
    termInputs.push_back(column->get());
    termMaps.push_back(lastColumn);
  }
  termMaps.push_back(identity);
  Block &body = join.getRegion().front();
  linalg::GenericOp::create(
      builder, loc, ValueRange(termInputs), ValueRange{term}, termMaps,
      join.getIteratorTypesArray(),
      [&](OpBuilder &nested, Location, ValueRange args) {
        termArgs.map(body.getArgument(a->input), args[0]);
        for (auto [i, column] : llvm::enumerate(termColumns))
          termArgs.map(body.getArgument(column->getOperandNumber()),
                       args[i + 1]);
        Operation *last = nullptr;
        for (Operation *op : a->ops)
          last = nested.clone(*op, termArgs);
        linalg::YieldOp::create(nested, loc, last->getResult(0));
      });

  // The join, the earlier sums replaced by the term's buffer (a residual).
  builder.setInsertionPoint(join);
  SmallVector<Value> inputs = join.getDpsInputs();
  inputs[a->input] = term;
  auto rewritten = linalg::GenericOp::create(
      builder, loc, ValueRange(inputs), ValueRange{result},
      join.getIndexingMapsArray(), join.getIteratorTypesArray(),
      [&](OpBuilder &nested, Location, ValueRange args) {
        IRMapping map;
        for (auto [old, now] : llvm::zip(body.getArguments(), args))
          map.map(old, now);
        map.map(a->value, args[a->input]);
        for (Operation &op : body) {
          if (llvm::is_contained(a->ops, &op))
            continue;
          nested.clone(op, map);
        }
      });
  (void)rewritten;
  Value oldSums = join.getDpsInputOperand(a->input)->get();
  join.erase();
  // The earlier sums' views that only the join read.
  for (Operation *def = oldSums.getDefiningOp();
       def && def->use_empty() &&
       isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
           memref::SubViewOp>(def);) {
    Operation *next = def->getOperand(0).getDefiningOp();
    def->erase();
    def = next;
  }
}

} // namespace

void splitJoinsOfTwoProducts(ModuleOp module) {
  SmallVector<linalg::GenericOp> generics;
  module.walk([&](linalg::GenericOp op) { generics.push_back(op); });
  for (linalg::GenericOp op : generics)
    splitJoin(op);
}

} // namespace tfaot::cpu
