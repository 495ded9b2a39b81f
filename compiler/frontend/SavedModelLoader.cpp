//===- SavedModelLoader.cpp - Read and freeze SavedModel directories ------===//
// SPDX-License-Identifier: Apache-2.0
//
// The frozen result is an ordinary GraphDef, so the importer and the passes
// see nothing new. Pruning comes first: a SavedModel also carries the saver
// (SaveV2, RestoreV2, string ops) and training functions, none of which
// tfaot compiles or needs.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/SavedModelLoader.h"

#include "compiler/frontend/FunctionInliner.h"
#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorBundle.h"
#include "compiler/proto/saved_model.pb.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

#include <google/protobuf/stubs/logging.h>

using namespace tfaot;
using tensorflow::NodeDef;

/// Where the bundle's object graph is stored (TF2 object-based checkpoints).
static constexpr const char *objectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

/// Keeps the nodes that `roots` reach through data edges, in graph order, and
/// drops control edges to the others. No roots: keeps everything.
static void prune(tensorflow::GraphDef &graph,
                  const std::vector<std::string> &roots) {
  if (roots.empty())
    return;
  llvm::StringMap<const NodeDef *> byName;
  for (const NodeDef &node : graph.node())
    byName[node.name()] = &node;
  llvm::StringSet<> kept;
  std::vector<std::string> work = roots;
  while (!work.empty()) {
    std::string name = work.back();
    work.pop_back();
    auto it = byName.find(name);
    // A fetch of a node inside a call not yet inlined ("call/node") needs
    // the call.
    for (llvm::StringRef scope = name; it == byName.end() &&
                                       scope.contains('/');) {
      scope = scope.rsplit('/').first;
      it = byName.find(scope);
    }
    if (it != byName.end())
      name = it->getKey().str();
    if (it == byName.end() || !kept.insert(name).second)
      continue;
    for (const std::string &input : it->second->input())
      if (!llvm::StringRef(input).starts_with("^"))
        work.push_back(nodeOfInput(input).str());
  }
  google::protobuf::RepeatedPtrField<NodeDef> nodes;
  for (NodeDef &node : *graph.mutable_node()) {
    if (!kept.contains(node.name()))
      continue;
    auto *inputs = node.mutable_input();
    inputs->erase(std::remove_if(inputs->begin(), inputs->end(),
                                 [&](const std::string &input) {
                                   return !kept.contains(nodeOfInput(input));
                                 }),
                  inputs->end());
    *nodes.Add() = std::move(node);
  }
  graph.mutable_node()->Swap(&nodes);
}

const tensorflow::MetaGraphDef *
tfaot::pickMetaGraph(const tensorflow::SavedModel &model,
                     GraphDiagnostics &diags) {
  if (model.meta_graphs_size() == 1)
    return &model.meta_graphs(0);
  std::string tagSets;
  for (const auto &meta : model.meta_graphs()) {
    const auto &tags = meta.meta_info_def().tags();
    if (llvm::is_contained(tags, "serve"))
      return &meta;
    tagSets += " [" + llvm::join(tags.begin(), tags.end(), ",") + "]";
  }
  diags.error(model.meta_graphs_size()
                  ? "saved_model.pb has " +
                        llvm::Twine(model.meta_graphs_size()) +
                        " meta graphs and none is tagged 'serve' (tags:" +
                        tagSets + ")"
                  : llvm::Twine("saved_model.pb holds no meta graph"));
  return nullptr;
}

std::vector<std::string>
tfaot::signatureNames(const tensorflow::MetaGraphDef &meta) {
  std::vector<std::string> names;
  for (const auto &[name, signature] : meta.signature_def())
    if (!llvm::StringRef(name).starts_with("__"))
      names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string tfaot::defaultSignatureName(const tensorflow::MetaGraphDef &meta) {
  std::vector<std::string> names = signatureNames(meta);
  if (llvm::is_contained(names, "serving_default"))
    return "serving_default";
  return names.size() == 1 ? names.front() : "";
}

/// The signature to compile, or null with no error when the meta graph has
/// none at all (feeds and fetches then come from the user). Signatures named
/// "__..." are TF's own (the init op), never a model's.
static const tensorflow::SignatureDef *
pickSignature(const tensorflow::MetaGraphDef &meta, const std::string &wanted,
              std::string &chosen, GraphDiagnostics &diags) {
  std::vector<std::string> names = signatureNames(meta);
  if (wanted.empty() && names.empty())
    return nullptr;
  chosen = wanted.empty() ? defaultSignatureName(meta) : wanted;
  if (!chosen.empty() && llvm::is_contained(names, chosen))
    return &meta.signature_def().at(chosen);
  std::string available =
      names.empty() ? "none" : "'" + llvm::join(names, "', '") + "'";
  diags.error(wanted.empty()
                  ? "the SavedModel has several signatures and none is "
                    "'serving_default'; choose one with --signature "
                    "(available: " + available + ")"
                  : "no signature '" + wanted + "' in the SavedModel "
                    "(available: " + available + ")");
  return nullptr;
}

/// A signature map's entries sorted by key (protobuf maps have no order).
template <typename Map>
static std::vector<std::pair<std::string, tensorflow::TensorInfo>>
sortedByKey(const Map &map) {
  std::vector<std::pair<std::string, tensorflow::TensorInfo>> entries(
      map.begin(), map.end());
  std::sort(entries.begin(), entries.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  return entries;
}

/// Fills `out` with the signature's inputs and outputs as feeds and fetches
/// named by their keys (the generated header's accessor names).
static bool signatureToConfig(const tensorflow::SignatureDef &signature,
                              const std::string &signatureName,
                              tensorflow::tf2xla::Config &out,
                              GraphDiagnostics &diags) {
  auto tensorId = [&](const std::string &key,
                      const tensorflow::TensorInfo &info,
                      tensorflow::tf2xla::TensorId &id) {
    if (info.encoding_case() != tensorflow::TensorInfo::kName) {
      diags.error("signature '" + signatureName + "': '" + key +
                  "' is a sparse or composite tensor, which tfaot does not "
                  "support");
      return false;
    }
    TensorName tensor = splitTensorName(info.name());
    id.set_node_name(tensor.node.str());
    id.set_output_index(tensor.index);
    return true;
  };
  for (const auto &[key, info] : sortedByKey(signature.inputs())) {
    tensorflow::tf2xla::Feed *feed = out.add_feed();
    if (!tensorId(key, info, *feed->mutable_id()))
      return false;
    feed->set_name(key);
    feed->set_type(info.dtype());
    if (info.has_tensor_shape() && !info.tensor_shape().unknown_rank())
      *feed->mutable_shape() = info.tensor_shape();
  }
  for (const auto &[key, info] : sortedByKey(signature.outputs())) {
    tensorflow::tf2xla::Fetch *fetch = out.add_fetch();
    if (!tensorId(key, info, *fetch->mutable_id()))
      return false;
    fetch->set_name(key);
  }
  return true;
}

/// How the generated header and suggestions show a tensor: "node" for
/// output 0, else "node:index".
static std::string tensorName(const tensorflow::tf2xla::TensorId &id) {
  return id.output_index() ? id.node_name() + ":" +
                                 std::to_string(id.output_index())
                           : id.node_name();
}

/// Whether pruning finds `name` in `nodes`: a node, or a node inside a call
/// ("call/dense/BiasAdd"), which inlining expands later.
static bool isGraphName(llvm::StringRef name, const llvm::StringSet<> &nodes) {
  for (llvm::StringRef scope = name;; scope = scope.rsplit('/').first) {
    if (nodes.contains(scope))
      return true;
    if (!scope.contains('/'))
      return false;
  }
}

/// Lets the user's feeds and fetches name the signature's keys ("x",
/// "scores": what the generated header calls them) as well as the tensors
/// behind them ("serving_default_x", "StatefulPartitionedCall:0"): an entry
/// naming a key (at output 0) is rewritten to the key's tensor and, unless
/// it has a name, named by the key. A key wins over a node of the same
/// name, since the key is the name the header shows. A name that is neither
/// is an error suggesting close keys and nodes.
static bool resolveSignatureKeys(tensorflow::tf2xla::Config &config,
                                 const tensorflow::tf2xla::Config &signature,
                                 const tensorflow::GraphDef &graph,
                                 GraphDiagnostics &diags) {
  llvm::StringSet<> nodes;
  for (const NodeDef &node : graph.node())
    nodes.insert(node.name());
  // Rewrites one entry; `entries` are the signature's feeds or fetches.
  auto resolve = [&](auto &entry, const auto &entries, llvm::StringRef kind) {
    tensorflow::tf2xla::TensorId &id = *entry.mutable_id();
    for (const auto &keyed : entries) {
      if (id.output_index() != 0 || id.node_name() != keyed.name())
        continue;
      if (entry.name().empty())
        entry.set_name(keyed.name());
      id = keyed.id();
      return true;
    }
    if (isGraphName(id.node_name(), nodes))
      return true;
    std::vector<std::vector<std::string>> candidates;
    llvm::StringSet<> listed;
    for (const auto &keyed : entries) {
      candidates.push_back({tensorName(keyed.id()), keyed.name()});
      listed.insert(keyed.id().node_name());
    }
    for (const NodeDef &node : graph.node())
      if (!listed.contains(node.name()))
        candidates.push_back({node.name()});
    diags.error(kind.str() + " '" + tensorName(id) +
                "' is neither a signature key nor a node of the SavedModel" +
                suggestNames(id.node_name(), candidates));
    return false;
  };
  bool ok = true;
  for (auto &feed : *config.mutable_feed())
    ok &= resolve(feed, signature.feed(), "feed");
  for (auto &fetch : *config.mutable_fetch())
    ok &= resolve(fetch, signature.fetch(), "fetch");
  return ok;
}

/// What pruning keeps: the user's fetches (else the signature's outputs)
/// and every feed, so the importer still finds them.
static std::vector<std::string>
pruneRoots(const tensorflow::tf2xla::Config &user,
           const tensorflow::tf2xla::Config &signature) {
  std::vector<std::string> nodes;
  for (const auto &fetch : (user.fetch().empty() ? signature : user).fetch())
    nodes.push_back(fetch.id().node_name());
  for (const auto *config : {&user, &signature})
    for (const auto &feed : config->feed())
      nodes.push_back(feed.id().node_name());
  return nodes;
}

/// Rewrites fetches of inlined call outputs to the tensors computing them;
/// an unnamed fetch keeps the name it would have had ("call", "call_1").
static void resolveFetches(tensorflow::tf2xla::Config &config,
                           const InlinedOutputs &outputs) {
  for (auto &fetch : *config.mutable_fetch()) {
    auto *id = fetch.mutable_id();
    if (fetch.name().empty())
      fetch.set_name(id->output_index() ? id->node_name() + "_" +
                                              std::to_string(id->output_index())
                                        : id->node_name());
    std::string resolved = outputs.resolve(
        id->node_name() + ":" + std::to_string(id->output_index()));
    TensorName tensor = splitTensorName(resolved);
    id->set_node_name(tensor.node.str());
    id->set_output_index(tensor.index);
  }
}

static bool isVariable(const NodeDef &node) {
  return node.op() == "VarHandleOp" || node.op() == "VariableV2" ||
         node.op() == "Variable";
}

/// Variable nodes of the (not yet inlined) graph -> the ids of the objects
/// they stand for: a call of a TF2 concrete function passes the variables it
/// captures as its last inputs, in the order of the function's bound_inputs.
/// This holds where names do not (two variables saved under one name).
static llvm::StringMap<int>
capturedObjectIds(const tensorflow::GraphDef &graph,
                  const tensorflow::SavedObjectGraph &objects) {
  llvm::StringMap<const NodeDef *> byName;
  for (const NodeDef &node : graph.node())
    byName[node.name()] = &node;
  llvm::StringMap<int> ids;
  for (const NodeDef &call : graph.node()) {
    auto f = call.attr().find("f");
    if (f == call.attr().end())
      continue;
    auto fn = objects.concrete_functions().find(f->second.func().name());
    if (fn == objects.concrete_functions().end())
      continue;
    std::vector<std::string> args;
    for (const std::string &input : call.input())
      if (!llvm::StringRef(input).starts_with("^"))
        args.push_back(nodeOfInput(input).str());
    const auto &bound = fn->second.bound_inputs();
    if (args.size() < size_t(bound.size()))
      continue;
    for (int j = 0; j < bound.size(); ++j) {
      auto arg = byName.find(args[args.size() - bound.size() + j]);
      if (arg != byName.end() && isVariable(*arg->second))
        ids[arg->getKey()] = bound[j];
    }
  }
  return ids;
}

namespace {
/// Replaces variables by constants read from the SavedModel's bundle.
class VariableFreezer {
public:
  /// `capturedObjects` maps variable nodes to their object ids (see
  /// capturedObjectIds).
  VariableFreezer(std::string dir, llvm::StringMap<int> capturedObjects,
                  GraphDiagnostics &diags)
      : dir_(std::move(dir)), capturedObjects_(std::move(capturedObjects)),
        diags_(diags) {}

  bool run(tensorflow::GraphDef &graph);

private:
  bool openBundle();
  std::optional<std::string> keyOf(const NodeDef &variable);

  std::string dir_;
  llvm::StringMap<int> capturedObjects_;
  GraphDiagnostics &diags_;
  std::optional<TensorBundle> bundle_;
  /// From the checkpoint's object graph: variable name -> bundle key, and
  /// object id -> bundle key ("" for objects that are no variable).
  llvm::StringMap<std::string> objectKeys_;
  std::vector<std::string> objectIdKeys_;
};
} // namespace

/// The dimensions of `shape`, or nullopt when any is unknown.
static std::optional<llvm::SmallVector<int64_t>>
knownShape(const tensorflow::TensorShapeProto &shape) {
  llvm::SmallVector<int64_t> dims;
  for (const auto &dim : shape.dim())
    dims.push_back(dim.size());
  if (shape.unknown_rank() || llvm::is_contained(dims, -1))
    return std::nullopt;
  return dims;
}

bool VariableFreezer::openBundle() {
  if (bundle_)
    return true;
  llvm::SmallString<256> prefix(dir_);
  llvm::sys::path::append(prefix, "variables", "variables");
  bundle_ = TensorBundle::open(prefix.str().str(), diags_);
  if (!bundle_)
    return false;
  if (!bundle_->contains(objectGraphKey))
    return true;
  auto serialized = bundle_->readString(objectGraphKey, diags_);
  tensorflow::TrackableObjectGraph objects;
  if (!serialized || !objects.ParseFromString(*serialized)) {
    if (serialized)
      diags_.error("'" + bundle_->indexPath() + "': tensor '" +
                   objectGraphKey + "' is not a TrackableObjectGraph");
    return false;
  }
  objectIdKeys_.resize(objects.nodes_size());
  for (auto [id, object] : llvm::enumerate(objects.nodes()))
    for (const auto &attribute : object.attributes())
      if (attribute.name() == "VARIABLE_VALUE") {
        objectKeys_[attribute.full_name()] = attribute.checkpoint_key();
        objectIdKeys_[id] = attribute.checkpoint_key();
      }
  return true;
}

/// The bundle key holding `variable`'s value: through the object the
/// SavedModel captures it as, else the object graph's variable names, else
/// the shared_name or node name as TF1 checkpoints key them.
std::optional<std::string> VariableFreezer::keyOf(const NodeDef &variable) {
  if (auto it = capturedObjects_.find(variable.name());
      it != capturedObjects_.end() && it->second >= 0 &&
      size_t(it->second) < objectIdKeys_.size() &&
      !objectIdKeys_[it->second].empty())
    return objectIdKeys_[it->second];
  std::vector<std::string> names;
  if (auto it = variable.attr().find("shared_name");
      it != variable.attr().end() && !it->second.s().empty())
    names.push_back(it->second.s());
  names.push_back(variable.name());
  for (const std::string &name : names)
    if (auto it = objectKeys_.find(name); it != objectKeys_.end())
      return it->second;
  for (const std::string &name : names)
    if (bundle_->contains(name))
      return name;
  diags_.nodeError(variable.name(), variable.op(),
                   "variable '" + names.front() + "' has no value in '" +
                       bundle_->indexPath() + "'");
  return std::nullopt;
}

bool VariableFreezer::run(tensorflow::GraphDef &graph) {
  llvm::StringMap<std::string> frozen; // Variable node -> its bundle key.
  for (NodeDef &node : *graph.mutable_node()) {
    if (!isVariable(node))
      continue;
    if (!openBundle())
      return false;
    auto key = keyOf(node);
    if (!key)
      return false;
    auto value = bundle_->readTensor(*key, diags_);
    if (!value)
      return false;
    auto dtype = node.attr().find("dtype");
    if (dtype != node.attr().end() && dtype->second.type() != value->dtype()) {
      diags_.nodeError(node.name(), node.op(),
                       "variable has dtype " +
                           tensorflow::DataType_Name(dtype->second.type()) +
                           " but its checkpoint value '" + *key + "' has " +
                           tensorflow::DataType_Name(value->dtype()));
      return false;
    }
    if (auto shape = node.attr().find("shape"); shape != node.attr().end()) {
      std::optional<llvm::SmallVector<int64_t>> declared =
          knownShape(shape->second.shape());
      std::optional<llvm::SmallVector<int64_t>> stored =
          knownShape(value->tensor_shape());
      if (declared && stored && *declared != *stored) {
        diags_.nodeError(node.name(), node.op(),
                         "variable has shape " + showShape(*declared) +
                             " but its checkpoint value '" + *key +
                             "' has shape " + showShape(*stored));
        return false;
      }
    }
    NodeDef constant;
    constant.set_name(node.name());
    constant.set_op("Const");
    (*constant.mutable_attr())["dtype"].set_type(value->dtype());
    *(*constant.mutable_attr())["value"].mutable_tensor() = std::move(*value);
    node = std::move(constant);
    frozen[node.name()] = *key;
  }
  // Reads become Identity; any other use of a variable would need state.
  for (NodeDef &node : *graph.mutable_node()) {
    for (const std::string &input : node.input()) {
      if (llvm::StringRef(input).starts_with("^") ||
          !frozen.count(nodeOfInput(input)))
        continue;
      if (node.op() == "ReadVariableOp") {
        auto &attrs = *node.mutable_attr();
        tensorflow::AttrValue dtype = attrs["dtype"];
        node.set_op("Identity");
        attrs.erase("dtype");
        attrs["T"] = dtype;
      } else if (node.op() != "Identity") {
        diags_.nodeError(node.name(), node.op(),
                         "uses variable '" + nodeOfInput(input) +
                             "' other than by reading it (ReadVariableOp or "
                             "Identity), which a frozen graph cannot do");
        return false;
      }
    }
  }
  return true;
}

std::optional<tensorflow::SavedModel>
tfaot::readSavedModel(const std::string &dir, GraphDiagnostics &diags) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "saved_model.pb");
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    diags.error("cannot read '" + path + "': " + buffer.getError().message() +
                " (a SavedModel directory holds saved_model.pb)");
    return std::nullopt;
  }
  tensorflow::SavedModel model;
  {
    google::protobuf::LogSilencer quiet;
    if ((*buffer)->getBufferSize() > size_t(INT32_MAX) ||
        !model.ParseFromArray((*buffer)->getBufferStart(),
                              int((*buffer)->getBufferSize()))) {
      diags.error("cannot parse '" + path + "' as a SavedModel");
      return std::nullopt;
    }
  }
  return model;
}

std::optional<tensorflow::GraphDef>
tfaot::loadSavedModel(const std::string &dir, const std::string &signature,
                      tensorflow::tf2xla::Config &config,
                      GraphDiagnostics &diags,
                      tensorflow::tf2xla::Config *signatureConfig) {
  std::optional<tensorflow::SavedModel> model = readSavedModel(dir, diags);
  if (!model)
    return std::nullopt;
  return loadSavedModel(*model, dir, signature, config, diags,
                        signatureConfig);
}

std::optional<tensorflow::GraphDef>
tfaot::loadSavedModel(const tensorflow::SavedModel &model,
                      const std::string &dir, const std::string &signature,
                      tensorflow::tf2xla::Config &config,
                      GraphDiagnostics &diags,
                      tensorflow::tf2xla::Config *signatureConfig) {
  const tensorflow::MetaGraphDef *meta = pickMetaGraph(model, diags);
  if (!meta)
    return std::nullopt;
  std::string signatureName;
  const tensorflow::SignatureDef *chosen =
      pickSignature(*meta, signature, signatureName, diags);
  if (diags.hasErrors())
    return std::nullopt;
  tensorflow::tf2xla::Config fromSignature;
  if (chosen &&
      !signatureToConfig(*chosen, signatureName, fromSignature, diags))
    return std::nullopt;

  tensorflow::GraphDef graph = meta->graph_def();
  if (!resolveSignatureKeys(config, fromSignature, graph, diags))
    return std::nullopt;
  prune(graph, pruneRoots(config, fromSignature));
  llvm::StringMap<int> capturedObjects =
      capturedObjectIds(graph, meta->object_graph_def());
  InlinedOutputs outputs;
  if (!inlineFunctionCalls(graph, &meta->meta_info_def().stripped_op_list(),
                           diags, outputs))
    return std::nullopt;
  resolveFetches(config, outputs);
  resolveFetches(fromSignature, outputs);
  prune(graph, pruneRoots(config, fromSignature));
  if (!VariableFreezer(dir, std::move(capturedObjects), diags).run(graph))
    return std::nullopt;
  if (signatureConfig)
    *signatureConfig = std::move(fromSignature);
  return graph;
}
