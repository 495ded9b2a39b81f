// SPDX-License-Identifier: Apache-2.0
// Times the compiled TopKV2 (k = 100) on one row of 1.3 million floats, on
// one thread, for four orders of the row: random, ascending (the worst case:
// every element beats the worst kept one and sinks through the heap),
// descending (the best: none does), and all equal (every element ties; the
// lowest indices win). Each result is checked against a reference first:
// the row's indices sorted by value, decreasing, ties by index (TF's order).
// Prints the median and minimum of the runs; exit status 1 on a wrong result.
#include "topk_model.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

bool check(const float *x, int64_t n, const float *values,
           const int32_t *indices, int64_t k) {
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int32_t a, int32_t b) {
                      return x[a] > x[b] || (x[a] == x[b] && a < b);
                    });
  for (int64_t s = 0; s < k; ++s)
    if (indices[s] != order[s] || values[s] != x[order[s]]) {
      std::printf("  slot %lld: got x[%d] = %g, want x[%d] = %g\n",
                  (long long)s, indices[s], values[s], order[s], x[order[s]]);
      return false;
    }
  return true;
}

} // namespace

int main() {
  bench::TopK model;
  const int64_t n = bench::TopK::kArg0Elements;
  const int64_t k = bench::TopK::kResult0Elements;
  float *x = model.arg0_data();
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  struct Case {
    const char *name;
    float (*value)(int64_t i, std::mt19937 &, std::uniform_real_distribution<float> &);
  };
  const Case cases[] = {
      {"random", [](int64_t, std::mt19937 &r, std::uniform_real_distribution<float> &u) { return u(r); }},
      {"ascending", [](int64_t i, std::mt19937 &, std::uniform_real_distribution<float> &) { return float(i); }},
      {"descending", [](int64_t i, std::mt19937 &, std::uniform_real_distribution<float> &) { return float(-i); }},
      {"all equal", [](int64_t, std::mt19937 &, std::uniform_real_distribution<float> &) { return 1.0f; }},
  };
  std::printf("tfaot TopKV2: one row of %lld floats, k = %lld, 1 thread\n",
              (long long)n, (long long)k);
  std::printf("%-12s %10s %10s  %s\n", "row", "median ms", "min ms", "result");
  bool ok = true;
  for (const Case &c : cases) {
    for (int64_t i = 0; i < n; ++i)
      x[i] = c.value(i, rng, uniform);
    if (!model.Run()) {
      std::printf("Run failed: %s\n", model.error_msg().c_str());
      return 1;
    }
    bool right = check(x, n, model.result0_data(), model.result1_data(), k);
    ok &= right;
    std::vector<double> ms;
    for (int run = 0; run < 21; ++run) {
      auto start = std::chrono::steady_clock::now();
      model.Run();
      ms.push_back(std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-12s %10.2f %10.2f  %s\n", c.name, ms[ms.size() / 2], ms[0],
                right ? "matches the reference" : "WRONG");
  }
  return ok ? 0 : 1;
}
