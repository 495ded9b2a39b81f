//===- write_savedmodel.cpp - SavedModel directories for tests ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-write-savedmodel KIND DIR writes a small SavedModel the way
// TensorFlow lays it out, so tests need no TensorFlow install. Every model
// computes scores = relu(x . W + b) with
//   x: float[2,3] (signature input "x"),
//   W = [[1,-1],[2,0],[0.5,0.5]], b = [0.25,0.5],
// so for x = [[1,2,3],[0,-1,2]] the scores are [[6.75,1],[0,1.5]].
// KIND:
//   tf2          TF2 layout: VarHandleOps captured by a StatefulPartitionedCall
//                of a signature wrapper that calls the layer's function; the
//                SavedModel's object graph says which objects the wrapper
//                captures, the checkpoint's which keys those objects have
//                (the handles' shared_names, "dense/kernel_1", match
//                nothing, as when TF uniquifies a repeated variable name);
//   tf2-names    tf2 without the SavedModel's object graph: the handles'
//                shared_names are the variables' names in the checkpoint's;
//   tf1          TF1 layout: VariableV2 + Identity, keys are variable names,
//                saver and Assign nodes around;
//   multishard   tf1 with W and b in two data shards;
//   truncated, badcrc, badindex, missingshard, sliced, missingvar:
//                tf1 (missingshard: multishard) with one defect each;
//   bundle       only DIR/variables, TF2-style, for a saved_model.pb from
//                elsewhere: each further argument NAME=v0,v1,... stores the
//                float[n] variable NAME under NAME/.ATTRIBUTES/VARIABLE_VALUE
//                (NAME[]=v: a scalar).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TensorBundle.h"
#include "compiler/proto/saved_model.pb.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using tensorflow::NodeDef;

namespace {
/// One tensor to store: its key, dtype, shape, raw bytes and shard.
struct StoredTensor {
  tensorflow::DataType dtype;
  std::vector<int64_t> shape;
  std::string bytes;
  int shard = 0;
  bool sliced = false;
};
} // namespace

static void putVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out += char(value | 0x80);
    value >>= 7;
  }
  out += char(value);
}

static void putFixed32(std::string &out, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out += char(value >> (8 * i));
}

/// A LevelDB block holding `entries` (no prefix compression, one restart
/// point), appended to `file` with its trailer. Returns its handle.
static std::string appendBlock(std::string &file,
                               const std::map<std::string, std::string> &entries) {
  std::string block;
  for (const auto &[key, value] : entries) {
    putVarint(block, 0);
    putVarint(block, key.size());
    putVarint(block, value.size());
    block += key + value;
  }
  putFixed32(block, 0); // restart offset
  putFixed32(block, 1); // restart count
  std::string handle;
  putVarint(handle, file.size());
  putVarint(handle, block.size());
  file += block;
  file += char(0); // uncompressed
  putFixed32(file, tfaot::maskCrc32c(tfaot::crc32c(block + char(0))));
  return handle;
}

static std::string buildIndex(const std::map<std::string, std::string> &entries) {
  std::string file;
  std::string data = appendBlock(file, entries);
  std::string meta = appendBlock(file, {});
  std::string index = appendBlock(file, {{entries.rbegin()->first, data}});
  std::string footer = meta + index;
  footer.resize(40, '\0');
  for (int i = 0; i < 8; ++i)
    footer += char(0xdb4775248b80fb57ull >> (8 * i));
  return file + footer;
}

static void writeFile(const std::filesystem::path &path,
                      const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

/// Writes DIR/variables/variables.{index,data-*}.
static void writeBundle(const std::filesystem::path &dir,
                        const std::map<std::string, StoredTensor> &tensors,
                        int numShards) {
  std::filesystem::create_directories(dir / "variables");
  std::vector<std::string> shards(numShards);
  std::map<std::string, std::string> entries;
  tensorflow::BundleHeaderProto header;
  header.set_num_shards(numShards);
  header.mutable_version()->set_producer(1);
  entries[""] = header.SerializeAsString();
  for (const auto &[key, tensor] : tensors) {
    tensorflow::BundleEntryProto entry;
    entry.set_dtype(tensor.dtype);
    for (int64_t dim : tensor.shape)
      entry.mutable_shape()->add_dim()->set_size(dim);
    entry.set_shard_id(tensor.shard);
    entry.set_offset(shards[tensor.shard].size());
    entry.set_size(tensor.bytes.size());
    entry.set_crc32c(tfaot::maskCrc32c(tfaot::crc32c(tensor.bytes)));
    if (tensor.sliced)
      entry.add_slices()->add_extent()->set_length(1);
    shards[tensor.shard] += tensor.bytes;
    entries[key] = entry.SerializeAsString();
  }
  writeFile(dir / "variables" / "variables.index", buildIndex(entries));
  for (int i = 0; i < numShards; ++i) {
    char name[64];
    std::snprintf(name, sizeof(name), "variables.data-%05d-of-%05d", i,
                  numShards);
    writeFile(dir / "variables" / name, shards[i]);
  }
}

static std::string floatBytes(std::initializer_list<float> values) {
  std::string bytes;
  for (float v : values)
    bytes.append(reinterpret_cast<const char *>(&v), sizeof(v));
  return bytes;
}

static StoredTensor kernel() {
  return {tensorflow::DT_FLOAT, {3, 2}, floatBytes({1, -1, 2, 0, 0.5, 0.5})};
}
static StoredTensor bias() {
  return {tensorflow::DT_FLOAT, {2}, floatBytes({0.25, 0.5})};
}

//===----------------------------------------------------------------------===//
// Graph building
//===----------------------------------------------------------------------===//

static NodeDef &addNode(google::protobuf::RepeatedPtrField<NodeDef> &nodes,
                        const std::string &name, const std::string &op,
                        std::initializer_list<std::string> inputs = {}) {
  NodeDef &node = *nodes.Add();
  node.set_name(name);
  node.set_op(op);
  for (const std::string &input : inputs)
    node.add_input(input);
  return node;
}

static void setType(NodeDef &node, const char *attr,
                    tensorflow::DataType type = tensorflow::DT_FLOAT) {
  (*node.mutable_attr())[attr].set_type(type);
}

static void setShape(NodeDef &node, std::initializer_list<int64_t> dims) {
  auto *shape = (*node.mutable_attr())["shape"].mutable_shape();
  for (int64_t dim : dims)
    shape->add_dim()->set_size(dim);
}

static void setString(NodeDef &node, const char *attr, const std::string &s) {
  (*node.mutable_attr())[attr].set_s(s);
}

static NodeDef &addPlaceholder(google::protobuf::RepeatedPtrField<NodeDef> &nodes,
                               const std::string &name) {
  NodeDef &x = addNode(nodes, name, "Placeholder");
  setType(x, "dtype");
  setShape(x, {2, 3});
  return x;
}

/// A signature "x" -> `input`, "scores" -> `output`.
static void addSignature(tensorflow::MetaGraphDef &meta,
                         const std::string &input, const std::string &output) {
  tensorflow::SignatureDef &sig = (*meta.mutable_signature_def())["serving_default"];
  tensorflow::TensorInfo &x = (*sig.mutable_inputs())["x"];
  x.set_name(input);
  x.set_dtype(tensorflow::DT_FLOAT);
  x.mutable_tensor_shape()->add_dim()->set_size(2);
  x.mutable_tensor_shape()->add_dim()->set_size(3);
  tensorflow::TensorInfo &y = (*sig.mutable_outputs())["scores"];
  y.set_name(output);
  y.set_dtype(tensorflow::DT_FLOAT);
  sig.set_method_name("tensorflow/serving/predict");
  // TF's own init-op signature, which is never a model's.
  (*meta.mutable_signature_def())["__saved_model_init_op"];
}

/// TF1: VariableV2 read through Identity; the saver's restore and Assign
/// nodes hang off the variables but no fetch needs them.
static tensorflow::SavedModel tf1Model() {
  tensorflow::SavedModel model;
  tensorflow::MetaGraphDef &meta = *model.add_meta_graphs();
  meta.mutable_meta_info_def()->add_tags("serve");
  auto &nodes = *meta.mutable_graph_def()->mutable_node();
  addPlaceholder(nodes, "x");
  for (const char *var : {"W", "b"}) {
    NodeDef &v = addNode(nodes, var, "VariableV2");
    setType(v, "dtype");
    if (std::string(var) == "W")
      setShape(v, {3, 2});
    else
      setShape(v, {2});
    setType(addNode(nodes, std::string(var) + "/read", "Identity", {var}), "T");
    setType(addNode(nodes, std::string(var) + "/Assign", "Assign",
                    {var, "save/RestoreV2"}),
            "T");
  }
  addNode(nodes, "save/RestoreV2", "RestoreV2", {"save/Const"});
  addNode(nodes, "save/Const", "Const");
  setType(addNode(nodes, "MatMul", "MatMul", {"x", "W/read"}), "T");
  setType(addNode(nodes, "BiasAdd", "BiasAdd", {"MatMul", "b/read"}), "T");
  setType(addNode(nodes, "y", "Relu", {"BiasAdd", "^W/Assign"}), "T");
  addSignature(meta, "x:0", "y:0");
  return model;
}

/// Adds an op definition to the stripped_op_list (what names its outputs).
static void addOpDef(tensorflow::MetaGraphDef &meta, const std::string &op,
                     std::initializer_list<const char *> outputs) {
  tensorflow::OpDef &def =
      *meta.mutable_meta_info_def()->mutable_stripped_op_list()->add_op();
  def.set_name(op);
  for (const char *out : outputs)
    def.add_output_arg()->set_name(out);
}

static tensorflow::FunctionDef &
addFunction(tensorflow::MetaGraphDef &meta, const std::string &name,
            std::initializer_list<const char *> args, const char *result) {
  tensorflow::FunctionDef &fn =
      *meta.mutable_graph_def()->mutable_library()->add_function();
  fn.mutable_signature()->set_name(name);
  for (const char *arg : args)
    fn.mutable_signature()->add_input_arg()->set_name(arg);
  fn.mutable_signature()->add_output_arg()->set_name(result);
  return fn;
}

static void setCall(NodeDef &call, const std::string &function) {
  (*call.mutable_attr())["f"].mutable_func()->set_name(function);
  (*call.mutable_attr())["Tout"].mutable_list()->add_type(tensorflow::DT_FLOAT);
}

/// TF2: the outer graph holds placeholders, VarHandleOps and a call of the
/// signature wrapper, which calls the layer's function; variables are
/// passed in as resource arguments.
static tensorflow::SavedModel tf2Model(bool withObjectGraph) {
  tensorflow::SavedModel model;
  tensorflow::MetaGraphDef &meta = *model.add_meta_graphs();
  meta.mutable_meta_info_def()->add_tags("serve");
  for (const char *op : {"ReadVariableOp"})
    addOpDef(meta, op, {"value"});
  addOpDef(meta, "MatMul", {"product"});
  addOpDef(meta, "BiasAdd", {"output"});
  addOpDef(meta, "Relu", {"activations"});
  addOpDef(meta, "Identity", {"output"});
  addOpDef(meta, "StatefulPartitionedCall", {"output"});

  auto &nodes = *meta.mutable_graph_def()->mutable_node();
  addPlaceholder(nodes, "serving_default_x");
  for (const char *var : {"dense/kernel", "dense/bias"}) {
    NodeDef &v = addNode(nodes, var, "VarHandleOp");
    setType(v, "dtype");
    setString(v, "shared_name",
              withObjectGraph ? std::string(var) + "_1" : var);
  }
  if (withObjectGraph) {
    // Object ids as tf2 numbers them in the checkpoint: root 0, the layer
    // 1, its kernel 2 and bias 3.
    auto &functions =
        *meta.mutable_object_graph_def()->mutable_concrete_functions();
    functions["__inference_signature_wrapper_42"].add_bound_inputs(2);
    functions["__inference_signature_wrapper_42"].add_bound_inputs(3);
  }
  setCall(addNode(nodes, "StatefulPartitionedCall", "StatefulPartitionedCall",
                  {"serving_default_x", "dense/kernel", "dense/bias"}),
          "__inference_signature_wrapper_42");
  // The saver's call: its function is not even in the library, so this
  // also checks that unneeded calls are pruned before inlining.
  NodeDef &filename = addNode(nodes, "saver_filename", "Placeholder");
  setType(filename, "dtype", tensorflow::DT_STRING);
  setCall(addNode(nodes, "StatefulPartitionedCall_1", "StatefulPartitionedCall",
                  {"saver_filename", "dense/kernel", "dense/bias"}),
          "__inference__traced_save_99");

  tensorflow::FunctionDef &wrapper =
      addFunction(meta, "__inference_signature_wrapper_42",
                  {"x", "unknown", "unknown_0"}, "scores");
  setCall(addNode(*wrapper.mutable_node_def(), "StatefulPartitionedCall",
                  "StatefulPartitionedCall", {"x", "unknown", "unknown_0"}),
          "__inference_dense_call_7");
  setType(addNode(*wrapper.mutable_node_def(), "Identity", "Identity",
                  {"StatefulPartitionedCall:output:0",
                   "^StatefulPartitionedCall"}),
          "T");
  (*wrapper.mutable_ret())["scores"] = "Identity:output:0";

  tensorflow::FunctionDef &layer =
      addFunction(meta, "__inference_dense_call_7",
                  {"inputs", "matmul_readvariableop_resource",
                   "biasadd_readvariableop_resource"},
                  "identity");
  auto &body = *layer.mutable_node_def();
  setType(addNode(body, "MatMul/ReadVariableOp", "ReadVariableOp",
                  {"matmul_readvariableop_resource"}),
          "dtype");
  setType(addNode(body, "MatMul", "MatMul",
                  {"inputs", "MatMul/ReadVariableOp:value:0"}),
          "T");
  setType(addNode(body, "BiasAdd/ReadVariableOp", "ReadVariableOp",
                  {"biasadd_readvariableop_resource"}),
          "dtype");
  setType(addNode(body, "BiasAdd", "BiasAdd",
                  {"MatMul:product:0", "BiasAdd/ReadVariableOp:value:0"}),
          "T");
  setType(addNode(body, "Relu", "Relu", {"BiasAdd:output:0"}), "T");
  setType(addNode(body, "Identity", "Identity",
                  {"Relu:activations:0", "^MatMul/ReadVariableOp"}),
          "T");
  (*layer.mutable_ret())["identity"] = "Identity:output:0";
  addSignature(meta, "serving_default_x:0", "StatefulPartitionedCall:0");
  return model;
}

/// A checkpoint object graph: the root's children are the variables
/// (variable name -> bundle key), under `path` when one is given.
static std::string
objectGraph(const std::vector<std::pair<std::string, std::string>> &variables,
            const std::string &path = "") {
  tensorflow::TrackableObjectGraph graph;
  graph.add_nodes();
  auto *parent = graph.mutable_nodes(0);
  if (!path.empty()) {
    auto *child = parent->add_children();
    child->set_node_id(1);
    child->set_local_name(path);
    graph.add_nodes();
    parent = graph.mutable_nodes(1);
  }
  for (const auto &[name, key] : variables) {
    auto *ref = parent->add_children();
    ref->set_node_id(graph.nodes_size());
    ref->set_local_name(name);
    auto *attribute = graph.add_nodes()->add_attributes();
    attribute->set_name("VARIABLE_VALUE");
    attribute->set_full_name(name);
    attribute->set_checkpoint_key(key);
  }
  return graph.SerializeAsString();
}

/// A scalar DT_STRING as a bundle stores it: length varint, the masked CRC
/// of the lengths, the bytes.
static StoredTensor stringTensor(const std::string &value) {
  std::string lengths;
  putVarint(lengths, value.size());
  std::string bytes = lengths;
  putFixed32(bytes, tfaot::maskCrc32c(tfaot::crc32c(lengths)));
  return {tensorflow::DT_STRING, {}, bytes + value};
}

int main(int argc, char **argv) {
  std::string kind = argc >= 3 ? argv[1] : "";
  if (argc < 3 || (argc > 3 && kind != "bundle")) {
    std::fprintf(stderr, "usage: %s KIND DIR | bundle DIR NAME=v0,v1,...\n",
                 argv[0]);
    return 1;
  }
  std::filesystem::path dir = argv[2];
  std::filesystem::create_directories(dir);
  std::map<std::string, StoredTensor> tensors;
  tensorflow::SavedModel model;
  int numShards = 1;
  const std::string valueKey = "/.ATTRIBUTES/VARIABLE_VALUE";
  if (kind == "bundle") {
    std::vector<std::pair<std::string, std::string>> variables;
    for (int i = 3; i < argc; ++i) {
      std::string spec = argv[i];
      size_t eq = spec.find('=');
      std::string name = spec.substr(0, eq), bytes;
      bool scalar = llvm::StringRef(name).ends_with("[]");
      if (scalar)
        name.resize(name.size() - 2);
      for (size_t pos = eq; pos != std::string::npos;
           pos = spec.find(',', pos + 1)) {
        float value = std::stof(spec.substr(pos + 1));
        bytes.append(reinterpret_cast<const char *>(&value), sizeof(value));
      }
      std::vector<int64_t> shape;
      if (!scalar)
        shape.push_back(bytes.size() / 4);
      tensors[name + valueKey] = {tensorflow::DT_FLOAT, shape, bytes};
      variables.push_back({name, name + valueKey});
    }
    tensors["_CHECKPOINTABLE_OBJECT_GRAPH"] =
        stringTensor(objectGraph(variables));
    writeBundle(dir, tensors, 1);
    return 0;
  }
  if (kind == "tf2" || kind == "tf2-names") {
    model = tf2Model(kind == "tf2");
    std::string layer = "layer_with_weights-0/";
    tensors[layer + "kernel" + valueKey] = kernel();
    tensors[layer + "bias" + valueKey] = bias();
    tensors["_CHECKPOINTABLE_OBJECT_GRAPH"] = stringTensor(
        objectGraph({{"dense/kernel", layer + "kernel" + valueKey},
                     {"dense/bias", layer + "bias" + valueKey}},
                    "layer_with_weights-0"));
  } else {
    model = tf1Model();
    tensors["W"] = kernel();
    tensors["b"] = bias();
    if (kind == "multishard" || kind == "missingshard") {
      numShards = 2;
      tensors["b"].shard = 1;
    } else if (kind == "sliced") {
      tensors["W"].sliced = true;
    } else if (kind == "missingvar") {
      tensors.erase("b");
    } else if (kind != "tf1" && kind != "truncated" && kind != "badcrc" &&
               kind != "badindex") {
      std::fprintf(stderr, "unknown kind '%s'\n", kind.c_str());
      return 1;
    }
  }
  writeFile(dir / "saved_model.pb", model.SerializeAsString());
  writeBundle(dir, tensors, numShards);

  // Defects applied to the files just written.
  std::filesystem::path vars = dir / "variables";
  auto patch = [](const std::filesystem::path &path, auto edit) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    edit(bytes);
    writeFile(path, bytes);
  };
  if (kind == "truncated")
    patch(vars / "variables.data-00000-of-00001",
          [](std::string &b) { b.resize(b.size() - 4); });
  if (kind == "badcrc") // W[0] = 1.0f -> 1.0000001f
    patch(vars / "variables.data-00000-of-00001",
          [](std::string &b) { b[0] ^= 1; });
  if (kind == "badindex") // A byte of the first data block entry.
    patch(vars / "variables.index", [](std::string &b) { b[4] ^= 0x20; });
  if (kind == "missingshard")
    std::filesystem::remove(vars / "variables.data-00001-of-00002");
  return 0;
}
