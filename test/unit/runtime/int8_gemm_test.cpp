//===- int8_gemm_test.cpp - Tests for tfaot_rt_mmt4d_s8s8s32 --------------===//
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
  }
  return "Unknown";
}

} // namespace

namespace tfaot::internal {
// Names the path in gtest's messages rather than dumping its bytes.
void PrintTo(Int8GemmPath path, std::ostream *os) { *os << PathName(path); }
} // namespace tfaot::internal

namespace {

class Mmt4dS8S8S32Test : public testing::TestWithParam<Int8GemmPath> {
protected:
  void SetUp() override {
    if (!Int8GemmPathAvailable(GetParam()))
      GTEST_SKIP() << "this CPU cannot run the " << PathName(GetParam())
                   << " path";
  }

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

// kMmt4dColumnInit: every row starts from the same per-column values.
TEST_P(Mmt4dS8S8S32Test, StartsFromColumnInit) {
  std::mt19937 rng(99);
  for (auto [m, n1, k1] : {std::tuple<int64_t, int64_t, int64_t>{7, 3, 37},
                           {49, 5, 16},
                           {200, 2, 144},
                           {3, 70, 4},
                           // More than one chunk of 256 column tiles.
                           {5, 300, 3}}) {
    SCOPED_TRACE(testing::Message()
                 << "m=" << m << " n1=" << n1 << " k1=" << k1);
    Product product = RandomProduct(rng, m, n1, k1);
    std::vector<int32_t> row = RandomInt32(rng, 16 * n1), rows;
    for (int64_t i = 0; i < m; ++i)
      rows.insert(rows.end(), row.begin(), row.end());
    std::vector<int32_t> out(m * 16 * n1, 12345);
    std::vector<int8_t> rhs = product.PackedB();
    Mmt4dS8S8S32(GetParam(), product.a.data(), rhs.data(), out.data(), m, n1,
                 k1, kMmt4dColumnInit, row.data());
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

INSTANTIATE_TEST_SUITE_P(Paths, Mmt4dS8S8S32Test,
                         testing::Values(Int8GemmPath::Scalar,
                                         Int8GemmPath::Avx512Vnni,
                                         Int8GemmPath::AvxVnni,
                                         Int8GemmPath::Avx2),
                         [](const testing::TestParamInfo<Int8GemmPath> &info) {
                           return PathName(info.param);
                         });

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
  if (Int8GemmPathAvailable(Int8GemmPath::Avx512Vnni))
    EXPECT_EQ(best, Int8GemmPath::Avx512Vnni);
  else if (Int8GemmPathAvailable(Int8GemmPath::AvxVnni))
    EXPECT_EQ(best, Int8GemmPath::AvxVnni);
  else if (Int8GemmPathAvailable(Int8GemmPath::Avx2))
    EXPECT_EQ(best, Int8GemmPath::Avx2);
  else
    EXPECT_EQ(best, Int8GemmPath::Scalar);
}

} // namespace
