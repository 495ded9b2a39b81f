//===- Ops.h - tfaot dialect operations -------------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Declares the ops generated from Ops.td, plus the shape helpers their
// verifiers and the importer's type inference share.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_IR_OPS_H
#define TFAOT_IR_OPS_H

#include "ir/Dialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ir/Ops.h.inc"

namespace mlir::tfaot {

/// TF's truth value of an If/While predicate when compile time knows it: a
/// tensor of rank >= 1 is true when it has elements, a constant scalar when
/// it is non-zero; nullopt when only the run decides.
std::optional<bool> staticTruth(Value cond);

/// The region a Case runs for a constant `index` (out of range: the last of
/// `numBranches`, as in TF), or nullopt.
std::optional<int64_t> staticBranch(Value index, int64_t numBranches);

/// NumPy/TensorFlow broadcast of two shapes (dynamic dims are
/// ShapedType::kDynamic). Returns failure if they are incompatible.
LogicalResult broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                              SmallVectorImpl<int64_t> &result);

/// Resolves a TF Reshape target shape (at most one -1) against the number of
/// input elements. Returns failure and sets `why` when it cannot.
LogicalResult resolveReshape(int64_t numElements, ArrayRef<int64_t> requested,
                             SmallVectorImpl<int64_t> &result,
                             std::string &why);

/// The integers a quantized storage type (TF's quint8 = ui8, qint8 = i8,
/// qint32 = i32, ...) holds.
struct QuantizedStorage {
  int bits;
  bool isSigned;
  double lowest, highest;
};
QuantizedStorage quantizedStorageOf(IntegerType type);

/// Geometry of a 2-D window op (convolution or pool) after TF's padding
/// rules: the output shape and the padding applied to H and W.
struct Window2D {
  SmallVector<int64_t> outputShape;  ///< In the op's data_format.
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t heightDim = 1, widthDim = 2, channelDim = 3;  ///< In data_format.
};

/// Computes a Window2D for an input of `inputShape` (rank 4, static), a
/// window of `windowH` x `windowW`, TF's 4-element `strides`/`dilations` in
/// data_format order, `padding` ("SAME", "VALID", "EXPLICIT" with 8
/// `explicitPaddings`) and `outChannels` output channels.
FailureOr<Window2D> computeWindow2D(ArrayRef<int64_t> inputShape,
                                    StringRef dataFormat, int64_t windowH,
                                    int64_t windowW, ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> dilations,
                                    StringRef padding,
                                    ArrayRef<int64_t> explicitPaddings,
                                    int64_t outChannels, std::string &why);

/// A TF StridedSlice resolved against a static input shape: an
/// extract_slice of the input (offsets/sizes/strides per input dimension)
/// followed by a reshape to `outputShape` (shrunk axes removed, new axes
/// inserted).
struct StridedSliceSpec {
  SmallVector<int64_t> offsets, sizes, strides;
  SmallVector<int64_t> outputShape;
};

/// Resolves TF's StridedSlice semantics (masks, negative indices, clamping).
/// Fails with `why` for negative strides and malformed specs.
FailureOr<StridedSliceSpec>
computeStridedSlice(ArrayRef<int64_t> inputShape, ArrayRef<int64_t> begin,
                    ArrayRef<int64_t> end, ArrayRef<int64_t> strides,
                    int64_t beginMask, int64_t endMask, int64_t ellipsisMask,
                    int64_t newAxisMask, int64_t shrinkAxisMask,
                    std::string &why);

/// The integers of an I64ArrayAttr.
SmallVector<int64_t> getI64Values(ArrayAttr attr);

/// The integer values of `value` if it is a constant (looking through
/// tfaot.Identity, as TF graphs often read constants via "x/read").
std::optional<SmallVector<int64_t>> getConstantIntValues(Value value);

/// Resolves TF's Slice (one begin and one size per dimension, size -1 meaning
/// "to the end") against a static input shape into the slice's sizes.
LogicalResult resolveSlice(ArrayRef<int64_t> inputShape,
                           ArrayRef<int64_t> begin, ArrayRef<int64_t> size,
                           SmallVectorImpl<int64_t> &sizes, std::string &why);

/// Result shape of MirrorPad with [rank, 2] `paddings` in `mode`.
LogicalResult computeMirrorPad(ArrayRef<int64_t> inputShape,
                               ArrayRef<int64_t> paddings, StringRef mode,
                               SmallVectorImpl<int64_t> &shape,
                               std::string &why);

/// Result shape of SpaceToBatchND with `block` ([M]) and `paddings` ([M, 2]).
LogicalResult computeSpaceToBatch(ArrayRef<int64_t> inputShape,
                                  ArrayRef<int64_t> block,
                                  ArrayRef<int64_t> paddings,
                                  SmallVectorImpl<int64_t> &shape,
                                  std::string &why);

/// Result shape of BatchToSpaceND with `block` ([M]) and `crops` ([M, 2]).
LogicalResult computeBatchToSpace(ArrayRef<int64_t> inputShape,
                                  ArrayRef<int64_t> block,
                                  ArrayRef<int64_t> crops,
                                  SmallVectorImpl<int64_t> &shape,
                                  std::string &why);

} // namespace mlir::tfaot

#endif // TFAOT_IR_OPS_H
