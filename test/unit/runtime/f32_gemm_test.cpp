//===- f32_gemm_test.cpp - Tests for tfaot_rt_mmt4d_f32f32f32 -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The float32 product's paths against a double-precision product of the
// same values, within float32 rounding of the sum of |a * b| terms (2^-24
// per addition, times k additions, times a margin of 4); and the two paths
// against each other bit for bit, since both sum each output's k products
// in order with one fused multiply-add each. The AVX-512 path's tests are
// skipped (with a message) on CPUs without AVX-512F.
//
//===----------------------------------------------------------------------===//

#include "runtime/lib/f32_gemm.h"
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

using tfaot::internal::F32Path;
using tfaot::internal::F32PathAvailable;
using tfaot::internal::F32Product;
using tfaot::internal::Mmt4dF32;

/// `batch` products lhs [m][k] x rhs [k][n], with the packed weights.
struct Products {
  int64_t batch, m, n, k, n1;
  std::vector<float> a, b; // [batch][m][k], [batch][k][n]
  std::vector<float> rhs;  // [batch][n1][k][64], zero past n

  static Products Random(std::mt19937 &rng, int64_t batch, int64_t m, int64_t n,
                         int64_t k) {
    Products p{batch, m, n, k, (n + 63) / 64, {}, {}, {}};
    std::uniform_real_distribution<float> value(-2.f, 2.f);
    for (int64_t i = 0; i < batch * m * k; ++i)
      p.a.push_back(value(rng));
    for (int64_t i = 0; i < batch * k * n; ++i)
      p.b.push_back(value(rng));
    p.rhs.assign(batch * p.n1 * k * 64, 0.0f);
    for (int64_t s = 0; s < batch; ++s)
      for (int64_t r = 0; r < k; ++r)
        for (int64_t c = 0; c < n; ++c)
          p.rhs[((s * p.n1 + c / 64) * k + r) * 64 + c % 64] =
              p.b[(s * k + r) * n + c];
    return p;
  }

  int64_t OutSize() const { return batch * m * n1 * 64; }

  std::vector<float> Run(F32Path path, std::vector<float> out,
                         bool overwrite) const {
    Mmt4dF32(path, F32Product{a.data(), rhs.data(), out.data(), batch, m, n1, k,
                              overwrite});
    return out;
  }

  /// out (row stride 64 * n1) against the double product plus `init`;
  /// the padding columns past n hold init, plus zeros.
  void Check(const std::vector<float> &out, const std::vector<float> &init,
             const char *what) const {
    const int64_t ldo = n1 * 64;
    for (int64_t s = 0; s < batch; ++s)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < ldo; ++j) {
          const int64_t at = (s * m + i) * ldo + j;
          double sum = init[at], magnitude = std::fabs(sum);
          for (int64_t kk = 0; j < n && kk < k; ++kk) {
            double term = double(a[(s * m + i) * k + kk]) *
                          double(b[(s * k + kk) * n + j]);
            sum += term;
            magnitude += std::fabs(term);
          }
          double bound = 4.0 * (k + 1) * magnitude * std::ldexp(1.0, -24);
          ASSERT_NEAR(out[at], sum, bound)
              << what << " at [" << s << "][" << i << "][" << j << "] of "
              << batch << " x " << m << "x" << n << "x" << k;
        }
  }
};

// Partial register blocks (rows % 6), n not a multiple of 64, one row
// group and several (48 rows each), batches, k of 1.
const int64_t kShapes[][4] = {
    {1, 1, 16, 1},    {1, 7, 33, 5},     {1, 16, 64, 256},
    {1, 49, 512, 46}, {1, 200, 70, 147}, {2, 1, 1000, 40},
    {3, 17, 48, 32},  {36, 16, 80, 24},  {1, 57, 130, 9}};

void RunPath(F32Path path, const char *name) {
  std::mt19937 rng(31);
  for (const auto &shape : kShapes) {
    Products p = Products::Random(rng, shape[0], shape[1], shape[2], shape[3]);
    // Overwrite: what was in `out` is ignored (NaN here).
    std::vector<float> nan(p.OutSize(),
                           std::numeric_limits<float>::quiet_NaN());
    p.Check(p.Run(path, nan, /*overwrite=*/true),
            std::vector<float>(p.OutSize(), 0.0f), name);
    // Accumulate: the sums are added to what `out` holds.
    std::vector<float> init(p.OutSize());
    for (int64_t i = 0; i < p.OutSize(); ++i)
      init[i] = static_cast<float>(i % 7) - 3.0f;
    p.Check(p.Run(path, init, /*overwrite=*/false), init, name);
  }
}

TEST(F32Gemm, PortablePathRunsEverywhere) {
  RunPath(F32Path::Portable, "portable");
}

TEST(F32Gemm, Avx512Path) {
  if (!F32PathAvailable(F32Path::Avx512))
    GTEST_SKIP() << "this CPU has no AVX-512F (avx512f in /proc/cpuinfo): "
                    "the portable path is what runs here";
  RunPath(F32Path::Avx512, "avx512");
}

TEST(F32Gemm, NoProductsLeaveTheStart) {
  // k = 0: out = 0 when overwriting, unchanged when adding.
  std::vector<float> out(2 * 64, 5.0f);
  Mmt4dF32(tfaot::internal::BestF32Path(),
           F32Product{nullptr, nullptr, out.data(), 1, 2, 1, 0, false});
  EXPECT_EQ(out, std::vector<float>(2 * 64, 5.0f));
  Mmt4dF32(tfaot::internal::BestF32Path(),
           F32Product{nullptr, nullptr, out.data(), 1, 2, 1, 0, true});
  EXPECT_EQ(out, std::vector<float>(2 * 64, 0.0f));
}

TEST(F32Gemm, PathsGiveTheSameBits) {
  if (!F32PathAvailable(F32Path::Avx512))
    GTEST_SKIP() << "this CPU has no AVX-512F (avx512f in /proc/cpuinfo)";
  std::mt19937 rng(5);
  for (const auto &shape : kShapes) {
    Products p = Products::Random(rng, shape[0], shape[1], shape[2], shape[3]);
    std::vector<float> zeros(p.OutSize(), 0.0f);
    std::vector<float> portable = p.Run(F32Path::Portable, zeros, true);
    std::vector<float> avx512 = p.Run(F32Path::Avx512, zeros, true);
    EXPECT_EQ(0, std::memcmp(portable.data(), avx512.data(),
                             p.OutSize() * sizeof(float)))
        << shape[0] << " x " << shape[1] << "x" << shape[2] << "x" << shape[3];
  }
}

TEST(F32Gemm, SplitOverThreadsGivesTheSameBits) {
  std::mt19937 rng(7);
  Products p = Products::Random(rng, 2, 300, 200, 96);
  std::vector<float> zeros(p.OutSize(), 0.0f);
  F32Path path = tfaot::internal::BestF32Path();
  std::vector<float> alone = p.Run(path, zeros, true), pooled;
  tfaot::ThreadPool pool(2);
  {
    tfaot::internal::ScopedThreadPool scoped(&pool);
    pooled = p.Run(path, zeros, true);
  }
  // Each output element is summed by one thread in one order either way.
  EXPECT_EQ(
      0, std::memcmp(alone.data(), pooled.data(), p.OutSize() * sizeof(float)));
}

} // namespace
