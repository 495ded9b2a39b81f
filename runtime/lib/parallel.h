//===- parallel.h - The thread pool generated code runs its loops on -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library (and to `tfaot bench`, which calls entry
// functions the way CompiledFunction::Run() does). Generated code calls
// tfaot_rt_parallel_for for each loop it runs in parallel; its entry
// function keeps its three-pointer ABI, so the pool travels the way run
// errors do (run_status.h): Run() makes its instance's pool the calling
// thread's current pool for the duration of the call.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_PARALLEL_H
#define TFAOT_RUNTIME_PARALLEL_H

#include "tfaot/runtime/thread_pool.h"

#include <cstdint>

namespace tfaot::internal {

/// The pool loops started on this thread run on; null: on this thread only.
ThreadPool *CurrentThreadPool();

/// This thread's index in its pool: 1, 2, ... for the pool's workers, 0 for
/// any other thread (the one that calls Run()).
int CurrentWorkerIndex();

/// Profiling (tfaot bench --profile): when set, called on the thread that
/// runs each chunk of a parallel loop, before it (`finished` false) and
/// after it, with the chunk's iterations [begin, end) and the thread's
/// CurrentWorkerIndex(). Null, the default, costs one load per chunk.
using ChunkProfiler = void (*)(int thread, int64_t begin, int64_t end,
                               bool finished);
/// Installs `profiler` for every pool (null: none). Only while no loop runs.
void SetChunkProfiler(ChunkProfiler profiler);

/// Makes `pool` the current pool of this thread until destroyed.
class ScopedThreadPool {
public:
  explicit ScopedThreadPool(ThreadPool *pool);
  ~ScopedThreadPool();
  ScopedThreadPool(const ScopedThreadPool &) = delete;
  ScopedThreadPool &operator=(const ScopedThreadPool &) = delete;

private:
  ThreadPool *saved_;
};

} // namespace tfaot::internal

/// What generated code calls for a parallel loop (the tfaot-parallelize-loops
/// pass emits the calls): runs iterations [0, n) of `body` on the current
/// pool, or all on this thread when there is none.
extern "C" void tfaot_rt_parallel_for(tfaot::ThreadPool::Body body,
                                      void *context, int64_t n);

#endif // TFAOT_RUNTIME_PARALLEL_H
