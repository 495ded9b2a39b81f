// SPDX-License-Identifier: Apache-2.0
// Runs data_dependent.pbtxt (NonMaxSuppressionV3/V4/V5, Where and their
// consumers), compiled with the results listed in run-data-dependent.test,
// on hand-made cases whose expected outputs the test derives by hand, and
// prints every result with the dims result_dims() reports. Then checks
// NonMaxSuppressionV3 and V5 on random boxes (scores drawn from a few
// values, so with ties) against the naive definitions of
// bench/nms/nms_reference.h.
#include MODEL_HEADER

#include "nms_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

const char *const kNames[] = {"nms3",      "nms4",       "nms4:1",
                              "nms4pad",   "nms4pad:1",  "nms5",
                              "nms5:1",    "nms5:2",     "det_boxes",
                              "det_scaled", "where",     "where_cast",
                              "where_bool"};

void Show(const MODEL_CLASS &model, int i) {
  const int64_t *dims = model.result_dims(i);
  const int rank = model.result_info(i).rank;
  std::string text = std::string("  ") + kNames[i] +
                     (model.result_is_bounded(i) ? " bounded [" : " [");
  for (int d = 0; d < rank; ++d)
    text += (d ? "," : "") + std::to_string(dims[d]);
  text += "]:";
  const int64_t n = model.result_num_elements(i);
  const void *data = model.result_data(i);
  char buffer[32];
  for (int64_t e = 0; e < n; ++e) {
    switch (model.result_info(i).dtype) {
    case tfaot::DType::kFloat32:
      std::snprintf(buffer, sizeof buffer, " %.4f",
                    static_cast<const float *>(data)[e]);
      break;
    case tfaot::DType::kInt64:
      std::snprintf(buffer, sizeof buffer, " %lld",
                    (long long)static_cast<const int64_t *>(data)[e]);
      break;
    default:
      std::snprintf(buffer, sizeof buffer, " %d",
                    static_cast<const int32_t *>(data)[e]);
    }
    text += buffer;
  }
  std::printf("%s\n", text.c_str());
}

void Set(MODEL_CLASS &model, const std::vector<float> &boxes,
         const std::vector<float> &scores, float iou,
         const std::vector<float> &mask) {
  std::copy(boxes.begin(), boxes.end(), model.arg0_data());
  std::copy(scores.begin(), scores.end(), model.arg1_data());
  *model.arg2_data() = iou;
  std::copy(mask.begin(), mask.end(), model.arg3_data());
}

void RunCase(MODEL_CLASS &model, const char *name) {
  std::printf("case %s\n", name);
  if (!model.Run()) {
    std::printf("  Run failed: %s\n", model.error_msg().c_str());
    return;
  }
  for (int i = 0; i < MODEL_CLASS::kNumResults; ++i)
    Show(model, i);
}

/// Boxes as [y1, x1, y2, x2] with the corners swapped.
std::vector<float> Flip(const std::vector<float> &boxes) {
  std::vector<float> out(boxes);
  for (size_t b = 0; b < boxes.size(); b += 4) {
    std::swap(out[b], out[b + 2]);
    std::swap(out[b + 1], out[b + 3]);
  }
  return out;
}

/// Random boxes on a coarse grid (so that many overlap) and scores from
/// {0.1, ..., 0.5} (so that many tie); NonMaxSuppressionV3 (max 4) and V5
/// (max 6, sigma 0.5) against the reference.
bool RandomTrials(MODEL_CLASS &model, int trials) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> coord(0, 4), level(1, 5);
  int tied = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<float> boxes(24), scores(6), mask(6, 0.0f);
    for (float &c : boxes)
      c = float(coord(rng));
    for (float &s : scores)
      s = 0.1f * float(level(rng));
    std::vector<float> sorted(scores);
    std::sort(sorted.begin(), sorted.end());
    tied += std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
    Set(model, boxes, scores, 0.4f, mask);
    if (!model.Run()) {
      std::printf("trial %d: Run failed: %s\n", t, model.error_msg().c_str());
      return false;
    }
    auto hard = nms_reference::Select(boxes, scores, 4, 0.4f, 0.0f, 0.0f);
    auto soft = nms_reference::Select(boxes, scores, 6, 0.4f, 0.0f, 0.5f);
    bool ok = model.result0_dims()[0] == (int64_t)hard.size() &&
              model.result5_dims()[0] == (int64_t)soft.size();
    for (size_t i = 0; ok && i < hard.size(); ++i)
      ok = model.result0_data()[i] == hard[i].first;
    for (size_t i = 0; ok && i < soft.size(); ++i)
      ok = model.result5_data()[i] == soft[i].first &&
           std::fabs(model.result6_data()[i] - soft[i].second) < 1e-5f;
    if (!ok) {
      std::printf("trial %d: differs from the reference\n", t);
      return false;
    }
  }
  std::printf("random: %d trials match the reference (%d with tied scores)\n",
              trials, tied);
  return true;
}

} // namespace

int main() {
  MODEL_CLASS model;
  // b1 overlaps b0 (IoU 0.9 / 1.1 = 0.818); b2 and b3 tie; b4 is b3 with
  // its corners swapped; b5 scores below the threshold.
  const std::vector<float> boxes = {0, 0,  1, 1,  0, 0.1f, 1, 1.1f,
                                    0, 10, 1, 11, 0, 20,   1, 21,
                                    1, 21, 0, 20, 0, 30,   1, 31};
  const std::vector<float> scores = {0.9f, 0.75f, 0.6f, 0.6f, 0.3f, -0.1f};
  Set(model, boxes, scores, 0.5f, {0, 1, 0.25f, 2, 0, -0.0f});
  RunCase(model, "mixed");
  Set(model, Flip(boxes), scores, 0.5f, {0, 1, 0.25f, 2, 0, -0.0f});
  RunCase(model, "flipped");

  const std::vector<float> falling = {0.9f, 0.8f, 0.7f, 0.6f, 0.5f, 0.4f};
  std::vector<float> same;
  for (int b = 0; b < 6; ++b)
    same.insert(same.end(), {0, 0, 1, 1});
  Set(model, same, falling, 0.5f, std::vector<float>(6, 0.0f));
  RunCase(model, "identical");

  Set(model, boxes, {0, -1, -0.5f, 0, -2, -0.1f}, 0.5f,
      std::vector<float>(6, 1.0f));
  RunCase(model, "below threshold");

  std::vector<float> flat;
  for (int b = 0; b < 6; ++b)
    flat.insert(flat.end(), {0, 0, 0, 1});
  Set(model, flat, falling, 0.5f, {0, 0, 0, 0, 0, 3});
  RunCase(model, "zero area");

  Set(model, boxes, scores, 1.5f, std::vector<float>(6, 0.0f));
  RunCase(model, "bad iou");

  return RandomTrials(model, 300) ? 0 : 1;
}
