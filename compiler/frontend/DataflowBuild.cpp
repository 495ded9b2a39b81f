//===- DataflowBuild.cpp - Building scopes into blocks --------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Step 2 of structuring TF1 control flow: a scope's nodes and child loop
// frames built in dependency order, each node from its operands, and the
// values that cross into a region (copied in if constant, else captured as
// an extra operand and block argument).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/DataflowStructurer.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/ImportHelpers.h"
#include "ir/Ops.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <queue>

using namespace mlir;
using namespace ::tfaot;
using namespace ::tfaot::dataflow;
using mlir::tfaot::ConstOp;

/// `value` (visible in layer `from`) as seen in layer `to` >= `from`.
Value Structurer::bringInto(Value value, size_t from, size_t to) {
  for (size_t l = from + 1; l <= to; ++l) {
    Layer &layer = layers_[l];
    if (!layer.captures)
      continue; // Same block as the layer below.
    if (Value copy = layer.clones.lookup(value)) {
      value = copy;
      continue;
    }
    if (auto constant = value.getDefiningOp<ConstOp>()) {
      OpBuilder builder(context_);
      builder.setInsertionPointToStart(layer.block);
      Value copy = builder.clone(*constant)->getResult(0);
      layer.clones[value] = copy;
      value = copy;
      continue;
    }
    Captures &captures = *layer.captures;
    auto [it, added] = captures.argOf.try_emplace(
        value, captures.fixed + captures.outer.size());
    if (added) {
      captures.outer.push_back(value);
      for (Block *block : captures.blocks)
        block->addArgument(value.getType(), value.getLoc());
    }
    value = layer.block->getArgument(it->second);
  }
  return value;
}

FailureOr<Value> Structurer::lookup(const NodeDef &user,
                                    llvm::StringRef input) {
  TensorName tensor = splitTensorName(input);
  std::string key = tensor.node.str() + ":" + std::to_string(tensor.index);
  for (size_t l = layers_.size(); l-- > 0;) {
    auto it = layers_[l].values.find(key);
    if (it != layers_[l].values.end())
      return bringInto(it->second, l, layers_.size() - 1);
  }
  const NodeDef *source = node(tensor.node);
  return fail(user, "'" + input.str() + "' uses output " +
                        std::to_string(tensor.index) + " of node '" +
                        tensor.node.str() + "' (" +
                        (source ? source->op() : std::string("?")) +
                        "), which tfaot does not compute");
}

Value Structurer::constantI32(int64_t value, Location loc) {
  OpBuilder builder(context_);
  builder.setInsertionPointToEnd(layers_.back().block);
  auto type = RankedTensorType::get({}, builder.getI32Type());
  return ConstOp::create(builder, loc,
                         DenseElementsAttr::get(type, int32_t(value)))
      .getResult();
}

Block *Structurer::newRegionBlock(Captures &captures, TypeRange fixedTypes) {
  auto *block = new Block();
  for (Type type : fixedTypes)
    block->addArgument(type, UnknownLoc::get(context_));
  for (Value outer : captures.outer)
    block->addArgument(outer.getType(), outer.getLoc());
  captures.blocks.push_back(block);
  return block;
}

LogicalResult Structurer::buildScope(Scope *scope,
                                     ArrayRef<const NodeDef *> nodes) {
  // Items of this scope: its own nodes and its child loop frames; a child
  // branch is built by the Merges that read it. Sorted by dependencies
  // (first appearance breaks ties): a frame's nodes can appear in `nodes`
  // after an Exit of it, behind the back edge.
  DenseMap<const void *, Scope *> loopItems;
  auto itemOf = [&](const NodeDef *n) -> const void * {
    Scope *s = scopeOf_.lookup(n);
    if (!s)
      s = root_;
    if (s == scope)
      return n;
    if (!s->within(scope))
      return nullptr;
    Scope *child = childToward(scope, s);
    if (child->kind != Scope::Loop)
      return nullptr;
    loopItems[child] = child;
    return child;
  };
  llvm::SetVector<const void *> items;
  for (const NodeDef *n : nodes)
    if (const void *item = itemOf(n))
      items.insert(item);
  llvm::DenseSet<const NodeDef *> inNodes(nodes.begin(), nodes.end());
  DenseMap<const void *, llvm::SetVector<const void *>> deps;
  auto addDep = [&](const void *item, const NodeDef *source) {
    const void *dep = inNodes.count(source) ? itemOf(source) : nullptr;
    if (dep && dep != item)
      deps[item].insert(dep);
  };
  for (const NodeDef *n : nodes) {
    const void *item = itemOf(n);
    if (!item)
      continue;
    std::vector<const NodeDef *> reads{n};
    Scope *s = scopeOf_.lookup(n);
    if (n->op() == "Merge" && item == n && !(s && s->kind == Scope::Loop)) {
      // A cond Merge reads what its branches read, and the predicate (a
      // branch of constants reaches it only through its pivot).
      for (const std::string &input : n->input()) {
        if (llvm::StringRef(input).starts_with("^"))
          continue;
        TensorName in = splitTensorName(input);
        if (Scope *branch = scopeOfTensor(*node(in.node), in.index);
            branch && branch->kind == Scope::Branch)
          addDep(item, node(nodeOfInput(branch->pred)));
        llvm::append_range(reads, closure({input}, [&](const NodeDef &x) {
                             Scope *xs = scopeOf_.lookup(&x);
                             return xs && xs != scope && xs->within(scope);
                           }));
      }
    }
    for (const NodeDef *r : reads)
      for (const auto &[input, source] : dataInputs(*r))
        if (!(r->op() == "Merge" && source->op() == "NextIteration"))
          addDep(item, source);
  }
  // Kahn's algorithm, earliest item first.
  DenseMap<const void *, size_t> indexOf, pending;
  DenseMap<const void *, SmallVector<const void *>> users;
  for (auto [i, item] : llvm::enumerate(items)) {
    indexOf[item] = i;
    pending[item] = deps[item].size();
    for (const void *dep : deps[item])
      users[dep].push_back(item);
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (auto [i, item] : llvm::enumerate(items))
    if (pending[item] == 0)
      ready.push(i);
  size_t built = 0;
  while (!ready.empty()) {
    const void *item = items[ready.top()];
    ready.pop();
    ++built;
    if (failed(loopItems.count(item) ? buildLoop(loopItems[item])
                                     : buildNode(*(const NodeDef *)item)))
      return failure();
    for (const void *user : users[item])
      if (--pending[user] == 0)
        ready.push(indexOf[user]);
  }
  if (built == items.size())
    return success();
  for (const void *item : items)
    if (pending[item] != 0 && !loopItems.count(item))
      return fail(*(const NodeDef *)item,
                  "depends on its own value through a cond or loop; the "
                  "control flow cannot be structured");
  diags_.error("loop frames depend on each other's results; the control "
               "flow cannot be structured");
  return failure();
}

LogicalResult Structurer::buildNode(const NodeDef &n) {
  const std::string &op = n.op();
  if (isSwitch(n)) {
    // A Switch computes nothing: each output is its data in one branch.
    FailureOr<Value> data = lookup(n, n.input(0));
    if (failed(data))
      return failure();
    int64_t outs = op == "_SwitchN" ? numOuts(n) : 2;
    for (int64_t k = 0; k < outs; ++k)
      bind(n.name() + ":" + std::to_string(k), *data);
    return success();
  }
  if (op == "Merge")
    return buildCondMerge(n);
  if (op == "Exit") {
    TensorName in = splitTensorName(n.input(0));
    const NodeDef *sw = node(in.node);
    Frame &frame = frames_[scopeOf_.lookup(sw)];
    bind(n.name() + ":0", frame.results[frame.varOfSwitch[sw]]);
    return success();
  }
  if (op == "Enter" || op == "LoopCond" || op == "NextIteration") {
    // Inside their frame these pass their input on: an is_constant Enter
    // is an invariant the region captures.
    FailureOr<Value> input = lookup(n, n.input(0));
    if (failed(input))
      return failure();
    bind(n.name() + ":0", *input);
    return success();
  }
  SmallVector<Value> operands;
  for (const std::string &input : n.input()) {
    if (llvm::StringRef(input).starts_with("^"))
      continue;
    FailureOr<Value> value = lookup(n, input);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  FailureOr<SmallVector<Value>> outputs =
      hooks_.importNode(n, operands, layers_.back().block);
  if (failed(outputs))
    return failure();
  for (auto [k, value] : llvm::enumerate(*outputs))
    bind(n.name() + ":" + std::to_string(k), value);
  return success();
}
