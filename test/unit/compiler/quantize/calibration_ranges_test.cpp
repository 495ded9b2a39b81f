//===- calibration_ranges_test.cpp - percentile and entropy ranges --------===//
// SPDX-License-Identifier: Apache-2.0
//
// The histograms are built here from densities whose best ranges are known
// in shape: a uniform distribution (nothing to clip), a half-normal one
// with a few far outliers (clip them, keep the bulk), a symmetric normal
// one with outliers on both sides (clip both, evenly).
//
//===----------------------------------------------------------------------===//
#include "compiler/quantize/CalibrationRanges.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tfaot {
namespace {

constexpr size_t kBins = 4096;

/// A histogram of `total` values over [min, max] with density `density`
/// (unnormalized) at each bin's center.
template <typename Density>
ValueHistogram fromDensity(float min, float max, double total,
                           Density density) {
  ValueHistogram h{min, max, std::vector<uint64_t>(kBins, 0)};
  double width = (double(max) - min) / kBins, sum = 0;
  std::vector<double> weights(kBins);
  for (size_t j = 0; j < kBins; ++j)
    sum += weights[j] = density(min + (j + 0.5) * width);
  for (size_t j = 0; j < kBins; ++j)
    h.histogram[j] = static_cast<uint64_t>(std::llround(total * weights[j] / sum));
  return h;
}

/// |N(0, 0.5)| over [0, 10] (99.99% below 2) and 50 of 1e6 values at 10
/// (the last bin): a bulk with far outliers.
ValueHistogram halfNormalWithOutliers() {
  ValueHistogram h = fromDensity(0.0f, 10.0f, 1e6, [](double x) {
    return std::exp(-x * x / (2 * 0.25));
  });
  h.histogram.back() += 50;
  return h;
}

TEST(EntropyRange, KeepsTheWholeRangeOfAUniformDistribution) {
  ValueHistogram h = fromDensity(0.0f, 1.0f, 1e6, [](double) { return 1.0; });
  auto [low, high] = entropyRange(h);
  EXPECT_EQ(low, 0.0f);
  EXPECT_FLOAT_EQ(high, 1.0f);
}

TEST(EntropyRange, ClipsFarOutliersOfAHalfNormal) {
  ValueHistogram h = halfNormalWithOutliers();
  auto [low, high] = entropyRange(h);
  EXPECT_EQ(low, 0.0f);
  // Min/max would spend 8 bits on [0, 10], 0.04 per step, coarser than a
  // tenth of the bulk's scale; the entropy range clips the outliers but
  // keeps nearly all of the bulk (99.7% of |N(0, 0.5)| lies below 1.5).
  EXPECT_GT(high, 1.5f);
  EXPECT_LT(high, 4.0f);
}

TEST(EntropyRange, IgnoresTheExactZerosOfAReLU) {
  // A ReLU's output: the half-normal above, and as many exact zeros. The
  // zeros land in the first bin; counted as values, that spike favours
  // narrow candidates (finer steps around it) and the range clips more of
  // the bulk (1.23 here, against 2.13 without the zeros).
  ValueHistogram h = halfNormalWithOutliers();
  h.histogram.front() += 1000000;
  h.zeros = 1000000;
  auto [low, high] = entropyRange(h);
  EXPECT_EQ(low, 0.0f);
  EXPECT_GT(high, 1.5f);
  EXPECT_LT(high, 4.0f);
  // The same histogram without the count of zeros.
  h.zeros = 0;
  EXPECT_LT(entropyRange(h).second, 1.5f);
}

TEST(EntropyRange, ClipsBothTailsOfASymmetricDistributionAlike) {
  // N(0, 1) over [-16, 16] and outliers at both ends.
  ValueHistogram h = fromDensity(-16.0f, 16.0f, 1e6, [](double x) {
    return std::exp(-x * x / 2);
  });
  h.histogram.front() += 30;
  h.histogram.back() += 30;
  auto [low, high] = entropyRange(h);
  EXPECT_LT(high, 12.0f);
  EXPECT_GT(high, 3.0f);
  // Both ends shrink toward zero by the same factor (to a bin).
  EXPECT_NEAR(-low, high, 2 * 32.0 / kBins);
}

TEST(EntropyRange, KeepsZeroInside) {
  // Values in [2, 3]: the candidates grow from zero, so the range starts at
  // the histogram's own start.
  ValueHistogram h = fromDensity(2.0f, 3.0f, 1e5, [](double x) {
    return std::exp(-(x - 2) * 4);
  });
  auto [low, high] = entropyRange(h);
  EXPECT_EQ(low, 2.0f);
  EXPECT_GT(high, 2.0f);
  EXPECT_LE(high, 3.0f);
}

TEST(EntropyRange, FallsBackToMinMaxWithoutAHistogram) {
  ValueHistogram empty{-1.0f, 2.0f, {}};
  EXPECT_EQ(entropyRange(empty), std::make_pair(-1.0f, 2.0f));
  ValueHistogram constant{0.5f, 0.5f, std::vector<uint64_t>(kBins, 0)};
  constant.histogram[0] = 10;
  EXPECT_EQ(entropyRange(constant), std::make_pair(0.5f, 0.5f));
}

TEST(PercentileRange, LeavesOutTheRarestValuesAtEachEnd) {
  // 4096 bins of 1000 values over [0, 4096]: 99% keeps all but about 41
  // bins at each end.
  ValueHistogram h{0.0f, 4096.0f, std::vector<uint64_t>(kBins, 1000)};
  auto [low, high] = percentileRange(h, 99.0);
  EXPECT_NEAR(low, 41.0f, 1.0f);
  EXPECT_NEAR(high, 4096.0f - 41.0f, 1.0f);
  EXPECT_EQ(percentileRange(h, 100.0), std::make_pair(0.0f, 4096.0f));
}

} // namespace
} // namespace tfaot
