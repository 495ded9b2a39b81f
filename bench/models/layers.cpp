//===- layers.cpp - Layers the benchmark models share ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The shared layers declared in layers.h.
//
//===----------------------------------------------------------------------===//

#include "layers.h"

#include <cmath>
#include <vector>

namespace tfaot_gen_models {

Tensor activate(GraphBuilder &b, const std::string &name, Tensor x, Act act) {
  if (act == Act::None)
    return x;
  return {b.op(name, act == Act::Relu ? "Relu" : "Relu6", {x.name}),
          x.meanSquare / 2};
}

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

Tensor conv(GraphBuilder &b, const std::string &prefix, Tensor x, int k,
            int64_t cin, int64_t cout, int stride, const std::string &padding) {
  double stddev = std::sqrt(2.0 / static_cast<double>(k * k * cin));
  std::string w = b.normalConst(prefix + "/kernel", {k, k, cin, cout}, 0.0,
                                stddev);
  return {b.conv2d(prefix + "/Conv2D", x.name, w, stride, padding),
          2.0 * x.meanSquare};
}

Tensor depthwiseConv(GraphBuilder &b, const std::string &prefix, Tensor x,
                     int k, int64_t channels, int stride,
                     const std::string &padding) {
  double stddev = std::sqrt(2.0 / static_cast<double>(k * k));
  std::string w = b.normalConst(prefix + "/depthwise_kernel",
                                {k, k, channels, 1}, 0.0, stddev);
  return {b.depthwiseConv2d(prefix + "/depthwise", x.name, w, stride, padding),
          2.0 * x.meanSquare};
}

Tensor zeroPad(GraphBuilder &b, const std::string &name, Tensor x, int top,
               int bottom, int left, int right) {
  return {b.pad(name, x.name, {0, 0, top, bottom, left, right, 0, 0}),
          x.meanSquare};
}

Tensor dense(GraphBuilder &b, const std::string &prefix, Tensor x,
             int64_t in, int64_t out, double stddev,
             const std::string &biasAddName) {
  if (stddev == 0)
    stddev = std::sqrt(2.0 / static_cast<double>(in));
  std::string w = b.normalConst(prefix + "/kernel", {in, out}, 0.0, stddev);
  std::string bias = b.normalConst(prefix + "/bias", {out}, 0.0, 0.02);
  std::string mm = b.matMul(prefix + "/MatMul", x.name, w);
  std::string name = biasAddName.empty() ? prefix + "/BiasAdd" : biasAddName;
  return {b.biasAdd(name, mm, bias),
          static_cast<double>(in) * stddev * stddev * x.meanSquare};
}

Tensor globalAveragePool(GraphBuilder &b, const std::string &name, Tensor x) {
  return {b.mean(name, x.name, {1, 2}, false), x.meanSquare / 4};
}

std::string classifier(GraphBuilder &b, Tensor features, int64_t in,
                       int64_t classes) {
  double stddev = 3.0 / std::sqrt(static_cast<double>(in) * features.meanSquare);
  Tensor logits = dense(b, "predictions", features, in, classes, stddev,
                        "logits");
  return b.op("probs", "Softmax", {logits.name});
}

} // namespace tfaot_gen_models
