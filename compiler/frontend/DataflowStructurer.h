//===- DataflowStructurer.h - Structuring TF1 control flow ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The state shared by the files that structure TF1 dataflow control flow
// (ImportDataflowControlFlow.cpp says how): the scopes nodes run in, the
// blocks being built, and the Structurer, whose steps live in
//   DataflowScopes.cpp      step 1: each node's scope, and graph walking;
//   DataflowLoopFrames.cpp  loop frames: checking them, tfaot.While, unrolling;
//   DataflowConds.cpp       cond Merges: tfaot.If / tfaot.Case;
//   DataflowBuild.cpp       step 2: building scopes and nodes, values
//                           crossing region boundaries.
// Internal to the frontend: only those files include it.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_DATAFLOWSTRUCTURER_H
#define TFAOT_COMPILER_FRONTEND_DATAFLOWSTRUCTURER_H

#include "compiler/frontend/ImportDataflowControlFlow.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace tfaot::dataflow {

using mlir::Block;
using mlir::DenseMap;
using mlir::failure;
using mlir::FailureOr;
using mlir::Location;
using mlir::LogicalResult;
using mlir::MLIRContext;
using mlir::SmallVector;
using mlir::Type;
using mlir::TypeRange;
using mlir::Value;
using llvm::ArrayRef;
using tensorflow::NodeDef;

/// Most iterations a loop is unrolled at import (a body that changes a
/// variable's shape, its trip count known at import).
inline constexpr int kMaxUnrolledIterations = 1024;

/// A _SwitchN's number of branches (at least 2).
inline int64_t numOuts(const NodeDef &node) {
  auto it = node.attr().find("num_outs");
  return it == node.attr().end() ? 2 : std::max<int64_t>(2, it->second.i());
}

inline bool isSwitch(const NodeDef &node) {
  return node.op() == "Switch" || node.op() == "_SwitchN";
}


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
  /// A loop frame's NextIterations (in variable order) and the nodes its
  /// cond and body regions compute.
  struct LoopParts {
    SmallVector<const NodeDef *> nexts;
    std::vector<const NodeDef *> condNodes, bodyNodes;
  };
  LoopParts loopParts(Scope *loop);
  /// Binds the frame's Merges and loop Switches (output 1) to `vars`.
  void bindLoopVariables(Scope *loop, ArrayRef<Value> vars);
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
  const NodeDef *node(llvm::StringRef name) const {
    return hooks_.lookup(name);
  }
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
    return mlir::NameLoc::get(mlir::StringAttr::get(context_, n.name()));
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

} // namespace tfaot::dataflow

#endif // TFAOT_COMPILER_FRONTEND_DATAFLOWSTRUCTURER_H
