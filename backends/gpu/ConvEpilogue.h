//===- ConvEpilogue.h - What cuDNN's fused convolution can take --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// cudnnConvolutionBiasActivationForward computes
//   y = act(conv(x, w) + z + bias)
// in one call. After the elementwise fusion a TF convolution's BiasAdd,
// residual Add and Relu are one linalg.generic reading the convolution's
// output; matchConvEpilogue says whether that generic is exactly such an
// epilogue. Both halves of the cuDNN path use it: tfaot-gpu-convs-to-cudnn
// (on tensors: which convolutions go to cuDNN) and tfaot-gpu-cudnn-calls
// (on buffers: the call that replaces the convolution and its epilogue).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_CONVEPILOGUE_H
#define TFAOT_BACKENDS_GPU_CONVEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace tfaot::gpu {

struct ConvEpilogue {
  mlir::linalg::GenericOp op;
  unsigned convInput = 0;  ///< The generic's input that is conv's output.
  std::optional<unsigned> biasInput;      ///< [K], broadcast over N, H, W.
  std::optional<unsigned> residualInput;  ///< NHWC like the output.
  bool relu = false;
  /// The ReLU is capped at 6 (ReLU6: min(max(x, 0), 6)), which cuDNN's
  /// CLIPPED_RELU with a ceiling of 6 computes.
  bool relu6 = false;
  /// The generic rounds its f32 result to its (16-bit) output type once,
  /// at the store (tfaot-gpu-store-half).
  bool narrows = false;
};

/// The generic that finishes `conv` (a 2-d NHWC convolution on tensors or
/// buffers) if its body is y = relu?(conv + z? + bias?), in any order of
/// the two additions, the bias and z possibly widened from 16 bits, the
/// ReLU possibly capped at 6 (ReLU6), the result possibly rounded to 16
/// bits. On tensors `conv`'s result must
/// have no other reader. On buffers the generic must come right after
/// `conv` (nothing that touches memory in between), so that one call in
/// its place reads what both read; that no one else reads the output is
/// the caller's to know (the buffer plan's views are shared by tensors that
/// take turns in one place): tfaot-gpu-convs-to-cudnn saw it on tensors
/// and marks the convolution with kFusedEpilogueAttr.
std::optional<ConvEpilogue> matchConvEpilogue(mlir::linalg::LinalgOp conv);

/// The unit attribute on a convolution whose epilogue cuDNN takes.
constexpr char kFusedEpilogueAttr[] = "tfaot.cudnn_fused_epilogue";
/// The unit attribute on a cuDNN convolution whose input a copy pads (for
/// `explain`: "pad copy + cuDNN").
constexpr char kPaddedInputAttr[] = "tfaot.cudnn_padded_input";

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_CONVEPILOGUE_H
