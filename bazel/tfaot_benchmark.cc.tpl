// <name>_benchmark of tfaot_library(gen_benchmark = True) in Bazel, or of
// tfaot_library(... GEN_BENCHMARK) in CMake: times Run() of the generated
// class @CLASS@ (header @HEADER@), like tfcompile's tf_library benchmark.
// Inputs are uniform random floats in [0, 1) (other types stay zero);
// after a warm-up run it times runs until at least `--min_time` seconds
// (default 1) and 10 runs have passed, and prints the median, p90 and
// minimum latency and the runs per second.
//
// Usage: <name>_benchmark [--min_time SECONDS]
#include "@HEADER@"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

int main(int argc, char **argv) {
  double min_time = 1.0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--min_time") == 0 && i + 1 < argc) {
      min_time = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--min_time SECONDS]\n", argv[0]);
      return 2;
    }
  }
  @CLASS@ model;
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (int i = 0; i < model.num_args(); ++i) {
    const tfaot::BufferInfo &info = model.arg_info(i);
    if (info.dtype == tfaot::DType::kString) {
      std::fprintf(stderr, "@CLASS@: argument '%s' takes JPEG bytes; this "
                           "benchmark only fills numeric arguments\n",
                   info.name);
      return 1;
    }
    if (info.dtype == tfaot::DType::kFloat32) {
      float *data = static_cast<float *>(model.arg_data(i));
      for (int64_t j = 0; j < info.num_elements; ++j)
        data[j] = uniform(rng);
    }
  }
  if (!model.Run()) {
    std::fprintf(stderr, "@CLASS@::Run(): %s\n", model.error_msg().c_str());
    return 1;
  }

  using Clock = std::chrono::steady_clock;
  std::vector<double> ms;
  const Clock::time_point start = Clock::now();
  while (ms.size() < 10 ||
         std::chrono::duration<double>(Clock::now() - start).count() <
             min_time) {
    Clock::time_point before = Clock::now();
    model.Run();
    ms.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - before)
            .count());
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  const double p90 = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
  std::printf("@CLASS@: %zu runs, median %.4g ms, p90 %.4g ms, min %.4g ms, "
              "%.4g runs/s\n",
              ms.size(), median, p90, ms.front(), 1000.0 / median);
  return 0;
}
