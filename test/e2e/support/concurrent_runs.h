//===- concurrent_runs.h - Many instances of one model at once ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The thread-safety check shared by e2e.GeneratedApi (in CI) and
// test/e2e/tsan/concurrent_runs.cpp (the same under ThreadSanitizer): each
// thread owns an instance and runs it `iterations` times on the inputs in
// turn; every result must equal, bit for bit, what one instance computed
// alone. Header-only and free of gtest so the TSan program needs nothing
// but the runtime and the model.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_E2E_SUPPORT_CONCURRENT_RUNS_H
#define TFAOT_E2E_SUPPORT_CONCURRENT_RUNS_H

#include "tfaot/runtime/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

namespace tfaot_e2e {

/// Runs Fn (a generated class whose argument 0 and result 0 are float) on
/// `threads` threads, each with its own instance, `iterations` times each,
/// thread t using input (i + t) % inputs.size() at iteration i. Returns the
/// number of runs that failed or whose result 0 differs from `expected` of
/// the same input (computed beforehand by a single instance). With `pool`,
/// every instance runs its parallel loops on that one shared pool.
template <typename Fn>
int CountConcurrentMismatches(const std::vector<std::vector<float>> &inputs,
                              const std::vector<std::vector<float>> &expected,
                              int threads, int iterations,
                              tfaot::ThreadPool *pool = nullptr) {
  std::atomic<int> mismatches{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      Fn fn;
      fn.set_thread_pool(pool);
      for (int i = 0; i < iterations; ++i) {
        const size_t k = static_cast<size_t>(i + t) % inputs.size();
        std::copy(inputs[k].begin(), inputs[k].end(), fn.arg0_data());
        if (!fn.Run() || std::memcmp(fn.result0_data(), expected[k].data(),
                                     Fn::kResult0Bytes) != 0)
          ++mismatches;
      }
    });
  for (std::thread &worker : workers)
    worker.join();
  return mismatches.load();
}

}  // namespace tfaot_e2e

#endif  // TFAOT_E2E_SUPPORT_CONCURRENT_RUNS_H
