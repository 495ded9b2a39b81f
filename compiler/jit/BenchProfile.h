//===- BenchProfile.h - tfaot bench --profile: per-op timings ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A model compiled for profiling (tfaot-instrument-profile) calls
// tfaot_rt_profile_begin(id) and tfaot_rt_profile_end(id) around each op of
// its entry function; the bench links those two names to Begin and End
// below, which record into the recorder in scope. The runtime's thread pool
// reports each chunk of a parallel loop to the recorder too, with the
// thread that ran it. The recording becomes a Chrome trace (for Perfetto or
// chrome://tracing: a track per thread, named by metadata events; one slice
// per Run() with its ops inside on the main thread, and each worker's
// chunks on its own track) and a summary of the ops that take the most time.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_JIT_BENCHPROFILE_H
#define TFAOT_COMPILER_JIT_BENCHPROFILE_H

#include "compiler/driver/ProfiledOp.h"

#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tfaot {

class ProfileRecorder {
public:
  using Clock = std::chrono::steady_clock;

  /// Records a model running on a pool of `threads` threads (the caller
  /// and threads - 1 workers): one track each.
  explicit ProfileRecorder(int threads);

  /// Makes `recorder` the one Begin, End and the pool's chunk hook write to
  /// while this lives (no model may be running when it starts or ends).
  class Scope {
  public:
    explicit Scope(ProfileRecorder &recorder);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
  };

  /// The hooks the instrumented object calls.
  static void Begin(int64_t id);
  static void End(int64_t id);

  /// Calls `run` (one Run()) and records it as one run. Parallel loops'
  /// chunks are recorded in the first kChunkRuns runs only: they are many,
  /// and one run shows how the work is spread.
  template <typename Run> void timeRun(Run run) {
    const double begin = now();
    run();
    endRun(begin);
  }

  /// The Chrome trace JSON; `process` names the trace's one process.
  std::string chromeTrace(const std::vector<ProfiledOp> &ops,
                          const std::string &process) const;

  /// Prints the `top` ops by median time per run, with their share of the
  /// median run, and what no op accounts for.
  void printSummary(const std::vector<ProfiledOp> &ops,
                    llvm::raw_ostream &out, size_t top) const;

  /// From a one-thread profile (nothing printed otherwise): the Run() time
  /// predicted on 2, 4, 8 and 16 threads, each parallel loop's recorded
  /// time divided as the pool divides its iterations, the rest serial; and
  /// the ops with the most serial time.
  void printScalingPrediction(const std::vector<ProfiledOp> &ops,
                              llvm::raw_ostream &out) const;

private:
  static constexpr size_t kChunkRuns = 10;

  struct Event {
    int64_t id;
    double beginUs, endUs;
  };
  /// Iterations [begin, end) of a loop of op `op` (-1: none was open).
  struct Chunk {
    int64_t op, begin, end;
    double beginUs, endUs;
  };
  /// What one thread recorded; only that thread writes it while recording.
  struct Track {
    std::vector<std::pair<int64_t, double>> open;  ///< Begun, not ended.
    std::vector<Event> ops;
    std::vector<Chunk> chunks;
    double chunkBeginUs = 0;  ///< Of the chunk running now.
  };

  /// The runtime's ChunkProfiler (tfaot/runtime/run_hooks.h).
  static void OnChunk(int thread, int64_t begin, int64_t end, bool finished);

  /// The median over runs of the time (ms) in each run outside every op
  /// the caller timed.
  double medianOutsideOps() const;

  /// Records the run that began at `begin`; the kChunkRuns-th uninstalls
  /// OnChunk (between runs, when no loop runs).
  void endRun(double begin);

  double now() const {
    return std::chrono::duration<double, std::micro>(Clock::now() - origin_)
        .count();
  }

  Clock::time_point origin_ = Clock::now();
  std::vector<Track> tracks_;  ///< Index 0: the caller; i: worker i.
  /// The op the caller has open, which the workers' chunks belong to.
  std::atomic<int64_t> currentOp_{-1};
  std::vector<std::pair<double, double>> runs_;  ///< Begin, end (us).
};

/// The time a loop of `n` iterations that took `ms` on one thread takes on
/// a pool of `threads`: the pool splits it into ThreadPool::ChunksOf(n,
/// threads) near-equal chunks [n*c/chunks, n*(c+1)/chunks), each taken by
/// the thread that is free first (the caller from the front, the workers
/// from the back), and the thread with the most iterations decides,
/// iterations being taken as equal in cost. No wake-up or memory
/// contention: a lower bound.
double loopMsOnThreads(double ms, int64_t n, int threads);

/// The q-quantile (0.5: the median) of `sorted` (ascending), interpolated
/// between neighbours; 0 for no values.
double percentile(const std::vector<double> &sorted, double q);

} // namespace tfaot

#endif // TFAOT_COMPILER_JIT_BENCHPROFILE_H
