//===- int8_epilogue.h - What int8 kernels do to their int32 sums -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime library. An int8 convolution or matrix product
// sums into int32; what the model does next (rescale to float, bias,
// residual, ReLU/ReLU6, often quantize again for the next int8 layer) is
// applied by the kernel itself to each block of sums while it is in cache,
// so the sums never go to memory. The compiler only hands a kernel the
// epilogue when the elementwise code after the product is exactly this.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_INT8_EPILOGUE_H
#define TFAOT_RUNTIME_INT8_EPILOGUE_H

#include "padded_rows.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace tfaot::internal {

/// For the int32 sum `acc` of row i, column j of an m x n result, in this
/// order (each a float32 operation, so the result is the one the
/// elementwise code it replaces computes):
///   y = float(acc) * scale[j]; y = y + bias[j] (if bias);
///   y = y + residual[i][j] (if residual);  y = min(max(y, lo), hi);
/// where an int8 residual (residual_int8) is read as
///   r = float(residual_int8[i][j]) - residual_zp; r = r * residual_scale;
/// then a float32 result stores y, and an int8 result stores
///   int8(min(max(roundeven(y * q_mul) + q_zp, q_lo), q_hi)).
/// The result (and the residual) are m x n, row-major and dense (the
/// result may be a padded buffer's interior, see row_pixels). No operand
/// may overlap the result, except that a float result may be its residual
/// itself: each element is read before it is written.
///
/// An int8 residual is the residual stream of a network quantized with
/// --quantize_residuals: the block's input as its first product read it,
/// a quarter of the float stream's bytes. It may be the int8 result itself
/// (read before written, as a float residual may be a float result).
///
/// A float result may also be stored requantized (int8_copy): the residual
/// stream of a ResNet is float, for the next block's residual add, and
/// int8 for the next block's first product; writing both at once saves
/// reading the float stream back for the second.
struct Int8Epilogue {
  const float *scale = nullptr;    ///< n values.
  const float *bias = nullptr;     ///< n values, or null for none.
  const float *residual = nullptr; ///< m x n values, or null for none.
  /// m x n int8 values, or null for none (at most one of the residuals).
  const int8_t *residual_int8 = nullptr;
  float residual_scale = 1, residual_zp = 0;
  float lo = -__builtin_inff(), hi = __builtin_inff();
  bool int8_result = false;
  float q_mul = 1, q_zp = 0, q_lo = -128, q_hi = 127;
  void *out = nullptr; ///< float[m][n], or int8_t[m][n] with int8_result.
  int64_t n = 0;
  /// With row_pixels > 0 the result is the interior of a larger (padded)
  /// NHWC buffer: its rows are the pixels of image rows of row_pixels
  /// pixels whose starts are row_stride elements apart, so row i is at
  /// (i / row_pixels) * row_stride + (i % row_pixels) * n. 0: dense.
  int64_t row_pixels = 0, row_stride = 0;
  /// With a float result (dense): also int8(min(max(roundeven(y * q_mul) +
  /// q_zp, q_lo), q_hi)) of each stored y, here (int8_t[m][n], dense); or
  /// null. Only the matrix product's kernels take it.
  int8_t *int8_copy = nullptr;

  /// Where row `i` of the result starts, in elements from `out`.
  int64_t RowOffset(int64_t i) const {
    return PaddedRowOffset(i, n, row_pixels, row_stride);
  }
};

/// What an epilogue stores. kInt8RoundOnly is an int8 result whose
/// requantization is the rounding alone: q_mul 1, q_zp 0, q_lo..q_hi the
/// whole int8 range and lo..hi within it, the form tfaot-fold-requantize
/// gives the compiler's elementwise code. Then roundeven(y * 1) + 0 is
/// roundeven(y), already in range, so kernels skip the multiply, the add
/// and the second clamp and store the same bits.
enum EpilogueResult : int {
  kFloatResult = 0,
  kInt8Result = 1,
  kInt8RoundOnly = 2,
};

inline EpilogueResult ResultOf(const Int8Epilogue &e) {
  if (!e.int8_result)
    return kFloatResult;
  const bool round_only = e.q_mul == 1 && e.q_zp == 0 && e.q_lo == -128 &&
                          e.q_hi == 127 && e.lo >= -128 && e.hi <= 127;
  return round_only ? kInt8RoundOnly : kInt8Result;
}

/// What an epilogue adds after the bias.
enum EpilogueResidual : int {
  kNoResidual = 0,
  kFloatResidual = 1,
  kInt8Residual = 2,
};

inline EpilogueResidual ResidualOf(const Int8Epilogue &e) {
  return e.residual        ? kFloatResidual
         : e.residual_int8 ? kInt8Residual
                           : kNoResidual;
}

/// Kernels are instantiated for each <result, bias, residual>; this is
/// the index of an epilogue's: 6 * result + 3 * (bias) + residual.
inline constexpr int kEpilogueVariants = 18;
inline int EpilogueVariant(const Int8Epilogue &e) {
  return 6 * ResultOf(e) + (e.bias ? 3 : 0) + ResidualOf(e);
}

template <typename Fn, template <int, bool, int> class Pick, std::size_t... I>
constexpr std::array<Fn, kEpilogueVariants>
EpilogueVariantTableOf(std::index_sequence<I...>) {
  return {Pick<I / 6, (I / 3) % 2 != 0, I % 3>::fn...};
}

/// The table, indexed by EpilogueVariant, of Pick<Result, Bias,
/// Residual>::fn: the instantiations of a kernel for each variant.
template <typename Fn, template <int, bool, int> class Pick>
constexpr std::array<Fn, kEpilogueVariants> EpilogueVariantTable() {
  return EpilogueVariantTableOf<Fn, Pick>(
      std::make_index_sequence<kEpilogueVariants>());
}

/// The epilogue the kernels' C entry points take as scalar arguments
/// (addresses as integers, 0 for no bias or residual).
Int8Epilogue EpilogueFromArguments(int64_t out, int64_t n, int64_t scale,
                                   int64_t bias, int64_t residual, float lo,
                                   float hi, int32_t int8_result, float q_mul,
                                   float q_zp, float q_lo, float q_hi,
                                   int64_t row_pixels, int64_t row_stride);

/// Applies an epilogue to `rows` x `cols` sums at `acc` (rows `ld` int32s
/// apart): the block of the result at row `row0`, column `col0`.
using EpilogueFn = void (*)(const Int8Epilogue &, const int32_t *acc,
                            int64_t ld, int64_t row0, int64_t rows,
                            int64_t col0, int64_t cols);

/// The instruction sets the epilogue is compiled for.
enum class EpilogueIsa { Portable, Avx2, Avx512 };

/// The best of them this CPU has (Avx512: AVX-512 F, BW and VL), asked
/// once. The depthwise kernel, which has code for the same three, uses it
/// too.
EpilogueIsa BestEpilogueIsa();

/// The epilogue for `isa`; the caller knows the CPU has it (Avx512 needs
/// AVX-512 F, BW and VL).
EpilogueFn EpilogueFor(EpilogueIsa isa);

} // namespace tfaot::internal

#endif // TFAOT_RUNTIME_INT8_EPILOGUE_H
