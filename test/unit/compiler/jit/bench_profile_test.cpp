//===- bench_profile_test.cpp - tfaot bench --profile's thread prediction -===//
// SPDX-License-Identifier: Apache-2.0
//
// loopMsOnThreads divides a loop as ThreadPool::ParallelFor does: n
// iterations into min(n, 4 * threads) chunks [n*c/chunks, n*(c+1)/chunks),
// each taken by the first free thread (the caller from the front, workers
// from the back), the busiest thread deciding. The expected values are
// worked out by hand below.
//
//===----------------------------------------------------------------------===//
#include "compiler/jit/BenchProfile.h"

#include <gtest/gtest.h>

namespace {

using tfaot::loopMsOnThreads;

TEST(BenchProfileScaling, EvenSplitDividesByThreads) {
  // 32 iterations, 10 ms: on 2 threads 8 chunks of 4, 4 each (5 ms); on 16,
  // 32 chunks of 1, 2 each (0.625 ms).
  EXPECT_DOUBLE_EQ(loopMsOnThreads(10, 32, 2), 5);
  EXPECT_DOUBLE_EQ(loopMsOnThreads(10, 32, 16), 0.625);
}

TEST(BenchProfileScaling, BusiestThreadDecides) {
  // 7 iterations on 2 threads: 7 chunks of 1, 4 on one thread: 4/7 of 7 ms.
  // On 4 threads: 2, 2, 2 and 1 chunks: 2/7.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(7, 7, 2), 4);
  EXPECT_DOUBLE_EQ(loopMsOnThreads(7, 7, 4), 2);
  // 10 iterations on 2 threads: 8 chunks of 1, 1, 1, 2, 1, 1, 1, 2
  // iterations. The caller takes chunk 0 (busy until 1), the worker chunk 7
  // (until 2); the caller chunk 1 (2), then, both free at 2, the caller
  // chunk 2 (3) and the worker chunk 6 (3); the caller chunk 3 (5), the
  // worker chunks 5 (4) and 4 (5): 5 iterations each, 5 of 10 ms.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(10, 10, 2), 5);
  // 9 iterations on 2 threads: 8 chunks, [7, 9) the only one of 2. The
  // caller takes 0 (1), the worker 7 (2); the caller 1 (2), 2 (3); the
  // worker 6 (3); the caller 3 (4), the worker 5 (4); the caller 4 (5): 5
  // of 9 on the caller.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(9, 9, 2), 5);
}

TEST(BenchProfileScaling, NoMoreChunksThanIterations) {
  // 3 iterations use 3 of 16 threads: one iteration each, 1/3 of the time.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(6, 3, 16), 2);
  // One iteration, or one thread: no change.
  EXPECT_DOUBLE_EQ(loopMsOnThreads(6, 1, 16), 6);
  EXPECT_DOUBLE_EQ(loopMsOnThreads(6, 100, 1), 6);
}

} // namespace
