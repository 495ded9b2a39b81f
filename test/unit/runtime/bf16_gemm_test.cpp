//===- bf16_gemm_test.cpp - Tests for tfaot_rt_mmt4d_bf16bf16f32 ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// The bf16 product's paths against a double-precision product of the same
// bf16 values. A bf16 times a bf16 is exact in float32 (8 x 8 significant
// bits), so the only rounding is the float32 summation: each path is within
// float32 rounding of the sum of |a * b| terms (2^-24 per addition, times k
// additions, times a margin of 4). The portable path is what a CPU without
// AVX512-BF16 runs, so its test runs everywhere; the vdpbf16ps path's test
// is skipped (with a message) on CPUs without it.
//
//===----------------------------------------------------------------------===//

#include "runtime/lib/bf16_gemm.h"
#include "tfaot/runtime/run_hooks.h"
#include "tfaot/runtime/thread_pool.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

using tfaot::internal::Bf16Path;
using tfaot::internal::Bf16PathAvailable;
using tfaot::internal::Bf16ToFloat;
using tfaot::internal::Mmt4dBf16;
using tfaot::internal::RoundToBf16;

/// lhs [m][k] and rhs [k][n] as bf16, with their packed forms.
struct Product {
  int64_t m, n, k, n1, k1;
  std::vector<uint16_t> a, b; // row-major [m][k], [k][n]
  std::vector<uint16_t> lhs, rhs;

  static Product Random(std::mt19937 &rng, int64_t m, int64_t n, int64_t k) {
    Product p{m, n, k, (n + 15) / 16, (k + 1) / 2, {}, {}, {}, {}};
    std::uniform_real_distribution<float> value(-2.f, 2.f);
    for (int64_t i = 0; i < m * k; ++i)
      p.a.push_back(RoundToBf16(value(rng)));
    for (int64_t i = 0; i < k * n; ++i)
      p.b.push_back(RoundToBf16(value(rng)));
    // [m][k1][2], zero past k; [n1][k1][16][2], zero past k and n.
    p.lhs.assign(m * p.k1 * 2, 0);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < k; ++c)
        p.lhs[r * p.k1 * 2 + c] = p.a[r * k + c];
    p.rhs.assign(p.n1 * p.k1 * 32, 0);
    for (int64_t r = 0; r < k; ++r)
      for (int64_t c = 0; c < n; ++c)
        p.rhs[(((c / 16) * p.k1 + r / 2) * 16 + c % 16) * 2 + r % 2] =
            p.b[r * n + c];
    return p;
  }

  /// out[i][j] (row stride 16 * n1) against the double product plus `init`.
  void Check(const std::vector<float> &out, const std::vector<float> &init,
             const char *what) const {
    const int64_t ldo = n1 * 16;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = init[i * ldo + j], magnitude = std::fabs(sum);
        for (int64_t kk = 0; kk < k; ++kk) {
          double term = double(Bf16ToFloat(a[i * k + kk])) *
                        double(Bf16ToFloat(b[kk * n + j]));
          sum += term;
          magnitude += std::fabs(term);
        }
        double bound = 4.0 * (k + 1) * magnitude * std::ldexp(1.0, -24);
        ASSERT_NEAR(out[i * ldo + j], sum, bound)
            << what << " at [" << i << "][" << j << "] of " << m << "x" << n
            << "x" << k;
      }
  }
};

void RunPath(Bf16Path path, const char *name) {
  std::mt19937 rng(29);
  // Shapes with partial register blocks (rows % 6, tiles % 4), odd k,
  // n not a multiple of 16, one row group and several (96 rows each).
  // For AMX: k1 a multiple of 16 pairs and not, rows past 16, 32 and 64
  // (partial tile rows and row blocks), an odd number of column tiles.
  const int64_t shapes[][3] = {{1, 16, 2},    {7, 33, 5},     {13, 100, 64},
                               {49, 512, 46}, {200, 70, 147}, {1, 1000, 40},
                               {17, 48, 32},  {33, 80, 96},   {70, 40, 1}};
  for (const auto &shape : shapes) {
    Product p = Product::Random(rng, shape[0], shape[1], shape[2]);
    const int64_t size = p.m * p.n1 * 16;
    // Overwrite: what was in `out` is ignored (NaN here).
    std::vector<float> out(size, std::numeric_limits<float>::quiet_NaN());
    Mmt4dBf16(path, p.lhs.data(), p.rhs.data(), out.data(), p.m, p.n1, p.k1,
              /*overwrite=*/true);
    p.Check(out, std::vector<float>(size, 0.0f), name);
    // Accumulate: the sums are added to what `out` holds.
    std::vector<float> init(size);
    for (int64_t i = 0; i < size; ++i)
      init[i] = static_cast<float>(i % 7) - 3.0f;
    out = init;
    Mmt4dBf16(path, p.lhs.data(), p.rhs.data(), out.data(), p.m, p.n1, p.k1,
              /*overwrite=*/false);
    p.Check(out, init, name);
  }
}

TEST(Bf16Gemm, PortablePathRunsEverywhere) {
  RunPath(Bf16Path::Portable, "portable");
}

TEST(Bf16Gemm, Avx512Bf16Path) {
  if (!Bf16PathAvailable(Bf16Path::Avx512Bf16))
    GTEST_SKIP() << "this CPU has no AVX512-BF16 (avx512_bf16 in "
                    "/proc/cpuinfo): the portable path is what runs here";
  RunPath(Bf16Path::Avx512Bf16, "avx512bf16");
}

TEST(Bf16Gemm, AmxPath) {
  if (!Bf16PathAvailable(Bf16Path::Amx))
    GTEST_SKIP() << "no AMX-BF16 here (amx_bf16 in /proc/cpuinfo, Linux "
                    "5.16+, TFAOT_DISABLE_AMX unset): AVX512-BF16 or the "
                    "portable path is what runs here";
  RunPath(Bf16Path::Amx, "amx");
}

TEST(Bf16Gemm, SplitOverThreadsGivesTheSameBits) {
  std::mt19937 rng(7);
  Product p = Product::Random(rng, 300, 200, 96);
  const int64_t size = p.m * p.n1 * 16;
  std::vector<float> alone(size), pooled(size);
  Bf16Path path = tfaot::internal::BestBf16Path();
  Mmt4dBf16(path, p.lhs.data(), p.rhs.data(), alone.data(), p.m, p.n1, p.k1,
            true);
  tfaot::ThreadPool pool(2);
  {
    tfaot::internal::ScopedThreadPool scoped(&pool);
    Mmt4dBf16(path, p.lhs.data(), p.rhs.data(), pooled.data(), p.m, p.n1,
              p.k1, true);
  }
  // Each output element is summed by one thread in one order either way.
  EXPECT_EQ(0, std::memcmp(alone.data(), pooled.data(), size * sizeof(float)));
}

TEST(Bf16Gemm, RoundsToNearestEven) {
  // 1 + 2^-8 is halfway between bf16 1 and 1 + 2^-7: ties to even (1).
  EXPECT_EQ(RoundToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: to 1 + 2^-6.
  EXPECT_EQ(RoundToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  // Just above the first halfway point rounds up.
  EXPECT_EQ(RoundToBf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)),
            0x3F81);
  EXPECT_EQ(RoundToBf16(-2.0f), 0xC000);
  EXPECT_TRUE(std::isnan(Bf16ToFloat(
      RoundToBf16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(RoundToBf16(std::numeric_limits<float>::infinity()), 0x7F80);
}

} // namespace
