//===- f32s8_gemm_test.cpp - Tests for tfaot_rt_matmul_f32s8 --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Every path this CPU has against a double-precision product of the same
// operands. Paths sum in different orders and with or without fused
// multiply-adds, so results are compared within float32 rounding of the
// sum of |a * b| terms (24 bits, times a margin for k additions).
//
//===----------------------------------------------------------------------===//

#include "runtime/lib/f32s8_gemm.h"
#include "runtime/lib/parallel.h"
#include "tfaot/runtime/thread_pool.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using tfaot::internal::F32S8Path;
using tfaot::internal::F32S8PathAvailable;
using tfaot::internal::MatmulF32S8;

const char *PathName(F32S8Path path) {
  switch (path) {
  case F32S8Path::Portable:
    return "portable";
  case F32S8Path::Avx2:
    return "avx2";
  case F32S8Path::Avx512:
    return "avx512";
  }
  return "?";
}

struct Product {
  int64_t m, n, k;
  std::vector<float> a;
  std::vector<int8_t> b;

  static Product Random(std::mt19937 &rng, int64_t m, int64_t n, int64_t k) {
    Product p{m, n, k, std::vector<float>(m * k), std::vector<int8_t>(k * n)};
    std::uniform_real_distribution<float> value(-2.f, 2.f);
    std::uniform_int_distribution<int> byte(-128, 127);
    for (float &x : p.a)
      x = value(rng);
    for (size_t i = 0; i < p.b.size(); ++i)
      p.b[i] = i % 11 == 3 ? -128 : static_cast<int8_t>(byte(rng));
    return p;
  }

  /// The product in double, and the sum of |a * b| terms per element.
  void Reference(std::vector<double> &product,
                 std::vector<double> &magnitude) const {
    product.assign(m * n, 0.0);
    magnitude.assign(m * n, 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t kk = 0; kk < k; ++kk)
        for (int64_t j = 0; j < n; ++j) {
          double term = double{a[i * k + kk]} * b[kk * n + j];
          product[i * n + j] += term;
          magnitude[i * n + j] += std::fabs(term);
        }
  }

  std::vector<float> Run(F32S8Path path) const {
    std::vector<float> out(m * n, NAN); // Must all be overwritten.
    MatmulF32S8(path, a.data(), b.data(), out.data(), m, n, k);
    return out;
  }
};

void ExpectMatchesReference(const Product &p) {
  std::vector<double> expected, magnitude;
  p.Reference(expected, magnitude);
  for (F32S8Path path :
       {F32S8Path::Portable, F32S8Path::Avx2, F32S8Path::Avx512}) {
    if (!F32S8PathAvailable(path))
      continue;
    std::vector<float> got = p.Run(path);
    const double rounding = std::ldexp(1.0, -24) * (p.k + 2);
    for (int64_t i = 0; i < p.m * p.n; ++i)
      ASSERT_NEAR(got[i], expected[i], rounding * magnitude[i] + 1e-30)
          << PathName(path) << " element " << i << " of m=" << p.m
          << " n=" << p.n << " k=" << p.k;
  }
}

// Shapes: partial register blocks in both directions (m not a multiple of
// 4, n not of 16 or 64), a classifier's shape (1 x 1000, k = 1280, several
// column blocks for the thread pool), a single element.
TEST(MatmulF32S8, MatchesReferenceOnAllPaths) {
  std::mt19937 rng(5);
  const int64_t shapes[][3] = {{1, 1, 1},       {1, 5, 3},    {3, 17, 9},
                               {4, 64, 20},     {7, 130, 33}, {9, 70, 2},
                               {1, 1000, 1280}, {2, 48, 300}};
  for (const auto &s : shapes)
    ExpectMatchesReference(Product::Random(rng, s[0], s[1], s[2]));
}

// The result is overwritten, not accumulated into: with k = 0 it is zero.
TEST(MatmulF32S8, EmptySumIsZero) {
  Product p{3, 20, 0, {}, {}};
  for (F32S8Path path :
       {F32S8Path::Portable, F32S8Path::Avx2, F32S8Path::Avx512})
    if (F32S8PathAvailable(path))
      EXPECT_EQ(p.Run(path), std::vector<float>(60, 0.0f)) << PathName(path);
}

// Exact values: every weight and activation a small integer, so every
// path's float32 sums are exact and must agree with the integer product.
TEST(MatmulF32S8, IntegerOperandsAreExact) {
  const int64_t m = 5, n = 37, k = 50;
  Product p{m, n, k, std::vector<float>(m * k), std::vector<int8_t>(k * n)};
  for (int64_t i = 0; i < m * k; ++i)
    p.a[i] = static_cast<float>(i % 7 - 3);
  for (int64_t i = 0; i < k * n; ++i)
    p.b[i] = static_cast<int8_t>((i * 37) % 256 - 128);
  std::vector<float> expected(m * n, 0.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        sum += static_cast<int64_t>(p.a[i * k + kk]) * p.b[kk * n + j];
      expected[i * n + j] = static_cast<float>(sum);
    }
  for (F32S8Path path :
       {F32S8Path::Portable, F32S8Path::Avx2, F32S8Path::Avx512})
    if (F32S8PathAvailable(path))
      EXPECT_EQ(p.Run(path), expected) << PathName(path);
}

// Split over a pool, the columns come out the same as on one thread.
TEST(MatmulF32S8, ThreadCountsDoNotChangeResults) {
  std::mt19937 rng(9);
  Product p = Product::Random(rng, 2, 700, 400);
  std::vector<float> one = p.Run(F32S8Path::Avx512);
  tfaot::ThreadPool pool(3);
  tfaot::internal::ScopedThreadPool scoped(&pool);
  EXPECT_EQ(p.Run(F32S8Path::Avx512), one);
}

// The C entry point takes addresses and uses this CPU's best path.
TEST(MatmulF32S8, EntryPointTakesAddresses) {
  const int64_t m = 2, n = 3, k = 2;
  std::vector<float> a = {1, 2, -1, 0.5f};
  std::vector<int8_t> b = {1, -2, 3, 4, 5, -128};
  std::vector<float> out(m * n, NAN);
  tfaot_rt_matmul_f32s8(reinterpret_cast<int64_t>(a.data()),
                        reinterpret_cast<int64_t>(b.data()),
                        reinterpret_cast<int64_t>(out.data()), m, n, k);
  // Row 0: [1*1 + 2*4, 1*-2 + 2*5, 1*3 + 2*-128]; row 1 with -1 and 0.5.
  EXPECT_EQ(out, (std::vector<float>{9, 8, -253, 1, 4.5f, -67}));
}

} // namespace
