//===- int8_im2col.cpp - tfaot_rt_im2col_s8 -------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The rows of an int8 convolution's im2col matrix written straight into
// the product's operand, whose rows are padded to a multiple of 4 bytes
// (the kernel's k-groups). The generated code gathered the windows into
// an unpadded [OH, OW, KH, KW, C] buffer element by element (a 7x7x3
// first convolution moves 3 bytes per step) and then copied that into the
// padded rows: ResNet-50's conv1 spent 0.44 ms there, two thirds of its
// product's time. Here each window row (KW pixels of C channels, one run
// of bytes when the dilation is 1) is two fixed-size moves: 0.07 ms.
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/cpu_kernels.h"

#include "parallel.h"

#include <cstring>

namespace {

/// Copies `len` bytes, len in [Min, 2 * Min] (Min 4, 8 or 16), with
/// two fixed-size moves that overlap in the middle; Min 0: any length, in
/// 16-byte steps. A call of memcpy per window row, or a dispatch on its
/// length per row, made this 3.5x slower (conv1 of ResNet-50: 0.29 ms
/// against 0.07).
template <int Min>
__attribute__((always_inline)) inline void CopyRun(int8_t *dst,
                                                   const int8_t *src,
                                                   int64_t len) {
  if constexpr (Min == 0) {
    int64_t at = 0;
    for (; at + 16 <= len; at += 16)
      std::memcpy(dst + at, src + at, 16);
    for (; at < len; ++at)
      dst[at] = src[at];
  } else {
    std::memcpy(dst, src, Min);
    std::memcpy(dst + len - Min, src + len - Min, Min);
  }
}

struct Im2col {
  const int8_t *input;
  int8_t *out;
  int64_t h, w, c, kh, kw, sh, sw, dh, dw, oh, ow, row_bytes;
};

// Output rows of image rows [begin, end) (batch x OH). `Min`: CopyRun's
// for the runs (kw * c bytes, or c with a dilation).
template <int Min> void Rows(void *context, int64_t begin, int64_t end) {
  const Im2col &p = *static_cast<const Im2col *>(context);
  const bool dense = p.dw == 1; // A window row is one run of bytes.
  const int64_t run = dense ? p.kw * p.c : p.c;
  const int64_t window_bytes = p.kh * p.kw * p.c;
  const int64_t line = p.dh * p.w * p.c; // From one window row to the next.
  for (int64_t image_row = begin; image_row < end; ++image_row) {
    const int64_t b = image_row / p.oh, y = image_row % p.oh;
    int8_t *row = p.out + image_row * p.ow * p.row_bytes;
    const int8_t *top = p.input + (b * p.h + y * p.sh) * p.w * p.c;
    for (int64_t x = 0; x < p.ow; ++x, row += p.row_bytes) {
      int8_t *dst = row;
      const int8_t *src = top + x * p.sw * p.c;
      for (int64_t i = 0; i < p.kh; ++i, src += line) {
        if (dense) {
          CopyRun<Min>(dst, src, run);
          dst += run;
        } else {
          for (int64_t j = 0; j < p.kw; ++j, dst += run)
            CopyRun<Min>(dst, src + j * p.dw * p.c, run);
        }
      }
      for (int64_t at = window_bytes; at < p.row_bytes; ++at)
        row[at] = 0;
    }
  }
}

/// Rows<Min> for runs of `len` bytes.
void (*RowsFor(int64_t len))(void *, int64_t, int64_t) {
  return len >= 16 && len <= 32 ? Rows<16>
         : len >= 8 && len < 16 ? Rows<8>
         : len >= 4 && len < 8  ? Rows<4>
                                : Rows<0>;
}

} // namespace

extern "C" void tfaot_rt_im2col_s8(int64_t input, int64_t out, int64_t n,
                                   int64_t h, int64_t w, int64_t c,
                                   int64_t kh, int64_t kw, int64_t sh,
                                   int64_t sw, int64_t dh, int64_t dw,
                                   int64_t oh, int64_t ow, int64_t row_bytes) {
  Im2col p{reinterpret_cast<const int8_t *>(input),
           reinterpret_cast<int8_t *>(out),
           h, w, c, kh, kw, sh, sw, dh, dw, oh, ow, row_bytes};
  const int64_t rows = n * oh;
  auto body = RowsFor(dw == 1 ? kw * c : c);
  // Parallel only where a row of images is worth waking a thread for.
  if (rows > 1 && rows * ow * row_bytes >= (int64_t{1} << 16))
    tfaot_rt_parallel_for(body, &p, rows);
  else
    body(&p, 0, rows);
}
