//===- DataflowConds.cpp - Cond Merges to tfaot.If / Case -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A cond's Merge (of Switch outputs on one predicate) becomes a tfaot.If, or
// a tfaot.Case for _SwitchN, whose regions compute what each input needs in
// its branch; a predicate known at import builds the chosen branch in place.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/DataflowStructurer.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/ImportHelpers.h"
#include "ir/Ops.h"

using namespace mlir;
using namespace ::tfaot;
using namespace ::tfaot::dataflow;

using mlir::tfaot::CaseOp;
using mlir::tfaot::IfOp;
using mlir::tfaot::YieldOp;

/// The value a cond Merge's input `input` has in its branch, built into the
/// current (top) layer.
FailureOr<Value> Structurer::buildBranch(const NodeDef &merge, int input) {
  Scope *outer = scopeOf_.lookup(&merge);
  std::vector<const NodeDef *> nodes =
      closure({merge.input(input)}, [&](const NodeDef &x) {
        Scope *xs = scopeOf_.lookup(&x);
        return xs && xs != outer && xs->within(outer);
      });
  TensorName in = splitTensorName(merge.input(input));
  const NodeDef *source = node(in.node);
  Scope *branch = scopeOfTensor(*source, in.index);
  if (failed(buildScope(branch, nodes)))
    return failure();
  return lookup(merge, merge.input(input));
}

LogicalResult Structurer::buildCondMerge(const NodeDef &merge) {
  // Which input comes from which branch; all share one predicate.
  std::map<int64_t, int> inputOf;
  const Scope *any = nullptr;
  for (int i = 0; i < merge.input_size(); ++i) {
    if (llvm::StringRef(merge.input(i)).starts_with("^"))
      continue;
    TensorName in = splitTensorName(merge.input(i));
    const Scope *s = scopeOfTensor(*node(in.node), in.index);
    inputOf[s->branch] = i;
    any = s;
  }
  if (!any)
    return fail(merge, "has no data inputs");
  FailureOr<Value> pred = lookup(merge, any->pred);
  if (failed(pred))
    return failure();
  Location loc = locOf(merge);
  int64_t numBranches = 2;
  if (any->nary) {
    const NodeDef *sw = nullptr;
    for (const NodeDef *n : order_)
      if (n->op() == "_SwitchN" && predicateOf(*n) == any->pred)
        sw = n;
    numBranches = sw ? numOuts(*sw) : 2;
  }
  std::optional<int64_t> chosen;
  if (any->nary) {
    auto type = cast<RankedTensorType>(pred->getType());
    if (type.getRank() != 0 || !type.getElementType().isInteger(32))
      return fail(merge, "the _SwitchN index '" + any->pred +
                             "' must be an int32 scalar, got " +
                             typeString(type));
    chosen = mlir::tfaot::staticBranch(*pred, numBranches);
  } else if (std::optional<bool> truth = mlir::tfaot::staticTruth(*pred)) {
    chosen = *truth ? 1 : 0;
  }
  if (chosen) {
    // Decided at import: the chosen branch in place, no op.
    if (!inputOf.count(*chosen))
      return fail(merge, "the predicate '" + any->pred +
                             "' is known at compile time and picks branch " +
                             std::to_string(*chosen) +
                             ", which feeds this Merge nothing");
    layers_.push_back(Layer(layers_.back().block, nullptr));
    FailureOr<Value> value = buildBranch(merge, inputOf[*chosen]);
    layers_.pop_back();
    if (failed(value))
      return failure();
    bind(merge.name() + ":0", *value);
    bind(merge.name() + ":1", constantI32(*chosen, loc));
    return success();
  }
  if (cast<RankedTensorType>(pred->getType()).getRank() != 0)
    return fail(merge, "the predicate '" + any->pred + "' " +
                           typeString(pred->getType()) +
                           " has a shape known only at run time");
  for (int64_t b = 0; b < numBranches; ++b)
    if (!inputOf.count(b))
      return fail(merge, "has no input from branch " + std::to_string(b) +
                             " of the cond on '" + any->pred +
                             "', so the value it yields there is undefined");
  // The regions, in the op's order: If is (then = 1, else = 0).
  SmallVector<int64_t> order;
  if (any->nary)
    for (int64_t b = 0; b < numBranches; ++b)
      order.push_back(b);
  else
    order = {1, 0};
  Captures captures;
  SmallVector<Block *> blocks;
  SmallVector<SmallVector<Value>> yields;
  for (int64_t b : order) {
    Block *block = newRegionBlock(captures, {});
    blocks.push_back(block);
    layers_.push_back(Layer(block, &captures));
    FailureOr<Value> value = buildBranch(merge, inputOf[b]);
    if (succeeded(value))
      yields.push_back({*value, constantI32(b, loc)});
    layers_.pop_back();
    if (failed(value)) {
      deleteDetachedBlocks(blocks);
      return failure();
    }
  }
  for (size_t k = 1; k < yields.size(); ++k)
    if (yields[k][0].getType() != yields[0][0].getType()) {
      std::string a = typeString(yields[0][0].getType());
      std::string b = typeString(yields[k][0].getType());
      deleteDetachedBlocks(blocks);
      return fail(merge, "its inputs are " + a + " in branch " +
                             std::to_string(order[0]) + " but " + b +
                             " in branch " + std::to_string(order[k]) +
                             "; tfaot needs every branch to give one static "
                             "shape and type");
    }
  for (auto [block, values] : llvm::zip(blocks, yields)) {
    OpBuilder builder(context_);
    builder.setInsertionPointToEnd(block);
    YieldOp::create(builder, loc, values);
  }
  OpBuilder builder(context_);
  builder.setInsertionPointToEnd(layers_.back().block);
  TypeRange types = blocks[0]->getTerminator()->getOperandTypes();
  Operation *op;
  if (any->nary)
    op = CaseOp::create(builder, loc, types, *pred, captures.outer,
                        blocks.size());
  else
    op = IfOp::create(builder, loc, types, *pred, captures.outer);
  for (auto [region, block] : llvm::zip(op->getRegions(), blocks))
    region.push_back(block);
  bind(merge.name() + ":0", op->getResult(0));
  bind(merge.name() + ":1", op->getResult(1));
  return success();
}
