//===- int8_depthwise_test.cpp - Tests for tfaot_rt_depthwise_s8s8_fused --===//
// SPDX-License-Identifier: Apache-2.0
//
// The kernel against a direct reading of its definition (int8_depthwise.h,
// int8_epilogue.h): int64 sums over the window, then the epilogue step by
// step in float32, with std::nearbyint for roundeven. Both the portable
// and this CPU's SIMD code are checked, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "runtime/lib/int8_depthwise.h"
#include "runtime/lib/parallel.h"
#include "tfaot/runtime/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using tfaot::internal::BestDepthwisePath;
using tfaot::internal::DepthwisePath;
using tfaot::internal::DepthwisePathAvailable;
using tfaot::internal::DepthwiseS8S8Fused;
using tfaot::internal::DepthwiseShape;
using tfaot::internal::Int8Epilogue;

struct Case {
  DepthwiseShape shape;
  std::vector<int8_t> input, filter;
  std::vector<int32_t> column_init;
  std::vector<float> scale, bias, residual;

  int64_t Outputs() const {
    return shape.n * shape.ho * shape.wo * shape.c;
  }

  /// The epilogue over this case's operands, result type as asked.
  /// round_only: an int8 result in the form tfaot-fold-requantize leaves
  /// (q_mul 1, q_zp 0, the clamp inside the int8 range), which the kernels
  /// take a shorter path for.
  Int8Epilogue Epilogue(bool int8_result, bool with_bias, bool with_residual,
                        bool round_only = false) const {
    Int8Epilogue e;
    e.scale = scale.data();
    e.bias = with_bias ? bias.data() : nullptr;
    e.residual = with_residual ? residual.data() : nullptr;
    e.lo = round_only ? -100 : 0;
    e.hi = round_only ? 100 : 6;
    e.int8_result = int8_result;
    e.q_mul = round_only ? 1 : 21.25f;
    e.q_zp = round_only ? 0 : -128;
    e.n = shape.c;
    return e;
  }

  /// The definition, results as floats.
  std::vector<float> Expected(const Int8Epilogue &e, bool init) const {
    const DepthwiseShape &s = shape;
    std::vector<float> out(Outputs());
    for (int64_t b = 0; b < s.n; ++b)
      for (int64_t y = 0; y < s.ho; ++y)
        for (int64_t x = 0; x < s.wo; ++x)
          for (int64_t ch = 0; ch < s.c; ++ch) {
            int64_t sum = init ? column_init[ch] : 0;
            for (int64_t i = 0; i < s.kh; ++i)
              for (int64_t j = 0; j < s.kw; ++j)
                sum += int64_t{input[((b * s.h + y * s.sh + i * s.dh) * s.w +
                                      x * s.sw + j * s.dw) *
                                         s.c +
                                     ch]} *
                       filter[(i * s.kw + j) * s.c + ch];
            int64_t at = ((b * s.ho + y) * s.wo + x) * s.c + ch;
            float v = static_cast<float>(static_cast<int32_t>(sum)) * e.scale[ch];
            if (e.bias)
              v = v + e.bias[ch];
            if (e.residual)
              v = v + e.residual[at];
            v = std::min(std::max(v, e.lo), e.hi);
            if (e.int8_result)
              v = std::min(std::max(std::nearbyint(v * e.q_mul) + e.q_zp,
                                    e.q_lo),
                           e.q_hi);
            out[at] = v;
          }
    return out;
  }

  std::vector<float> Run(Int8Epilogue e, bool init,
                         DepthwisePath path = BestDepthwisePath()) const {
    std::vector<float> out32(Outputs(), NAN);
    std::vector<int8_t> out8(Outputs(), 99);
    e.out = e.int8_result ? static_cast<void *>(out8.data()) : out32.data();
    DepthwiseS8S8Fused(input.data(), filter.data(),
                       init ? column_init.data() : nullptr, shape, e, path);
    if (e.int8_result)
      std::transform(out8.begin(), out8.end(), out32.begin(),
                     [](int8_t v) { return static_cast<float>(v); });
    return out32;
  }
};

Case RandomCase(std::mt19937 &rng, DepthwiseShape s) {
  std::uniform_int_distribution<int> byte(-128, 127);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  Case c{s, {}, {}, {}, {}, {}, {}};
  c.input.resize(s.n * s.h * s.w * s.c);
  for (size_t i = 0; i < c.input.size(); ++i)
    c.input[i] = i % 13 == 4 ? -128 : static_cast<int8_t>(byte(rng));
  c.filter.resize(s.kh * s.kw * s.c);
  for (size_t i = 0; i < c.filter.size(); ++i)
    c.filter[i] = i % 7 == 2 ? 127 : static_cast<int8_t>(byte(rng));
  for (int64_t ch = 0; ch < s.c; ++ch) {
    c.column_init.push_back(static_cast<int32_t>(ch * 97 % 4001) - 2000);
    c.scale.push_back(ch % 4 == 0 ? 0.5f : 1e-4f + 2e-4f * unit(rng));
    c.bias.push_back(4 * unit(rng) - 1);
  }
  c.residual.resize(c.Outputs());
  for (float &r : c.residual)
    r = 6 * unit(rng) - 3;
  return c;
}

// The paths this CPU can run: each must give the definition's results.
std::vector<DepthwisePath> AvailablePaths() {
  std::vector<DepthwisePath> paths;
  for (DepthwisePath path :
       {DepthwisePath::Portable, DepthwisePath::Avx2, DepthwisePath::Avx512})
    if (DepthwisePathAvailable(path))
      paths.push_back(path);
  return paths;
}

const char *PathName(DepthwisePath path) {
  switch (path) {
  case DepthwisePath::Portable:
    return "portable";
  case DepthwisePath::Avx2:
    return "avx2";
  case DepthwisePath::Avx512:
    return "avx512";
  }
  return "?";
}

// Stride 1 and 2, dilation, a 5x3 window, two images, channel counts that
// are not multiples of 16 and one above the 512-channel block.
const DepthwiseShape kShapes[] = {
    // n, h, w, c, kh, kw, sh, sw, dh, dw, ho, wo
    {1, 9, 9, 24, 3, 3, 1, 1, 1, 1, 7, 7},
    {2, 11, 12, 40, 3, 3, 2, 2, 1, 1, 5, 5},
    {1, 10, 10, 17, 3, 3, 1, 1, 2, 2, 6, 6},
    {1, 9, 7, 33, 5, 3, 1, 2, 1, 1, 5, 3},
    {1, 4, 4, 600, 3, 3, 1, 1, 1, 1, 2, 2},
    {1, 3, 40, 300, 3, 3, 1, 1, 1, 1, 1, 38},
    // 7x7: more taps than the AVX-512 code keeps in registers.
    {1, 9, 9, 20, 7, 7, 1, 1, 1, 1, 3, 3},
};

TEST(DepthwiseS8S8Fused, MatchesDefinition) {
  std::mt19937 rng(17);
  for (const DepthwiseShape &s : kShapes) {
    Case c = RandomCase(rng, s);
    struct Result {
      const char *name;
      bool int8, round_only;
    };
    for (Result result : {Result{"float", false, false},
                          Result{"int8", true, false},
                          Result{"int8 round-only", true, true}})
      for (bool init : {false, true})
        for (bool residual : {false, true}) {
          SCOPED_TRACE(testing::Message()
                       << "c=" << s.c << " h=" << s.h << " w=" << s.w
                       << " k=" << s.kh << "x" << s.kw << " s=" << s.sh
                       << " d=" << s.dh << " " << result.name
                       << (init ? " init" : "") << (residual ? " residual" : ""));
          Int8Epilogue e =
              c.Epilogue(result.int8, init, residual, result.round_only);
          std::vector<float> expected = c.Expected(e, init);
          for (DepthwisePath path : AvailablePaths())
            EXPECT_EQ(c.Run(e, init, path), expected) << PathName(path);
        }
  }
}

TEST(DepthwiseS8S8Fused, ThreadCountsDoNotChangeResults) {
  std::mt19937 rng(4);
  Case c = RandomCase(rng, {1, 58, 58, 144, 3, 3, 1, 1, 1, 1, 56, 56});
  Int8Epilogue e = c.Epilogue(true, true, false);
  std::vector<float> single = c.Run(e, true);
  EXPECT_EQ(single, c.Expected(e, true));
  for (int threads : {2, 3}) {
    tfaot::ThreadPool pool(threads);
    tfaot::internal::ScopedThreadPool scoped(&pool);
    EXPECT_EQ(c.Run(e, true), single) << threads << " threads";
  }
}

// Into the interior of a buffer padded by 2 on each side (the next
// depthwise convolution's input): the border keeps its value.
TEST(DepthwiseS8S8Fused, WritesIntoAPaddedBuffer) {
  std::mt19937 rng(12);
  Case c = RandomCase(rng, {1, 8, 8, 20, 3, 3, 1, 1, 1, 1, 6, 6});
  Int8Epilogue e = c.Epilogue(true, true, false);
  std::vector<float> dense = c.Expected(e, true);
  const int64_t pad = 2, padded = 6 + 2 * pad;
  std::vector<int8_t> out(padded * padded * 20, 55);
  e.out = out.data() + (pad * padded + pad) * 20;
  e.row_pixels = 6;
  e.row_stride = padded * 20;
  for (DepthwisePath path : AvailablePaths()) {
    std::fill(out.begin(), out.end(), 55);
    DepthwiseS8S8Fused(c.input.data(), c.filter.data(), c.column_init.data(),
                       c.shape, e, path);
    for (int64_t y = 0; y < padded; ++y)
      for (int64_t x = 0; x < padded; ++x)
        for (int64_t ch = 0; ch < 20; ++ch) {
          bool inside = y >= pad && y < 6 + pad && x >= pad && x < 6 + pad;
          float want =
              inside ? dense[((y - pad) * 6 + x - pad) * 20 + ch] : 55.f;
          ASSERT_EQ(out[(y * padded + x) * 20 + ch], want)
              << PathName(path) << " " << y << "," << x << "," << ch;
        }
  }
}

// The entry point generated code calls: addresses and the epilogue as
// scalar arguments.
TEST(DepthwiseS8S8Fused, EntryPointTakesAddresses) {
  std::mt19937 rng(9);
  Case c = RandomCase(rng, {1, 6, 6, 20, 3, 3, 1, 1, 1, 1, 4, 4});
  Int8Epilogue e = c.Epilogue(true, true, false);
  std::vector<int8_t> out(c.Outputs());
  tfaot_rt_depthwise_s8s8_fused(
      reinterpret_cast<int64_t>(c.input.data()),
      reinterpret_cast<int64_t>(c.filter.data()),
      reinterpret_cast<int64_t>(c.column_init.data()), 1, 6, 6, 20, 3, 3, 1,
      1, 1, 1, 4, 4, reinterpret_cast<int64_t>(out.data()),
      reinterpret_cast<int64_t>(c.scale.data()),
      reinterpret_cast<int64_t>(c.bias.data()), 0, e.lo, e.hi, 1, e.q_mul,
      e.q_zp, e.q_lo, e.q_hi, 0, 0);
  std::vector<float> expected = c.Expected(e, true);
  for (size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], expected[i]) << i;
}

} // namespace
