// SPDX-License-Identifier: Apache-2.0
// Times the compiled NonMaxSuppressionV5 (nms.pbtxt) on 20,000 boxes, one
// thread, hard (sigma 0) and soft (sigma 0.5) at several output sizes,
// on random boxes (a detector's crowded output: many overlaps) and on
// disjoint ones (nothing is suppressed: the most IoUs, N * selected). Each
// case is first checked against nms_reference.h; prints the count
// selected and the median and minimum of the runs; exit status 1 on a
// wrong result.
#include "nms_model.h"
#include "nms_reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

struct Case {
  const char *name;
  bool disjoint;
  int32_t max;
  float sigma;
  int runs;
};

void MakeBoxes(bool disjoint, std::vector<float> &boxes,
               std::vector<float> &scores) {
  const size_t n = scores.size();
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (size_t i = 0; i < n; ++i) {
    float *b = &boxes[4 * i];
    if (disjoint) { // A 200 x 100 grid of unit cells, boxes inside them.
      float y = float(i / 100), x = float(i % 100);
      b[0] = y, b[1] = x, b[2] = y + 0.9f, b[3] = x + 0.9f;
    } else { // Centers in the unit square, sides 0.02 to 0.1.
      float cy = unit(rng), cx = unit(rng);
      float h = 0.02f + 0.08f * unit(rng), w = 0.02f + 0.08f * unit(rng);
      b[0] = cy - h / 2, b[1] = cx - w / 2, b[2] = cy + h / 2,
      b[3] = cx + w / 2;
    }
    scores[i] = unit(rng);
  }
}

bool Check(const bench::Nms &model, const std::vector<float> &boxes,
           const std::vector<float> &scores, const Case &c) {
  auto want = nms_reference::Select(boxes, scores, c.max, 0.5f, 0.0f, c.sigma);
  if (model.result0_dims()[0] != int64_t(want.size())) {
    std::printf("  selected %lld, the reference %zu\n",
                (long long)model.result0_dims()[0], want.size());
    return false;
  }
  for (size_t i = 0; i < want.size(); ++i)
    if (model.result0_data()[i] != want[i].first ||
        std::fabs(model.result1_data()[i] - want[i].second) >
            1e-5f * std::fabs(want[i].second)) {
      std::printf("  slot %zu: got box %d (%g), the reference box %d (%g)\n",
                  i, model.result0_data()[i], model.result1_data()[i],
                  want[i].first, want[i].second);
      return false;
    }
  return true;
}

} // namespace

int main() {
  bench::Nms model;
  const int64_t n = bench::Nms::kArg1Elements;
  std::vector<float> boxes(4 * n), scores(n);
  const Case cases[] = {
      {"hard, max 100, random", false, 100, 0.0f, 21},
      {"hard, max 20000, random", false, 20000, 0.0f, 11},
      {"hard, max 20000, disjoint", true, 20000, 0.0f, 5},
      {"soft, max 100, random", false, 100, 0.5f, 21},
      {"soft, max 1000, random", false, 1000, 0.5f, 11},
  };
  std::printf("tfaot NonMaxSuppressionV5: %lld boxes, iou_threshold 0.5, "
              "score_threshold 0, 1 thread\n",
              (long long)n);
  std::printf("%-28s %9s %10s %10s  %s\n", "case", "selected", "median ms",
              "min ms", "result");
  bool ok = true;
  for (const Case &c : cases) {
    MakeBoxes(c.disjoint, boxes, scores);
    std::copy(boxes.begin(), boxes.end(), model.arg0_data());
    std::copy(scores.begin(), scores.end(), model.arg1_data());
    *model.arg2_data() = c.max;
    *model.arg3_data() = c.sigma;
    if (!model.Run()) {
      std::printf("Run failed: %s\n", model.error_msg().c_str());
      return 1;
    }
    bool right = Check(model, boxes, scores, c);
    ok &= right;
    std::vector<double> ms;
    for (int run = 0; run < c.runs; ++run) {
      auto start = std::chrono::steady_clock::now();
      model.Run();
      ms.push_back(std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-28s %9lld %10.2f %10.2f  %s\n", c.name,
                (long long)model.result0_dims()[0], ms[ms.size() / 2], ms[0],
                right ? "matches the reference" : "WRONG");
  }
  return ok ? 0 : 1;
}
