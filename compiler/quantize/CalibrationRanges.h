//===- CalibrationRanges.h - Activation ranges from a histogram -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// --quantize=int8 maps each quantized layer's input range [low, high] onto
// the 256 int8 values. --calibration_method picks that range from what the
// calibration samples showed:
//   minmax      everything seen, [min, max];
//   percentile  the range that leaves out the rarest (100 - P)% of the
//               values at each end;
//   entropy     the range whose 8-bit version of the value distribution
//               loses the least information (Kullback-Leibler divergence),
//               as TensorRT's entropy calibrator chooses it: clipping a few
//               outliers buys finer steps for all the other values.
// The last two read a histogram of the values over [min, max].
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_QUANTIZE_CALIBRATIONRANGES_H
#define TFAOT_COMPILER_QUANTIZE_CALIBRATIONRANGES_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tfaot {

/// What the calibration saw of one tensor: its extremes and, for the
/// histogram methods, the counts of `histogram.size()` equal bins that
/// split [min, max], and how many of the values were exactly zero.
struct ValueHistogram {
  float min = 0, max = 0;
  std::vector<uint64_t> histogram;
  uint64_t zeros = 0;

  /// The bin `value` falls in (values past max in the last); the one
  /// formula both counting and entropyRange's zero bin use.
  size_t binOf(float value) const {
    float width = (max - min) / histogram.size();
    size_t bin = width > 0 ? static_cast<size_t>((value - min) / width) : 0;
    return std::min(bin, histogram.size() - 1);
  }
  /// Counts `value` (the histogram sized already).
  void add(float value) {
    ++histogram[binOf(value)];
    zeros += value == 0.0f;
  }
};

/// The [low, high] range that keeps `percentile` % of the values at each
/// end's tail out (to the histogram's bin edges).
std::pair<float, float> percentileRange(const ValueHistogram &values,
                                        double percentile);

/// The range of least Kullback-Leibler divergence between the values'
/// histogram and its 256-level quantization (file comment). The candidates
/// shrink [min(0, min), max(0, max)] toward zero by a common factor, so
/// that both tails are clipped in proportion and zero stays inside; each
/// spans at least 256 bins. Exact zeros (half of a ReLU's outputs) are
/// left out: zero is exact at any range, and their spike in one bin would
/// otherwise make the narrowest ranges, whose steps are finest around it,
/// look best. Returns [min, max] itself where nothing beats it (a
/// histogram without outliers).
std::pair<float, float> entropyRange(const ValueHistogram &values);

} // namespace tfaot

#endif // TFAOT_COMPILER_QUANTIZE_CALIBRATIONRANGES_H
