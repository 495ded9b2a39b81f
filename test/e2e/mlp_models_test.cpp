//===- mlp_models_test.cpp - Frozen MLPs vs a naive C++ reference ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Three real frozen models, compiled at batch 1 and at a larger batch:
//
//   frozen/utensor/ops/deep_mlp/simple_mnist.pb  784-128-64-10, Relu,
//       MatMul+Add, fetch y_pred = ArgMax(logits, 1);
//   frozen/tf2onnx/fc-layers.frozen.pb  784-256-256-10, Relu, MatMul+BiasAdd,
//       Identity "read"/dropout nodes, fetch output;
//   frozen/tf2onnx/ae0.frozen.pb  784-256-128-128-784 autoencoder, Sigmoid.
//
// No reference outputs ship with them, so the expected values come from
// support/graph.h: the weights are read from the same GraphDef with plain
// protobuf and the network is evaluated with naive double-precision loops.
// Inputs are deterministic pseudo-random values in [0,1).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "check.h"
#include "corpus.h"
#include "graph.h"

#include "ae0_b1.h"
#include "ae0_b8.h"
#include "fc_layers_b1.h"
#include "fc_layers_b8.h"
#include "fc_layers_buckets.h"
#include "mnist_b1.h"
#include "mnist_b16.h"
#include "mnist_logits_b4.h"

namespace {

using tfaot_e2e::Activation;
using tfaot_e2e::AllClose;
using tfaot_e2e::DenseLayer;

constexpr uint64_t kSeed = 20240611;

// float32 code against a double reference: dot products of up to 784 terms
// may be summed in any order (vectorized) and rounded per layer.
constexpr double kLogitAtol = 1e-4;
constexpr double kLogitRtol = 1e-4;
// Sigmoid outputs are in (0,1) and squash errors.
constexpr double kSigmoidAtol = 5e-6;
constexpr double kSigmoidRtol = 1e-5;

struct Model {
  std::vector<DenseLayer> layers;
};

// Loads and extracts each model once per test program.
const Model &GetModel(const std::string &relative_path, const std::string &input,
                      const std::string &output) {
  static std::map<std::string, std::unique_ptr<Model>> cache;
  const std::string key = relative_path + "|" + output;
  auto it = cache.find(key);
  if (it != cache.end())
    return *it->second;
  auto model = std::make_unique<Model>();
  tensorflow::GraphDef graph;
  std::string error;
  const std::string path = tfaot_e2e::CorpusPath(relative_path);
  if (!tfaot_e2e::LoadGraphDef(path, &graph, &error) ||
      !tfaot_e2e::ExtractDenseChain(graph, input, output, &model->layers,
                                    &error))
    ADD_FAILURE() << "reference for " << path << ": " << error;
  return *(cache[key] = std::move(model));
}

void ExpectStructure(const Model &m, const std::vector<int64_t> &sizes,
                     const std::vector<Activation> &acts) {
  ASSERT_EQ(m.layers.size() + 1, sizes.size());
  ASSERT_EQ(m.layers.size(), acts.size());
  for (size_t i = 0; i < m.layers.size(); ++i) {
    EXPECT_EQ(m.layers[i].in, sizes[i]) << "layer " << i;
    EXPECT_EQ(m.layers[i].out, sizes[i + 1]) << "layer " << i;
    EXPECT_EQ(m.layers[i].activation, acts[i])
        << "layer " << i << " is " << ActivationName(m.layers[i].activation);
  }
}

//--- simple_mnist ----------------------------------------------------------//

const char kMnist[] = "frozen/utensor/ops/deep_mlp/simple_mnist.pb";

const Model &MnistLogits() {
  return GetModel(kMnist, "x", "OuputLayer/logits");
}

TEST(SimpleMnist, GraphStructureAsExpected) {
  // Guards the reference itself: the chain it evaluates is the real one, and
  // y_pred is ArgMax over axis 1 of those logits.
  ExpectStructure(MnistLogits(), {784, 128, 64, 10},
                  {Activation::kRelu, Activation::kRelu, Activation::kNone});
  tensorflow::GraphDef graph;
  std::string error;
  ASSERT_TRUE(tfaot_e2e::LoadGraphDef(tfaot_e2e::CorpusPath(kMnist), &graph,
                                      &error)) << error;
  const tensorflow::NodeDef *argmax = tfaot_e2e::FindNode(graph, "y_pred");
  ASSERT_NE(argmax, nullptr);
  EXPECT_EQ(argmax->op(), "ArgMax");
  ASSERT_EQ(argmax->input_size(), 2);
  EXPECT_EQ(argmax->input(0), "OuputLayer/logits");
  const tensorflow::NodeDef *dim = tfaot_e2e::FindNode(graph, argmax->input(1));
  ASSERT_NE(dim, nullptr);
  ASSERT_EQ(dim->attr().at("value").tensor().int_val_size(), 1);
  EXPECT_EQ(dim->attr().at("value").tensor().int_val(0), 1);
}

// Checks y_pred against the reference's argmax. Where the reference's top
// two logits are within float noise of each other, either index is right.
void ExpectArgMaxMatches(const int64_t *actual, int64_t batch,
                         const std::vector<double> &logits) {
  const std::vector<int64_t> want = tfaot_e2e::ArgMaxRows(logits, batch, 10);
  const std::vector<double> gap = tfaot_e2e::Top2Gap(logits, batch, 10);
  for (int64_t r = 0; r < batch; ++r) {
    if (actual[r] == want[r])
      continue;
    EXPECT_LT(gap[r], kLogitAtol * 4)
        << "row " << r << ": y_pred " << actual[r] << ", reference "
        << want[r] << " (top-2 logit gap " << gap[r] << ")";
    ASSERT_GE(actual[r], 0);
    ASSERT_LT(actual[r], 10);
    EXPECT_NEAR(logits[r * 10 + actual[r]], logits[r * 10 + want[r]],
                kLogitAtol * 4) << "row " << r;
  }
}

template <typename Fn>
void CheckMnistArgMax(int64_t batch) {
  static_assert(Fn::kNumArgs == 1 && Fn::kNumResults == 1, "x -> y_pred");
  ASSERT_EQ(Fn::kArg0Shape[0], batch);
  ASSERT_EQ(Fn::kArg0Shape[1], 784);
  ASSERT_EQ(Fn::kResult0Shape[0], batch);
  const std::vector<float> x = tfaot_e2e::UniformInputs(batch * 784, kSeed);
  Fn fn;
  std::copy(x.begin(), x.end(), fn.arg_x_data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  const std::vector<double> logits =
      tfaot_e2e::RunDenseChain(MnistLogits().layers, x, batch);
  ExpectArgMaxMatches(fn.result_y_pred_data(), batch, logits);
}

TEST(SimpleMnist, Batch1) { CheckMnistArgMax<e2e::MnistB1>(1); }

TEST(SimpleMnist, Batch16) { CheckMnistArgMax<e2e::MnistB16>(16); }

TEST(SimpleMnist, Batch16SpreadsPredictions) {
  // A function that always answered one class could still match a
  // degenerate reference row by row; make sure these inputs make the
  // compiled function (and so the reference it matched) pick several classes.
  const std::vector<float> x = tfaot_e2e::UniformInputs(16 * 784, kSeed);
  e2e::MnistB16 fn;
  std::copy(x.begin(), x.end(), fn.arg0_data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  std::vector<int64_t> distinct(fn.result0_data(), fn.result0_data() + 16);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  EXPECT_GE(distinct.size(), 2u);
}

TEST(SimpleMnist, Batch1EqualsRow0OfBatch16) {
  // The batch-16 input starts with the batch-1 input (same seed).
  const std::vector<float> x16 = tfaot_e2e::UniformInputs(16 * 784, kSeed);
  const std::vector<float> x1 = tfaot_e2e::UniformInputs(784, kSeed);
  ASSERT_TRUE(std::equal(x1.begin(), x1.end(), x16.begin()));
  e2e::MnistB1 one;
  e2e::MnistB16 many;
  std::copy(x1.begin(), x1.end(), one.arg0_data());
  std::copy(x16.begin(), x16.end(), many.arg0_data());
  ASSERT_TRUE(one.Run()) << one.error_msg();
  ASSERT_TRUE(many.Run()) << many.error_msg();
  EXPECT_EQ(one.result0_data()[0], many.result0_data()[0]);
}

TEST(SimpleMnist, LogitsAndArgMaxBatch4) {
  using Fn = e2e::MnistLogitsB4;
  static_assert(Fn::kNumResults == 2, "y_pred and logits");
  const std::vector<float> x = tfaot_e2e::UniformInputs(4 * 784, kSeed + 1);
  Fn fn;
  std::copy(x.begin(), x.end(), fn.arg0_data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  const std::vector<double> logits =
      tfaot_e2e::RunDenseChain(MnistLogits().layers, x, 4);
  EXPECT_TRUE(AllClose(fn.result_OuputLayer_logits_data(), 40, logits,
                       kLogitAtol, kLogitRtol));
  ExpectArgMaxMatches(fn.result_y_pred_data(), 4, logits);
  // And y_pred is exactly the argmax of the logits the function returned.
  std::vector<double> got(fn.result1_data(), fn.result1_data() + 40);
  const std::vector<int64_t> own = tfaot_e2e::ArgMaxRows(got, 4, 10);
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ(fn.result0_data()[r], own[r]) << "row " << r;
}

//--- tf2onnx fc-layers and ae0 ----------------------------------------------//

const char kFcLayers[] = "frozen/tf2onnx/fc-layers.frozen.pb";
const char kAe0[] = "frozen/tf2onnx/ae0.frozen.pb";

template <typename Fn>
void CheckDense(const char *graph, int64_t batch, uint64_t seed, double atol,
                double rtol) {
  static_assert(Fn::kNumArgs == 1 && Fn::kNumResults == 1, "X -> output");
  const Model &m = GetModel(graph, "X", "output");
  ASSERT_FALSE(m.layers.empty());
  const int64_t out = m.layers.back().out;
  ASSERT_EQ(Fn::kArg0Rank, 2);
  ASSERT_EQ(Fn::kArg0Shape[0], batch);
  ASSERT_EQ(Fn::kArg0Shape[1], 784);
  ASSERT_EQ(Fn::kResult0Rank, 2);
  ASSERT_EQ(Fn::kResult0Shape[0], batch);
  ASSERT_EQ(Fn::kResult0Shape[1], out);
  const std::vector<float> x = tfaot_e2e::UniformInputs(batch * 784, seed);
  Fn fn;
  std::copy(x.begin(), x.end(), fn.arg_X_data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  const std::vector<double> want = tfaot_e2e::RunDenseChain(m.layers, x, batch);
  EXPECT_TRUE(AllClose(fn.result_output_data(), batch * out, want, atol, rtol));
}

TEST(FcLayers, GraphStructureAsExpected) {
  ExpectStructure(GetModel(kFcLayers, "X", "output"), {784, 256, 256, 10},
                  {Activation::kRelu, Activation::kRelu, Activation::kNone});
}

TEST(FcLayers, Batch1) {
  CheckDense<e2e::FcLayersB1>(kFcLayers, 1, kSeed, kLogitAtol, kLogitRtol);
}

TEST(FcLayers, Batch8) {
  CheckDense<e2e::FcLayersB8>(kFcLayers, 8, kSeed, kLogitAtol, kLogitRtol);
}

// fc-layers compiled with --batch 1,4,8: one class whose buffers hold 8
// rows; set_batch_size(n) runs the smallest bucket >= n. Each filled row
// must match the reference, whatever the padding rows hold.
TEST(FcLayers, BatchBuckets) {
  using Fn = e2e::FcLayersBuckets;
  static_assert(Fn::kNumBatchBuckets == 3 && Fn::kMaxBatch == 8, "1,4,8");
  static_assert(Fn::kBatchBuckets[0] == 1 && Fn::kBatchBuckets[1] == 4,
                "increasing");
  ASSERT_EQ(Fn::kArg0Shape[0], 8);
  ASSERT_EQ(Fn::kResult0Shape[0], 8);
  const Model &m = GetModel(kFcLayers, "X", "output");
  const int64_t out = m.layers.back().out;
  const std::vector<float> x = tfaot_e2e::UniformInputs(8 * 784, kSeed + 7);
  const std::vector<double> want = tfaot_e2e::RunDenseChain(m.layers, x, 8);
  Fn fn;
  EXPECT_EQ(fn.batch_size(), 8);  // The default: every row.
  const std::pair<int64_t, int64_t> batch_and_bucket[] = {
      {1, 1}, {3, 4}, {4, 4}, {5, 8}, {8, 8}, {2, 4}};
  for (auto [batch, bucket] : batch_and_bucket) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    // Own buffer: padding rows hold garbage that Run() must zero first.
    std::fill(fn.arg_X_data(), fn.arg_X_data() + 8 * 784, 1e30f);
    std::copy(x.begin(), x.begin() + batch * 784, fn.arg_X_data());
    ASSERT_TRUE(fn.set_batch_size(batch)) << fn.error_msg();
    EXPECT_EQ(fn.bucket_for_batch(), bucket);
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    std::vector<double> rows(want.begin(), want.begin() + batch * out);
    EXPECT_TRUE(AllClose(fn.result_output_data(), batch * out, rows,
                         kLogitAtol, kLogitRtol));
    for (int64_t i = batch * 784; i < bucket * 784; ++i)
      ASSERT_EQ(fn.arg_X_data()[i], 0.0f) << "padding row not zeroed";
  }
  // A caller buffer is read, never written, padding rows included.
  std::vector<float> caller(x);
  caller[5 * 784] = 1e30f;
  ASSERT_TRUE(fn.set_arg_data(0, caller.data(), caller.size() * 4));
  ASSERT_TRUE(fn.set_batch_size(5));
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(caller[5 * 784], 1e30f);
  std::vector<double> rows(want.begin(), want.begin() + 5 * out);
  EXPECT_TRUE(AllClose(fn.result_output_data(), 5 * out, rows, kLogitAtol,
                       kLogitRtol));
  // Out of range: rejected, and the previous batch size stays.
  EXPECT_FALSE(fn.set_batch_size(0));
  EXPECT_FALSE(fn.set_batch_size(9));
  EXPECT_NE(fn.error_msg().find("takes 1 to 8"), std::string::npos)
      << fn.error_msg();
  EXPECT_EQ(fn.batch_size(), 5);
}

TEST(FcLayers, NoBucketsMeansFixedBatch) {
  e2e::FcLayersB8 fn;
  EXPECT_EQ(fn.max_batch_size(), 0);
  EXPECT_FALSE(fn.set_batch_size(4));
  EXPECT_NE(fn.error_msg().find("without batch buckets"), std::string::npos)
      << fn.error_msg();
  EXPECT_TRUE(fn.Run()) << fn.error_msg();
}

TEST(Ae0, GraphStructureAsExpected) {
  ExpectStructure(GetModel(kAe0, "X", "output"), {784, 256, 128, 128, 784},
                  {Activation::kSigmoid, Activation::kSigmoid,
                   Activation::kSigmoid, Activation::kSigmoid});
}

TEST(Ae0, Batch1) {
  CheckDense<e2e::Ae0B1>(kAe0, 1, kSeed, kSigmoidAtol, kSigmoidRtol);
}

TEST(Ae0, Batch8FromConfig) {
  CheckDense<e2e::Ae0B8>(kAe0, 8, kSeed, kSigmoidAtol, kSigmoidRtol);
}

}  // namespace
