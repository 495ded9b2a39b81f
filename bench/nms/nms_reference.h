// SPDX-License-Identifier: Apache-2.0
// NonMaxSuppression by its definition, written for clarity, not speed: the
// reference that bench/nms and test/backends/cpu/run-data-dependent.test
// check the compiled op against. Header-only, no tfaot code.
#ifndef TFAOT_BENCH_NMS_REFERENCE_H
#define TFAOT_BENCH_NMS_REFERENCE_H

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace nms_reference {

/// IoU of two boxes given as any two opposite corners; 0 when either has
/// no area.
inline float Iou(const float *a, const float *b) {
  float ay0 = std::min(a[0], a[2]), ay1 = std::max(a[0], a[2]);
  float ax0 = std::min(a[1], a[3]), ax1 = std::max(a[1], a[3]);
  float by0 = std::min(b[0], b[2]), by1 = std::max(b[0], b[2]);
  float bx0 = std::min(b[1], b[3]), bx1 = std::max(b[1], b[3]);
  float areaA = (ay1 - ay0) * (ax1 - ax0), areaB = (by1 - by0) * (bx1 - bx0);
  if (areaA <= 0 || areaB <= 0)
    return 0;
  float h = std::max(0.0f, std::min(ay1, by1) - std::max(ay0, by0));
  float w = std::max(0.0f, std::min(ax1, bx1) - std::max(ax0, bx0));
  return h * w / (areaA + areaB - h * w);
}

/// Repeatedly takes the best remaining box (highest score, then lowest
/// index) whose score is above `threshold`; hard NMS (sigma 0) then drops
/// every remaining box that overlaps it by more than `iou`, soft NMS
/// multiplies every remaining score by exp(-0.5 iou^2 / sigma). Returns the
/// (index, score) pairs taken, at most `max`.
inline std::vector<std::pair<int, float>>
Select(const std::vector<float> &boxes, std::vector<float> scores, int max,
       float iou, float threshold, float sigma) {
  std::vector<bool> alive(scores.size(), true);
  std::vector<std::pair<int, float>> picked;
  while ((int)picked.size() < max) {
    int best = -1;
    for (size_t i = 0; i < scores.size(); ++i)
      if (alive[i] && scores[i] > threshold &&
          (best < 0 || scores[i] > scores[best]))
        best = int(i);
    if (best < 0)
      break;
    picked.push_back({best, scores[best]});
    alive[best] = false;
    for (size_t i = 0; i < scores.size(); ++i) {
      if (!alive[i])
        continue;
      float o = Iou(&boxes[4 * i], &boxes[4 * best]);
      if (sigma > 0)
        scores[i] *= std::exp(-0.5f * o * o / sigma);
      else if (o > iou)
        alive[i] = false;
    }
  }
  return picked;
}

} // namespace nms_reference

#endif // TFAOT_BENCH_NMS_REFERENCE_H
