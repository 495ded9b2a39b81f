//===- run_hooks.h - Calling an entry the way Run() does -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// For tfaot's own in-process runner (tfaot bench and tfaot run link the
// object into a JIT and call its entry function without a generated class):
// what CompiledFunction::Run() does around the call, and the hook `tfaot
// bench --profile` uses to time each chunk of each parallel loop. The
// generated entry function keeps its three-pointer ABI, so the pool travels
// the way run errors do: the caller makes a pool the calling thread's
// current pool for the duration of the call. Not for user programs, which
// call Run(); the names are in tfaot::internal and may change.
//
// This header is part of the runtime: it must not include anything from
// LLVM, MLIR, TensorFlow or Eigen.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_RUN_HOOKS_H
#define TFAOT_RUNTIME_RUN_HOOKS_H

#include "tfaot/runtime/thread_pool.h"

#include <cstdint>
#include <string>

namespace tfaot::internal {

/// Errors that generated code reports while it runs (an index out of range,
/// a bad JPEG) go to a per-thread slot instead of a return value, since the
/// entry function returns void. Run() clears the slot before calling the
/// entry and turns what it holds afterwards into `false` and error_msg();
/// an in-process runner must do the same, or it drops the error.
/// The first error reported on this thread since the last ClearRunError().
const std::string &RunError();
void ClearRunError();

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

#endif // TFAOT_RUNTIME_RUN_HOOKS_H
