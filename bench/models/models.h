//===- models.h - The models tfaot_gen_models writes ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One builder per model family, each in its own file: it appends the whole
// network to a fresh GraphBuilder (gen_models.cpp seeds it per model).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BENCH_MODELS_MODELS_H
#define TFAOT_BENCH_MODELS_MODELS_H

namespace tfaot_gen_models {

class GraphBuilder;

/// What the command line changes in the models.
struct Options {
  /// BERT's Gelu as the tanh approximation instead of with Erf (for
  /// compilers without Erf; tfaot is one so far).
  bool tanhGelu = false;
};

/// ResNet-50 v1.5 (resnet50.cpp).
void buildResNet50(GraphBuilder &b, const Options &options);
/// MobileNetV2 1.0/224 (mobilenet_v2.cpp).
void buildMobileNetV2(GraphBuilder &b, const Options &options);
/// An MLP 784-512-256-10 (mlp.cpp).
void buildMlp(GraphBuilder &b, const Options &options);
/// One BERT-base encoder layer (bert_layer.cpp).
void buildBertLayer(GraphBuilder &b, const Options &options);

} // namespace tfaot_gen_models

#endif // TFAOT_BENCH_MODELS_MODELS_H
