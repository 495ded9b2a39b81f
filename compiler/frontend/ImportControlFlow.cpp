//===- ImportControlFlow.cpp - If, While, Case from the function library --===//
// SPDX-License-Identifier: Apache-2.0
//
// TF's functional control flow names its branches and bodies as functions
// of the graph's library. Each one is imported as a graph of its own: a
// placeholder per argument and a PartitionedCall of the function, which the
// function inliner expands as it does for SavedModels (so calls inside a
// body are inlined too, and body references "node:output_arg:i" are
// translated the one way the project knows), then the graph importer builds
// what the call's outputs need, into a region whose block arguments stand
// for the placeholders. Nested control flow recurses through the same path.
//
// Shapes are static after feeding, so a predicate is often decided here: a
// tensor of rank >= 1 is true whenever it has elements (TF's rule), and a
// constant scalar or branch index picks its region; then the chosen branch
// is imported in place and no If or Case is built.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/FunctionInliner.h"
#include "compiler/frontend/GraphImporter.h"
#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/ImportHelpers.h"
#include "compiler/frontend/ImportListOps.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::CaseOp;
using mlir::tfaot::IfOp;
using mlir::tfaot::WhileOp;
using mlir::tfaot::YieldOp;

namespace {
/// One function of the library to import as a branch or body.
struct Callee {
  std::string attr;  ///< The node attribute naming it ("then_branch").
  const tensorflow::AttrValue *func = nullptr;  ///< Its func value.
  const tensorflow::FunctionDef *def = nullptr;
};
} // namespace

/// The library function `func` names, or an error naming the attribute.
static FailureOr<Callee> findCallee(NodeImportContext &ctx,
                                    const std::string &attr,
                                    const tensorflow::AttrValue *func) {
  if (!func || func->func().name().empty())
    return ctx.error("has no function in attribute '" + attr + "'");
  if (ctx.library)
    for (const tensorflow::FunctionDef &fn : ctx.library->function())
      if (fn.signature().name() == func->func().name())
        return Callee{attr, func, &fn};
  return ctx.error("attribute '" + attr + "' names function '" +
                    func->func().name() +
                    "', which the graph's function library does not define");
}

static FailureOr<Callee> findCallee(NodeImportContext &ctx,
                                    const std::string &attr) {
  return findCallee(ctx, attr, ctx.attr(attr));
}

/// Imports `callee` applied to `args` at `builder`'s insertion point and
/// returns its results. Its nodes are named "<node>/<attr>/<body node>".
static FailureOr<SmallVector<Value>> importCallee(NodeImportContext &ctx,
                                                  const Callee &callee,
                                                  ValueRange args,
                                                  OpBuilder &builder) {
  const tensorflow::FunctionDef &fn = *callee.def;
  if (fn.signature().input_arg_size() != (int)args.size())
    return ctx.error("function '" + fn.signature().name() + "' (" +
                      callee.attr + ") takes " +
                      llvm::Twine(fn.signature().input_arg_size()) +
                      " arguments, but the node passes it " +
                      llvm::Twine(args.size()));
  const std::string prefix = ctx.node.name() + "/" + callee.attr;
  tensorflow::GraphDef graph;
  std::vector<std::string> argNodes;
  tensorflow::NodeDef call;
  call.set_name(prefix);
  call.set_op("PartitionedCall");
  (*call.mutable_attr())["f"] = *callee.func;
  for (auto [i, arg] : llvm::enumerate(args)) {
    tensorflow::NodeDef *placeholder = graph.add_node();
    // Body nodes are all named "<prefix>/...", so this name is free.
    placeholder->set_name(prefix + "_arg" + std::to_string(i));
    placeholder->set_op("Placeholder");
    (*placeholder->mutable_attr())["dtype"].set_type(convertElementType(
        cast<RankedTensorType>(arg.getType()).getElementType()));
    argNodes.push_back(placeholder->name());
    call.add_input(placeholder->name());
  }
  *graph.add_node() = std::move(call);
  *graph.mutable_library() = *ctx.library;
  InlinedOutputs outputs;
  if (!inlineFunctionCalls(graph, nullptr, ctx.diagnostics(), outputs))
    return failure();
  // The inliner drops the library once no call is left; nested If, While
  // and Case inside the body still name their functions in it.
  *graph.mutable_library() = *ctx.library;
  std::vector<std::string> fetches;
  for (int k = 0; k < fn.signature().output_arg_size(); ++k)
    fetches.push_back(outputs.resolve(prefix + ":" + std::to_string(k)));
  return importSubgraph(graph, argNodes, args, fetches, builder,
                        *ctx.options, ctx.diagnostics());
}

/// A region's block: arguments of `types`, the import of `callee` on them,
/// and a Yield of its results. Null after an error.
static Block *importRegion(NodeImportContext &ctx, const Callee &callee,
                           TypeRange types) {
  auto block = std::make_unique<Block>();
  for (Type type : types)
    block->addArgument(type, ctx.loc);
  OpBuilder builder(ctx.builder.getContext());
  builder.setInsertionPointToEnd(block.get());
  FailureOr<SmallVector<Value>> results =
      importCallee(ctx, callee, block->getArguments(), builder);
  if (failed(results))
    return nullptr;
  YieldOp::create(builder, ctx.loc, *results);
  return block.release();
}

static TypeRange yieldedTypes(Block *block) {
  return block->getTerminator()->getOperandTypes();
}

/// The node's output 0 (TF numbers an If's outputs from 0); the others go
/// to extraOutputs.
static FailureOr<Value> setOutputs(NodeImportContext &ctx,
                                   ValueRange results) {
  if (results.empty())
    return ctx.error("has no outputs, so it computes nothing a fetch can "
                      "use");
  ctx.extraOutputs.assign(results.begin() + 1, results.end());
  return results.front();
}

/// Imports a compile-time choice in place: no op, just the callee's nodes.
static FailureOr<Value> importChosen(NodeImportContext &ctx,
                                     const Callee &callee, ValueRange args) {
  FailureOr<SmallVector<Value>> results =
      importCallee(ctx, callee, args, ctx.builder);
  if (failed(results))
    return failure();
  return setOutputs(ctx, *results);
}

/// Checks that every branch yields the types of the first one.
static LogicalResult checkBranchTypes(NodeImportContext &ctx,
                                      ArrayRef<Block *> blocks,
                                      ArrayRef<Callee> callees) {
  TypeRange first = yieldedTypes(blocks[0]);
  for (size_t b = 1; b < blocks.size(); ++b) {
    TypeRange types = yieldedTypes(blocks[b]);
    if (types.size() != first.size())
      return ctx.error(callees[b].attr + " returns " +
                       llvm::Twine(types.size()) + " tensors but " +
                       callees[0].attr + " returns " +
                       llvm::Twine(first.size()));
    for (size_t k = 0; k < types.size(); ++k)
      if (types[k] != first[k])
        return ctx.error(
            "output " + llvm::Twine(k) + " is " + typeString(first[k]) +
            " in " + callees[0].attr + " but " + typeString(types[k]) +
            " in " + callees[b].attr +
            "; tfaot needs both branches to give one static shape and type");
  }
  return success();
}

/// Hands `blocks` to the op's regions, or deletes them when import failed.
static void adoptBlocks(Operation *op, ArrayRef<Block *> blocks) {
  for (auto [region, block] : llvm::zip(op->getRegions(), blocks))
    region.push_back(block);
}

void ::tfaot::deleteDetachedBlocks(ArrayRef<Block *> blocks) {
  for (Block *block : blocks)
    if (block) {
      block->dropAllDefinedValueUses();
      block->dropAllReferences();
      delete block;
    }
}

/// If, StatelessIf: inputs are (cond, args...).
FailureOr<Value>(::tfaot::importIf)(NodeImportContext &ctx) {
  Value cond = ctx.operands[0];
  ValueRange args = ValueRange(ctx.operands).drop_front();
  FailureOr<Callee> thenFn = findCallee(ctx, "then_branch");
  FailureOr<Callee> elseFn = findCallee(ctx, "else_branch");
  if (failed(thenFn) || failed(elseFn))
    return failure();
  if (std::optional<bool> truth = mlir::tfaot::staticTruth(cond))
    return importChosen(ctx, *truth ? *thenFn : *elseFn, args);
  if (cast<RankedTensorType>(cond.getType()).getRank() != 0)
    return ctx.error("the predicate " + typeString(cond.getType()) +
                     " has a shape known only at run time");
  Block *thenBlock = importRegion(ctx, *thenFn, args.getTypes());
  Block *elseBlock =
      thenBlock ? importRegion(ctx, *elseFn, args.getTypes()) : nullptr;
  if (!elseBlock ||
      failed(checkBranchTypes(ctx, {thenBlock, elseBlock},
                              {*thenFn, *elseFn}))) {
    deleteDetachedBlocks({thenBlock, elseBlock});
    return failure();
  }
  auto op = IfOp::create(ctx.builder, ctx.loc, yieldedTypes(thenBlock), cond,
                         args);
  adoptBlocks(op, {thenBlock, elseBlock});
  return setOutputs(ctx, op.getResults());
}

/// While, StatelessWhile: inputs are the loop variables.
FailureOr<Value>(::tfaot::importWhile)(NodeImportContext &ctx) {
  ValueRange vars = ctx.operands;
  FailureOr<Callee> condFn = findCallee(ctx, "cond");
  FailureOr<Callee> bodyFn = findCallee(ctx, "body");
  if (failed(condFn) || failed(bodyFn) ||
      failed(checkLoopCarriedLists(ctx, vars)))
    return failure();
  Block *condBlock = importRegion(ctx, *condFn, vars.getTypes());
  if (!condBlock)
    return failure();
  if (yieldedTypes(condBlock).size() != 1) {
    deleteDetachedBlocks({condBlock});
    return ctx.error("its cond function '" +
                     condFn->def->signature().name() + "' returns " +
                     llvm::Twine(yieldedTypes(condBlock).size()) +
                     " tensors; it must return one predicate");
  }
  Block *bodyBlock = importRegion(ctx, *bodyFn, vars.getTypes());
  if (!bodyBlock) {
    deleteDetachedBlocks({condBlock});
    return failure();
  }
  TypeRange next = yieldedTypes(bodyBlock);
  std::string mismatch;
  if (next.size() != vars.size())
    mismatch = "its body returns " + std::to_string(next.size()) +
               " tensors for " + std::to_string(vars.size()) +
               " loop variables";
  for (size_t k = 0; mismatch.empty() && k < vars.size(); ++k)
    if (next[k] != vars[k].getType())
      mismatch = "loop variable " + std::to_string(k) + " ('" +
                 ctx.node.input(k) + "') is " + typeString(vars[k].getType()) +
                 " on entry but the body returns " + typeString(next[k]) +
                 "; tfaot compiles loops whose variables keep one static "
                 "shape and type";
  if (!mismatch.empty()) {
    deleteDetachedBlocks({condBlock, bodyBlock});
    return ctx.error(mismatch);
  }
  auto op = WhileOp::create(ctx.builder, ctx.loc, vars.getTypes(), vars);
  adoptBlocks(op, {condBlock, bodyBlock});
  return setOutputs(ctx, op.getResults());
}

/// Case, StatelessCase: inputs are (branch_index, args...).
FailureOr<Value>(::tfaot::importCase)(NodeImportContext &ctx) {
  Value index = ctx.operands[0];
  ValueRange args = ValueRange(ctx.operands).drop_front();
  auto indexType = cast<RankedTensorType>(index.getType());
  if (indexType.getRank() != 0 || !indexType.getElementType().isInteger(32))
    return ctx.error("branch_index must be an int32 scalar, got " +
                     typeString(indexType));
  const tensorflow::AttrValue *branches = ctx.attr("branches");
  if (!branches || branches->list().func_size() == 0)
    return ctx.error("has no functions in attribute 'branches'");
  // Callee points at its func value, which must outlive the imports.
  std::vector<tensorflow::AttrValue> funcs(branches->list().func_size());
  SmallVector<Callee> callees;
  for (size_t b = 0; b < funcs.size(); ++b) {
    *funcs[b].mutable_func() = branches->list().func(b);
    FailureOr<Callee> callee =
        findCallee(ctx, "branches_" + std::to_string(b), &funcs[b]);
    if (failed(callee))
      return failure();
    callees.push_back(*callee);
  }
  if (std::optional<int64_t> branch =
          mlir::tfaot::staticBranch(index, callees.size()))
    return importChosen(ctx, callees[*branch], args);
  SmallVector<Block *> blocks;
  for (const Callee &callee : callees) {
    Block *block = importRegion(ctx, callee, args.getTypes());
    if (!block) {
      deleteDetachedBlocks(blocks);
      return failure();
    }
    blocks.push_back(block);
  }
  if (failed(checkBranchTypes(ctx, blocks, callees))) {
    deleteDetachedBlocks(blocks);
    return failure();
  }
  auto op = CaseOp::create(ctx.builder, ctx.loc, yieldedTypes(blocks[0]),
                           index, args, blocks.size());
  adoptBlocks(op, blocks);
  return setOutputs(ctx, op.getResults());
}
