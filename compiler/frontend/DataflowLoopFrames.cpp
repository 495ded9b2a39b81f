//===- DataflowLoopFrames.cpp - Loop frames to tfaot.While ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A loop frame (Enter -> Merge -> Switch on LoopCond -> body ->
// NextIteration, left by Exit) is checked for that shape, then built as one
// tfaot.While whose cond region computes LoopCond's input and whose body
// computes the NextIteration inputs; a body that changes a variable's shape
// is unrolled instead when import decides the trip count.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/DataflowStructurer.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/ImportHelpers.h"
#include "ir/Ops.h"

using namespace mlir;
using namespace ::tfaot;
using namespace ::tfaot::dataflow;
using mlir::tfaot::ConstOp;
using mlir::tfaot::WhileOp;
using mlir::tfaot::YieldOp;

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
    // TF's own functionalization (functionalize_while.cc, which tfcompile
    // runs) refuses such a frame too ("Loop ... has no LoopCond node").
    if (!frame.loopCond)
      report(*where, "enters loop frame '" + scope->frame +
                       "', which has no LoopCond: nothing decides when the "
                       "loop ends, so it is not a loop that terminates and "
                       "cannot become a While (TensorFlow's functionalization, "
                       "which tfcompile uses, rejects such a frame too)");
    else if (frame.merges.empty())
      report(*where, "enters loop frame '" + scope->frame +
                       "', which has no loop variable (Merge of an Enter and "
                       "a NextIteration)");
  }
  return success(diags_.errorCount() == errors);
}

Structurer::LoopParts Structurer::loopParts(Scope *loop) {
  Frame &frame = frames_[loop];
  LoopParts parts;
  std::vector<std::string> nextInputs;
  for (const NodeDef *merge : frame.merges)
    for (const std::string &input : merge->input()) {
      const NodeDef *source = node(nodeOfInput(input));
      if (!llvm::StringRef(input).starts_with("^") &&
          source->op() == "NextIteration") {
        parts.nexts.push_back(source);
        nextInputs.push_back(source->input(0));
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
  parts.condNodes = closure({frame.loopCond->input(0)}, inFrame);
  parts.bodyNodes = closure(nextInputs, inFrame);
  return parts;
}

void Structurer::bindLoopVariables(Scope *loop, ArrayRef<Value> vars) {
  Frame &frame = frames_[loop];
  for (const NodeDef *merge : frame.merges)
    bind(merge->name() + ":0", vars[varOfMerge_[merge]]);
  for (auto [sw, k] : frame.varOfSwitch)
    bind(sw->name() + ":1", vars[k]);
}

LogicalResult Structurer::buildLoop(Scope *loop) {
  Frame &frame = frames_[loop];
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (const NodeDef *merge : frame.merges) {
    for (const std::string &input : merge->input()) {
      const NodeDef *source = node(nodeOfInput(input));
      if (llvm::StringRef(input).starts_with("^") ||
          source->op() == "NextIteration")
        continue;
      FailureOr<Value> init = lookup(*source, source->input(0));
      if (failed(init))
        return failure();
      inits.push_back(*init);
      types.push_back(init->getType());
    }
  }
  LoopParts parts = loopParts(loop);

  Captures captures;
  captures.fixed = inits.size();
  Block *condBlock = newRegionBlock(captures, types);
  Block *bodyBlock = newRegionBlock(captures, types);
  auto args = [&](Block *block) {
    return SmallVector<Value>(block->getArguments().take_front(inits.size()));
  };
  layers_.push_back(Layer(condBlock, &captures));
  bindLoopVariables(loop, args(condBlock));
  FailureOr<Value> pred =
      succeeded(buildScope(loop, parts.condNodes))
          ? lookup(*frame.loopCond, frame.loopCond->input(0))
          : FailureOr<Value>(failure());
  layers_.pop_back();
  SmallVector<Value> nextValues;
  bool ok = succeeded(pred);
  if (ok) {
    layers_.push_back(Layer(bodyBlock, &captures));
    bindLoopVariables(loop, args(bodyBlock));
    ok = succeeded(buildScope(loop, parts.bodyNodes));
    for (const NodeDef *next : parts.nexts) {
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
  LoopParts parts = loopParts(loop);
  SmallVector<Value> vars(inits);
  Block *block = layers_.back().block;
  for (int iteration = 0;; ++iteration) {
    layers_.push_back(Layer(block, nullptr));
    bindLoopVariables(loop, vars);
    FailureOr<Value> pred =
        succeeded(buildScope(loop, parts.condNodes))
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
    if (failed(buildScope(loop, parts.bodyNodes))) {
      layers_.pop_back();
      return failure();
    }
    SmallVector<Value> next;
    for (const NodeDef *n : parts.nexts) {
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
