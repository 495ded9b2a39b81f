//===- BenchProfile.cpp - tfaot bench --profile: per-op timings -----------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/jit/BenchProfile.h"

#include "tfaot/runtime/run_hooks.h"
#include "tfaot/runtime/thread_pool.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace tfaot;

namespace {
ProfileRecorder *active = nullptr;

/// Op `id`, or null for an id the compile did not describe.
const ProfiledOp *opAt(const std::vector<ProfiledOp> &ops, int64_t id) {
  return id >= 0 && size_t(id) < ops.size() ? &ops[id] : nullptr;
}

/// What op `id` is called in the trace and the summary.
std::string nameOf(const std::vector<ProfiledOp> &ops, int64_t id) {
  const ProfiledOp *op = opAt(ops, id);
  return op ? op->name : "op " + std::to_string(id);
}

/// "123.4" (amount per ms, in units of 1e6 per ms: G per second), or "-"
/// where the amount is not known.
std::string ratePerMs(int64_t amount, double ms) {
  if (amount <= 0 || ms <= 0)
    return "-";
  return llvm::formatv("{0:f1}", double(amount) / ms / 1e6).str();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return percentile(values, 0.5);
}
} // namespace

double tfaot::percentile(const std::vector<double> &sorted, double q) {
  if (sorted.empty())
    return 0;
  double position = q * (sorted.size() - 1);
  size_t below = static_cast<size_t>(position);
  size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

ProfileRecorder::ProfileRecorder(int threads)
    : tracks_(std::max(1, threads)) {}

ProfileRecorder::Scope::Scope(ProfileRecorder &recorder) {
  active = &recorder;
  // Set after `active`: the hook's release store publishes it to workers.
  internal::SetChunkProfiler(&ProfileRecorder::OnChunk);
}

ProfileRecorder::Scope::~Scope() {
  internal::SetChunkProfiler(nullptr);
  active = nullptr;
}

void ProfileRecorder::Begin(int64_t id) {
  int thread = internal::CurrentWorkerIndex();
  if (!active || size_t(thread) >= active->tracks_.size())
    return;
  active->tracks_[thread].open.push_back({id, active->now()});
  if (thread == 0)
    active->currentOp_.store(id, std::memory_order_relaxed);
}

void ProfileRecorder::End(int64_t id) {
  int thread = internal::CurrentWorkerIndex();
  if (!active || size_t(thread) >= active->tracks_.size())
    return;
  Track &track = active->tracks_[thread];
  if (track.open.empty() || track.open.back().first != id)
    return; // Unbalanced: not a call the instrumentation made.
  double begin = track.open.back().second;
  track.open.pop_back();
  track.ops.push_back({id, begin, active->now()});
  if (thread == 0)
    active->currentOp_.store(track.open.empty() ? -1 : track.open.back().first,
                             std::memory_order_relaxed);
}

void ProfileRecorder::endRun(double begin) {
  runs_.push_back({begin, now()});
  if (runs_.size() == kChunkRuns && active == this)
    internal::SetChunkProfiler(nullptr);
}

void ProfileRecorder::OnChunk(int thread, int64_t begin, int64_t end,
                              bool finished) {
  // A pool of another size (not the model's) has no track here.
  if (!active || size_t(thread) >= active->tracks_.size())
    return;
  Track &track = active->tracks_[thread];
  if (!finished) {
    track.chunkBeginUs = active->now();
    return;
  }
  track.chunks.push_back({active->currentOp_.load(std::memory_order_relaxed),
                          begin, end, track.chunkBeginUs, active->now()});
}

std::string ProfileRecorder::chromeTrace(const std::vector<ProfiledOp> &ops,
                                         const std::string &process) const {
  llvm::json::Array trace;
  // Thread i's track is tid i + 1; metadata events ("ph": "M") name the
  // process and each track, and keep the tracks in thread order.
  auto metadata = [&](const char *what, int64_t tid, llvm::json::Value args) {
    llvm::json::Object event{{"name", what}, {"ph", "M"}, {"pid", 1},
                             {"args", std::move(args)}};
    if (tid > 0)
      event["tid"] = tid;
    trace.push_back(std::move(event));
  };
  metadata("process_name", 0, llvm::json::Object{{"name", process}});
  for (size_t t = 0; t < tracks_.size(); ++t) {
    std::string thread = t == 0 ? "main" : "worker " + std::to_string(t);
    metadata("thread_name", t + 1, llvm::json::Object{{"name", thread}});
    metadata("thread_sort_index", t + 1,
             llvm::json::Object{{"sort_index", int64_t(t)}});
  }
  // json::Value keeps a StringRef without copying it: names are strings.
  auto slice = [&](std::string name, const char *category, size_t thread,
                   double begin, double end,
                   llvm::json::Object args = llvm::json::Object()) {
    llvm::json::Object event{{"name", std::move(name)},
                             {"cat", category},
                             {"ph", "X"},
                             {"ts", begin},
                             {"dur", end - begin},
                             {"pid", 1},
                             {"tid", int64_t(thread + 1)}};
    if (!args.empty())
      event["args"] = std::move(args);
    trace.push_back(std::move(event));
  };
  for (size_t r = 0; r < runs_.size(); ++r)
    slice("Run() #" + std::to_string(r + 1), "run", 0, runs_[r].first,
          runs_[r].second);
  for (size_t t = 0; t < tracks_.size(); ++t) {
    for (const Event &event : tracks_[t].ops) {
      llvm::json::Object work;
      if (const ProfiledOp *op = opAt(ops, event.id)) {
        if (op->flop > 0)
          work["flop"] = op->flop;
        if (op->bytes > 0)
          work["bytes"] = op->bytes;
      }
      slice(nameOf(ops, event.id), "op", t, event.beginUs, event.endUs,
            std::move(work));
    }
    for (const Chunk &chunk : tracks_[t].chunks)
      slice((chunk.op >= 0 ? nameOf(ops, chunk.op) : std::string("loop")) +
                " [" + std::to_string(chunk.begin) + ", " +
                std::to_string(chunk.end) + ")",
            "chunk", t, chunk.beginUs, chunk.endUs,
            llvm::json::Object{{"begin", chunk.begin}, {"end", chunk.end}});
  }
  llvm::json::Object root{
      {"traceEvents", std::move(trace)},
      {"displayTimeUnit", "ms"},
      {"otherData", llvm::json::Object{{"tool", "tfaot bench --profile"},
                                       {"threads", int64_t(tracks_.size())}}}};
  std::string text;
  llvm::raw_string_ostream stream(text);
  stream << llvm::json::Value(std::move(root));
  return text;
}

void ProfileRecorder::printSummary(const std::vector<ProfiledOp> &ops,
                                   llvm::raw_ostream &out, size_t top) const {
  // An op's time in each run, summed over its calls: an op inside a loop,
  // or in the graph of a batch run in chunks (--batch_chunk), is called
  // several times per Run().
  std::map<int64_t, std::vector<double>> perOp;
  for (const Track &track : tracks_)
    for (const Event &event : track.ops) {
      auto after = std::upper_bound(
          runs_.begin(), runs_.end(), event.beginUs,
          [](double us, const auto &run) { return us < run.first; });
      if (after == runs_.begin() || event.beginUs >= std::prev(after)->second)
        continue; // Not inside a timed run.
      std::vector<double> &ms = perOp[event.id];
      ms.resize(runs_.size());
      ms[std::prev(after) - runs_.begin()] +=
          (event.endUs - event.beginUs) / 1000;
    }
  std::vector<double> runMs;
  for (auto [begin, end] : runs_)
    runMs.push_back((end - begin) / 1000);
  const double run = median(runMs);
  std::vector<std::pair<double, int64_t>> ranked;
  for (auto &[id, ms] : perOp) {
    ranked.push_back({median(ms), id});
  }
  std::sort(ranked.rbegin(), ranked.rend());
  out << llvm::format("profile: median of %zu runs, %.4g ms per Run(), "
                      "%zu timed ops; the %zu slowest:\n",
                      runMs.size(), run, ranked.size(),
                      std::min(top, ranked.size()));
  out << llvm::format("%7s %10s %8s %7s  %s\n", "share", "median ms",
                      "GFLOP/s", "GB/s", "op");
  for (size_t i = 0; i < ranked.size() && i < top; ++i) {
    auto [ms, id] = ranked[i];
    const ProfiledOp *op = opAt(ops, id);
    out << llvm::format("%6.1f%% %10.4g %8s %7s  ",
                        run > 0 ? 100 * ms / run : 0.0, ms,
                        ratePerMs(op ? op->flop : 0, ms).c_str(),
                        ratePerMs(op ? op->bytes : 0, ms).c_str())
        << nameOf(ops, id) << "\n";
  }
  const double rest = medianOutsideOps();
  out << llvm::format("%6.1f%% %10.4g  ", run > 0 ? 100 * rest / run : 0.0,
                      rest)
      << "(outside the timed ops: views, the call itself)\n";
  out << "GFLOP/s: 2 x the multiply-adds of the op's convolutions and matrix "
         "products over its median time (Winograd's products count as "
         "done); GB/s: the bytes of the buffers it reads and writes, each "
         "once, over the same time. Compare GFLOP/s with the core's FMA "
         "peak (bench/peak/fma_peak.c) times the threads.\n";
}

double ProfileRecorder::medianOutsideOps() const {
  // Per run: its time less the union of the caller's op intervals in it
  // (nested ops counted once). The run's median less the sum of the ops'
  // medians is not this: on a loaded machine, where each op's time is
  // skewed by bursts, the sum of medians falls well below the median of
  // sums (ResNet-50 on the 2-core VM: 24 ms "outside" of 81, against 0.02
  // ms measured run by run).
  std::vector<std::pair<double, double>> ops;
  for (const Event &event : tracks_.front().ops)
    ops.push_back({event.beginUs, event.endUs});
  std::sort(ops.begin(), ops.end());
  std::vector<double> outside;
  size_t next = 0;
  for (auto [begin, end] : runs_) {
    while (next < ops.size() && ops[next].first < begin)
      ++next;
    double covered = 0, reach = begin;
    for (; next < ops.size() && ops[next].first < end; ++next) {
      double from = std::max(reach, ops[next].first);
      double to = std::min(end, ops[next].second);
      if (to > from)
        covered += to - from;
      reach = std::max(reach, to);
    }
    outside.push_back(std::max(0.0, end - begin - covered) / 1000);
  }
  return median(outside);
}

double tfaot::loopMsOnThreads(double ms, int64_t n, int threads) {
  if (n <= 1 || threads <= 1)
    return ms;
  const int64_t chunks = ThreadPool::ChunksOf(n, threads);
  auto size = [&](int64_t c) {
    return ThreadPool::ChunkBegin(n, chunks, c + 1) -
           ThreadPool::ChunkBegin(n, chunks, c);
  };
  // Iterations each thread has run (0: the caller); the first free takes
  // the next chunk, the caller from the front, a worker from the back.
  std::vector<int64_t> load(threads, 0);
  for (int64_t front = 0, back = chunks; front < back;) {
    auto free = std::min_element(load.begin(), load.end());
    *free += free == load.begin() ? size(front++) : size(--back);
  }
  return ms * double(*std::max_element(load.begin(), load.end())) / double(n);
}

void ProfileRecorder::printScalingPrediction(
    const std::vector<ProfiledOp> &ops, llvm::raw_ostream &out) const {
  // A pool of one runs each loop whole, as one chunk [0, n) on the caller's
  // track: with more tracks the loops were already split.
  if (tracks_.size() != 1 || tracks_.front().chunks.empty())
    return;
  const Track &caller = tracks_.front();
  // Chunks are recorded in the first runs only, which are also the
  // coldest: each of those runs gives fractions (speed-ups, shares), and
  // the median of all runs turns them into milliseconds.
  const std::vector<int> threadCounts = {2, 4, 8, 16};
  std::vector<std::vector<double>> speedUps(threadCounts.size());
  std::vector<double> parallelShare;
  std::map<int64_t, std::vector<double>> serialShare; // Per op, per run.
  size_t chunk = 0, event = 0;
  for (size_t r = 0; r < runs_.size() && r < kChunkRuns; ++r) {
    const auto [begin, end] = runs_[r];
    const double runUs = end - begin;
    if (runUs <= 0)
      continue;
    std::vector<double> loops(threadCounts.size(), 0);
    std::map<int64_t, double> loopUsOfOp;
    double loopUs = 0;
    for (; chunk < caller.chunks.size() && caller.chunks[chunk].beginUs < end;
         ++chunk) {
      const Chunk &c = caller.chunks[chunk];
      if (c.beginUs < begin)
        continue;
      const double us = c.endUs - c.beginUs;
      loopUs += us;
      loopUsOfOp[c.op] += us;
      for (size_t i = 0; i < threadCounts.size(); ++i)
        loops[i] += loopMsOnThreads(us, c.end - c.begin, threadCounts[i]);
    }
    for (size_t i = 0; i < threadCounts.size(); ++i)
      speedUps[i].push_back(runUs / (runUs - loopUs + loops[i]));
    parallelShare.push_back(loopUs / runUs);
    for (; event < caller.ops.size() && caller.ops[event].beginUs < end;
         ++event) {
      const Event &e = caller.ops[event];
      if (e.beginUs >= begin)
        serialShare[e.id].push_back(
            std::max(0.0, e.endUs - e.beginUs - loopUsOfOp[e.id]) / runUs);
    }
  }
  std::vector<double> runMs;
  for (auto [begin, end] : runs_)
    runMs.push_back((end - begin) / 1000);
  const double one = median(runMs);
  out << llvm::format("predicted Run() on more threads, from this one-thread "
                      "profile (speed-ups: median of its first %zu runs):\n",
                      parallelShare.size());
  out << llvm::format("%8s %10s %9s\n", "threads", "ms", "speed-up");
  out << llvm::format("%8d %10.4g %8.2fx\n", 1, one, 1.0);
  for (size_t i = 0; i < threadCounts.size(); ++i) {
    const double speedUp = median(speedUps[i]);
    out << llvm::format("%8d %10.4g %8.2fx\n", threadCounts[i],
                        one / speedUp, speedUp);
  }
  const double share = median(parallelShare);
  out << llvm::format("parallel loops hold %.1f%% of a run; the serial rest "
                      "caps the speed-up at %.3gx. Each loop's iterations "
                      "are taken as equal in cost, with no wake-up or "
                      "memory contention: a bound, not a forecast.\n",
                      100 * share, share < 1 ? 1 / (1 - share) : INFINITY);
  std::vector<std::pair<double, int64_t>> ranked;
  for (auto &[id, shares] : serialShare)
    ranked.push_back({median(shares), id});
  std::sort(ranked.rbegin(), ranked.rend());
  for (size_t i = 0; i < ranked.size() && i < 5 && ranked[i].first >= 0.01;
       ++i) {
    if (i == 0)
      out << "serial time over 1% of a run (outside parallel loops):\n";
    out << llvm::format("%6.1f%% %10.4g  ", 100 * ranked[i].first,
                        ranked[i].first * one)
        << nameOf(ops, ranked[i].second) << "\n";
  }
}
