//===- api_test.cpp - The generated C++ API on real compiled graphs -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Exercises the class `tfaot compile` generates (docs/generated-api.md)
// through real compiled code, not mocks:
//
//   e2e::api::FcLayers  tf2onnx fc-layers at batch 2, fetching `output` and
//                       `model/dense/Relu` (a name with '/', whose accessor
//                       is result_model_dense_Relu_data);
//   e2e::api::Add       uTensor's add graph: no arguments at all.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "check.h"
#include "concurrent_runs.h"
#include "corpus.h"
#include "graph.h"

#include "api_add.h"
#include "api_fc.h"

namespace {

using Fc = e2e::api::FcLayers;
using AllocMode = tfaot::CompiledFunction::AllocMode;

constexpr uint64_t kSeed = 99;

std::vector<float> Input(uint64_t seed = kSeed) {
  return tfaot_e2e::UniformInputs(Fc::kArg0Elements, seed);
}

// Reference for both results, from the graph's own weights.
struct FcReference {
  std::vector<double> output;  // [2,10]
  std::vector<double> relu;    // [2,256], first layer
};

FcReference Reference(const std::vector<float> &x) {
  tensorflow::GraphDef graph;
  std::vector<tfaot_e2e::DenseLayer> layers;
  std::string error;
  FcReference ref;
  if (!tfaot_e2e::LoadGraphDef(
          tfaot_e2e::CorpusPath("frozen/tf2onnx/fc-layers.frozen.pb"), &graph,
          &error) ||
      !tfaot_e2e::ExtractDenseChain(graph, "X", "output", &layers, &error)) {
    ADD_FAILURE() << error;
    return ref;
  }
  ref.output = tfaot_e2e::RunDenseChain(layers, x, 2);
  layers.resize(1);
  ref.relu = tfaot_e2e::RunDenseChain(layers, x, 2);
  return ref;
}

std::vector<float> Output(const Fc &fn) {
  return std::vector<float>(fn.result0_data(),
                            fn.result0_data() + Fc::kResult0Elements);
}

TEST(GeneratedApi, StaticDescription) {
  static_assert(Fc::kNumArgs == 1 && Fc::kNumResults == 2, "X -> 2 fetches");
  static_assert(Fc::kArg0Rank == 2 && Fc::kArg0Shape[0] == 2 &&
                    Fc::kArg0Shape[1] == 784,
                "X:2,784");
  static_assert(Fc::kArg0Elements == 2 * 784, "");
  static_assert(Fc::kArg0Bytes == 2 * 784 * sizeof(float), "");
  static_assert(Fc::kResult0Shape[0] == 2 && Fc::kResult0Shape[1] == 10, "");
  static_assert(Fc::kResult1Shape[0] == 2 && Fc::kResult1Shape[1] == 256, "");
  static_assert(Fc::kResult1Bytes == 2 * 256 * sizeof(float), "");
  static_assert(std::is_same<decltype(std::declval<Fc &>().result1_data()),
                             float *>::value,
                "float results");
  Fc fn;
  EXPECT_EQ(fn.num_args(), 1);
  EXPECT_EQ(fn.num_results(), 2);
  EXPECT_STREQ(fn.arg_info(0).name, "X");
  EXPECT_EQ(fn.arg_info(0).dtype, tfaot::DType::kFloat32);
  EXPECT_EQ(fn.arg_size(0), Fc::kArg0Bytes);
  EXPECT_STREQ(fn.result_info(0).name, "output");
  EXPECT_STREQ(fn.result_info(1).name, "model/dense/Relu");
  EXPECT_EQ(fn.result_size(1), Fc::kResult1Bytes);
  EXPECT_EQ(fn.LookupArgIndex("X"), 0);
  EXPECT_EQ(fn.LookupResultIndex("output"), 0);
  EXPECT_EQ(fn.LookupResultIndex("model/dense/Relu"), 1);
  EXPECT_EQ(fn.LookupResultIndex("no_such_fetch"), -1);
  EXPECT_STREQ(Fc::StaticInfo().class_name, "e2e::api::FcLayers");
}

TEST(GeneratedApi, NamedAccessorsEqualIndexAccessors) {
  Fc fn;
  const Fc &cfn = fn;
  EXPECT_EQ(fn.arg_X_data(), fn.arg0_data());
  EXPECT_EQ(cfn.arg_X_data(), cfn.arg0_data());
  EXPECT_EQ(static_cast<void *>(fn.arg0_data()), fn.arg_data(0));
  EXPECT_EQ(fn.result_output_data(), fn.result0_data());
  EXPECT_EQ(cfn.result_output_data(), cfn.result0_data());
  EXPECT_EQ(fn.result_model_dense_Relu_data(), fn.result1_data());
  EXPECT_EQ(static_cast<void *>(fn.result1_data()), fn.result_data(1));
  EXPECT_NE(static_cast<void *>(fn.result0_data()),
            static_cast<void *>(fn.result1_data()));

  // Same values whichever accessor writes and reads them.
  const std::vector<float> x = Input();
  std::copy(x.begin(), x.end(), fn.arg_X_data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(std::equal(x.begin(), x.end(), fn.arg0_data()));
  const FcReference ref = Reference(x);
  EXPECT_TRUE(tfaot_e2e::AllClose(fn.result_output_data(), 20, ref.output,
                                  1e-4, 1e-4));
  EXPECT_TRUE(tfaot_e2e::AllClose(fn.result_model_dense_Relu_data(), 512,
                                  ref.relu, 1e-4, 1e-4));
  EXPECT_EQ(0, std::memcmp(fn.result_output_data(), fn.result0_data(),
                           Fc::kResult0Bytes));
}

TEST(GeneratedApi, SetArgDataUsesCallerBuffer) {
  std::vector<float> x = Input();
  Fc owned;
  std::copy(x.begin(), x.end(), owned.arg0_data());
  ASSERT_TRUE(owned.Run()) << owned.error_msg();

  Fc fn;
  float *own_buffer = fn.arg0_data();
  fn.set_arg0_data(x.data());
  EXPECT_EQ(fn.arg0_data(), x.data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(Output(fn), Output(owned));
  EXPECT_TRUE(tfaot_e2e::AllClose(fn.result0_data(), 20, Reference(x).output,
                                  1e-4, 1e-4));

  // The caller's memory is read at Run() time, not copied at set time.
  const std::vector<float> y = Input(kSeed + 1);
  std::copy(y.begin(), y.end(), x.begin());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_NE(Output(fn), Output(owned));
  EXPECT_TRUE(tfaot_e2e::AllClose(fn.result0_data(), 20, Reference(y).output,
                                  1e-4, 1e-4));

  // Null reverts to the instance's own buffer.
  fn.set_arg0_data(nullptr);
  EXPECT_EQ(fn.arg0_data(), own_buffer);
}

TEST(GeneratedApi, SizeCheckedSetArgData) {
  const std::vector<float> x = Input();
  Fc fn;
  ASSERT_TRUE(fn.set_arg0_data(x.data(), Fc::kArg0Bytes)) << fn.error_msg();
  EXPECT_TRUE(fn.error_msg().empty());
  EXPECT_EQ(fn.arg_X_data(), x.data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(fn.error_msg().empty()) << fn.error_msg();
  EXPECT_TRUE(tfaot_e2e::AllClose(fn.result0_data(), 20, Reference(x).output,
                                  1e-4, 1e-4));
  // The named overload checks too.
  EXPECT_TRUE(fn.set_arg_X_data(x.data(), Fc::kArg0Bytes)) << fn.error_msg();
}

TEST(GeneratedApi, SizeCheckedSetArgDataRejectsWrongSize) {
  const std::vector<float> x = Input();
  for (size_t bad : {size_t{0}, Fc::kArg0Bytes - sizeof(float),
                     Fc::kArg0Bytes + 1, Fc::kArg0Bytes / 2}) {
    SCOPED_TRACE("size " + std::to_string(bad));
    Fc fn;
    EXPECT_FALSE(fn.set_arg0_data(x.data(), bad));
    EXPECT_FALSE(fn.error_msg().empty());
    EXPECT_FALSE(fn.Run());
    EXPECT_FALSE(fn.error_msg().empty());
    // Recovers once given a buffer of the right size.
    ASSERT_TRUE(fn.set_arg0_data(x.data(), Fc::kArg0Bytes)) << fn.error_msg();
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    EXPECT_TRUE(fn.error_msg().empty()) << fn.error_msg();
  }
  Fc named;
  EXPECT_FALSE(named.set_arg_X_data(x.data(), 3));
  EXPECT_FALSE(named.Run());
  EXPECT_FALSE(named.error_msg().empty());
}

TEST(GeneratedApi, TwoInstancesGiveIdenticalResults) {
  const std::vector<float> x = Input();
  Fc a, b;
  EXPECT_NE(a.arg0_data(), b.arg0_data());
  EXPECT_NE(a.result0_data(), b.result0_data());
  std::copy(x.begin(), x.end(), a.arg0_data());
  std::copy(x.begin(), x.end(), b.arg0_data());
  ASSERT_TRUE(a.Run()) << a.error_msg();
  ASSERT_TRUE(b.Run()) << b.error_msg();
  EXPECT_EQ(0, std::memcmp(a.result0_data(), b.result0_data(),
                           Fc::kResult0Bytes));
  EXPECT_EQ(0, std::memcmp(a.result1_data(), b.result1_data(),
                           Fc::kResult1Bytes));

  // Independent: running b on other data leaves a's results alone, and a
  // rerun of a reproduces them bit for bit.
  const std::vector<float> before = Output(a);
  const std::vector<float> y = Input(kSeed + 7);
  std::copy(y.begin(), y.end(), b.arg0_data());
  ASSERT_TRUE(b.Run()) << b.error_msg();
  EXPECT_EQ(Output(a), before);
  EXPECT_NE(Output(b), before);
  ASSERT_TRUE(a.Run()) << a.error_msg();
  EXPECT_EQ(Output(a), before);
}

// Instances share nothing mutable: 8 threads, each with its own instance,
// run 1000 times on two alternating inputs and every result must equal, bit
// for bit, what one instance computed alone (also the check that runs are
// deterministic). Meant to be run under TSan too (docs/reliability.md).
TEST(GeneratedApi, ConcurrentInstancesGiveIdenticalResults) {
  const std::vector<std::vector<float>> inputs = {Input(), Input(kSeed + 1)};
  std::vector<std::vector<float>> expected;
  {
    Fc alone;
    for (const std::vector<float> &input : inputs) {
      std::copy(input.begin(), input.end(), alone.arg0_data());
      ASSERT_TRUE(alone.Run()) << alone.error_msg();
      expected.push_back(Output(alone));
    }
  }
  ASSERT_NE(expected[0], expected[1]);
  EXPECT_EQ(tfaot_e2e::CountConcurrentMismatches<Fc>(inputs, expected,
                                                     /*threads=*/8,
                                                     /*iterations=*/1000),
            0);
}

TEST(GeneratedApi, ResultsOnlyWithoutArgumentFails) {
  Fc fn(AllocMode::kResultsOnly);
  EXPECT_EQ(fn.arg0_data(), nullptr);
  EXPECT_FALSE(fn.Run());
  EXPECT_FALSE(fn.error_msg().empty());
  // Results are still owned and usable once an argument is set.
  ASSERT_NE(fn.result0_data(), nullptr);
  const std::vector<float> x = Input();
  fn.set_arg0_data(x.data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(fn.error_msg().empty()) << fn.error_msg();
  EXPECT_TRUE(tfaot_e2e::AllClose(fn.result0_data(), 20, Reference(x).output,
                                  1e-4, 1e-4));
  // Unsetting it again makes Run() fail again.
  fn.set_arg0_data(nullptr);
  EXPECT_EQ(fn.arg0_data(), nullptr);
  EXPECT_FALSE(fn.Run());
  EXPECT_FALSE(fn.error_msg().empty());
}

TEST(GeneratedApi, NoArgumentFunction) {
  using Add = e2e::api::Add;
  static_assert(Add::kNumArgs == 0 && Add::kNumResults == 1, "z only");
  // Nothing to set, so even kResultsOnly runs.
  for (AllocMode mode : {AllocMode::kArgsAndResults, AllocMode::kResultsOnly}) {
    Add fn(mode);
    EXPECT_EQ(fn.num_args(), 0);
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    EXPECT_TRUE(fn.error_msg().empty());
    EXPECT_EQ(fn.result_z_data(), fn.result0_data());
    tfaot_e2e::IdxArray want;
    std::string error;
    ASSERT_TRUE(tfaot_e2e::ReadIdx(
        tfaot_e2e::CorpusPath("frozen/utensor/ops/add/output_z.idx"), &want,
        &error)) << error;
    EXPECT_TRUE(tfaot_e2e::ResultMatchesIdx(fn, 0, want, 0.0, 0.0));
  }
}

}  // namespace
