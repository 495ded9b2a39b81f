//===- CalibrationRanges.cpp - Activation ranges from a histogram ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/quantize/CalibrationRanges.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tfaot {

std::pair<float, float> percentileRange(const ValueHistogram &values,
                                        double percentile) {
  const std::vector<uint64_t> &histogram = values.histogram;
  const size_t bins = histogram.size();
  if (bins == 0)
    return {values.min, values.max};
  uint64_t total = 0;
  for (uint64_t c : histogram)
    total += c;
  double tail = total * (100.0 - percentile) / 100.0;
  float width = (values.max - values.min) / bins;
  size_t low = 0, high = bins - 1;
  for (uint64_t seen = 0; low < bins; ++low) {
    seen += histogram[low];
    if (seen > tail)
      break;
  }
  for (uint64_t seen = 0; high > 0; --high) {
    seen += histogram[high];
    if (seen > tail)
      break;
  }
  return {values.min + low * width, values.min + (high + 1) * width};
}

namespace {

// int8 has 256 values: a candidate range is quantized into this many steps.
constexpr size_t kLevels = 256;

/// KL(P || Q) for the bins [first, last) of `histogram` as the candidate
/// range: P is those bins with everything outside added to the two edge
/// bins (what clipping does to the values), Q the same bins without the
/// outliers merged into kLevels groups, each group's count spread evenly
/// over the group's bins where P is not zero (what 8-bit steps keep of the
/// distribution). A bin where P has values and Q none (outliers clipped
/// into an empty edge bin) gets a small share, so that clipping costs
/// instead of dividing by zero.
double divergence(const std::vector<uint64_t> &histogram, size_t first,
                  size_t last) {
  const size_t n = last - first;
  std::vector<double> p(histogram.begin() + first, histogram.begin() + last);
  std::vector<double> q(n, 0.0);
  for (size_t level = 0; level < kLevels; ++level) {
    size_t begin = level * n / kLevels, end = (level + 1) * n / kLevels;
    double sum = 0;
    size_t nonzero = 0;
    for (size_t j = begin; j < end; ++j) {
      sum += p[j];
      nonzero += p[j] > 0;
    }
    for (size_t j = begin; j < end; ++j)
      q[j] = p[j] > 0 ? sum / nonzero : 0.0;
  }
  for (size_t j = 0; j < first; ++j)
    p.front() += histogram[j];
  for (size_t j = last; j < histogram.size(); ++j)
    p.back() += histogram[j];

  double pTotal = 0, qTotal = 0;
  for (size_t j = 0; j < n; ++j) {
    pTotal += p[j];
    qTotal += q[j];
  }
  if (pTotal == 0)
    return 0;
  // Q's missing mass where P has some: 1e-4 of the total each (MXNet's and
  // TensorRT's smoothing), the rest scaled to keep Q a distribution.
  constexpr double kSmoothing = 1e-4;
  size_t missing = 0;
  for (size_t j = 0; j < n; ++j)
    missing += p[j] > 0 && q[j] == 0;
  double qScale = qTotal > 0 ? (1.0 - kSmoothing * missing) / qTotal : 0.0;
  double kl = 0;
  for (size_t j = 0; j < n; ++j) {
    if (p[j] == 0)
      continue;
    double pj = p[j] / pTotal;
    double qj = q[j] > 0 ? q[j] * qScale : kSmoothing;
    kl += pj * std::log(pj / qj);
  }
  return kl;
}

} // namespace

std::pair<float, float> entropyRange(const ValueHistogram &values) {
  const size_t bins = values.histogram.size();
  if (bins < kLevels || !(values.max > values.min))
    return {values.min, values.max};
  const double width = (double(values.max) - values.min) / bins;
  std::vector<uint64_t> histogram = values.histogram;
  if (values.min <= 0 && values.max >= 0) {
    size_t zeroBin = values.binOf(0.0f);
    histogram[zeroBin] -= std::min(histogram[zeroBin], values.zeros);
  }
  // The widest candidate holds zero; in bins from the histogram's start.
  const double low = std::min(0.0, double(values.min)) - values.min;
  const double high = std::max(0.0, double(values.max)) - values.min;
  const double zero = -double(values.min);
  // Candidates [zero + (low - zero) f, zero + (high - zero) f] from f = 1
  // down, about 512 of them, until one would span fewer than kLevels bins.
  const double span = (high - low) / width;
  const size_t steps = 512;
  double best = std::numeric_limits<double>::infinity();
  std::pair<float, float> range = {values.min, values.max};
  for (size_t step = 0; step < steps; ++step) {
    double f = 1.0 - double(step) / steps;
    if (span * f < kLevels)
      break;
    double from = (zero + (low - zero) * f) / width;
    double to = (zero + (high - zero) * f) / width;
    size_t first = static_cast<size_t>(std::max(0.0, std::floor(from)));
    size_t last = std::min(bins, static_cast<size_t>(std::ceil(to)));
    if (last <= first || last - first < kLevels)
      continue;
    double kl = divergence(histogram, first, last);
    // Strictly smaller: on ties the wider range (less clipping) stays.
    if (kl < best - 1e-12) {
      best = kl;
      range = {static_cast<float>(values.min + first * width),
               static_cast<float>(values.min + last * width)};
    }
  }
  return range;
}

} // namespace tfaot
