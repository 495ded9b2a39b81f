//===- Bench.cpp - tfaot bench: measure a compiled graph ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Each batch size is compiled exactly as `tfaot compile --batch N` would
// (same pipeline, same object), and run in this process (JitModel.h) on
// the runtime's thread pool of --threads threads.
//
//===----------------------------------------------------------------------===//
#include "compiler/Bench.h"

#include "compiler/Compile.h"
#include "compiler/driver/HeaderWriter.h"
#include "compiler/driver/OutputFiles.h"
#include "compiler/jit/BenchProfile.h"
#include "compiler/jit/JitModel.h"
#include "tfaot/runtime/thread_pool.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace tfaot;

namespace {

/// One batch size compiled and linked into this process, its inputs filled.
struct PreparedModel {
  CompiledArtifacts artifacts;
  std::unique_ptr<JitModel> model;
  double compileSeconds = 0;
  std::string graph;

  /// One Run(), on the pool (of one thread: all on this one). False after
  /// printing the error the generated code reported, as Run() would fail.
  bool run(llvm::raw_ostream &errs) {
    return runOrReport(*model, graph, errs);
  }
};

/// Compiles (with timing hooks when `profile`) and loads one batch size (0:
/// the feed shapes as given); null after printing an error.
std::unique_ptr<PreparedModel> prepare(const BenchOptions &options,
                                       int64_t batch, bool profile,
                                       llvm::raw_ostream &errs) {
  auto prepared = std::make_unique<PreparedModel>();
  CompiledArtifacts &artifacts = prepared->artifacts;
  CompileOptions compile = options.compile;
  compile.artifacts = &artifacts;
  compile.profile = profile;
  compile.batchBuckets.clear();
  if (batch > 0)
    compile.batchBuckets.push_back(batch);
  auto start = std::chrono::steady_clock::now();
  if (tfaot::compile(compile, errs) != 0)
    return nullptr;
  prepared->compileSeconds = std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - start)
                                 .count();

  // Random bytes are no JPEG: loadCompiledGraph refuses string arguments.
  prepared->model =
      loadCompiledGraph(artifacts, options.threads, compile.graph, "bench", errs);
  if (!prepared->model)
    return nullptr;
  fillRandomInputs(*prepared->model, options.seed);
  prepared->graph = compile.graph;
  return prepared;
}

/// Warms up (caches, the weights paged in: at least 2 runs or 10% of the
/// timed budget), then times runs until both --iters and --min_time are
/// met, at most `maxRuns`, putting each run's milliseconds in `ms`. `run`
/// returns false when the run failed: then so does timeRuns, at once.
template <typename Run>
bool timeRuns(const BenchOptions &options, Run run, std::vector<double> &ms,
              int64_t maxRuns = INT64_MAX) {
  using Clock = std::chrono::steady_clock;
  auto warmEnd = Clock::now() + std::chrono::duration<double>(
                                    0.1 * options.minTimeSeconds);
  for (int i = 0; i < 2 || Clock::now() < warmEnd; ++i)
    if (!run())
      return false;
  auto timedStart = Clock::now();
  while (static_cast<int64_t>(ms.size()) < maxRuns &&
         (static_cast<int64_t>(ms.size()) < options.minIters ||
          std::chrono::duration<double>(Clock::now() - timedStart).count() <
              options.minTimeSeconds)) {
    auto t0 = Clock::now();
    if (!run())
      return false;
    ms.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return true;
}

/// Compiles, loads and times one batch size (0: the feed shapes as given).
bool measure(const BenchOptions &options, int64_t batch, BenchPoint &point,
             llvm::raw_ostream &errs) {
  std::unique_ptr<PreparedModel> prepared =
      prepare(options, batch, /*profile=*/false, errs);
  if (!prepared)
    return false;
  std::vector<double> ms;
  if (!timeRuns(options, [&] { return prepared->run(errs); }, ms))
    return false;
  const FunctionSignature &sig = prepared->artifacts.signature;
  point.batch = batch > 0 ? batch
                          : (sig.args.empty() || sig.args[0].shape.empty()
                                 ? 1
                                 : sig.args[0].shape[0]);
  std::sort(ms.begin(), ms.end());
  point.iterations = ms.size();
  point.medianMs = percentile(ms, 0.5);
  point.p90Ms = percentile(ms, 0.9);
  point.minMs = ms.front();
  point.itemsPerSecond = point.batch * 1000.0 / point.medianMs;
  point.arenaBytes = prepared->artifacts.tempBytes;
  point.compileSeconds = prepared->compileSeconds;
  return true;
}

/// --profile: compiles `batch` with timing hooks, runs it (as many runs as
/// a measurement, at most 200), writes every op of every run as a Chrome
/// trace and prints the ops that take the most time.
bool profile(const BenchOptions &options, int64_t batch,
             llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  std::unique_ptr<PreparedModel> prepared =
      prepare(options, batch, /*profile=*/true, errs);
  if (!prepared)
    return false;
  ProfileRecorder recorder(options.threads);
  {
    ProfileRecorder::Scope recording(recorder);
    std::vector<double> ms;
    auto run = [&] {
      bool ok = false;
      recorder.timeRun([&] { ok = prepared->run(errs); });
      return ok;
    };
    if (!timeRuns(options, run, ms, /*maxRuns=*/200))
      return false;
  }
  const std::vector<ProfiledOp> &names = prepared->artifacts.profileOps;
  std::string process =
      "tfaot bench: " + llvm::sys::path::filename(options.compile.graph).str();
  if (!writeFileAtomically(options.profilePath,
                           recorder.chromeTrace(names, process), errs))
    return false;
  if (!options.json) {
    recorder.printSummary(names, out, /*top=*/15);
    recorder.printScalingPrediction(names, out);
  }
  return true;
}

void printHeader(llvm::raw_ostream &out) {
  out << llvm::formatv("{0,6} {1,11} {2,10} {3,10} {4,11} {5,10} {6,6} {7,10}\n",
                       "batch", "median ms", "p90 ms", "min ms", "items/s",
                       "arena MiB", "runs", "compile s");
}

void printRow(const BenchPoint &p, llvm::raw_ostream &out) {
  // %g: small models run in microseconds, big ones in seconds.
  out << llvm::format("%6lld %11.4g %10.4g %10.4g %11.5g %10.2f %6lld %10.1f\n",
                      static_cast<long long>(p.batch), p.medianMs, p.p90Ms,
                      p.minMs, p.itemsPerSecond, p.arenaBytes / 1048576.0,
                      static_cast<long long>(p.iterations), p.compileSeconds);
}

void printJson(const BenchOptions &options,
               const std::vector<BenchPoint> &points, int64_t recommended,
               llvm::raw_ostream &out) {
  llvm::json::Array rows;
  for (const BenchPoint &p : points)
    rows.push_back(llvm::json::Object{
        {"batch", p.batch},
        {"iterations", p.iterations},
        {"median_ms", p.medianMs},
        {"p90_ms", p.p90Ms},
        {"min_ms", p.minMs},
        {"items_per_second", p.itemsPerSecond},
        {"arena_bytes", static_cast<int64_t>(p.arenaBytes)},
        {"compile_seconds", p.compileSeconds}});
  llvm::json::Object root{
      {"graph", options.compile.graph},
      {"target_cpu", options.compile.target.cpu.empty()
                         ? std::string("generic")
                         : options.compile.target.cpu},
      {"threads", options.threads},
      {"points", std::move(rows)}};
  if (options.sweep) {
    root["latency_budget_ms"] = options.latencyBudgetMs;
    if (recommended > 0)
      root["recommended_batch"] = recommended;
    else
      root["recommended_batch"] = nullptr;
  }
  out << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

int runBench(const BenchOptions &options, llvm::raw_ostream &out,
             llvm::raw_ostream &errs);

} // namespace

int64_t tfaot::recommendBatch(const std::vector<BenchPoint> &points,
                              double latencyBudgetMs) {
  int64_t best = -1;
  double bestRate = -1;
  for (const BenchPoint &p : points) {
    if (latencyBudgetMs > 0 && p.p90Ms > latencyBudgetMs)
      continue;
    // Ties (within 2%, timing noise) go to the smaller batch: same
    // throughput at lower latency and memory.
    if (p.itemsPerSecond > bestRate * 1.02) {
      best = p.batch;
      bestRate = p.itemsPerSecond;
    }
  }
  return best;
}

std::string tfaot::plotSvg(const std::vector<BenchPoint> &points,
                           const std::string &title, int64_t recommended) {
  const double width = 640, height = 400, left = 70, right = 70, top = 40,
               bottom = 50;
  double plotW = width - left - right, plotH = height - top - bottom;
  double maxRate = 0, maxLatency = 0;
  for (const BenchPoint &p : points) {
    maxRate = std::max(maxRate, p.itemsPerSecond);
    maxLatency = std::max(maxLatency, p.p90Ms);
  }
  maxRate = maxRate > 0 ? maxRate * 1.1 : 1;
  maxLatency = maxLatency > 0 ? maxLatency * 1.1 : 1;
  // Batch sizes are spread evenly (they are usually powers of two).
  auto x = [&](size_t i) {
    return left + (points.size() < 2 ? plotW / 2
                                     : plotW * i / (points.size() - 1));
  };
  auto yRate = [&](double v) { return top + plotH * (1 - v / maxRate); };
  auto yLatency = [&](double v) { return top + plotH * (1 - v / maxLatency); };
  std::string svg;
  llvm::raw_string_ostream os(svg);
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                      "height=\"{1}\" font-family=\"sans-serif\" "
                      "font-size=\"12\">\n",
                      width, height);
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::string escaped;
  for (char c : title)
    escaped += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;"
                                                                : std::string(1, c);
  os << llvm::formatv("<text x=\"{0}\" y=\"24\" text-anchor=\"middle\" "
                      "font-size=\"14\">{1}</text>\n",
                      width / 2, escaped);
  os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                      "fill=\"none\" stroke=\"#888\"/>\n",
                      left, top, plotW, plotH);
  auto polyline = [&](auto y, auto value, const char *color) {
    os << "<polyline fill=\"none\" stroke=\"" << color
       << "\" stroke-width=\"2\" points=\"";
    for (size_t i = 0; i < points.size(); ++i)
      os << llvm::formatv("{0:f1},{1:f1} ", x(i), y(value(points[i])));
    os << "\"/>\n";
    for (size_t i = 0; i < points.size(); ++i)
      os << llvm::formatv("<circle cx=\"{0:f1}\" cy=\"{1:f1}\" r=\"3\" "
                          "fill=\"{2}\"/>\n",
                          x(i), y(value(points[i])), color);
  };
  polyline(yRate, [](const BenchPoint &p) { return p.itemsPerSecond; },
           "#1f77b4");
  polyline(yLatency, [](const BenchPoint &p) { return p.p90Ms; }, "#d62728");
  // The recommended batch size: a dashed line across the plot at its
  // batch, labelled above the frame.
  for (size_t i = 0; i < points.size(); ++i)
    if (points[i].batch == recommended)
      os << llvm::formatv(
          "<g class=\"recommended\" data-batch=\"{0}\">\n"
          "<line x1=\"{1:f1}\" y1=\"{2}\" x2=\"{1:f1}\" y2=\"{3}\" "
          "stroke=\"#2ca02c\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
          "<text x=\"{1:f1}\" y=\"{4}\" text-anchor=\"middle\" "
          "fill=\"#2ca02c\">recommended: batch {0}</text>\n</g>\n",
          recommended, x(i), top, top + plotH, top - 8);
  for (size_t i = 0; i < points.size(); ++i)
    os << llvm::formatv("<text x=\"{0:f1}\" y=\"{1}\" text-anchor=\"middle\">"
                        "{2}</text>\n",
                        x(i), top + plotH + 18, points[i].batch);
  os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\">batch "
                      "size</text>\n",
                      left + plotW / 2, height - 10);
  for (int t = 0; t <= 4; ++t) {
    double frac = t / 4.0;
    double y = top + plotH * (1 - frac);
    os << llvm::formatv("<text x=\"{0}\" y=\"{1:f1}\" text-anchor=\"end\" "
                        "fill=\"#1f77b4\">{2:f0}</text>\n",
                        left - 6, y + 4, maxRate * frac);
    os << llvm::formatv("<text x=\"{0}\" y=\"{1:f1}\" fill=\"#d62728\">"
                        "{2:f1}</text>\n",
                        left + plotW + 6, y + 4, maxLatency * frac);
  }
  os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" fill=\"#1f77b4\">items/s"
                      "</text>\n",
                      left - 60, top - 8);
  os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" fill=\"#d62728\">p90 ms"
                      "</text>\n",
                      left + plotW + 6, top - 8);
  os << "</svg>\n";
  return svg;
}

int tfaot::bench(const BenchOptions &options, llvm::raw_ostream &out,
                 llvm::raw_ostream &errs) {
  GraphDiagnostics diags(options.compile.graph, errs);
  if (options.compile.graph.empty()) {
    diags.usageError("no graph: give --graph model.pb");
    return 1;
  }
  for (size_t i = 0; i < options.batches.size(); ++i)
    if (options.batches[i] < 1 ||
        (i && options.batches[i] <= options.batches[i - 1])) {
      diags.usageError("--batch takes increasing batch sizes >= 1, e.g. "
                       "1,8,32");
      return 1;
    }
  if (options.minIters < 1 || options.minTimeSeconds < 0 ||
      options.latencyBudgetMs < 0) {
    diags.usageError("--iters must be >= 1, --min_time and --latency_budget "
                     ">= 0");
    return 1;
  }
  if (options.threads < 0) {
    diags.usageError("--threads must be >= 0 (0: one per hardware thread)");
    return 1;
  }
  BenchOptions resolved = options;
  if (resolved.threads == 0)
    resolved.threads = ThreadPool::HardwareThreads();
  return runBench(resolved, out, errs);
}

namespace {
/// tfaot::bench() once its options are checked.
int runBench(const BenchOptions &options, llvm::raw_ostream &out,
             llvm::raw_ostream &errs) {
  std::vector<int64_t> batches = options.batches;
  if (batches.empty())
    batches.push_back(0);
  std::vector<BenchPoint> points;
  std::string cpu = options.compile.target.cpu.empty()
                        ? std::string("generic")
                        : options.compile.target.cpu;
  if (!options.json)
    out << "tfaot bench: " << llvm::sys::path::filename(options.compile.graph)
        << " (target cpu " << cpu << ", " << options.threads
        << (options.threads == 1 ? " thread" : " threads")
        << "; latency per Run())\n";
  for (int64_t batch : batches) {
    BenchPoint point;
    if (!measure(options, batch, point, errs))
      return 1;
    points.push_back(point);
    if (!options.json) {
      // Print as we go: a sweep over large batches takes a while.
      if (points.size() == 1)
        printHeader(out);
      printRow(point, out);
      out.flush();
    }
  }
  if (!options.profilePath.empty() &&
      !profile(options, batches.front(), out, errs))
    return 1;
  int64_t recommended = recommendBatch(points, options.latencyBudgetMs);
  if (options.json) {
    printJson(options, points, recommended, out);
  } else if (options.sweep) {
    if (recommended < 0) {
      out << llvm::formatv("no batch size meets the {0} ms p90 latency "
                           "budget\n",
                           options.latencyBudgetMs);
    } else {
      const BenchPoint &p = *llvm::find_if(
          points, [&](const BenchPoint &q) { return q.batch == recommended; });
      out << "recommended batch size: " << recommended << " ("
          << llvm::format("%.5g items/s, p90 %.4g ms", p.itemsPerSecond,
                          p.p90Ms);
      if (options.latencyBudgetMs > 0)
        out << llvm::formatv(", within the {0} ms budget",
                             options.latencyBudgetMs);
      out << ")\n";
    }
  }
  if (!options.plotPath.empty() &&
      !writeFileAtomically(
          options.plotPath,
          plotSvg(points,
                  "tfaot bench: " +
                      llvm::sys::path::filename(options.compile.graph).str(),
                  options.sweep ? recommended : -1),
          errs))
    return 1;
  return 0;
}
} // namespace
