//===- graphdef_to_tfjs.cpp - Frozen GraphDef to a TF.js graph model ------===//
//
// Test helper: lets the TF.js oracle run frozen GraphDefs (.pb / .pbtxt) of
// the corpus, which TensorFlow's own converter (Python) cannot be used for
// here. A TF.js graph model is the GraphDef as protobuf JSON with every
// Const's value moved into a weights file, so this rewrites exactly that:
//
//   graphdef_to_tfjs <graph.pb|graph.pbtxt> <out_dir>
//     -> out_dir/model.json, out_dir/model.bin
//
// An unfed PlaceholderWithDefault becomes an Identity (see below).
// Only float32, int32 and bool constants are written (TF.js's own dtypes);
// int64 constants are narrowed to int32 when their values fit, as TF.js's
// converter does.
//
//===----------------------------------------------------------------------===//
#include "compiler/proto/graph.pb.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

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

  std::string bin;
  std::string weights = "[";
  for (tensorflow::NodeDef &node : *graph.mutable_node()) {
    if (node.op() != "Const")
      continue;
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
