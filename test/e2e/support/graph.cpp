//===- graph.cpp - Weights and an MLP reference from a GraphDef -----------===//
// SPDX-License-Identifier: Apache-2.0
#include "graph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

namespace tfaot_e2e {

namespace {

std::string StripInputRef(const std::string &ref) {
  std::string name = ref;
  if (!name.empty() && name[0] == '^')
    name.erase(0, 1);
  const size_t colon = name.find(':');
  if (colon != std::string::npos)
    name.erase(colon);
  return name;
}

bool AttrBool(const tensorflow::NodeDef &node, const std::string &key) {
  auto it = node.attr().find(key);
  return it != node.attr().end() && it->second.b();
}

// Data inputs only (control inputs "^x" are skipped).
std::vector<std::string> DataInputs(const tensorflow::NodeDef &node) {
  std::vector<std::string> inputs;
  for (const std::string &in : node.input())
    if (in.empty() || in[0] != '^')
      inputs.push_back(in);
  return inputs;
}

}  // namespace

bool LoadGraphDef(const std::string &path, tensorflow::GraphDef *graph,
                  std::string *error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open '" + path + "'";
    return false;
  }
  if (!graph->ParseFromIstream(&in)) {
    *error = "'" + path + "' is not a binary GraphDef";
    return false;
  }
  return true;
}

const tensorflow::NodeDef *FindNode(const tensorflow::GraphDef &graph,
                                    const std::string &name) {
  const std::string plain = StripInputRef(name);
  for (const tensorflow::NodeDef &node : graph.node())
    if (node.name() == plain)
      return &node;
  return nullptr;
}

const tensorflow::NodeDef *FindNodeThroughIdentity(
    const tensorflow::GraphDef &graph, const std::string &name) {
  const tensorflow::NodeDef *node = FindNode(graph, name);
  // Bounded, so that a (malformed) Identity cycle cannot hang the test.
  for (int hops = 0; node && node->op() == "Identity" && hops < 64; ++hops) {
    std::vector<std::string> in = DataInputs(*node);
    node = in.size() == 1 ? FindNode(graph, in[0]) : nullptr;
  }
  return node;
}

bool GetConstFloat(const tensorflow::GraphDef &graph, const std::string &name,
                   FloatTensor *out, std::string *error) {
  const tensorflow::NodeDef *node = FindNodeThroughIdentity(graph, name);
  if (!node || node->op() != "Const") {
    *error = "'" + name + "' is not (an Identity of) a Const node";
    return false;
  }
  auto it = node->attr().find("value");
  if (it == node->attr().end() || !it->second.has_tensor()) {
    *error = "Const '" + node->name() + "' has no value tensor";
    return false;
  }
  const tensorflow::TensorProto &t = it->second.tensor();
  if (t.dtype() != tensorflow::DT_FLOAT) {
    *error = "Const '" + node->name() + "' is not float32";
    return false;
  }
  FloatTensor result;
  size_t count = 1;
  for (const auto &d : t.tensor_shape().dim()) {
    result.dims.push_back(d.size());
    count *= static_cast<size_t>(d.size());
  }
  if (!t.tensor_content().empty()) {
    const std::string &raw = t.tensor_content();
    if (raw.size() != count * 4) {
      *error = "Const '" + node->name() + "': tensor_content has " +
               std::to_string(raw.size()) + " bytes, shape needs " +
               std::to_string(count * 4);
      return false;
    }
    result.values.resize(count);
    for (size_t i = 0; i < count; ++i) {
      // Little-endian by definition of tensor_content; assembled by hand so
      // the reference does not depend on the host's byte order.
      const unsigned char *p =
          reinterpret_cast<const unsigned char *>(raw.data()) + 4 * i;
      const uint32_t bits = uint32_t(p[0]) | uint32_t(p[1]) << 8 |
                            uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
      std::memcpy(&result.values[i], &bits, 4);
    }
  } else if (t.float_val_size() == static_cast<int>(count)) {
    result.values.assign(t.float_val().begin(), t.float_val().end());
  } else if (t.float_val_size() == 1) {
    result.values.assign(count, t.float_val(0));
  } else {
    *error = "Const '" + node->name() + "': " +
             std::to_string(t.float_val_size()) + " float_val for " +
             std::to_string(count) + " elements";
    return false;
  }
  *out = std::move(result);
  return true;
}

const char *ActivationName(Activation a) {
  switch (a) {
  case Activation::kNone: return "none";
  case Activation::kRelu: return "Relu";
  case Activation::kSigmoid: return "Sigmoid";
  }
  return "?";
}

bool ExtractDenseChain(const tensorflow::GraphDef &graph,
                       const std::string &input, const std::string &output,
                       std::vector<DenseLayer> *layers, std::string *error) {
  std::vector<DenseLayer> reversed;
  const tensorflow::NodeDef *node = FindNodeThroughIdentity(graph, output);
  for (;;) {
    if (!node) {
      *error = "dangling input while walking back from '" + output + "'";
      return false;
    }
    if (node->op() == "Placeholder") {
      if (node->name() != input) {
        *error = "reached Placeholder '" + node->name() + "', expected '" +
                 input + "'";
        return false;
      }
      break;
    }
    DenseLayer layer;
    // Optional activation.
    if (node->op() == "Relu" || node->op() == "Sigmoid") {
      layer.activation =
          node->op() == "Relu" ? Activation::kRelu : Activation::kSigmoid;
      std::vector<std::string> in = DataInputs(*node);
      if (in.size() != 1) {
        *error = "'" + node->name() + "' does not have one input";
        return false;
      }
      node = FindNodeThroughIdentity(graph, in[0]);
      if (!node) {
        *error = "dangling input of an activation";
        return false;
      }
    }
    // Bias addition: one operand is a Const vector, the other the MatMul.
    if (node->op() != "Add" && node->op() != "AddV2" &&
        node->op() != "BiasAdd") {
      *error = "expected Add/AddV2/BiasAdd, found " + node->op() + " '" +
               node->name() + "'";
      return false;
    }
    if (node->op() == "BiasAdd") {
      auto it = node->attr().find("data_format");
      if (it != node->attr().end() && !it->second.s().empty() &&
          it->second.s() != "NHWC") {
        *error = "BiasAdd '" + node->name() + "' is not NHWC";
        return false;
      }
    }
    std::vector<std::string> add_in = DataInputs(*node);
    if (add_in.size() != 2) {
      *error = "'" + node->name() + "' does not have two inputs";
      return false;
    }
    const tensorflow::NodeDef *a = FindNodeThroughIdentity(graph, add_in[0]);
    const tensorflow::NodeDef *b = FindNodeThroughIdentity(graph, add_in[1]);
    if (!a || !b) {
      *error = "dangling input of '" + node->name() + "'";
      return false;
    }
    std::string bias_name;
    const tensorflow::NodeDef *matmul = nullptr;
    if (b->op() == "Const") {
      bias_name = add_in[1];
      matmul = a;
    } else if (a->op() == "Const" && node->op() != "BiasAdd") {
      bias_name = add_in[0];
      matmul = b;
    } else {
      *error = "no Const bias operand on '" + node->name() + "'";
      return false;
    }
    FloatTensor bias;
    if (!GetConstFloat(graph, bias_name, &bias, error))
      return false;
    if (matmul->op() != "MatMul") {
      *error = "expected MatMul, found " + matmul->op() + " '" +
               matmul->name() + "'";
      return false;
    }
    if (AttrBool(*matmul, "transpose_a") || AttrBool(*matmul, "transpose_b")) {
      *error = "MatMul '" + matmul->name() + "' transposes an operand";
      return false;
    }
    std::vector<std::string> mm_in = DataInputs(*matmul);
    if (mm_in.size() != 2) {
      *error = "MatMul '" + matmul->name() + "' does not have two inputs";
      return false;
    }
    FloatTensor kernel;
    if (!GetConstFloat(graph, mm_in[1], &kernel, error))
      return false;
    if (kernel.dims.size() != 2 || bias.dims.size() != 1 ||
        bias.dims[0] != kernel.dims[1]) {
      *error = "kernel/bias shapes of '" + matmul->name() + "' do not match";
      return false;
    }
    layer.matmul_node = matmul->name();
    layer.in = kernel.dims[0];
    layer.out = kernel.dims[1];
    layer.kernel = std::move(kernel.values);
    layer.bias = std::move(bias.values);
    reversed.push_back(std::move(layer));
    node = FindNodeThroughIdentity(graph, mm_in[0]);
  }
  if (reversed.empty()) {
    *error = "no layers between '" + input + "' and '" + output + "'";
    return false;
  }
  layers->assign(reversed.rbegin(), reversed.rend());
  for (size_t i = 1; i < layers->size(); ++i) {
    if ((*layers)[i].in != (*layers)[i - 1].out) {
      *error = "layer sizes do not chain at '" + (*layers)[i].matmul_node + "'";
      return false;
    }
  }
  return true;
}

std::vector<double> RunDenseChain(const std::vector<DenseLayer> &layers,
                                  const std::vector<float> &input,
                                  int64_t batch) {
  std::vector<double> x(input.begin(), input.end());
  for (const DenseLayer &l : layers) {
    std::vector<double> y(static_cast<size_t>(batch * l.out));
    for (int64_t r = 0; r < batch; ++r) {
      for (int64_t j = 0; j < l.out; ++j) {
        double acc = 0.0;
        for (int64_t k = 0; k < l.in; ++k)
          acc += x[r * l.in + k] * static_cast<double>(l.kernel[k * l.out + j]);
        acc += static_cast<double>(l.bias[j]);
        switch (l.activation) {
        case Activation::kNone: break;
        case Activation::kRelu: acc = acc > 0.0 ? acc : 0.0; break;
        case Activation::kSigmoid: acc = 1.0 / (1.0 + std::exp(-acc)); break;
        }
        y[r * l.out + j] = acc;
      }
    }
    x = std::move(y);
  }
  return x;
}

std::vector<int64_t> ArgMaxRows(const std::vector<double> &m, int64_t rows,
                                int64_t cols) {
  std::vector<int64_t> idx(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    int64_t best = 0;
    for (int64_t c = 1; c < cols; ++c)
      if (m[r * cols + c] > m[r * cols + best])
        best = c;
    idx[r] = best;
  }
  return idx;
}

std::vector<double> Top2Gap(const std::vector<double> &m, int64_t rows,
                            int64_t cols) {
  std::vector<double> gaps(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    double first = -std::numeric_limits<double>::infinity();
    double second = first;
    for (int64_t c = 0; c < cols; ++c) {
      const double v = m[r * cols + c];
      if (v > first) {
        second = first;
        first = v;
      } else if (v > second) {
        second = v;
      }
    }
    gaps[r] = first - second;
  }
  return gaps;
}

}  // namespace tfaot_e2e
