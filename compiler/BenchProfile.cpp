//===- BenchProfile.cpp - tfaot bench --profile: per-op timings -----------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/BenchProfile.h"

#include "compiler/Bench.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <fstream>
#include <map>

using namespace tfaot;

namespace {
ProfileRecorder *active = nullptr;

/// What op `id` is called in the trace and the summary.
std::string nameOf(const std::vector<std::string> &names, int64_t id) {
  return id >= 0 && size_t(id) < names.size() ? names[id]
                                              : "op " + std::to_string(id);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return percentile(values, 0.5);
}
} // namespace

ProfileRecorder::Scope::Scope(ProfileRecorder &recorder) {
  active = &recorder;
}
ProfileRecorder::Scope::~Scope() { active = nullptr; }

void ProfileRecorder::Begin(int64_t id) {
  if (active)
    active->open_.push_back({id, active->now()});
}

void ProfileRecorder::End(int64_t id) {
  if (!active || active->open_.empty() || active->open_.back().first != id)
    return; // Unbalanced: not a call the instrumentation made.
  double begin = active->open_.back().second;
  active->open_.pop_back();
  active->events_.push_back({id, begin, active->now()});
}

bool ProfileRecorder::writeChromeTrace(const std::string &path,
                                       const std::vector<std::string> &names,
                                       int threads) const {
  llvm::json::Array trace;
  // json::Value keeps a StringRef without copying it: names are strings.
  auto slice = [&](std::string name, const char *category,
                   double begin, double end) {
    trace.push_back(llvm::json::Object{{"name", std::move(name)},
                                       {"cat", category},
                                       {"ph", "X"},
                                       {"ts", begin},
                                       {"dur", end - begin},
                                       {"pid", 1},
                                       {"tid", 1}});
  };
  for (size_t r = 0; r < runs_.size(); ++r)
    slice("Run() #" + std::to_string(r + 1), "run", runs_[r].first,
          runs_[r].second);
  for (const Event &event : events_)
    slice(nameOf(names, event.id), "op", event.beginUs, event.endUs);
  llvm::json::Object root{
      {"traceEvents", std::move(trace)},
      {"displayTimeUnit", "ms"},
      {"otherData", llvm::json::Object{{"tool", "tfaot bench --profile"},
                                       {"threads", threads}}}};
  std::ofstream file(path);
  std::string text;
  llvm::raw_string_ostream stream(text);
  stream << llvm::json::Value(std::move(root));
  file << text;
  return static_cast<bool>(file);
}

void ProfileRecorder::printSummary(const std::vector<std::string> &names,
                                   llvm::raw_ostream &out, size_t top) const {
  std::map<int64_t, std::vector<double>> perOp;
  for (const Event &event : events_)
    perOp[event.id].push_back((event.endUs - event.beginUs) / 1000);
  std::vector<double> runMs;
  for (auto [begin, end] : runs_)
    runMs.push_back((end - begin) / 1000);
  const double run = median(runMs);
  std::vector<std::pair<double, int64_t>> ranked;
  double inOps = 0;
  for (auto &[id, ms] : perOp) {
    ranked.push_back({median(ms), id});
    inOps += ranked.back().first;
  }
  std::sort(ranked.rbegin(), ranked.rend());
  out << llvm::format("profile: median of %zu runs, %.4g ms per Run(), "
                      "%zu timed ops; the %zu slowest:\n",
                      runMs.size(), run, ranked.size(),
                      std::min(top, ranked.size()));
  out << llvm::format("%7s %10s  %s\n", "share", "median ms", "op");
  for (size_t i = 0; i < ranked.size() && i < top; ++i) {
    auto [ms, id] = ranked[i];
    out << llvm::format("%6.1f%% %10.4g  ", run > 0 ? 100 * ms / run : 0.0,
                        ms)
        << nameOf(names, id) << "\n";
  }
  const double rest = std::max(0.0, run - inOps);
  out << llvm::format("%6.1f%% %10.4g  ", run > 0 ? 100 * rest / run : 0.0,
                      rest)
      << "(outside the timed ops: views, the call itself)\n";
}
