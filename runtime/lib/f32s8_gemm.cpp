//===- f32s8_gemm.cpp - Float rows times int8 weights ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See f32s8_gemm.h. The work is split by blocks of 64 columns, each walking
// all of k: at batch 1 every thread then streams its own columns of the
// weights once.
//
//===----------------------------------------------------------------------===//
#include "f32s8_gemm.h"

#include "int8_epilogue.h"
#include "int8_epilogue_avx512.h"
#include "parallel.h"

#include <algorithm>

namespace tfaot::internal {
namespace {

/// Columns per unit of work (and per AVX-512 register block: 4 x 16).
constexpr int64_t kColumnBlock = 64;
/// Rows of the weights ahead of the one being read that are prefetched.
constexpr int64_t kPrefetchRows = 16;
/// Below this many multiply-adds the product runs on the calling thread.
constexpr int64_t kParallelWork = int64_t{1} << 16;

struct Problem {
  const float *a;
  const int8_t *b;
  float *out;
  int64_t m, n, k;
};

using BlocksFn = void (*)(const Problem &p, int64_t col_begin, int64_t col_end);

// Rows one at a time, k outer and columns inner so that the compiler
// vectorizes the columns (and with AVX2 forms FMAs).
__attribute__((always_inline)) inline void
LoopColumns(const Problem &p, int64_t col_begin, int64_t col_end) {
  for (int64_t i = 0; i < p.m; ++i) {
    float *__restrict out = p.out + i * p.n;
    for (int64_t j = col_begin; j < col_end; ++j)
      out[j] = 0.0f;
    for (int64_t kk = 0; kk < p.k; ++kk) {
      const float x = p.a[i * p.k + kk];
      const int8_t *__restrict w = p.b + kk * p.n;
      for (int64_t j = col_begin; j < col_end; ++j)
        out[j] += x * static_cast<float>(w[j]);
    }
  }
}

void PortableColumns(const Problem &p, int64_t col_begin, int64_t col_end) {
  LoopColumns(p, col_begin, col_end);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void
Avx2Columns(const Problem &p, int64_t col_begin, int64_t col_end) {
  LoopColumns(p, col_begin, col_end);
}

// R rows x up to 64 columns in R x 4 registers; the weights of each k are
// loaded and converted once for the R rows.
template <int R>
TFAOT_AVX512_TARGET void Avx512Block(const Problem &p, int64_t row, int64_t col,
                                     int64_t cols) {
  __mmask16 mask[4];
  for (int t = 0; t < 4; ++t)
    mask[t] = Avx512FirstLanes(cols - 16 * t);
  __m512 acc[R][4];
  for (int r = 0; r < R; ++r)
    for (int t = 0; t < 4; ++t)
      acc[r][t] = _mm512_setzero_ps();
  const float *a = p.a + row * p.k;
  const int8_t *b = p.b + col;
  for (int64_t kk = 0; kk < p.k; ++kk, b += p.n) {
    _mm_prefetch(reinterpret_cast<const char *>(b + kPrefetchRows * p.n),
                 _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char *>(b + kPrefetchRows * p.n + 63),
                 _MM_HINT_T0);
    __m512 w[4];
    for (int t = 0; t < 4; ++t)
      w[t] = _mm512_cvtepi32_ps(
          _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(mask[t], b + 16 * t)));
    for (int r = 0; r < R; ++r) {
      const __m512 x = _mm512_set1_ps(a[r * p.k + kk]);
      for (int t = 0; t < 4; ++t)
        acc[r][t] = _mm512_fmadd_ps(x, w[t], acc[r][t]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int t = 0; t < 4; ++t)
      _mm512_mask_storeu_ps(p.out + (row + r) * p.n + col + 16 * t, mask[t],
                            acc[r][t]);
}

TFAOT_AVX512_TARGET void Avx512Columns(const Problem &p, int64_t col_begin,
                                       int64_t col_end) {
  for (int64_t col = col_begin; col < col_end; col += kColumnBlock) {
    const int64_t cols = std::min(kColumnBlock, col_end - col);
    int64_t row = 0;
    for (; row + 4 <= p.m; row += 4)
      Avx512Block<4>(p, row, col, cols);
    switch (p.m - row) {
    case 3:
      Avx512Block<3>(p, row, col, cols);
      break;
    case 2:
      Avx512Block<2>(p, row, col, cols);
      break;
    case 1:
      Avx512Block<1>(p, row, col, cols);
      break;
    default:
      break;
    }
  }
}
#endif

struct Task {
  const Problem *p;
  BlocksFn fn;
};

void RunColumnBlocks(void *context, int64_t begin, int64_t end) {
  const Task &task = *static_cast<const Task *>(context);
  const Problem &p = *task.p;
  task.fn(p, begin * kColumnBlock, std::min(p.n, end * kColumnBlock));
}

} // namespace

bool F32S8PathAvailable(F32S8Path path) {
  // The epilogue's question (AVX-512 F, BW and VL, else AVX2), plus FMA for
  // the AVX2 loops, asked once.
  const EpilogueIsa isa = BestEpilogueIsa();
  static const bool fma = [] {
#if defined(__x86_64__)
    __builtin_cpu_init(); // Callers may run before the library's constructors.
    return __builtin_cpu_supports("fma") != 0;
#else
    return false;
#endif
  }();
  switch (path) {
  case F32S8Path::Portable:
    return true;
  case F32S8Path::Avx2:
    return isa != EpilogueIsa::Portable && fma;
  case F32S8Path::Avx512:
    return isa == EpilogueIsa::Avx512;
  }
  return false;
}

/// The path tfaot_rt_matmul_f32s8 uses on this CPU.
F32S8Path BestF32S8Path() {
  static const F32S8Path best =
      F32S8PathAvailable(F32S8Path::Avx512) ? F32S8Path::Avx512
      : F32S8PathAvailable(F32S8Path::Avx2) ? F32S8Path::Avx2
                                            : F32S8Path::Portable;
  return best;
}

void MatmulF32S8(F32S8Path path, const float *a, const int8_t *b, float *out,
                 int64_t m, int64_t n, int64_t k) {
  if (m <= 0 || n <= 0)
    return;
  Problem p{a, b, out, m, n, k};
  Task task{&p, PortableColumns};
#if defined(__x86_64__)
  if (F32S8PathAvailable(path) && path == F32S8Path::Avx512)
    task.fn = Avx512Columns;
  else if (F32S8PathAvailable(path) && path == F32S8Path::Avx2)
    task.fn = Avx2Columns;
#else
  (void)path;
#endif
  const int64_t blocks = (n + kColumnBlock - 1) / kColumnBlock;
  if (m * n * k >= kParallelWork && blocks > 1)
    tfaot_rt_parallel_for(RunColumnBlocks, &task, blocks);
  else
    RunColumnBlocks(&task, 0, blocks);
}

} // namespace tfaot::internal

extern "C" void tfaot_rt_matmul_f32s8(int64_t a, int64_t b, int64_t out,
                                      int64_t m, int64_t n, int64_t k) {
  using namespace tfaot::internal;
  MatmulF32S8(BestF32S8Path(), reinterpret_cast<const float *>(a),
              reinterpret_cast<const int8_t *>(b),
              reinterpret_cast<float *>(out), m, n, k);
}
