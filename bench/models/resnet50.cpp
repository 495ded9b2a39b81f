//===- resnet50.cpp - ResNet-50 v1.5 --------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// ResNet-50 v1.5 in the Keras ResNet50 layout (buildResNet50).
//
//===----------------------------------------------------------------------===//

#include "layers.h"
#include "models.h"

#include <cstdint>
#include <string>

namespace tfaot_gen_models {

namespace {

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

} // namespace

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

} // namespace tfaot_gen_models
