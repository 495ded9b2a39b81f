//===- bench_profile_test.cpp - tfaot bench --profile's thread prediction -===//
// SPDX-License-Identifier: Apache-2.0
//
// loopMsOnThreads divides a loop as ThreadPool::ParallelFor does: n
// iterations into min(n, threads) chunks [n*c/chunks, n*(c+1)/chunks), the
// largest deciding. The expected values are worked out by hand below.
//
//===----------------------------------------------------------------------===//
#include "compiler/jit/BenchProfile.h"

#include <gtest/gtest.h>

namespace {

using tfaot::loopMsOnThreads;

TEST(BenchProfileScaling, EvenSplitDividesByThreads) {
  // 32 iterations, 10 ms: 2 chunks of 16 (5 ms), 16 chunks of 2 (0.625 ms).
  EXPECT_DOUBLE_EQ(loopMsOnThreads(10, 32, 2), 5);
  EXPECT_DOUBLE_EQ(loopMsOnThreads(10, 32, 16), 0.625);
}

TEST(BenchProfileScaling, LargestChunkDecides) {
  // 7 iterations on 2 threads: chunks [0, 3) and [3, 7); the 4-iteration
  // one takes 4/7 of 7 ms. On 4 threads: [0,1) [1,3) [3,5) [5,7): 2/7.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(7, 7, 2), 4);
  EXPECT_DOUBLE_EQ(loopMsOnThreads(7, 7, 4), 2);
}

TEST(BenchProfileScaling, NoMoreChunksThanIterations) {
  // 3 iterations use 3 of 16 threads: one iteration each, 1/3 of the time.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(6, 3, 16), 2);
  // One iteration, or one thread: no change.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(6, 1, 16), 6);
  EXPECT_DOUBLE_EQ(loopMsOnThreads(6, 100, 1), 6);
}

} // namespace
