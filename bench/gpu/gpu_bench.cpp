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
// checks that its results, fetched, are bit-identical. Prints one JSON
// object:
//
//   {"model": ..., "batch": N, "first_run_ms": ..., "median_ms": ...,
//    "p90_ms": ..., "min_ms": ..., "runs": ..., "items_per_second": ...,
//    "resident_median_ms": ..., "resident_same": true,
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

  int64_t batch = info.num_args && info.args[0].rank > 0
                      ? info.args[0].dims[0]
                      : 1;
  double median = percentile(ms, 0.5);
  std::printf("{\"model\": \"%s\", \"batch\": %lld, \"first_run_ms\": %.2f, "
              "\"median_ms\": %.4f, \"p90_ms\": %.4f, \"min_ms\": %.4f, "
              "\"runs\": %zu, \"items_per_second\": %.1f, %s"
              "\"device_bytes\": %zu, \"results\": [%s], \"rtol\": %g, "
              "\"ok\": %s}\n",
              opt.name.c_str(), static_cast<long long>(batch), firstMs, median,
              percentile(ms, 0.9), ms.front(), ms.size(), batch * 1000.0 / median,
              residentJson, gpu.device_bytes(), results.c_str(), opt.rtol,
              ok ? "true" : "false");
  return ok ? 0 : 1;
}
