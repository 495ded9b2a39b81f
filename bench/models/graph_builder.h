//===- graph_builder.h - GraphDefs node by node -----------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What every model of tfaot_gen_models is built with: the seeded random
// numbers, and GraphBuilder, which appends TensorFlow nodes with the
// attributes TensorFlow writes and serializes the graph deterministically.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BENCH_MODELS_GRAPH_BUILDER_H
#define TFAOT_BENCH_MODELS_GRAPH_BUILDER_H

#include "compiler/proto/graph.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace tfaot_gen_models {

using Shape = std::vector<int64_t>;

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

/// Uniform and normal samples from a seeded mt19937_64. mt19937_64's output
/// sequence is fixed by the C++ standard; the conversions to doubles are
/// written here because std::*_distribution are not.
class Rng {
public:
  explicit Rng(uint64_t seed) : gen_(seed) {}

  /// Uniform in [0, 1), from the top 53 bits.
  double uniform() { return static_cast<double>(gen_() >> 11) * 0x1p-53; }

  /// Standard normal (Box-Muller; the second value of each pair is kept).
  double normal() {
    if (haveSpare_) {
      haveSpare_ = false;
      return spare_;
    }
    double u1 = 1.0 - uniform(); // (0, 1]: log() stays finite.
    double u2 = uniform();
    double r = std::sqrt(-2.0 * std::log(u1));
    const double twoPi = 6.283185307179586;
    spare_ = r * std::sin(twoPi * u2);
    haveSpare_ = true;
    return r * std::cos(twoPi * u2);
  }

private:
  std::mt19937_64 gen_;
  bool haveSpare_ = false;
  double spare_ = 0;
};

//===----------------------------------------------------------------------===//
// Graph building
//===----------------------------------------------------------------------===//

/// A float tensor of the graph under construction: the name of the node
/// producing it and an estimate of the mean of its squared values, which
/// is what batch-norm statistics and classifier scales are chosen from.
struct Tensor {
  std::string name;
  double meanSquare;
};

/// Appends TensorFlow nodes to a GraphDef, one helper per op, each setting
/// the attributes TensorFlow writes for it. All tensors are float32 except
/// the int32 shape/axis/padding constants.
class GraphBuilder {
public:
  explicit GraphBuilder(uint64_t seed) : rng_(seed) {
    // The producer version of a TF 2.x frozen graph; TF.js reads it.
    graph_.mutable_versions()->set_producer(1205);
  }

  Rng &rng() { return rng_; }
  const tensorflow::GraphDef &graph() const { return graph_; }
  int64_t parameterCount() const { return parameters_; }

  //--- constants and inputs -------------------------------------------------

  std::string placeholder(const std::string &name, const Shape &shape) {
    tensorflow::NodeDef &n = node(name, "Placeholder", {});
    setType(n, "dtype");
    setShape(*(*n.mutable_attr())["shape"].mutable_shape(), shape);
    return name;
  }

  /// A float32 Const holding `values` (row-major, `shape`).
  std::string floatConst(const std::string &name, const Shape &shape,
                         const std::vector<float> &values) {
    parameters_ += static_cast<int64_t>(values.size());
    return constant(name, tensorflow::DT_FLOAT, shape, values.data(),
                    values.size() * sizeof(float));
  }

  std::string intConst(const std::string &name, const Shape &shape,
                       const std::vector<int32_t> &values) {
    return constant(name, tensorflow::DT_INT32, shape, values.data(),
                    values.size() * sizeof(int32_t));
  }

  std::string scalarConst(const std::string &name, float value) {
    return floatConst(name, {}, {value});
  }

  /// `count` values normal(mean, stddev).
  std::vector<float> normals(int64_t count, double mean, double stddev) {
    std::vector<float> v(count);
    for (float &x : v)
      x = static_cast<float>(mean + stddev * rng_.normal());
    return v;
  }

  std::string normalConst(const std::string &name, const Shape &shape,
                          double mean, double stddev) {
    return floatConst(name, shape, normals(elementCount(shape), mean, stddev));
  }

  //--- ops ------------------------------------------------------------------

  /// An op of one float type attribute T and the given inputs.
  std::string op(const std::string &name, const std::string &type,
                 std::vector<std::string> inputs) {
    tensorflow::NodeDef &n = node(name, type, std::move(inputs));
    setType(n, "T");
    return name;
  }

  std::string conv2d(const std::string &name, const std::string &x,
                     const std::string &filter, int stride,
                     const std::string &padding) {
    return window(name, "Conv2D", {x, filter}, stride, padding);
  }

  std::string depthwiseConv2d(const std::string &name, const std::string &x,
                              const std::string &filter, int stride,
                              const std::string &padding) {
    return window(name, "DepthwiseConv2dNative", {x, filter}, stride, padding);
  }

  std::string maxPool(const std::string &name, const std::string &x, int size,
                      int stride, const std::string &padding) {
    tensorflow::NodeDef &n = node(name, "MaxPool", {x});
    setType(n, "T");
    auto &attrs = *n.mutable_attr();
    setInts(attrs["ksize"], {1, size, size, 1});
    setInts(attrs["strides"], {1, stride, stride, 1});
    attrs["padding"].set_s(padding);
    attrs["data_format"].set_s("NHWC");
    return name;
  }

  /// FusedBatchNormV3 in inference mode; consumers read its output 0.
  std::string fusedBatchNorm(const std::string &name, const std::string &x,
                             const std::string &scale,
                             const std::string &offset,
                             const std::string &mean,
                             const std::string &variance, float epsilon) {
    tensorflow::NodeDef &n =
        node(name, "FusedBatchNormV3", {x, scale, offset, mean, variance});
    setType(n, "T");
    setType(n, "U");
    auto &attrs = *n.mutable_attr();
    attrs["epsilon"].set_f(epsilon);
    attrs["exponential_avg_factor"].set_f(1.0f);
    attrs["data_format"].set_s("NHWC");
    attrs["is_training"].set_b(false);
    return name;
  }

  /// Pad of an NHWC tensor: `pads` holds {before, after} per dimension.
  std::string pad(const std::string &name, const std::string &x,
                  const std::vector<int32_t> &pads) {
    std::string paddings =
        intConst(name + "/paddings", {static_cast<int64_t>(pads.size() / 2), 2},
                 pads);
    tensorflow::NodeDef &n = node(name, "Pad", {x, paddings});
    setType(n, "T");
    (*n.mutable_attr())["Tpaddings"].set_type(tensorflow::DT_INT32);
    return name;
  }

  std::string mean(const std::string &name, const std::string &x,
                   const std::vector<int32_t> &axes, bool keepDims) {
    std::string indices = intConst(
        name + "/reduction_indices",
        {static_cast<int64_t>(axes.size())}, axes);
    tensorflow::NodeDef &n = node(name, "Mean", {x, indices});
    setType(n, "T");
    auto &attrs = *n.mutable_attr();
    attrs["Tidx"].set_type(tensorflow::DT_INT32);
    attrs["keep_dims"].set_b(keepDims);
    return name;
  }

  std::string matMul(const std::string &name, const std::string &a,
                     const std::string &b, bool transposeA = false,
                     bool transposeB = false) {
    tensorflow::NodeDef &n = node(name, "MatMul", {a, b});
    setType(n, "T");
    auto &attrs = *n.mutable_attr();
    attrs["transpose_a"].set_b(transposeA);
    attrs["transpose_b"].set_b(transposeB);
    return name;
  }

  std::string batchMatMul(const std::string &name, const std::string &a,
                          const std::string &b, bool adjX, bool adjY) {
    tensorflow::NodeDef &n = node(name, "BatchMatMulV2", {a, b});
    setType(n, "T");
    auto &attrs = *n.mutable_attr();
    attrs["adj_x"].set_b(adjX);
    attrs["adj_y"].set_b(adjY);
    return name;
  }

  std::string biasAdd(const std::string &name, const std::string &x,
                      const std::string &bias) {
    tensorflow::NodeDef &n = node(name, "BiasAdd", {x, bias});
    setType(n, "T");
    (*n.mutable_attr())["data_format"].set_s("NHWC");
    return name;
  }

  std::string reshape(const std::string &name, const std::string &x,
                      const std::vector<int32_t> &shape) {
    std::string s = intConst(name + "/shape",
                             {static_cast<int64_t>(shape.size())}, shape);
    tensorflow::NodeDef &n = node(name, "Reshape", {x, s});
    setType(n, "T");
    (*n.mutable_attr())["Tshape"].set_type(tensorflow::DT_INT32);
    return name;
  }

  std::string transpose(const std::string &name, const std::string &x,
                        const std::vector<int32_t> &perm) {
    std::string p = intConst(name + "/perm",
                             {static_cast<int64_t>(perm.size())}, perm);
    tensorflow::NodeDef &n = node(name, "Transpose", {x, p});
    setType(n, "T");
    (*n.mutable_attr())["Tperm"].set_type(tensorflow::DT_INT32);
    return name;
  }

  /// The GraphDef as bytes, with map fields (every node's attributes) in
  /// sorted order: protobuf's default order of map entries is unspecified,
  /// which would break "same seed, same bytes".
  std::string serialize() const {
    std::string bytes;
    {
      google::protobuf::io::StringOutputStream stream(&bytes);
      google::protobuf::io::CodedOutputStream coded(&stream);
      coded.SetSerializationDeterministic(true);
      graph_.SerializeToCodedStream(&coded);
    }
    return bytes;
  }

private:
  static int64_t elementCount(const Shape &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }

  static void setShape(tensorflow::TensorShapeProto &proto,
                       const Shape &shape) {
    for (int64_t d : shape)
      proto.add_dim()->set_size(d);
  }

  static void setType(tensorflow::NodeDef &n, const std::string &attr) {
    (*n.mutable_attr())[attr].set_type(tensorflow::DT_FLOAT);
  }

  static void setInts(tensorflow::AttrValue &attr,
                      const std::vector<int64_t> &values) {
    for (int64_t v : values)
      attr.mutable_list()->add_i(v);
  }

  tensorflow::NodeDef &node(const std::string &name, const std::string &op,
                            std::vector<std::string> inputs) {
    if (!names_.insert(name).second) {
      std::cerr << "tfaot_gen_models: internal error: duplicate node '"
                << name << "'\n";
      std::exit(1);
    }
    tensorflow::NodeDef *n = graph_.add_node();
    n->set_name(name);
    n->set_op(op);
    for (std::string &input : inputs)
      n->add_input(std::move(input));
    return *n;
  }

  /// Const with its value in tensor_content, as frozen graphs store it
  /// (little-endian: the generator is meant for x86-64 and AArch64 hosts).
  std::string constant(const std::string &name, tensorflow::DataType dtype,
                       const Shape &shape, const void *data, size_t bytes) {
    tensorflow::NodeDef &n = node(name, "Const", {});
    auto &attrs = *n.mutable_attr();
    attrs["dtype"].set_type(dtype);
    tensorflow::TensorProto &t = *attrs["value"].mutable_tensor();
    t.set_dtype(dtype);
    setShape(*t.mutable_tensor_shape(), shape);
    t.set_tensor_content(std::string(static_cast<const char *>(data), bytes));
    return name;
  }

  /// Conv2D and DepthwiseConv2dNative share their attributes.
  std::string window(const std::string &name, const std::string &type,
                     std::vector<std::string> inputs, int stride,
                     const std::string &padding) {
    tensorflow::NodeDef &n = node(name, type, std::move(inputs));
    setType(n, "T");
    auto &attrs = *n.mutable_attr();
    attrs["data_format"].set_s("NHWC");
    setInts(attrs["strides"], {1, stride, stride, 1});
    setInts(attrs["dilations"], {1, 1, 1, 1});
    attrs["padding"].set_s(padding);
    attrs["explicit_paddings"].mutable_list(); // Present and empty.
    if (type == "Conv2D")
      attrs["use_cudnn_on_gpu"].set_b(true);
    return name;
  }

  tensorflow::GraphDef graph_;
  Rng rng_;
  std::set<std::string> names_;
  int64_t parameters_ = 0;
};

} // namespace tfaot_gen_models

#endif // TFAOT_BENCH_MODELS_GRAPH_BUILDER_H
