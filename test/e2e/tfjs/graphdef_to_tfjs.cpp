//===- graphdef_to_tfjs.cpp - Frozen GraphDef to a TF.js graph model ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Test helper: lets the TF.js oracle run frozen GraphDefs (.pb / .pbtxt) of
// the corpus, which TensorFlow's own converter (Python) cannot be used for
// here. A TF.js graph model is the GraphDef as protobuf JSON with every
// Const's value moved into a weights file, so this rewrites exactly that:
//
//   graphdef_to_tfjs <graph.pb|graph.pbtxt> <out_dir>
//     -> out_dir/model.json, out_dir/model.bin
//
// An unfed PlaceholderWithDefault becomes an Identity (see below). A
// Dequantize of a quint8 constant (weight-quantized graphs) becomes a
// uint8-quantized TF.js weight, {min, scale}, which TF.js dequantizes
// itself as q * scale + min: so the oracle checks tfaot's Dequantize
// against TF.js's own arithmetic, not against a copy of tfaot's.
// Only float32, int32 and bool constants are written (TF.js's own dtypes);
// int64 constants are narrowed to int32 when their values fit, as TF.js's
// converter does.
//
//===----------------------------------------------------------------------===//
#include "compiler/proto/graph.pb.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// A Dequantize folded into a uint8-quantized TF.js weight.
struct QuantizedWeight {
  std::string bytes;   ///< The quint8 values.
  double min, scale;   ///< value = q * scale + min
};

int fail(const std::string &message) {
  std::cerr << "graphdef_to_tfjs: error: " << message << "\n";
  return 1;
}

/// The `count` elements of a typed *_val field, repeating the last value as
/// TensorFlow does for short lists.
template <typename Out, typename Field>
bool expand(const Field &field, int64_t count, std::vector<Out> &out) {
  if (field.size() > count)
    return false;
  out.assign(count, Out());
  for (int64_t i = 0; i < count && !field.empty(); ++i)
    out[i] = static_cast<Out>(field.Get(std::min<int64_t>(i, field.size() - 1)));
  return true;
}

template <typename T>
void appendBytes(std::string &bin, const std::vector<T> &values) {
  bin.append(reinterpret_cast<const char *>(values.data()),
             values.size() * sizeof(T));
}


/// The single float held by Const node `name`, if it is one.
std::optional<double> floatScalar(const std::map<std::string,
                                                 tensorflow::NodeDef *> &nodes,
                                  const std::string &name) {
  auto it = nodes.find(name);
  if (it == nodes.end() || it->second->op() != "Const")
    return std::nullopt;
  const tensorflow::TensorProto &t = it->second->attr().at("value").tensor();
  if (t.dtype() != tensorflow::DT_FLOAT)
    return std::nullopt;
  if (t.float_val_size() == 1)
    return t.float_val(0);
  if (t.tensor_content().size() == 4) {
    float v;
    std::memcpy(&v, t.tensor_content().data(), 4);
    return v;
  }
  return std::nullopt;
}

/// Rewrites each Dequantize(quint8 Const, min, max) in MIN_FIRST or
/// MIN_COMBINED mode into a float32 Const whose value is the quantized
/// weight in `folded`; the inputs it no longer needs are removed. In both
/// modes TensorFlow's step is (max - min) / 255; MIN_FIRST first snaps min
/// to a multiple of the (float) step.
void foldDequantize(tensorflow::GraphDef &graph,
                    std::map<std::string, QuantizedWeight> &folded) {
  std::map<std::string, tensorflow::NodeDef *> nodes;
  for (tensorflow::NodeDef &node : *graph.mutable_node())
    nodes[node.name()] = &node;
  std::set<std::string> dropped;
  for (tensorflow::NodeDef &node : *graph.mutable_node()) {
    if (node.op() != "Dequantize" || node.input_size() != 3)
      continue;
    auto modeAttr = node.attr().find("mode");
    std::string mode =
        modeAttr != node.attr().end() ? modeAttr->second.s() : "MIN_COMBINED";
    auto input = nodes.find(node.input(0));
    auto min = floatScalar(nodes, node.input(1));
    auto max = floatScalar(nodes, node.input(2));
    if ((mode != "MIN_FIRST" && mode != "MIN_COMBINED") ||
        input == nodes.end() || input->second->op() != "Const" || !min ||
        !max)
      continue;
    const tensorflow::TensorProto &q = input->second->attr().at("value").tensor();
    if (q.dtype() != tensorflow::DT_QUINT8 || q.tensor_content().empty())
      continue;
    double scale = (*max - *min) / 255.0;
    double lo = *min;
    if (mode == "MIN_FIRST" && scale > 0) {
      double stepF = static_cast<float>(scale);
      lo = std::round(*min / stepF) * stepF;
    }
    folded[node.name()] = {q.tensor_content(), lo, scale};
    tensorflow::TensorProto value;
    value.set_dtype(tensorflow::DT_FLOAT);
    *value.mutable_tensor_shape() = q.tensor_shape();
    node.set_op("Const");
    node.clear_input();
    node.mutable_attr()->clear();
    (*node.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    *(*node.mutable_attr())["value"].mutable_tensor() = value;
    dropped.insert(input->first);
  }
  // Drop the quint8 constants (TF.js cannot hold them); min/max constants
  // are plain floats and may stay.
  auto *all = graph.mutable_node();
  for (int i = all->size() - 1; i >= 0; --i)
    if (dropped.count(all->Get(i).name()))
      all->DeleteSubrange(i, 1);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3)
    return fail("usage: graphdef_to_tfjs <graph.pb|graph.pbtxt> <out_dir>");
  std::ifstream in(argv[1], std::ios::binary);
  if (!in)
    return fail(std::string("cannot read ") + argv[1]);
  std::stringstream buffer;
  buffer << in.rdbuf();
  tensorflow::GraphDef graph;
  if (!graph.ParseFromString(buffer.str()) &&
      !google::protobuf::TextFormat::ParseFromString(buffer.str(), &graph))
    return fail(std::string("cannot parse ") + argv[1] + " as a GraphDef");

  // TensorFlow's converter writes the default value of attributes that old
  // graphs predate; TF.js reads them without defaults.
  for (tensorflow::NodeDef &node : *graph.mutable_node()) {
    auto &attrs = *node.mutable_attr();
    const std::string &op = node.op();
    bool window = op == "Conv2D" || op == "DepthwiseConv2dNative" ||
                  op == "MaxPool" || op == "AvgPool";
    if ((op == "Conv2D" || op == "DepthwiseConv2dNative") &&
        !attrs.count("dilations"))
      for (int i = 0; i < 4; ++i)
        attrs["dilations"].mutable_list()->add_i(1);
    if ((window || op == "BiasAdd") && !attrs.count("data_format"))
      attrs["data_format"].set_s("NHWC");
    // TF.js 4.22's executor fails ("reading 'backend'") on a
    // PlaceholderWithDefault that is not fed. Unfed, the op is the identity
    // of its input, and the oracle never feeds one (the compiled function
    // takes no argument for it either), so write it as an Identity.
    if (op == "PlaceholderWithDefault") {
      tensorflow::AttrValue dtype = attrs["dtype"];
      attrs.clear();
      attrs["T"] = dtype;
      node.set_op("Identity");
    }
  }

  std::map<std::string, QuantizedWeight> quantized;
  foldDequantize(graph, quantized);

  std::string bin;
  std::string weights = "[";
  for (tensorflow::NodeDef &node : *graph.mutable_node()) {
    if (node.op() != "Const")
      continue;
    if (auto q = quantized.find(node.name()); q != quantized.end()) {
      bin += q->second.bytes;
      std::ostringstream entry;
      entry.precision(17);
      entry << "{\"name\":\"" << node.name() << "\",\"shape\":[";
      const auto &shape = node.attr().at("value").tensor().tensor_shape();
      for (int i = 0; i < shape.dim_size(); ++i)
        entry << (i ? "," : "") << shape.dim(i).size();
      entry << "],\"dtype\":\"float32\",\"quantization\":{\"dtype\":"
               "\"uint8\",\"min\":" << q->second.min << ",\"scale\":"
            << q->second.scale << ",\"original_dtype\":\"float32\"}}";
      weights += (weights.size() > 1 ? "," : "") + entry.str();
      continue;
    }
    auto &attrs = *node.mutable_attr();
    tensorflow::TensorProto *tensor = attrs["value"].mutable_tensor();
    int64_t count = 1;
    std::string shape = "[";
    for (int i = 0; i < tensor->tensor_shape().dim_size(); ++i) {
      int64_t d = tensor->tensor_shape().dim(i).size();
      count *= d;
      shape += (i ? "," : "") + std::to_string(d);
    }
    shape += "]";
    const std::string &raw = tensor->tensor_content();
    std::string dtype;
    switch (tensor->dtype()) {
    case tensorflow::DT_FLOAT: {
      std::vector<float> v;
      if (!raw.empty())
        v.resize(raw.size() / 4), std::memcpy(v.data(), raw.data(), raw.size());
      else if (!expand(tensor->float_val(), count, v))
        return fail("bad float constant '" + node.name() + "'");
      appendBytes(bin, v);
      dtype = "float32";
      break;
    }
    case tensorflow::DT_INT32:
    case tensorflow::DT_INT64: {
      bool wide = tensor->dtype() == tensorflow::DT_INT64;
      std::vector<int64_t> v;
      if (!raw.empty()) {
        v.resize(count);
        for (int64_t i = 0; i < count; ++i) {
          if (wide) {
            std::memcpy(&v[i], raw.data() + 8 * i, 8);
          } else {
            int32_t x;
            std::memcpy(&x, raw.data() + 4 * i, 4);
            v[i] = x;
          }
        }
      } else if (!(wide ? expand(tensor->int64_val(), count, v)
                        : expand(tensor->int_val(), count, v))) {
        return fail("bad integer constant '" + node.name() + "'");
      }
      std::vector<int32_t> narrow;
      for (int64_t x : v) {
        if (x < INT32_MIN || x > INT32_MAX)
          return fail("int64 constant '" + node.name() + "' does not fit int32");
        narrow.push_back(static_cast<int32_t>(x));
      }
      appendBytes(bin, narrow);
      tensor->set_dtype(tensorflow::DT_INT32);
      attrs["dtype"].set_type(tensorflow::DT_INT32);
      dtype = "int32";
      break;
    }
    case tensorflow::DT_BOOL: {
      std::vector<uint8_t> v;
      if (!raw.empty())
        v.assign(raw.begin(), raw.end());
      else if (!expand(tensor->bool_val(), count, v))
        return fail("bad bool constant '" + node.name() + "'");
      appendBytes(bin, v);
      dtype = "bool";
      break;
    }
    default:
      return fail("constant '" + node.name() + "' has dtype " +
                  tensorflow::DataType_Name(tensor->dtype()) +
                  ", which TF.js graph models cannot hold");
    }
    // Keep dtype and shape in the graph; the value lives in the weights.
    tensorflow::TensorProto stripped;
    stripped.set_dtype(tensor->dtype());
    *stripped.mutable_tensor_shape() = tensor->tensor_shape();
    *tensor = stripped;
    weights += (weights.size() > 1 ? "," : "") + std::string("{\"name\":\"") +
               node.name() + "\",\"shape\":" + shape + ",\"dtype\":\"" +
               dtype + "\"}";
  }
  weights += "]";

  // TF.js reads versions.producer unconditionally; old frozen graphs leave
  // it unset (0, which protobuf's JSON then omits). Any value TF.js knows
  // will do, as it only gates behaviours of very old producers.
  if (graph.versions().producer() == 0)
    graph.mutable_versions()->set_producer(27);

  std::string topology;
  if (!google::protobuf::util::MessageToJsonString(graph, &topology).ok())
    return fail("cannot write the graph as JSON");
  std::string dir = argv[2];
  std::ofstream json(dir + "/model.json");
  json << "{\"format\":\"graph-model\",\"generatedBy\":\"tfaot tests\","
       << "\"convertedBy\":\"graphdef_to_tfjs\",\"modelTopology\":" << topology
       << ",\"weightsManifest\":[{\"paths\":[\"model.bin\"],\"weights\":"
       << weights << "}]}\n";
  std::ofstream(dir + "/model.bin", std::ios::binary) << bin;
  return json ? 0 : fail("cannot write " + dir + "/model.json");
}
