//===- bert_layer.cpp - One BERT-base encoder layer -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// One BERT-base encoder layer in google-research/bert's modeling.py
// layout (buildBertLayer).
//
//===----------------------------------------------------------------------===//

#include "layers.h"
#include "models.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace tfaot_gen_models {

namespace {

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

} // namespace

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

} // namespace tfaot_gen_models
