//===- gpu_bench.cpp - time a --target=cuda model, check it against CPU ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Built (by bench/gpu/run.sh, on a machine with a GPU) once per model and
// batch size, against two objects of the same graph:
//
//   -DTFAOT_BENCH_CUDA_HEADER="m_cuda.h" -DTFAOT_BENCH_CUDA_CLASS=ns::M
//   -DTFAOT_BENCH_CPU_HEADER="m_cpu.h"   -DTFAOT_BENCH_CPU_CLASS=ns::M
//
// It fills the arguments with uniform [0, 1) floats (seeded), runs the CPU
// build once as the reference (on --threads threads), runs the CUDA build
// and compares every result (max abs difference against the largest
// reference magnitude), then times the CUDA build's Run() until --min-time
// seconds and --iters runs have passed (--iters 0: no timed runs, for a
// profiler). Run() is what a user calls: it
// copies the arguments to the GPU, launches every kernel and copies the
// results back, synchronized. Then it times RunDeviceResident() (inputs
// already on the GPU, results left there: how the peers are timed) and
// checks that its results, fetched, are bit-identical. Then the zero-copy
// path: a second instance of the model whose arguments and results are
// "the caller's" device buffers (set_arg_device_ptr / set_result_device_ptr;
// the buffers are a third instance's own), timed alternating with Run()
// (copies) on the first, and its results, fetched, must be bit-identical
// too. A build with batch buckets (--batch) is also timed at each bucket's
// batch size and at sizes between them (round robin over the sizes, each
// Run() after set_batch_size), the rows in use checked against the
// reference to --rtol. Prints one JSON object:
//
//   {"model": ..., "batch": N, "first_run_ms": ..., "median_ms": ...,
//    "p90_ms": ..., "min_ms": ..., "runs": ..., "items_per_second": ...,
//    "resident_median_ms": ..., "resident_same": true,
//    "copy_alternating_median_ms": ..., "caller_buffers_median_ms": ...,
//    "caller_buffers_same": true,
//    "buckets": [{"batch": n, "bucket": b, "median_ms": ...}] (--batch only),
//    "device_bytes": ..., "results": [{"name", "max_abs_diff", "max_abs_ref",
//    "mean_abs_diff", "top1_agree", "top1_rows"}], "rtol": ..., "ok": true}
//
// Per result: the largest and the mean absolute difference from the CPU's,
// the reference's largest magnitude, and in how many of its top1_rows rows
// the index of the largest value is the same (rows: the first dimension,
// e.g. of [batch, classes] logits; a result of rank 0 or 1 is one row):
// what a half-precision build is judged by beside the error bound. Results may be
// float32, float16 or bfloat16; a non-finite difference prints as
// Infinity (as Python's json reads it).
//
// Exit status: 0, 1 when a result differs from the CPU's by more than
// --rtol times the reference's largest magnitude, 2 when a Run() fails.
// With --bound-only NAME only the result NAME is held to that bound; the
// others must agree on the top-1 of every row (an int8 build's softmax:
// one int8 step that rounds the other way moves a probability by more than
// 1% of its peak while the logits stay within their bound).
//
//===----------------------------------------------------------------------===//
#include TFAOT_BENCH_CUDA_HEADER
#include TFAOT_BENCH_CPU_HEADER

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string name = "model";
  double minTimeSeconds = 2.0;
  long minIters = 20;
  int threads = 1;
  double rtol = 1e-4;
  std::string boundOnly; ///< --bound-only: the one result held to --rtol.
  unsigned seed = 1;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--name") o.name = value;
    else if (flag == "--min-time") o.minTimeSeconds = std::atof(value.c_str());
    else if (flag == "--iters") o.minIters = std::atol(value.c_str());
    else if (flag == "--threads") o.threads = std::atoi(value.c_str());
    else if (flag == "--rtol") o.rtol = std::atof(value.c_str());
    else if (flag == "--bound-only") o.boundOnly = value;
    else if (flag == "--seed") o.seed = static_cast<unsigned>(std::atoi(value.c_str()));
    else {
      std::fprintf(stderr, "gpu_bench: unknown flag '%s'\n", flag.c_str());
      std::exit(2);
    }
  }
  return o;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

double percentile(const std::vector<double> &sorted, double q) {
  double position = q * (sorted.size() - 1);
  size_t below = static_cast<size_t>(position);
  size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

// Element k of a result buffer of type `dtype`, widened to double.
double element(const void *data, tfaot::DType dtype, int64_t k) {
  if (dtype == tfaot::DType::kFloat32)
    return static_cast<const float *>(data)[k];
  uint16_t h = static_cast<const uint16_t *>(data)[k];
  uint32_t bits;
  if (dtype == tfaot::DType::kBFloat16) {
    bits = uint32_t(h) << 16;
  } else { // kFloat16: 1 sign, 5 exponent, 10 mantissa bits.
    int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double magnitude =
        exponent == 0    ? std::ldexp(mantissa, -24) // Subnormal or zero.
        : exponent == 31 ? (mantissa ? NAN : INFINITY)
                         : std::ldexp(mantissa | 0x400, exponent - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
  }
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// A double as JSON, "%.<digits>g", non-finite values as Python's json
// spells them.
std::string number(double value, int digits) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

/// Runs every function of `runs` once per round, in turn, until each has
/// run `minIters` times and `minSeconds` have passed; returns each one's
/// times in ms, sorted (empty if one failed: `failed` names it).
template <typename Fn>
std::vector<std::vector<double>> alternate(const std::vector<Fn> &runs,
                                          long minIters, double minSeconds,
                                          std::string &failed) {
  using Clock = std::chrono::steady_clock;
  std::vector<std::vector<double>> ms(runs.size());
  auto start = Clock::now();
  while (minIters > 0 &&
         (static_cast<long>(ms[0].size()) < minIters ||
          std::chrono::duration<double>(Clock::now() - start).count() <
              minSeconds)) {
    for (size_t i = 0; i < runs.size(); ++i) {
      auto t = Clock::now();
      if (!runs[i](failed))
        return {};
      ms[i].push_back(msSince(t));
    }
  }
  for (std::vector<double> &times : ms)
    std::sort(times.begin(), times.end());
  return ms;
}

} // namespace

int main(int argc, char **argv) {
  Options opt = parse(argc, argv);
  TFAOT_BENCH_CUDA_CLASS gpu;
  TFAOT_BENCH_CPU_CLASS cpu;
  const tfaot::FunctionInfo &info = TFAOT_BENCH_CUDA_CLASS::StaticInfo();
  const tfaot::FunctionInfo &cpuInfo = TFAOT_BENCH_CPU_CLASS::StaticInfo();

  std::mt19937 rng(opt.seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (int i = 0; i < info.num_args; ++i) {
    if (info.args[i].dtype != tfaot::DType::kFloat32) {
      std::fprintf(stderr, "gpu_bench: argument '%s' is not float32\n",
                   info.args[i].name);
      return 2;
    }
    float *data = static_cast<float *>(gpu.arg_data(i));
    for (int64_t k = 0; k < info.args[i].num_elements; ++k)
      data[k] = uniform(rng);
    std::memcpy(cpu.arg_data(i), data, info.args[i].size_bytes);
  }

  if (!cpu.set_num_threads(opt.threads) || !cpu.Run()) {
    std::fprintf(stderr, "gpu_bench: CPU Run() failed: %s\n",
                 cpu.error_msg().c_str());
    return 2;
  }
  auto t0 = std::chrono::steady_clock::now();
  if (!gpu.Run()) {
    std::fprintf(stderr, "gpu_bench: CUDA Run() failed: %s\n",
                 gpu.error_msg().c_str());
    return 2;
  }
  double firstMs = msSince(t0);

  bool ok = true;
  std::string results;
  for (int r = 0; r < info.num_results; ++r) {
    const tfaot::BufferInfo &result = info.results[r];
    const void *want = cpu.result_data(r);
    const void *got = gpu.result_data(r);
    tfaot::DType wantType = cpuInfo.results[r].dtype, gotType = result.dtype;
    for (tfaot::DType t : {wantType, gotType})
      if (t != tfaot::DType::kFloat32 && t != tfaot::DType::kFloat16 &&
          t != tfaot::DType::kBFloat16) {
        std::fprintf(stderr, "gpu_bench: result '%s' is %s, not a float\n",
                     result.name, tfaot::DTypeName(t));
        return 2;
      }
    double maxDiff = 0, maxRef = 0, sumDiff = 0;
    for (int64_t k = 0; k < result.num_elements; ++k) {
      double diff = std::fabs(element(got, gotType, k) -
                              element(want, wantType, k));
      if (!(diff <= maxDiff)) // NaN counts as a difference.
        maxDiff = std::isnan(diff) ? INFINITY : diff;
      sumDiff += diff;
      maxRef = std::max(maxRef, std::fabs(element(want, wantType, k)));
    }
    bool bounded = opt.boundOnly.empty() || opt.boundOnly == result.name;
    if (bounded)
      ok = ok && maxDiff <= opt.rtol * std::max(maxRef, 1.0);
    // Top-1 per row of the first dimension: the first index of the largest
    // value, in the reference and in the CUDA result.
    int64_t rows = result.rank > 1 ? result.dims[0] : 1, agree = 0;
    int64_t width = rows > 0 ? result.num_elements / rows : 0;
    for (int64_t row = 0; row < rows && width > 0; ++row) {
      int64_t wantTop = row * width, gotTop = row * width;
      for (int64_t k = row * width + 1; k < (row + 1) * width; ++k) {
        if (element(want, wantType, k) > element(want, wantType, wantTop))
          wantTop = k;
        if (element(got, gotType, k) > element(got, gotType, gotTop))
          gotTop = k;
      }
      agree += wantTop == gotTop;
    }
    if (!bounded)
      ok = ok && agree == rows;
    double meanDiff =
        result.num_elements ? sumDiff / double(result.num_elements) : 0;
    results += std::string(r ? ", " : "") + "{\"name\": \"" + result.name +
               "\", \"max_abs_diff\": " + number(maxDiff, 3) +
               ", \"max_abs_ref\": " + number(maxRef, 4) +
               ", \"mean_abs_diff\": " + number(meanDiff, 3) +
               ", \"top1_agree\": " + std::to_string(agree) +
               ", \"top1_rows\": " + std::to_string(rows) + "}";
  }

  // --iters 0: the first run only (e.g. under a profiler).
  using Clock = std::chrono::steady_clock;
  for (int i = 0; opt.minIters > 0 && i < 3; ++i)
    gpu.Run();
  std::vector<double> ms;
  if (opt.minIters == 0)
    ms.push_back(firstMs);
  auto start = Clock::now();
  while (opt.minIters > 0 &&
         (static_cast<long>(ms.size()) < opt.minIters ||
          std::chrono::duration<double>(Clock::now() - start).count() <
              opt.minTimeSeconds)) {
    auto t = Clock::now();
    if (!gpu.Run()) {
      std::fprintf(stderr, "gpu_bench: CUDA Run() failed: %s\n",
                   gpu.error_msg().c_str());
      return 2;
    }
    ms.push_back(msSince(t));
  }
  std::sort(ms.begin(), ms.end());

  // The same, device-resident (RunDeviceResident(): the inputs already on
  // the GPU, the results left there), as the peers are timed; then the
  // results fetched must be bit-identical to Run()'s.
  std::vector<std::vector<char>> hostResults;
  for (int r = 0; r < info.num_results; ++r) {
    const char *data = static_cast<const char *>(gpu.result_data(r));
    hostResults.emplace_back(data, data + info.results[r].size_bytes);
  }
  std::vector<double> resident;
  start = Clock::now();
  while (opt.minIters > 0 &&
         (static_cast<long>(resident.size()) < opt.minIters ||
          std::chrono::duration<double>(Clock::now() - start).count() <
              opt.minTimeSeconds)) {
    auto t = Clock::now();
    if (!gpu.RunDeviceResident()) {
      std::fprintf(stderr, "gpu_bench: RunDeviceResident() failed: %s\n",
                   gpu.error_msg().c_str());
      return 2;
    }
    resident.push_back(msSince(t));
  }
  bool residentSame = true;
  if (!resident.empty()) {
    std::sort(resident.begin(), resident.end());
    if (!gpu.CopyResultsToHost()) {
      std::fprintf(stderr, "gpu_bench: CopyResultsToHost() failed: %s\n",
                   gpu.error_msg().c_str());
      return 2;
    }
    for (int r = 0; r < info.num_results; ++r)
      residentSame &= std::memcmp(gpu.result_data(r), hostResults[r].data(),
                                  hostResults[r].size()) == 0;
    ok = ok && residentSame;
  }
  char residentJson[128] = "";
  if (!resident.empty())
    std::snprintf(residentJson, sizeof residentJson,
                  "\"resident_median_ms\": %.4f, \"resident_same\": %s, ",
                  percentile(resident, 0.5), residentSame ? "true" : "false");

  // Zero-copy: `zeroCopy` reads its arguments from and writes its results
  // to device buffers it does not own (`owner`'s, which a Run() of `owner`
  // filled with the same inputs), timed alternating with gpu.Run().
  std::string callerJson;
  if (opt.minIters > 0) {
    TFAOT_BENCH_CUDA_CLASS owner, zeroCopy;
    for (int i = 0; i < info.num_args; ++i)
      std::memcpy(owner.arg_data(i), gpu.arg_data(i), info.args[i].size_bytes);
    bool set = owner.Run();
    for (int i = 0; set && i < info.num_args; ++i)
      set = zeroCopy.set_arg_device_ptr(
          i, reinterpret_cast<void *>(owner.arg_device_ptr(i)));
    for (int r = 0; set && r < info.num_results; ++r)
      set = zeroCopy.set_result_device_ptr(
          r, reinterpret_cast<void *>(owner.result_device_ptr(r)));
    auto run = [](TFAOT_BENCH_CUDA_CLASS &fn, std::string &failed) {
      if (fn.Run())
        return true;
      failed = fn.error_msg();
      return false;
    };
    std::vector<std::function<bool(std::string &)>> runs = {
        [&](std::string &failed) { return run(gpu, failed); },
        [&](std::string &failed) { return run(zeroCopy, failed); }};
    std::string failed = set ? "" : owner.error_msg() + zeroCopy.error_msg();
    // Warm: the first run, then the CUDA-graph capture.
    for (int i = 0; set && i < 3; ++i)
      set = run(zeroCopy, failed);
    std::vector<std::vector<double>> ms2;
    if (set)
      ms2 = alternate(runs, opt.minIters, opt.minTimeSeconds, failed);
    if (ms2.empty()) {
      std::fprintf(stderr, "gpu_bench: caller-owned buffers failed: %s\n",
                   failed.c_str());
      return 2;
    }
    bool same = owner.CopyResultsToHost();
    for (int r = 0; r < info.num_results; ++r)
      same = same && std::memcmp(owner.result_data(r), hostResults[r].data(),
                                 hostResults[r].size()) == 0;
    ok = ok && same;
    char text[192];
    std::snprintf(text, sizeof text,
                  "\"copy_alternating_median_ms\": %.4f, "
                  "\"caller_buffers_median_ms\": %.4f, "
                  "\"caller_buffers_same\": %s, ",
                  percentile(ms2[0], 0.5), percentile(ms2[1], 0.5),
                  same ? "true" : "false");
    callerJson = text;
  }

  // Batch buckets: each bucket and a size between two, round robin.
  std::string bucketJson;
  if (info.num_buckets > 0 && opt.minIters > 0) {
    std::vector<int64_t> sizes;
    for (int b = 0; b < info.num_buckets; ++b) {
      int64_t previous = b ? info.bucket_batches[b - 1] : 0;
      if (info.bucket_batches[b] - previous > 1)
        sizes.push_back((previous + info.bucket_batches[b] + 1) / 2);
      sizes.push_back(info.bucket_batches[b]);
    }
    std::vector<std::function<bool(std::string &)>> runs;
    for (int64_t n : sizes)
      runs.push_back([&gpu, n](std::string &failed) {
        if (gpu.set_batch_size(n) && gpu.Run())
          return true;
        failed = gpu.error_msg();
        return false;
      });
    std::string failed;
    // Warm each bucket (its first run, then its graph capture).
    for (int i = 0; i < 3; ++i)
      for (auto &run : runs)
        if (!run(failed)) {
          std::fprintf(stderr, "gpu_bench: bucket run failed: %s\n",
                       failed.c_str());
          return 2;
        }
    std::vector<std::vector<double>> ms3 =
        alternate(runs, opt.minIters, opt.minTimeSeconds, failed);
    if (ms3.empty()) {
      std::fprintf(stderr, "gpu_bench: bucket run failed: %s\n",
                   failed.c_str());
      return 2;
    }
    // The rows in use of the last size run (the largest bucket's) were
    // checked above; the others' rows against the reference here.
    for (size_t i = 0; i < sizes.size(); ++i) {
      bool rowsOk = gpu.set_batch_size(sizes[i]) && gpu.Run();
      for (int r = 0; rowsOk && r < info.num_results; ++r) {
        const tfaot::BufferInfo &result = info.results[r];
        int64_t rowElements = result.num_elements / gpu.max_batch_size();
        double maxRef = 0, maxDiff = 0;
        for (int64_t k = 0; k < sizes[i] * rowElements; ++k) {
          double want = element(cpu.result_data(r), cpuInfo.results[r].dtype, k);
          maxRef = std::max(maxRef, std::fabs(want));
          double diff = std::fabs(
              element(gpu.result_data(r), result.dtype, k) - want);
          maxDiff = std::isnan(diff) ? INFINITY : std::max(maxDiff, diff);
        }
        rowsOk = maxDiff <= opt.rtol * std::max(maxRef, 1.0);
      }
      ok = ok && rowsOk;
      char text[160];
      std::snprintf(text, sizeof text,
                    "%s{\"batch\": %lld, \"bucket\": %lld, "
                    "\"median_ms\": %.4f, \"rows_ok\": %s}",
                    i ? ", " : "", static_cast<long long>(sizes[i]),
                    static_cast<long long>(gpu.bucket_for_batch()),
                    percentile(ms3[i], 0.5), rowsOk ? "true" : "false");
      bucketJson += text;
    }
    bucketJson = "\"buckets\": [" + bucketJson + "], ";
  }

  int64_t batch = info.num_args && info.args[0].rank > 0
                      ? info.args[0].dims[0]
                      : 1;
  double median = percentile(ms, 0.5);
  std::printf("{\"model\": \"%s\", \"batch\": %lld, \"first_run_ms\": %.2f, "
              "\"median_ms\": %.4f, \"p90_ms\": %.4f, \"min_ms\": %.4f, "
              "\"runs\": %zu, \"items_per_second\": %.1f, %s%s%s"
              "\"device_bytes\": %zu, \"results\": [%s], \"rtol\": %g, "
              "\"ok\": %s}\n",
              opt.name.c_str(), static_cast<long long>(batch), firstMs, median,
              percentile(ms, 0.9), ms.front(), ms.size(), batch * 1000.0 / median,
              residentJson, callerJson.c_str(), bucketJson.c_str(),
              gpu.device_bytes(), results.c_str(), opt.rtol,
              ok ? "true" : "false");
  return ok ? 0 : 1;
}
