//===- gen_models.cpp - Benchmark models with seeded random weights -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Writes the frozen GraphDefs that tfaot's benchmarks (issue 6) measure on:
//
//   tfaot_gen_models <out_dir> [--seed N] [--only name,...] [--gelu erf|tanh]
//     -> out_dir/resnet50.pb, mobilenet_v2.pb, mlp.pb, bert_layer.pb
//
// (--gelu tanh: BERT's Gelu as tf.nn.gelu(approximate=True) writes it,
// for compilers without Erf.)
//
// The networks are built node by node the way TensorFlow writes them when a
// Keras model (or BERT's TF1 code) is frozen: NHWC, Conv2D without bias +
// FusedBatchNormV3 (inference mode), explicit Pad ops where Keras uses
// ZeroPadding2D, layer norm as Mean/SquaredDifference/Rsqrt arithmetic, and
// the attributes TensorFlow sets. ResNet-50 v1.5 and MobileNetV2 have the
// architectures of ../shared/bench/peers_gpu_server.py, so that the peer
// frameworks run the same networks (see bench/README.md for the one padding
// difference).
//
// Weights are not trained, only plausible: He-scaled normals for the
// convolutions, and batch-norm statistics that match the scale of the
// activations each batch norm actually sees (estimated as the graph is
// built), so that 50 layers neither explode nor vanish and the classifiers'
// softmax stays far from one-hot. The same seed gives the same bytes: the
// random numbers come from std::mt19937_64 with our own uniform and normal
// conversions (the standard library's distributions differ between
// implementations), each model draws from its own stream (so --only does
// not change a model), and the protobuf is serialized deterministically.
//
//===----------------------------------------------------------------------===//
#include "compiler/proto/graph.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

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

/// FNV-1a, to give each model its own random stream from one seed.
uint64_t hashName(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

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

//===----------------------------------------------------------------------===//
// Layers shared by the models
//===----------------------------------------------------------------------===//

/// What the command line changes in the models.
struct Options {
  /// BERT's Gelu as the tanh approximation instead of with Erf (for
  /// compilers without Erf; tfaot is one so far).
  bool tanhGelu = false;
};

enum class Act { None, Relu, Relu6 };

/// Activation after a batch norm; halves the mean square (about half of
/// a roughly symmetric input is cut off).
Tensor activate(GraphBuilder &b, const std::string &name, Tensor x, Act act) {
  if (act == Act::None)
    return x;
  return {b.op(name, act == Act::Relu ? "Relu" : "Relu6", {x.name}),
          x.meanSquare / 2};
}

/// FusedBatchNormV3 with trained-looking parameters for an input whose
/// mean square is `x.meanSquare`: per-channel moving variances scattered
/// around it (so the output is normalized, give or take), small moving
/// means, gamma around `gammaCenter`, small beta. The output's mean square
/// is then about gammaCenter^2.
Tensor batchNorm(GraphBuilder &b, const std::string &prefix, Tensor x,
                 int64_t channels, float epsilon, double gammaCenter) {
  Rng &r = b.rng();
  double scale = std::sqrt(x.meanSquare);
  std::vector<float> gamma(channels), beta(channels), mean(channels),
      variance(channels);
  for (int64_t c = 0; c < channels; ++c) {
    gamma[c] = static_cast<float>(gammaCenter * (1.0 + 0.1 * r.normal()));
    beta[c] = static_cast<float>(0.05 * r.normal());
    mean[c] = static_cast<float>(0.1 * scale * r.normal());
    // Log-normal: positive, within about x0.7..x1.5 of the estimate.
    variance[c] = static_cast<float>(x.meanSquare * std::exp(0.2 * r.normal()));
  }
  std::string g = b.floatConst(prefix + "/gamma", {channels}, gamma);
  std::string be = b.floatConst(prefix + "/beta", {channels}, beta);
  std::string m = b.floatConst(prefix + "/moving_mean", {channels}, mean);
  std::string v = b.floatConst(prefix + "/moving_variance", {channels}, variance);
  return {b.fusedBatchNorm(prefix + "/FusedBatchNormV3", x.name, g, be, m, v,
                           epsilon),
          gammaCenter * gammaCenter};
}

/// A Keras Conv2D layer without bias (HWIO kernel, He-normal). He scaling
/// doubles the input's mean square (fan_in * 2/fan_in), which the batch
/// norm after it then normalizes.
Tensor conv(GraphBuilder &b, const std::string &prefix, Tensor x, int k,
            int64_t cin, int64_t cout, int stride, const std::string &padding) {
  double stddev = std::sqrt(2.0 / static_cast<double>(k * k * cin));
  std::string w = b.normalConst(prefix + "/kernel", {k, k, cin, cout}, 0.0,
                                stddev);
  return {b.conv2d(prefix + "/Conv2D", x.name, w, stride, padding),
          2.0 * x.meanSquare};
}

/// A Keras DepthwiseConv2D layer without bias (kernel [k,k,C,1]).
Tensor depthwiseConv(GraphBuilder &b, const std::string &prefix, Tensor x,
                     int k, int64_t channels, int stride,
                     const std::string &padding) {
  double stddev = std::sqrt(2.0 / static_cast<double>(k * k));
  std::string w = b.normalConst(prefix + "/depthwise_kernel",
                                {k, k, channels, 1}, 0.0, stddev);
  return {b.depthwiseConv2d(prefix + "/depthwise", x.name, w, stride, padding),
          2.0 * x.meanSquare};
}

/// Zero padding of the spatial dimensions of an NHWC tensor.
Tensor zeroPad(GraphBuilder &b, const std::string &name, Tensor x, int top,
               int bottom, int left, int right) {
  return {b.pad(name, x.name, {0, 0, top, bottom, left, right, 0, 0}),
          x.meanSquare};
}

/// A Keras Dense layer (MatMul + BiasAdd). `stddev` 0 picks He scaling;
/// the bias is small.
Tensor dense(GraphBuilder &b, const std::string &prefix, Tensor x,
             int64_t in, int64_t out, double stddev,
             const std::string &biasAddName = "") {
  if (stddev == 0)
    stddev = std::sqrt(2.0 / static_cast<double>(in));
  std::string w = b.normalConst(prefix + "/kernel", {in, out}, 0.0, stddev);
  std::string bias = b.normalConst(prefix + "/bias", {out}, 0.0, 0.02);
  std::string mm = b.matMul(prefix + "/MatMul", x.name, w);
  std::string name = biasAddName.empty() ? prefix + "/BiasAdd" : biasAddName;
  return {b.biasAdd(name, mm, bias),
          static_cast<double>(in) * stddev * stddev * x.meanSquare};
}

/// Global average pooling (Keras writes a Mean over H and W). The mean
/// square estimates run high by the end of these networks (ResNet-50's last
/// block: 1.75 estimated, 0.33 measured with TF.js; MobileNetV2's: 0.5 and
/// 0.19), so the pooled features are taken at a quarter of the estimate,
/// which brings the logits to the spread the classifier aims at.
Tensor globalAveragePool(GraphBuilder &b, const std::string &name, Tensor x) {
  return {b.mean(name, x.name, {1, 2}, false), x.meanSquare / 4};
}

/// The classifier head: Dense to `classes` logits (node `logits`), Softmax
/// (node `probs`). The weights are scaled so that the logits have a
/// standard deviation of about 3 over the classes: the softmax then has a
/// clear top class without being one-hot.
std::string classifier(GraphBuilder &b, Tensor features, int64_t in,
                       int64_t classes) {
  double stddev = 3.0 / std::sqrt(static_cast<double>(in) * features.meanSquare);
  Tensor logits = dense(b, "predictions", features, in, classes, stddev,
                        "logits");
  return b.op("probs", "Softmax", {logits.name});
}

//===----------------------------------------------------------------------===//
// ResNet-50 v1.5 (Keras ResNet50 layout)
//===----------------------------------------------------------------------===//

constexpr float kResNetEpsilon = 1.001e-5f; // Keras ResNet50's.

/// conv -> batch norm -> activation, named like Keras ("conv2_block1_1").
Tensor convBn(GraphBuilder &b, const std::string &prefix, Tensor x, int k,
              int64_t cin, int64_t cout, int stride, const std::string &padding,
              Act act, float epsilon, double gammaCenter = 1.0) {
  Tensor y = conv(b, prefix + "_conv", x, k, cin, cout, stride, padding);
  y = batchNorm(b, prefix + "_bn", y, cout, epsilon, gammaCenter);
  return activate(b, prefix + "_relu/Relu", y, act);
}

/// One bottleneck block: 1x1 -> 3x3 (carrying the stride: v1.5) -> 1x1 to
/// 4*mid, plus the shortcut (a projection in the first block of a stage),
/// AddV2, Relu. Keras pads the 3x3 conv SAME; a strided one gets an
/// explicit symmetric Pad of 1 and VALID instead, which is what the peers'
/// network (and TF's official v1.5 "fixed padding") computes, where SAME
/// would pad 0 before and 1 after.
Tensor bottleneck(GraphBuilder &b, const std::string &prefix, Tensor x,
                  int64_t cin, int64_t mid, int stride, bool project) {
  Tensor shortcut = x;
  if (project)
    shortcut = convBn(b, prefix + "_0", x, 1, cin, 4 * mid, stride, "VALID",
                      Act::None, kResNetEpsilon);
  Tensor h = convBn(b, prefix + "_1", x, 1, cin, mid, 1, "VALID", Act::Relu,
                    kResNetEpsilon);
  if (stride == 1) {
    h = convBn(b, prefix + "_2", h, 3, mid, mid, 1, "SAME", Act::Relu,
               kResNetEpsilon);
  } else {
    h = zeroPad(b, prefix + "_2_pad/Pad", h, 1, 1, 1, 1);
    h = convBn(b, prefix + "_2", h, 3, mid, mid, stride, "VALID", Act::Relu,
               kResNetEpsilon);
  }
  // The last batch norm of a residual branch starts the branch small, as
  // trained ResNets have it (and "zero-gamma" initialization does), so the
  // residual stream grows slowly over the blocks of a stage.
  h = convBn(b, prefix + "_3", h, 1, mid, 4 * mid, 1, "VALID", Act::None,
             kResNetEpsilon, 0.5);
  Tensor sum{b.op(prefix + "_add/add", "AddV2", {shortcut.name, h.name}),
             shortcut.meanSquare + h.meanSquare};
  // The stream is mostly positive after the first Relu, so this Relu cuts
  // off little: keep the estimate.
  return {b.op(prefix + "_out/Relu", "Relu", {sum.name}), sum.meanSquare};
}

void buildResNet50(GraphBuilder &b, const Options &) {
  // ImageNet-style inputs: values in [0, 1) have mean square 1/3.
  Tensor x{b.placeholder("input", {-1, 224, 224, 3}), 1.0 / 3};
  x = zeroPad(b, "conv1_pad/Pad", x, 3, 3, 3, 3);
  x = convBn(b, "conv1", x, 7, 3, 64, 2, "VALID", Act::Relu, kResNetEpsilon);
  x = zeroPad(b, "pool1_pad/Pad", x, 1, 1, 1, 1);
  x = Tensor{b.maxPool("pool1_pool/MaxPool", x.name, 3, 2, "VALID"),
             x.meanSquare};
  const int blocks[] = {3, 4, 6, 3};
  const int64_t mids[] = {64, 128, 256, 512};
  int64_t cin = 64;
  for (int stage = 0; stage < 4; ++stage) {
    for (int i = 0; i < blocks[stage]; ++i) {
      std::string prefix = "conv" + std::to_string(stage + 2) + "_block" +
                           std::to_string(i + 1);
      int stride = (i == 0 && stage > 0) ? 2 : 1;
      x = bottleneck(b, prefix, x, cin, mids[stage], stride, i == 0);
      cin = 4 * mids[stage];
    }
  }
  x = globalAveragePool(b, "avg_pool/Mean", x);
  classifier(b, x, 2048, 1000);
}

//===----------------------------------------------------------------------===//
// MobileNetV2 1.0/224 (Keras MobileNetV2 layout)
//===----------------------------------------------------------------------===//

constexpr float kMobileNetEpsilon = 1e-3f; // Keras MobileNetV2's.

/// Keras's layer names: "Conv1", "bn_Conv1", "Conv1_relu" for the stem,
/// "<prefix>expand", "<prefix>expand_BN", ... in the blocks.
Tensor mbConvBn(GraphBuilder &b, const std::string &convName,
                const std::string &bnName, const std::string &actName,
                Tensor x, int64_t cin, int64_t cout, int k, int stride,
                Act act, double gammaCenter = 1.0) {
  // Keras pads these SAME, the strided stem included.
  Tensor y = conv(b, convName, x, k, cin, cout, stride, "SAME");
  y = batchNorm(b, bnName, y, cout, kMobileNetEpsilon, gammaCenter);
  return activate(b, actName, y, act);
}

/// An inverted residual block: 1x1 expansion (not in the first block),
/// 3x3 depthwise (stride 2: Keras's ZeroPadding2D(correct_pad) + VALID),
/// linear 1x1 projection, AddV2 when shapes allow.
Tensor invertedResidual(GraphBuilder &b, int blockId, Tensor x, int64_t cin,
                        int64_t cout, int expansion, int stride) {
  std::string prefix =
      blockId == 0 ? "expanded_conv_" : "block_" + std::to_string(blockId) + "_";
  int64_t hidden = cin * expansion;
  Tensor h = x;
  if (blockId != 0)
    h = mbConvBn(b, prefix + "expand", prefix + "expand_BN",
                 prefix + "expand_relu/Relu6", h, cin, hidden, 1, 1,
                 Act::Relu6);
  std::string padding = "SAME";
  if (stride == 2) {
    // correct_pad for a 3x3 kernel on an even size pads (0, 1).
    h = zeroPad(b, prefix + "pad/Pad", h, 0, 1, 0, 1);
    padding = "VALID";
  }
  h = depthwiseConv(b, prefix + "depthwise", h, 3, hidden, stride, padding);
  h = batchNorm(b, prefix + "depthwise_BN", h, hidden, kMobileNetEpsilon, 1.0);
  h = activate(b, prefix + "depthwise_relu/Relu6", h, Act::Relu6);
  bool residual = cin == cout && stride == 1;
  // As in ResNet, a residual branch ends with a small gamma.
  h = mbConvBn(b, prefix + "project", prefix + "project_BN", "", h, hidden,
               cout, 1, 1, Act::None, residual ? 0.5 : 1.0);
  if (!residual)
    return h;
  return {b.op(prefix + "add/add", "AddV2", {x.name, h.name}),
          x.meanSquare + h.meanSquare};
}

void buildMobileNetV2(GraphBuilder &b, const Options &) {
  Tensor x{b.placeholder("input", {-1, 224, 224, 3}), 1.0 / 3};
  x = mbConvBn(b, "Conv1", "bn_Conv1", "Conv1_relu/Relu6", x, 3, 32, 3, 2,
               Act::Relu6);
  // (expansion t, channels c, repeats n, first stride s), as in the peers.
  struct Stage {
    int t;
    int64_t c;
    int n, s;
  };
  const Stage stages[] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2},
                          {6, 64, 4, 2},  {6, 96, 3, 1},  {6, 160, 3, 2},
                          {6, 320, 1, 1}};
  int64_t cin = 32;
  int blockId = 0;
  for (const Stage &st : stages) {
    for (int i = 0; i < st.n; ++i) {
      x = invertedResidual(b, blockId++, x, cin, st.c, st.t, i == 0 ? st.s : 1);
      cin = st.c;
    }
  }
  x = mbConvBn(b, "Conv_1", "Conv_1_bn", "out_relu/Relu6", x, 320, 1280, 1, 1,
               Act::Relu6);
  x = globalAveragePool(b, "global_average_pooling2d/Mean", x);
  classifier(b, x, 1280, 1000);
}

//===----------------------------------------------------------------------===//
// MLP 784-512-256-10
//===----------------------------------------------------------------------===//

void buildMlp(GraphBuilder &b, const Options &) {
  Tensor x{b.placeholder("input", {-1, 784}), 1.0 / 3};
  x = dense(b, "dense", x, 784, 512, 0);
  x = {b.op("dense/Relu", "Relu", {x.name}), x.meanSquare / 2};
  x = dense(b, "dense_1", x, 512, 256, 0);
  x = {b.op("dense_1/Relu", "Relu", {x.name}), x.meanSquare / 2};
  classifier(b, x, 256, 10);
}

//===----------------------------------------------------------------------===//
// One BERT-base encoder layer (google-research/bert's modeling.py layout)
//===----------------------------------------------------------------------===//

constexpr int64_t kSeq = 128, kHidden = 768, kHeads = 12, kHeadSize = 64,
                  kIntermediate = 3072;

/// Layer normalization over the last axis as TensorFlow writes it
/// (tf.nn.moments + tf.nn.batch_normalization):
///   mean = Mean(x), variance = Mean(SquaredDifference(x, mean)),
///   inv = Rsqrt(variance + eps) * gamma,
///   out = x * inv + (beta - mean * inv).
Tensor layerNorm(GraphBuilder &b, const std::string &prefix, Tensor x) {
  std::string gamma = b.normalConst(prefix + "/gamma", {kHidden}, 1.0, 0.05);
  std::string beta = b.normalConst(prefix + "/beta", {kHidden}, 0.0, 0.05);
  std::string mean = b.mean(prefix + "/moments/mean", x.name, {-1}, true);
  std::string sq = b.op(prefix + "/moments/SquaredDifference",
                        "SquaredDifference", {x.name, mean});
  std::string var = b.mean(prefix + "/moments/variance", sq, {-1}, true);
  std::string eps = b.scalarConst(prefix + "/batchnorm/add/y", 1e-12f);
  std::string add = b.op(prefix + "/batchnorm/add", "AddV2", {var, eps});
  std::string rsqrt = b.op(prefix + "/batchnorm/Rsqrt", "Rsqrt", {add});
  std::string inv = b.op(prefix + "/batchnorm/mul", "Mul", {rsqrt, gamma});
  std::string scaled = b.op(prefix + "/batchnorm/mul_1", "Mul", {x.name, inv});
  std::string meanInv = b.op(prefix + "/batchnorm/mul_2", "Mul", {mean, inv});
  std::string shift = b.op(prefix + "/batchnorm/sub", "Sub", {beta, meanInv});
  return {b.op(prefix + "/batchnorm/add_1", "AddV2", {scaled, shift}), 1.0};
}

/// [B*S, 768] -> [B, heads, S, 64] (BERT's transpose_for_scores).
std::string toHeads(GraphBuilder &b, const std::string &prefix,
                    const std::string &x) {
  std::string r = b.reshape(prefix + "/Reshape", x,
                            {-1, kSeq, kHeads, kHeadSize});
  return b.transpose(prefix + "/transpose", r, {0, 2, 1, 3});
}

/// Dense layers inside the layer are LeCun-scaled (1/sqrt(fan_in)), which
/// keeps the mean square through them; BERT's own initializer (0.02) would
/// make the attention scores nearly constant.
Tensor bertDense(GraphBuilder &b, const std::string &prefix, Tensor x,
                 int64_t in, int64_t out) {
  return dense(b, prefix, x, in, out, 1.0 / std::sqrt(static_cast<double>(in)));
}

/// gelu(x) = x * 0.5 * (1 + erf(x / sqrt(2))), as tf.nn.gelu writes it.
Tensor geluErf(GraphBuilder &b, const std::string &prefix, Tensor x) {
  std::string sqrt2 = b.scalarConst(prefix + "/Cast/x", 1.41421356f);
  std::string half = b.scalarConst(prefix + "/mul/y", 0.5f);
  std::string one = b.scalarConst(prefix + "/add/x", 1.0f);
  std::string div = b.op(prefix + "/truediv", "RealDiv", {x.name, sqrt2});
  std::string erf = b.op(prefix + "/Erf", "Erf", {div});
  std::string onePlus = b.op(prefix + "/add", "AddV2", {one, erf});
  std::string xHalf = b.op(prefix + "/mul", "Mul", {x.name, half});
  return {b.op(prefix + "/mul_1", "Mul", {xHalf, onePlus}), x.meanSquare / 2};
}

/// tf.nn.gelu(approximate=True):
///   0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).
Tensor geluTanh(GraphBuilder &b, const std::string &prefix, Tensor x) {
  std::string three = b.scalarConst(prefix + "/Pow/y", 3.0f);
  std::string coeff = b.scalarConst(prefix + "/Cast/x", 0.044715f);
  std::string root = b.scalarConst(prefix + "/mul_1/x", 0.7978845608f);
  std::string one = b.scalarConst(prefix + "/add_1/x", 1.0f);
  std::string half = b.scalarConst(prefix + "/mul_2/x", 0.5f);
  std::string cube = b.op(prefix + "/Pow", "Pow", {x.name, three});
  std::string scaledCube = b.op(prefix + "/mul", "Mul", {coeff, cube});
  std::string inner = b.op(prefix + "/add", "AddV2", {x.name, scaledCube});
  std::string arg = b.op(prefix + "/mul_1", "Mul", {root, inner});
  std::string tanh = b.op(prefix + "/Tanh", "Tanh", {arg});
  std::string onePlus = b.op(prefix + "/add_1", "AddV2", {one, tanh});
  std::string xHalf = b.op(prefix + "/mul_2", "Mul", {half, x.name});
  return {b.op(prefix + "/mul_3", "Mul", {xHalf, onePlus}), x.meanSquare / 2};
}

void buildBertLayer(GraphBuilder &b, const Options &options) {
  const std::string l = "layer_0";
  // Inputs are layer-normalized embeddings: mean square about 1.
  Tensor input{b.placeholder("input", {-1, kSeq, kHidden}), 1.0};
  Tensor x{b.reshape(l + "/reshape_to_matrix", input.name, {-1, kHidden}),
           input.meanSquare};

  // Self-attention.
  const std::string att = l + "/attention/self";
  Tensor q = bertDense(b, att + "/query", x, kHidden, kHidden);
  Tensor k = bertDense(b, att + "/key", x, kHidden, kHidden);
  Tensor v = bertDense(b, att + "/value", x, kHidden, kHidden);
  std::string qh = toHeads(b, att + "/query_heads", q.name);
  std::string kh = toHeads(b, att + "/key_heads", k.name);
  std::string vh = toHeads(b, att + "/value_heads", v.name);
  std::string scores = b.batchMatMul(att + "/MatMul", qh, kh, false, true);
  std::string scale = b.scalarConst(att + "/Mul/y", 0.125f); // 1/sqrt(64)
  std::string scaled = b.op(att + "/Mul", "Mul", {scores, scale});
  std::string probs = b.op(att + "/Softmax", "Softmax", {scaled});
  std::string context = b.batchMatMul(att + "/MatMul_1", probs, vh, false,
                                      false);
  std::string ct = b.transpose(att + "/transpose_3", context, {0, 2, 1, 3});
  Tensor merged{b.reshape(att + "/Reshape_3", ct, {-1, kHidden}),
                v.meanSquare};

  // Output projection, residual, layer norm.
  const std::string out = l + "/attention/output";
  Tensor proj = bertDense(b, out + "/dense", merged, kHidden, kHidden);
  Tensor res{b.op(out + "/add", "AddV2", {proj.name, x.name}),
             proj.meanSquare + x.meanSquare};
  Tensor attended = layerNorm(b, out + "/LayerNorm", res);

  // Feed-forward with Gelu, residual, layer norm, back to [B, S, 768].
  Tensor inter = bertDense(b, l + "/intermediate/dense", attended, kHidden,
                           kIntermediate);
  inter = options.tanhGelu ? geluTanh(b, l + "/intermediate/dense/gelu", inter)
                           : geluErf(b, l + "/intermediate/dense/gelu", inter);
  Tensor ffn = bertDense(b, l + "/output/dense", inter, kIntermediate, kHidden);
  Tensor res2{b.op(l + "/output/add", "AddV2", {ffn.name, attended.name}),
              ffn.meanSquare + attended.meanSquare};
  Tensor normed = layerNorm(b, l + "/output/LayerNorm", res2);
  b.reshape("output", normed.name, {-1, kSeq, kHidden});
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

struct Model {
  const char *name;
  std::function<void(GraphBuilder &, const Options &)> build;
};

const std::vector<Model> &models() {
  static const std::vector<Model> all = {
      {"resnet50", buildResNet50},
      {"mobilenet_v2", buildMobileNetV2},
      {"mlp", buildMlp},
      {"bert_layer", buildBertLayer},
  };
  return all;
}

int usage(const std::string &error) {
  if (!error.empty())
    std::cerr << "tfaot_gen_models: error: " << error << "\n";
  std::cerr << "usage: tfaot_gen_models <out_dir> [--seed N] [--only "
               "name,...] [--gelu erf|tanh]\n  models:";
  for (const Model &m : models())
    std::cerr << " " << m.name;
  std::cerr << "\n";
  return error.empty() ? 0 : 1;
}

std::set<std::string> splitList(const std::string &list) {
  std::set<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty())
      out.insert(item);
  return out;
}

} // namespace

int main(int argc, char **argv) {
  std::string outDir;
  uint64_t seed = 0;
  std::set<std::string> only;
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string &flag) -> std::string {
      if (i + 1 >= argc) {
        usage(flag + " needs a value");
        std::exit(1);
      }
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h")
      return usage("");
    if (arg == "--seed") {
      std::string s = value(arg);
      char *end = nullptr;
      seed = std::strtoull(s.c_str(), &end, 10);
      if (s.empty() || *end)
        return usage("bad --seed '" + s + "'");
    } else if (arg == "--gelu") {
      std::string g = value(arg);
      if (g != "erf" && g != "tanh")
        return usage("--gelu takes erf or tanh, not '" + g + "'");
      options.tanhGelu = g == "tanh";
    } else if (arg == "--only") {
      only = splitList(value(arg));
    } else if (!arg.empty() && arg[0] == '-') {
      return usage("unknown flag '" + arg + "'");
    } else if (outDir.empty()) {
      outDir = arg;
    } else {
      return usage("more than one output directory");
    }
  }
  if (outDir.empty())
    return usage("no output directory");
  for (const std::string &name : only) {
    bool known = false;
    for (const Model &m : models())
      known |= name == m.name;
    if (!known)
      return usage("unknown model '" + name + "'");
  }

  std::error_code ec;
  std::filesystem::create_directories(outDir, ec);
  if (ec)
    return usage("cannot create '" + outDir + "': " + ec.message());
  for (const Model &m : models()) {
    if (!only.empty() && !only.count(m.name))
      continue;
    auto start = std::chrono::steady_clock::now();
    GraphBuilder b(seed ^ hashName(m.name));
    m.build(b, options);
    std::string bytes = b.serialize();
    std::string path = outDir + "/" + m.name + ".pb";
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out)
      return usage("cannot write '" + path + "'");
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::cout << path << ": " << b.graph().node_size() << " nodes, "
              << b.parameterCount() << " parameters, " << bytes.size()
              << " bytes (" << static_cast<int>(ms) << " ms)\n";
  }
  return 0;
}
