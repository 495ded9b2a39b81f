//===- ControlFlowOps.cpp - If, While, Case -------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Verifiers of the region ops (ControlFlowOps.td), TF's truth rule for a
// predicate known at compile time, and the canonicalizations that pick the
// region a constant predicate or branch index selects.
//
//===----------------------------------------------------------------------===//
#include "ir/ConstantEval.h"
#include "ir/Ops.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tfaot;

std::optional<bool> mlir::tfaot::staticTruth(Value cond) {
  auto type = cast<RankedTensorType>(cond.getType());
  // TF: a tensor of rank >= 1 is true when it has elements, whatever they
  // hold, so its static shape decides.
  if (type.getRank() > 0) {
    if (!type.hasStaticShape())
      return std::nullopt;
    return type.getNumElements() > 0;
  }
  while (auto identity = cond.getDefiningOp<IdentityOp>())
    cond = identity.getInput();
  DenseElementsAttr attr;
  if (!matchPattern(cond, m_Constant(&attr))) {
    // A predicate computed from constants (a counted loop's
    // `i < n && j < max_iterations` once i and j are known) is one too.
    EvalFailure failure;
    FailureOr<DenseElementsAttr> value = evaluateConstant(cond, failure);
    if (failed(value))
      return std::nullopt;
    attr = *value;
  }
  if (auto ints = dyn_cast<DenseIntElementsAttr>(attr))
    return !(*ints.value_begin<APInt>()).isZero();
  if (auto floats = dyn_cast<DenseFPElementsAttr>(attr))
    return !(*floats.value_begin<APFloat>()).isZero();
  return std::nullopt;
}

std::optional<int64_t> mlir::tfaot::staticBranch(Value index,
                                                 int64_t numBranches) {
  while (auto identity = index.getDefiningOp<IdentityOp>())
    index = identity.getInput();
  DenseIntElementsAttr attr;
  if (!matchPattern(index, m_Constant(&attr)))
    return std::nullopt;
  int64_t i = (*attr.value_begin<APInt>()).getSExtValue();
  // TF's Case runs the last branch for an index out of range.
  return i >= 0 && i < numBranches ? i : numBranches - 1;
}

/// Checks that `region`'s block takes `args` and yields `yields` (any types
/// when null); `what` names the region in messages.
static LogicalResult verifyRegion(Operation *op, Region &region,
                                  llvm::StringRef what, TypeRange args,
                                  std::optional<TypeRange> yields) {
  Block &block = region.front();
  if (block.getArgumentTypes() != args)
    return op->emitOpError() << what << " takes (" << block.getArgumentTypes()
                             << ") but the op's inputs are (" << args << ")";
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << what << " does not end in tfaot.Yield";
  if (yields && yield.getValues().getTypes() != *yields)
    return op->emitOpError()
           << what << " yields (" << yield.getValues().getTypes()
           << ") but the op's results are (" << *yields << ")";
  return success();
}

LogicalResult IfOp::verify() {
  TypeRange inputs = getInputs().getTypes(), results = getResultTypes();
  if (failed(verifyRegion(*this, getThenBranch(), "then_branch", inputs,
                          results)))
    return failure();
  return verifyRegion(*this, getElseBranch(), "else_branch", inputs, results);
}

LogicalResult WhileOp::verify() {
  TypeRange vars = getInputs().getTypes();
  if (failed(verifyRegion(*this, getCond(), "cond", vars, std::nullopt)) ||
      failed(verifyRegion(*this, getBody(), "body", vars, vars)))
    return failure();
  auto yield = cast<YieldOp>(getCond().front().getTerminator());
  if (yield.getValues().size() != 1)
    return emitOpError() << "cond yields " << yield.getValues().size()
                         << " values; it must yield one predicate";
  return success();
}

LogicalResult CaseOp::verify() {
  if (getBranches().empty())
    return emitOpError("has no branches");
  for (auto [i, region] : llvm::enumerate(getBranches()))
    if (failed(verifyRegion(*this, region, "branch " + std::to_string(i),
                            getInputs().getTypes(), getResultTypes())))
      return failure();
  return success();
}

/// Replaces `op` by the body of `region`, its block arguments replaced by
/// `inputs` and its results by what the region yields.
static void inlineRegion(PatternRewriter &rewriter, Operation *op,
                         Region &region, ValueRange inputs) {
  Block &block = region.front();
  auto yield = cast<YieldOp>(block.getTerminator());
  SmallVector<Value> results(yield.getValues());
  rewriter.inlineBlockBefore(&block, op, inputs);
  rewriter.replaceOp(op, results);
  rewriter.eraseOp(yield);
}

LogicalResult IfOp::canonicalize(IfOp op, PatternRewriter &rewriter) {
  std::optional<bool> truth = staticTruth(op.getCond());
  if (!truth)
    return failure();
  inlineRegion(rewriter, op, *truth ? op.getThenBranch() : op.getElseBranch(),
               op.getInputs());
  return success();
}

LogicalResult CaseOp::canonicalize(CaseOp op, PatternRewriter &rewriter) {
  std::optional<int64_t> branch =
      staticBranch(op.getBranchIndex(), op.getBranches().size());
  if (!branch)
    return failure();
  inlineRegion(rewriter, op, op.getBranches()[*branch], op.getInputs());
  return success();
}
