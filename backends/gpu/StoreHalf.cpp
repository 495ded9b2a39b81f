//===- StoreHalf.cpp - Activations and weights kept in 16 bits ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-store-half{type=f16|bf16} (--precision=fp16|bf16) runs on
// tensors, after tfaot-gpu-convs-to-matmuls and before bufferization, when
// every linalg op left is a kernel or a cuBLAS product of its own. It halves
// the bytes that move between them, and gives cuBLAS 16-bit products, which
// run on tensor cores:
//
//  - every f32 matrix product (linalg.matmul / batch_matmul) takes 16-bit
//    inputs into its f32 output (tfaot-gpu-matmuls-to-cublas then calls
//    cuBLAS with fp32 accumulation); constant inputs, the weights, are
//    converted here, other inputs that do not arrive in 16 bits get a
//    conversion kernel;
//  - every linalg.generic result that its op only writes (its output is
//    not read, as a reduction's is) and that all its users can widen as
//    they load it, is stored in 16 bits: the op rounds the f32 value once,
//    at the store (arith.truncf in its body), and each reader widens it
//    (arith.extf in its own body).
//
// The arithmetic stays f32 everywhere; only storage is narrowed. What stays
// f32: the entry's arguments and results, the products' outputs (cuBLAS's
// f32 accumulators), reductions (the softmax's max and sum, means: their
// accuracy is what fp32 buys), and values read by an op that cannot widen
// on load. The readers that can: linalg.generic inputs, tensor.extract
// (im2col copies read that way), matrix products, and reshapes and constant
// pads, which pass the 16-bit value on to their own readers. Named linalg
// ops other than the products (depthwise convolutions, pooling) become
// generics first, so that they read 16 bits too. A --gpu_emulate build runs
// this same IR on the CPU, with the same roundings.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_STOREHALFPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

bool isF32Tensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.getElementType().isF32();
}

/// A matrix product cuBLAS can take in 16 bits: f32 output, no transposing
/// maps.
bool isFloatProduct(Operation *op) {
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
    return !matmul.hasUserDefinedMaps() && isF32Tensor(matmul.getResult(0));
  if (auto batched = dyn_cast<linalg::BatchMatmulOp>(op))
    return !batched.hasUserDefinedMaps() && isF32Tensor(batched.getResult(0));
  return false;
}

/// `value`'s type with `element` as its element type.
RankedTensorType withElement(Value value, Type element) {
  return cast<RankedTensorType>(value.getType()).clone(element);
}

/// An f32 constant as `half`, rounded to nearest even (the GPU's cvt.rn).
DenseElementsAttr toHalf(DenseElementsAttr values, FloatType half) {
  auto type = cast<ShapedType>(values.getType()).clone(half);
  auto round = [&](float value) {
    APFloat rounded(value);
    bool losesInfo;
    rounded.convert(half.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    return rounded;
  };
  if (values.isSplat())
    return DenseElementsAttr::get(type, round(values.getSplatValue<float>()));
  std::vector<uint16_t> bits;
  bits.reserve(values.getNumElements());
  for (float value : values.getValues<float>())
    bits.push_back(round(value).bitcastToAPInt().getZExtValue());
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(bits.data()),
                           bits.size() * sizeof(uint16_t)));
}

struct StoreHalfPass : mlir::tfaot::impl::StoreHalfPassBase<StoreHalfPass> {
  using StoreHalfPassBase::StoreHalfPassBase;

  FloatType half;
  /// Products whose inputs changed (rebuilt at the end with their types).
  llvm::SetVector<Operation *> products;
  /// Each converted weight, by its f32 constant.
  llvm::DenseMap<Value, Value> halfConstants;

  /// A product this pass gives 16-bit inputs: a matrix product, or with
  /// keep-convs (--gpu_conv=cudnn) a statically shaped f32 NHWC/HWCF
  /// convolution, which tfaot-gpu-convs-to-cudnn then hands to cuDNN or
  /// tfaot-gpu-convs-to-matmuls makes a 16-bit im2col + GEMM.
  bool isProduct(Operation *op) {
    if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op))
      return keepConvs && conv.hasPureTensorSemantics() &&
             isF32Tensor(conv.getResult(0)) &&
             llvm::all_of(conv->getOperandTypes(), [](Type type) {
               return cast<RankedTensorType>(type).hasStaticShape();
             });
    return isFloatProduct(op);
  }

  /// Whether the reader `use` can take a 16-bit value in place of f32.
  bool canWiden(OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto generic = dyn_cast<linalg::GenericOp>(user))
      return generic.isDpsInput(&use);
    if (isa<tensor::ExtractOp>(user))
      return true;
    if (isProduct(user))
      return cast<linalg::LinalgOp>(user).isDpsInput(&use);
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user))
      return allCanWiden(user->getResult(0));
    if (auto pad = dyn_cast<tensor::PadOp>(user)) {
      Value padding = pad.getConstantPaddingValue();
      return padding && matchPattern(padding, m_Constant()) &&
             use.get() == pad.getSource() && allCanWiden(pad.getResult());
    }
    return false;
  }

  bool allCanWiden(Value value) {
    return !value.use_empty() &&
           llvm::all_of(value.getUses(),
                        [&](OpOperand &use) { return canWiden(use); });
  }

  /// `reshape` (a tensor.collapse_shape or expand_shape) of `narrowSource`,
  /// the 16-bit form of its source: the same reshape in 16 bits.
  Value narrowReshape(OpBuilder &b, Operation *reshape, Value narrowSource) {
    Location loc = reshape->getLoc();
    RankedTensorType type = withElement(reshape->getResult(0), half);
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape))
      return tensor::CollapseShapeOp::create(
          b, loc, type, narrowSource, collapse.getReassociationIndices());
    auto expand = cast<tensor::ExpandShapeOp>(reshape);
    return tensor::ExpandShapeOp::create(b, loc, type, narrowSource,
                                         expand.getReassociationIndices(),
                                         expand.getMixedOutputShape());
  }

  /// Makes the reader `use` read `narrow`, the 16-bit form of its f32
  /// value, widening it where it is used (canWiden said it can).
  void widen(OpOperand &use, Value narrow) {
    Operation *user = use.getOwner();
    Location loc = user->getLoc();
    Type f32 = Float32Type::get(&getContext());
    if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
      BlockArgument arg = generic.getMatchingBlockArgument(&use);
      arg.setType(half);
      OpBuilder b = OpBuilder::atBlockBegin(generic.getBody());
      Value wide = arith::ExtFOp::create(b, loc, f32, arg);
      arg.replaceAllUsesExcept(wide, wide.getDefiningOp());
      use.set(narrow);
      return;
    }
    if (isProduct(user)) {
      use.set(narrow); // Its region is rebuilt with the new types at the end.
      products.insert(user);
      return;
    }
    OpBuilder b(user);
    if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
      Value element =
          tensor::ExtractOp::create(b, loc, narrow, extract.getIndices());
      extract.replaceAllUsesWith(
          arith::ExtFOp::create(b, loc, f32, element).getResult());
      extract.erase();
      return;
    }
    Value result;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user))
      result = narrowReshape(b, user, narrow);
    else {
      auto pad = cast<tensor::PadOp>(user);
      FloatAttr padding;
      matchPattern(pad.getConstantPaddingValue(), m_Constant(&padding));
      Value narrowPadding = arith::ConstantOp::create(
          b, loc, half,
          b.getFloatAttr(half, padding.getValue().convertToDouble()));
      result = tensor::PadOp::create(
          b, loc, withElement(pad.getResult(), half), narrow,
          pad.getMixedLowPad(), pad.getMixedHighPad(), narrowPadding,
          pad.getNofold());
    }
    widenAll(user->getResult(0), result);
    user->erase();
  }

  void widenAll(Value wide, Value narrow) {
    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(wide.getUses(), [](OpOperand &use) { return &use; });
    for (OpOperand *use : uses)
      widen(*use, narrow);
  }

  /// The indices of `op`'s results that may be stored in 16 bits.
  SmallVector<unsigned> narrowableResults(linalg::GenericOp op) {
    SmallVector<unsigned> results;
    if (op.getNumReductionLoops() != 0)
      return results;
    for (OpResult result : op->getResults()) {
      unsigned i = result.getResultNumber();
      BlockArgument out =
          op.getMatchingBlockArgument(op.getDpsInitOperand(i));
      if (isF32Tensor(result) && out.use_empty() && allCanWiden(result))
        results.push_back(i);
    }
    return results;
  }

  /// Rebuilds `op` with the `narrowed` results in 16 bits (rounded at the
  /// store) and moves each reader over.
  void narrow(linalg::GenericOp op, ArrayRef<unsigned> narrowed) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> inits = op.getDpsInits();
    SmallVector<Type> resultTypes(op->getResultTypes());
    for (unsigned i : narrowed) {
      // The init is never read: any tensor of its shape will do.
      inits[i] = tensor::EmptyOp::create(
          b, loc, tensor::getMixedSizes(b, loc, inits[i]), half);
      resultTypes[i] = withElement(op->getResult(i), half);
    }
    auto rebuilt = linalg::GenericOp::create(
        b, loc, resultTypes, op.getDpsInputs(), inits,
        op.getIndexingMapsArray(), op.getIteratorTypesArray());
    rebuilt->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rebuilt.getRegion().takeBody(op.getRegion());
    Block *body = rebuilt.getBody();
    Operation *yield = body->getTerminator();
    b.setInsertionPoint(yield);
    for (unsigned i : narrowed) {
      body->getArgument(op.getNumDpsInputs() + i).setType(half);
      Value rounded =
          arith::TruncFOp::create(b, loc, half, yield->getOperand(i));
      yield->setOperand(i, rounded);
    }
    for (OpResult result : op->getResults()) {
      unsigned i = result.getResultNumber();
      if (llvm::is_contained(narrowed, i))
        widenAll(result, rebuilt->getResult(i));
      else
        result.replaceAllUsesWith(rebuilt->getResult(i));
    }
    op.erase();
  }

  /// `value` (f32) as 16 bits for a product: a converted weight when it is
  /// a constant (seen through reshapes), else a conversion kernel.
  Value narrowInput(OpBuilder &b, Location loc, Value value) {
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      Value source = def->getOperand(0);
      if (matchPattern(source, m_Constant()) ||
          isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
              source.getDefiningOp())) {
        return narrowReshape(b, def, narrowInput(b, loc, source));
      }
    }
    DenseElementsAttr weights;
    if (matchPattern(value, m_Constant(&weights))) {
      Value &converted = halfConstants[value];
      if (!converted) {
        OpBuilder atConstant(value.getDefiningOp());
        converted = arith::ConstantOp::create(atConstant, loc,
                                              toHalf(weights, half));
      }
      return converted;
    }
    // An argument or a value that stays f32 for its other readers.
    auto type = cast<RankedTensorType>(value.getType());
    Value empty = tensor::EmptyOp::create(
        b, loc, tensor::getMixedSizes(b, loc, value), half);
    AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
    return linalg::GenericOp::create(
               b, loc, TypeRange{empty.getType()}, ValueRange{value},
               ValueRange{empty}, ArrayRef<AffineMap>{identity, identity},
               SmallVector<utils::IteratorType>(type.getRank(),
                                                utils::IteratorType::parallel),
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 Value rounded =
                     arith::TruncFOp::create(nested, nestedLoc, half, args[0]);
                 linalg::YieldOp::create(nested, nestedLoc, rounded);
               })
        .getResult(0);
  }

  /// Rebuilds `op` (a product) with both inputs in 16 bits: its region,
  /// which the builder derives from the types, then widens them to f32.
  void rebuildProduct(linalg::LinalgOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> inputs;
    for (Value input : op.getDpsInputs())
      inputs.push_back(getElementTypeOrSelf(input.getType()) == half
                           ? input
                           : narrowInput(b, loc, input));
    Operation *rebuilt;
    if (isa<linalg::MatmulOp>(op.getOperation()))
      rebuilt = linalg::MatmulOp::create(b, loc, op->getResultTypes(), inputs,
                                         op.getDpsInits());
    else if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation()))
      rebuilt = linalg::Conv2DNhwcHwcfOp::create(
          b, loc, op->getResultTypes(), inputs, op.getDpsInits(),
          conv.getStrides(), conv.getDilations());
    else
      rebuilt = linalg::BatchMatmulOp::create(b, loc, op->getResultTypes(),
                                              inputs, op.getDpsInits());
    op->replaceAllUsesWith(rebuilt);
    op->erase();
  }

  void runOnOperation() override {
    if (type == "f16")
      half = Float16Type::get(&getContext());
    else if (type == "bf16")
      half = BFloat16Type::get(&getContext());
    else {
      getOperation().emitError("tfaot-gpu-store-half: type must be f16 or "
                               "bf16, not '")
          << type << "'";
      return signalPassFailure();
    }
    // Named ops other than products and fills become generics, which can
    // widen their inputs as they load them.
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()) &&
          !isa<linalg::ContractionOpInterface>(op.getOperation()) &&
          !isProduct(op) &&
          op.hasPureTensorSemantics())
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    // Producers in order: a reader's own result is decided after it reads
    // 16 bits (which does not change what it may store).
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      if (SmallVector<unsigned> narrowed = narrowableResults(op);
          !narrowed.empty())
        narrow(op, narrowed);
    getOperation().walk([&](Operation *op) {
      if (isProduct(op))
        products.insert(op);
    });
    for (Operation *op : products)
      rebuildProduct(cast<linalg::LinalgOp>(op));
  }
};

} // namespace
