//===- compiled_function_run_test.cpp - Runs of tfaot::CompiledFunction ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Run() on the tables of compiled_function_test.h: a function without
// arguments, instances that share nothing, and the arena of temporaries
// (owned, the caller's, rejected ones).
//
//===----------------------------------------------------------------------===//

#include "compiled_function_test.h"

#include <cstdint>
#include <string>

namespace tfaot_runtime_test {
namespace {

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

} // namespace
} // namespace tfaot_runtime_test
