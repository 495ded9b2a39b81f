//===- data_dependent.cpp - NonMaxSuppression and Where -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot_rt_non_max_suppression and tfaot_rt_where (data_dependent.h). Both
// write a buffer sized for the compile-time bound and zero what they do not
// fill, since that buffer may be arena memory last used by another op.
//
// NMS costs O(N log N) for the ordering plus, per visited candidate, one
// IoU per box selected so far: O(N * selected), never all pairs. Hard NMS
// never changes a score, so one sorted pass visits candidates in the same
// order TensorFlow's priority queue pops them, and compares each with the
// selected boxes a block of 64 at a time, newest first (a vectorized loop;
// the result is the same as stopping at the first overlap); soft NMS
// re-ranks decayed candidates and keeps the queue.
//
//===----------------------------------------------------------------------===//
#include "tfaot/runtime/data_dependent.h"

#include "run_status.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <queue>
#include <string>
#include <vector>

namespace {

/// A box with its corners ordered (TF takes any two opposite corners) and
/// its area, computed once instead of per pair.
struct Box {
  float ymin, xmin, ymax, xmax, area;
};

std::vector<Box> NormalizeBoxes(const float *boxes, int64_t n) {
  std::vector<Box> out(n);
  for (int64_t i = 0; i < n; ++i) {
    const float *b = boxes + 4 * i;
    Box &o = out[i];
    o.ymin = std::min(b[0], b[2]);
    o.ymax = std::max(b[0], b[2]);
    o.xmin = std::min(b[1], b[3]);
    o.xmax = std::max(b[1], b[3]);
    o.area = (o.ymax - o.ymin) * (o.xmax - o.xmin);
  }
  return out;
}

/// Intersection over union; 0 when either box is empty (TF's convention,
/// which also keeps 0/0 out).
float IoU(const Box &a, const Box &b) {
  if (a.area <= 0 || b.area <= 0)
    return 0.0f;
  float h = std::max(std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin), 0.0f);
  float w = std::max(std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin), 0.0f);
  float inter = h * w;
  return inter / (a.area + b.area - inter);
}

/// Selection so far: box indices and their (possibly decayed) scores.
struct Selection {
  std::vector<int32_t> indices;
  std::vector<float> scores;
};

/// The selected boxes as separate arrays, so that one candidate's IoUs with
/// a block of them are computed in one loop the compiler vectorizes.
struct SelectedBoxes {
  std::vector<float> ymin, xmin, ymax, xmax, area;
  void Add(const Box &b) {
    ymin.push_back(b.ymin), xmin.push_back(b.xmin), ymax.push_back(b.ymax),
        xmax.push_back(b.xmax), area.push_back(b.area);
  }
  /// Whether `c` overlaps one of the selected boxes [begin, end) by more
  /// than `threshold`: the same IoU as IoU(), without the early exit.
  bool AnyOverlap(const Box &c, size_t begin, size_t end,
                  float threshold) const {
    if (c.area <= 0)
      return false;
    bool any = false;
    for (size_t j = begin; j < end; ++j) {
      float h = std::max(std::min(c.ymax, ymax[j]) - std::max(c.ymin, ymin[j]),
                         0.0f);
      float w = std::max(std::min(c.xmax, xmax[j]) - std::max(c.xmin, xmin[j]),
                         0.0f);
      float inter = h * w;
      float iou = inter / (c.area + area[j] - inter);
      any |= (area[j] > 0) & (iou > threshold);
    }
    return any;
  }
};

/// Hard NMS: candidates in (score desc, index asc) order, each kept unless
/// it overlaps a kept box by more than `iou_threshold`. Recently kept boxes
/// are the likeliest to overlap (similar scores), so they are tried first,
/// a block at a time.
void HardNms(const std::vector<Box> &boxes, const float *scores,
             std::vector<int32_t> &candidates, float iou_threshold,
             int64_t limit, Selection &out) {
  constexpr size_t kBlock = 64;
  std::sort(candidates.begin(), candidates.end(), [&](int32_t a, int32_t b) {
    return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
  });
  SelectedBoxes selected;
  for (int32_t c : candidates) {
    if (static_cast<int64_t>(out.indices.size()) >= limit)
      break;
    bool suppressed = false;
    for (size_t end = out.indices.size(); end > 0 && !suppressed;) {
      size_t begin = end > kBlock ? end - kBlock : 0;
      suppressed = selected.AnyOverlap(boxes[c], begin, end, iou_threshold);
      end = begin;
    }
    if (!suppressed) {
      out.indices.push_back(c);
      out.scores.push_back(scores[c]);
      selected.Add(boxes[c]);
    }
  }
}

/// Soft NMS: a candidate popped with its score unchanged since it was last
/// ranked is selected; otherwise its decayed score goes back in the queue,
/// while still above the threshold. `compared` remembers how many selected
/// boxes have already decayed it, so each pair decays it at most once.
void SoftNms(const std::vector<Box> &boxes, const float *scores,
             const std::vector<int32_t> &candidates, float score_threshold,
             float sigma, int64_t limit, Selection &out) {
  struct Candidate {
    int32_t index;
    float score;
    size_t compared;
  };
  auto lower = [](const Candidate &a, const Candidate &b) {
    return a.score < b.score || (a.score == b.score && a.index > b.index);
  };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(lower)>
      queue(lower);
  for (int32_t c : candidates)
    queue.push({c, scores[c], 0});
  const float scale = -0.5f / sigma;
  while (static_cast<int64_t>(out.indices.size()) < limit && !queue.empty()) {
    Candidate next = queue.top();
    queue.pop();
    const float ranked = next.score;
    for (size_t j = out.indices.size(); j-- > next.compared;) {
      float iou = IoU(boxes[next.index], boxes[out.indices[j]]);
      next.score *= std::exp(scale * iou * iou);
      if (next.score <= score_threshold)
        break;
    }
    next.compared = out.indices.size();
    if (next.score == ranked) {
      out.indices.push_back(next.index);
      out.scores.push_back(next.score);
    } else if (next.score > score_threshold) {
      queue.push(next);
    }
  }
}

void Fail(const char *node, const std::string &why) {
  tfaot::internal::ReportRunError("node '" + std::string(node) + "': " + why);
}

} // namespace

extern "C" void tfaot_rt_non_max_suppression(
    const float *boxes, const float *scores, const void *max_output_size,
    const float *iou_threshold, const float *score_threshold,
    const float *soft_nms_sigma, int32_t *indices, float *selected_scores,
    int32_t *count, const char *node, int64_t n, int64_t bound,
    int64_t max_size_bytes) {
  std::memset(indices, 0, sizeof(int32_t) * bound);
  std::memset(selected_scores, 0, sizeof(float) * bound);
  *count = 0;
  int64_t max_size = 0;
  if (max_size_bytes == 8)
    std::memcpy(&max_size, max_output_size, 8);
  else {
    int32_t v;
    std::memcpy(&v, max_output_size, 4);
    max_size = v;
  }
  const float iou = *iou_threshold, sigma = *soft_nms_sigma;
  if (max_size < 0)
    return Fail(node, "max_output_size must be non-negative, got " +
                          std::to_string(max_size));
  if (!(iou >= 0.0f && iou <= 1.0f))
    return Fail(node, "iou_threshold must be in [0, 1], got " +
                          std::to_string(iou));
  if (!(sigma >= 0.0f))
    return Fail(node, "soft_nms_sigma must be non-negative, got " +
                          std::to_string(sigma));

  const float threshold = *score_threshold;
  std::vector<int32_t> candidates;
  candidates.reserve(n);
  for (int64_t i = 0; i < n; ++i)
    if (scores[i] > threshold)
      candidates.push_back(static_cast<int32_t>(i));
  std::vector<Box> normalized = NormalizeBoxes(boxes, n);
  const int64_t limit = std::min(max_size, bound);
  Selection selection;
  if (sigma > 0.0f)
    SoftNms(normalized, scores, candidates, threshold, sigma, limit,
            selection);
  else
    HardNms(normalized, scores, candidates, iou, limit, selection);
  std::copy(selection.indices.begin(), selection.indices.end(), indices);
  std::copy(selection.scores.begin(), selection.scores.end(),
            selected_scores);
  *count = static_cast<int32_t>(selection.indices.size());
}

namespace {

bool NonZero(const unsigned char *p, int64_t bytes, int64_t kind) {
  switch (kind) {
  case tfaot::kWhereFloat32: {
    float v;
    std::memcpy(&v, p, 4);
    return v != 0.0f;
  }
  case tfaot::kWhereFloat64: {
    double v;
    std::memcpy(&v, p, 8);
    return v != 0.0;
  }
  case tfaot::kWhereFloat16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return (v & 0x7fff) != 0;
  }
  default:
    for (int64_t i = 0; i < bytes; ++i)
      if (p[i])
        return true;
    return false;
  }
}

} // namespace

extern "C" void tfaot_rt_where(const void *input, const int64_t *dims,
                               int64_t *index, int32_t *count, int64_t rank,
                               int64_t element_bytes, int64_t element_kind) {
  int64_t elements = 1;
  for (int64_t d = 0; d < rank; ++d)
    elements *= dims[d];
  std::memset(index, 0, sizeof(int64_t) * elements * rank);
  const auto *bytes = static_cast<const unsigned char *>(input);
  std::vector<int64_t> coord(rank, 0);
  int64_t found = 0;
  for (int64_t e = 0; e < elements; ++e) {
    if (NonZero(bytes + e * element_bytes, element_bytes, element_kind)) {
      std::copy(coord.begin(), coord.end(), index + found * rank);
      ++found;
    }
    // Next coordinate in row-major order.
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++coord[d] < dims[d])
        break;
      coord[d] = 0;
    }
  }
  *count = static_cast<int32_t>(found);
}
