//===- concurrent_runs.cpp - Generated code and runtime under TSan --------===//
//
// Built by scripts/tsan-check.sh with -fsanitize=thread together with the
// runtime's sources and the e2e test build's api_fc model (tf2onnx
// fc-layers at batch 2): 8 threads, each with its own instance, run the
// model 1000 times on two alternating inputs; every result must equal, bit
// for bit, what one instance computed alone, and TSan must report nothing.
// (The same check without TSan runs in CI as
// e2e.GeneratedApi.ConcurrentInstancesGiveIdenticalResults.)
//
//===----------------------------------------------------------------------===//
#include "api_fc.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

int main() {
  using Fc = e2e::api::FcLayers;
  std::vector<float> inputs[2];
  std::vector<float> expected[2];
  Fc alone;
  for (int k = 0; k < 2; ++k) {
    inputs[k].resize(Fc::kArg0Elements);
    for (size_t i = 0; i < inputs[k].size(); ++i)
      inputs[k][i] = static_cast<float>((i * (k + 3)) % 97) / 97.0f;
    std::copy(inputs[k].begin(), inputs[k].end(), alone.arg0_data());
    if (!alone.Run()) {
      std::fprintf(stderr, "%s\n", alone.error_msg().c_str());
      return 1;
    }
    expected[k].assign(alone.result0_data(),
                       alone.result0_data() + Fc::kResult0Elements);
  }
  constexpr int kThreads = 8, kIterations = 1000;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Fc fn;
      for (int i = 0; i < kIterations; ++i) {
        const int k = (i + t) % 2;
        std::copy(inputs[k].begin(), inputs[k].end(), fn.arg0_data());
        if (!fn.Run() || std::memcmp(fn.result0_data(), expected[k].data(),
                                     Fc::kResult0Bytes) != 0)
          ++mismatches;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  std::printf("%d threads x %d runs: %d mismatches\n", kThreads, kIterations,
              mismatches.load());
  return mismatches.load() == 0 ? 0 : 1;
}
