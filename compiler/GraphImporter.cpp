//===- GraphImporter.cpp - GraphDef to the tfaot dialect ------------------===//
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
// control edges order are outside what tfaot compiles.
//
//===----------------------------------------------------------------------===//
#include "compiler/GraphImporter.h"

#include "compiler/GraphLoader.h"
#include "compiler/TensorConversion.h"
#include "ir/Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace mlir;
using namespace ::tfaot;
using mlir::tfaot::IdentityOp;
using mlir::tfaot::TfaotDialect;
using mlir::tfaot::broadcastShapes;
using mlir::tfaot::getConstantIntValues;
using mlir::tfaot::resolveReshape;
using tensorflow::NodeDef;

//===----------------------------------------------------------------------===//
// Op table
//===----------------------------------------------------------------------===//

namespace {
/// How the importer builds one TF op.
enum class OpKind {
  Const, Identity, Binary, Unary, Softmax, MatMul, BiasAdd, Reshape, ArgMax,
  Cast, Placeholder
};

struct OpSpec {
  OpKind kind;
  int numInputs;
  /// Attribute naming the element type of the first input(s) ("T"), checked
  /// against the actual operand types; empty if none.
  const char *typeAttr;
  /// How many leading inputs `typeAttr` describes.
  int typedInputs;
};
} // namespace

static const llvm::StringMap<OpSpec> &opTable() {
  static const llvm::StringMap<OpSpec> table = {
      {"Const", {OpKind::Const, 0, "", 0}},
      {"Placeholder", {OpKind::Placeholder, 0, "", 0}},
      {"Identity", {OpKind::Identity, 1, "T", 1}},
      {"Add", {OpKind::Binary, 2, "T", 2}},
      {"AddV2", {OpKind::Binary, 2, "T", 2}},
      {"Sub", {OpKind::Binary, 2, "T", 2}},
      {"Mul", {OpKind::Binary, 2, "T", 2}},
      {"RealDiv", {OpKind::Binary, 2, "T", 2}},
      {"Maximum", {OpKind::Binary, 2, "T", 2}},
      {"Minimum", {OpKind::Binary, 2, "T", 2}},
      {"Relu", {OpKind::Unary, 1, "T", 1}},
      {"Relu6", {OpKind::Unary, 1, "T", 1}},
      {"Sigmoid", {OpKind::Unary, 1, "T", 1}},
      {"Tanh", {OpKind::Unary, 1, "T", 1}},
      {"Softmax", {OpKind::Softmax, 1, "T", 1}},
      {"MatMul", {OpKind::MatMul, 2, "T", 2}},
      {"BiasAdd", {OpKind::BiasAdd, 2, "T", 2}},
      {"Reshape", {OpKind::Reshape, 2, "T", 1}},
      {"ArgMax", {OpKind::ArgMax, 2, "T", 1}},
      {"Cast", {OpKind::Cast, 1, "SrcT", 1}},
  };
  return table;
}

std::vector<std::string> (::tfaot::supportedOps)() {
  std::vector<std::string> ops;
  for (const auto &entry : opTable())
    ops.push_back(entry.getKey().str());
  std::sort(ops.begin(), ops.end());
  return ops;
}

/// Number of outputs of `node`, where the op is one we know; nullopt
/// otherwise (its edges then cannot be range-checked).
static std::optional<int64_t> numOutputs(const NodeDef &node) {
  if (opTable().count(node.op()))
    return 1;
  auto intAttr = [&](const char *name) -> std::optional<int64_t> {
    auto it = node.attr().find(name);
    if (it == node.attr().end())
      return std::nullopt;
    return it->second.i();
  };
  static const llvm::StringMap<int64_t> fixed = {
      {"Switch", 2}, {"RefSwitch", 2}, {"Merge", 2}, {"RefMerge", 2},
      {"Enter", 1}, {"Exit", 1}, {"NextIteration", 1}, {"LoopCond", 1},
      {"TopKV2", 2}, {"Unique", 2}, {"FusedBatchNorm", 5},
      {"FusedBatchNormV2", 5}, {"FusedBatchNormV3", 6},
      {"NonMaxSuppressionV4", 2}, {"NonMaxSuppressionV5", 3},
      {"PlaceholderWithDefault", 1}, {"Shape", 1}, {"Conv2D", 1},
      {"Squeeze", 1}, {"ExpandDims", 1}, {"ConcatV2", 1}, {"Pack", 1}};
  if (auto it = fixed.find(node.op()); it != fixed.end())
    return it->second;
  if (node.op() == "Split" || node.op() == "SplitV")
    return intAttr("num_split");
  if (node.op() == "Unpack")
    return intAttr("num");
  return std::nullopt;
}

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
  edge.index = 0;
  if (size_t colon = input.rfind(':'); !edge.control &&
                                      colon != llvm::StringRef::npos) {
    if (input.substr(colon + 1).getAsInteger(10, edge.index) || edge.index < 0)
      return false;
    input = input.substr(0, colon);
  }
  edge.node = input.str();
  return !edge.node.empty();
}

static std::string describeEdge(const Edge &edge) {
  if (edge.control)
    return "^" + edge.node;
  return edge.index == 0 ? edge.node
                         : edge.node + ":" + std::to_string(edge.index);
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

private:
  // Stage 1.
  void indexNodes();
  void checkLibrary();
  void checkEdges();
  // Stage 2.
  void resolveFeeds();
  void resolveFetches();
  void prune();
  void checkSupport();
  // Stage 3.
  OwningOpRef<ModuleOp> build();
  LogicalResult buildNode(const NodeDef &node);
  std::optional<Type> inferResultType(const NodeDef &node, OpKind kind,
                                      ArrayRef<Value> operands);
  bool checkTypeAttr(const NodeDef &node, const OpSpec &spec,
                     ArrayRef<Value> operands);

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
  /// Nodes the fetches need, in topological order.
  std::vector<const NodeDef *> order_;
  /// Values built so far, keyed "node:index".
  std::map<std::string, Value> values_;
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
      if (auto count = numOutputs(*source); count && edge.index >= *count)
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

void Importer::resolveFeeds() {
  for (const auto &feed : config_.feed()) {
    const std::string &name = feed.id().node_name();
    int64_t index = feed.id().output_index();
    const NodeDef *node = lookup(name);
    if (!node) {
      diags_.error("feed '" + name + "' names no node in the graph");
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
    if (!convertDataType(arg.dtype, ctx_)) {
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
    auto show = [](ArrayRef<int64_t> dims) {
      std::string s = "[";
      for (auto [i, d] : llvm::enumerate(dims))
        s += (i ? "," : "") +
             (ShapedType::isDynamic(d) ? std::string("-1") : std::to_string(d));
      return s + "]";
    };
    if (!shape) {
      diags_.nodeError(name, node->op(),
                       "feed has an unknown shape; give it with --feed " +
                           name + ":d0,d1,... or in the config's feed shape");
      continue;
    }
    if (feed.has_shape() && declared) {
      bool compatible = declared->size() == shape->size();
      for (size_t i = 0; compatible && i < shape->size(); ++i)
        compatible = ShapedType::isDynamic((*declared)[i]) ||
                     (*declared)[i] == (*shape)[i];
      if (!compatible) {
        diags_.nodeError(name, node->op(),
                         "feed shape " + show(*shape) +
                             " does not match the placeholder's shape " +
                             show(*declared));
        continue;
      }
    }
    if (llvm::any_of(*shape, ShapedType::isDynamic)) {
      diags_.nodeError(name, node->op(),
                       "feed shape " + show(*shape) +
                           " has unknown (-1) dimensions; give a full shape "
                           "with --feed " + name +
                           ":d0,d1,... or in the config's feed shape");
      continue;
    }
    arg.shape.assign(shape->begin(), shape->end());
    feeds_[key(name, index)] = signature_.args.size();
    signature_.args.push_back(std::move(arg));
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
      diags_.error("fetch '" + name + "' names no node in the graph");
      continue;
    }
    if (auto count = numOutputs(*node); count && index >= *count) {
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
  // the current path, so meeting one again is a cycle.
  enum class Mark { Grey, Black };
  llvm::DenseMap<const NodeDef *, Mark> marks;
  for (const TensorSignature &fetch : signature_.results) {
    const NodeDef *root = lookup(fetch.node);
    if (marks.count(root))
      continue;
    std::vector<std::pair<const NodeDef *, int>> stack{{root, 0}};
    marks[root] = Mark::Grey;
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      bool fed = feeds_.count(key(node->name(), 0));
      if (fed || next == node->input_size()) {
        marks[node] = Mark::Black;
        order_.push_back(node);
        stack.pop_back();
        continue;
      }
      Edge edge;
      parseEdge(node->input(next++), edge);
      if (edge.control)
        continue;
      const NodeDef *source = lookup(edge.node);
      auto it = marks.find(source);
      if (it == marks.end()) {
        marks[source] = Mark::Grey;
        stack.push_back({source, 0});
      } else if (it->second == Mark::Grey) {
        diags_.nodeError(node->name(), node->op(),
                         "is part of a cycle through input '" +
                             describeEdge(edge) +
                             "' (loops need control flow, which tfaot does "
                             "not compile yet)");
        order_.clear();
        return;
      }
    }
  }
}

void Importer::checkSupport() {
  std::set<std::string> unsupported;
  for (const NodeDef *node : order_) {
    if (feeds_.count(key(node->name(), 0)))
      continue;
    auto it = opTable().find(node->op());
    if (it == opTable().end()) {
      diags_.nodeError(node->name(), node->op(), "unsupported op");
      unsupported.insert(node->op());
      continue;
    }
    const OpSpec &spec = it->second;
    if (spec.kind == OpKind::Placeholder) {
      diags_.nodeError(node->name(), node->op(),
                       "placeholder is not fed, but the fetches need it; "
                       "add it with --feed " + node->name() +
                           ":<shape> or to the config's feed list");
      continue;
    }
    int dataInputs = llvm::count_if(node->input(), [](const std::string &s) {
      return !llvm::StringRef(s).starts_with("^");
    });
    if (dataInputs != spec.numInputs)
      diags_.nodeError(node->name(), node->op(),
                       llvm::formatv("expects {0} input{1}, got {2}",
                                     spec.numInputs,
                                     spec.numInputs == 1 ? "" : "s",
                                     dataInputs)
                           .str());
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
  for (int i = 0; i < spec.typedInputs; ++i) {
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

std::optional<Type> Importer::inferResultType(const NodeDef &node, OpKind kind,
                                              ArrayRef<Value> operands) {
  auto typeOf = [&](int i) { return cast<RankedTensorType>(operands[i].getType()); };
  auto fail = [&](const llvm::Twine &message) -> std::optional<Type> {
    diags_.nodeError(node.name(), node.op(), message);
    return std::nullopt;
  };
  auto attrType = [&](const char *name, tensorflow::DataType fallback) {
    auto it = node.attr().find(name);
    return it == node.attr().end() ? fallback : it->second.type();
  };
  switch (kind) {
  case OpKind::Identity:
  case OpKind::Unary:
  case OpKind::Softmax:
  case OpKind::BiasAdd:
    return typeOf(0);
  case OpKind::Binary: {
    SmallVector<int64_t> shape;
    if (failed(broadcastShapes(typeOf(0).getShape(), typeOf(1).getShape(),
                               shape))) {
      std::string a, b;
      llvm::raw_string_ostream(a) << typeOf(0);
      llvm::raw_string_ostream(b) << typeOf(1);
      return fail("input shapes " + a + " and " + b +
                  " are not broadcast-compatible");
    }
    return RankedTensorType::get(shape, typeOf(0).getElementType());
  }
  case OpKind::MatMul: {
    auto boolAttr = [&](const char *name) {
      auto it = node.attr().find(name);
      return it != node.attr().end() && it->second.b();
    };
    auto a = typeOf(0), b = typeOf(1);
    if (a.getRank() != 2 || b.getRank() != 2)
      return fail("inputs must be matrices (rank 2)");
    int64_t m = a.getDimSize(boolAttr("transpose_a") ? 1 : 0);
    int64_t n = b.getDimSize(boolAttr("transpose_b") ? 0 : 1);
    return RankedTensorType::get({m, n}, a.getElementType());
  }
  case OpKind::Reshape: {
    auto requested = getConstantIntValues(operands[1]);
    if (!requested)
      return fail("the shape input must be a constant (computed shapes are "
                  "not supported yet)");
    auto input = typeOf(0);
    if (!input.hasStaticShape())
      return RankedTensorType::get(
          SmallVector<int64_t>(requested->size(), ShapedType::kDynamic),
          input.getElementType());
    SmallVector<int64_t> shape;
    std::string why;
    if (failed(resolveReshape(input.getNumElements(), *requested, shape, why)))
      return fail(why);
    return RankedTensorType::get(shape, input.getElementType());
  }
  case OpKind::ArgMax: {
    auto dimension = getConstantIntValues(operands[1]);
    if (!dimension || dimension->size() != 1)
      return fail("the dimension input must be a constant scalar");
    auto input = typeOf(0);
    int64_t rank = input.getRank();
    int64_t axis = (*dimension)[0];
    if (axis < -rank || axis >= rank)
      return fail(llvm::formatv("dimension {0} is out of range for an input "
                                "of rank {1}",
                                axis, rank));
    if (axis < 0)
      axis += rank;
    SmallVector<int64_t> shape(input.getShape());
    shape.erase(shape.begin() + axis);
    tensorflow::DataType outType = attrType("output_type", tensorflow::DT_INT64);
    if (outType != tensorflow::DT_INT32 && outType != tensorflow::DT_INT64)
      return fail("output_type must be int32 or int64, got " +
                  dataTypeName(outType));
    return RankedTensorType::get(shape, convertDataType(outType, ctx_));
  }
  case OpKind::Cast: {
    tensorflow::DataType dst = attrType("DstT", tensorflow::DT_INVALID);
    Type element = convertDataType(dst, ctx_);
    if (!element)
      return fail("DstT " + dataTypeName(dst) + " is missing or unsupported");
    return RankedTensorType::get(typeOf(0).getShape(), element);
  }
  case OpKind::Const:
  case OpKind::Placeholder:
    break;
  }
  llvm_unreachable("handled by buildNode");
}

LogicalResult Importer::buildNode(const NodeDef &node) {
  const OpSpec &spec = opTable().find(node.op())->second;
  Location loc = locOf(node);
  OperationState state(loc, "tfaot." + node.op());

  if (spec.kind == OpKind::Const) {
    auto it = node.attr().find("value");
    if (it == node.attr().end() || !it->second.has_tensor()) {
      diags_.nodeError(node.name(), node.op(), "has no 'value' tensor");
      return failure();
    }
    std::string error;
    DenseElementsAttr value = convertTensor(it->second.tensor(), ctx_, error);
    if (!value) {
      diags_.nodeError(node.name(), node.op(), "value " + error);
      return failure();
    }
    if (auto dtype = node.attr().find("dtype");
        dtype != node.attr().end() &&
        dtype->second.type() != it->second.tensor().dtype()) {
      diags_.nodeError(node.name(), node.op(),
                       "attribute dtype is " +
                           dataTypeName(dtype->second.type()) +
                           " but the value tensor is " +
                           dataTypeName(it->second.tensor().dtype()));
      return failure();
    }
    state.addAttribute("value", value);
    state.addTypes(value.getType());
  } else {
    SmallVector<Value> operands;
    for (const std::string &input : node.input()) {
      Edge edge;
      parseEdge(input, edge);
      if (!edge.control)
        operands.push_back(values_.at(key(edge.node, edge.index)));
    }
    if (!checkTypeAttr(node, spec, operands))
      return failure();
    std::optional<Type> resultType = inferResultType(node, spec.kind, operands);
    if (!resultType)
      return failure();
    state.addOperands(operands);
    state.addTypes(*resultType);
    // TF attributes the dialect models; type attributes live in the types.
    for (const char *name : {"transpose_a", "transpose_b", "Truncate"})
      if (auto it = node.attr().find(name); it != node.attr().end())
        state.addAttribute(name, builder_.getBoolAttr(it->second.b()));
    if (auto it = node.attr().find("data_format"); it != node.attr().end())
      state.addAttribute("data_format",
                         builder_.getStringAttr(it->second.s()));
  }
  Operation *op = builder_.create(state);
  values_[key(node.name(), 0)] = op->getResult(0);
  return success();
}

OwningOpRef<ModuleOp> Importer::build() {
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(ctx_));
  builder_.setInsertionPointToEnd(module->getBody());

  SmallVector<Type> argTypes;
  for (const TensorSignature &arg : signature_.args)
    argTypes.push_back(RankedTensorType::get(arg.shape,
                                             convertDataType(arg.dtype, ctx_)));
  auto func = func::FuncOp::create(builder_, UnknownLoc::get(ctx_),
                                   options_.functionName,
                                   builder_.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [i, arg] : llvm::enumerate(signature_.args)) {
    values_[key(arg.node, 0)] = body->getArgument(i);
    func.setArgAttr(i, "tfaot.feed", builder_.getStringAttr(arg.name));
  }
  builder_.setInsertionPointToEnd(body);

  for (const NodeDef *node : order_) {
    if (values_.count(key(node->name(), 0)))
      continue; // Fed.
    if (failed(buildNode(*node)))
      return nullptr;
  }

  SmallVector<Value> results;
  for (TensorSignature &fetch : signature_.results) {
    Value value = values_.at(key(fetch.node, fetch.outputIndex));
    auto type = cast<RankedTensorType>(value.getType());
    fetch.dtype = convertElementType(type.getElementType());
    fetch.shape.assign(type.getShape().begin(), type.getShape().end());
    results.push_back(value);
  }
  func::ReturnOp::create(builder_, UnknownLoc::get(ctx_), results);
  func.setType(builder_.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (auto [i, fetch] : llvm::enumerate(signature_.results))
    func.setResultAttr(i, "tfaot.fetch", builder_.getStringAttr(fetch.name));

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

OwningOpRef<ModuleOp> (::tfaot::importGraph)(const tensorflow::GraphDef &graph,
                                         const tensorflow::tf2xla::Config &config,
                                         const ImportOptions &options,
                                         MLIRContext *ctx,
                                         GraphDiagnostics &diags,
                                         FunctionSignature &signature) {
  return Importer(graph, config, options, ctx, diags, signature).run();
}
