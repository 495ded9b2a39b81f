//===- compiled_function_test.cpp - Tests for tfaot::CompiledFunction -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Exercises the runtime base class through hand-written FunctionInfo tables
// with real entry functions, standing in for what `tfaot compile` generates:
// an element-wise float add (two arguments), a function with no arguments
// that writes constants, and a function with awkward buffer sizes (0, 1, 3,
// 104 bytes) for the allocation checks. Each entry counts its calls, so the
// tests can prove that a rejected Run() never reached the generated code.
// This file defines those tables (compiled_function_test.h declares them)
// and tests the buffers: owned, the caller's, checked sizes, kResultsOnly
// and bad indexes.
//
//===----------------------------------------------------------------------===//

#include "compiled_function_test.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace tfaot_runtime_test {

//===----------------------------------------------------------------------===//
// Test functions
//===----------------------------------------------------------------------===//

// sum[i] = x[i] + y[i] over float[4]. The second feed has a TF-style tensor
// name so that messages are seen to quote names verbatim.
int g_add_calls = 0;

void AddEntry(void *const *args, void *const *results, void * /*temp*/) {
  ++g_add_calls;
  const float *x = static_cast<const float *>(args[0]);
  const float *y = static_cast<const float *>(args[1]);
  float *sum = static_cast<float *>(results[0]);
  for (int i = 0; i < 4; ++i)
    sum[i] = x[i] + y[i];
}

constexpr int64_t kVec4[] = {4};
const BufferInfo kAddArgs[] = {
    {"x", DType::kFloat32, 1, kVec4, 4, 16},
    {"y:0", DType::kFloat32, 1, kVec4, 4, 16},
};
const BufferInfo kAddResults[] = {
    {"sum", DType::kFloat32, 1, kVec4, 4, 16},
};
const FunctionInfo kAddInfo = {"tfaot_test::Add", AddEntry, 2, kAddArgs,
                               1,                 kAddResults, 0};

// No arguments: answer = 42 (int32 scalar), seq = {1, 2, 3} (int64[3]) and an
// empty float[0] result that must still get a valid buffer.
int g_const_calls = 0;

void ConstEntry(void *const *args, void *const *results, void * /*temp*/) {
  ++g_const_calls;
  // The runtime promises a non-null array even when there are no arguments.
  EXPECT_NE(args, nullptr);
  *static_cast<int32_t *>(results[0]) = 42;
  int64_t *seq = static_cast<int64_t *>(results[1]);
  for (int i = 0; i < 3; ++i)
    seq[i] = i + 1;
}

constexpr int64_t kScalarDims[] = {1}; // Placeholder, as generated for rank 0.
constexpr int64_t kVec3[] = {3};
const BufferInfo kConstResults[] = {
    {"answer", DType::kInt32, 0, kScalarDims, 1, 4},
    {"seq", DType::kInt64, 1, kVec3, 3, 24},
    {"empty", DType::kFloat32, 1, kVec0, 0, 0},
};
const FunctionInfo kConstInfo = {"tfaot_test::Const", ConstEntry, 0, nullptr,
                                 3,                   kConstResults, 0};

// Sizes that are not multiples of 64 (and one of 0), to check rounding and
// alignment. The entry records the pointers it was given.
void *const *g_mixed_args = nullptr;
void *const *g_mixed_results = nullptr;

void MixedEntry(void *const *args, void *const *results, void * /*temp*/) {
  g_mixed_args = args;
  g_mixed_results = results;
}

constexpr int64_t kVec13[] = {13};
const BufferInfo kMixedArgs[] = {
    {"bytes", DType::kUInt8, 1, kVec3, 3, 3},
    {"flag", DType::kBool, 0, kScalarDims, 1, 1},
    {"nothing", DType::kFloat32, 1, kVec0, 0, 0},
    {"doubles", DType::kFloat64, 1, kVec13, 13, 104},
};
const BufferInfo kMixedResults[] = {
    {"out_bytes", DType::kUInt8, 1, kVec3, 3, 3},
    {"out_nothing", DType::kFloat32, 1, kVec0, 0, 0},
    {"out_doubles", DType::kFloat64, 1, kVec13, 13, 104},
};
const FunctionInfo kMixedInfo = {"tfaot_test::Mixed", MixedEntry, 4, kMixedArgs,
                                 3,                   kMixedResults, 0};

// out[i] = 2 * x[i] through 100 bytes of scratch memory (not a multiple of
// the 64-byte alignment). The entry records the arena it was given.
int g_scratch_calls = 0;
void *g_scratch_temp = nullptr;

void ScratchEntry(void *const *args, void *const *results, void *temp) {
  ++g_scratch_calls;
  g_scratch_temp = temp;
  const float *x = static_cast<const float *>(args[0]);
  float *scratch = static_cast<float *>(temp);
  for (int i = 0; i < 4; ++i)
    scratch[i] = 2.0f * x[i];
  std::memcpy(results[0], scratch, 16);
}

const BufferInfo kScratchArgs[] = {{"x", DType::kFloat32, 1, kVec4, 4, 16}};
const BufferInfo kScratchResults[] = {
    {"out", DType::kFloat32, 1, kVec4, 4, 16}};
const FunctionInfo kScratchInfo = {"tfaot_test::Scratch", ScratchEntry,
                                   1, kScratchArgs, 1, kScratchResults, 100};

namespace {

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, ExposesTables) {
  AddFn fn;
  EXPECT_EQ(fn.num_args(), 2);
  EXPECT_EQ(fn.num_results(), 1);
  EXPECT_EQ(fn.num_args(), AddFn::kNumArgs);
  EXPECT_EQ(fn.num_results(), AddFn::kNumResults);
  EXPECT_EQ(&fn.info(), &kAddInfo);
  EXPECT_STREQ(fn.arg_info(1).name, "y:0");
  EXPECT_EQ(fn.arg_info(1).dtype, DType::kFloat32);
  EXPECT_EQ(fn.arg_info(1).rank, 1);
  EXPECT_EQ(fn.arg_info(1).dims[0], 4);
  EXPECT_STREQ(fn.result_info(0).name, "sum");
  EXPECT_EQ(fn.arg_size(0), 16u);
  EXPECT_EQ(fn.arg_size(1), 16u);
  EXPECT_EQ(fn.result_size(0), 16u);
  EXPECT_EQ(fn.arg_size(0), AddFn::kArg0Bytes);
  EXPECT_TRUE(fn.error_msg().empty());
}

TEST_F(CompiledFunctionTest, LookupIndexByName) {
  AddFn fn;
  EXPECT_EQ(fn.LookupArgIndex("x"), 0);
  EXPECT_EQ(fn.LookupArgIndex("y:0"), 1);
  EXPECT_EQ(fn.LookupArgIndex("y"), -1); // Exact match only.
  EXPECT_EQ(fn.LookupArgIndex(""), -1);
  EXPECT_EQ(fn.LookupArgIndex("sum"), -1); // A result, not an argument.
  EXPECT_EQ(fn.LookupResultIndex("sum"), 0);
  EXPECT_EQ(fn.LookupResultIndex("x"), -1);

  CompiledFunction mixed(kMixedInfo);
  EXPECT_EQ(mixed.LookupArgIndex("doubles"), 3);
  EXPECT_EQ(mixed.LookupArgIndex("nothing"), 2);
  EXPECT_EQ(mixed.LookupResultIndex("out_doubles"), 2);
  EXPECT_EQ(mixed.LookupResultIndex("out_nothing"), 1);

  CompiledFunction constant(kConstInfo);
  EXPECT_EQ(constant.LookupArgIndex("answer"), -1); // No args at all.
  EXPECT_EQ(constant.LookupResultIndex("seq"), 1);
}

//===----------------------------------------------------------------------===//
// Owned buffers
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, OwnedBuffersAreZeroed) {
  AddFn fn;
  ASSERT_NE(fn.arg_data(0), nullptr);
  ASSERT_NE(fn.arg_data(1), nullptr);
  ASSERT_NE(fn.result_data(0), nullptr);
  EXPECT_NE(fn.arg_data(0), fn.arg_data(1));
  EXPECT_TRUE(AllZero(fn.arg_data(0), 16));
  EXPECT_TRUE(AllZero(fn.arg_data(1), 16));
  EXPECT_TRUE(AllZero(fn.result_data(0), 16));
}

TEST_F(CompiledFunctionTest, OwnedBuffersAreAlignedAndNonNull) {
  CompiledFunction fn(kMixedInfo);
  for (int i = 0; i < fn.num_args(); ++i) {
    SCOPED_TRACE("arg " + std::to_string(i));
    ASSERT_NE(fn.arg_data(i), nullptr); // Including the 0-byte one.
    EXPECT_TRUE(IsAligned64(fn.arg_data(i)));
    EXPECT_TRUE(AllZero(fn.arg_data(i), fn.arg_size(i)));
  }
  for (int i = 0; i < fn.num_results(); ++i) {
    SCOPED_TRACE("result " + std::to_string(i));
    ASSERT_NE(fn.result_data(i), nullptr);
    EXPECT_TRUE(IsAligned64(fn.result_data(i)));
    EXPECT_TRUE(AllZero(fn.result_data(i), fn.result_size(i)));
  }
  // Distinct buffers, even for the two zero-size ones.
  EXPECT_NE(fn.arg_data(2), fn.result_data(1));
  EXPECT_NE(fn.arg_data(0), fn.arg_data(1));

  // The full 104 bytes of the last buffer are writable.
  std::memset(fn.arg_data(3), 0xab, fn.arg_size(3));
  std::memset(fn.result_data(2), 0xcd, fn.result_size(2));

  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  // The entry saw exactly the instance's buffers.
  ASSERT_NE(g_mixed_args, nullptr);
  ASSERT_NE(g_mixed_results, nullptr);
  for (int i = 0; i < fn.num_args(); ++i)
    EXPECT_EQ(g_mixed_args[i], fn.arg_data(i)) << i;
  for (int i = 0; i < fn.num_results(); ++i)
    EXPECT_EQ(g_mixed_results[i], fn.result_data(i)) << i;
}

TEST_F(CompiledFunctionTest, ResultsOnlyStillAllocatesAlignedResults) {
  CompiledFunction fn(kMixedInfo, AllocMode::kResultsOnly);
  for (int i = 0; i < fn.num_args(); ++i)
    EXPECT_EQ(fn.arg_data(i), nullptr) << i;
  for (int i = 0; i < fn.num_results(); ++i) {
    ASSERT_NE(fn.result_data(i), nullptr) << i;
    EXPECT_TRUE(IsAligned64(fn.result_data(i))) << i;
  }
}

TEST_F(CompiledFunctionTest, RunWithOwnedBuffers) {
  AddFn fn;
  const float x[4] = {1.0f, 2.0f, -3.5f, 0.25f};
  const float y[4] = {10.0f, 0.5f, 3.5f, 100.0f};
  std::memcpy(fn.arg0_data(), x, sizeof(x));
  std::memcpy(fn.arg1_data(), y, sizeof(y));

  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(fn.error_msg().empty());
  EXPECT_EQ(g_add_calls, 1);
  const float *sum = fn.result0_data();
  EXPECT_FLOAT_EQ(sum[0], 11.0f);
  EXPECT_FLOAT_EQ(sum[1], 2.5f);
  EXPECT_FLOAT_EQ(sum[2], 0.0f);
  EXPECT_FLOAT_EQ(sum[3], 100.25f);
  EXPECT_EQ(fn.result_sum_data(), sum);

  // Running again recomputes from the current argument contents.
  fn.arg_x_data()[0] = 5.0f;
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_add_calls, 2);
  EXPECT_FLOAT_EQ(fn.result0_data()[0], 15.0f);
  EXPECT_FLOAT_EQ(fn.result0_data()[3], 100.25f);
}

TEST_F(CompiledFunctionTest, RunOnUntouchedArgumentsGivesZeros) {
  AddFn fn;
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(AllZero(fn.result0_data(), 16));
}

//===----------------------------------------------------------------------===//
// Caller buffers
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, RunWithCallerBuffers) {
  AddFn fn;
  float *owned0 = fn.arg0_data();
  float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  const float y[4] = {0.5f, 0.5f, 0.5f, 0.5f};
  fn.set_arg0_data(x);
  fn.set_arg1_data(y);
  EXPECT_EQ(fn.arg_data(0), static_cast<void *>(x));
  EXPECT_EQ(fn.arg_data(1), static_cast<const void *>(y));

  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[0], 1.5f);
  EXPECT_FLOAT_EQ(fn.result0_data()[3], 4.5f);
  // The owned buffer was not used (it is still zero).
  EXPECT_TRUE(AllZero(owned0, 16));

  // Not copied: a change in caller memory is seen by the next Run().
  x[2] = 30.0f;
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[2], 30.5f);
}

TEST_F(CompiledFunctionTest, MixCallerAndOwnedBuffers) {
  AddFn fn;
  const float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  fn.set_arg0_data(x);
  float *y = fn.arg1_data();
  for (int i = 0; i < 4; ++i)
    y[i] = 10.0f * static_cast<float>(i);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[0], 1.0f);
  EXPECT_FLOAT_EQ(fn.result0_data()[1], 12.0f);
  EXPECT_FLOAT_EQ(fn.result0_data()[2], 23.0f);
  EXPECT_FLOAT_EQ(fn.result0_data()[3], 34.0f);
}

TEST_F(CompiledFunctionTest, NullRevertsToOwnedBuffer) {
  AddFn fn;
  void *owned0 = fn.arg_data(0);
  fn.arg0_data()[1] = 7.0f; // Owned contents survive the detour.
  const float x[4] = {100.0f, 100.0f, 100.0f, 100.0f};
  fn.set_arg0_data(x);
  ASSERT_TRUE(fn.Run());
  EXPECT_FLOAT_EQ(fn.result0_data()[1], 100.0f);

  fn.set_arg0_data(nullptr);
  EXPECT_EQ(fn.arg_data(0), owned0);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[0], 0.0f);
  EXPECT_FLOAT_EQ(fn.result0_data()[1], 7.0f);
}

TEST_F(CompiledFunctionTest, NullUnsetsInResultsOnlyMode) {
  AddFn fn(AllocMode::kResultsOnly);
  const float x[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  fn.set_arg0_data(x);
  fn.set_arg1_data(x);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[2], 2.0f);

  fn.set_arg1_data(nullptr);
  EXPECT_EQ(fn.arg_data(1), nullptr);
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(), "argument 1 ('y:0') is not set: call "
                            "set_arg1_data() before Run()");
  EXPECT_EQ(g_add_calls, 1);
}

//===----------------------------------------------------------------------===//
// Size-checked set_arg_data
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, CheckedSetAcceptsExactSize) {
  AddFn fn;
  const float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  EXPECT_TRUE(fn.set_arg0_data(x, sizeof(x)));
  EXPECT_TRUE(fn.error_msg().empty());
  EXPECT_EQ(fn.arg_data(0), static_cast<const void *>(x));
  EXPECT_TRUE(fn.set_arg_data(1, x, 16));
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[3], 8.0f);
}

TEST_F(CompiledFunctionTest, CheckedSetRejectsWrongSize) {
  AddFn fn;
  ASSERT_TRUE(fn.Run()); // Results now hold 0s from a good run.
  ASSERT_EQ(g_add_calls, 1);
  float *result = static_cast<float *>(fn.result_data(0));
  result[0] = -1.0f; // Sentinel: must survive the failed Run().

  const float small[3] = {1.0f, 2.0f, 3.0f};
  EXPECT_FALSE(fn.set_arg_data(1, small, sizeof(small)));
  EXPECT_EQ(fn.error_msg(),
            "argument 1 ('y:0') was given 12 bytes but needs 16");
  EXPECT_EQ(fn.arg_data(1), nullptr); // Unset, not the old buffer.

  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(),
            "argument 1 ('y:0') was given 12 bytes but needs 16");
  EXPECT_EQ(g_add_calls, 1); // The entry was not called.
  EXPECT_FLOAT_EQ(result[0], -1.0f);

  // Too large is rejected too; the message reports the latest size.
  const float big[8] = {};
  EXPECT_FALSE(fn.set_arg0_data(big, sizeof(big)));
  EXPECT_EQ(fn.error_msg(), "argument 0 ('x') was given 32 bytes but needs 16");
  EXPECT_FALSE(fn.Run());
  // Argument 0 is checked first.
  EXPECT_EQ(fn.error_msg(), "argument 0 ('x') was given 32 bytes but needs 16");
  EXPECT_EQ(g_add_calls, 1);
}

TEST_F(CompiledFunctionTest, CheckedSetRejectsZeroSize) {
  AddFn fn;
  const float x[4] = {};
  EXPECT_FALSE(fn.set_arg0_data(x, 0));
  EXPECT_EQ(fn.error_msg(), "argument 0 ('x') was given 0 bytes but needs 16");
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(), "argument 0 ('x') was given 0 bytes but needs 16");
  EXPECT_EQ(g_add_calls, 0);
}

TEST_F(CompiledFunctionTest, PoisonClearedByGoodSet) {
  AddFn fn;
  const float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  EXPECT_FALSE(fn.set_arg0_data(x, 15));
  EXPECT_TRUE(fn.set_arg0_data(x, 16));
  EXPECT_TRUE(fn.error_msg().empty()); // The last call succeeded.
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[3], 4.0f);
}

TEST_F(CompiledFunctionTest, PoisonClearedByNull) {
  AddFn fn;
  void *owned0 = fn.arg_data(0);
  fn.arg0_data()[0] = 2.0f;
  const float x[4] = {};
  EXPECT_FALSE(fn.set_arg0_data(x, 4));
  fn.set_arg0_data(nullptr);
  EXPECT_EQ(fn.arg_data(0), owned0);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[0], 2.0f);

  // The checked overload with null reverts too, whatever the size.
  EXPECT_FALSE(fn.set_arg0_data(x, 4));
  EXPECT_TRUE(fn.set_arg_data(0, nullptr, 0));
  EXPECT_EQ(fn.arg_data(0), owned0);
  EXPECT_TRUE(fn.Run()) << fn.error_msg();
}

TEST_F(CompiledFunctionTest, PoisonClearedByUncheckedSet) {
  AddFn fn;
  const float x[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  EXPECT_FALSE(fn.set_arg0_data(x, 8));
  fn.set_arg0_data(x); // The caller takes responsibility for the size.
  EXPECT_TRUE(fn.error_msg().empty());
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FLOAT_EQ(fn.result0_data()[0], 1.0f);
}

//===----------------------------------------------------------------------===//
// kResultsOnly
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, ResultsOnlyRequiresEveryArgument) {
  AddFn fn(AllocMode::kResultsOnly);
  EXPECT_EQ(fn.arg_data(0), nullptr);
  EXPECT_EQ(fn.arg_data(1), nullptr);

  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(),
            "argument 0 ('x') is not set: call set_arg0_data() before Run()");
  EXPECT_EQ(g_add_calls, 0);

  const float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  const float y[4] = {4.0f, 3.0f, 2.0f, 1.0f};
  fn.set_arg0_data(x);
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(),
            "argument 1 ('y:0') is not set: call set_arg1_data() before Run()");
  EXPECT_EQ(g_add_calls, 0);

  fn.set_arg1_data(y);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(fn.error_msg().empty()); // Run() clears the old message.
  EXPECT_EQ(g_add_calls, 1);
  for (int i = 0; i < 4; ++i)
    EXPECT_FLOAT_EQ(fn.result0_data()[i], 5.0f) << i;
}

TEST_F(CompiledFunctionTest, ResultsOnlyPoisonedArgument) {
  AddFn fn(AllocMode::kResultsOnly);
  const float x[4] = {};
  fn.set_arg1_data(x);
  EXPECT_FALSE(fn.set_arg0_data(x, 12));
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(), "argument 0 ('x') was given 12 bytes but needs 16");
  // Null reverts to "unset", not to some buffer, and clears the poisoning.
  fn.set_arg0_data(nullptr);
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(),
            "argument 0 ('x') is not set: call set_arg0_data() before Run()");
  EXPECT_EQ(g_add_calls, 0);
}

//===----------------------------------------------------------------------===//
// Bad indexes
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, OutOfRangeIndexesDoNotCrash) {
  AddFn fn;
  const float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};

  fn.set_arg_data(2, x);
  EXPECT_EQ(fn.error_msg(), "argument index 2 is out of range: "
                            "tfaot_test::Add has 2 arguments");
  fn.set_arg_data(-1, x);
  EXPECT_EQ(fn.error_msg(), "argument index -1 is out of range: "
                            "tfaot_test::Add has 2 arguments");

  EXPECT_FALSE(fn.set_arg_data(7, x, 16));
  EXPECT_EQ(fn.error_msg(), "argument index 7 is out of range: "
                            "tfaot_test::Add has 2 arguments");

  EXPECT_EQ(fn.arg_data(2), nullptr);
  EXPECT_NE(fn.error_msg().find("argument index 2"), std::string::npos);
  EXPECT_EQ(fn.arg_data(-100), nullptr);
  EXPECT_EQ(fn.result_data(1), nullptr);
  EXPECT_EQ(fn.error_msg(), "result index 1 is out of range: "
                            "tfaot_test::Add has 1 result");
  EXPECT_EQ(fn.result_data(-1), nullptr);

  const CompiledFunction &cfn = fn;
  EXPECT_EQ(cfn.arg_data(3), nullptr);
  EXPECT_NE(cfn.error_msg().find("argument index 3"), std::string::npos);
  EXPECT_EQ(cfn.result_data(5), nullptr);
  EXPECT_NE(cfn.error_msg().find("result index 5"), std::string::npos);

  // Nothing in range was disturbed, and a good Run() clears the message.
  std::memcpy(fn.arg0_data(), x, sizeof(x));
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(fn.error_msg().empty());
  EXPECT_FLOAT_EQ(fn.result0_data()[3], 4.0f);
}

TEST_F(CompiledFunctionTest, AnyIndexIsOutOfRangeWithNoArguments) {
  CompiledFunction fn(kConstInfo);
  EXPECT_EQ(fn.arg_data(0), nullptr);
  EXPECT_EQ(fn.error_msg(), "argument index 0 is out of range: "
                            "tfaot_test::Const has 0 arguments");
  EXPECT_FALSE(fn.set_arg_data(0, nullptr, 0));
  EXPECT_EQ(fn.result_data(3), nullptr);
  EXPECT_EQ(fn.error_msg(), "result index 3 is out of range: "
                            "tfaot_test::Const has 3 results");
}

} // namespace
} // namespace tfaot_runtime_test
