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
// This file is the command line. Each model family has its file
// (resnet50.cpp, mobilenet_v2.cpp, mlp.cpp, bert_layer.cpp; models.h),
// built from the shared layers (layers.h) with GraphBuilder
// (graph_builder.h).
//
//===----------------------------------------------------------------------===//

#include "graph_builder.h"
#include "models.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using tfaot_gen_models::buildBertLayer;
using tfaot_gen_models::buildMlp;
using tfaot_gen_models::buildMobileNetV2;
using tfaot_gen_models::buildResNet50;
using tfaot_gen_models::GraphBuilder;
using tfaot_gen_models::Options;

namespace {

/// FNV-1a, to give each model its own random stream from one seed.
uint64_t hashName(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
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
