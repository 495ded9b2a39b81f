//===- DataflowScopes.cpp - Which scope each node runs in -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Step 1 of structuring TF1 control flow: every node the fetches need is
// given the scope it runs in (the top level, a loop frame, or branch k of
// the cond on a predicate), propagated from its inputs; and the graph
// walking the building step shares (followed inputs, closures).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/DataflowStructurer.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/ImportHelpers.h"
#include "ir/Ops.h"

#include "llvm/ADT/SetVector.h"

#include <set>

using namespace mlir;
using namespace ::tfaot;
using namespace ::tfaot::dataflow;

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
