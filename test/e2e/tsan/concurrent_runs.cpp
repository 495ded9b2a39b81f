//===- concurrent_runs.cpp - Generated code and runtime under TSan --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Built by scripts/tsan-check.sh with -fsanitize=thread together with the
// runtime's sources and the e2e test build's api_fc model (tf2onnx
// fc-layers at batch 2): support/concurrent_runs.h's check, 8 threads x
// 1000 runs on two alternating inputs, and TSan must report nothing.
// (The same check without TSan runs in CI as
// e2e.GeneratedApi.ConcurrentInstancesGiveIdenticalResults.)
//
//===----------------------------------------------------------------------===//
#include "api_fc.h"
#include "concurrent_runs.h"

#include <cstdio>
#include <vector>

int main() {
  using Fc = e2e::api::FcLayers;
  std::vector<std::vector<float>> inputs(2), expected;
  Fc alone;
  for (size_t k = 0; k < inputs.size(); ++k) {
    inputs[k].resize(Fc::kArg0Elements);
    for (size_t i = 0; i < inputs[k].size(); ++i)
      inputs[k][i] = static_cast<float>((i * (k + 3)) % 97) / 97.0f;
    std::copy(inputs[k].begin(), inputs[k].end(), alone.arg0_data());
    if (!alone.Run()) {
      std::fprintf(stderr, "%s\n", alone.error_msg().c_str());
      return 1;
    }
    expected.emplace_back(alone.result0_data(),
                          alone.result0_data() + Fc::kResult0Elements);
  }
  constexpr int kThreads = 8, kIterations = 1000;
  const int mismatches = tfaot_e2e::CountConcurrentMismatches<Fc>(
      inputs, expected, kThreads, kIterations);
  std::printf("%d threads x %d runs: %d mismatches\n", kThreads, kIterations,
              mismatches);
  return mismatches == 0 ? 0 : 1;
}
