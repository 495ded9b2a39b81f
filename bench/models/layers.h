//===- layers.h - Layers the benchmark models share -------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The Keras layers the models have in common (batch norm, convolutions,
// padding, dense, pooling, the classifier head) as groups of GraphBuilder
// nodes, each carrying the mean-square estimate its weights are scaled
// from (layers.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BENCH_MODELS_LAYERS_H
#define TFAOT_BENCH_MODELS_LAYERS_H

#include "graph_builder.h"

#include <cstdint>
#include <string>

namespace tfaot_gen_models {

enum class Act { None, Relu, Relu6 };

/// Activation after a batch norm; halves the mean square (about half of
/// a roughly symmetric input is cut off).
Tensor activate(GraphBuilder &b, const std::string &name, Tensor x, Act act);

/// FusedBatchNormV3 with trained-looking parameters for an input whose
/// mean square is `x.meanSquare`: per-channel moving variances scattered
/// around it (so the output is normalized, give or take), small moving
/// means, gamma around `gammaCenter`, small beta. The output's mean square
/// is then about gammaCenter^2.
Tensor batchNorm(GraphBuilder &b, const std::string &prefix, Tensor x,
                 int64_t channels, float epsilon, double gammaCenter);

/// A Keras Conv2D layer without bias (HWIO kernel, He-normal). He scaling
/// doubles the input's mean square (fan_in * 2/fan_in), which the batch
/// norm after it then normalizes.
Tensor conv(GraphBuilder &b, const std::string &prefix, Tensor x, int k,
            int64_t cin, int64_t cout, int stride, const std::string &padding);

/// A Keras DepthwiseConv2D layer without bias (kernel [k,k,C,1]).
Tensor depthwiseConv(GraphBuilder &b, const std::string &prefix, Tensor x,
                     int k, int64_t channels, int stride,
                     const std::string &padding);

/// Zero padding of the spatial dimensions of an NHWC tensor.
Tensor zeroPad(GraphBuilder &b, const std::string &name, Tensor x, int top,
               int bottom, int left, int right);

/// A Keras Dense layer (MatMul + BiasAdd). `stddev` 0 picks He scaling;
/// the bias is small.
Tensor dense(GraphBuilder &b, const std::string &prefix, Tensor x,
             int64_t in, int64_t out, double stddev,
             const std::string &biasAddName = "");

/// Global average pooling (Keras writes a Mean over H and W). The mean
/// square estimates run high by the end of these networks (ResNet-50's last
/// block: 1.75 estimated, 0.33 measured with TF.js; MobileNetV2's: 0.5 and
/// 0.19), so the pooled features are taken at a quarter of the estimate,
/// which brings the logits to the spread the classifier aims at.
Tensor globalAveragePool(GraphBuilder &b, const std::string &name, Tensor x);

/// The classifier head: Dense to `classes` logits (node `logits`), Softmax
/// (node `probs`). The weights are scaled so that the logits have a
/// standard deviation of about 3 over the classes: the softmax then has a
/// clear top class without being one-hot.
std::string classifier(GraphBuilder &b, Tensor features, int64_t in,
                       int64_t classes);

} // namespace tfaot_gen_models

#endif // TFAOT_BENCH_MODELS_LAYERS_H
