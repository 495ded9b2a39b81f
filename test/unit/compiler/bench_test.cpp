//===- bench_test.cpp - tfaot bench's recommendation and plot -------------===//
// SPDX-License-Identifier: Apache-2.0
#include "compiler/Bench.h"

#include <gtest/gtest.h>

using tfaot::BenchPoint;

namespace {

BenchPoint point(int64_t batch, double medianMs, double p90Ms) {
  BenchPoint p;
  p.batch = batch;
  p.medianMs = medianMs;
  p.p90Ms = p90Ms;
  p.itemsPerSecond = batch * 1000.0 / medianMs;
  return p;
}

// Throughput 100, 160, 200, 202.5 items/s: 8 is within 2% of 4's, so the
// smaller batch wins the near-tie; a 30 ms budget excludes 4 and 8.
const std::vector<BenchPoint> kCurve = {
    point(1, 10.0, 11.0), point(2, 12.5, 14.0), point(4, 20.0, 31.0),
    point(8, 39.5, 45.0)};

TEST(BenchRecommendation, MostThroughputWithoutBudget) {
  EXPECT_EQ(tfaot::recommendBatch(kCurve, 0), 4);
}

TEST(BenchRecommendation, LatencyBudgetExcludesSlowBatches) {
  EXPECT_EQ(tfaot::recommendBatch(kCurve, 30.0), 2);
  EXPECT_EQ(tfaot::recommendBatch(kCurve, 11.0), 1);
}

TEST(BenchRecommendation, NoneWithinBudget) {
  EXPECT_EQ(tfaot::recommendBatch(kCurve, 5.0), -1);
  EXPECT_EQ(tfaot::recommendBatch({}, 0), -1);
}

TEST(BenchPlot, OnePointPerBatchOnEachCurve) {
  std::string svg = tfaot::plotSvg(kCurve, "test <model>");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  // Two polylines (items/s, p90 ms), each with a marker per batch size.
  size_t circles = 0;
  for (size_t at = 0; (at = svg.find("<circle", at)) != std::string::npos;
       ++at)
    ++circles;
  EXPECT_EQ(circles, 2 * kCurve.size());
  // The title is escaped for XML.
  EXPECT_NE(svg.find("test &lt;model&gt;"), std::string::npos);
}

} // namespace
