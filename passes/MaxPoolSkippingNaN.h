//===- MaxPoolSkippingNaN.h - Float max pools that skip NaN -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A float max pool as a linalg.generic with linalg.pooling_nhwc_max's loops,
// maps and operands, whose body is arith.maxnumf instead of the named op's
// arith.maximumf. maxnumf returns the number when one operand is NaN, so the
// pool skips NaN as TensorFlow.js does (it keeps `pixel > max`, false for
// NaN): a window pools to its largest number, a window of only NaN to the
// initial -inf. Everything else (loops, operands, the -inf padding and
// init) is the named op's, and nothing is added outside the pool, so the
// producers' loops and the GPU backend's convolution epilogues stay as
// they were. On finite data the two bodies compute the same maximum.
//
// The generic is recognized again by isMaxPoolSkippingNaN: elementwise
// fusion must not fuse producers into it (the named op never took them;
// each element is read by several windows), and the CPU backend gives it
// the named pools' vectorizable loop order.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_MAXPOOLSKIPPINGNAN_H
#define TFAOT_PASSES_MAXPOOLSKIPPINGNAN_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::tfaot {

/// The max pool of NHWC `input` (already padded) over windows of `window`'s
/// shape (an empty tensor [kh, kw]: it only gives the loops their extent)
/// with `strides` [sh, sw], accumulated into `init` ([n, oh, ow, c], filled
/// with -inf). Dilations are 1, as in TF's MaxPool.
Value buildMaxPoolSkippingNaN(OpBuilder &b, Location loc, Value input,
                              Value window, Value init,
                              ArrayRef<int64_t> strides);

/// Whether `op` is a pool built by buildMaxPoolSkippingNaN (on tensors or,
/// after bufferization, on buffers).
bool isMaxPoolSkippingNaN(Operation *op);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_MAXPOOLSKIPPINGNAN_H
