//===- ConstantUtils.h - Constant tensors in the graph passes ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Reading and rearranging the dense constants that tfaot.Const holds,
// shared by the graph passes (simplify, layout assignment).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_CONSTANTUTILS_H
#define TFAOT_PASSES_CONSTANTUTILS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::tfaot {

/// The value of `value` if a constant-like op defines it, else null.
DenseElementsAttr denseConstant(Value value);

/// The per-channel float32 values of constant `c`, an operand of an
/// elementwise op on a value of type `valueType` whose channels run along
/// `channelDim`: `c` must broadcast to `valueType` without changing it and
/// vary at most along the channel dimension ([C], [1,1,1,C], [C,1,1] for
/// NCHW, a scalar...). A scalar is repeated for every channel.
std::optional<SmallVector<float>>
channelConstant(Value c, RankedTensorType valueType, int64_t channelDim);

/// `attr` transposed by `perm` (result dimension k is input dimension
/// perm[k]), element by element. Null for element types that are neither
/// i1 nor a whole number of bytes.
DenseElementsAttr transposeElements(DenseElementsAttr attr,
                                    ArrayRef<int64_t> perm);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_CONSTANTUTILS_H
