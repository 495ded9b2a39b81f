//===- utensor_ops_test.cpp - uTensor per-op graphs vs TensorFlow ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// uTensor's per-op test graphs (frozen/utensor/ops/<op>/test_<op>.pb), each
// compiled by tfaot at build time, run and compared with the output
// TensorFlow itself computed for the same graph (output_<name>.idx).
//
// Most of these graphs hold their inputs as Const nodes, so the generated
// functions take no arguments: that path (kNumArgs == 0, Run() with nothing
// set) is what most tests here exercise. reshape_2, reshape_3 and
// placeholder have a Placeholder, fed from the directory's input_x.idx or
// (placeholder, which has no expected output) from inputs of our own.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "check.h"
#include "corpus.h"
#include "idx.h"

#include "utensor_add.h"
#include "utensor_add_2.h"
#include "utensor_add_3.h"
#include "utensor_argmax.h"
#include "utensor_linreg.h"
#include "utensor_matmul.h"
#include "utensor_placeholder.h"
#include "utensor_placeholder_r3.h"
#include "utensor_relu.h"
#include "utensor_reshape_1.h"
#include "utensor_reshape_1_p24.h"
#include "utensor_reshape_2.h"
#include "utensor_reshape_3.h"
#include "utensor_reshape_4.h"
#include "utensor_reshape_5.h"
#include "utensor_reshape_6.h"
#include "utensor_reshape_7.h"
#include "utensor_conv.h"
#include "utensor_max_pool_1.h"
#include "utensor_max_pool_2.h"
#include "utensor_max_pool_3.h"
#include "utensor_max_pool_4.h"
#include "utensor_max_pool_5.h"
#include "utensor_max_pool_6.h"
#include "utensor_max_1.h"
#include "utensor_max_1_1.h"
#include "utensor_max_2.h"
#include "utensor_max_3.h"
#include "utensor_max_3_1.h"
#include "utensor_min_1.h"
#include "utensor_min_1_1.h"
#include "utensor_min_2.h"
#include "utensor_min_3.h"
#include "utensor_min_3_1.h"

namespace {

using tfaot_e2e::IdxArray;
using tfaot_e2e::LoadUtensorOpIdx;
using tfaot_e2e::ResultMatchesIdx;

// TensorFlow computed the references in float32, as tfaot does; only
// reassociation (e.g. in MatMul) may differ.
constexpr double kAtol = 1e-5;
constexpr double kRtol = 1e-5;

// Runs a function whose inputs are all Const nodes in the graph and checks
// its single result against the IDX reference.
template <typename Fn>
void CheckConstOnlyGraph(const std::string &op_dir, const std::string &out_idx) {
  static_assert(Fn::kNumArgs == 0, "graph inputs are Consts: no arguments");
  static_assert(Fn::kNumResults == 1, "one fetch");
  Fn fn;
  EXPECT_EQ(fn.num_args(), 0);
  ASSERT_EQ(fn.num_results(), 1);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(fn.error_msg().empty()) << fn.error_msg();
  const IdxArray expected = LoadUtensorOpIdx(op_dir, out_idx);
  ASSERT_FALSE(expected.values.empty());
  EXPECT_TRUE(ResultMatchesIdx(fn, 0, expected, kAtol, kRtol));
  // Argument-less functions must be re-runnable and deterministic.
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(ResultMatchesIdx(fn, 0, expected, kAtol, kRtol));
}

TEST(UtensorOps, Add) {
  CheckConstOnlyGraph<e2e::utensor::Add>("add", "output_z.idx");
}

TEST(UtensorOps, Add2ScalarBroadcastRight) {
  CheckConstOnlyGraph<e2e::utensor::Add2>("add_2", "output_z.idx");
}

TEST(UtensorOps, Add3ScalarBroadcastLeft) {
  CheckConstOnlyGraph<e2e::utensor::Add3>("add_3", "output_z.idx");
}

TEST(UtensorOps, MatMul) {
  CheckConstOnlyGraph<e2e::utensor::MatMul>("matmul", "output_z.idx");
}

TEST(UtensorOps, Relu) {
  CheckConstOnlyGraph<e2e::utensor::Relu>("relu", "output_relu.idx");
}

TEST(UtensorOps, ArgMax) {
  // The graph asks for int64 indices; TF's reference file holds int32.
  // ResultMatchesIdx compares the values, not the widths.
  CheckConstOnlyGraph<e2e::utensor::ArgMax>("argmax", "output_argmax.idx");
}

TEST(UtensorOps, Reshape1Flatten) {
  CheckConstOnlyGraph<e2e::utensor::Reshape1>("reshape_1", "output_x.idx");
}

TEST(UtensorOps, Reshape1FlattenProducer24) {
  CheckConstOnlyGraph<e2e::utensor::Reshape1P24>("reshape_1", "output_x.idx");
}

TEST(UtensorOps, Reshape4) {
  CheckConstOnlyGraph<e2e::utensor::Reshape4>("reshape_4", "output_x.idx");
}

TEST(UtensorOps, Reshape5InferLastDim) {
  CheckConstOnlyGraph<e2e::utensor::Reshape5>("reshape_5", "output_x.idx");
}

TEST(UtensorOps, Reshape6InferFirstDim) {
  CheckConstOnlyGraph<e2e::utensor::Reshape6>("reshape_6", "output_x.idx");
}

TEST(UtensorOps, Reshape7Flatten) {
  CheckConstOnlyGraph<e2e::utensor::Reshape7>("reshape_7", "output_x.idx");
}

TEST(UtensorOps, LinReg) {
  CheckConstOnlyGraph<e2e::utensor::LinReg>("linreg", "output_yhat.idx");
}

// reshape_2 / reshape_3: x is a Placeholder, y = MatMul(x, w). The input is
// copied into the instance's own buffer for one, passed as a caller buffer
// for the other.
TEST(UtensorOps, Reshape2PlaceholderMatMul) {
  using Fn = e2e::utensor::Reshape2;
  static_assert(Fn::kNumArgs == 1, "x is fed");
  const IdxArray x = LoadUtensorOpIdx("reshape_2", "input_x.idx");
  const IdxArray expected = LoadUtensorOpIdx("reshape_2", "output_y.idx");
  ASSERT_EQ(x.dims, (std::vector<int64_t>{Fn::kArg0Shape[0], Fn::kArg0Shape[1]}));
  const std::vector<float> xf = x.AsFloats();
  Fn fn;
  std::copy(xf.begin(), xf.end(), fn.arg0_data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(ResultMatchesIdx(fn, 0, expected, kAtol, kRtol));
}

TEST(UtensorOps, Reshape3PlaceholderMatMul) {
  using Fn = e2e::utensor::Reshape3;
  static_assert(Fn::kNumArgs == 1, "x is fed");
  const IdxArray x = LoadUtensorOpIdx("reshape_3", "input_x.idx");
  const IdxArray expected = LoadUtensorOpIdx("reshape_3", "output_y.idx");
  ASSERT_EQ(x.dims, (std::vector<int64_t>{Fn::kArg0Shape[0], Fn::kArg0Shape[1]}));
  const std::vector<float> xf = x.AsFloats();
  Fn fn(Fn::AllocMode::kResultsOnly);
  ASSERT_TRUE(fn.set_arg0_data(xf.data(), xf.size() * sizeof(float)))
      << fn.error_msg();
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(ResultMatchesIdx(fn, 0, expected, kAtol, kRtol));
}

// placeholder: y = x + one, x of unknown rank. There is no expected output
// in the corpus, so feed inputs of our own and check y == x + one, with
// `one` taken from the corpus's one_0.idx (the Const's value).
template <typename Fn>
void CheckPlaceholderPlusOne(uint64_t seed) {
  static_assert(Fn::kNumArgs == 1 && Fn::kNumResults == 1, "x -> y");
  const IdxArray one = LoadUtensorOpIdx("placeholder", "one_0.idx");
  ASSERT_EQ(one.num_elements(), 1);
  Fn fn;
  ASSERT_EQ(fn.arg_info(0).rank, fn.result_info(0).rank);
  for (int d = 0; d < Fn::kArg0Rank; ++d)
    EXPECT_EQ(Fn::kArg0Shape[d], Fn::kResult0Shape[d]) << "dim " << d;
  // Signed values too, not just [0,1): map [0,1) to [-4,4).
  std::vector<float> x = tfaot_e2e::UniformInputs(Fn::kArg0Elements, seed);
  for (float &v : x)
    v = v * 8.0f - 4.0f;
  std::copy(x.begin(), x.end(), fn.arg_x_data());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  std::vector<double> expected(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    expected[i] = static_cast<double>(x[i] + static_cast<float>(one.values[0]));
  EXPECT_TRUE(tfaot_e2e::AllClose(fn.result_y_data(), Fn::kResult0Elements,
                                  expected, 0.0, 1e-7));
}

TEST(UtensorOps, PlaceholderRank2) {
  CheckPlaceholderPlusOne<e2e::utensor::Placeholder>(11);
}

TEST(UtensorOps, PlaceholderRank3) {
  CheckPlaceholderPlusOne<e2e::utensor::PlaceholderRank3>(12);
}


// CNN ops against TensorFlow: Conv2D, MaxPool with several windows, strides
// and paddings, and Max/Min reductions over different axes.
TEST(UtensorCnnOps, Conv) {
  CheckConstOnlyGraph<e2e::utensor::Op_conv>("conv", "output_conv.idx");
}

TEST(UtensorCnnOps, MaxPool1) {
  CheckConstOnlyGraph<e2e::utensor::Op_maxpool1>("max_pool_1", "output_pool.idx");
}

TEST(UtensorCnnOps, MaxPool2) {
  CheckConstOnlyGraph<e2e::utensor::Op_maxpool2>("max_pool_2", "output_max_pool_2.idx");
}

TEST(UtensorCnnOps, MaxPool3) {
  CheckConstOnlyGraph<e2e::utensor::Op_maxpool3>("max_pool_3", "output_max_pool_3.idx");
}

TEST(UtensorCnnOps, MaxPool4) {
  CheckConstOnlyGraph<e2e::utensor::Op_maxpool4>("max_pool_4", "output_max_pool_4.idx");
}

TEST(UtensorCnnOps, MaxPool5) {
  CheckConstOnlyGraph<e2e::utensor::Op_maxpool5>("max_pool_5", "output_max_pool_5.idx");
}

TEST(UtensorCnnOps, MaxPool6) {
  CheckConstOnlyGraph<e2e::utensor::Op_maxpool6>("max_pool_6", "output_max_pool_6.idx");
}

TEST(UtensorCnnOps, Max1) {
  CheckConstOnlyGraph<e2e::utensor::Op_max1>("max_1", "output_max_x1.idx");
}

TEST(UtensorCnnOps, Max11) {
  CheckConstOnlyGraph<e2e::utensor::Op_max11>("max_1_1", "output_max_x1_1.idx");
}

TEST(UtensorCnnOps, Max2) {
  CheckConstOnlyGraph<e2e::utensor::Op_max2>("max_2", "output_max_x2.idx");
}

TEST(UtensorCnnOps, Max3) {
  CheckConstOnlyGraph<e2e::utensor::Op_max3>("max_3", "output_max_x3.idx");
}

TEST(UtensorCnnOps, Max31) {
  CheckConstOnlyGraph<e2e::utensor::Op_max31>("max_3_1", "output_max_x3_1.idx");
}

TEST(UtensorCnnOps, Min1) {
  CheckConstOnlyGraph<e2e::utensor::Op_min1>("min_1", "output_min_x1.idx");
}

TEST(UtensorCnnOps, Min11) {
  CheckConstOnlyGraph<e2e::utensor::Op_min11>("min_1_1", "output_min_x1_1.idx");
}

TEST(UtensorCnnOps, Min2) {
  CheckConstOnlyGraph<e2e::utensor::Op_min2>("min_2", "output_min_x2.idx");
}

TEST(UtensorCnnOps, Min3) {
  CheckConstOnlyGraph<e2e::utensor::Op_min3>("min_3", "output_min_x3.idx");
}

TEST(UtensorCnnOps, Min31) {
  CheckConstOnlyGraph<e2e::utensor::Op_min31>("min_3_1", "output_min_x3_1.idx");
}

}  // namespace
