//===- thread_pool.cpp - Workers for the generated code's parallel loops --===//
// SPDX-License-Identifier: Apache-2.0
//
// One queue of loops per pool. A loop is split into a few ranges
// ("chunks") per thread that threads claim with one atomic word: the
// caller claims chunks of its own loop from the front like any worker
// claims from the back, so it finishes the loop alone when every worker
// is busy elsewhere (another instance sharing the pool) or late, and a
// loop never waits for a thread that is not working on it.
//
// Why a few chunks per thread rather than one: a worker that wakes late,
// or runs slower (a profile of ResNet-50 int8 on the 2-core VM showed the
// second thread's memory-bound chunks up to 3x slower than the first's;
// on a loaded machine a worker may lose its core for a time slice), held
// its half of every loop while the caller waited. Claiming from both ends
// keeps each thread's part contiguous, and where the two threads run
// alike, the same part of consecutive loops over the same rows, as the
// even split did.
//
//===----------------------------------------------------------------------===//
#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace tfaot {
namespace {

/// Set while this thread runs a chunk: a loop started from inside a loop
/// body runs on this thread, not on the pool (whose threads may all be
/// waiting on the outer loop).
thread_local bool in_loop_body = false;

thread_local ThreadPool *current_pool = nullptr;

/// 1, 2, ... on a pool's workers; 0 on every other thread.
thread_local int worker_index = 0;

std::atomic<internal::ChunkProfiler> chunk_profiler{nullptr};

/// How long a thread spins before it sleeps: a worker waiting for the next
/// loop, and a caller waiting for the workers' last chunks. A model runs
/// dozens of loops per Run(), a few hundred microseconds apart; waking a
/// sleeping thread costs tens of microseconds each time.
constexpr auto kWorkerSpin = std::chrono::microseconds(200);
constexpr auto kCallerSpin = std::chrono::milliseconds(2);

void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

/// Spins until `done()` or `budget` has passed; returns done().
template <typename Done>
bool SpinUntil(Done done, std::chrono::steady_clock::duration budget) {
  const auto end = std::chrono::steady_clock::now() + budget;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done())
        return true;
      Pause();
    }
    if (std::chrono::steady_clock::now() > end)
      return done();
  }
}

/// Chunks per thread (ThreadPool::ChunksOf): enough that a thread twice
/// as slow as the other costs a quarter of a chunk-time, not half the loop;
/// few enough that claiming them (an atomic operation on a line all the
/// threads share) stays well under a microsecond per loop.
constexpr int64_t kChunksPerThread = 4;

struct Loop {
  ThreadPool::Body body;
  void *context;
  int64_t n;
  int64_t chunks;
  /// The chunks nobody claimed yet, [front, back), as front | back << 32:
  /// one compare-and-swap claims from either end.
  std::atomic<uint64_t> unclaimed;
  /// Chunks not finished yet. The thread that finishes the last one must
  /// not touch the loop afterwards: its caller may have returned.
  std::atomic<int64_t> unfinished;

  Loop(ThreadPool::Body body, void *context, int64_t n, int64_t chunks)
      : body(body), context(context), n(n), chunks(chunks),
        unclaimed(static_cast<uint64_t>(chunks) << 32), unfinished(chunks) {}

  /// Claims the first unclaimed chunk (`from_front`, the caller) or the
  /// last (the workers) into `c`; false when every chunk is claimed.
  bool Claim(bool from_front, int64_t &c) {
    uint64_t range = unclaimed.load(std::memory_order_relaxed);
    for (;;) {
      const uint64_t front = range & 0xFFFFFFFFu, back = range >> 32;
      if (front >= back)
        return false;
      const uint64_t claimed =
          from_front ? range + 1 : range - (uint64_t{1} << 32);
      if (unclaimed.compare_exchange_weak(range, claimed,
                                          std::memory_order_acq_rel)) {
        c = static_cast<int64_t>(from_front ? front : back - 1);
        return true;
      }
    }
  }

  /// Runs chunk `c`: the c-th of `chunks` near-equal contiguous ranges.
  void Run(int64_t c) const {
    RunChunk(body, context, ThreadPool::ChunkBegin(n, chunks, c),
             ThreadPool::ChunkBegin(n, chunks, c + 1));
  }

  /// Runs iterations [begin, end) on this thread as one chunk, reported to
  /// the chunk profiler if one is installed.
  static void RunChunk(ThreadPool::Body body, void *context, int64_t begin,
                       int64_t end) {
    const internal::ChunkProfiler profiler =
        chunk_profiler.load(std::memory_order_acquire);
    if (profiler)
      profiler(worker_index, begin, end, /*finished=*/false);
    in_loop_body = true;
    body(context, begin, end);
    in_loop_body = false;
    if (profiler)
      profiler(worker_index, begin, end, /*finished=*/true);
  }
};

/// A loop that runs on the calling thread alone (no workers, one
/// iteration, or no pool): one chunk of all its iterations, so that a
/// one-thread profile still sees each loop's size and time. A loop inside
/// a chunk is part of that chunk and runs unreported.
void RunOnCaller(ThreadPool::Body body, void *context, int64_t n) {
  if (in_loop_body)
    body(context, 0, n);
  else
    Loop::RunChunk(body, context, 0, n);
}

} // namespace

struct ThreadPool::Impl {
  int num_threads = 1;
  std::mutex mutex;
  std::condition_variable work_ready;  ///< A loop was queued, or stop.
  std::condition_variable chunk_done;  ///< A loop's last chunk finished.
  std::deque<Loop *> loops;            ///< Loops with chunks left to claim.
  std::atomic<size_t> queued{0};       ///< loops.size(), read while spinning.
  int sleepers = 0;                    ///< Workers waiting on work_ready.
  bool stop = false;
  std::vector<std::thread> workers;

  void Work() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      if (loops.empty() && !stop) {
        lock.unlock();
        SpinUntil([&] { return queued.load(std::memory_order_relaxed) > 0; },
                  kWorkerSpin);
        lock.lock();
        ++sleepers;
        work_ready.wait(lock, [&] { return stop || !loops.empty(); });
        --sleepers;
      }
      if (stop)
        return;
      // Claimed under the mutex: the caller takes its loop off the queue
      // under it too, so the loop is alive here.
      Loop *loop = loops.front();
      int64_t c;
      if (!loop->Claim(/*from_front=*/false, c)) {
        // Every chunk is claimed: the loop needs no more workers.
        loops.pop_front();
        queued.store(loops.size(), std::memory_order_relaxed);
        continue;
      }
      lock.unlock();
      // Further chunks of this loop are claimed without the mutex: the
      // loop stays alive while this thread holds an unfinished chunk.
      for (int64_t next;; c = next) {
        loop->Run(c);
        if (!loop->Claim(/*from_front=*/false, next))
          break;
        loop->unfinished.fetch_sub(1, std::memory_order_acq_rel); // Not last.
      }
      const bool last =
          loop->unfinished.fetch_sub(1, std::memory_order_acq_rel) == 1;
      lock.lock();
      if (last)
        chunk_done.notify_all();
    }
  }
};

ThreadPool::ThreadPool(int num_threads) : impl_(new Impl) {
  impl_->num_threads = std::max(1, num_threads);
  for (int i = 1; i < impl_->num_threads; ++i)
    impl_->workers.emplace_back([impl = impl_.get(), i] {
      worker_index = i;
      impl->Work();
    });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stop = true;
  }
  impl_->work_ready.notify_all();
  for (std::thread &worker : impl_->workers)
    worker.join();
}

int ThreadPool::num_threads() const { return impl_->num_threads; }

int64_t ThreadPool::ChunksOf(int64_t n, int num_threads) {
  if (num_threads <= 1)
    return std::min<int64_t>(n, 1);
  return std::min<int64_t>(n, num_threads * kChunksPerThread);
}

int ThreadPool::HardwareThreads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

void ThreadPool::ParallelFor(int64_t n, Body body, void *context) {
  if (n <= 0)
    return;
  if (n == 1 || impl_->workers.empty() || in_loop_body) {
    RunOnCaller(body, context, n);
    return;
  }
  Loop loop(body, context, n, ChunksOf(n, impl_->num_threads));
  bool wake;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->loops.push_back(&loop);
    impl_->queued.store(impl_->loops.size(), std::memory_order_relaxed);
    wake = impl_->sleepers > 0;
  }
  if (wake)
    impl_->work_ready.notify_all();
  for (int64_t c; loop.Claim(/*from_front=*/true, c);) {
    loop.Run(c);
    loop.unfinished.fetch_sub(1, std::memory_order_acq_rel);
  }
  // Every chunk is claimed. Take the loop off the queue if no worker has,
  // so none can reach it after this returns, then wait for the chunks
  // workers are still running.
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto queued = std::find(impl_->loops.begin(), impl_->loops.end(), &loop);
    if (queued != impl_->loops.end()) {
      impl_->loops.erase(queued);
      impl_->queued.store(impl_->loops.size(), std::memory_order_relaxed);
    }
  }
  auto finished = [&] {
    return loop.unfinished.load(std::memory_order_acquire) == 0;
  };
  if (SpinUntil(finished, kCallerSpin))
    return;
  std::unique_lock<std::mutex> lock(impl_->mutex);
  impl_->chunk_done.wait(lock, finished);
}

namespace internal {

ThreadPool *CurrentThreadPool() { return current_pool; }

int CurrentWorkerIndex() { return worker_index; }

void SetChunkProfiler(ChunkProfiler profiler) {
  chunk_profiler.store(profiler, std::memory_order_release);
}

ScopedThreadPool::ScopedThreadPool(ThreadPool *pool) : saved_(current_pool) {
  current_pool = pool;
}

ScopedThreadPool::~ScopedThreadPool() { current_pool = saved_; }

} // namespace internal
} // namespace tfaot

extern "C" void tfaot_rt_parallel_for(tfaot::ThreadPool::Body body,
                                      void *context, int64_t n) {
  if (tfaot::ThreadPool *pool = tfaot::internal::CurrentThreadPool())
    pool->ParallelFor(n, body, context);
  else if (n > 0)
    tfaot::RunOnCaller(body, context, n);
}
