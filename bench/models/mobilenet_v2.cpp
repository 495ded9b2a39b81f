//===- mobilenet_v2.cpp - MobileNetV2 1.0/224 -----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// MobileNetV2 1.0/224 in the Keras MobileNetV2 layout (buildMobileNetV2).
//
//===----------------------------------------------------------------------===//

#include "layers.h"
#include "models.h"

#include <cstdint>
#include <string>

namespace tfaot_gen_models {

namespace {

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

} // namespace

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

} // namespace tfaot_gen_models
