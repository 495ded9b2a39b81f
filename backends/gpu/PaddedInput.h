//===- PaddedInput.h - A convolution input that is a zero pad --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// cuDNN's legacy convolution call pads its input with zeros, the same
// number on both sides of H and of W. Bufferization makes a tensor.pad an
// alloc, a fill of the padding value (linalg.map or linalg.fill) and a copy
// of the source into a subview of it; for a cuDNN convolution that reads
// such a buffer alone, tfaot-gpu-cudnn-calls hands cuDNN the source and the
// padding instead, and the three ops go (two kernels fewer, and one
// activation less written and read).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_PADDEDINPUT_H
#define TFAOT_BACKENDS_GPU_PADDEDINPUT_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace tfaot::gpu {

struct SymmetricZeroPad {
  mlir::Value source;  ///< The dense NHWC buffer that was copied in.
  int64_t h = 0, w = 0;  ///< Zeros on each side of H and of W.
  /// The copy, the subview and the fill, in that order (users first), and
  /// the alloc last: they go once the convolution reads `source`.
  llvm::SmallVector<mlir::Operation *, 4> ops;
};

/// The buffer `view` is a view of (itself if it is none).
mlir::Value viewRoot(mlir::Value view);

/// The symmetric zero padding that `x` (the NHWC input buffer of `conv`,
/// on buffers) is, if nothing but `conv` reads it, it is written only by
/// the fill and the copy, and nothing between the copy and `conv` touches
/// the source (which `conv` then reads later than the copy did).
std::optional<SymmetricZeroPad> matchSymmetricZeroPad(mlir::Value x,
                                                      mlir::Operation *conv);

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_PADDEDINPUT_H
