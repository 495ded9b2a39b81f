//===- int8_depthwise.h - The int8 depthwise convolution kernel -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. A quantized depthwise convolution
// (channel multiplier 1) is lowered to linalg.depthwise_conv_2d_nhwc_hwc on
// int8 operands with int32 sums; when the elementwise code after it is the
// epilogue of int8_epilogue.h (rescale, bias, ReLU6, requantize), the
// compiler replaces both with a call of tfaot_rt_depthwise_s8s8_fused.
// Each output row is summed into a buffer on the stack and finished by the
// epilogue there (with AVX-512, in the registers holding the sums), so
// neither the int32 sums nor a float copy of the activations go through
// memory: only int8 in and the result out.
//
// Layouts (row-major, dense, no alignment required):
//   input  int8_t [n][h][w][c]    already padded (with the zero point);
//   filter int8_t [kh][kw][c];
//   result          [n][ho][wo][c] as the epilogue says (float or int8),
// with result[b][y][x][ch] = epilogue(column_init[ch] + sum over i < kh,
// j < kw of input[b][y*sh + i*dh][x*sw + j*dw][ch] * filter[i][j][ch]).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_INT8_DEPTHWISE_H
#define TFAOT_RUNTIME_INT8_DEPTHWISE_H

#include "int8_epilogue.h"
#include "tfaot/runtime/cpu_kernels.h"

#include <cstdint>

namespace tfaot::internal {

/// The shape of a depthwise convolution (the input's dimensions padded).
struct DepthwiseShape {
  int64_t n, h, w, c;     ///< Input.
  int64_t kh, kw;         ///< Filter window.
  int64_t sh, sw, dh, dw; ///< Strides and dilations.
  int64_t ho, wo;         ///< Output rows and columns.
};

/// The kernel's code paths.
enum class DepthwisePath {
  Portable, ///< Portable C++; the reference and the fallback.
  Avx2,     ///< The same loops compiled for AVX2.
  Avx512,   ///< By hand, 16 channels per register (AVX-512 F, BW and VL).
};

/// Whether this CPU (and build) can run `path`.
bool DepthwisePathAvailable(DepthwisePath path);

/// The fastest path this CPU has, asked once.
DepthwisePath BestDepthwisePath();

/// tfaot_rt_depthwise_s8s8_fused on `path` (which the CPU must have); tests
/// run each one.
void DepthwiseS8S8Fused(const int8_t *input, const int8_t *filter,
                        const int32_t *column_init, const DepthwiseShape &shape,
                        const Int8Epilogue &epilogue,
                        DepthwisePath path = BestDepthwisePath());

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_INT8_DEPTHWISE_H
