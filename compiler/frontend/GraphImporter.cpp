//===- GraphImporter.cpp - GraphDef to the tfaot dialect ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Import runs in three stages, each reporting every problem it finds before
// giving up, so a user fixes a graph in one round trip:
//   1. structure: duplicate names (also inside library functions), inputs
//      naming missing nodes, output indexes past a node's outputs;
//   2. feeds/fetches and pruning: resolve the config, walk data edges back
//      from the fetches (stopping at feeds), and list unsupported ops and
//      unfed placeholders in what is left;
//   3. building: one tfaot op per node in topological order, result types
//      inferred from operand types, locations set to the node name.
// Control edges ("^node") are checked but not followed: an inference
// function computes values, and stateful side effects (Assign, Print) that
// control edges order are outside what tfaot compiles. The one exception is
// a TF1 cond's pivot, which tells which branch a constant belongs to
// (ImportDataflowControlFlow.cpp).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/GraphImporter.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/ImportDataDependentOps.h"
#include "compiler/frontend/ImportDataflowControlFlow.h"
#include "compiler/frontend/ImportListOps.h"
#include "compiler/frontend/OpImporters.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/DataDependentOps.h"
#include "ir/Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::ConstOp;
using mlir::tfaot::IdentityOp;
using mlir::tfaot::TfaotDialect;
using mlir::tfaot::broadcastShapes;
using mlir::tfaot::getConstantIntValues;
using mlir::tfaot::resolveReshape;
using tensorflow::NodeDef;

//===----------------------------------------------------------------------===//
// Edges
//===----------------------------------------------------------------------===//

namespace {
struct Edge {
  std::string node;
  int64_t index = 0;
  bool control = false;
};
} // namespace

/// Parses "node", "node:3" or "^node". Returns false for malformed indexes.
static bool parseEdge(llvm::StringRef input, Edge &edge) {
  edge.control = input.consume_front("^");
  TensorName tensor =
      edge.control ? TensorName{input, 0, false} : splitTensorName(input);
  edge.node = tensor.node.str();
  edge.index = tensor.index;
  // A ':' left in a data input's node is an index that is no number.
  return !edge.node.empty() && (edge.control || !tensor.node.contains(':'));
}

static std::string describeEdge(const Edge &edge) {
  if (edge.control)
    return "^" + edge.node;
  return edge.index == 0 ? edge.node
                         : edge.node + ":" + std::to_string(edge.index);
}

// kMaxTensorElements: see OpImporters.h.
/// Why a static `shape` is too large, or "" when it is not.
static std::string tooManyElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d) || d == 0)
      return "";
    if (d > kMaxTensorElements / count)
      return "shape " + showShape(shape) +
             " has more than 2^40 elements (tfaot's limit for one tensor)";
    count *= d;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

namespace {
class Importer {
public:
  Importer(const tensorflow::GraphDef &graph,
           const tensorflow::tf2xla::Config &config,
           const ImportOptions &options, MLIRContext *ctx,
           GraphDiagnostics &diags, FunctionSignature &signature)
      : graph_(graph), config_(config), options_(options), ctx_(ctx),
        diags_(diags), signature_(signature), builder_(ctx) {}

  OwningOpRef<ModuleOp> run();
  FailureOr<SmallVector<Value>> runInto(ArrayRef<std::string> argNodes,
                                        ValueRange args,
                                        ArrayRef<std::string> fetches,
                                        OpBuilder::InsertPoint where);

private:
  // Stage 1.
  void indexNodes();
  void checkLibrary();
  void checkEdges();
  // Stage 2.
  void resolveFeeds();
  void resolveFrozenFeeds(
      const std::map<std::string, const tensorflow::tf2xla::Feed *> &listed);
  void resolveFetches();
  void prune();
  void checkSupport();
  // Stage 3.
  OwningOpRef<ModuleOp> build();
  mlir::Value flattenEmptyResult(mlir::Value value);
  LogicalResult buildNode(const NodeDef &node);
  FailureOr<SmallVector<Value>> importNode(const NodeDef &node,
                                           SmallVector<Value> operands);
  LogicalResult buildOrder(Block *block);
  Type argumentType(const TensorSignature &arg);
  std::string unavailableOutput(const std::string &use,
                                const std::string &source, int64_t index);
  Value foldToConstant(Value value);
  bool checkTypeAttr(const NodeDef &node, const OpSpec &spec,
                     ArrayRef<Value> operands);

  /// "; did you mean ...?" for a feed or fetch naming no node.
  std::string suggestNodes(llvm::StringRef name) const;
  const NodeDef *lookup(llvm::StringRef name) const {
    auto it = nodes_.find(name);
    return it == nodes_.end() ? nullptr : it->second;
  }
  Location locOf(const NodeDef &node) {
    return NameLoc::get(StringAttr::get(ctx_, node.name()));
  }
  std::string key(llvm::StringRef node, int64_t index) const {
    return (node + ":" + llvm::Twine(index)).str();
  }

  const tensorflow::GraphDef &graph_;
  const tensorflow::tf2xla::Config &config_;
  const ImportOptions &options_;
  MLIRContext *ctx_;
  GraphDiagnostics &diags_;
  FunctionSignature &signature_;
  OpBuilder builder_;

  llvm::StringMap<const NodeDef *> nodes_;
  /// Fed tensors ("node:index") -> argument position.
  std::map<std::string, size_t> feeds_;
  /// Frozen feeds ("node:0", --feed_value) -> the constant they become.
  std::map<std::string, DenseElementsAttr> frozen_;
  /// Nodes the fetches need, in topological order.
  std::vector<const NodeDef *> order_;
  /// Values built so far, keyed "node:index".
  std::map<std::string, Value> values_;
  /// Feeds whose shape differs from their placeholder's, described for the
  /// hint after a node that does not take the new shape.
  std::vector<std::string> resized_;
  /// Values sized for a bound, with their run-time counts (NMS, Where).
  BoundTracker bounds_;
};
} // namespace

void Importer::indexNodes() {
  for (const NodeDef &node : graph_.node()) {
    if (node.name().empty()) {
      diags_.error("a node of op '" + node.op() + "' has an empty name");
      continue;
    }
    if (!nodes_.try_emplace(node.name(), &node).second)
      diags_.nodeError(node.name(), node.op(),
                       "duplicate node name: another node is also named '" +
                           node.name() + "'");
  }
}

void Importer::checkLibrary() {
  for (const auto &function : graph_.library().function()) {
    const std::string &fname = function.signature().name();
    llvm::StringSet<> names;
    for (const auto &arg : function.signature().input_arg())
      names.insert(arg.name());
    for (const NodeDef &node : function.node_def())
      if (!names.insert(node.name()).second)
        diags_.nodeError(node.name(), node.op(),
                         "duplicate node (or function argument) name '" +
                             node.name() + "' in function '" + fname + "'");
  }
}

void Importer::checkEdges() {
  for (const NodeDef &node : graph_.node()) {
    for (const std::string &input : node.input()) {
      Edge edge;
      if (!parseEdge(input, edge)) {
        diags_.nodeError(node.name(), node.op(),
                         "malformed input '" + input + "'");
        continue;
      }
      const NodeDef *source = lookup(edge.node);
      if (!source) {
        diags_.nodeError(node.name(), node.op(),
                         "input '" + input + "' names node '" + edge.node +
                             "', which does not exist in the graph");
        continue;
      }
      if (edge.control)
        continue;
      if (auto count = numOutputsOf(*source); count && edge.index >= *count)
        diags_.nodeError(
            node.name(), node.op(),
            llvm::formatv("input '{0}' asks for output {1} of node '{2}' "
                          "({3}), which has only {4} output{5}",
                          input, edge.index, source->name(), source->op(),
                          *count, *count == 1 ? "" : "s")
                .str());
    }
  }
}

std::string Importer::suggestNodes(llvm::StringRef name) const {
  std::vector<std::vector<std::string>> candidates;
  for (const NodeDef &node : graph_.node())
    candidates.push_back({node.name()});
  return suggestNames(name, candidates);
}

void Importer::resolveFeeds() {
  // A frozen feed (--feed_value) is no argument; its config or signature
  // entry, if any, still gives its dtype and shape.
  std::set<std::string> frozenNames;
  for (const FrozenFeed &frozen : options_.frozenFeeds)
    frozenNames.insert(frozen.name);
  std::map<std::string, const tensorflow::tf2xla::Feed *> frozenListed;
  for (const auto &feed : config_.feed()) {
    const std::string &name = feed.id().node_name();
    int64_t index = feed.id().output_index();
    if (index == 0 && (frozenNames.count(name) ||
                       (!feed.name().empty() && frozenNames.count(feed.name())))) {
      frozenListed[name] = &feed;
      if (!feed.name().empty())
        frozenListed[feed.name()] = &feed;
      continue;
    }
    const NodeDef *node = lookup(name);
    if (!node) {
      diags_.error("feed '" + name + "' names no node in the graph" +
                   suggestNodes(name));
      continue;
    }
    if (index != 0) {
      diags_.nodeError(name, node->op(),
                       "feeding output " + std::to_string(index) +
                           " is not supported; only output 0 can be fed");
      continue;
    }
    TensorSignature arg;
    arg.name = feed.name().empty() ? name : feed.name();
    arg.node = name;
    arg.outputIndex = index;

    // dtype: the feed's own, else the placeholder's.
    auto dtypeAttr = node->attr().find("dtype");
    tensorflow::DataType nodeType = dtypeAttr != node->attr().end()
                                        ? dtypeAttr->second.type()
                                        : tensorflow::DT_INVALID;
    arg.dtype = feed.type() != tensorflow::DT_INVALID ? feed.type() : nodeType;
    if (arg.dtype == tensorflow::DT_INVALID) {
      diags_.nodeError(name, node->op(),
                       "feed has no dtype: the node has no 'dtype' attribute; "
                       "give one with --feed " + name + ":<shape>:<dtype>");
      continue;
    }
    if (nodeType != tensorflow::DT_INVALID && nodeType != arg.dtype) {
      diags_.nodeError(name, node->op(),
                       "feed dtype " + dataTypeName(arg.dtype) +
                           " differs from the node's dtype " +
                           dataTypeName(nodeType));
      continue;
    }
    const bool bytes = arg.dtype == tensorflow::DT_STRING;
    if (!bytes && !convertDataType(arg.dtype, ctx_)) {
      diags_.nodeError(name, node->op(),
                       "feed dtype " + dataTypeName(arg.dtype) +
                           " is not supported");
      continue;
    }

    // Shape: the feed's own, else the placeholder's; it must end up static.
    std::optional<SmallVector<int64_t>> declared;
    if (auto it = node->attr().find("shape"); it != node->attr().end())
      declared = convertShape(it->second.shape());
    std::optional<SmallVector<int64_t>> shape =
        feed.has_shape() ? convertShape(feed.shape()) : declared;
    if (!shape) {
      diags_.nodeError(name, node->op(),
                       "feed has an unknown shape; give it with --feed " +
                           name + ":d0,d1,... or in the config's feed shape");
      continue;
    }
    // A feed shape replaces the placeholder's, static dimensions included
    // (that is how --feed and --batch pick another batch), but keeps its
    // rank: a graph built for rank 2 has no meaning at rank 3. Where the
    // graph hard-codes the old size, the node that no longer fits reports it.
    if (feed.has_shape() && declared && declared->size() != shape->size()) {
      diags_.nodeError(name, node->op(),
                       llvm::formatv("feed shape {0} has rank {1}, but the "
                                     "placeholder's shape {2} has rank {3}",
                                     showShape(*shape), shape->size(),
                                     showShape(*declared), declared->size())
                           .str());
      continue;
    }
    auto staticDimChanged = [&](size_t i) {
      return !ShapedType::isDynamic((*declared)[i]) &&
             (*declared)[i] != (*shape)[i];
    };
    if (feed.has_shape() && declared &&
        llvm::any_of(llvm::seq(declared->size()), staticDimChanged))
      resized_.push_back("feed '" + name + "' is " + showShape(*shape) +
                         " where the placeholder declares " +
                         showShape(*declared));
    if (bytes && !shape->empty()) {
      diags_.nodeError(name, node->op(),
                       "string feed shape " + showShape(*shape) +
                           " is not supported: a string argument is one "
                           "scalar (the bytes of one file)");
      continue;
    }
    if (llvm::any_of(*shape, ShapedType::isDynamic)) {
      diags_.nodeError(name, node->op(),
                       "feed shape " + showShape(*shape) +
                           " has unknown (-1) dimensions; give a full shape "
                           "with --feed " + name +
                           ":d0,d1,... or in the config's feed shape");
      continue;
    }
    if (std::string why = tooManyElements(*shape); !why.empty()) {
      diags_.nodeError(name, node->op(), "feed " + why);
      continue;
    }
    arg.shape.assign(shape->begin(), shape->end());
    feeds_[key(name, index)] = signature_.args.size();
    signature_.args.push_back(std::move(arg));
  }
  resolveFrozenFeeds(frozenListed);
}

void Importer::resolveFrozenFeeds(
    const std::map<std::string, const tensorflow::tf2xla::Feed *> &listed) {
  for (const FrozenFeed &frozen : options_.frozenFeeds) {
    auto it = listed.find(frozen.name);
    const tensorflow::tf2xla::Feed *feed =
        it == listed.end() ? nullptr : it->second;
    std::string name = feed ? feed->id().node_name() : frozen.name;
    const NodeDef *node = lookup(name);
    if (!node) {
      diags_.error("--feed_value '" + frozen.name + "' names no node in the "
                   "graph" + suggestNodes(frozen.name));
      continue;
    }
    if (node->op() != "Placeholder" && node->op() != "PlaceholderWithDefault") {
      diags_.nodeError(name, node->op(),
                       "--feed_value freezes placeholders only");
      continue;
    }
    auto dtypeAttr = node->attr().find("dtype");
    tensorflow::DataType dtype =
        feed && feed->type() != tensorflow::DT_INVALID ? feed->type()
        : dtypeAttr != node->attr().end() ? dtypeAttr->second.type()
                                          : tensorflow::DT_INVALID;
    // The shape: the feed entry's, else the placeholder's if static, else
    // what the values make (one: a scalar; several: a vector).
    std::optional<SmallVector<int64_t>> shape;
    if (feed && feed->has_shape())
      shape = convertShape(feed->shape());
    else if (auto s = node->attr().find("shape"); s != node->attr().end())
      shape = convertShape(s->second.shape());
    std::optional<std::vector<int64_t>> dims;
    if (shape && llvm::none_of(*shape, ShapedType::isDynamic))
      dims.emplace(shape->begin(), shape->end());
    std::string why;
    DenseElementsAttr value =
        frozenFeedValue(frozen, dtype, dims, ctx_, why);
    if (!value) {
      diags_.nodeError(name, node->op(), why);
      continue;
    }
    frozen_[key(name, 0)] = value;
  }
}

void Importer::resolveFetches() {
  if (config_.fetch().empty()) {
    diags_.error("nothing to compute: give at least one --fetch node[:index] "
                 "or a --config with fetch entries");
    return;
  }
  for (const auto &fetch : config_.fetch()) {
    const std::string &name = fetch.id().node_name();
    int64_t index = fetch.id().output_index();
    const NodeDef *node = lookup(name);
    if (!node) {
      diags_.error("fetch '" + name + "' names no node in the graph" +
                   suggestNodes(name));
      continue;
    }
    if (auto count = numOutputsOf(*node); count && index >= *count) {
      diags_.nodeError(name, node->op(),
                       llvm::formatv("invalid output index {0} in fetch "
                                     "'{1}:{0}': the node has {2} output{3}",
                                     index, name, *count,
                                     *count == 1 ? "" : "s")
                           .str());
      continue;
    }
    TensorSignature result;
    result.name = !fetch.name().empty() ? fetch.name()
                  : index == 0          ? name
                                        : name + "_" + std::to_string(index);
    result.node = name;
    result.outputIndex = index;
    signature_.results.push_back(std::move(result));
  }
}

void Importer::prune() {
  // Iterative DFS over data edges; a fed node is a leaf. Grey nodes are on
  // the current path, so meeting one again is a cycle. A TF1 loop's back
  // edge (a Merge's NextIteration input) is not followed on the way: the
  // NextIteration starts a walk of its own afterwards, so order_ is
  // topological without the back edges. A cond's pivot control edges are
  // followed: they place a branch's constants and lead to its predicate.
  enum class Mark { Grey, Black };
  llvm::DenseMap<const NodeDef *, Mark> marks;
  std::vector<const NodeDef *> roots;
  for (const TensorSignature &fetch : signature_.results)
    roots.push_back(lookup(fetch.node));
  auto byName = [this](llvm::StringRef name) { return lookup(name); };
  for (size_t r = 0; r < roots.size(); ++r) {
    const NodeDef *root = roots[r];
    if (marks.count(root))
      continue;
    std::vector<std::pair<const NodeDef *, int>> stack{{root, 0}};
    marks[root] = Mark::Grey;
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      bool fed = feeds_.count(key(node->name(), 0)) ||
                 frozen_.count(key(node->name(), 0));
      if (fed || next == node->input_size()) {
        marks[node] = Mark::Black;
        order_.push_back(node);
        stack.pop_back();
        continue;
      }
      Edge edge;
      parseEdge(node->input(next++), edge);
      const NodeDef *source = lookup(edge.node);
      if (edge.control && !isPivotSource(*source, byName))
        continue;
      if (node->op() == "Merge" && source->op() == "NextIteration") {
        roots.push_back(source);
        continue;
      }
      auto it = marks.find(source);
      if (it == marks.end()) {
        marks[source] = Mark::Grey;
        stack.push_back({source, 0});
      } else if (it->second == Mark::Grey) {
        diags_.nodeError(node->name(), node->op(),
                         "is part of a cycle through input '" +
                             describeEdge(edge) +
                             "' that no NextIteration closes (a TF1 loop "
                             "goes round through Merge and NextIteration)");
        order_.clear();
        return;
      }
    }
  }
}

void Importer::checkSupport() {
  std::set<std::string> unsupported;
  for (const NodeDef *node : order_) {
    if (feeds_.count(key(node->name(), 0)) ||
        frozen_.count(key(node->name(), 0)))
      continue;
    const OpSpec *spec = lookupOpSpec(node->op());
    if (!spec) {
      llvm::StringRef op = node->op();
      bool image = op == "DecodeImage" || op == "DecodePng" ||
                   op == "DecodeGif" || op == "DecodeBmp";
      diags_.nodeError(node->name(), node->op(),
                       image ? "unsupported op: tfaot decodes JPEG only "
                               "(DecodeJpeg, DecodeAndCropJpeg); decode other "
                               "formats before feeding the model"
                             : "unsupported op");
      unsupported.insert(node->op());
      continue;
    }
    if (!spec->import) {
      diags_.nodeError(node->name(), node->op(),
                       "placeholder is not fed, but the fetches need it; "
                       "add it with --feed " + node->name() +
                           ":<shape> or to the config's feed list");
      continue;
    }
    int dataInputs = llvm::count_if(node->input(), [](const std::string &s) {
      return !llvm::StringRef(s).starts_with("^");
    });
    if (spec->numInputs >= 0 && dataInputs != spec->numInputs)
      diags_.nodeError(node->name(), node->op(),
                       llvm::formatv("expects {0} input{1}, got {2}",
                                     spec->numInputs,
                                     spec->numInputs == 1 ? "" : "s",
                                     dataInputs)
                           .str());
    else if (spec->numInputs < 0 && dataInputs == 0)
      diags_.nodeError(node->name(), node->op(), "expects inputs, got none");
  }
  if (!unsupported.empty()) {
    std::string list;
    for (const std::string &op : unsupported)
      list += (list.empty() ? "" : ", ") + op;
    diags_.error(llvm::formatv("{0} unsupported op type{1} in the graph: {2}",
                               unsupported.size(),
                               unsupported.size() == 1 ? "" : "s", list)
                     .str());
  }
}

bool Importer::checkTypeAttr(const NodeDef &node, const OpSpec &spec,
                             ArrayRef<Value> operands) {
  auto it = node.attr().find(spec.typeAttr);
  if (!*spec.typeAttr || it == node.attr().end())
    return true;
  tensorflow::DataType declared = it->second.type();
  // A TF list (DT_VARIANT) is a tensor of its elements' type here
  // (ImportListOps.cpp), which the attribute does not name.
  if (declared == tensorflow::DT_VARIANT)
    return true;
  // -1: every input; -2: all but the last (ConcatV2's axis).
  int typed = spec.typedInputs >= 0 ? spec.typedInputs
                                    : (int)operands.size() + spec.typedInputs + 1;
  for (int i = 0; i < typed; ++i) {
    Type element = cast<ShapedType>(operands[i].getType()).getElementType();
    tensorflow::DataType actual = convertElementType(element);
    if (actual != declared) {
      diags_.nodeError(node.name(), node.op(),
                       llvm::formatv("attribute {0} is {1} but input {2} ('{3}') "
                                     "is {4}",
                                     spec.typeAttr, dataTypeName(declared), i,
                                     node.input(i), dataTypeName(actual))
                           .str());
      return false;
    }
  }
  return true;
}

/// If `value`'s op folds to a constant (constant shape arithmetic), returns
/// a tfaot.Const at the same location instead, so later ops that need
/// constant operands (Reshape's shape, a slice's bounds) see one.
Value Importer::foldToConstant(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || isa<ConstOp>(op))
    return value;
  // Importers may build several ops for one node (Pack: Reshapes and a
  // ConcatV2); fold those first. Ops of earlier nodes were already tried.
  for (OpOperand &operand : op->getOpOperands())
    if (Operation *def = operand.get().getDefiningOp();
        def && def->getLoc() == op->getLoc() && !isa<ConstOp>(def))
      operand.set(foldToConstant(operand.get()));
  // Folders see constants only directly; look through "x/read" Identities.
  SmallVector<Attribute> operandConstants;
  for (Value operand : op->getOperands()) {
    Value source = operand;
    while (auto identity = source.getDefiningOp<IdentityOp>())
      source = identity.getInput();
    auto constant = source.getDefiningOp<ConstOp>();
    operandConstants.push_back(constant ? constant.getValue() : Attribute());
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operandConstants, folded)) || folded.size() != 1)
    return value;
  auto attr = dyn_cast_if_present<DenseElementsAttr>(
      dyn_cast_if_present<Attribute>(folded[0]));
  if (!attr || attr.getType() != value.getType())
    return value;
  OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPoint(op);
  OperationState state(op->getLoc(), ConstOp::getOperationName());
  state.addAttribute("value", attr);
  state.addTypes(attr.getType());
  Value constant = builder_.create(state)->getResult(0);
  if (op->use_empty())
    op->erase();
  return constant;
}

/// The message for a use of an output the node's importer did not produce:
/// ops like FusedBatchNorm have outputs that only training computes.
std::string Importer::unavailableOutput(const std::string &use,
                                        const std::string &source,
                                        int64_t index) {
  return llvm::formatv("'{0}' uses output {1} of node '{2}' ({3}), which "
                       "tfaot does not compute: only output 0 of this op is "
                       "supported (its other outputs exist for training)",
                       use, index, source, lookup(source)->op())
      .str();
}

LogicalResult Importer::buildNode(const NodeDef &node) {
  SmallVector<Value> operands;
  for (const std::string &input : node.input()) {
    Edge edge;
    parseEdge(input, edge);
    if (edge.control)
      continue;
    auto it = values_.find(key(edge.node, edge.index));
    if (it == values_.end()) {
      diags_.nodeError(node.name(), node.op(),
                       unavailableOutput(input, edge.node, edge.index));
      return failure();
    }
    operands.push_back(it->second);
  }
  FailureOr<SmallVector<Value>> outputs = importNode(node, operands);
  if (failed(outputs))
    return failure();
  for (auto [i, value] : llvm::enumerate(*outputs))
    values_[key(node.name(), i)] = value;
  return success();
}

/// Builds `node` from `operands` at builder_'s insertion point; returns its
/// outputs from 0 (output 0 folded to a constant where it folds).
FailureOr<SmallVector<Value>>
Importer::importNode(const NodeDef &node, SmallVector<Value> operands) {
  const OpSpec &spec = *lookupOpSpec(node.op());
  if (!checkTypeAttr(node, spec, operands))
    return failure();
  NodeImportContext context(node, operands, builder_, diags_);
  context.options = &options_;
  context.library = &graph_.library();
  if (std::optional<FailureOr<SmallVector<Value>>> imported =
          bounds_.importBounded(context))
    return *imported;
  FailureOr<Value> output = spec.import(context);
  if (failed(output))
    return failure();
  // Checked per node, so no importer sees an operand of overflowing size.
  SmallVector<Value> outputs{*output};
  outputs.append(context.extraOutputs);
  for (Value value : outputs)
    if (auto type = dyn_cast<RankedTensorType>(value.getType()))
      if (std::string why = tooManyElements(type.getShape()); !why.empty()) {
        diags_.nodeError(node.name(), node.op(), "result " + why);
        return failure();
      }
  if (failed(bounds_.record(node, operands, outputs, diags_)))
    return failure();
  outputs[0] = foldToConstant(*output);
  bounds_.forward(*output, outputs[0]);
  return outputs;
}

/// Builds order_ into `block` (values_ holds the fed values): node by node,
/// or through the structuring of TF1 dataflow control flow when the graph
/// has some (ImportDataflowControlFlow.cpp).
LogicalResult Importer::buildOrder(Block *block) {
  bool dataflow = llvm::any_of(order_, [](const NodeDef *node) {
    return isDataflowControlFlowOp(node->op());
  });
  if (!dataflow) {
    for (const NodeDef *node : order_)
      if (!values_.count(key(node->name(), 0)) && failed(buildNode(*node)))
        return failure();
    return success();
  }
  std::vector<const NodeDef *> unfed;
  for (const NodeDef *node : order_)
    if (!values_.count(key(node->name(), 0)))
      unfed.push_back(node);
  DataflowImportHooks hooks;
  hooks.lookup = [this](llvm::StringRef name) { return lookup(name); };
  hooks.importNode = [this](const NodeDef &node, ArrayRef<Value> operands,
                            Block *where) {
    OpBuilder::InsertionGuard guard(builder_);
    builder_.setInsertionPointToEnd(where);
    return importNode(node, SmallVector<Value>(operands));
  };
  return importDataflowGraph(unfed, values_, block, hooks, diags_);
}

/// The function argument type of a feed. A (scalar) string is the generated
/// API's bytes descriptor, {data pointer, byte count}, as two i64: the
/// argument's slot points at a tfaot::Bytes (runtime/compiled_function.h).
Type Importer::argumentType(const TensorSignature &arg) {
  if (arg.dtype == tensorflow::DT_STRING)
    return RankedTensorType::get({2}, builder_.getI64Type());
  return RankedTensorType::get(arg.shape, convertDataType(arg.dtype, ctx_));
}

/// `value`, a result, as a vector [0] when it has no elements and a rank
/// above 1 (a list of lists no inner list was written into, [n, ..., 0]):
/// the entry's bare-pointer ABI cannot pass a multi-dimensional buffer of
/// no elements (MLIR's conversion refuses its strides). The signature keeps
/// the true shape; the buffer holds nothing either way.
Value Importer::flattenEmptyResult(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getNumElements() != 0 || type.getRank() <= 1)
    return value;
  auto shapeType = RankedTensorType::get({1}, builder_.getI64Type());
  OperationState shape(value.getLoc(), ConstOp::getOperationName());
  shape.addAttribute("value",
                     DenseElementsAttr::get(shapeType, ArrayRef<int64_t>{0}));
  shape.addTypes(shapeType);
  OperationState reshape(value.getLoc(), "tfaot.Reshape");
  reshape.addOperands({value, builder_.create(shape)->getResult(0)});
  reshape.addTypes(RankedTensorType::get({0}, type.getElementType()));
  return builder_.create(reshape)->getResult(0);
}

OwningOpRef<ModuleOp> Importer::build() {
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(ctx_));
  builder_.setInsertionPointToEnd(module->getBody());

  SmallVector<Type> argTypes;
  for (const TensorSignature &arg : signature_.args)
    argTypes.push_back(argumentType(arg));
  auto func = func::FuncOp::create(builder_, UnknownLoc::get(ctx_),
                                   options_.functionName,
                                   builder_.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [i, arg] : llvm::enumerate(signature_.args)) {
    values_[key(arg.node, 0)] = body->getArgument(i);
    func.setArgAttr(i, "tfaot.feed", builder_.getStringAttr(arg.name));
    if (arg.dtype == tensorflow::DT_STRING)
      func.setArgAttr(i, "tfaot.bytes", builder_.getUnitAttr());
  }
  builder_.setInsertionPointToEnd(body);
  for (const auto &[tensor, value] : frozen_) {
    StringRef node = StringRef(tensor).rsplit(':').first;
    OperationState state(NameLoc::get(StringAttr::get(ctx_, node)),
                         ConstOp::getOperationName());
    state.addAttribute("value", value);
    state.addTypes(value.getType());
    values_[tensor] = builder_.create(state)->getResult(0);
  }

  {
    if (failed(buildOrder(body))) {
      if (!resized_.empty())
        diags_.warning("the graph may be built for its placeholders' shapes "
                       "only: " + llvm::join(resized_, "; "));
      return nullptr;
    }
  }

  SmallVector<Value> results;
  for (TensorSignature &fetch : signature_.results) {
    auto it = values_.find(key(fetch.node, fetch.outputIndex));
    if (it == values_.end()) {
      diags_.nodeError(fetch.node, lookup(fetch.node)->op(),
                       unavailableOutput(fetch.node + ":" +
                                             std::to_string(fetch.outputIndex),
                                         fetch.node, fetch.outputIndex));
      return nullptr;
    }
    Value value = it->second;
    auto type = cast<RankedTensorType>(value.getType());
    fetch.dtype = convertElementType(type.getElementType());
    fetch.shape.assign(type.getShape().begin(), type.getShape().end());
    fetch.bounded = bounds_.lookup(value) != nullptr;
    results.push_back(flattenEmptyResult(value));
  }
  // A bounded result's run-time dims, int64 [rank], as an extra result after
  // all the fetches (the generated class's result_dims()).
  SmallVector<int64_t> dimsOf;
  for (auto [i, fetch] : llvm::enumerate(signature_.results)) {
    const BoundedDim *bound = bounds_.lookup(results[i]);
    if (!bound)
      continue;
    auto type = cast<RankedTensorType>(results[i].getType());
    OperationState state(NameLoc::get(StringAttr::get(ctx_, fetch.node)),
                         mlir::tfaot::BoundedDimsOp::getOperationName());
    state.addOperands(bound->count);
    state.addAttribute("bounds", builder_.getDenseI64ArrayAttr(type.getShape()));
    state.addAttribute("dim", builder_.getI64IntegerAttr(bound->dim));
    state.addTypes(RankedTensorType::get({type.getRank()}, builder_.getI64Type()));
    dimsOf.push_back(i);
    results.push_back(builder_.create(state)->getResult(0));
  }
  auto ret = func::ReturnOp::create(builder_, UnknownLoc::get(ctx_), results);
  stripListImportMarks(*module);
  func.setType(builder_.getFunctionType(argTypes, ret.getOperandTypes()));
  for (auto [i, fetch] : llvm::enumerate(signature_.results))
    func.setResultAttr(i, "tfaot.fetch", builder_.getStringAttr(fetch.name));
  size_t numFetches = signature_.results.size();
  for (auto [j, of] : llvm::enumerate(dimsOf))
    func.setResultAttr(numFetches + j, "tfaot.result_dims_of",
                       builder_.getI64IntegerAttr(of));

  if (failed(verify(*module)))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> Importer::run() {
  ctx_->loadDialect<TfaotDialect, func::FuncDialect>();
  indexNodes();
  checkLibrary();
  checkEdges();
  if (diags_.hasErrors())
    return nullptr;
  resolveFeeds();
  resolveFetches();
  if (diags_.hasErrors())
    return nullptr;
  prune();
  if (diags_.hasErrors())
    return nullptr;
  checkSupport();
  if (diags_.hasErrors())
    return nullptr;
  ScopedGraphDiagnosticHandler handler(ctx_, diags_);
  return build();
}

/// Stages 1 to 3 for a branch or loop body (ImportControlFlow.cpp): the
/// nodes `argNodes` stand for `args`, and the ops go to `where` instead of a
/// new function. The caller's diagnostics handler is already in place.
FailureOr<SmallVector<Value>>
Importer::runInto(ArrayRef<std::string> argNodes, ValueRange args,
                  ArrayRef<std::string> fetches, OpBuilder::InsertPoint where) {
  int errorsBefore = diags_.errorCount();
  auto failedHere = [&] { return diags_.errorCount() > errorsBefore; };
  indexNodes();
  checkEdges();
  if (failedHere())
    return failure();
  for (auto [i, name] : llvm::enumerate(argNodes))
    feeds_[key(name, 0)] = i;
  for (const std::string &fetch : fetches) {
    TensorName tensor = splitTensorName(fetch);
    if (!lookup(tensor.node)) {
      diags_.error("'" + fetch + "' names no node of the function body");
      return failure();
    }
    TensorSignature result;
    result.node = tensor.node.str();
    result.outputIndex = tensor.index;
    signature_.results.push_back(std::move(result));
  }
  prune();
  if (failedHere())
    return failure();
  checkSupport();
  if (failedHere())
    return failure();
  builder_.restoreInsertionPoint(where);
  for (auto [name, value] : llvm::zip(argNodes, args))
    values_[key(name, 0)] = value;
  if (failed(buildOrder(where.getBlock())))
    return failure();
  SmallVector<Value> results;
  for (const TensorSignature &fetch : signature_.results) {
    auto it = values_.find(key(fetch.node, fetch.outputIndex));
    if (it == values_.end()) {
      diags_.nodeError(fetch.node, lookup(fetch.node)->op(),
                       unavailableOutput(fetch.node, fetch.node,
                                         fetch.outputIndex));
      return failure();
    }
    if (bounds_.lookup(it->second)) {
      diags_.nodeError(fetch.node, lookup(fetch.node)->op(),
                       "a branch or loop body cannot return a value whose "
                       "size depends on data (a bounded shape) yet");
      return failure();
    }
    results.push_back(it->second);
  }
  return results;
}

FailureOr<SmallVector<Value>> (::tfaot::importSubgraph)(
    const tensorflow::GraphDef &graph, ArrayRef<std::string> argNodes,
    ValueRange args, ArrayRef<std::string> fetches, OpBuilder &builder,
    const ImportOptions &options, GraphDiagnostics &diags) {
  tensorflow::tf2xla::Config config;
  FunctionSignature signature;
  return Importer(graph, config, options, builder.getContext(), diags,
                  signature)
      .runInto(argNodes, args, fetches, builder.saveInsertionPoint());
}

OwningOpRef<ModuleOp> (::tfaot::importGraph)(const tensorflow::GraphDef &graph,
                                         const tensorflow::tf2xla::Config &config,
                                         const ImportOptions &options,
                                         MLIRContext *ctx,
                                         GraphDiagnostics &diags,
                                         FunctionSignature &signature) {
  return Importer(graph, config, options, ctx, diags, signature).run();
}
