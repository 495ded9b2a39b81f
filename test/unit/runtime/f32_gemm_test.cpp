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

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

using tfaot::internal::F32Epilogue;
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
// group and several (at most 48 rows each), batches, k of 1; the last has over
// 1 MiB of weights, so its units run panel by panel, the others' row group
// by row group.
const int64_t kShapes[][4] = {
    {1, 1, 16, 1},     {1, 7, 33, 5},      {1, 16, 64, 256}, {1, 49, 512, 46},
    {1, 200, 70, 147}, {2, 1, 1000, 40},   {3, 17, 48, 32},  {36, 16, 80, 24},
    {1, 57, 130, 9},   {1, 100, 1100, 256}};

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
  // Units row group by row group, then (over 1 MiB of weights) panel by
  // panel.
  for (const Products &p : {Products::Random(rng, 2, 300, 200, 96),
                            Products::Random(rng, 1, 150, 1100, 256)}) {
    std::vector<float> zeros(p.OutSize(), 0.0f);
    F32Path path = tfaot::internal::BestF32Path();
    std::vector<float> alone = p.Run(path, zeros, true), pooled;
    tfaot::ThreadPool pool(2);
    {
      tfaot::internal::ScopedThreadPool scoped(&pool);
      pooled = p.Run(path, zeros, true);
    }
    // Each output element is summed by one thread in one order either way.
    EXPECT_EQ(0, std::memcmp(alone.data(), pooled.data(),
                             p.OutSize() * sizeof(float)))
        << p.m << " x " << p.n << " x " << p.k;
  }
}

/// A fused call's result against the plain call's sums (checked against
/// double products above) put through the epilogue here, one float32
/// operation at a time: the same bits are expected.
struct FusedCase {
  bool bias, residual, inPlace, clamp;
  int64_t rowPixels; ///< > 0: the result is a padded buffer's interior.
};

void RunFused(F32Path path, const char *name) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> value(-3.f, 3.f);
  const FusedCase cases[] = {
      {false, false, false, false, 0}, {true, false, false, true, 0},
      {true, true, false, true, 0},    {true, true, true, false, 0},
      {false, true, false, true, 0},   {true, false, false, true, 7}};
  for (const auto &shape : kShapes) {
    if (shape[0] != 1)
      continue; // The fused call takes one product.
    Products p = Products::Random(rng, 1, shape[1], shape[2], shape[3]);
    const int64_t m = p.m, n = p.n, ldo = p.n1 * 64;
    std::vector<float> sums =
        p.Run(F32Path::Portable, std::vector<float>(p.OutSize()), true);
    for (const FusedCase &c : cases) {
      if (c.rowPixels > 0 && m % c.rowPixels != 0)
        continue;
      std::vector<float> bias(n), residual(m * n);
      for (float &v : bias)
        v = value(rng);
      for (float &v : residual)
        v = value(rng);
      F32Epilogue e;
      e.n = n;
      e.bias = c.bias ? bias.data() : nullptr;
      if (c.clamp) {
        e.lo = -1.0f;
        e.hi = 6.0f;
      }
      // Padded: image rows of rowPixels pixels, each followed by 3 pixels
      // (and the whole by one more row) the kernel must not touch.
      e.row_pixels = c.rowPixels;
      e.row_stride = (c.rowPixels + 3) * n;
      const int64_t outSize =
          c.rowPixels > 0 ? (m / c.rowPixels + 1) * e.row_stride : m * n;
      const float sentinel = 1234.5f;
      std::vector<float> out(outSize, sentinel);
      if (c.inPlace)
        out = residual;
      e.residual = !c.residual ? nullptr
                   : c.inPlace ? out.data()
                               : residual.data();
      e.out = out.data();
      std::vector<float> expected = out;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          float y = sums[i * ldo + j];
          if (c.bias)
            y = y + bias[j];
          if (c.residual)
            y = y + residual[i * n + j];
          if (c.clamp)
            y = std::min(std::max(y, -1.0f), 6.0f);
          expected[e.RowOffset(i) + j] = y;
        }
      Mmt4dF32(path, F32Product{p.a.data(), p.rhs.data(), nullptr, 1, m, p.n1,
                                p.k, true, &e});
      EXPECT_EQ(0, std::memcmp(expected.data(), out.data(),
                               out.size() * sizeof(float)))
          << name << " " << m << "x" << n << "x" << p.k << " bias " << c.bias
          << " residual " << c.residual << " in place " << c.inPlace
          << " clamp " << c.clamp << " row pixels " << c.rowPixels;
    }
  }
}

TEST(F32Gemm, FusedEpiloguePortable) {
  RunFused(F32Path::Portable, "portable");
}

TEST(F32Gemm, FusedEpilogueAvx512) {
  if (!F32PathAvailable(F32Path::Avx512))
    GTEST_SKIP() << "this CPU has no AVX-512F (avx512f in /proc/cpuinfo)";
  RunFused(F32Path::Avx512, "avx512");
}

TEST(F32Gemm, FusedEpilogueKeepsNaN) {
  // A NaN sum stays NaN through the clamp, as arith.maximumf/minimumf keep it.
  std::vector<float> a = {std::numeric_limits<float>::quiet_NaN(), 1.0f};
  std::vector<float> rhs(64, 2.0f), out(2, 0.0f);
  F32Epilogue e;
  e.out = out.data();
  e.n = 1;
  e.lo = 0.0f;
  e.hi = 6.0f;
  for (F32Path path : {F32Path::Portable, F32Path::Avx512}) {
    if (!F32PathAvailable(path))
      continue;
    out = {0.0f, 0.0f};
    Mmt4dF32(path,
             F32Product{a.data(), rhs.data(), nullptr, 1, 2, 1, 1, true, &e});
    EXPECT_TRUE(std::isnan(out[0]));
    EXPECT_EQ(out[1], 2.0f);
  }
}

} // namespace
