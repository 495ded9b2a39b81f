//===- ImportDataDependentOps.cpp - NMS, Where and bounded shapes ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// NonMaxSuppressionV2/V3/V4/V5 become tfaot.NonMaxSuppression, Where
// tfaot.Where (ir/DataDependentOps.td). Their outputs are sized for a bound
// known now; BoundTracker remembers which values are bounded so that the
// importer can refuse consumers that padding would make wrong and give
// bounded graph results their run-time dims (docs/dynamic-shapes.md).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportDataDependentOps.h"

#include "compiler/frontend/ImportHelpers.h"
#include "ir/DataDependentOps.h"
#include "ir/Ops.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::NonMaxSuppressionOp;
using mlir::tfaot::WhereOp;
using mlir::tfaot::CheckBoundedIndicesOp;

/// The node's pad_to_max_output_size (V4, V5), false for the others.
static bool padsToMax(const tensorflow::NodeDef &node) {
  auto it = node.attr().find("pad_to_max_output_size");
  return it != node.attr().end() && it->second.b();
}

/// NonMaxSuppressionV2 (boxes, scores, max_output_size, iou_threshold),
/// V3 and V4 (+ score_threshold), V5 (+ soft_nms_sigma). Output 0 is the
/// selected indices; V4 adds valid_outputs, V5 the selected scores and
/// valid_outputs.
FailureOr<Value>(::tfaot::importNonMaxSuppression)(NodeImportContext &ctx) {
  const std::string &opName = ctx.node.op();
  Builder &b = ctx.builder;
  Type f32 = b.getF32Type();
  for (unsigned i = 0; i < ctx.operands.size(); ++i)
    if (i != 2 && ctx.typeOf(i).getElementType() != f32)
      return ctx.error("only float32 boxes, scores and thresholds are "
                       "supported, input " + llvm::Twine(i) + " is " +
                       typeString(ctx.typeOf(i)));
  auto boxes = ctx.typeOf(0), scores = ctx.typeOf(1);
  if (boxes.getRank() != 2 || boxes.getDimSize(1) != 4)
    return ctx.error("boxes must be [num_boxes, 4], got " + typeString(boxes));
  int64_t n = boxes.getDimSize(0);
  if (scores.getRank() != 1 || scores.getDimSize(0) != n)
    return ctx.error(llvm::formatv("scores must be [{0}] like the boxes, got {1}",
                                   n, typeString(scores)));
  for (unsigned i = 2; i < ctx.operands.size(); ++i)
    if (ctx.typeOf(i).getRank() != 0)
      return ctx.error("input " + llvm::Twine(i) + " must be a scalar, got " +
                       typeString(ctx.typeOf(i)));

  // The bound: a constant max_output_size (clamped to the boxes, unless
  // padded to it), else every box.
  bool pad = padsToMax(ctx.node);
  int64_t bound = n;
  if (DenseElementsAttr max = constantElements(ctx.operands[2])) {
    int64_t value = (*max.getValues<APInt>().begin()).getSExtValue();
    if (value < 0)
      return ctx.error("max_output_size must be non-negative, got " +
                       llvm::Twine(value));
    bound = pad ? value : std::min(value, n);
  } else if (pad) {
    return ctx.error("pad_to_max_output_size needs a constant "
                     "max_output_size: it is the size of the outputs");
  }

  SmallVector<Value, 6> operands(ctx.operands.begin(), ctx.operands.end());
  if (opName == "NonMaxSuppressionV2")
    operands.push_back(
        buildScalar(ctx, f32, -std::numeric_limits<double>::infinity()));
  if (opName != "NonMaxSuppressionV5")
    operands.push_back(buildScalar(ctx, f32, 0.0));
  OperationState state(ctx.loc, NonMaxSuppressionOp::getOperationName());
  state.addOperands(operands);
  state.addTypes({RankedTensorType::get({bound}, b.getI32Type()),
                  RankedTensorType::get({bound}, f32),
                  RankedTensorType::get({}, b.getI32Type())});
  Operation *op = ctx.builder.create(state);
  if (opName == "NonMaxSuppressionV4")
    ctx.extraOutputs.assign({op->getResult(2)});
  else if (opName == "NonMaxSuppressionV5")
    ctx.extraOutputs.assign({op->getResult(1), op->getResult(2)});
  return op->getResult(0);
}

/// Where (condition) with one input: the int64 coordinates of its true
/// (non-zero) elements.
FailureOr<Value>(::tfaot::importWhere)(NodeImportContext &ctx) {
  auto input = ctx.typeOf(0);
  Builder &b = ctx.builder;
  OperationState state(ctx.loc, WhereOp::getOperationName());
  state.addOperands(ctx.operands[0]);
  state.addTypes(
      {RankedTensorType::get({input.getNumElements(), input.getRank()},
                             b.getI64Type()),
       RankedTensorType::get({}, b.getI32Type())});
  return ctx.builder.create(state)->getResult(0);
}

//===----------------------------------------------------------------------===//
// BoundTracker
//===----------------------------------------------------------------------===//

/// Ops that compute each output element from the input element at the same
/// position, whatever the shape: padding stays padding.
static bool isElementwiseUnary(const tensorflow::NodeDef &node) {
  static const llvm::StringSet<> ops = {
      "Identity", "Snapshot", "StopGradient", "Cast", "LogicalNot",
      "Softplus", "Selu", "Round", "Relu", "Relu6", "Elu", "LeakyRelu",
      "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Rsqrt", "Reciprocal",
      "Floor", "Ceil", "Neg", "Abs", "Square", "Sin", "Cos", "Erf"};
  return ops.contains(node.op());
}

static bool isElementwiseBinary(const tensorflow::NodeDef &node) {
  const OpSpec *spec = lookupOpSpec(node.op());
  return spec && (spec->import == importBinary ||
                  spec->import == importPredicate);
}

static int64_t rankOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank();
}

/// Squeeze, ExpandDims or Reshape of a value bounded along its outermost
/// dim into one with the same outermost dim and the same row size: row i
/// stays row i in row-major order, so the valid rows stay the leading ones.
static bool
isRowPreservingReshape(const tensorflow::NodeDef &node,
                       ArrayRef<Value> operands, ArrayRef<Value> outputs,
                       ArrayRef<std::pair<unsigned, BoundedDim>> bounded) {
  if (node.op() != "Squeeze" && node.op() != "ExpandDims" &&
      node.op() != "Reshape")
    return false;
  if (bounded.size() != 1 || bounded[0].first != 0 ||
      bounded[0].second.dim != 0)
    return false;
  auto in = cast<RankedTensorType>(operands[0].getType());
  auto out = cast<RankedTensorType>(outputs[0].getType());
  return in.getRank() >= 1 && out.getRank() >= 1 &&
         in.getDimSize(0) == out.getDimSize(0) &&
         in.getNumElements() == out.getNumElements();
}

void ::tfaot::BoundTracker::forward(Value from, Value to) {
  if (from == to)
    return;
  if (const BoundedDim *bound = lookup(from))
    bounds_[to] = *bound;
  if (const CountExpr *expr = lookupCountExpr(from))
    countExprs_[to] = *expr;
}

LogicalResult(::tfaot::BoundTracker::record)(const tensorflow::NodeDef &node,
                                   ArrayRef<Value> operands,
                                   ArrayRef<Value> outputs,
                                   GraphDiagnostics &diags) {
  // Sources: the ops themselves. A padded NMS has the padded size, which
  // is its TF shape.
  if (auto nms = outputs[0].getDefiningOp<NonMaxSuppressionOp>()) {
    int64_t bound =
        cast<RankedTensorType>(nms.getSelectedIndices().getType()).getDimSize(0);
    recordCount(nms.getValidOutputs(), bound);
    if (!padsToMax(node)) {
      bounds_[nms.getSelectedIndices()] = {nms.getValidOutputs(), 0};
      bounds_[nms.getSelectedScores()] = {nms.getValidOutputs(), 0};
    }
    return success();
  }
  // A list of run-time length stacked (ImportRunTimeLengthLists.cpp): its
  // hidden output 1 is the length.
  if (node.op() == "TensorListStack" && outputs.size() == 2) {
    recordCount(outputs[1],
                cast<RankedTensorType>(outputs[0].getType()).getDimSize(0));
    bounds_[outputs[0]] = {outputs[1], 0};
    return success();
  }
  if (node.op() == "Unique") {
    recordCount(outputs[2],
                cast<RankedTensorType>(outputs[0].getType()).getDimSize(0));
    bounds_[outputs[0]] = {outputs[2], 0};
    return success();
  }
  if (auto where = outputs[0].getDefiningOp<WhereOp>()) {
    recordCount(where.getCount(),
                cast<RankedTensorType>(where.getIndex().getType()).getDimSize(0));
    bounds_[where.getIndex()] = {where.getCount(), 0};
    return success();
  }

  for (auto [i, operand] : llvm::enumerate(operands))
    if (complements_.count(operand)) {
      diags.nodeError(
          node.name(), node.op(),
          llvm::formatv("input {0} ('{1}') has a size computed from a "
                        "data-dependent one (docs/dynamic-shapes.md); tfaot "
                        "uses such a Fill only to pad a bounded value to a "
                        "static size with ConcatV2",
                        i, node.input(i))
              .str());
      return failure();
    }
  SmallVector<std::pair<unsigned, BoundedDim>> bounded;
  for (auto [i, operand] : llvm::enumerate(operands))
    if (const BoundedDim *bound = lookup(operand))
      bounded.push_back({unsigned(i), *bound});
  if (bounded.empty()) {
    recordCountExpr(node, operands, outputs[0]);
    recordDerivedCount(node, operands, outputs[0]);
    return success();
  }
  auto refuse = [&](const llvm::Twine &why) {
    diags.nodeError(node.name(), node.op(),
                    llvm::formatv("input {0} ('{1}') has a size that depends "
                                  "on data (a bounded shape, "
                                  "docs/dynamic-shapes.md); {2}",
                                  bounded[0].first,
                                  node.input(bounded[0].first), why.str())
                        .str());
    return failure();
  };

  std::optional<BoundedDim> result;
  if (isElementwiseUnary(node)) {
    result = bounded[0].second;
  } else if (isElementwiseBinary(node) || node.op() == "Select" ||
             node.op() == "SelectV2") {
    // Broadcasting aligns dims from the right; every bounded operand must
    // put the same count on the same output dim, and the others must not
    // have a size other than 1 there (TF would require it to equal the
    // run-time count). TF1's Select with a vector condition picks rows:
    // the condition's dim 0 is the output's.
    int64_t outRank = rankOf(outputs[0]);
    auto outDim = [&](unsigned i, int64_t d) {
      if (node.op() == "Select" && i == 0 && rankOf(operands[0]) == 1 &&
          outRank > 1)
        return d;
      return outRank - rankOf(operands[i]) + d;
    };
    for (auto &[i, bound] : bounded) {
      BoundedDim here{bound.count, outDim(i, bound.dim)};
      if (result && (result->count != here.count || result->dim != here.dim))
        return refuse("its operands have different data-dependent sizes");
      result = here;
    }
    for (auto [i, operand] : llvm::enumerate(operands)) {
      if (lookup(operand))
        continue;
      int64_t at = result->dim - outDim(i, 0);
      auto type = cast<RankedTensorType>(operand.getType());
      if (at >= 0 && at < type.getRank() && type.getDimSize(at) != 1)
        return refuse(llvm::formatv("input {0} has the static size {1} on "
                                    "that dimension, which only a run-time "
                                    "count of {1} would match",
                                    i, type.getDimSize(at)));
    }
  } else if (node.op() == "GatherV2" && bounded.back().first == 1) {
    // Gathered rows follow the bounded indices: output dim axis + d. (From
    // params bounded too, the indices went through CheckBoundedIndices,
    // ImportBoundedOps.cpp.)
    DenseElementsAttr axis = constantElements(operands[2]);
    if (!axis)
      return refuse("GatherV2 needs a constant axis");
    int64_t a = (*axis.getValues<APInt>().begin()).getSExtValue();
    if (a < 0)
      a += rankOf(operands[0]);
    const BoundedDim &indices = bounded.back().second;
    result = BoundedDim{indices.count, a + indices.dim};
  } else if (node.op() == "GatherNd" && bounded.size() == 1 &&
             bounded[0].first == 1 &&
             bounded[0].second.dim < rankOf(operands[1]) - 1) {
    // One output row per index tuple (a boolean mask: Where + GatherNd);
    // the padding tuples are 0 (BoundTracker::zeroIndicesPadding).
    result = bounded[0].second;
  } else if (node.op() == "GatherV2" && bounded.size() == 1 &&
             operands[1].getDefiningOp<CheckBoundedIndicesOp>()) {
    // From bounded params along the axis, by static indices checked
    // against the run-time row count: a static result.
    return success();
  } else if (node.op() == "Split" && bounded.size() == 1 &&
             bounded[0].first == 1) {
    // Pieces along another dim keep the bounded one whole, each of them.
    DenseElementsAttr axis = constantElements(operands[0]);
    if (!axis)
      return refuse("Split needs a constant split_dim");
    int64_t a = (*axis.getValues<APInt>().begin()).getSExtValue();
    if (a < 0)
      a += rankOf(operands[1]);
    if (a == bounded[0].second.dim)
      return refuse("tfaot splits such a value only along another "
                    "dimension than the bounded one");
    for (Value piece : outputs)
      bounds_[piece] = bounded[0].second;
    return success();
  } else if (node.op() == "ConcatV2" &&
             bounded.size() + 1 == operands.size()) {
    // Side by side along another dim, values bounded alike stay so.
    DenseElementsAttr axis = constantElements(operands.back());
    if (!axis)
      return refuse("ConcatV2 needs a constant axis");
    int64_t a = (*axis.getValues<APInt>().begin()).getSExtValue();
    if (a < 0)
      a += rankOf(operands[0]);
    for (auto &[i, bound] : bounded)
      if (bound.count != bounded[0].second.count ||
          bound.dim != bounded[0].second.dim || bound.dim == a)
        return refuse("tfaot concatenates such values only along another "
                      "dimension than the bounded one, which they must "
                      "share with one run-time size");
    result = bounded[0].second;
  } else if (isRowPreservingReshape(node, operands, outputs, bounded)) {
    // The valid entries are the leading rows, and stay so.
    result = bounded[0].second;
  } else {
    return refuse("tfaot passes such values only through elementwise ops, "
                  "Select, Cast, Identity, GatherV2, GatherNd, Split and "
                  "ConcatV2 along another dimension, Squeeze, ExpandDims or "
                  "Reshape that keep the bounded rows outermost, where the "
                  "padding past the count stays apart from the valid "
                  "entries, and the ops that mask it: Sum, Prod, Max, Min, "
                  "Any, All, Mean, ArgMax, ArgMin, TopKV2 with k the count, "
                  "Slice and Pad to a static size");
  }
  bounds_[outputs[0]] = *result;
  return success();
}
