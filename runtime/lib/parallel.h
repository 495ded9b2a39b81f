//===- parallel.h - The thread pool generated code runs its loops on -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. Generated code calls
// tfaot_rt_parallel_for for each loop it runs in parallel; its entry
// function keeps its three-pointer ABI, so the pool travels the way run
// errors do (run_status.h): Run() makes its instance's pool the calling
// thread's current pool for the duration of the call. The public headers
// declare tfaot_rt_parallel_for (tfaot/runtime/cpu_kernels.h) and what
// tfaot's in-process runner needs (tfaot/runtime/run_hooks.h: the scoped
// pool, worker indexes, the chunk profiler); kernels find their pool here.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_PARALLEL_H
#define TFAOT_RUNTIME_PARALLEL_H

#include "tfaot/runtime/cpu_kernels.h"
#include "tfaot/runtime/run_hooks.h"
#include "tfaot/runtime/thread_pool.h"

#include <cstdint>

namespace tfaot::internal {

/// The pool loops started on this thread run on; null: on this thread only.
ThreadPool *CurrentThreadPool();

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_PARALLEL_H
