//===- thread_pool_test.cpp - Tests for tfaot::ThreadPool -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The pool generated code runs its parallel loops on: every iteration runs
// exactly once, in ThreadPool::ChunksOf contiguous ranges, on several
// threads; nested loops and callers sharing one pool; and the path from
// CompiledFunction::set_num_threads() through Run() to
// tfaot_rt_parallel_for, the function generated code calls.
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/compiled_function.h"
#include "tfaot/runtime/run_hooks.h"
#include "tfaot/runtime/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

// What generated code calls (declared as the compiler emits it).
extern "C" void tfaot_rt_parallel_for(tfaot::ThreadPool::Body body,
                                      void *context, int64_t n);

namespace {

using tfaot::ThreadPool;

/// Records every range a loop body was called with, and on which thread.
struct Recorder {
  std::mutex mutex;
  std::condition_variable entered;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::set<std::thread::id> threads;
  /// When set, each range waits until this many distinct threads have
  /// entered one. The thread that claims a range holds it while waiting, so
  /// the others can only be run by other threads: "the pool uses several
  /// threads" holds however late a worker wakes up, where a sleep in each
  /// range only made it likely (a loaded CI machine can keep the workers
  /// asleep while the caller runs every range). A pool that never lets a
  /// second thread in fails after kRendezvousLimit instead of hanging.
  size_t rendezvous = 0;
  static constexpr auto kRendezvousLimit = std::chrono::seconds(60);

  static void Body(void *context, int64_t begin, int64_t end) {
    auto *self = static_cast<Recorder *>(context);
    std::unique_lock<std::mutex> lock(self->mutex);
    self->ranges.emplace_back(begin, end);
    self->threads.insert(std::this_thread::get_id());
    self->entered.notify_all();
    self->entered.wait_for(lock, kRendezvousLimit, [self] {
      return self->threads.size() >= self->rendezvous;
    });
  }

  /// Whether the ranges tile [0, n) exactly, each non-empty.
  bool Tiles(int64_t n) {
    std::sort(ranges.begin(), ranges.end());
    int64_t next = 0;
    for (auto [begin, end] : ranges) {
      if (begin != next || end <= begin)
        return false;
      next = end;
    }
    return next == n;
  }
};

TEST(ThreadPool, EveryIterationRunsOnceInContiguousRanges) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.num_threads(), threads);
    for (int64_t n : {1, 2, 3, 7, 64, 1000}) {
      Recorder recorder;
      pool.ParallelFor(n, Recorder::Body, &recorder);
      EXPECT_TRUE(recorder.Tiles(n)) << threads << " threads, n = " << n;
      EXPECT_EQ(recorder.ranges.size(),
                static_cast<size_t>(ThreadPool::ChunksOf(n, threads)));
    }
    Recorder none;
    pool.ParallelFor(0, Recorder::Body, &none);
    EXPECT_TRUE(none.ranges.empty());
  }
}

TEST(ThreadPool, ChunksOf) {
  EXPECT_EQ(ThreadPool::ChunksOf(1000, 1), 1);
  EXPECT_EQ(ThreadPool::ChunksOf(1000, 2), 8);
  EXPECT_EQ(ThreadPool::ChunksOf(5, 2), 5); // At most one per iteration.
  EXPECT_EQ(ThreadPool::ChunksOf(0, 2), 0);
}

// A thread that holds its first chunk until the loop is otherwise done
// (a worker descheduled, or much slower) leaves every other chunk to the
// other threads: the caller does not wait on a fixed share of the loop.
TEST(ThreadPool, AStalledThreadLeavesItsShareToTheOthers) {
  ThreadPool pool(2);
  struct Stall {
    std::mutex mutex;
    std::condition_variable done;
    int64_t ran = 0, n = 64, stalled_size = 0;
    bool has_stalled = false;
  } stall;
  pool.ParallelFor(
      stall.n,
      [](void *context, int64_t begin, int64_t end) {
        auto *s = static_cast<Stall *>(context);
        std::unique_lock<std::mutex> lock(s->mutex);
        s->ran += end - begin;
        s->done.notify_all();
        if (!s->has_stalled) {
          // The first thread in waits until all the rest has run.
          s->has_stalled = true;
          s->stalled_size = end - begin;
          ASSERT_TRUE(s->done.wait_for(lock, std::chrono::seconds(60),
                                       [s] { return s->ran == s->n; }));
        }
      },
      &stall);
  EXPECT_EQ(stall.ran, stall.n);
  // One of 8 chunks (an even split would have held half the loop).
  EXPECT_EQ(stall.stalled_size, 8);
}

TEST(ThreadPool, ThreadCountsBelowOneMeanTheCallerOnly) {
  ThreadPool pool(0);
  EXPECT_EQ(pool.num_threads(), 1);
  Recorder recorder;
  pool.ParallelFor(10, Recorder::Body, &recorder);
  ASSERT_EQ(recorder.ranges.size(), 1u);
  EXPECT_EQ(*recorder.threads.begin(), std::this_thread::get_id());
}

TEST(ThreadPool, RunsRangesOnSeveralThreads) {
  ThreadPool pool(4);
  Recorder recorder;
  recorder.rendezvous = 2;
  pool.ParallelFor(4, Recorder::Body, &recorder);
  EXPECT_TRUE(recorder.Tiles(4));
  EXPECT_GE(recorder.threads.size(), 2u);
}

// A loop inside a loop body runs on the thread that reached it: the pool's
// threads may all be busy with the outer loop.
TEST(ThreadPool, NestedLoopsRunOnTheCallingThread) {
  ThreadPool pool(3);
  struct Outer {
    ThreadPool *pool;
    std::atomic<int> inner_on_other_thread{0};
    std::atomic<int64_t> inner_iterations{0};
  } outer{&pool};
  pool.ParallelFor(
      6,
      [](void *context, int64_t begin, int64_t end) {
        auto *o = static_cast<Outer *>(context);
        for (int64_t i = begin; i < end; ++i) {
          struct Inner {
            std::thread::id caller = std::this_thread::get_id();
            Outer *outer;
          } inner{std::this_thread::get_id(), o};
          o->pool->ParallelFor(
              5,
              [](void *context, int64_t b, int64_t e) {
                auto *in = static_cast<Inner *>(context);
                if (std::this_thread::get_id() != in->caller)
                  ++in->outer->inner_on_other_thread;
                in->outer->inner_iterations += e - b;
              },
              &inner);
        }
      },
      &outer);
  EXPECT_EQ(outer.inner_iterations.load(), 30);
  EXPECT_EQ(outer.inner_on_other_thread.load(), 0);
}

/// What the chunk profiler was told, in order: (thread, begin, end,
/// finished). Only one test installs it, and only the calling thread runs
/// loops while it is installed.
std::vector<std::tuple<int, int64_t, int64_t, bool>> profiled_chunks;

void ProfileChunk(int thread, int64_t begin, int64_t end, bool finished) {
  profiled_chunks.emplace_back(thread, begin, end, finished);
}

// A loop the caller runs alone (a pool of one, no pool, or one iteration)
// is reported as one chunk of all its iterations: `tfaot bench --profile
// --threads 1` predicts other thread counts from those. A loop inside a
// chunk is part of that chunk and is not reported.
TEST(ThreadPool, LoopsOnTheCallerAloneAreReportedAsOneChunk) {
  ThreadPool one(1);
  tfaot::internal::SetChunkProfiler(&ProfileChunk);
  profiled_chunks.clear();
  int64_t iterations = 0;
  auto count = [](void *context, int64_t begin, int64_t end) {
    *static_cast<int64_t *>(context) += end - begin;
  };
  one.ParallelFor(7, count, &iterations);
  one.ParallelFor(1, count, &iterations);
  tfaot_rt_parallel_for(count, &iterations, 5); // No current pool.
  struct Nested {
    ThreadPool *pool;
    int64_t inner = 0;
  } nested{&one};
  one.ParallelFor(
      2,
      [](void *context, int64_t begin, int64_t end) {
        auto *n = static_cast<Nested *>(context);
        for (int64_t i = begin; i < end; ++i)
          n->pool->ParallelFor(
              3,
              [](void *c, int64_t b, int64_t e) {
                *static_cast<int64_t *>(c) += e - b;
              },
              &n->inner);
      },
      &nested);
  tfaot::internal::SetChunkProfiler(nullptr);
  EXPECT_EQ(iterations, 13);
  EXPECT_EQ(nested.inner, 6);
  using C = std::tuple<int, int64_t, int64_t, bool>;
  EXPECT_EQ(profiled_chunks,
            (std::vector<C>{C{0, 0, 7, false}, C{0, 0, 7, true},
                            C{0, 0, 1, false}, C{0, 0, 1, true},
                            C{0, 0, 5, false}, C{0, 0, 5, true},
                            C{0, 0, 2, false}, C{0, 0, 2, true}}));
}

// Instances running at the same time may share a pool: their loops queue
// up, and each caller works on its own loop, so all finish.
TEST(ThreadPool, CallersSharingAPoolAllFinish) {
  ThreadPool pool(3);
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int i = 0; i < 300; ++i)
        pool.ParallelFor(
            17,
            [](void *context, int64_t begin, int64_t end) {
              *static_cast<std::atomic<int64_t> *>(context) += end - begin;
            },
            &total);
    });
  for (std::thread &caller : callers)
    caller.join();
  EXPECT_EQ(total.load(), 4 * 300 * 17);
}

//===----------------------------------------------------------------------===//
// Through CompiledFunction::Run()
//===----------------------------------------------------------------------===//

// An entry function as tfaot-parallelize-loops shapes one: its loop is a call
// of tfaot_rt_parallel_for with an outlined body. out[i] = 2 * in[i] + 1
// over 64 floats, and each range records its thread.
Recorder *g_recorder = nullptr;

void DoubleRange(void *context, int64_t begin, int64_t end) {
  auto *buffers = static_cast<void *const *>(context);
  const float *in = static_cast<const float *>(buffers[0]);
  float *out = static_cast<float *>(buffers[1]);
  for (int64_t i = begin; i < end; ++i)
    out[i] = 2 * in[i] + 1;
  Recorder::Body(g_recorder, begin, end);
}

void ParallelEntry(void *const *args, void *const *results, void *) {
  void *buffers[] = {args[0], results[0]};
  tfaot_rt_parallel_for(DoubleRange, buffers, 64);
}

constexpr int64_t kDims[] = {64};
const tfaot::BufferInfo kArgs[] = {
    {"in", tfaot::DType::kFloat32, 1, kDims, 64, 256}};
const tfaot::BufferInfo kResults[] = {
    {"out", tfaot::DType::kFloat32, 1, kDims, 64, 256}};
const tfaot::FunctionInfo kParallelInfo = {
    "tfaot_test::Parallel", ParallelEntry, 1, kArgs, 1, kResults, 0};

TEST(CompiledFunctionThreads, SetNumThreadsRunsLoopsOnThePool) {
  tfaot::CompiledFunction fn(kParallelInfo);
  float *in = static_cast<float *>(fn.arg_data(0));
  for (int i = 0; i < 64; ++i)
    in[i] = static_cast<float>(i);
  EXPECT_EQ(fn.num_threads(), 1);

  Recorder alone;
  g_recorder = &alone;
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(alone.ranges.size(), 1u);  // No pool: one call, all 64.
  EXPECT_EQ(*alone.threads.begin(), std::this_thread::get_id());

  ASSERT_TRUE(fn.set_num_threads(4));
  EXPECT_EQ(fn.num_threads(), 4);
  Recorder pooled;
  pooled.rendezvous = 2;
  g_recorder = &pooled;
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_TRUE(pooled.Tiles(64));
  EXPECT_EQ(pooled.ranges.size(), 16u); // 4 chunks per thread.
  EXPECT_GE(pooled.threads.size(), 2u);
  const float *out = static_cast<const float *>(fn.result_data(0));
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(out[i], 2.0f * i + 1) << i;

  // Outside Run() there is no current pool.
  Recorder outside;
  g_recorder = &outside;
  void *buffers[] = {fn.arg_data(0), fn.result_data(0)};
  tfaot_rt_parallel_for(DoubleRange, buffers, 64);
  EXPECT_EQ(outside.ranges.size(), 1u);
  g_recorder = nullptr;
}

TEST(CompiledFunctionThreads, SharedPoolAndBadThreadCounts) {
  tfaot::CompiledFunction fn(kParallelInfo);
  ThreadPool shared(3);
  fn.set_thread_pool(&shared);
  EXPECT_EQ(fn.num_threads(), 3);
  Recorder recorder;
  g_recorder = &recorder;
  ASSERT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_EQ(recorder.ranges.size(), 12u); // 4 chunks per thread.
  g_recorder = nullptr;

  EXPECT_FALSE(fn.set_num_threads(0));
  EXPECT_EQ(fn.error_msg(),
            "set_num_threads(0): the number of threads must be at least 1");
  EXPECT_EQ(fn.num_threads(), 3);  // Left as it was.
  ASSERT_TRUE(fn.set_num_threads(1));
  EXPECT_EQ(fn.num_threads(), 1);
  EXPECT_TRUE(fn.error_msg().empty());
  fn.set_thread_pool(nullptr);
  EXPECT_EQ(fn.num_threads(), 1);
}

} // namespace
