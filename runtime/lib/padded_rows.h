//===- padded_rows.h - Where a kernel's result rows start ------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. A fused kernel's result (the int8
// kernels' Int8Epilogue, the float32 panel kernel's F32Epilogue) is m rows
// of n values, dense, or the interior of a larger padded NHWC buffer
// (tfaot-write-into-padded-buffers makes a padded convolution's producer
// write there): then its rows are the pixels of image rows of row_pixels
// pixels whose starts are row_stride elements apart.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_PADDED_ROWS_H
#define TFAOT_RUNTIME_PADDED_ROWS_H

#include <cstdint>

namespace tfaot::internal {

/// Where row `i` of such a result starts, in elements: i * n when dense
/// (row_pixels 0), else (i / row_pixels) * row_stride + (i % row_pixels) * n.
inline int64_t PaddedRowOffset(int64_t i, int64_t n, int64_t row_pixels,
                               int64_t row_stride) {
  return row_pixels > 0 ? (i / row_pixels) * row_stride + (i % row_pixels) * n
                        : i * n;
}

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_PADDED_ROWS_H
