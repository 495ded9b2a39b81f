//===- mlp.cpp - MLP 784-512-256-10 ---------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// An MLP 784-512-256-10 (buildMlp).
//
//===----------------------------------------------------------------------===//

#include "layers.h"
#include "models.h"

#include <cstdint>
#include <string>

namespace tfaot_gen_models {

void buildMlp(GraphBuilder &b, const Options &) {
  Tensor x{b.placeholder("input", {-1, 784}), 1.0 / 3};
  x = dense(b, "dense", x, 784, 512, 0);
  x = {b.op("dense/Relu", "Relu", {x.name}), x.meanSquare / 2};
  x = dense(b, "dense_1", x, 512, 256, 0);
  x = {b.op("dense_1/Relu", "Relu", {x.name}), x.meanSquare / 2};
  classifier(b, x, 256, 10);
}

} // namespace tfaot_gen_models
