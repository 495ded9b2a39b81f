//===- graph.h - Weights and an MLP reference from a GraphDef ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The frozen MLP models in the corpus come without expected outputs. The e2e
// tests therefore compute their own, independently of tfaot: they parse the
// same .pb with the protobuf messages (tfaot_proto; no tfaot importer code),
// pull the Const weights out, and run a deliberately naive reference -
// straightforward loops, double accumulation, no fusion or reordering. A
// compiler bug in import, lowering, weight embedding or codegen shows up as
// a mismatch against it.
//
// ExtractDenseChain reads the model structure from the graph itself (walking
// back from the fetch through Identity, activation, Add/BiasAdd and MatMul
// nodes) rather than from names typed into the tests, and fails loudly on
// anything it does not understand, so the reference can never silently
// compute a different function than the graph describes. Tests still assert
// the number of layers and the activations they expect.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_E2E_SUPPORT_GRAPH_H
#define TFAOT_TEST_E2E_SUPPORT_GRAPH_H

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/proto/graph.pb.h"

namespace tfaot_e2e {

/// Parses a binary GraphDef.
bool LoadGraphDef(const std::string &path, tensorflow::GraphDef *graph,
                  std::string *error);

/// The node called `name` (an input reference such as "x:0" or "^x" is
/// accepted and stripped to the node name), or null.
const tensorflow::NodeDef *FindNode(const tensorflow::GraphDef &graph,
                                    const std::string &name);

/// Like FindNode, then follows Identity nodes to the node producing the
/// value (e.g. "dense/kernel/read" -> "dense/kernel").
const tensorflow::NodeDef *FindNodeThroughIdentity(
    const tensorflow::GraphDef &graph, const std::string &name);

struct FloatTensor {
  std::vector<int64_t> dims;
  std::vector<float> values;  ///< Row-major.
};

/// The value of the float32 Const node `name` (through Identity nodes),
/// decoded from tensor_content (raw little-endian floats) or float_val (one
/// value splats over the whole shape).
bool GetConstFloat(const tensorflow::GraphDef &graph, const std::string &name,
                   FloatTensor *out, std::string *error);

enum class Activation { kNone, kRelu, kSigmoid };
const char *ActivationName(Activation a);

/// One fully connected layer: y = act(x * kernel + bias).
struct DenseLayer {
  std::string matmul_node;   ///< For messages.
  int64_t in = 0, out = 0;
  std::vector<float> kernel; ///< [in, out], row-major, as in the MatMul.
  std::vector<float> bias;   ///< [out].
  Activation activation = Activation::kNone;
};

/// Walks back from node `output` to the Placeholder `input` and returns the
/// layers from first to last. Understands Identity, Relu, Sigmoid, Add,
/// AddV2, BiasAdd (NHWC) and MatMul without transposes.
bool ExtractDenseChain(const tensorflow::GraphDef &graph,
                       const std::string &input, const std::string &output,
                       std::vector<DenseLayer> *layers, std::string *error);

/// Runs `layers` on a [batch, layers[0].in] row-major input in double
/// precision; returns [batch, layers.back().out].
std::vector<double> RunDenseChain(const std::vector<DenseLayer> &layers,
                                  const std::vector<float> &input,
                                  int64_t batch);

/// Index of the largest element of each row of a [rows, cols] matrix (the
/// first one on ties, as TensorFlow's ArgMax).
std::vector<int64_t> ArgMaxRows(const std::vector<double> &m, int64_t rows,
                                int64_t cols);

/// For each row, the gap between the largest and the second largest value:
/// where it is tiny, float rounding may legitimately pick another index.
std::vector<double> Top2Gap(const std::vector<double> &m, int64_t rows,
                            int64_t cols);

}  // namespace tfaot_e2e

#endif  // TFAOT_TEST_E2E_SUPPORT_GRAPH_H
