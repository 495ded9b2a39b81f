//===- index_checks_test.cpp - Run() on out-of-range indices --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The run-time index checks (docs/generated-api.md, "Indices read from
// data") through a linked class: test/backends/cpu/Inputs/gathers.pbtxt's
// `gather` (tf.gather of a [4,3] table whose row r is 3r, 3r+1, 3r+2, by an
// int32[3] argument), compiled with the checks (e2e::checks::Gather) and
// without (e2e::checks::Unchecked). The lit test run-index-checks.test
// covers the messages of every gather kind; this one what an instance does
// across runs and threads.
//
//===----------------------------------------------------------------------===//
#include <atomic>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "checks_gather.h"
#include "checks_unchecked.h"

namespace {

using Gather = e2e::checks::Gather;

// There is no moved-from or copied instance to Run(): the generated class
// can be neither copied nor moved (docs/generated-api.md, "Instances").
static_assert(!std::is_copy_constructible_v<Gather> &&
                  !std::is_move_constructible_v<Gather> &&
                  !std::is_copy_assignable_v<Gather> &&
                  !std::is_move_assignable_v<Gather>,
              "an instance owns its buffers and stays where it was made");

const char kBadMessage[] = "node 'gather': indices[1] = 4 is not in [0, 4)";

template <typename Model>
bool RunWith(Model &model, int32_t a, int32_t b, int32_t c) {
  int32_t *idx = model.arg0_data();
  idx[0] = a, idx[1] = b, idx[2] = c;
  return model.Run();
}

template <typename Model>
std::vector<float> Result(Model &model) {
  return std::vector<float>(model.result0_data(),
                            model.result0_data() + Model::kResult0Elements);
}

TEST(IndexChecks, FailedRunLeavesTheInstanceUsable) {
  Gather model;
  ASSERT_TRUE(RunWith(model, 3, 0, 2)) << model.error_msg();
  const std::vector<float> rows_3_0_2 = {9, 10, 11, 0, 1, 2, 6, 7, 8};
  EXPECT_EQ(Result(model), rows_3_0_2);

  EXPECT_FALSE(RunWith(model, 0, 4, 1));
  EXPECT_EQ(model.error_msg(), kBadMessage);
  // The error is not sticky: the next good run succeeds with an empty
  // message and the right rows.
  ASSERT_TRUE(RunWith(model, 3, 0, 2));
  EXPECT_EQ(model.error_msg(), "");
  EXPECT_EQ(Result(model), rows_3_0_2);
}

TEST(IndexChecks, UncheckedBuildClamps) {
  e2e::checks::Unchecked model;
  ASSERT_TRUE(RunWith(model, 4, -1, 100000)) << model.error_msg();
  EXPECT_EQ(model.error_msg(), "");
  // 4 and 100000 -> the last row, -1 -> the first.
  const std::vector<float> clamped = {9, 10, 11, 0, 1, 2, 9, 10, 11};
  EXPECT_EQ(Result(model), clamped);
}

// The check reports through the runtime's per-thread error slot: threads
// that each run their own instance, good and bad indices alternating, must
// see exactly their own outcome every time.
TEST(IndexChecks, ConcurrentInstancesSeeTheirOwnErrors) {
  constexpr int kThreads = 4, kRuns = 500;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Gather model;
      for (int i = 0; i < kRuns; ++i) {
        const bool bad = (i + t) % 2 == 1;
        const bool ok = RunWith(model, 1, bad ? 4 : 2, 0);
        const bool right =
            bad ? !ok && model.error_msg() == kBadMessage
                : ok && model.error_msg().empty() &&
                      model.result0_data()[3] == 6.0f;
        if (!right)
          ++wrong;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

} // namespace
