//===- Bench.h - tfaot bench: measure a compiled graph ----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Compiles a graph once per batch size, loads each object into this process
// (LLVM's ORC JIT links it like the system linker would, against libc and
// libm), runs it on random inputs and reports latency and throughput, and
// with a sweep, which batch size to use.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_BENCH_H
#define TFAOT_COMPILER_BENCH_H

#include "compiler/driver/Driver.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfaot {

struct BenchOptions {
  /// The graph, feeds, fetches, layout and target, as for compile (its
  /// output fields are ignored).
  CompileOptions compile;
  /// Batch sizes to measure (the first dimension of every feed and fetch);
  /// empty: the feed shapes as given.
  std::vector<int64_t> batches;
  /// Timed runs: at least `minIters`, and more until `minTimeSeconds` of
  /// running has passed.
  int64_t minIters = 10;
  double minTimeSeconds = 1.0;
  /// Recommend the batch size with the most images/s whose p90 latency is
  /// within this many milliseconds (0: no budget).
  double latencyBudgetMs = 0;
  bool sweep = false;  ///< Print a recommendation.
  bool json = false;
  std::string plotPath;  ///< An SVG of images/s and latency per batch.
  /// A Chrome trace (Perfetto, chrome://tracing) of every op of the first
  /// batch size, from a build with timing calls around each op.
  std::string profilePath;
  /// Of the random inputs (fillRandomInputs): 0 gives those `tfaot run`
  /// uses by default.
  uint64_t seed = 0;
  /// Threads Run() uses (the runtime's pool, as set_num_threads(); 1: the
  /// calling thread only; 0: one per hardware thread).
  int threads = 1;
};

/// One measured batch size.
struct BenchPoint {
  int64_t batch = 0;
  int64_t iterations = 0;
  double medianMs = 0, p90Ms = 0, minMs = 0;
  double itemsPerSecond = 0;  ///< batch / median latency.
  uint64_t arenaBytes = 0;
  double compileSeconds = 0;
};

/// Runs the benchmark. Returns the exit code (0, or 1 after printing an
/// error to `errs`); the table (or JSON) goes to `out`.
int bench(const BenchOptions &options, llvm::raw_ostream &out,
          llvm::raw_ostream &errs);

/// The batch size to use: most items/s among the points whose p90 latency
/// is within `latencyBudgetMs` (all of them when it is 0); -1 if none is.
int64_t recommendBatch(const std::vector<BenchPoint> &points,
                       double latencyBudgetMs);

/// An SVG line chart of items/s (and p90 latency) against batch size, with
/// a marked line at batch `recommended` (-1: none).
std::string plotSvg(const std::vector<BenchPoint> &points,
                    const std::string &title, int64_t recommended = -1);

} // namespace tfaot

#endif // TFAOT_COMPILER_BENCH_H
