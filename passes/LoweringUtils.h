//===- LoweringUtils.h - Shared pieces of the tfaot lowerings ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Builders used by every tfaot -> linalg pattern: element-type handling
// (TF's unsigned types become signless), broadcasting indexing maps, and the
// elementwise linalg.generic skeleton.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_LOWERINGUTILS_H
#define TFAOT_PASSES_LOWERINGUTILS_H

#include "ir/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tfaot {

/// Element type as the lowered code sees it: unsigned integers are signless.
Type toSignless(Type type);
RankedTensorType toSignless(RankedTensorType type);

/// Whether arithmetic on `type` is unsigned (TF's uint types and bool).
bool isUnsignedInt(Type type);

/// Indexing map reading `operandShape` inside a loop nest over `resultShape`
/// under NumPy broadcasting.
AffineMap broadcastMap(ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> resultShape, MLIRContext *ctx);

/// A scalar constant of `type` (float or integer).
Value scalarConstant(OpBuilder &b, Location loc, Type type, double value);

/// linalg.generic computing one result of `resultType` from `inputs` read
/// through `inputMaps`, all loops parallel; `body` gets the input scalars.
Value buildElementwise(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange inputs, ArrayRef<AffineMap> inputMaps,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// Broadcasting elementwise op over already-converted `operands`.
Value buildBroadcasting(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange operands,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// A tensor of `type` filled with `value`.
Value buildFilled(OpBuilder &b, Location loc, RankedTensorType type,
                  Value value);

/// What buildReduction made: the reduced tensor (reduced dimensions
/// dropped) and how many input elements fold into each of its elements.
struct Reduction {
  Value result;
  int64_t count;
};

/// `input` reduced over `axes` (negative counts from the end) by a
/// linalg.generic: each result element starts at `initValue` and folds in
/// its inputs with `combine(b, loc, element, accumulator)`.
Reduction buildReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    Value initValue,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine);

/// `value` reshaped to the static `type` (tensor.reshape with a constant
/// shape operand).
Value buildStaticReshape(OpBuilder &b, Location loc, Value value,
                         RankedTensorType type);

/// `value` with its dimensions permuted by `perm` (linalg.transpose).
Value buildTranspose(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> perm);

/// `value` (NHWC) padded in H and W by the window's padding with `fill`
/// (returned as it is when the window has none).
Value padSpatial(OpBuilder &b, Location loc, Value value,
                 const Window2D &window, Value fill);

/// A matrix product as a linalg.generic over (m, n, k): the indexing maps
/// of a [m, k], b [k, n] and the result [m, n].
SmallVector<AffineMap> matrixProductMaps(MLIRContext *ctx);
/// Its iterators: parallel, parallel, reduction.
SmallVector<utils::IteratorType> matrixProductIterators();

/// The im2col windows of NHWC `source` as if it were padded with
/// `padValue` (`padTop` rows above, `padLeft` columns to the left, and as
/// many below and to the right as the windows reach), read from `source`
/// itself: a linalg.generic writing `empty` ([N, OH, OW, KH, KW, C]) with
/// patches[n, oh, ow, i, j, c] = source[n, h, w, c] where h = oh * sh +
/// i * dh - padTop and w = ow * sw + j * dw - padLeft, or `padValue` where
/// (h, w) falls outside. Saves materializing the padded tensor (a fill
/// and a copy) where nothing else reads it. `strides` and `dilations` are
/// [H, W].
Value buildPaddedPatches(OpBuilder &b, Location loc, Value source,
                         int64_t padTop, int64_t padLeft, Value padValue,
                         Value empty, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilations);

/// The [strideH, strideW] or [dilationH, dilationW] attribute of a linalg
/// convolution from TF's 4-element list.
DenseIntElementsAttr spatialAttr(OpBuilder &b, ArrayRef<int64_t> values,
                                 const Window2D &window);

/// The buffer `op` sets whole to one value (a linalg.fill, or a
/// linalg.map without inputs, as bufferized tensor.pad fills), or null.
Value filledBuffer(Operation *op);

/// The value such an op writes (the fill's scalar, the one value the map's
/// body yields), or null for any other op.
Value filledValue(Operation *op);

/// Splits the uses of `value` in its own block into runs of `maxUsers`
/// users in block order (an op using it twice counts once): the first run
/// keeps `value`, each further run gets the value `replicate` builds at its
/// first user (a fresh empty, another read of a global). Passes that do
/// this before one-shot bufferization keep the alias sets its analysis
/// walks for every decision bounded. Nothing changes with `maxUsers` <= 0
/// or no more users than that.
void splitUsesIntoRuns(Value value, int64_t maxUsers,
                       function_ref<Value(OpBuilder &)> replicate);

/// The address of `buffer`'s first element (its aligned base pointer plus
/// its offset in bytes) as an i64: how bufferized code hands a memref to a
/// runtime library call (the cuBLAS GEMM, the int8 kernel).
Value bufferAddress(OpBuilder &b, Location loc, Value buffer);

/// Which arith op implements a binary tfaot op for float, signed and
/// unsigned element types.
enum class BinaryKind { Add, Sub, Mul, Div, Max, Min };

/// `x kind y` on scalars whose original (pre-conversion) element type is
/// `originalElementType`.
Value buildBinaryScalar(OpBuilder &b, Location loc, BinaryKind kind,
                        Type originalElementType, Value x, Value y);

/// Base for patterns that need the converted result type.
template <typename OpTy>
struct TfaotPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  RankedTensorType resultType(OpTy op) const {
    return toSignless(cast<RankedTensorType>(op->getResult(0).getType()));
  }
};

/// Elementwise op whose scalar body is `body(b, loc, op, originalType, args)`.
template <typename OpTy>
struct ElementwiseLowering : TfaotPattern<OpTy> {
  using Body = Value (*)(OpBuilder &, Location, OpTy, Type, ValueRange);
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx,
                      Body body)
      : TfaotPattern<OpTy>(converter, ctx), body(body) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type original =
        cast<ShapedType>(op->getOperand(0).getType()).getElementType();
    Value result = buildBroadcasting(
        rewriter, op.getLoc(), this->resultType(op), adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return body(b, loc, op, original, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
  Body body;
};

/// Lowers `TfOp` to `MathOp` of its one operand, element by element: the
/// unary ops that map one to one onto the math dialect (Exp, Log, Sqrt...).
template <typename TfOp, typename MathOp>
void addUnaryMathLowering(RewritePatternSet &patterns,
                          const TypeConverter &converter) {
  patterns.add<ElementwiseLowering<TfOp>>(
      converter, patterns.getContext(),
      [](OpBuilder &b, Location l, TfOp, Type, ValueRange a) {
        return (Value)MathOp::create(b, l, a[0]);
      });
}

/// Adds the patterns for comparisons, logical ops, Select and the remaining
/// arithmetic (FloorDiv, FloorMod, Pow, Softplus, Selu, Round).
void populateElementwiseLoweringPatterns(RewritePatternSet &patterns,
                                         const TypeConverter &converter);

/// Adds the patterns for convolutions, pools, padding, concatenation,
/// transposes, reductions and the elementwise ops beyond the MLP set.
void populateCnnLoweringPatterns(RewritePatternSet &patterns,
                                 const TypeConverter &converter);

/// Adds the patterns for GatherV2, GatherNd and BatchMatMulV2.
void populateGatherLoweringPatterns(RewritePatternSet &patterns,
                                    const TypeConverter &converter);

/// Adds the patterns for ResizeBilinear and ResizeNearestNeighbor.
void populateResizeLoweringPatterns(RewritePatternSet &patterns,
                                    const TypeConverter &converter);

/// Adds the patterns for Slice, MirrorPad, BroadcastTo, OneHot,
/// SpaceToBatchND, BatchToSpaceND, and TopKV2's (below).
void populateDataMovementLoweringPatterns(RewritePatternSet &patterns,
                                          const TypeConverter &converter);

/// Adds the pattern for TopKV2 (radix selection, LowerTopK.cpp).
void populateTopKLoweringPatterns(RewritePatternSet &patterns,
                                  const TypeConverter &converter);

/// Adds the patterns for Ceil, Any, All, FusedBatchNorm and RandomUniform.
void populateMathLoweringPatterns(RewritePatternSet &patterns,
                                  const TypeConverter &converter);

/// Adds the patterns for Dequantize (of computed tensors), Quantize,
/// SubtractZeroPoint, RequantizationRange and Requantize.
void populateQuantizedLoweringPatterns(RewritePatternSet &patterns,
                                       const TypeConverter &converter);

/// Adds the pattern for DecodeJpeg (a call into the runtime).
void populateImageLoweringPatterns(RewritePatternSet &patterns,
                                   const TypeConverter &converter);

/// Adds the patterns for If, While and Case (to scf.if, scf.while and
/// scf.index_switch) and their Yield.
void populateControlFlowLoweringPatterns(RewritePatternSet &patterns,
                                         const TypeConverter &converter);

/// Declares the runtime function DecodeJpeg lowers to, if the module has a
/// DecodeJpeg (before the conversion, which cannot add it concurrently).
void declareImageRuntime(ModuleOp module);

/// Declares tfaot_rt_check_indices if some gather of the module will call it
/// (LowerIndexChecks.cpp; before the conversion, as above).
void declareCheckRuntime(ModuleOp module);

/// Emits, before `op` (GatherV2 or GatherNd), the run-time check of its
/// converted `indices` against `bounds` (GatherV2: the axis' size; GatherNd:
/// the params shape), unless checks are off or the indices are constants in
/// range.
void emitIndexCheck(ConversionPatternRewriter &rewriter, Operation *op,
                    Value indices, ArrayRef<int64_t> bounds);

} // namespace mlir::tfaot

#endif // TFAOT_PASSES_LOWERINGUTILS_H
