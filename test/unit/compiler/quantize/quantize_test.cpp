//===- quantize_test.cpp - --quantize=int8 against a scalar reference -----===//
// SPDX-License-Identifier: Apache-2.0
//
// A small convolutional network (3x3 stride-2 SAME conv + bias + ReLU, 1x1
// conv + ReLU, 3x3 SAME depthwise conv + bias + ReLU, 3x3 VALID conv,
// flatten, MatMul) is compiled with
// --quantize=int8 --quantize_all_layers, run in this process, and compared
// with a scalar int8 implementation written here from the scheme's
// definition: per-tensor asymmetric activations over the calibrated range
// (widened to contain 0), per-channel symmetric weights, int32 sums,
// rescale by input scale x weight scale. The float network is implemented
// here too; it gives the calibration ranges and the accuracy bound.
//
// The shapes cover what the lowering treats specially: K = 27 (padded to
// 28), N = 8, 20 and 12 (padded to 16 and 32), zero-point padding (SAME),
// a 1x1 convolution read without a copy, a depthwise convolution (the
// runtime's depthwise kernel, 20 channels: one full and one partial
// vector) and a MatMul.
//
//===----------------------------------------------------------------------===//
#include "test/unit/compiler/TempDirTest.h"

#include "compiler/Compile.h"
#include "compiler/driver/Driver.h"
#include "compiler/jit/JitModel.h"
#include "compiler/proto/graph.pb.h"
#include "compiler/quantize/Quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace tfaot;

namespace {

//===----------------------------------------------------------------------===//
// The network, as a GraphDef and as float and int8 reference code
//===----------------------------------------------------------------------===//

struct Conv {
  std::string name;
  int kh, kw, cin, cout, stride;
  bool same, relu;
  std::vector<float> weights, bias; // HWCF (depthwise: HWC1); bias may be empty
  bool depthwise = false;           // cout == cin, channel multiplier 1
};

struct Net {
  std::vector<Conv> convs;
  std::vector<float> dense; // [48, 10]
  static constexpr int kInput = 7, kChannels = 3, kFlat = 48, kClasses = 10;
};

Net makeNet(uint64_t seed, bool withDepthwise = true) {
  std::mt19937_64 rng(seed);
  auto normals = [&](size_t n, double stddev) {
    std::normal_distribution<float> normal(0.0f, stddev);
    std::vector<float> v(n);
    for (float &x : v)
      x = normal(rng);
    return v;
  };
  Net net;
  net.convs = {
      {"conv1/Conv2D", 3, 3, 3, 8, 2, true, true, normals(3 * 3 * 3 * 8, 0.5),
       normals(8, 0.1)},
      {"conv2/Conv2D", 1, 1, 8, 20, 1, false, true, normals(8 * 20, 0.4), {}},
      {"dw/depthwise", 3, 3, 20, 20, 1, true, true, normals(3 * 3 * 20, 0.5),
       normals(20, 0.1), true},
      {"conv3/Conv2D", 3, 3, 20, 12, 1, false, false,
       normals(3 * 3 * 20 * 12, 0.2), {}},
  };
  if (!withDepthwise)
    net.convs.erase(net.convs.begin() + 2);
  net.dense = normals(Net::kFlat * Net::kClasses, 0.3);
  return net;
}

/// An NHWC activation of batch 1.
struct Image {
  int h, w, c;
  std::vector<float> v;
  float at(int y, int x, int ch) const { return v[(y * w + x) * c + ch]; }
};

/// Output size and leading padding of TF's SAME / VALID.
std::pair<int, int> window(int in, int k, int stride, bool same) {
  if (!same)
    return {(in - k) / stride + 1, 0};
  int out = (in + stride - 1) / stride;
  int pad = std::max((out - 1) * stride + k - in, 0);
  return {out, pad / 2};
}

/// One convolution; `tap(y, x, ch)` is the input value (0 outside).
template <typename Tap, typename Sum>
Image convolve(const Image &in, const Conv &conv, Tap tap, Sum finish) {
  auto [oh, padTop] = window(in.h, conv.kh, conv.stride, conv.same);
  auto [ow, padLeft] = window(in.w, conv.kw, conv.stride, conv.same);
  Image out{oh, ow, conv.cout, std::vector<float>(oh * ow * conv.cout)};
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      for (int f = 0; f < conv.cout; ++f) {
        double sum = 0;
        for (int i = 0; i < conv.kh; ++i)
          for (int j = 0; j < conv.kw; ++j)
            for (int ch = 0; ch < conv.cin; ++ch) {
              int iy = y * conv.stride + i - padTop;
              int ix = x * conv.stride + j - padLeft;
              if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w ||
                  (conv.depthwise && ch != f))
                continue;
              sum += tap(in, iy, ix, ch) *
                     conv.weights[conv.depthwise
                                      ? (i * conv.kw + j) * conv.cin + ch
                                      : ((i * conv.kw + j) * conv.cin + ch) *
                                                conv.cout +
                                            f];
            }
        out.v[(y * ow + x) * conv.cout + f] = finish(sum, f);
      }
  return out;
}

/// The inputs of the contractions and the logits, in float.
struct FloatRun {
  std::vector<std::vector<float>> layerInputs;
  std::vector<float> logits;
};

FloatRun runFloat(const Net &net, const std::vector<float> &input) {
  FloatRun run;
  Image x{Net::kInput, Net::kInput, Net::kChannels, input};
  for (const Conv &conv : net.convs) {
    run.layerInputs.push_back(x.v);
    x = convolve(
        x, conv, [](const Image &in, int y, int xx, int c) { return in.at(y, xx, c); },
        [&](double sum, int f) {
          float y = static_cast<float>(sum) + (conv.bias.empty() ? 0 : conv.bias[f]);
          return conv.relu ? std::max(y, 0.0f) : y;
        });
  }
  run.layerInputs.push_back(x.v);
  run.logits.assign(Net::kClasses, 0);
  for (int n = 0; n < Net::kClasses; ++n) {
    double sum = 0;
    for (int k = 0; k < Net::kFlat; ++k)
      sum += x.v[k] * net.dense[k * Net::kClasses + n];
    run.logits[n] = static_cast<float>(sum);
  }
  return run;
}

/// The scheme, from its definition (not from the compiler's code).
struct Quantized {
  float scale;
  int zeroPoint;
  int8_t operator()(float x) const {
    float q = std::nearbyint(x * static_cast<float>(1.0 / scale)) + zeroPoint;
    return static_cast<int8_t>(std::clamp(q, -128.0f, 127.0f));
  }
};

Quantized activationScheme(float min, float max) {
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  float scale = (max - min) / 255.0f;
  return {scale, static_cast<int>(std::clamp(
                     std::nearbyint(-128.0f - min / scale), -128.0f, 127.0f))};
}

/// Weights [k, n] to int8 per column, and the column scales.
std::vector<float> quantizeWeights(std::vector<float> &w, int n) {
  int k = static_cast<int>(w.size()) / n;
  std::vector<float> scales(n, 0);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j)
      scales[j] = std::max(scales[j], std::fabs(w[i * n + j]));
  for (float &s : scales)
    s = s > 0 ? s / 127.0f : 1.0f;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j)
      w[i * n + j] = std::clamp(std::nearbyint(w[i * n + j] / scales[j]),
                                -127.0f, 127.0f);
  return scales;
}

std::vector<float> runInt8(Net net, const std::vector<Quantized> &schemes,
                           const std::vector<float> &input) {
  Image x{Net::kInput, Net::kInput, Net::kChannels, input};
  for (size_t l = 0; l < net.convs.size(); ++l) {
    Conv &conv = net.convs[l];
    std::vector<float> scales = quantizeWeights(conv.weights, conv.cout);
    Quantized q = schemes[l];
    // Taps are (q(x) - zp): a padded tap would be zp - zp = 0, as skipped.
    x = convolve(
        x, conv,
        [&](const Image &in, int y, int xx, int c) {
          return static_cast<double>(q(in.at(y, xx, c)) - q.zeroPoint);
        },
        [&](double sum, int f) {
          float y = static_cast<float>(static_cast<int32_t>(sum)) *
                    (q.scale * scales[f]);
          if (!conv.bias.empty())
            y += conv.bias[f];
          return conv.relu ? std::max(y, 0.0f) : y;
        });
  }
  std::vector<float> scales = quantizeWeights(net.dense, Net::kClasses);
  Quantized q = schemes.back();
  std::vector<float> logits(Net::kClasses);
  for (int n = 0; n < Net::kClasses; ++n) {
    int32_t sum = 0;
    for (int k = 0; k < Net::kFlat; ++k)
      sum += (q(x.v[k]) - q.zeroPoint) *
             static_cast<int32_t>(net.dense[k * Net::kClasses + n]);
    logits[n] = static_cast<float>(sum) * (q.scale * scales[n]);
  }
  return logits;
}

//===----------------------------------------------------------------------===//
// Writing the graph and the samples
//===----------------------------------------------------------------------===//

class GraphWriter {
public:
  tensorflow::NodeDef &node(const std::string &name, const std::string &op,
                            std::vector<std::string> inputs) {
    tensorflow::NodeDef &n = *graph.add_node();
    n.set_name(name);
    n.set_op(op);
    for (const std::string &input : inputs)
      n.add_input(input);
    if (op != "Placeholder" && op != "Const")
      (*n.mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
    return n;
  }
  void constant(const std::string &name, const std::vector<int64_t> &shape,
                const void *data, size_t bytes, tensorflow::DataType type) {
    tensorflow::NodeDef &n = node(name, "Const", {});
    (*n.mutable_attr())["dtype"].set_type(type);
    tensorflow::TensorProto &t = *(*n.mutable_attr())["value"].mutable_tensor();
    t.set_dtype(type);
    for (int64_t d : shape)
      t.mutable_tensor_shape()->add_dim()->set_size(d);
    t.set_tensor_content(std::string(static_cast<const char *>(data), bytes));
  }
  void floats(const std::string &name, const std::vector<int64_t> &shape,
              const std::vector<float> &v) {
    constant(name, shape, v.data(), v.size() * 4, tensorflow::DT_FLOAT);
  }
  void conv(const std::string &name, const std::string &input,
            const std::string &filter, int stride, const char *padding,
            const char *op) {
    tensorflow::NodeDef &n = node(name, op, {input, filter});
    auto &attrs = *n.mutable_attr();
    for (int s : {1, stride, stride, 1})
      attrs["strides"].mutable_list()->add_i(s);
    attrs["padding"].set_s(padding);
  }
  tensorflow::GraphDef graph;
};

std::string writeGraph(const Net &net) {
  GraphWriter g;
  tensorflow::NodeDef &input = g.node("input", "Placeholder", {});
  (*input.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  std::string x = "input";
  for (const Conv &conv : net.convs) {
    std::string prefix = conv.name.substr(0, conv.name.find('/'));
    g.floats(prefix + "/kernel",
             {conv.kh, conv.kw, conv.cin, conv.depthwise ? 1 : conv.cout},
             conv.weights);
    g.conv(conv.name, x, prefix + "/kernel", conv.stride,
           conv.same ? "SAME" : "VALID",
           conv.depthwise ? "DepthwiseConv2dNative" : "Conv2D");
    x = conv.name;
    if (!conv.bias.empty()) {
      g.floats(prefix + "/bias", {conv.cout}, conv.bias);
      g.node(prefix + "/BiasAdd", "BiasAdd", {x, prefix + "/bias"});
      x = prefix + "/BiasAdd";
    }
    if (conv.relu) {
      g.node(prefix + "/Relu", "Relu", {x});
      x = prefix + "/Relu";
    }
  }
  int32_t flat[] = {1, Net::kFlat};
  g.constant("flatten/shape", {2}, flat, sizeof(flat), tensorflow::DT_INT32);
  tensorflow::NodeDef &reshape =
      g.node("flatten/Reshape", "Reshape", {x, "flatten/shape"});
  (*reshape.mutable_attr())["Tshape"].set_type(tensorflow::DT_INT32);
  g.floats("dense/kernel", {Net::kFlat, Net::kClasses}, net.dense);
  g.node("logits", "MatMul", {"flatten/Reshape", "dense/kernel"});
  return g.graph.SerializeAsString();
}

/// A .npy file of float32 [n, 7, 7, 3].
std::string npy(const std::vector<std::vector<float>> &samples) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(samples.size()) + ", 7, 7, 3), }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::string file = "\x93NUMPY\x01";
  file += '\0';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  for (const std::vector<float> &s : samples)
    file.append(reinterpret_cast<const char *>(s.data()), s.size() * 4);
  return file;
}

class QuantizeTest : public TempDirTest {
protected:
  QuantizeTest() : TempDirTest("tfaot-quantize-test") {}

  CompileOptions options() {
    CompileOptions o;
    o.graph = path("net.pb");
    o.feeds = {"input:1,7,7,3"};
    o.fetches = {"logits"};
    o.quantize = "int8";
    o.calibration = path("calibration.npy");
    o.quantizeAllLayers = true;
    o.quantizeMinK = 0; // K = 27, 8, 9, 180 and 48 are all small
    o.verbosity = Verbosity::Quiet;
    return o;
  }
};

TEST_F(QuantizeTest, MatchesScalarInt8Reference) {
  Net net = makeNet(3);
  write("net.pb", writeGraph(net));
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> pixel(-0.5f, 1.0f);
  std::vector<std::vector<float>> samples(6, std::vector<float>(7 * 7 * 3));
  for (auto &s : samples)
    for (float &v : s)
      v = pixel(rng);
  write("calibration.npy", npy(samples));

  CompiledArtifacts artifacts;
  CompileOptions o = options();
  o.artifacts = &artifacts;
  ASSERT_EQ(compile(o, os), 0) << messages;

  // Ranges: min/max of each layer's input over the calibration samples.
  const int layers = static_cast<int>(net.convs.size()) + 1;
  std::vector<float> lo(layers, INFINITY), hi(layers, -INFINITY);
  for (const auto &s : samples) {
    FloatRun run = runFloat(net, s);
    for (int l = 0; l < layers; ++l)
      for (float v : run.layerInputs[l]) {
        lo[l] = std::min(lo[l], v);
        hi[l] = std::max(hi[l], v);
      }
  }
  std::vector<Quantized> schemes;
  for (int l = 0; l < layers; ++l)
    schemes.push_back(activationScheme(lo[l], hi[l]));

  auto model = JitModel::load(artifacts, 1);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  // A calibration sample and one it has not seen (inputs beyond the range
  // saturate at the clamp).
  std::vector<float> unseen(7 * 7 * 3);
  for (float &v : unseen)
    v = 1.5f * pixel(rng);
  for (const std::vector<float> *input : {&samples[0], &samples[4], &unseen}) {
    std::memcpy((*model)->arg(0), input->data(), input->size() * 4);
    ASSERT_TRUE((*model)->run()) << (*model)->runError();
    const float *got = static_cast<const float *>((*model)->result(0));
    std::vector<float> want = runInt8(net, schemes, *input);
    std::vector<float> exact = runFloat(net, *input).logits;
    float largest = 0, error = 0, quantizationError = 0;
    for (int n = 0; n < Net::kClasses; ++n) {
      largest = std::max(largest, std::fabs(want[n]));
      error = std::max(error, std::fabs(got[n] - want[n]));
      quantizationError =
          std::max(quantizationError, std::fabs(want[n] - exact[n]));
    }
    // The integer sums are exact; what remains is float rounding in the
    // rescale and bias (a few ulps, 1e-5 relative leaves room for their
    // order). One quantization step wrong anywhere would move the logits
    // by about the weight x scale product, 1e-3 relative or more.
    EXPECT_LE(error, 1e-5f * largest) << "max |tfaot - reference| " << error;
    EXPECT_GT(quantizationError, 0.0f) << "the int8 path did not run";
    // And on inputs inside the calibrated range the int8 network is a good
    // approximation of the float one: five layers of 8-bit rounding stay
    // within 5% of the largest logit here. (The unseen input is clamped,
    // and moves further.)
    if (input != &unseen)
      EXPECT_LE(quantizationError, 0.05f * largest);
  }
}

TEST_F(QuantizeTest, ErrorsNameTheProblem) {
  // Without the depthwise layer (K = 9), so that conv2 (K = 8) and conv3
  // (K = 180) are the inner layers the --quantize_min_k cases below count.
  Net net = makeNet(3, /*withDepthwise=*/false);
  write("net.pb", writeGraph(net));
  // The wrong shape.
  std::string bad = npy({std::vector<float>(7 * 7 * 3)});
  bad.replace(bad.find("7, 7, 3"), 7, "7, 3, 7");
  write("calibration.npy", bad);
  EXPECT_EQ(compile(options(), os), 1);
  EXPECT_NE(messages.find("does not fit feed 'input' of shape [1, 7, 7, 3]"),
            std::string::npos)
      << messages;

  messages.clear();
  write("calibration.npy", "not numpy");
  EXPECT_EQ(compile(options(), os), 1);
  EXPECT_NE(messages.find("calibration.npy: not a .npy file"),
            std::string::npos)
      << messages;

  messages.clear();
  CompileOptions o = options();
  o.calibration.clear();
  EXPECT_EQ(compile(o, os), 1);
  EXPECT_NE(messages.find("--quantize=int8 needs --calibration"),
            std::string::npos)
      << messages;

  // Without --quantize_all_layers the first and last contraction stay
  // float and conv2/conv3 are int8: it still compiles.
  messages.clear();
  o = options();
  o.quantizeAllLayers = false;
  write("calibration.npy", npy({std::vector<float>(7 * 7 * 3, 0.5f)}));
  EXPECT_EQ(compile(o, os), 0) << messages;

  // With --quantize_min_k 64 only conv3 (K = 180) is left
  // of those two; with 200 none is, which is an error.
  messages.clear();
  o.quantizeMinK = 64;
  EXPECT_EQ(compile(o, os), 0) << messages;
  o.quantizeMinK = 200;
  EXPECT_EQ(compile(o, os), 1);
  EXPECT_NE(messages.find("those summing fewer than 200 products per output "
                          "stay in float (--quantize_min_k)"),
            std::string::npos)
      << messages;
}

TEST(ReadNpy, ConvertsTypesAndRejectsWhatItCannotRead) {
  llvm::SmallString<128> file;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tfaot", "npy", file));
  auto writeFile = [&](const std::string &descr, const std::string &shape,
                       const std::string &data, bool fortran = false) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " +
                         (fortran ? "True" : "False") + ", 'shape': (" +
                         shape + "), }\n";
    std::string bytes = "\x93NUMPY\x01";
    bytes += '\0';
    bytes += static_cast<char>(header.size());
    bytes += '\0';
    std::ofstream(std::string(file), std::ios::binary) << bytes << header << data;
  };
  NpyArray array;
  std::string error;
  writeFile("|u1", "2, 2", std::string("\x00\x01\x80\xff", 4));
  ASSERT_TRUE(readNpy(std::string(file), array, error)) << error;
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(array.values, (std::vector<float>{0, 1, 128, 255}));

  double d[] = {1.5, -2.25};
  writeFile("<f8", "2,", std::string(reinterpret_cast<char *>(d), sizeof(d)));
  ASSERT_TRUE(readNpy(std::string(file), array, error)) << error;
  EXPECT_EQ(array.values, (std::vector<float>{1.5f, -2.25f}));

  writeFile("<f4", "3,", std::string(8, '\0'));
  EXPECT_FALSE(readNpy(std::string(file), array, error));
  EXPECT_NE(error.find("holds 8 bytes of data, but its shape needs 12"),
            std::string::npos)
      << error;
  writeFile("<c8", "1,", std::string(8, '\0'));
  EXPECT_FALSE(readNpy(std::string(file), array, error));
  EXPECT_NE(error.find("dtype '<c8' is not supported"), std::string::npos);
  writeFile("<f4", "1,", std::string(4, '\0'), /*fortran=*/true);
  EXPECT_FALSE(readNpy(std::string(file), array, error));
  EXPECT_NE(error.find("Fortran-order"), std::string::npos);
  llvm::sys::fs::remove(file);
}

} // namespace
