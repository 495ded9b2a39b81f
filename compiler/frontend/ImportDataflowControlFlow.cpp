//===- ImportDataflowControlFlow.cpp - TF1 conds and loops to regions -----===//
// SPDX-License-Identifier: Apache-2.0
//
// TF1 graphs express control flow as dataflow: a Switch forwards its data
// to output 1 or 0 as its predicate is true or false, a Merge forwards
// whichever input arrives, and a loop frame is entered by Enter nodes
// (is_constant ones carry invariants), goes round through Merge -> Switch
// (on LoopCond) -> body -> NextIteration -> Merge, and is left by Exit.
// As TensorFlow's functionalization does, the structure is recovered in
// two steps:
//   1. contexts: every node is given the scope it runs in (the top level, a
//      loop frame, or branch k of the cond on a predicate), propagated from
//      its inputs, control inputs included (a branch's constants hang on
//      its pivot by a control edge): a Switch's output k opens branch k, a
//      Merge closes its branches, Enter opens its frame and Exit leaves it.
//      Contradictions (a Merge of unrelated branches, an Exit whose input is
//      in no frame, ...) are reported naming the node.
//   2. building: each scope's nodes are built in dependency order, a loop
//      frame as one tfaot.While (its cond region computes LoopCond's input,
//      its body the NextIteration inputs) and each cond Merge as one
//      tfaot.If (or tfaot.Case for _SwitchN) whose branches compute what
//      its inputs need. Regions are isolated from above: a value from
//      outside becomes an extra operand and block argument (a loop
//      invariant), a constant is copied in so ops that need constant
//      operands still see one.
// A predicate known at import picks its branch in place, as for the
// functional If. A loop whose body changes a variable's shape cannot be a
// While (shapes are static); when its trip count is decided at import it is
// unrolled instead.
//
// A cond Merge becomes its own If: the Merges of one tf.cond with several
// outputs each get an If with a copy of their branches (correct; larger
// than one If with several results).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportDataflowControlFlow.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/ImportHelpers.h"
#include "ir/Ops.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <memory>
#include <queue>

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::CaseOp;
using mlir::tfaot::ConstOp;
using mlir::tfaot::IfOp;
using mlir::tfaot::WhileOp;
using mlir::tfaot::YieldOp;
using tensorflow::NodeDef;

/// Most iterations a loop is unrolled at import (a body that changes a
/// variable's shape, its trip count known at import).
static constexpr int kMaxUnrolledIterations = 1024;

bool(::tfaot::isDataflowControlFlowOp)(llvm::StringRef op) {
  return op == "Switch" || op == "_SwitchN" || op == "Merge" ||
         op == "Enter" || op == "Exit" || op == "NextIteration" ||
         op == "LoopCond";
}

/// A _SwitchN's number of branches (at least 2).
static int64_t numOuts(const NodeDef &node) {
  auto it = node.attr().find("num_outs");
  return it == node.attr().end() ? 2 : std::max<int64_t>(2, it->second.i());
}

static bool isSwitch(const NodeDef &node) {
  return node.op() == "Switch" || node.op() == "_SwitchN";
}

bool(::tfaot::isPivotSource)(
    const NodeDef &source,
    const std::function<const NodeDef *(llvm::StringRef)> &lookup) {
  if (isSwitch(source))
    return true;
  if (source.op() != "Identity" || source.input_size() == 0 ||
      llvm::StringRef(source.input(0)).starts_with("^"))
    return false;
  const NodeDef *input = lookup(nodeOfInput(source.input(0)));
  return input && isSwitch(*input);
}

namespace {

/// Where a node runs.
struct Scope {
  enum Kind { Root, Loop, Branch } kind = Root;
  Scope *parent = nullptr;
  std::string frame;   ///< Loop: frame_name.
  std::string pred;    ///< Branch: the predicate tensor ("node:index").
  int64_t branch = 0;  ///< Branch: which output of the Switch.
  bool nary = false;   ///< Branch: of a _SwitchN (a Case), not a Switch.
  /// Loop: the parent comes from an Enter's input (else it is the root:
  /// every Enter takes a constant or a feed).
  bool entered = false;

  bool within(const Scope *outer) const {
    for (const Scope *s = this; s; s = s->parent)
      if (s == outer)
        return true;
    return false;
  }
  std::string describe() const {
    switch (kind) {
    case Root:
      return "the top level";
    case Loop:
      return "loop frame '" + frame + "'";
    case Branch:
      return "branch " + std::to_string(branch) + " of the cond on '" + pred +
             "'";
    }
    return "";
  }
};

/// The values a region op takes from outside: its operands after the fixed
/// ones (loop variables), and the matching block argument of every region.
struct Captures {
  SmallVector<Block *> blocks;
  SmallVector<Value> outer;
  DenseMap<Value, unsigned> argOf;  ///< outer value -> argument number
  unsigned fixed = 0;
};

/// One block being built: the node values visible there, and how a value
/// of the enclosing layer enters it (null captures: the same block).
struct Layer {
  Layer(Block *block, Captures *captures,
        std::map<std::string, Value> values = {})
      : block(block), captures(captures), values(std::move(values)) {}
  Block *block;
  Captures *captures;
  std::map<std::string, Value> values;
  DenseMap<Value, Value> clones;  ///< outer constant -> its copy here
};

class Structurer {
public:
  Structurer(ArrayRef<const NodeDef *> order, const DataflowImportHooks &hooks,
             GraphDiagnostics &diags)
      : order_(order), hooks_(hooks), diags_(diags) {}

  LogicalResult run(std::map<std::string, Value> &values, Block *entry);

private:
  // Step 1: contexts.
  LogicalResult assignScopes();
  void computeScopes(ArrayRef<const NodeDef *> topo, bool reporting);
  Scope *scopeOfTensor(const NodeDef &node, int64_t index);
  Scope *combine(const NodeDef &node, ArrayRef<std::pair<std::string, Scope *>>
                                           inputs, bool reporting);
  Scope *loopScope(const std::string &frame);
  Scope *branchScope(Scope *parent, const std::string &pred, int64_t branch,
                     bool nary);
  // Step 1b: loop frames.
  LogicalResult checkLoops();
  // Step 2: building.
  LogicalResult buildScope(Scope *scope, ArrayRef<const NodeDef *> nodes);
  LogicalResult buildNode(const NodeDef &node);
  LogicalResult buildCondMerge(const NodeDef &merge);
  LogicalResult buildLoop(Scope *loop);
  LogicalResult unrollLoop(Scope *loop, ArrayRef<Value> inits);
  FailureOr<Value> buildBranch(const NodeDef &merge, int input);
  Block *newRegionBlock(Captures &captures, TypeRange fixedTypes);

  // Values.
  FailureOr<Value> lookup(const NodeDef &user, llvm::StringRef input);
  Value bringInto(Value value, size_t from, size_t to);
  void bind(const std::string &key, Value value) {
    layers_.back().values[key] = value;
  }
  Value constantI32(int64_t value, Location loc);

  // Graph walking.
  const NodeDef *node(llvm::StringRef name) const { return hooks_.lookup(name); }
  /// Inputs the structure follows: data inputs and pivot control inputs,
  /// as (input string, source node).
  SmallVector<std::pair<std::string, const NodeDef *>>
  followedInputs(const NodeDef &node) const;
  std::vector<const NodeDef *> closure(ArrayRef<std::string> roots,
                                       llvm::function_ref<bool(const NodeDef &)>
                                           inside) const;
  SmallVector<std::pair<std::string, const NodeDef *>>
  dataInputs(const NodeDef &node) const;
  Scope *childToward(Scope *outer, Scope *inner) const;
  std::string predicateOf(const NodeDef &sw) const;
  Location locOf(const NodeDef &n) const {
    return NameLoc::get(StringAttr::get(context_, n.name()));
  }
  void report(const NodeDef &n, const llvm::Twine &message) {
    diags_.nodeError(n.name(), n.op(), message);
  }
  LogicalResult fail(const NodeDef &n, const llvm::Twine &message) {
    report(n, message);
    return failure();
  }

  ArrayRef<const NodeDef *> order_;
  const DataflowImportHooks &hooks_;
  GraphDiagnostics &diags_;
  MLIRContext *context_ = nullptr;

  std::deque<Scope> scopes_;
  Scope *root_ = nullptr;
  DenseMap<const NodeDef *, Scope *> scopeOf_;  ///< null: floating (no inputs)
  llvm::StringMap<Scope *> loops_;
  std::map<std::tuple<Scope *, std::string, int64_t>, Scope *> branches_;
  DenseMap<const NodeDef *, size_t> position_;  ///< index in order_

  /// Per loop frame: its variables' Merges in order, its LoopCond, Exits.
  struct Frame {
    SmallVector<const NodeDef *> merges;
    const NodeDef *loopCond = nullptr;
    const NodeDef *firstEnter = nullptr;
    DenseMap<const NodeDef *, unsigned> varOfSwitch;
    SmallVector<Value> results;
  };
  DenseMap<Scope *, Frame> frames_;
  DenseMap<const NodeDef *, unsigned> varOfMerge_;

  std::vector<Layer> layers_;
};
} // namespace

//===----------------------------------------------------------------------===//
// Step 1: contexts
//===----------------------------------------------------------------------===//

SmallVector<std::pair<std::string, const NodeDef *>>
Structurer::followedInputs(const NodeDef &n) const {
  SmallVector<std::pair<std::string, const NodeDef *>> inputs;
  for (const std::string &input : n.input()) {
    const NodeDef *source = node(nodeOfInput(input));
    if (!source)
      continue;
    if (llvm::StringRef(input).starts_with("^") &&
        !isPivotSource(*source, hooks_.lookup))
      continue;
    inputs.push_back({input, source});
  }
  return inputs;
}

SmallVector<std::pair<std::string, const NodeDef *>>
Structurer::dataInputs(const NodeDef &n) const {
  SmallVector<std::pair<std::string, const NodeDef *>> inputs;
  for (const std::string &input : n.input())
    if (!llvm::StringRef(input).starts_with("^"))
      if (const NodeDef *source = node(nodeOfInput(input)))
        inputs.push_back({input, source});
  return inputs;
}

Scope *Structurer::loopScope(const std::string &frame) {
  Scope *&scope = loops_[frame];
  if (!scope) {
    scopes_.push_back(Scope{Scope::Loop, root_, frame, "", 0, false});
    scope = &scopes_.back();
  }
  return scope;
}

Scope *Structurer::branchScope(Scope *parent, const std::string &pred,
                               int64_t branch, bool nary) {
  Scope *&scope = branches_[{parent, pred, branch}];
  if (!scope) {
    scopes_.push_back(Scope{Scope::Branch, parent, "", pred, branch, nary});
    scope = &scopes_.back();
  }
  return scope;
}

/// The predicate a Switch tests, as "node:index", looking through the
/// Identities tf.cond puts in front of it (pred_id), so that the Switches
/// of one cond agree on it.
std::string Structurer::predicateOf(const NodeDef &sw) const {
  TensorName name = splitTensorName(sw.input(1));
  for (int step = 0; step < 1000; ++step) {
    const NodeDef *source = node(name.node);
    if (!source || source->op() != "Identity" || source->input_size() == 0 ||
        llvm::StringRef(source->input(0)).starts_with("^"))
      break;
    name = splitTensorName(source->input(0));
  }
  return name.node.str() + ":" + std::to_string(name.index);
}

Scope *Structurer::scopeOfTensor(const NodeDef &n, int64_t index) {
  Scope *scope = scopeOf_.lookup(&n);
  if (!isSwitch(n) || n.input_size() < 2)
    return scope;
  const NodeDef *pred = node(nodeOfInput(n.input(1)));
  if (pred && pred->op() == "LoopCond")
    return scope; // A loop's Switch: output 1 is the body, 0 the Exit.
  return branchScope(scope ? scope : root_, predicateOf(n), index,
                     n.op() == "_SwitchN");
}

/// The innermost of the inputs' scopes; they must lie on one chain.
Scope *Structurer::combine(
    const NodeDef &n, ArrayRef<std::pair<std::string, Scope *>> inputs,
    bool reporting) {
  Scope *deepest = nullptr;
  std::string deepestInput;
  for (const auto &[input, scope] : inputs) {
    if (!scope)
      continue;
    if (!deepest || scope->within(deepest)) {
      deepest = scope;
      deepestInput = input;
    } else if (!deepest->within(scope)) {
      if (reporting)
        report(n, "takes inputs from unrelated control-flow scopes: '" +
                    deepestInput + "' from " + deepest->describe() + ", '" +
                    input + "' from " + scope->describe());
      return deepest;
    }
  }
  return deepest;
}

void Structurer::computeScopes(ArrayRef<const NodeDef *> topo, bool reporting) {
  for (const NodeDef *n : topo) {
    SmallVector<std::pair<std::string, Scope *>> inputs;
    bool fromNextIteration = false;
    for (const auto &[input, source] : followedInputs(*n)) {
      if (source->op() == "NextIteration") {
        fromNextIteration = true;
        continue;
      }
      bool control = llvm::StringRef(input).starts_with("^");
      inputs.push_back(
          {input, control ? scopeOf_.lookup(source)
                          : scopeOfTensor(*source,
                                          splitTensorName(input).index)});
    }
    Scope *scope = nullptr;
    const std::string &op = n->op();
    if (op == "Enter") {
      Scope *outer = combine(*n, inputs, reporting);
      auto frame = n->attr().find("frame_name");
      if (frame == n->attr().end() || frame->second.s().empty()) {
        if (reporting)
          report(*n, "has no frame_name attribute");
        continue;
      }
      scope = loopScope(frame->second.s());
      if (outer && !scope->entered) {
        scope->parent = outer;
        scope->entered = true;
      } else if (outer && scope->parent != outer && reporting)
        report(*n, "enters loop frame '" + scope->frame + "' from " +
                     outer->describe() + ", but other Enters of the frame "
                     "come from " + scope->parent->describe());
    } else if (op == "Exit") {
      Scope *inner = combine(*n, inputs, reporting);
      if (!inner || inner->kind != Scope::Loop) {
        if (reporting)
          report(*n, "is an Exit whose input '" + n->input(0) +
                       "' is in no loop frame (" +
                       (inner ? inner->describe() : root_->describe()) +
                       "): the frame has no Enter");
        continue;
      }
      scope = inner->parent ? inner->parent : root_;
    } else if (op == "Merge" && fromNextIteration) {
      scope = combine(*n, inputs, reporting);
      if ((!scope || scope->kind != Scope::Loop) && reporting)
        report(*n, "takes a NextIteration but no Enter of a loop frame");
    } else if (op == "Merge") {
      // A cond's Merge: each input from another branch of one cond.
      Scope *outer = nullptr;
      const Scope *first = nullptr;
      std::set<int64_t> seen;
      bool ok = true;
      for (const auto &[input, s] : inputs) {
        if (llvm::StringRef(input).starts_with("^"))
          continue;
        if (!s || s->kind != Scope::Branch) {
          if (reporting)
            report(*n, "is a Merge whose input '" + input +
                         "' comes from no branch of a cond (" +
                         (s ? s->describe() : root_->describe()) +
                         "); tfaot structures Merges of one Switch "
                         "predicate's branches");
          ok = false;
          break;
        }
        if (first && (s->parent != first->parent || s->pred != first->pred)) {
          if (reporting)
            report(*n, "is a Merge fed by unrelated branches: input '" +
                         input + "' from " + s->describe() +
                         (s->parent != first->parent
                              ? " in " + s->parent->describe()
                              : std::string()) +
                         ", another from " + first->describe() +
                         (s->parent != first->parent
                              ? " in " + first->parent->describe()
                              : std::string()));
          ok = false;
          break;
        }
        if (!seen.insert(s->branch).second) {
          if (reporting)
            report(*n, "is a Merge with two inputs from " + s->describe());
          ok = false;
          break;
        }
        first = s;
        outer = s->parent;
      }
      scope = ok ? outer : nullptr;
    } else {
      scope = combine(*n, inputs, reporting);
    }
    scopeOf_[n] = scope;
  }
}

LogicalResult Structurer::assignScopes() {
  scopes_.push_back(Scope{});
  root_ = &scopes_.back();
  // Every node the built ones reach through followed inputs, sorted so that
  // sources come first; a Merge's NextIteration input is the back edge.
  std::vector<const NodeDef *> topo;
  DenseMap<const NodeDef *, int> mark;  // 1 on the path, 2 done
  std::vector<const NodeDef *> starts(order_.begin(), order_.end());
  for (size_t r = 0; r < starts.size(); ++r) {
    const NodeDef *start = starts[r];
    if (mark.count(start))
      continue;
    std::vector<std::pair<const NodeDef *, size_t>> stack{{start, 0}};
    mark[start] = 1;
    while (!stack.empty()) {
      auto &[n, next] = stack.back();
      auto inputs = followedInputs(*n);
      if (next == inputs.size()) {
        mark[n] = 2;
        topo.push_back(n);
        stack.pop_back();
        continue;
      }
      const NodeDef *source = inputs[next++].second;
      if (n->op() == "Merge" && source->op() == "NextIteration") {
        starts.push_back(source); // The back edge: walked on its own.
        continue;
      }
      auto it = mark.find(source);
      if (it == mark.end()) {
        mark[source] = 1;
        stack.push_back({source, 0});
      } else if (it->second == 1) {
        return fail(*n, "is part of a cycle through '" + source->name() +
                            "' that no NextIteration closes");
      }
    }
  }
  // A frame's parent is known once an Enter from outside is seen, which
  // may come after nodes of the frame: repeat until the parents settle.
  for (size_t pass = 0; pass <= loops_.size() + 1; ++pass) {
    std::vector<Scope *> parents;
    for (auto &entry : loops_)
      parents.push_back(entry.second->parent);
    computeScopes(topo, false);
    std::vector<Scope *> after;
    for (auto &entry : loops_)
      after.push_back(entry.second->parent);
    if (pass > 0 && parents == after)
      break;
  }
  int errors = diags_.errorCount();
  computeScopes(topo, true);
  return success(diags_.errorCount() == errors);
}

LogicalResult Structurer::checkLoops() {
  int errors = diags_.errorCount();
  for (const NodeDef *n : order_) {
    Scope *scope = scopeOf_.lookup(n);
    const std::string &op = n->op();
    if (op == "Enter") {
      Frame &frame = frames_[scope];
      if (!frame.firstEnter)
        frame.firstEnter = n;
    } else if (op == "LoopCond") {
      if (!scope || scope->kind != Scope::Loop) {
        report(*n, "is a LoopCond outside any loop frame");
        continue;
      }
      Frame &frame = frames_[scope];
      if (frame.loopCond)
        report(*n, "is a second LoopCond of loop frame '" + scope->frame +
                     "' (the first is '" + frame.loopCond->name() + "')");
      frame.loopCond = n;
    } else if (op == "Merge" && scope && scope->kind == Scope::Loop) {
      // A loop variable: Merge(Enter, NextIteration).
      const NodeDef *enter = nullptr, *next = nullptr;
      for (const std::string &input : n->input()) {
        if (llvm::StringRef(input).starts_with("^"))
          continue;
        const NodeDef *source = node(nodeOfInput(input));
        if (source->op() == "Enter" && !enter)
          enter = source;
        else if (source->op() == "NextIteration" && !next)
          next = source;
        else
          enter = next = nullptr;
      }
      if (!enter || !next) {
        report(*n, "is a loop Merge whose inputs are not one Enter and one "
                 "NextIteration");
        continue;
      }
      if (scopeOf_.lookup(enter) != scope || scopeOf_.lookup(next) != scope) {
        report(*n, "merges '" + enter->name() + "' and '" + next->name() +
                     "', which are not both in " + scope->describe());
        continue;
      }
      Frame &frame = frames_[scope];
      varOfMerge_[n] = frame.merges.size();
      frame.merges.push_back(n);
    }
  }
  for (const NodeDef *n : order_) {
    Scope *scope = scopeOf_.lookup(n);
    if (isSwitch(*n) && scope && scope->kind == Scope::Loop) {
      const NodeDef *pred = node(nodeOfInput(n->input(1)));
      if (pred->op() != "LoopCond")
        continue;
      const NodeDef *data = node(nodeOfInput(n->input(0)));
      if (!varOfMerge_.count(data) || scopeOf_.lookup(data) != scope ||
          scopeOf_.lookup(pred) != scope) {
        report(*n, "is a loop Switch whose data '" + n->input(0) +
                     "' is no loop variable (Merge) of " + scope->describe() +
                     " or whose LoopCond is of another frame");
        continue;
      }
      frames_[scope].varOfSwitch[n] = varOfMerge_[data];
    }
    if (n->op() == "Exit") {
      TensorName in = splitTensorName(n->input(0));
      const NodeDef *sw = node(in.node);
      Scope *frameScope = scopeOf_.lookup(sw);
      if (!isSwitch(*sw) || in.index != 0 || !frameScope ||
          !frames_[frameScope].varOfSwitch.count(sw))
        report(*n, "is an Exit whose input '" + n->input(0) +
                     "' is not output 0 of its loop's Switch on LoopCond");
    }
  }
  for (auto &[scope, frame] : frames_) {
    const NodeDef *where = frame.firstEnter
                               ? frame.firstEnter
                               : (frame.merges.empty() ? nullptr
                                                       : frame.merges.front());
    if (!where)
      continue;
    if (!frame.loopCond)
      report(*where, "enters loop frame '" + scope->frame +
                       "', which has no LoopCond: tfaot cannot tell when the "
                       "loop ends");
    else if (frame.merges.empty())
      report(*where, "enters loop frame '" + scope->frame +
                       "', which has no loop variable (Merge of an Enter and "
                       "a NextIteration)");
  }
  return success(diags_.errorCount() == errors);
}

//===----------------------------------------------------------------------===//
// Step 2: building
//===----------------------------------------------------------------------===//

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

std::vector<const NodeDef *> Structurer::closure(
    ArrayRef<std::string> roots,
    llvm::function_ref<bool(const NodeDef &)> inside) const {
  llvm::SetVector<const NodeDef *> found;
  std::vector<const NodeDef *> work;
  auto visit = [&](const NodeDef *n) {
    if (n && inside(*n) && found.insert(n))
      work.push_back(n);
  };
  for (const std::string &root : roots)
    visit(node(nodeOfInput(root)));
  while (!work.empty()) {
    const NodeDef *n = work.back();
    work.pop_back();
    for (const auto &[input, source] : dataInputs(*n))
      visit(source);
  }
  std::vector<const NodeDef *> sorted(found.begin(), found.end());
  llvm::sort(sorted, [&](const NodeDef *a, const NodeDef *b) {
    return position_.lookup(a) < position_.lookup(b);
  });
  return sorted;
}

/// The child of `outer` on the way to `inner` (inner within outer).
Scope *Structurer::childToward(Scope *outer, Scope *inner) const {
  Scope *child = inner;
  while (child && child->parent != outer)
    child = child->parent;
  return child;
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

Block *Structurer::newRegionBlock(Captures &captures, TypeRange fixedTypes) {
  auto *block = new Block();
  for (Type type : fixedTypes)
    block->addArgument(type, UnknownLoc::get(context_));
  for (Value outer : captures.outer)
    block->addArgument(outer.getType(), outer.getLoc());
  captures.blocks.push_back(block);
  return block;
}


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

LogicalResult Structurer::buildLoop(Scope *loop) {
  Frame &frame = frames_[loop];
  SmallVector<Value> inits;
  SmallVector<Type> types;
  SmallVector<const NodeDef *> nexts;
  for (const NodeDef *merge : frame.merges) {
    for (const std::string &input : merge->input()) {
      const NodeDef *source = node(nodeOfInput(input));
      if (llvm::StringRef(input).starts_with("^"))
        continue;
      if (source->op() == "NextIteration") {
        nexts.push_back(source);
        continue;
      }
      FailureOr<Value> init = lookup(*source, source->input(0));
      if (failed(init))
        return failure();
      inits.push_back(*init);
      types.push_back(init->getType());
    }
  }
  auto inFrame = [&](const NodeDef &x) {
    Scope *xs = scopeOf_.lookup(&x);
    // This frame's Merges and Switches are the block arguments.
    return xs && xs->within(loop) && !(xs == loop && varOfMerge_.count(&x)) &&
           !frame.varOfSwitch.count(&x);
  };
  // Cond: LoopCond's input from the variables; body: the NextIteration
  // inputs from the variables (the loop Switches' output 1).
  std::vector<const NodeDef *> condNodes =
      closure({frame.loopCond->input(0)}, inFrame);
  std::vector<std::string> nextInputs;
  for (const NodeDef *next : nexts)
    nextInputs.push_back(next->input(0));
  std::vector<const NodeDef *> bodyNodes = closure(nextInputs, inFrame);
  auto bindVariables = [&](ArrayRef<Value> vars) {
    for (const NodeDef *merge : frame.merges)
      bind(merge->name() + ":0", vars[varOfMerge_[merge]]);
    for (auto [sw, k] : frame.varOfSwitch)
      bind(sw->name() + ":1", vars[k]);
  };

  Captures captures;
  captures.fixed = inits.size();
  Block *condBlock = newRegionBlock(captures, types);
  Block *bodyBlock = newRegionBlock(captures, types);
  auto args = [&](Block *block) {
    return SmallVector<Value>(block->getArguments().take_front(inits.size()));
  };
  layers_.push_back(Layer(condBlock, &captures));
  bindVariables(args(condBlock));
  FailureOr<Value> pred =
      succeeded(buildScope(loop, condNodes))
          ? lookup(*frame.loopCond, frame.loopCond->input(0))
          : FailureOr<Value>(failure());
  layers_.pop_back();
  SmallVector<Value> nextValues;
  bool ok = succeeded(pred);
  if (ok) {
    layers_.push_back(Layer(bodyBlock, &captures));
    bindVariables(args(bodyBlock));
    ok = succeeded(buildScope(loop, bodyNodes));
    for (const NodeDef *next : nexts) {
      if (!ok)
        break;
      FailureOr<Value> value = lookup(*next, next->input(0));
      ok = succeeded(value);
      if (ok)
        nextValues.push_back(*value);
    }
    layers_.pop_back();
  }
  if (!ok) {
    deleteDetachedBlocks({condBlock, bodyBlock});
    return failure();
  }
  Location loc = locOf(*frame.loopCond);
  for (auto [k, next] : llvm::enumerate(nextValues))
    if (next.getType() != types[k]) {
      // Not a While: shapes are static. Unroll it if import decides the
      // trip count.
      deleteDetachedBlocks({condBlock, bodyBlock});
      return unrollLoop(loop, inits);
    }
  if (cast<RankedTensorType>(pred->getType()).getRank() != 0) {
    deleteDetachedBlocks({condBlock, bodyBlock});
    return fail(*frame.loopCond, "the loop predicate " +
                                     typeString(pred->getType()) +
                                     " is no scalar");
  }
  {
    OpBuilder builder(context_);
    builder.setInsertionPointToEnd(condBlock);
    YieldOp::create(builder, loc, ValueRange{*pred});
    builder.setInsertionPointToEnd(bodyBlock);
    SmallVector<Value> yielded(nextValues);
    llvm::append_range(yielded,
                       bodyBlock->getArguments().drop_front(inits.size()));
    YieldOp::create(builder, loc, yielded);
  }
  SmallVector<Value> operands(inits);
  llvm::append_range(operands, captures.outer);
  OpBuilder builder(context_);
  builder.setInsertionPointToEnd(layers_.back().block);
  auto op = WhileOp::create(builder, loc, ValueRange(operands).getTypes(),
                            operands);
  op.getCond().push_back(condBlock);
  op.getBody().push_back(bodyBlock);
  frame.results.assign(op.getResults().begin(),
                       op.getResults().begin() + inits.size());
  return success();
}

/// The truth of a loop predicate at import: staticTruth, or a comparison of
/// two scalar constants (the compare ops have no folder; a counted loop's
/// `i < limit` is one once `i` is a constant).
static std::optional<bool> predicateAtImport(Value pred) {
  if (std::optional<bool> truth = mlir::tfaot::staticTruth(pred))
    return truth;
  Operation *op = pred.getDefiningOp();
  if (!op || op->getNumOperands() != 2)
    return std::nullopt;
  auto lhs = op->getOperand(0).getDefiningOp<ConstOp>();
  auto rhs = op->getOperand(1).getDefiningOp<ConstOp>();
  if (!lhs || !rhs || lhs.getValue().getNumElements() != 1 ||
      rhs.getValue().getNumElements() != 1)
    return std::nullopt;
  auto scalar = [](ConstOp c) -> std::optional<double> {
    auto value = cast<DenseElementsAttr>(c.getValue());
    Type type = value.getElementType();
    if (type.isInteger(1))
      return std::nullopt;
    if (isa<IntegerType>(type))
      return (double)(*value.getValues<APInt>().begin()).getSExtValue();
    if (isa<FloatType>(type))
      return (*value.getValues<APFloat>().begin()).convertToDouble();
    return std::nullopt;
  };
  std::optional<double> a = scalar(lhs), b = scalar(rhs);
  if (!a || !b)
    return std::nullopt;
  if (isa<mlir::tfaot::LessOp>(op))
    return *a < *b;
  if (isa<mlir::tfaot::LessEqualOp>(op))
    return *a <= *b;
  if (isa<mlir::tfaot::GreaterOp>(op))
    return *a > *b;
  if (isa<mlir::tfaot::GreaterEqualOp>(op))
    return *a >= *b;
  if (isa<mlir::tfaot::EqualOp>(op))
    return *a == *b;
  if (isa<mlir::tfaot::NotEqualOp>(op))
    return *a != *b;
  return std::nullopt;
}

LogicalResult Structurer::unrollLoop(Scope *loop, ArrayRef<Value> inits) {
  Frame &frame = frames_[loop];
  auto inFrame = [&](const NodeDef &x) {
    Scope *xs = scopeOf_.lookup(&x);
    // This frame's Merges and Switches are the block arguments.
    return xs && xs->within(loop) && !(xs == loop && varOfMerge_.count(&x)) &&
           !frame.varOfSwitch.count(&x);
  };
  SmallVector<std::string> nextInputs;
  SmallVector<const NodeDef *> nexts;
  for (const NodeDef *merge : frame.merges)
    for (const std::string &input : merge->input())
      if (node(nodeOfInput(input))->op() == "NextIteration") {
        nexts.push_back(node(nodeOfInput(input)));
        nextInputs.push_back(nexts.back()->input(0));
      }
  std::vector<const NodeDef *> condNodes =
      closure({frame.loopCond->input(0)}, inFrame);
  std::vector<const NodeDef *> bodyNodes =
      closure(std::vector<std::string>(nextInputs.begin(), nextInputs.end()),
              inFrame);
  SmallVector<Value> vars(inits);
  Block *block = layers_.back().block;
  for (int iteration = 0;; ++iteration) {
    layers_.push_back(Layer(block, nullptr));
    for (const NodeDef *merge : frame.merges)
      bind(merge->name() + ":0", vars[varOfMerge_[merge]]);
    for (auto [sw, k] : frame.varOfSwitch)
      bind(sw->name() + ":1", vars[k]);
    FailureOr<Value> pred =
        succeeded(buildScope(loop, condNodes))
            ? lookup(*frame.loopCond, frame.loopCond->input(0))
            : FailureOr<Value>(failure());
    if (failed(pred)) {
      layers_.pop_back();
      return failure();
    }
    std::optional<bool> truth = predicateAtImport(*pred);
    if (!truth) {
      layers_.pop_back();
      return fail(*frame.loopCond,
                  "loop frame '" + loop->frame +
                      "' changes the shape of a loop variable, and its trip "
                      "count is known only at run time; tfaot compiles "
                      "loops whose variables keep one static shape");
    }
    if (!*truth) {
      layers_.pop_back();
      break;
    }
    if (iteration == kMaxUnrolledIterations) {
      layers_.pop_back();
      return fail(*frame.loopCond,
                  "loop frame '" + loop->frame + "' changes the shape of a "
                  "loop variable and runs more than " +
                      std::to_string(kMaxUnrolledIterations) +
                      " iterations, too many to unroll at import");
    }
    if (failed(buildScope(loop, bodyNodes))) {
      layers_.pop_back();
      return failure();
    }
    SmallVector<Value> next;
    for (const NodeDef *n : nexts) {
      FailureOr<Value> value = lookup(*n, n->input(0));
      if (failed(value)) {
        layers_.pop_back();
        return failure();
      }
      next.push_back(*value);
    }
    layers_.pop_back();
    vars = next;
  }
  frame.results.assign(vars.begin(), vars.end());
  return success();
}

LogicalResult Structurer::run(std::map<std::string, Value> &values,
                              Block *entry) {
  context_ = entry->getParentOp()->getContext();
  for (auto [i, n] : llvm::enumerate(order_))
    position_[n] = i;
  if (failed(assignScopes()) || failed(checkLoops()))
    return failure();
  layers_.push_back(Layer(entry, nullptr, values));
  if (failed(buildScope(root_, order_)))
    return failure();
  values = layers_.front().values;
  return success();
}

LogicalResult(::tfaot::importDataflowGraph)(
    ArrayRef<const NodeDef *> order, std::map<std::string, Value> &values,
    Block *entry, const DataflowImportHooks &hooks, GraphDiagnostics &diags) {
  return Structurer(order, hooks, diags).run(values, entry);
}
