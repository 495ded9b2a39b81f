//===- compiled_function_test.cpp - Tests for tfaot::CompiledFunction -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Exercises the runtime base class through hand-written FunctionInfo tables
// with real entry functions, standing in for what `tfaot compile` generates:
// an element-wise float add (two arguments), a function with no arguments
// that writes constants, and a function with awkward buffer sizes (0, 1, 3,
// 104 bytes) for the allocation checks. Each entry counts its calls, so the
// tests can prove that a rejected Run() never reached the generated code.
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/compiled_function.h"
#include "tfaot/runtime/jpeg.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace {

using tfaot::BufferInfo;
using tfaot::CompiledFunction;
using tfaot::DType;
using tfaot::FunctionInfo;
using AllocMode = CompiledFunction::AllocMode;

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
constexpr int64_t kVec0[] = {0};
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

// A class shaped like the generated ones (docs/generated-api.md), to check
// that the base class supports that usage.
class AddFn : public CompiledFunction {
public:
  static constexpr int kNumArgs = 2;
  static constexpr int kNumResults = 1;
  static constexpr size_t kArg0Bytes = 16;

  AddFn(AllocMode mode = AllocMode::kArgsAndResults)
      : CompiledFunction(kAddInfo, mode) {}

  void set_arg0_data(const void *data) { set_arg_data(0, data); }
  bool set_arg0_data(const void *data, size_t bytes) {
    return set_arg_data(0, data, bytes);
  }
  void set_arg1_data(const void *data) { set_arg_data(1, data); }
  float *arg0_data() { return static_cast<float *>(arg_data(0)); }
  float *arg1_data() { return static_cast<float *>(arg_data(1)); }
  float *arg_x_data() { return arg0_data(); }
  float *arg_y_0_data() { return arg1_data(); }
  const float *result0_data() const {
    return static_cast<const float *>(result_data(0));
  }
  const float *result_sum_data() const { return result0_data(); }
};

bool AllZero(const void *data, size_t size) {
  const unsigned char *bytes = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < size; ++i)
    if (bytes[i] != 0)
      return false;
  return true;
}

bool IsAligned64(const void *p) {
  return reinterpret_cast<std::uintptr_t>(p) % 64 == 0;
}

class CompiledFunctionTest : public ::testing::Test {
protected:
  void SetUp() override {
    g_add_calls = 0;
    g_const_calls = 0;
    g_mixed_args = nullptr;
    g_mixed_results = nullptr;
    g_scratch_calls = 0;
    g_scratch_temp = nullptr;
  }
};

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

//===----------------------------------------------------------------------===//
// Functions without arguments, instance independence
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, ZeroArgumentFunctionWritesConstants) {
  CompiledFunction fn(kConstInfo);
  EXPECT_EQ(fn.num_args(), 0);
  EXPECT_EQ(fn.num_results(), 3);
  ASSERT_NE(fn.result_data(2), nullptr); // The float[0] result.
  EXPECT_EQ(*static_cast<const int32_t *>(fn.result_data(0)), 0);

  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_const_calls, 1);
  EXPECT_EQ(*static_cast<const int32_t *>(fn.result_data(0)), 42);
  const int64_t *seq = static_cast<const int64_t *>(fn.result_data(1));
  EXPECT_EQ(seq[0], 1);
  EXPECT_EQ(seq[1], 2);
  EXPECT_EQ(seq[2], 3);

  // Same in kResultsOnly mode: there is nothing for the caller to set.
  CompiledFunction fn2(kConstInfo, AllocMode::kResultsOnly);
  ASSERT_TRUE(fn2.Run()) << fn2.error_msg();
  EXPECT_EQ(*static_cast<const int32_t *>(fn2.result_data(0)), 42);
  EXPECT_EQ(g_const_calls, 2);
}

TEST_F(CompiledFunctionTest, InstancesAreIndependent) {
  AddFn a;
  AddFn b;
  EXPECT_NE(a.arg_data(0), b.arg_data(0));
  EXPECT_NE(a.arg_data(1), b.arg_data(1));
  EXPECT_NE(a.result_data(0), b.result_data(0));

  for (int i = 0; i < 4; ++i) {
    a.arg0_data()[i] = 1.0f;
    a.arg1_data()[i] = static_cast<float>(i);
    b.arg0_data()[i] = 100.0f;
    b.arg1_data()[i] = -static_cast<float>(i);
  }
  // An error on one instance leaves the other alone.
  const float x[4] = {};
  EXPECT_FALSE(b.set_arg0_data(x, 1));
  EXPECT_TRUE(a.error_msg().empty());
  ASSERT_TRUE(a.Run()) << a.error_msg();
  EXPECT_FALSE(b.Run());
  EXPECT_EQ(g_add_calls, 1);
  b.set_arg0_data(nullptr); // Back to b's own buffer, which holds 100s.
  ASSERT_TRUE(b.Run()) << b.error_msg();

  for (int i = 0; i < 4; ++i) {
    EXPECT_FLOAT_EQ(a.result0_data()[i], 1.0f + static_cast<float>(i)) << i;
    EXPECT_FLOAT_EQ(b.result0_data()[i], 100.0f - static_cast<float>(i)) << i;
  }

  // Pointing a at caller memory does not affect b.
  const float ones[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  a.set_arg1_data(ones);
  EXPECT_NE(b.arg_data(1), static_cast<const void *>(ones));
  ASSERT_TRUE(a.Run());
  ASSERT_TRUE(b.Run());
  EXPECT_FLOAT_EQ(a.result0_data()[3], 2.0f);
  EXPECT_FLOAT_EQ(b.result0_data()[3], 97.0f);
}

TEST_F(CompiledFunctionTest, MissingEntryFailsCleanly) {
  FunctionInfo info = kAddInfo;
  info.entry = nullptr;
  CompiledFunction fn(info);
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(), "tfaot_test::Add has no entry function");
}

TEST_F(CompiledFunctionTest, ManyInstancesAllocateAndFree) {
  // Under ASan/LSan this catches leaks and double frees in the constructor
  // and destructor for every mode and table shape.
  for (int i = 0; i < 50; ++i) {
    CompiledFunction add(kAddInfo, i % 2 ? AllocMode::kResultsOnly
                                         : AllocMode::kArgsAndResults);
    CompiledFunction mixed(kMixedInfo);
    CompiledFunction constant(kConstInfo, AllocMode::kResultsOnly);
    const float x[4] = {};
    add.set_arg_data(0, x);
    add.set_arg_data(1, x);
    EXPECT_TRUE(add.Run());
    EXPECT_TRUE(mixed.Run());
    EXPECT_TRUE(constant.Run());
  }
  EXPECT_EQ(g_add_calls, 50);
  EXPECT_EQ(g_const_calls, 50);
}

//===----------------------------------------------------------------------===//
// Scratch memory (the arena of temporaries)
//===----------------------------------------------------------------------===//

TEST_F(CompiledFunctionTest, OwnedArenaIsAllocatedOnceAndReused) {
  CompiledFunction fn(kScratchInfo);
  EXPECT_EQ(fn.temp_size(), 100u);
  void *arena = fn.temp_data();
  ASSERT_NE(arena, nullptr);
  EXPECT_TRUE(IsAligned64(arena));
  float *x = static_cast<float *>(fn.arg_data(0));
  for (int run = 0; run < 3; ++run) {
    for (int i = 0; i < 4; ++i)
      x[i] = static_cast<float>(run + i);
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    // Every Run() gets the same block: nothing is allocated per call.
    EXPECT_EQ(g_scratch_temp, arena);
    EXPECT_FLOAT_EQ(static_cast<const float *>(fn.result_data(0))[3],
                    2.0f * (run + 3));
  }
  EXPECT_EQ(fn.temp_data(), arena);
  EXPECT_EQ(g_scratch_calls, 3);
}

TEST_F(CompiledFunctionTest, NoArenaWhenNoTemporaries) {
  CompiledFunction fn(kAddInfo);
  EXPECT_EQ(fn.temp_size(), 0u);
  EXPECT_EQ(fn.temp_data(), nullptr);
  EXPECT_TRUE(fn.Run());
}

TEST_F(CompiledFunctionTest, CallerArenaIsUsed) {
  alignas(64) static unsigned char arena[128];
  CompiledFunction fn(kScratchInfo);
  ASSERT_TRUE(fn.set_temp_buffer(arena, sizeof(arena)));
  EXPECT_TRUE(fn.error_msg().empty());
  EXPECT_EQ(fn.temp_data(), arena);
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_scratch_temp, static_cast<void *>(arena));

  // Exactly kTempBytes is enough, and two instances may share one arena.
  CompiledFunction other(kScratchInfo);
  ASSERT_TRUE(other.set_temp_buffer(arena, 100));
  ASSERT_TRUE(other.Run()) << other.error_msg();
  EXPECT_EQ(g_scratch_temp, static_cast<void *>(arena));

  // Null goes back to an instance-owned, aligned arena.
  ASSERT_TRUE(fn.set_temp_buffer(nullptr, 0));
  ASSERT_NE(fn.temp_data(), nullptr);
  EXPECT_NE(fn.temp_data(), static_cast<void *>(arena));
  EXPECT_TRUE(IsAligned64(fn.temp_data()));
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_scratch_temp, fn.temp_data());
}

TEST_F(CompiledFunctionTest, TooSmallArenaIsRejected) {
  alignas(64) static unsigned char arena[128];
  CompiledFunction fn(kScratchInfo);
  EXPECT_FALSE(fn.set_temp_buffer(arena, 99));
  const std::string expected =
      "the temp buffer given to tfaot_test::Scratch has 99 bytes but needs at "
      "least 100 (kTempBytes)";
  EXPECT_EQ(fn.error_msg(), expected);
  // Run() refuses, with the same message, without calling the entry.
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(), expected);
  EXPECT_EQ(g_scratch_calls, 0);
  // A later valid buffer clears the error.
  ASSERT_TRUE(fn.set_temp_buffer(arena, 100));
  EXPECT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_scratch_calls, 1);
}

TEST_F(CompiledFunctionTest, MisalignedArenaIsRejected) {
  alignas(64) static unsigned char arena[256];
  CompiledFunction fn(kScratchInfo);
  EXPECT_FALSE(fn.set_temp_buffer(arena + 8, 200));
  EXPECT_EQ(fn.error_msg(), "the temp buffer given to tfaot_test::Scratch is "
                            "not 64-byte aligned");
  EXPECT_EQ(fn.temp_data(), nullptr);
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(), "the temp buffer given to tfaot_test::Scratch is "
                            "not 64-byte aligned");
  EXPECT_EQ(g_scratch_calls, 0);
  // Reverting to the owned arena also clears the error.
  ASSERT_TRUE(fn.set_temp_buffer(nullptr, 0));
  EXPECT_TRUE(fn.Run()) << fn.error_msg();
}

//===----------------------------------------------------------------------===//
// Batch buckets
//===----------------------------------------------------------------------===//

// y = 2 * x over rows of two floats, with buckets of 1, 2 and 4 rows; each
// entry handles exactly its bucket's rows and records which one ran.
int64_t g_last_bucket = 0;

template <int64_t kRows>
void DoubleRows(void *const *args, void *const *results, void * /*temp*/) {
  g_last_bucket = kRows;
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(results[0]);
  for (int64_t i = 0; i < kRows * 2; ++i)
    y[i] = 2 * x[i];
}

constexpr int64_t kRows4x2[] = {4, 2};
const BufferInfo kRowsArgs[] = {{"x", DType::kFloat32, 2, kRows4x2, 8, 32}};
const BufferInfo kRowsResults[] = {{"y", DType::kFloat32, 2, kRows4x2, 8, 32}};
constexpr int64_t kBuckets[] = {1, 2, 4};
const tfaot::EntryFunction kBucketEntries[] = {DoubleRows<1>, DoubleRows<2>,
                                               DoubleRows<4>};
const FunctionInfo kBucketInfo = {
    "tfaot_test::Buckets", nullptr, 1, kRowsArgs, 1, kRowsResults, 0,
    3,                     kBuckets, kBucketEntries};

TEST(BatchBucketsTest, SmallestBucketThatHoldsTheBatchRuns) {
  CompiledFunction fn(kBucketInfo);
  EXPECT_EQ(fn.max_batch_size(), 4);
  EXPECT_EQ(fn.batch_size(), 4);  // Every row, by default.
  const int64_t expected_bucket[] = {0, 1, 2, 4, 4};
  for (int64_t batch = 1; batch <= 4; ++batch) {
    float *x = static_cast<float *>(fn.arg_data(0));
    for (int i = 0; i < 8; ++i)
      x[i] = 100.0f + i;  // Rows past the batch are garbage to be zeroed.
    ASSERT_TRUE(fn.set_batch_size(batch)) << fn.error_msg();
    EXPECT_EQ(fn.bucket_for_batch(), expected_bucket[batch]);
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    EXPECT_EQ(g_last_bucket, expected_bucket[batch]);
    const float *y = static_cast<const float *>(fn.result_data(0));
    for (int i = 0; i < batch * 2; ++i)
      EXPECT_EQ(y[i], 2 * (100.0f + i)) << "batch " << batch << " i " << i;
    // Padding rows inside the bucket were zeroed before the entry ran.
    for (int i = batch * 2; i < expected_bucket[batch] * 2; ++i)
      EXPECT_EQ(y[i], 0.0f) << "batch " << batch << " i " << i;
  }
}

TEST(BatchBucketsTest, CallerArgumentsAreNotWritten) {
  CompiledFunction fn(kBucketInfo);
  const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(fn.set_arg_data(0, x, sizeof(x)));
  ASSERT_TRUE(fn.set_batch_size(3));
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_last_bucket, 4);
  EXPECT_EQ(x[6], 7);  // The padding row is read as it is.
  EXPECT_EQ(static_cast<const float *>(fn.result_data(0))[7], 16);
}

TEST(BatchBucketsTest, OutOfRangeBatchIsRejected) {
  CompiledFunction fn(kBucketInfo);
  ASSERT_TRUE(fn.set_batch_size(2));
  EXPECT_FALSE(fn.set_batch_size(5));
  EXPECT_EQ(fn.error_msg(), "batch size 5 is out of range: "
                            "tfaot_test::Buckets takes 1 to 4");
  EXPECT_FALSE(fn.set_batch_size(0));
  EXPECT_EQ(fn.batch_size(), 2);  // Unchanged by the rejected calls.
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(g_last_bucket, 2);
}

TEST(BatchBucketsTest, FunctionsWithoutBucketsHaveAFixedBatch) {
  CompiledFunction fn(kAddInfo);
  EXPECT_EQ(fn.max_batch_size(), 0);
  EXPECT_FALSE(fn.set_batch_size(1));
  EXPECT_EQ(fn.error_msg(), "tfaot_test::Add was compiled without batch "
                            "buckets (tfaot compile --batch); its batch is "
                            "fixed");
}

// A function taking a string (bytes) argument, shaped like a compiled
// DecodeJpeg: the entry passes the descriptor on to the runtime's decoder,
// which reports a bad image through the per-thread error slot that Run()
// turns into false + error_msg().
const tfaot::Bytes *g_seen_bytes = nullptr;

void DecodeEntry(void *const *args, void *const *results, void *) {
  g_seen_bytes = static_cast<const tfaot::Bytes *>(args[0]);
  tfaot_rt_decode_jpeg(args[0], nullptr, static_cast<uint8_t *>(results[0]),
                       "DecodeJpeg 'd'", 2, 2, 1, 1, 0, 0, 0);
}

const BufferInfo kBytesArgs[] = {{"jpeg", DType::kString, 0, kVec0, 1, 16}};
const int64_t kImage[] = {2, 2, 1};
const BufferInfo kBytesResults[] = {{"image", DType::kUInt8, 3, kImage, 4, 4}};
const FunctionInfo kBytesInfo = {"tfaot_test::Decode", DecodeEntry, 1,
                                 kBytesArgs, 1, kBytesResults, 0};

TEST(BytesArgumentTest, UnsetUntilGivenInBothModes) {
  for (AllocMode mode : {AllocMode::kArgsAndResults, AllocMode::kResultsOnly}) {
    CompiledFunction fn(kBytesInfo, mode);
    EXPECT_FALSE(fn.Run());
    EXPECT_EQ(fn.error_msg(), "argument 0 ('jpeg') is not set: call "
                              "set_arg0_data(data, size) before Run()");
  }
}

TEST(BytesArgumentTest, TheEntryGetsTheDescriptor) {
  CompiledFunction fn(kBytesInfo);
  const char data[] = "not a jpeg";
  ASSERT_TRUE(fn.set_arg_bytes(0, data, 10));
  EXPECT_FALSE(fn.Run());
  ASSERT_NE(g_seen_bytes, nullptr);
  EXPECT_EQ(g_seen_bytes->data, data);
  EXPECT_EQ(g_seen_bytes->size, 10);
  EXPECT_EQ(fn.error_msg(), "DecodeJpeg 'd': JPEG is corrupt: Not a JPEG "
                            "file: starts with 0x6e 0x6f");
  // A caller-owned descriptor through set_arg_data() works the same way.
  tfaot::Bytes empty{data, 0};
  fn.set_arg_data(0, &empty);
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(g_seen_bytes, &empty);
  EXPECT_EQ(fn.error_msg(), "DecodeJpeg 'd': JPEG is empty (0 bytes)");
  EXPECT_FALSE(fn.set_arg_bytes(1, data, 10));
  EXPECT_EQ(fn.error_msg(), "argument index 1 is out of range: "
                            "tfaot_test::Decode has 1 argument");
}

TEST(BytesArgumentTest, OnlyStringArgumentsTakeBytes) {
  CompiledFunction fn(kAddInfo);
  EXPECT_FALSE(fn.set_arg_bytes(0, "x", 1));
  EXPECT_EQ(fn.error_msg(), "argument 0 ('x') is float32, not a string: set "
                            "it with set_arg_data()");
}

} // namespace
