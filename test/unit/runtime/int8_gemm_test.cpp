//===- int8_gemm_test.cpp - Tests for tfaot_rt_mmt4d_s8s8s32 --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Every implementation of the int8 mmt4d kernel against a plain triple loop
// over the unpacked matrices. The test packs B itself, so the layout the
// compiler emits is checked independently of the kernel's reading of it.
// Paths this CPU lacks are skipped.
//
//===----------------------------------------------------------------------===//

#include "runtime/lib/int8_gemm.h"
#include "runtime/lib/parallel.h"
#include "tfaot/runtime/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using tfaot::internal::Int8GemmPath;
using tfaot::internal::Int8GemmPathAvailable;
using tfaot::internal::Int8Epilogue;
using tfaot::internal::kFloatResidual;
using tfaot::internal::kInt8Residual;
using tfaot::internal::Mmt4dS8S8Fused;
using tfaot::internal::Mmt4dS8S8S32;

/// C = A * B as unpacked matrices: A m x k, B k x n, C m x n, all row-major.
struct Product {
  int64_t m, n1, k1;
  std::vector<int8_t> a; // m x 4k1
  std::vector<int8_t> b; // 4k1 x 16n1
  int64_t k() const { return 4 * k1; }
  int64_t n() const { return 16 * n1; }

  /// B in the [n1][k1][16][4] layout of the kernel's rhs.
  std::vector<int8_t> PackedB() const {
    std::vector<int8_t> packed(b.size());
    for (int64_t j1 = 0; j1 < n1; ++j1)
      for (int64_t p = 0; p < k1; ++p)
        for (int64_t j0 = 0; j0 < 16; ++j0)
          for (int64_t q = 0; q < 4; ++q)
            packed[((j1 * k1 + p) * 16 + j0) * 4 + q] =
                b[(4 * p + q) * n() + 16 * j1 + j0];
    return packed;
  }

  /// `row` (one value per column) as kMmt4dBiasedColumnInit wants it: less
  /// 128 times each column's sum of B, from the unpacked B.
  std::vector<int32_t> Biased(std::vector<int32_t> row) const {
    for (int64_t j = 0; j < n(); ++j)
      for (int64_t l = 0; l < k(); ++l)
        row[j] -= 128 * int32_t{b[l * n() + j]};
    return row;
  }

  /// `init` + A * B, summed in 64 bits (the shapes here cannot overflow 32).
  std::vector<int32_t> Reference(const std::vector<int32_t> &init) const {
    std::vector<int32_t> c(m * n());
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n(); ++j) {
        int64_t sum = init.empty() ? 0 : init[i * n() + j];
        for (int64_t l = 0; l < k(); ++l)
          sum += int64_t{a[i * k() + l]} * int64_t{b[l * n() + j]};
        c[i * n() + j] = static_cast<int32_t>(sum);
      }
    return c;
  }
};

/// Uniform int8 values, with the extremes planted often enough that every
/// shape sees -128 and 127 in both operands, next to each other too.
std::vector<int8_t> RandomInt8(std::mt19937 &rng, size_t size) {
  std::uniform_int_distribution<int> value(-128, 127);
  std::vector<int8_t> v(size);
  for (size_t i = 0; i < size; ++i) {
    if (i % 7 == 3)
      v[i] = -128;
    else if (i % 11 == 5)
      v[i] = 127;
    else
      v[i] = static_cast<int8_t>(value(rng));
  }
  return v;
}

std::vector<int32_t> RandomInt32(std::mt19937 &rng, size_t size) {
  std::uniform_int_distribution<int32_t> value(-1000000, 1000000);
  std::vector<int32_t> v(size);
  for (auto &x : v)
    x = value(rng);
  return v;
}

Product RandomProduct(std::mt19937 &rng, int64_t m, int64_t n1, int64_t k1) {
  Product p{m, n1, k1, {}, {}};
  p.a = RandomInt8(rng, m * 4 * k1);
  p.b = RandomInt8(rng, 4 * k1 * 16 * n1);
  return p;
}

std::string PathName(Int8GemmPath path) {
  switch (path) {
  case Int8GemmPath::Scalar:
    return "Scalar";
  case Int8GemmPath::Avx512Vnni:
    return "Avx512Vnni";
  case Int8GemmPath::AvxVnni:
    return "AvxVnni";
  case Int8GemmPath::Avx2:
    return "Avx2";
  case Int8GemmPath::Amx:
    return "Amx";
  }
  return "Unknown";
}

} // namespace

namespace tfaot::internal {
// Names the path in gtest's messages rather than dumping its bytes.
void PrintTo(Int8GemmPath path, std::ostream *os) { *os << PathName(path); }
} // namespace tfaot::internal

namespace {

const auto kAllPaths = testing::Values(
    Int8GemmPath::Scalar, Int8GemmPath::Avx512Vnni, Int8GemmPath::AvxVnni,
    Int8GemmPath::Avx2, Int8GemmPath::Amx);

std::string PathTestName(const testing::TestParamInfo<Int8GemmPath> &info) {
  return PathName(info.param);
}

/// A test run on each path (kAllPaths); the paths this CPU lacks are
/// skipped.
class PathTest : public testing::TestWithParam<Int8GemmPath> {
protected:
  void SetUp() override {
    if (!Int8GemmPathAvailable(GetParam()))
      GTEST_SKIP() << "this CPU cannot run the " << PathName(GetParam())
                   << " path";
  }
};

class Mmt4dS8S8S32Test : public PathTest {
protected:

  /// Runs the kernel on `product` starting from `out`, returns the result.
  std::vector<int32_t> Run(const Product &product, std::vector<int32_t> out,
                           int32_t flags) {
    std::vector<int8_t> rhs = product.PackedB();
    Mmt4dS8S8S32(GetParam(), product.a.data(), rhs.data(), out.data(),
                 product.m, product.n1, product.k1, flags);
    return out;
  }
};

TEST_P(Mmt4dS8S8S32Test, MatchesReferenceOnAllShapes) {
  std::mt19937 rng(1234);
  for (int64_t m : {0, 1, 5, 7, 8, 13, 49, 200})
    for (int64_t n1 : {1, 2, 3, 5})
      for (int64_t k1 : {1, 3, 16, 37, 144}) {
        SCOPED_TRACE(testing::Message()
                     << "m=" << m << " n1=" << n1 << " k1=" << k1);
        Product product = RandomProduct(rng, m, n1, k1);
        std::vector<int32_t> init = RandomInt32(rng, m * 16 * n1);
        EXPECT_EQ(Run(product, init, 0), product.Reference(init))
            << "accumulating";
        std::vector<int32_t> garbage(m * 16 * n1);
        for (auto &x : garbage)
          x = static_cast<int32_t>(rng());
        EXPECT_EQ(Run(product, garbage, kMmt4dOverwrite), product.Reference({}))
            << "overwriting";
      }
}

// The VNNI path computes (a + 128) * b - 128 * sum(b); operands at the
// extremes of int8 are where an intermediate could saturate or wrap wrongly.
TEST_P(Mmt4dS8S8S32Test, ExtremeOperandsDoNotSaturate) {
  const int64_t m = 9, n1 = 3, k1 = 144;
  for (auto [a, b] : {std::pair<int8_t, int8_t>{-128, -128},
                      {-128, 127},
                      {127, -128},
                      {127, 127}}) {
    SCOPED_TRACE(testing::Message() << "a=" << int{a} << " b=" << int{b});
    Product product{m, n1, k1, std::vector<int8_t>(m * 4 * k1, a),
                    std::vector<int8_t>(4 * k1 * 16 * n1, b)};
    std::vector<int32_t> expected(
        m * 16 * n1, static_cast<int32_t>(4 * k1 * int32_t{a} * int32_t{b}));
    EXPECT_EQ(
        Run(product, std::vector<int32_t>(m * 16 * n1, -7), kMmt4dOverwrite),
        expected);
    EXPECT_EQ(product.Reference({}), expected);
  }
}

// kMmt4dColumnInit: every row starts from the same per-column values; with
// kMmt4dBiasedColumnInit the row comes with 128 column sums of B taken off
// (what the compiler passes), and every path computes the same product.
TEST_P(Mmt4dS8S8S32Test, StartsFromColumnInit) {
  std::mt19937 rng(99);
  for (auto [m, n1, k1] : {std::tuple<int64_t, int64_t, int64_t>{7, 3, 37},
                           {49, 5, 16},
                           {200, 2, 144},
                           {3, 70, 4},
                           // More than one chunk of 256 column tiles.
                           {5, 300, 3}})
    for (bool biased : {false, true}) {
      SCOPED_TRACE(testing::Message() << "m=" << m << " n1=" << n1 << " k1="
                                      << k1 << (biased ? " biased" : ""));
      Product product = RandomProduct(rng, m, n1, k1);
      std::vector<int32_t> row = RandomInt32(rng, 16 * n1), rows;
      for (int64_t i = 0; i < m; ++i)
        rows.insert(rows.end(), row.begin(), row.end());
      std::vector<int32_t> init = biased ? product.Biased(row) : row;
      std::vector<int32_t> out(m * 16 * n1, 12345);
      std::vector<int8_t> rhs = product.PackedB();
      Mmt4dS8S8S32(GetParam(), product.a.data(), rhs.data(), out.data(), m,
                   n1, k1,
                   biased ? kMmt4dColumnInit | kMmt4dBiasedColumnInit
                          : kMmt4dColumnInit,
                   init.data());
      EXPECT_EQ(out, product.Reference(rows));
    }
}

TEST_P(Mmt4dS8S8S32Test, EmptyProducts) {
  std::mt19937 rng(7);
  const std::vector<int32_t> init = RandomInt32(rng, 5 * 16 * 2);
  // k1 == 0: an empty sum, so overwriting writes zeros.
  Product empty_k{5, 2, 0, {}, {}};
  EXPECT_EQ(Run(empty_k, init, 0), init);
  EXPECT_EQ(Run(empty_k, init, kMmt4dOverwrite),
            std::vector<int32_t>(init.size(), 0));
  // m == 0 or n1 == 0: no output at all; nothing may be touched.
  for (int32_t flags : {0, int32_t{kMmt4dOverwrite}}) {
    std::vector<int32_t> sentinel = init;
    std::vector<int8_t> operand(64 * 4, 1);
    Mmt4dS8S8S32(GetParam(), operand.data(), operand.data(), sentinel.data(), 0,
                 2, 4, flags);
    Mmt4dS8S8S32(GetParam(), operand.data(), operand.data(), sentinel.data(), 5,
                 0, 4, flags);
    EXPECT_EQ(sentinel, init);
  }
}

// Wide, deep products: the kernel works on B a group of tiles at a time (a
// few hundred KiB each), so these cover several groups, a partial last
// group and row panels with remainders, on one thread and on several.
TEST_P(Mmt4dS8S8S32Test, LargeKAndNMatchReference) {
  std::mt19937 rng(77);
  for (auto [m, n1, k1] : {std::tuple<int64_t, int64_t, int64_t>{53, 9, 600},
                           {29, 7, 2000},
                           {3, 70, 150}}) {
    SCOPED_TRACE(testing::Message()
                 << "m=" << m << " n1=" << n1 << " k1=" << k1);
    Product product = RandomProduct(rng, m, n1, k1);
    std::vector<int32_t> init = RandomInt32(rng, m * 16 * n1);
    std::vector<int32_t> expected = product.Reference(init);
    EXPECT_EQ(Run(product, init, 0), expected);
    tfaot::ThreadPool pool(3);
    tfaot::internal::ScopedThreadPool scoped(&pool);
    EXPECT_EQ(Run(product, init, 0), expected) << "3 threads";
  }
}

// Only byte alignment is guaranteed: rows of A start every 4 * k1 bytes,
// and callers may pass subviews.
TEST_P(Mmt4dS8S8S32Test, UnalignedOperands) {
  std::mt19937 rng(99);
  const int64_t m = 11, n1 = 3, k1 = 5;
  Product product = RandomProduct(rng, m, n1, k1);
  std::vector<int8_t> packed = product.PackedB();
  std::vector<int8_t> lhs(product.a.size() + 1), rhs(packed.size() + 3);
  std::copy(product.a.begin(), product.a.end(), lhs.begin() + 1);
  std::copy(packed.begin(), packed.end(), rhs.begin() + 3);
  std::vector<int32_t> init = RandomInt32(rng, m * 16 * n1);
  std::vector<int32_t> out(init.size() + 1);
  std::copy(init.begin(), init.end(), out.begin() + 1);
  Mmt4dS8S8S32(GetParam(), lhs.data() + 1, rhs.data() + 3, out.data() + 1, m,
               n1, k1, 0);
  EXPECT_EQ(std::vector<int32_t>(out.begin() + 1, out.end()),
            product.Reference(init));
}

// Large enough to be split over the pool; every split must give the
// single-thread result bit for bit.
TEST_P(Mmt4dS8S8S32Test, ThreadCountsDoNotChangeResults) {
  std::mt19937 rng(42);
  const int64_t m = 3136, n1 = 4, k1 = 144;
  Product product = RandomProduct(rng, m, n1, k1);
  std::vector<int32_t> init = RandomInt32(rng, m * 16 * n1);
  std::vector<int32_t> single = Run(product, init, 0);
  std::vector<int32_t> single_overwrite = Run(product, init, kMmt4dOverwrite);
  for (int threads : {2, 4}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    tfaot::ThreadPool pool(threads);
    tfaot::internal::ScopedThreadPool scoped(&pool);
    EXPECT_EQ(Run(product, init, 0), single);
    EXPECT_EQ(Run(product, init, kMmt4dOverwrite), single_overwrite);
  }
  // Spot-check the single-thread result against the reference on a few
  // rows; the full reference of this size is slow in unoptimized builds.
  for (int64_t i : {int64_t{0}, int64_t{1}, m / 2, m - 1}) {
    Product row{1, n1, k1,
                std::vector<int8_t>(product.a.begin() + i * 4 * k1,
                                    product.a.begin() + (i + 1) * 4 * k1),
                product.b};
    std::vector<int32_t> row_init(init.begin() + i * 16 * n1,
                                  init.begin() + (i + 1) * 16 * n1);
    EXPECT_EQ(std::vector<int32_t>(single.begin() + i * 16 * n1,
                                   single.begin() + (i + 1) * 16 * n1),
              row.Reference(row_init))
        << "row " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, Mmt4dS8S8S32Test, kAllPaths, PathTestName);

//===----------------------------------------------------------------------===//
// The fused epilogue (tfaot_rt_mmt4d_s8s8_fused)
//===----------------------------------------------------------------------===//

/// The epilogue's definition (int8_gemm.h) applied to one int32 sum, step
/// by step in float32, with std::nearbyint (round half to even in the
/// default rounding mode) for roundeven.
float ReferenceEpilogue(const Int8Epilogue &e, int32_t acc, int64_t i,
                        int64_t j) {
  float y = static_cast<float>(acc) * e.scale[j];
  if (e.bias)
    y = y + e.bias[j];
  if (e.residual)
    y = y + e.residual[i * e.n + j];
  if (e.residual_int8) {
    float d = static_cast<float>(e.residual_int8[i * e.n + j]) - e.residual_zp;
    d = d * e.residual_scale;
    y = y + d;
  }
  y = std::min(std::max(y, e.lo), e.hi);
  if (!e.int8_result)
    return y;
  float q = std::nearbyint(y * e.q_mul) + e.q_zp;
  return std::min(std::max(q, e.q_lo), e.q_hi);
}

/// One way of finishing the product: the result's element type, whether a
/// bias, a residual and a clamp come after the scale, and the quantization.
struct EpilogueCase {
  const char *name;
  bool int8_result, bias;
  int residual; ///< kNoResidual, kFloatResidual or kInt8Residual.
  float lo, hi, q_mul, q_zp;
};

const EpilogueCase kEpilogueCases[] = {
    {"float", false, false, false, -INFINITY, INFINITY, 1, 0},
    {"float+bias+relu6", false, true, false, 0, 6, 1, 0},
    {"float+bias+residual", false, true, true, -INFINITY, INFINITY, 1, 0},
    // Ties: scale 0.5 on odd sums gives x.5 before roundeven.
    {"int8", true, false, false, -INFINITY, INFINITY, 1, -3},
    {"int8+bias+relu", true, true, false, 0, INFINITY, 0.37f, -128},
    {"int8+residual+relu6", true, false, true, 0, 6, 21.f, -128},
    // The form tfaot-fold-requantize leaves (q_mul 1, q_zp 0, the clamp
    // inside the int8 range), for which the kernels only round.
    {"int8 round-only", true, false, false, -128, 127, 1, 0},
    {"int8 round-only+bias+clamp", true, true, false, -100, 90, 1, 0},
    {"int8 round-only+residual", true, false, true, -20, 127, 1, 0},
    // An int8 residual (--quantize_residuals), dequantized in the epilogue.
    {"float+bias+int8 residual", false, true, kInt8Residual, -INFINITY,
     INFINITY, 1, 0},
    {"int8+bias+int8 residual+relu", true, true, kInt8Residual, 0, INFINITY,
     0.37f, -128},
    {"int8 round-only+bias+int8 residual", true, true, kInt8Residual, -128,
     127, 1, 0},
};

/// The int8 residual's quantization in the tests: a zero point that is
/// not 0, so that the subtraction counts.
constexpr float kResidualScale = 0.0625f, kResidualZp = -7;

class Mmt4dS8S8FusedTest : public PathTest {
protected:

  /// The fused call's results for `product` and the first `n` columns, as
  /// floats whatever the result type; `row` is the column init (or empty).
  /// `biased`: pass the row as kMmt4dBiasedColumnInit wants it.
  std::vector<float> RunFused(const Product &product, int64_t n,
                              const std::vector<int32_t> &row,
                              Int8Epilogue e, bool biased = false) {
    std::vector<int8_t> rhs = product.PackedB();
    const std::vector<int32_t> init = biased ? product.Biased(row) : row;
    const int32_t flags = row.empty() ? 0
                          : biased    ? kMmt4dColumnInit | kMmt4dBiasedColumnInit
                                      : kMmt4dColumnInit;
    std::vector<float> out32(product.m * n, NAN);
    std::vector<int8_t> out8(product.m * n, 99);
    e.out = e.int8_result ? static_cast<void *>(out8.data()) : out32.data();
    e.n = n;
    Mmt4dS8S8Fused(GetParam(), product.a.data(), rhs.data(), product.m,
                   product.n1, product.k1, flags, init.data(), e);
    if (e.int8_result)
      std::transform(out8.begin(), out8.end(), out32.begin(),
                     [](int8_t v) { return static_cast<float>(v); });
    return out32;
  }

  /// The reference product followed by ReferenceEpilogue.
  static std::vector<float> Expected(const Product &product, int64_t n,
                                     const std::vector<int32_t> &row,
                                     Int8Epilogue e) {
    e.n = n;
    std::vector<int32_t> rows;
    for (int64_t i = 0; i < product.m && !row.empty(); ++i)
      rows.insert(rows.end(), row.begin(), row.end());
    std::vector<int32_t> sums = product.Reference(rows);
    std::vector<float> expected(product.m * n);
    for (int64_t i = 0; i < product.m; ++i)
      for (int64_t j = 0; j < n; ++j)
        expected[i * n + j] =
            ReferenceEpilogue(e, sums[i * product.n() + j], i, j);
    return expected;
  }

  /// `residual` (or `residual8` for an int8 one) needs m x n values if
  /// the case has one.
  static Int8Epilogue MakeEpilogue(const EpilogueCase &c,
                                   const std::vector<float> &scale,
                                   const std::vector<float> &bias,
                                   const std::vector<float> &residual = {},
                                   const std::vector<int8_t> &residual8 = {}) {
    Int8Epilogue e;
    e.scale = scale.data();
    e.bias = c.bias ? bias.data() : nullptr;
    e.residual = c.residual == kFloatResidual ? residual.data() : nullptr;
    e.residual_int8 =
        c.residual == kInt8Residual ? residual8.data() : nullptr;
    e.residual_scale = kResidualScale;
    e.residual_zp = kResidualZp;
    e.lo = c.lo;
    e.hi = c.hi;
    e.int8_result = c.int8_result;
    e.q_mul = c.q_mul;
    e.q_zp = c.q_zp;
    return e;
  }
};

// Shapes cover a partial last tile (n < 16 n1), panels of rows that do not
// divide m, several groups of tiles (n1 > 32) and, on the VNNI paths,
// several chunks of columns (n1 > 256).
TEST_P(Mmt4dS8S8FusedTest, MatchesProductThenEpilogue) {
  struct Shape {
    int64_t m, n1, k1, n;
  };
  const Shape shapes[] = {{1, 1, 1, 1},    {7, 1, 3, 5},   {25, 2, 9, 24},
                          {50, 3, 16, 48}, {30, 40, 2, 630},
                          {3, 260, 1, 4150}};
  std::mt19937 rng(11);
  for (const Shape &s : shapes) {
    Product product = RandomProduct(rng, s.m, s.n1, s.k1);
    std::vector<int32_t> row = RandomInt32(rng, s.n1 * 16);
    for (int32_t &v : row)
      v /= 50; // Keep sums near the clamps and the int8 range.
    std::vector<float> scale(s.n), bias(s.n), residual(s.m * s.n);
    std::vector<int8_t> residual8(s.m * s.n);
    for (int8_t &r : residual8)
      r = static_cast<int8_t>(rng() % 256 - 128);
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    for (int64_t j = 0; j < s.n; ++j) {
      scale[j] = j % 3 == 0 ? 0.5f : 0.001f + 0.01f * unit(rng);
      bias[j] = 4 * unit(rng) - 2;
    }
    for (float &r : residual)
      r = 6 * unit(rng) - 3;
    for (const EpilogueCase &c : kEpilogueCases)
      for (int init_kind : {0, 1, 2}) { // None, column init, biased.
        SCOPED_TRACE(testing::Message()
                     << c.name << " m=" << s.m << " n1=" << s.n1
                     << " k1=" << s.k1 << " n=" << s.n
                     << (init_kind == 1   ? " column init"
                         : init_kind == 2 ? " biased column init"
                                          : ""));
        Int8Epilogue e = MakeEpilogue(c, scale, bias, residual, residual8);
        std::vector<int32_t> init =
            init_kind > 0 ? row : std::vector<int32_t>{};
        EXPECT_EQ(RunFused(product, s.n, init, e, init_kind == 2),
                  Expected(product, s.n, init, e));
      }
  }
}

TEST_P(Mmt4dS8S8FusedTest, ThreadCountsDoNotChangeResults) {
  std::mt19937 rng(3);
  const int64_t m = 3136, n1 = 9, k1 = 6, n = 144;
  Product product = RandomProduct(rng, m, n1, k1);
  std::vector<int32_t> row = RandomInt32(rng, n1 * 16);
  std::vector<float> scale(n, 0.02f), bias(n, 0.25f);
  Int8Epilogue e = MakeEpilogue(kEpilogueCases[4], scale, bias);
  std::vector<float> single = RunFused(product, n, row, e);
  EXPECT_EQ(single, Expected(product, n, row, e));
  for (int threads : {2, 4}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    tfaot::ThreadPool pool(threads);
    tfaot::internal::ScopedThreadPool scoped(&pool);
    EXPECT_EQ(RunFused(product, n, row, e), single);
  }
}

TEST_P(Mmt4dS8S8FusedTest, EmptyProductIsTheEpilogueOfTheColumnInit) {
  Product empty{3, 2, 0, {}, {}};
  std::vector<int32_t> row(32);
  for (int j = 0; j < 32; ++j)
    row[j] = 7 * j - 100;
  std::vector<float> scale(20, 0.5f), bias(20, 1.f);
  Int8Epilogue e = MakeEpilogue(kEpilogueCases[1], scale, bias);
  EXPECT_EQ(RunFused(empty, 20, row, e), Expected(empty, 20, row, e));
}

// A float result written over its own residual (x = x + product, in
// place): each element is read before it is written.
TEST_P(Mmt4dS8S8FusedTest, ResidualMayBeTheResult) {
  std::mt19937 rng(21);
  const int64_t m = 200, n1 = 3, k1 = 5, n = 40;
  Product product = RandomProduct(rng, m, n1, k1);
  std::vector<float> scale(n, 0.01f), bias(n, 0.5f), buffer(m * n);
  for (int64_t i = 0; i < m * n; ++i)
    buffer[i] = static_cast<float>(i % 13) - 6;
  Int8Epilogue e = MakeEpilogue(kEpilogueCases[2], scale, bias, buffer);
  std::vector<float> expected = Expected(product, n, {}, e);
  e.out = buffer.data();
  e.n = n;
  std::vector<int8_t> rhs = product.PackedB();
  Mmt4dS8S8Fused(GetParam(), product.a.data(), rhs.data(), m, n1, k1, 0,
                 nullptr, e);
  EXPECT_EQ(buffer, expected);
}

// An int8 result written over its own int8 residual (the int8 residual
// stream, in place), in narrow rows (24 columns: a row's last vector and
// the next row's first share 16 bytes) and wide ones.
TEST_P(Mmt4dS8S8FusedTest, Int8ResidualMayBeTheResult) {
  std::mt19937 rng(22);
  for (int64_t n : {24, 40, 256}) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    const int64_t m = 150, n1 = (n + 15) / 16, k1 = 4;
    Product product = RandomProduct(rng, m, n1, k1);
    std::vector<float> scale(n, 0.01f), bias(n, 0.5f);
    std::vector<int8_t> buffer(m * n);
    for (int64_t i = 0; i < m * n; ++i)
      buffer[i] = static_cast<int8_t>(i % 201 - 100);
    for (const EpilogueCase &c : {kEpilogueCases[10], kEpilogueCases[11]}) {
      SCOPED_TRACE(c.name);
      std::vector<int8_t> in_place = buffer;
      Int8Epilogue e = MakeEpilogue(c, scale, bias, {}, in_place);
      std::vector<float> expected = Expected(product, n, {}, e);
      e.out = in_place.data();
      e.n = n;
      std::vector<int8_t> rhs = product.PackedB();
      Mmt4dS8S8Fused(GetParam(), product.a.data(), rhs.data(), m, n1, k1, 0,
                     nullptr, e);
      std::vector<float> got(in_place.begin(), in_place.end());
      EXPECT_EQ(got, expected);
    }
  }
}

// The result written into the interior of a padded NHWC buffer (the
// depthwise convolution's input after it): rows are pixels of 7-pixel
// image rows 9 x 24 elements apart; the border keeps its value.
TEST_P(Mmt4dS8S8FusedTest, WritesIntoAPaddedBuffer) {
  std::mt19937 rng(31);
  const int64_t height = 5, width = 7, n = 24, pad = 1;
  const int64_t padded_w = width + 2 * pad;
  Product product = RandomProduct(rng, height * width, 2, 3);
  std::vector<float> scale(n, 0.02f), bias(n, 0.5f);
  for (const EpilogueCase &c : {kEpilogueCases[1], kEpilogueCases[4]}) {
    SCOPED_TRACE(c.name);
    Int8Epilogue e = MakeEpilogue(c, scale, bias);
    std::vector<float> dense = Expected(product, n, {}, e);
    std::vector<int8_t> padded8((height + 2 * pad) * padded_w * n, 77);
    std::vector<float> padded32(padded8.size(), -9.f);
    e.out = c.int8_result ? static_cast<void *>(padded8.data())
                          : padded32.data();
    e.out = static_cast<char *>(e.out) +
            (pad * padded_w + pad) * n * (c.int8_result ? 1 : 4);
    e.n = n;
    e.row_pixels = width;
    e.row_stride = padded_w * n;
    std::vector<int8_t> rhs = product.PackedB();
    Mmt4dS8S8Fused(GetParam(), product.a.data(), rhs.data(), product.m, 2, 3,
                   0, nullptr, e);
    for (int64_t y = 0; y < height + 2 * pad; ++y)
      for (int64_t x = 0; x < padded_w; ++x)
        for (int64_t j = 0; j < n; ++j) {
          int64_t at = (y * padded_w + x) * n + j;
          float got = c.int8_result ? padded8[at] : padded32[at];
          bool inside = y >= pad && y < height + pad && x >= pad &&
                        x < width + pad;
          float want = inside ? dense[((y - pad) * width + x - pad) * n + j]
                       : c.int8_result ? 77.f
                                       : -9.f;
          ASSERT_EQ(got, want) << y << "," << x << "," << j;
        }
  }
}

// A float result also stored requantized (int8_copy, a ResNet block's
// output: float for the next residual add, int8 for the next product),
// with and without a residual in place, over shapes with a partial tile,
// several panels and several groups of tiles. The copy is the
// requantization of the float stored, as the separate quantizing loop it
// replaces computes it.
TEST_P(Mmt4dS8S8FusedTest, FloatResultWithInt8Copy) {
  struct Shape {
    int64_t m, n1, k1, n;
  };
  const Shape shapes[] = {{7, 1, 3, 5}, {50, 3, 16, 48}, {30, 40, 2, 630}};
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  for (const Shape &s : shapes)
    for (bool residual : {false, true}) {
      SCOPED_TRACE(testing::Message() << "m=" << s.m << " n=" << s.n
                                      << (residual ? " residual" : ""));
      Product product = RandomProduct(rng, s.m, s.n1, s.k1);
      std::vector<float> scale(s.n), bias(s.n), buffer(s.m * s.n);
      for (int64_t j = 0; j < s.n; ++j) {
        scale[j] = j % 3 == 0 ? 0.5f : 0.001f + 0.01f * unit(rng);
        bias[j] = 4 * unit(rng) - 2;
      }
      for (float &r : buffer)
        r = 6 * unit(rng) - 3;
      // ReLU, then int8 with zero point -128 (the next layer's input).
      EpilogueCase c = {"", false, true, residual, 0, INFINITY, 1, 0};
      Int8Epilogue e = MakeEpilogue(c, scale, bias, buffer);
      std::vector<float> expected = Expected(product, s.n, {}, e);
      e.q_mul = 1 / 0.0625f;
      e.q_zp = -128;
      std::vector<int8_t> copy(s.m * s.n, 99);
      std::vector<float> out32(s.m * s.n, NAN);
      e.out = residual ? buffer.data() : out32.data(); // In place.
      e.n = s.n;
      e.int8_copy = copy.data();
      std::vector<int8_t> rhs = product.PackedB();
      Mmt4dS8S8Fused(GetParam(), product.a.data(), rhs.data(), s.m, s.n1,
                     s.k1, 0, nullptr, e);
      EXPECT_EQ(residual ? buffer : out32, expected);
      int saturated = 0;
      for (int64_t i = 0; i < s.m * s.n; ++i) {
        float q = std::min(
            std::max(std::nearbyint(expected[i] * 16.f) - 128.f, -128.f),
            127.f);
        saturated += q == 127.f;
        ASSERT_EQ(copy[i], static_cast<int8_t>(q)) << i;
      }
      EXPECT_LT(saturated, s.m * s.n) << "the copy should not be all 127";
    }
}

INSTANTIATE_TEST_SUITE_P(Paths, Mmt4dS8S8FusedTest, kAllPaths, PathTestName);

// The fused entry point generated code calls: integer addresses and the
// epilogue as scalar arguments, best path, an int8 result.
TEST(Mmt4dS8S8Fused, EntryPointTakesAddresses) {
  std::mt19937 rng(8);
  Product product = RandomProduct(rng, 13, 2, 9);
  std::vector<int8_t> rhs = product.PackedB();
  std::vector<int32_t> row = RandomInt32(rng, 32);
  std::vector<float> scale(27, 0.003f), bias(27, -0.5f);
  std::vector<int8_t> out(13 * 27), residual(13 * 27);
  for (size_t i = 0; i < residual.size(); ++i)
    residual[i] = static_cast<int8_t>(i % 9) - 4;
  tfaot_rt_mmt4d_s8s8_fused(
      reinterpret_cast<int64_t>(product.a.data()),
      reinterpret_cast<int64_t>(rhs.data()), 13, 2, 9, kMmt4dColumnInit,
      reinterpret_cast<int64_t>(row.data()),
      reinterpret_cast<int64_t>(out.data()), 27,
      reinterpret_cast<int64_t>(scale.data()),
      reinterpret_cast<int64_t>(bias.data()), 0, -1.f, 6.f, 1, 0.25f, 10.f,
      -128.f, 127.f, 0, 0, 0, reinterpret_cast<int64_t>(residual.data()),
      0.5f, 3.f);
  std::vector<int32_t> rows;
  for (int i = 0; i < 13; ++i)
    rows.insert(rows.end(), row.begin(), row.end());
  std::vector<int32_t> sums = product.Reference(rows);
  for (int i = 0; i < 13; ++i)
    for (int j = 0; j < 27; ++j) {
      float y = sums[i * 32 + j] * 0.003f - 0.5f;
      float r = static_cast<float>(residual[i * 27 + j]) - 3.f;
      r = r * 0.5f;
      y = std::min(std::max(y + r, -1.f), 6.f);
      float q = std::min(std::max(std::nearbyint(y * 0.25f) + 10.f, -128.f),
                         127.f);
      EXPECT_EQ(out[i * 27 + j], static_cast<int8_t>(q)) << i << "," << j;
    }
}

// The entry point generated code calls: integer addresses, best path.
TEST(Mmt4dS8S8S32, EntryPointTakesAddresses) {
  std::mt19937 rng(5);
  Product product = RandomProduct(rng, 13, 2, 9);
  std::vector<int8_t> rhs = product.PackedB();
  std::vector<int32_t> init = RandomInt32(rng, 13 * 16 * 2);
  std::vector<int32_t> out = init;
  tfaot_rt_mmt4d_s8s8s32(reinterpret_cast<int64_t>(product.a.data()),
                         reinterpret_cast<int64_t>(rhs.data()),
                         reinterpret_cast<int64_t>(out.data()), 13, 2, 9, 0,
                         0);
  EXPECT_EQ(out, product.Reference(init));
  tfaot_rt_mmt4d_s8s8s32(reinterpret_cast<int64_t>(product.a.data()),
                         reinterpret_cast<int64_t>(rhs.data()),
                         reinterpret_cast<int64_t>(out.data()), 13, 2, 9,
                         kMmt4dOverwrite, 0);
  EXPECT_EQ(out, product.Reference({}));
  // One initial row for every row of C.
  std::vector<int32_t> row = RandomInt32(rng, 16 * 2), rows;
  for (int i = 0; i < 13; ++i)
    rows.insert(rows.end(), row.begin(), row.end());
  tfaot_rt_mmt4d_s8s8s32(reinterpret_cast<int64_t>(product.a.data()),
                         reinterpret_cast<int64_t>(rhs.data()),
                         reinterpret_cast<int64_t>(out.data()), 13, 2, 9,
                         kMmt4dColumnInit, reinterpret_cast<int64_t>(row.data()));
  EXPECT_EQ(out, product.Reference(rows));
}

TEST(Mmt4dS8S8S32, ThisCpuUsesItsBestPath) {
  Int8GemmPath best = tfaot::internal::BestInt8GemmPath();
  EXPECT_TRUE(Int8GemmPathAvailable(best));
  if (Int8GemmPathAvailable(Int8GemmPath::Amx))
    EXPECT_EQ(best, Int8GemmPath::Amx);
  else if (Int8GemmPathAvailable(Int8GemmPath::Avx512Vnni))
    EXPECT_EQ(best, Int8GemmPath::Avx512Vnni);
  else if (Int8GemmPathAvailable(Int8GemmPath::AvxVnni))
    EXPECT_EQ(best, Int8GemmPath::AvxVnni);
  else if (Int8GemmPathAvailable(Int8GemmPath::Avx2))
    EXPECT_EQ(best, Int8GemmPath::Avx2);
  else
    EXPECT_EQ(best, Int8GemmPath::Scalar);
}

} // namespace

// tfaot_rt_im2col_s8: every byte of every padded row against the
// definition, for runs of each length class of its copies (3, 5, 15, 21
// and 48 bytes), dilations above 1 (a copy per pixel), a batch of 2, and
// on 1 and 2 threads.
TEST(Im2colS8, WritesEveryPaddedRow) {
  struct Case {
    int64_t n, h, w, c, kh, kw, sh, sw, dh, dw, row_bytes;
  };
  // The first is large enough to be split over the threads.
  const Case cases[] = {{1, 61, 61, 3, 7, 7, 2, 2, 1, 1, 148},
                        {1, 13, 13, 3, 7, 7, 2, 2, 1, 1, 148},
                        {2, 9, 8, 5, 3, 3, 1, 1, 2, 2, 48},
                        {1, 6, 7, 1, 3, 3, 1, 2, 1, 1, 12},
                        {1, 5, 9, 5, 1, 3, 1, 1, 1, 1, 16},
                        {1, 4, 6, 16, 2, 3, 2, 1, 1, 1, 96}};
  std::mt19937 rng(17);
  for (const Case &k : cases)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(testing::Message() << "c=" << k.c << " kw=" << k.kw
                                      << " dw=" << k.dw << ", " << threads
                                      << " threads");
      const int64_t oh = (k.h - k.dh * (k.kh - 1) - 1) / k.sh + 1;
      const int64_t ow = (k.w - k.dw * (k.kw - 1) - 1) / k.sw + 1;
      std::vector<int8_t> input(k.n * k.h * k.w * k.c);
      for (int8_t &v : input)
        v = static_cast<int8_t>(rng() % 255 - 127);
      std::vector<int8_t> out(k.n * oh * ow * k.row_bytes, 99);
      tfaot::ThreadPool pool(threads);
      tfaot::internal::ScopedThreadPool scoped(&pool);
      tfaot_rt_im2col_s8(reinterpret_cast<int64_t>(input.data()),
                         reinterpret_cast<int64_t>(out.data()), k.n, k.h, k.w,
                         k.c, k.kh, k.kw, k.sh, k.sw, k.dh, k.dw, oh, ow,
                         k.row_bytes);
      for (int64_t b = 0; b < k.n; ++b)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t x = 0; x < ow; ++x) {
            const int8_t *row = &out[((b * oh + y) * ow + x) * k.row_bytes];
            int64_t at = 0;
            for (int64_t i = 0; i < k.kh; ++i)
              for (int64_t j = 0; j < k.kw; ++j)
                for (int64_t ch = 0; ch < k.c; ++ch, ++at)
                  ASSERT_EQ(row[at],
                            input[((b * k.h + y * k.sh + i * k.dh) * k.w +
                                   x * k.sw + j * k.dw) *
                                      k.c +
                                  ch])
                      << b << "," << y << "," << x << " at " << at;
            for (; at < k.row_bytes; ++at)
              ASSERT_EQ(row[at], 0) << "padding at " << at;
          }
    }
}
