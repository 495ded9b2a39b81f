//===- shared_pool_runs.cpp - The thread pool under TSan ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Built by scripts/tsan-check.sh with -fsanitize=thread together with the
// runtime's sources and the e2e.tfjs build of the emotion model (a conv
// net whose convolutions run as parallel loops): 4 threads, each with its
// own instance, all sharing one pool of 3 threads, 100 runs each on two
// alternating inputs; then one instance on its own pool of 2
// (set_num_threads). Every result must equal, bit for bit, what one
// instance computed on one thread, and TSan must report nothing.
//
//===----------------------------------------------------------------------===//
#include "concurrent_runs.h"
#include "emotion.h"

#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  using Model = tfjs::Emotion;
  std::vector<std::vector<float>> inputs(2), expected;
  Model alone;
  for (size_t k = 0; k < inputs.size(); ++k) {
    inputs[k].resize(Model::kArg0Elements);
    for (size_t i = 0; i < inputs[k].size(); ++i)
      inputs[k][i] = static_cast<float>((i * (k + 5)) % 101) / 101.0f;
    std::copy(inputs[k].begin(), inputs[k].end(), alone.arg0_data());
    if (!alone.Run()) {
      std::fprintf(stderr, "%s\n", alone.error_msg().c_str());
      return 1;
    }
    expected.emplace_back(alone.result0_data(),
                          alone.result0_data() + Model::kResult0Elements);
  }
  constexpr int kCallers = 4, kIterations = 100;
  tfaot::ThreadPool pool(3);
  int mismatches = tfaot_e2e::CountConcurrentMismatches<Model>(
      inputs, expected, kCallers, kIterations, &pool);
  std::printf("%d threads x %d runs on one shared pool of %d: %d mismatches\n",
              kCallers, kIterations, pool.num_threads(), mismatches);

  Model own;
  if (!own.set_num_threads(2))
    return 1;
  int own_mismatches = 0;
  for (int i = 0; i < kIterations; ++i) {
    const size_t k = i % inputs.size();
    std::copy(inputs[k].begin(), inputs[k].end(), own.arg0_data());
    if (!own.Run() || std::memcmp(own.result0_data(), expected[k].data(),
                                  Model::kResult0Bytes) != 0)
      ++own_mismatches;
  }
  std::printf("%d runs on the instance's own pool of 2: %d mismatches\n",
              kIterations, own_mismatches);
  return mismatches == 0 && own_mismatches == 0 ? 0 : 1;
}
