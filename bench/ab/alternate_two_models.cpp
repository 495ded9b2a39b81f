// SPDX-License-Identifier: Apache-2.0
// Times two builds of one model in one process: Run() of each in turn (A B,
// then B A), and prints each one's median and their ratio, and whether
// their first results are byte-identical. Both builds see the same machine
// state, which separate `tfaot bench` processes on a shared VM do not.
// ab_two_builds.sh compiles the two builds (classes m::A in a.h, m::B in
// b.h) and links this file with them. The models' one input is argument 0,
// float32, filled with the same seeded values for both.
#include "a.h"
#include "b.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// Milliseconds of one Run(); exits naming the build if it fails.
template <class Model> double timeRun(Model &model, const char *name) {
  auto start = std::chrono::steady_clock::now();
  if (!model.Run()) {
    std::fprintf(stderr, "alternate_two_models: build %s: %s\n", name,
                 model.error_msg().c_str());
    std::exit(1);
  }
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

double percentile(std::vector<double> times, double fraction) {
  std::sort(times.begin(), times.end());
  return times[static_cast<size_t>(fraction * (times.size() - 1))];
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3 || std::atoi(argv[1]) < 1 || std::atoi(argv[2]) < 2) {
    std::fprintf(stderr, "usage: %s THREADS RUNS (RUNS >= 2 per build)\n",
                 argv[0]);
    return 2;
  }
  const int threads = std::atoi(argv[1]), runs = std::atoi(argv[2]);
  static_assert(m::A::kArg0Bytes == m::B::kArg0Bytes &&
                    m::A::kResult0Bytes == m::B::kResult0Bytes,
                "the two builds must take and give the same buffers");
  m::A a;
  m::B b;
  a.set_num_threads(threads);
  b.set_num_threads(threads);
  // The same seeded values in [-1, 1) for both.
  float *inA = static_cast<float *>(a.arg_data(0));
  float *inB = static_cast<float *>(b.arg_data(0));
  unsigned state = 1;
  for (size_t i = 0; i < m::A::kArg0Bytes / sizeof(float); ++i) {
    state = state * 1664525u + 1013904223u;
    inA[i] = inB[i] = (state >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
  for (int i = 0; i < 5; ++i) { // warm-up
    timeRun(a, "A");
    timeRun(b, "B");
  }
  std::vector<double> timesA, timesB;
  for (int i = 0; i < runs; ++i) {
    if (i % 2 == 0) {
      timesA.push_back(timeRun(a, "A"));
      timesB.push_back(timeRun(b, "B"));
    } else {
      timesB.push_back(timeRun(b, "B"));
      timesA.push_back(timeRun(a, "A"));
    }
  }
  const double medianA = percentile(timesA, 0.5);
  const double medianB = percentile(timesB, 0.5);
  const bool identical = std::memcmp(a.result_data(0), b.result_data(0),
                                     m::A::kResult0Bytes) == 0;
  std::printf("A median %.3f ms  B median %.3f ms  B/A %.3f   (p10 %.3f / "
              "%.3f)  identical=%d\n",
              medianA, medianB, medianB / medianA, percentile(timesA, 0.1),
              percentile(timesB, 0.1), identical ? 1 : 0);
  return 0;
}
