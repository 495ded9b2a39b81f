//===- thread_pool.h - Threads a compiled function runs its loops on -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Generated code splits its large loops (the tiles of each convolution and
// matrix product, large elementwise ops) into ranges of iterations and hands
// them to the thread pool of the CompiledFunction that runs it. Every
// iteration computes the same numbers whichever thread runs it and however
// the range is split, so results are bit-identical for any thread count.
//
// A pool may be shared by several instances, also while they run at the
// same time on different threads: their loops queue up and the calling
// thread always works on its own loop too, so a busy pool slows a Run()
// down but never blocks it.
//
// This header is part of the runtime: it must not include anything from
// LLVM, MLIR, TensorFlow or Eigen.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_THREAD_POOL_H
#define TFAOT_RUNTIME_THREAD_POOL_H

#include <cstdint>
#include <memory>

namespace tfaot {

class ThreadPool {
public:
  /// A pool running loops on `num_threads` threads in all: the thread that
  /// calls ParallelFor() and num_threads - 1 workers started here (values
  /// below 1 count as 1: no workers, every loop runs on the caller).
  explicit ThreadPool(int num_threads);
  /// Stops and joins the workers. No ParallelFor() may be running.
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Threads that work on a loop, the caller included.
  int num_threads() const;

  /// The number of threads this machine runs at once (at least 1).
  static int HardwareThreads();

  /// A loop body: runs iterations [begin, end) of the loop `context`
  /// describes.
  using Body = void (*)(void *context, int64_t begin, int64_t end);

  /// Runs iterations [0, n) of `body`, split into ChunksOf(n,
  /// num_threads()) near-equal contiguous ranges, on the calling thread and
  /// the workers; returns when all have run. The caller takes ranges from
  /// the front, the workers from the back, each as it becomes free, so a
  /// thread that starts late or runs slower leaves its share to the others
  /// while each thread still works on one contiguous part. Called from
  /// inside a body (a nested loop), it runs the whole range on the calling
  /// thread.
  void ParallelFor(int64_t n, Body body, void *context);

  /// The ranges ParallelFor splits n iterations into on `num_threads`
  /// threads: a few per thread (at most n; 1 on one thread).
  static int64_t ChunksOf(int64_t n, int num_threads);

  /// Where chunk `c` of `chunks` near-equal contiguous ranges of n
  /// iterations begins (chunk c is [ChunkBegin(n, chunks, c),
  /// ChunkBegin(n, chunks, c + 1))). Public so that a prediction of the
  /// split (tfaot bench --profile) uses the pool's own boundaries.
  static int64_t ChunkBegin(int64_t n, int64_t chunks, int64_t c) {
    return n * c / chunks;
  }

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace tfaot

#endif // TFAOT_RUNTIME_THREAD_POOL_H
