//===- Show.cpp - tfaot show: what a graph takes and gives ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See Show.h. Inputs and outputs come from the model's signature where it
// has one (a SavedModel's SignatureDef, a TF.js model's "signature"), else
// from the graph: its Placeholders, and the nodes no other node reads.
//
//===----------------------------------------------------------------------===//
#include "compiler/Show.h"

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/GraphImporter.h"
#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/SavedModelLoader.h"
#include "compiler/frontend/TfjsLoader.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace tfaot;

namespace {

std::optional<std::vector<int64_t>>
shapeOf(const tensorflow::TensorShapeProto &proto) {
  if (proto.unknown_rank())
    return std::nullopt;
  std::vector<int64_t> dims;
  for (const auto &dim : proto.dim())
    dims.push_back(dim.size() < 0 ? -1 : dim.size());
  return dims;
}

ShownTensor tensorNamed(llvm::StringRef tensorName) {
  ShownTensor t;
  t.tensor = tensorName.str();
  TensorName split = splitTensorName(tensorName);
  t.node = split.node.str();
  t.index = split.index;
  if (!tensorName.contains(':'))
    t.tensor += ":0";
  return t;
}

/// Ops whose unread nodes are no outputs: they only exist for their
/// effect on state or the runtime, or hold values.
bool isSinkOnly(llvm::StringRef op) {
  static const llvm::StringSet<> ops = {
      "NoOp", "Const", "Assert", "Print", "PrintV2", "Placeholder",
      "PlaceholderWithDefault", "VariableV2", "Variable", "VarHandleOp",
      "Assign", "AssignAdd", "AssignSub", "AssignVariableOp",
      "VarIsInitializedOp", "SaveV2", "Save", "SaveSlices", "RestoreV2",
      "Restore", "MergeV2Checkpoints", "_Send"};
  return ops.contains(op);
}

/// A plain GraphDef: Placeholders in, unread nodes out.
void inputsAndOutputsOfGraph(const tensorflow::GraphDef &graph,
                             ShowReport &report) {
  report.ioSource = "graph";
  for (const tensorflow::NodeDef &node : graph.node()) {
    if (node.op() == "Placeholder") {
      ShownTensor t = tensorNamed(node.name());
      t.name = node.name();
      auto attr = node.attr().find("dtype");
      if (attr != node.attr().end())
        t.dtype = attr->second.type();
      attr = node.attr().find("shape");
      if (attr != node.attr().end())
        t.shape = shapeOf(attr->second.shape());
      report.inputs.push_back(std::move(t));
    }
  }
  report.outputs = unreadOutputs(graph);
}

/// A TF.js model's signature (as the loader turned it into feeds and
/// fetches).
void inputsAndOutputsOfConfig(const tensorflow::tf2xla::Config &config,
                              const tensorflow::GraphDef &graph,
                              ShowReport &report) {
  report.ioSource = "signature";
  llvm::StringMap<std::string> opOf;
  for (const tensorflow::NodeDef &node : graph.node())
    opOf[node.name()] = node.op();
  auto fromId = [&](const tensorflow::tf2xla::TensorId &id,
                    const std::string &name) {
    ShownTensor t = tensorNamed(id.node_name() + ":" +
                                std::to_string(id.output_index()));
    t.name = name.empty() ? id.node_name() : name;
    t.op = opOf.lookup(id.node_name());
    return t;
  };
  for (const auto &feed : config.feed()) {
    ShownTensor t = fromId(feed.id(), feed.name());
    t.op.clear(); // Placeholder, always.
    t.dtype = feed.type();
    t.shape = feed.has_shape() ? shapeOf(feed.shape()) : std::nullopt;
    report.inputs.push_back(std::move(t));
  }
  for (const auto &fetch : config.fetch())
    report.outputs.push_back(fromId(fetch.id(), fetch.name()));
}

/// A SavedModel: its tags, all signatures, and the chosen one's tensors by
/// key as the SignatureDef declares them.
bool describeSavedModel(const tensorflow::SavedModel &model,
                        const std::string &wanted, ShowReport &report,
                        GraphDiagnostics &diags) {
  const tensorflow::MetaGraphDef *meta = pickMetaGraph(model, diags);
  if (!meta)
    return false;
  report.tags.assign(meta->meta_info_def().tags().begin(),
                     meta->meta_info_def().tags().end());
  std::string defaultName = defaultSignatureName(*meta);
  for (const std::string &name : signatureNames(*meta)) {
    ShownSignature sig{name, name == defaultName, {}, {}};
    const tensorflow::SignatureDef &def = meta->signature_def().at(name);
    for (const auto &[key, info] : def.inputs())
      sig.inputs.push_back(key);
    for (const auto &[key, info] : def.outputs())
      sig.outputs.push_back(key);
    llvm::sort(sig.inputs);
    llvm::sort(sig.outputs);
    report.signatures.push_back(std::move(sig));
  }
  report.signature = wanted.empty() ? defaultName : wanted;
  auto chosen = meta->signature_def().find(report.signature);
  if (chosen == meta->signature_def().end())
    return true; // loadModel says why (or there is no signature at all).
  report.ioSource = "signature";
  auto add = [](const auto &map, std::vector<ShownTensor> &to) {
    std::vector<std::string> keys;
    for (const auto &[key, info] : map)
      keys.push_back(key);
    llvm::sort(keys);
    for (const std::string &key : keys) {
      const tensorflow::TensorInfo &info = map.at(key);
      ShownTensor t = tensorNamed(info.name());
      t.name = key;
      t.dtype = info.dtype();
      t.shape = info.has_tensor_shape() ? shapeOf(info.tensor_shape())
                                        : std::nullopt;
      to.push_back(std::move(t));
    }
  };
  add(chosen->second.inputs(), report.inputs);
  add(chosen->second.outputs(), report.outputs);
  return true;
}

/// The --feed/--fetch flags that compile the graph: -1 dimensions become 1.
void suggestFlags(ShowReport &report, bool fromSignature) {
  if (!report.signature.empty() && !report.signatures.empty() &&
      !llvm::any_of(report.signatures, [&](const ShownSignature &s) {
        return s.isDefault && s.name == report.signature;
      }))
    report.flags.push_back("--signature " + report.signature);
  bool unknownDims = false, unknownRank = false;
  for (const ShownTensor &in : report.inputs) {
    unknownRank |= !in.shape;
    if (in.shape)
      unknownDims |= llvm::is_contained(*in.shape, -1);
  }
  // A signature with every shape known needs no flags at all.
  if (fromSignature && !unknownDims && !unknownRank) {
    report.notes.push_back("the signature gives the feeds and fetches: "
                           "compile needs no --feed or --fetch");
    return;
  }
  for (const ShownTensor &in : report.inputs) {
    std::string dims = "SHAPE";
    if (in.shape) {
      dims.clear();
      for (int64_t d : *in.shape)
        dims += (dims.empty() ? "" : ",") + std::to_string(d < 0 ? 1 : d);
    } else {
      report.notes.push_back("'" + in.name + "' has no known rank: replace "
                             "SHAPE by its dimensions, e.g. 1,224,224,3");
    }
    std::string flag = "--feed " + in.node + ":" + dims;
    if (in.dtype != tensorflow::DT_INVALID)
      flag += ":" + dataTypeName(in.dtype);
    report.flags.push_back(flag);
  }
  if (unknownDims)
    report.notes.push_back("unknown (-1) dimensions are set to 1 above: "
                           "give the sizes you need in --feed, or batch "
                           "sizes with --batch");
  if (fromSignature) {
    report.notes.push_back("the outputs are the signature's: no --fetch "
                           "needed");
    return;
  }
  for (const ShownTensor &out : report.outputs)
    report.flags.push_back("--fetch " + out.node +
                           (out.index ? ":" + std::to_string(out.index) : ""));
  if (report.outputs.empty())
    report.notes.push_back("no node looks like an output: name the ones you "
                           "want with --fetch");
}

/// Imports the graph with the suggested flags, as compile would: proves
/// they work and gives each output's dtype and shape.
void importWithFlags(const tensorflow::GraphDef &graph,
                     const tensorflow::tf2xla::Config &signatureConfig,
                     ShowReport &report) {
  std::string messages;
  llvm::raw_string_ostream os(messages);
  GraphDiagnostics diags(report.graph, os);
  diags.setQuiet(true);
  tensorflow::tf2xla::Config config;
  for (const std::string &flag : report.flags) {
    llvm::StringRef value = llvm::StringRef(flag).split(' ').second;
    if (llvm::StringRef(flag).starts_with("--feed"))
      addFeedFlag(value.str(), config, diags);
    else if (llvm::StringRef(flag).starts_with("--fetch"))
      addFetchFlag(value.str(), config, diags);
  }
  FunctionSignature signature;
  if (!diags.hasErrors() && (!config.fetch().empty() ||
                             !signatureConfig.fetch().empty())) {
    applyTfjsSignature(signatureConfig, config, diags);
    mlir::MLIRContext context;
    importGraph(graph, config, ImportOptions(), &context, diags, signature);
  }
  report.imported = !diags.hasErrors() &&
                    signature.results.size() == report.outputs.size();
  if (report.imported) {
    // The compiled names are what the header and `tfaot run` use.
    for (size_t i = 0; i < report.outputs.size(); ++i) {
      report.outputs[i].name = signature.results[i].name;
      report.outputs[i].dtype = signature.results[i].dtype;
      report.outputs[i].shape = signature.results[i].shape;
    }
    if (signature.args.size() == report.inputs.size())
      for (size_t i = 0; i < report.inputs.size(); ++i)
        report.inputs[i].name = signature.args[i].name;
    return;
  }
  llvm::StringRef first = llvm::StringRef(messages).split('\n').first;
  first.consume_front(report.graph + ": error: ");
  report.importError = first.empty() ? "nothing to fetch" : first.str();
}

std::string describeShape(const ShownTensor &t) {
  return t.shape ? showShape(*t.shape) : std::string("?");
}

std::string describeType(const ShownTensor &t) {
  return t.dtype == tensorflow::DT_INVALID ? std::string("?")
                                           : dataTypeName(t.dtype);
}

void printTensors(llvm::StringRef title, const std::vector<ShownTensor> &list,
                  llvm::raw_ostream &out) {
  out << title << ":\n";
  if (list.empty())
    out << "  (none)\n";
  for (const ShownTensor &t : list) {
    out << llvm::format("  %-24s %-8s %-16s tensor %s", t.name.c_str(),
                        describeType(t).c_str(), describeShape(t).c_str(),
                        t.tensor.c_str());
    if (!t.op.empty())
      out << " (" << t.op << ")";
    out << "\n";
  }
}

llvm::json::Array tensorsToJson(const std::vector<ShownTensor> &list) {
  llvm::json::Array array;
  for (const ShownTensor &t : list) {
    llvm::json::Object entry{{"name", t.name},
                             {"tensor", t.tensor},
                             {"node", t.node},
                             {"dtype", t.dtype == tensorflow::DT_INVALID
                                           ? llvm::json::Value(nullptr)
                                           : dataTypeName(t.dtype)}};
    entry["shape"] = t.shape ? llvm::json::Value(llvm::json::Array(*t.shape))
                             : llvm::json::Value(nullptr);
    if (!t.op.empty())
      entry["op"] = t.op;
    array.push_back(std::move(entry));
  }
  return array;
}

void printJson(const ShowReport &r, llvm::raw_ostream &out) {
  llvm::json::Array signatures, unsupported;
  for (const ShownSignature &s : r.signatures)
    signatures.push_back(llvm::json::Object{
        {"name", s.name},
        {"default", s.isDefault},
        {"inputs", llvm::json::Array(s.inputs)},
        {"outputs", llvm::json::Array(s.outputs)}});
  for (const std::string &op : r.ops.unsupported)
    unsupported.push_back(op);
  llvm::json::Object root{
      {"graph", r.graph},
      {"format", r.format},
      {"inputs_from", r.ioSource},
      {"inputs", tensorsToJson(r.inputs)},
      {"outputs", tensorsToJson(r.outputs)},
      {"outputs_imported", r.imported},
      {"nodes", r.ops.nodes},
      {"function_nodes", r.ops.functionNodes},
      {"ops", opsToJson(r.ops)},
      {"unsupported", std::move(unsupported)},
      {"flags", llvm::json::Array(r.flags)},
      {"notes", llvm::json::Array(r.notes)}};
  if (!r.importError.empty())
    root["import_error"] = r.importError;
  if (r.format == "SavedModel") {
    root["tags"] = llvm::json::Array(r.tags);
    root["signature"] = r.signature;
    root["signatures"] = std::move(signatures);
  }
  out << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

void printText(const ShowReport &r, llvm::raw_ostream &out) {
  out << r.graph << ": " << r.format;
  if (!r.tags.empty())
    out << ", tags [" << llvm::join(r.tags, ",") << "]";
  out << ", " << r.ops.nodes << " nodes, " << r.ops.ops.size() << " ops"
      << (r.ops.unsupported.empty()
              ? std::string(" (all supported)")
              : ", " + std::to_string(r.ops.unsupported.size()) +
                    " unsupported")
      << "\n";
  if (!r.signatures.empty()) {
    out << "\nsignatures:\n";
    for (const ShownSignature &s : r.signatures)
      out << "  " << s.name << (s.isDefault ? " (default)" : "") << ": "
          << llvm::join(s.inputs, ", ") << " -> "
          << llvm::join(s.outputs, ", ") << "\n";
  }
  out << "\n";
  if (!r.signature.empty())
    out << "signature " << r.signature << "\n";
  printTensors(r.ioSource == "signature" ? "inputs (the signature's)"
                                         : "inputs (Placeholders)",
               r.inputs, out);
  printTensors(r.ioSource == "signature" ? "outputs (the signature's)"
                                         : "outputs (nodes no node reads)",
               r.outputs, out);
  if (r.imported)
    out << "(output dtypes and shapes: as compiled with the flags below)\n";
  else
    out << "(output dtypes and shapes unknown: importing with the flags "
           "below failed: "
        << r.importError << ")\n";
  out << (r.format == "SavedModel"
              ? "\nops (as compiled: functions inlined, variables frozen):\n"
              : "\nops:\n");
  printOpTable(r.ops, out);
  out << "\ncompile with:\n";
  if (!r.flags.empty())
    out << "  " << llvm::join(r.flags, " ") << "\n";
  for (const std::string &note : r.notes)
    out << "  (" << note << ")\n";
}

} // namespace

std::vector<ShownTensor> tfaot::unreadOutputs(const tensorflow::GraphDef &graph) {
  llvm::StringSet<> read;
  for (const tensorflow::NodeDef &node : graph.node())
    for (const std::string &input : node.input())
      read.insert(nodeOfInput(input));
  std::vector<ShownTensor> outputs;
  for (const tensorflow::NodeDef &node : graph.node()) {
    if (read.contains(node.name()) || isSinkOnly(node.op()))
      continue;
    ShownTensor t = tensorNamed(node.name());
    t.name = node.name();
    t.op = node.op();
    outputs.push_back(std::move(t));
  }
  return outputs;
}

bool tfaot::buildShowReport(const std::string &graphPath,
                            const std::string &signature, ShowReport &report,
                            llvm::raw_ostream &errs) {
  GraphDiagnostics diags(graphPath, errs);
  // What the loader would warn about (feeds it assumes), show prints.
  diags.setQuiet(true);
  if (graphPath.empty()) {
    diags.error("no graph: give --graph model.pb");
    return false;
  }
  report.graph = graphPath;
  bool savedModel = llvm::sys::fs::is_directory(graphPath);
  report.format = savedModel ? "SavedModel"
                  : llvm::StringRef(graphPath).ends_with_insensitive(".json")
                      ? "TF.js graph model"
                      : "GraphDef";
  // saved_model.pb is read once, for the description and the graph.
  std::optional<tensorflow::SavedModel> model;
  if (savedModel) {
    model = readSavedModel(graphPath, diags);
    if (!model || !describeSavedModel(*model, signature, report, diags))
      return false;
  }
  tensorflow::tf2xla::Config noConfig, signatureConfig;
  auto graph = model ? loadSavedModel(*model, graphPath, signature, noConfig,
                                      diags, &signatureConfig)
                     : loadModel(graphPath, signature, noConfig, diags,
                                 &signatureConfig);
  if (!graph)
    return false;
  report.ops = summarizeOps(*graph);
  // A signature without outputs is none: a TF.js model without one gets
  // its Placeholders as feeds from the loader, which the graph also gives.
  bool fromSignature = !signatureConfig.fetch().empty();
  if (!savedModel && fromSignature)
    inputsAndOutputsOfConfig(signatureConfig, *graph, report);
  else if (report.ioSource.empty())
    inputsAndOutputsOfGraph(*graph, report);
  suggestFlags(report, fromSignature);
  importWithFlags(*graph, signatureConfig, report);
  return true;
}

int tfaot::showGraph(const std::string &graphPath, const std::string &signature,
                     bool json, llvm::raw_ostream &out,
                     llvm::raw_ostream &errs) {
  ShowReport report;
  if (!buildShowReport(graphPath, signature, report, errs))
    return 1;
  if (json)
    printJson(report, out);
  else
    printText(report, out);
  return 0;
}
