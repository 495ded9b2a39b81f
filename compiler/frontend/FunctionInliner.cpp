//===- FunctionInliner.cpp - Inline function-library calls ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Inside a function, inputs read "arg" (a function argument),
// "node:output_arg:i" (the i-th tensor of one named output of a body node)
// or "^node". In a graph, outputs are numbered across all output args, so
// translating a body reference needs the op's output layout: the meta graph's
// stripped_op_list has it for every op a SavedModel uses; the library's own
// signatures cover nested calls; a short table covers the multi-output ops
// tfaot compiles when neither is there.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/FunctionInliner.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/OpImporters.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <vector>

using namespace tfaot;
using tensorflow::FunctionDef;
using tensorflow::NodeDef;
using tensorflow::OpDef;

/// Largest output index, and longest list output, a body reference may use
/// (TensorFlow numbers outputs with an int). Keeps "node:arg:i" offsets
/// from overflowing.
static constexpr int64_t maxOutputIndex = INT32_MAX;

/// Most nodes a graph may have once its calls are inlined. Each round can
/// multiply the graph: with each function calling the next one twice, 64
/// levels (the nesting limit) ask for 2^64 nodes, from a SavedModel of a few
/// kB. Real models have thousands to tens of thousands of nodes.
static constexpr int64_t maxInlinedNodes = int64_t(1) << 20;

static std::string tensorName(llvm::StringRef node, int64_t index) {
  return index ? (node + ":" + llvm::Twine(index)).str() : node.str();
}

std::string InlinedOutputs::resolve(llvm::StringRef tensor) const {
  std::string current = tensor.str();
  // Nested calls alias one another; a cycle cannot arise (each alias points
  // into a body renamed under its call), but stay bounded all the same.
  for (size_t step = 0; step <= aliases.size(); ++step) {
    TensorName split = splitTensorName(current);
    auto it =
        aliases.find(split.node.str() + ":" + std::to_string(split.index));
    if (it == aliases.end())
      return current;
    current = it->second;
  }
  return current;
}

/// Output layouts of the multi-output ops tfaot compiles, for graphs whose
/// meta graph carries no stripped_op_list. A list-valued arg is last or
/// alone in each, so its length never shifts another arg.
static const OpDef *builtinOpDef(llvm::StringRef op) {
  static const llvm::StringMap<OpDef> table = [] {
    llvm::StringMap<OpDef> defs;
    auto add = [&](llvm::StringRef name,
                   std::initializer_list<const char *> args) {
      OpDef &def = defs[name];
      def.set_name(name.str());
      for (const char *arg : args)
        def.add_output_arg()->set_name(arg);
    };
    for (const char *bn : {"FusedBatchNorm", "FusedBatchNormV2"})
      add(bn, {"y", "batch_mean", "batch_variance", "reserve_space_1",
               "reserve_space_2"});
    add("FusedBatchNormV3", {"y", "batch_mean", "batch_variance",
                             "reserve_space_1", "reserve_space_2",
                             "reserve_space_3"});
    add("TopKV2", {"values", "indices"});
    add("Unique", {"y", "idx"});
    add("TensorArrayV3", {"handle", "flow"});
    add("TensorArrayConcatV3", {"value", "lengths"});
    add("TensorListPopBack", {"output_handle", "tensor"});
    for (const char *listOp :
         {"Split", "SplitV", "Unpack", "IdentityN", "PartitionedCall",
          "StatefulPartitionedCall", "If", "StatelessIf", "While",
          "StatelessWhile", "Case", "StatelessCase"})
      add(listOp, {"output"});
    return defs;
  }();
  auto it = table.find(op);
  return it == table.end() ? nullptr : &it->second;
}

namespace {
/// Inlines the calls of one graph; see inlineFunctionCalls.
class Inliner {
public:
  Inliner(tensorflow::GraphDef &graph, const tensorflow::OpList *opDefs,
          GraphDiagnostics &diags, InlinedOutputs &outputs)
      : graph_(graph), diags_(diags), outputs_(outputs) {
    for (const FunctionDef &fn : graph.library().function())
      functions_[fn.signature().name()] = &fn;
    if (opDefs)
      for (const OpDef &op : opDefs->op())
        opDefs_[op.name()] = &op;
  }

  bool run();

private:
  static llvm::StringRef calleeName(const NodeDef &node);
  const FunctionDef *callee(const NodeDef &node) const;
  const FunctionDef *calledFunction(const NodeDef &node);
  bool checkRecursion();
  bool expand(const NodeDef &call, const FunctionDef &fn,
              google::protobuf::RepeatedPtrField<NodeDef> &out);
  std::optional<int64_t> outputOffset(const FunctionDef &fn,
                                      const NodeDef &node,
                                      llvm::StringRef arg);

  tensorflow::GraphDef &graph_;
  GraphDiagnostics &diags_;
  InlinedOutputs &outputs_;
  llvm::StringMap<const FunctionDef *> functions_;
  llvm::StringMap<const OpDef *> opDefs_;
  llvm::StringSet<> inlinedCalls_;
  bool failed_ = false;
};
} // namespace

static bool isCallOp(const NodeDef &node) {
  return node.op() == "PartitionedCall" ||
         node.op() == "StatefulPartitionedCall";
}

/// The name of the function a call op names ("" if none), else the op.
llvm::StringRef Inliner::calleeName(const NodeDef &node) {
  if (!isCallOp(node))
    return node.op();
  auto f = node.attr().find("f");
  return f == node.attr().end() ? llvm::StringRef()
                                : llvm::StringRef(f->second.func().name());
}

/// The library function `node` calls; null when it is no call, or calls a
/// function the library lacks (calledFunction reports that).
const FunctionDef *Inliner::callee(const NodeDef &node) const {
  llvm::StringRef name = calleeName(node);
  auto it = name.empty() ? functions_.end() : functions_.find(name);
  return it == functions_.end() ? nullptr : it->second;
}

/// The function `node` calls, or null when it is no call. A call of a
/// function the library lacks is reported.
const FunctionDef *Inliner::calledFunction(const NodeDef &node) {
  if (const FunctionDef *fn = callee(node))
    return fn;
  if (!isCallOp(node))
    return nullptr;
  std::string name = calleeName(node).str();
  diags_.nodeError(node.name(), node.op(),
                   name.empty() ? std::string("call names no function ('f')")
                                : "calls function '" + name +
                                      "', which the function library does "
                                      "not define");
  failed_ = true;
  return nullptr;
}

/// Reports a function that a call of the graph reaches and that calls
/// itself, directly or through others. Inlining it would only end at the
/// nesting limit, and a body with two such calls doubles the graph at each
/// level before that. Depth first without recursion: a library can chain
/// thousands of functions.
bool Inliner::checkRecursion() {
  enum : uint8_t { Unseen, OnPath, Done };
  llvm::StringMap<uint8_t> state;
  struct Frame {
    const FunctionDef *fn;
    int next; // Index of the body node to look at next.
  };
  for (const NodeDef &call : graph_.node()) {
    const FunctionDef *root = callee(call);
    if (!root || state.lookup(root->signature().name()) == Done)
      continue;
    std::vector<Frame> path{{root, 0}};
    state[root->signature().name()] = OnPath;
    while (!path.empty()) {
      Frame &top = path.back();
      if (top.next == top.fn->node_def_size()) {
        state[top.fn->signature().name()] = Done;
        path.pop_back();
        continue;
      }
      const FunctionDef *fn = callee(top.fn->node_def(top.next++));
      if (!fn)
        continue;
      uint8_t &seen = state[fn->signature().name()];
      if (seen == Done)
        continue;
      if (seen == OnPath) {
        std::string cycle;
        bool inCycle = false;
        for (const Frame &frame : path) {
          inCycle |= frame.fn == fn;
          if (inCycle)
            cycle += "'" + frame.fn->signature().name() + "' -> ";
        }
        cycle += "'" + fn->signature().name() + "'";
        diags_.nodeError(call.name(), call.op(),
                         "calls function '" + root->signature().name() +
                             "', which is recursive (" + cycle +
                             "); recursive functions are not supported");
        return false;
      }
      seen = OnPath;
      path.push_back({fn, 0});
    }
  }
  return true;
}

/// Where output arg `arg` of body node `node` starts among the node's
/// outputs as a graph numbers them.
std::optional<int64_t> Inliner::outputOffset(const FunctionDef &fn,
                                             const NodeDef &node,
                                             llvm::StringRef arg) {
  const OpDef *def = nullptr;
  if (auto it = functions_.find(node.op()); it != functions_.end())
    def = &it->second->signature();
  else if (auto it = opDefs_.find(node.op()); it != opDefs_.end())
    def = it->second;
  else
    def = builtinOpDef(node.op());
  if (!def) {
    // Any single-output op: whatever its output is called, it is output 0.
    if (numOutputsOf(node) == std::optional<int64_t>(1))
      return 0;
    diags_.nodeError(node.name(), node.op(),
                     "in function '" + fn.signature().name() +
                         "': the output layout of op '" + node.op() +
                         "' is unknown (the SavedModel has no "
                         "stripped_op_list entry for it)");
    return std::nullopt;
  }
  int64_t offset = 0;
  for (const OpDef::ArgDef &out : def->output_arg()) {
    if (out.name() == arg)
      return offset;
    int64_t count = 1;
    if (!out.number_attr().empty()) {
      auto it = node.attr().find(out.number_attr());
      count = it != node.attr().end() ? it->second.i() : 1;
      // The length comes from the file: bounded, the offsets cannot
      // overflow (an op has at most a few hundred output args).
      if (count < 0 || count > maxOutputIndex) {
        diags_.nodeError(node.name(), node.op(),
                         "in function '" + fn.signature().name() +
                             "': attribute '" + out.number_attr() + "' (" +
                             llvm::Twine(count) + ") is not a valid length "
                             "for output '" + out.name() + "'");
        return std::nullopt;
      }
    } else if (!out.type_list_attr().empty()) {
      auto it = node.attr().find(out.type_list_attr());
      count = it != node.attr().end() ? it->second.list().type_size() : 1;
    }
    offset += count;
  }
  diags_.nodeError(node.name(), node.op(),
                   "in function '" + fn.signature().name() + "': op '" +
                       node.op() + "' has no output named '" + arg + "'");
  return std::nullopt;
}

/// Appends the body of `fn`, called by `call`, to `out`, and records where
/// the call's outputs went.
bool Inliner::expand(const NodeDef &call, const FunctionDef &fn,
                     google::protobuf::RepeatedPtrField<NodeDef> &out) {
  const std::string prefix = call.name() + "/";
  const std::string &fname = fn.signature().name();
  auto error = [&](llvm::StringRef node, llvm::StringRef op,
                   const llvm::Twine &message) {
    diags_.nodeError(node, op, "in function '" + fname + "': " + message);
    return false;
  };

  llvm::SmallVector<std::string> args;
  for (const std::string &input : call.input())
    if (!llvm::StringRef(input).starts_with("^"))
      args.push_back(input);
  if (int64_t(args.size()) != fn.signature().input_arg_size())
    return error(call.name(), call.op(),
                 "the call passes " + llvm::Twine(args.size()) +
                     " inputs, the function takes " +
                     llvm::Twine(fn.signature().input_arg_size()));
  llvm::StringMap<std::string> argTensors;
  for (auto [i, arg] : llvm::enumerate(fn.signature().input_arg()))
    argTensors[arg.name()] = args[i];
  llvm::StringMap<const NodeDef *> body;
  for (const NodeDef &node : fn.node_def())
    body[node.name()] = &node;

  // Attributes a polymorphic body takes from the call ("placeholder").
  const google::protobuf::Map<std::string, tensorflow::AttrValue> *callAttrs =
      &call.attr();
  if (auto f = call.attr().find("f"); f != call.attr().end())
    callAttrs = &f->second.func().attr();

  // A body reference as a graph input; empty (with an error) when invalid.
  auto translate = [&](llvm::StringRef ref, const NodeDef &user,
                       std::string &result) {
    if (ref.consume_front("^")) {
      auto arg = argTensors.find(ref);
      result = "^" + (arg != argTensors.end()
                          ? splitTensorName(arg->second).node.str()
                          : prefix + ref.str());
      return true;
    }
    llvm::SmallVector<llvm::StringRef, 3> parts;
    ref.split(parts, ':');
    if (parts.size() == 1) {
      auto arg = argTensors.find(ref);
      result = arg != argTensors.end() ? arg->second : prefix + ref.str();
      return true;
    }
    int64_t index;
    if (parts.size() != 3 || parts[2].getAsInteger(10, index) || index < 0 ||
        index > maxOutputIndex) {
      if (parts.size() == 2 && !parts[1].getAsInteger(10, index)) {
        result = tensorName(prefix + parts[0].str(), index);
        return true;
      }
      return error(user.name(), user.op(),
                   "malformed reference '" + ref + "'");
    }
    auto source = body.find(parts[0]);
    if (source == body.end())
      return error(user.name(), user.op(),
                   "reference '" + ref + "' names no node of the function");
    auto offset = outputOffset(fn, *source->second, parts[1]);
    if (!offset)
      return false;
    result = tensorName(prefix + parts[0].str(), *offset + index);
    return true;
  };

  for (const NodeDef &node : fn.node_def()) {
    NodeDef inlined = node;
    inlined.set_name(prefix + node.name());
    inlined.clear_device();
    inlined.clear_input();
    for (const std::string &input : node.input())
      if (!translate(input, node, *inlined.add_input()))
        return false;
    for (auto &[name, value] : *inlined.mutable_attr()) {
      if (value.value_case() != tensorflow::AttrValue::kPlaceholder)
        continue;
      auto bound = callAttrs->find(value.placeholder());
      if (bound == callAttrs->end())
        return error(node.name(), node.op(),
                     "attribute '" + name + "' refers to '" +
                         value.placeholder() + "', which the call does not " +
                         "set");
      value = bound->second;
    }
    *out.Add() = std::move(inlined);
  }
  for (auto [k, arg] : llvm::enumerate(fn.signature().output_arg())) {
    auto ret = fn.ret().find(arg.name());
    if (ret == fn.ret().end())
      return error(call.name(), call.op(),
                   "output '" + arg.name() + "' has no return value");
    std::string tensor;
    if (!translate(ret->second, call, tensor))
      return false;
    outputs_.aliases[call.name() + ":" + std::to_string(k)] = tensor;
  }
  inlinedCalls_.insert(call.name());
  return true;
}

bool Inliner::run() {
  // Each round inlines the calls present at its start; calls inside bodies
  // appear in the next round. Recursion is caught before the first round;
  // this bounds chains of distinct functions.
  constexpr int maxDepth = 64;
  if (!checkRecursion())
    return false;
  for (int depth = 0;; ++depth) {
    // The graph's size after this round, known before it spends the memory:
    // without recursion, calls that call several others still multiply it
    // at each level.
    int64_t size = 0;
    const NodeDef *firstCall = nullptr;
    for (const NodeDef &node : graph_.node()) {
      const FunctionDef *fn = callee(node);
      size += fn ? fn->node_def_size() : 1;
      if (fn && !firstCall)
        firstCall = &node;
    }
    if (firstCall && size > maxInlinedNodes) {
      diags_.nodeError(firstCall->name(), firstCall->op(),
                       "inlining the calls at nesting depth " +
                           llvm::Twine(depth + 1) + " makes the graph " +
                           llvm::Twine(size) + " nodes, more than the " +
                           llvm::Twine(maxInlinedNodes) +
                           " tfaot accepts (do functions call others several "
                           "times at each level?)");
      return false;
    }
    google::protobuf::RepeatedPtrField<NodeDef> next;
    bool changed = false;
    for (NodeDef &node : *graph_.mutable_node()) {
      const FunctionDef *fn = calledFunction(node);
      if (failed_)
        return false;
      if (!fn) {
        *next.Add() = std::move(node);
        continue;
      }
      if (depth == maxDepth) {
        diags_.nodeError(node.name(), node.op(),
                         "calls of '" + fn->signature().name() +
                             "' nest more than " + llvm::Twine(maxDepth) +
                             " deep");
        return false;
      }
      if (!expand(node, *fn, next))
        return false;
      changed = true;
    }
    graph_.mutable_node()->Swap(&next);
    if (!changed)
      break;
  }
  // Rewire consumers of call outputs; control edges on a call have nothing
  // left to wait for once its body is part of the graph.
  for (NodeDef &node : *graph_.mutable_node()) {
    google::protobuf::RepeatedPtrField<std::string> inputs;
    for (const std::string &input : node.input()) {
      llvm::StringRef ref = input;
      if (ref.starts_with("^")) {
        if (!inlinedCalls_.contains(ref.drop_front()))
          *inputs.Add() = input;
        continue;
      }
      *inputs.Add() = outputs_.resolve(ref);
    }
    node.mutable_input()->Swap(&inputs);
  }
  // If, While and Case name their branches and bodies in the library; the
  // importer imports them from there (ImportControlFlow.cpp).
  bool functional = llvm::any_of(graph_.node(), [](const NodeDef &node) {
    llvm::StringRef op = node.op();
    op.consume_front("Stateless");
    return op == "If" || op == "While" || op == "Case";
  });
  if (!functional)
    graph_.mutable_library()->Clear();
  return true;
}

bool tfaot::inlineFunctionCalls(tensorflow::GraphDef &graph,
                                const tensorflow::OpList *opDefs,
                                GraphDiagnostics &diags,
                                InlinedOutputs &outputs) {
  return Inliner(graph, opDefs, diags, outputs).run();
}
