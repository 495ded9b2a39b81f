//===- compiled_function_test.h - CompiledFunction test tables --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The hand-written FunctionInfo tables with real entry functions that the
// tests of tfaot::CompiledFunction run, standing in for what `tfaot compile`
// generates (defined in compiled_function_test.cpp), a class shaped like a
// generated one, and the fixture that resets the entries' counters. The
// tests are split by topic:
//   compiled_function_test.cpp          tables, owned and caller buffers,
//                                       checked sizes, kResultsOnly, bad
//                                       indexes
//   compiled_function_run_test.cpp      functions without arguments,
//                                       independent instances, the arena
//   compiled_function_entries_test.cpp  batch buckets, string arguments
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_UNIT_RUNTIME_COMPILED_FUNCTION_TEST_H
#define TFAOT_TEST_UNIT_RUNTIME_COMPILED_FUNCTION_TEST_H

#include "tfaot/runtime/compiled_function.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

namespace tfaot_runtime_test {

using tfaot::BufferInfo;
using tfaot::CompiledFunction;
using tfaot::DType;
using tfaot::FunctionInfo;
using AllocMode = CompiledFunction::AllocMode;

// sum[i] = x[i] + y[i] over float[4]; the second feed is named "y:0".
extern int g_add_calls;
extern const FunctionInfo kAddInfo;

// No arguments: answer = 42 (int32 scalar), seq = {1, 2, 3} (int64[3]) and
// an empty float[0] result.
extern int g_const_calls;
extern const FunctionInfo kConstInfo;

// Sizes that are not multiples of 64 (and one of 0); the entry records the
// pointers it was given.
extern void *const *g_mixed_args;
extern void *const *g_mixed_results;
extern const FunctionInfo kMixedInfo;

// out[i] = 2 * x[i] through 100 bytes of scratch memory; the entry records
// the arena it was given.
extern int g_scratch_calls;
extern void *g_scratch_temp;
extern const FunctionInfo kScratchInfo;

/// The dims of a float[0] buffer.
inline constexpr int64_t kVec0[] = {0};

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

inline bool AllZero(const void *data, size_t size) {
  const unsigned char *bytes = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < size; ++i)
    if (bytes[i] != 0)
      return false;
  return true;
}

inline bool IsAligned64(const void *p) {
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

} // namespace tfaot_runtime_test

#endif // TFAOT_TEST_UNIT_RUNTIME_COMPILED_FUNCTION_TEST_H
