//===- BenchProfile.h - tfaot bench --profile: per-op timings ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A model compiled for profiling (tfaot-instrument-profile) calls
// tfaot_rt_profile_begin(id) and tfaot_rt_profile_end(id) around each op of
// its entry function; the bench links those two names to Begin and End
// below, which record into the recorder in scope. The recording becomes a
// Chrome trace (one slice per Run() with its ops inside, for Perfetto or
// chrome://tracing) and a summary of the ops that take the most time.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_BENCHPROFILE_H
#define TFAOT_COMPILER_BENCHPROFILE_H

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tfaot {

class ProfileRecorder {
public:
  using Clock = std::chrono::steady_clock;

  /// Makes `recorder` the one Begin and End write to while this lives.
  /// (The bench runs models from one thread; ops are timed on it, the
  /// threads of a parallel loop inside one op are not seen separately.)
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

  /// Calls `run` (one Run()) and records it as one run.
  template <typename Run> void timeRun(Run run) {
    const double begin = now();
    run();
    runs_.push_back({begin, now()});
  }

  /// Writes the Chrome trace JSON; false if the file cannot be written.
  bool writeChromeTrace(const std::string &path,
                        const std::vector<std::string> &names,
                        int threads) const;

  /// Prints the `top` ops by median time per run, with their share of the
  /// median run, and what no op accounts for.
  void printSummary(const std::vector<std::string> &names,
                    llvm::raw_ostream &out, size_t top) const;

private:
  struct Event {
    int64_t id;
    double beginUs, endUs;
  };
  double now() const {
    return std::chrono::duration<double, std::micro>(Clock::now() - origin_)
        .count();
  }

  Clock::time_point origin_ = Clock::now();
  std::vector<std::pair<int64_t, double>> open_;  ///< Begun, not ended.
  std::vector<Event> events_;
  std::vector<std::pair<double, double>> runs_;  ///< Begin, end (us).
};

} // namespace tfaot

#endif // TFAOT_COMPILER_BENCHPROFILE_H
