//===- LoweringUtils.cpp - Shared pieces of the tfaot lowerings -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// See LoweringUtils.h.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace mlir::tfaot {


/// Element type as the lowered code sees it: unsigned integers are signless.
Type toSignless(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type); intType && !intType.isSignless())
    return IntegerType::get(type.getContext(), intType.getWidth());
  return type;
}

RankedTensorType toSignless(RankedTensorType type) {
  return RankedTensorType::get(type.getShape(),
                               toSignless(type.getElementType()));
}

bool isUnsignedInt(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && (intType.isUnsigned() || intType.getWidth() == 1);
}

/// Indexing map reading `operandShape` inside a loop nest over `resultShape`
/// under NumPy broadcasting: dimensions align from the right, and a size-1
/// dimension that the result expands always reads index 0.
AffineMap broadcastMap(ArrayRef<int64_t> operandShape,
                              ArrayRef<int64_t> resultShape, MLIRContext *ctx) {
  size_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(operandShape)) {
    if (dim == 1 && resultShape[offset + i] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(offset + i, ctx));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

/// A scalar constant of `type` (float or integer).
Value scalarConstant(OpBuilder &b, Location loc, Type type,
                            double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, FloatAttr::get(floatType, value));
  return arith::ConstantOp::create(
      b, loc, IntegerAttr::get(type, static_cast<int64_t>(value)));
}

/// Builds `linalg.generic` computing one result of `resultType` from
/// `inputs`, read through `maps` (one per input, then the output's identity),
/// with all loops parallel. `body` gets the input scalars.
Value buildElementwise(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange inputs, ArrayRef<AffineMap> inputMaps,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

/// Broadcasting elementwise op over `operands` (already converted values) with
/// the shapes of the original tfaot operands.
Value buildBroadcasting(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange operands,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<AffineMap> maps;
  for (Value operand : operands)
    maps.push_back(broadcastMap(
        cast<RankedTensorType>(operand.getType()).getShape(),
        resultType.getShape(), b.getContext()));
  return buildElementwise(b, loc, resultType, operands, maps, body);
}

/// A tensor of `type` filled with `value`.
Value buildFilled(OpBuilder &b, Location loc, RankedTensorType type,
                         Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType());
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}


/// Which arith op implements a binary tfaot op for float, signed and
/// unsigned element types.

Value buildBinaryScalar(OpBuilder &b, Location loc, BinaryKind kind,
                               Type originalElementType, Value x, Value y) {
  bool isFloat = isa<FloatType>(originalElementType);
  bool isUnsigned = isUnsignedInt(originalElementType);
  switch (kind) {
  case BinaryKind::Add:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, x, y)
                   : (Value)arith::AddIOp::create(b, loc, x, y);
  case BinaryKind::Sub:
    return isFloat ? (Value)arith::SubFOp::create(b, loc, x, y)
                   : (Value)arith::SubIOp::create(b, loc, x, y);
  case BinaryKind::Mul:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, x, y)
                   : (Value)arith::MulIOp::create(b, loc, x, y);
  case BinaryKind::Div:
    if (isFloat)
      return arith::DivFOp::create(b, loc, x, y);
    return isUnsigned ? (Value)arith::DivUIOp::create(b, loc, x, y)
                      : (Value)arith::DivSIOp::create(b, loc, x, y);
  case BinaryKind::Max:
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, x, y);
    return isUnsigned ? (Value)arith::MaxUIOp::create(b, loc, x, y)
                      : (Value)arith::MaxSIOp::create(b, loc, x, y);
  case BinaryKind::Min:
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, x, y);
    return isUnsigned ? (Value)arith::MinUIOp::create(b, loc, x, y)
                      : (Value)arith::MinSIOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown binary kind");
}


Value buildStaticReshape(OpBuilder &b, Location loc, Value value,
                         RankedTensorType type) {
  auto shapeType = RankedTensorType::get({type.getRank()}, b.getI64Type());
  Value shape = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(shapeType, type.getShape()));
  return tensor::ReshapeOp::create(b, loc, type, value, shape);
}

Value buildTranspose(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

} // namespace mlir::tfaot

mlir::tfaot::Reduction mlir::tfaot::buildReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    Value initValue,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<bool> reduced(rank, false);
  for (int64_t a : axes)
    reduced[a < 0 ? a + rank : a] = true;
  SmallVector<int64_t> keptShape;
  SmallVector<AffineExpr> keptExprs;
  SmallVector<utils::IteratorType> iterators;
  int64_t count = 1;
  for (int64_t i = 0; i < rank; ++i) {
    if (reduced[i]) {
      iterators.push_back(utils::IteratorType::reduction);
      count *= inputType.getDimSize(i);
    } else {
      iterators.push_back(utils::IteratorType::parallel);
      keptShape.push_back(inputType.getDimSize(i));
      keptExprs.push_back(b.getAffineDimExpr(i));
    }
  }
  auto accType = RankedTensorType::get(keptShape, initValue.getType());
  Value init = buildFilled(b, loc, accType, initValue);
  AffineMap inputMap = b.getMultiDimIdentityMap(rank);
  AffineMap outputMap = AffineMap::get(rank, 0, keptExprs, b.getContext());
  Value result =
      linalg::GenericOp::create(
          b, loc, accType, input, init,
          ArrayRef<AffineMap>{inputMap, outputMap}, iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, combine(nb, l, args[0], args[1]));
          })
          .getResult(0);
  return {result, count};
}

Value mlir::tfaot::filledBuffer(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getDpsInitOperand(0)->get();
  if (auto map = dyn_cast<linalg::MapOp>(op))
    if (map.getInputs().empty())
      return map.getInit();
  return {};
}

Value mlir::tfaot::filledValue(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getDpsInputOperand(0)->get();
  if (auto map = dyn_cast<linalg::MapOp>(op)) {
    Operation *yield = map.getMapper().front().getTerminator();
    if (map.getInputs().empty() && yield->getNumOperands() == 1)
      return yield->getOperand(0);
  }
  return {};
}

Value mlir::tfaot::bufferAddress(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value elementBytes = arith::ConstantIndexOp::create(
      b, loc, type.getElementTypeBitWidth() / 8);
  Value offsetBytes =
      arith::MulIOp::create(b, loc, metadata.getOffset(), elementBytes);
  Value address = arith::AddIOp::create(b, loc, base, offsetBytes);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
}


Value mlir::tfaot::padSpatial(OpBuilder &b, Location loc, Value value,
                 const Window2D &window, Value fill) {
  if (!window.padTop && !window.padBottom && !window.padLeft &&
      !window.padRight)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> low = {0, window.padTop, window.padLeft, 0};
  SmallVector<int64_t> high = {0, window.padBottom, window.padRight, 0};
  SmallVector<int64_t> shape(type.getShape());
  for (int i = 0; i < 4; ++i)
    shape[i] += low[i] + high[i];
  auto padded = RankedTensorType::get(shape, type.getElementType());
  return tensor::PadOp::create(b, loc, padded, value,
                               getAsIndexOpFoldResult(b.getContext(), low),
                               getAsIndexOpFoldResult(b.getContext(), high),
                               fill);
}

DenseIntElementsAttr mlir::tfaot::spatialAttr(OpBuilder &b,
                                              ArrayRef<int64_t> values,
                                 const Window2D &window) {
  return b.getI64TensorAttr(
      {values[window.heightDim], values[window.widthDim]});
}

Value mlir::tfaot::buildPaddedPatches(OpBuilder &b, Location loc,
                                      Value source, int64_t padTop,
                                      int64_t padLeft, Value padValue,
                                      Value empty, ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> dilations) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  const int64_t before[2] = {padTop, padLeft};
  return linalg::GenericOp::create(
             b, loc, empty.getType(), ValueRange{}, ValueRange{empty},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(6)},
             SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange) {
               auto index = [&](int64_t d) -> Value {
                 return linalg::IndexOp::create(nb, l, d);
               };
               auto constant = [&](int64_t v) -> Value {
                 return arith::ConstantIndexOp::create(nb, l, v);
               };
               // position = out * stride + tap * dilation - before
               auto position = [&](int64_t outDim, int64_t tapDim,
                                   int64_t axis) -> Value {
                 Value scaled = arith::MulIOp::create(
                     nb, l, index(outDim), constant(strides[axis]));
                 Value tap = arith::MulIOp::create(nb, l, index(tapDim),
                                                   constant(dilations[axis]));
                 return arith::SubIOp::create(
                     nb, l, arith::AddIOp::create(nb, l, scaled, tap),
                     constant(before[axis]));
               };
               auto inside = [&](Value p, int64_t size) -> Value {
                 Value geZero = arith::CmpIOp::create(
                     nb, l, arith::CmpIPredicate::sge, p, constant(0));
                 Value ltSize = arith::CmpIOp::create(
                     nb, l, arith::CmpIPredicate::slt, p, constant(size));
                 return arith::AndIOp::create(nb, l, geZero, ltSize);
               };
               Value h = position(1, 3, 0), w = position(2, 4, 1);
               Value valid = arith::AndIOp::create(
                   nb, l, inside(h, sourceType.getDimSize(1)),
                   inside(w, sourceType.getDimSize(2)));
               // An address inside the source even where the value is not
               // used.
               Value safeH =
                   arith::SelectOp::create(nb, l, valid, h, constant(0));
               Value safeW =
                   arith::SelectOp::create(nb, l, valid, w, constant(0));
               Value x = tensor::ExtractOp::create(
                   nb, l, source, ValueRange{index(0), safeH, safeW, index(5)});
               linalg::YieldOp::create(
                   nb, l,
                   ValueRange{arith::SelectOp::create(nb, l, valid, x,
                                                      padValue)});
             })
      .getResult(0);
}

SmallVector<AffineMap> mlir::tfaot::matrixProductMaps(MLIRContext *ctx) {
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  return {AffineMap::get(3, 0, {m, k}, ctx), AffineMap::get(3, 0, {k, n}, ctx),
          AffineMap::get(3, 0, {m, n}, ctx)};
}

SmallVector<utils::IteratorType> mlir::tfaot::matrixProductIterators() {
  return {utils::IteratorType::parallel, utils::IteratorType::parallel,
          utils::IteratorType::reduction};
}

void mlir::tfaot::splitUsesIntoRuns(
    Value value, int64_t maxUsers, function_ref<Value(OpBuilder &)> replicate) {
  Block *block = value.getParentBlock();
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : value.getUses())
    if (use.getOwner()->getBlock() == block)
      uses.push_back(&use);
  if (maxUsers <= 0 || static_cast<int64_t>(uses.size()) <= maxUsers)
    return;
  llvm::sort(uses, [](OpOperand *a, OpOperand *b) {
    return a->getOwner() != b->getOwner() &&
           a->getOwner()->isBeforeInBlock(b->getOwner());
  });
  OpBuilder builder(value.getContext());
  int64_t inRun = 0;
  Operation *runOwner = nullptr;
  Value current = value;
  for (OpOperand *use : uses) {
    Operation *owner = use->getOwner();
    if (owner != runOwner) {
      runOwner = owner;
      if (++inRun > maxUsers) {
        builder.setInsertionPoint(owner);
        current = replicate(builder);
        inRun = 1;
      }
    }
    use->set(current);
  }
}
