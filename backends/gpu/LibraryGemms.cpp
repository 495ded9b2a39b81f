//===- LibraryGemms.cpp - Convolutions and matmuls as cuBLAS calls --------===//
// SPDX-License-Identifier: Apache-2.0
//
// The generated kernels are one thread per output element; for the
// contractions that dominate conv nets that is 5-10x slower than a tuned
// GEMM (ncu on ResNet-50, bench/results/2026-11-26-h200). cuBLAS ships with
// every CUDA install, so the GPU backend hands it the products:
//
//  tfaot-gpu-convs-to-matmuls   (tensors, after the elementwise fusion,
//                               which would turn the matmul back into a
//                               generic, and before bufferization) every
//                               f32 linalg.conv_2d_nhwc_hwcf becomes an
//                               im2col copy (a parallel linalg.generic
//                               gathering each output pixel's KHxKWxC
//                               window into one row; a zero padding before
//                               the conv is folded into it) and a
//                               linalg.matmul with the HWCF filter seen as
//                               a (KH*KW*C)xF matrix; a 1x1 stride-1 conv
//                               needs no copy: its NHWC input already is
//                               the (N*H*W)xC matrix;
//  tfaot-gpu-matmuls-to-cublas  (buffers, before the kernel mapping) every
//                               f32 linalg.matmul / batch_matmul whose rows
//                               are contiguous becomes a host call to
//                               tfaot_rt_cuda_gemm (HostLaunch.h), which
//                               runs cublasSgemmStridedBatched on the run's
//                               stream, in order with the kernels. The
//                               zeroing of the product's buffer before it
//                               (every lowered conv and matmul has one: a
//                               fill, or a copy of a shared zero buffer) is
//                               dropped: cuBLAS then overwrites C (beta =
//                               0) instead of adding to it. The int8
//                               products of --quantize=int8 (a
//                               linalg.matmul of i8 rows by i8 weights
//                               stored [N, K], into i32) go to
//                               tfaot_rt_cuda_gemm_s8, cuBLAS's int8
//                               GEMM; C starts from the zero-point
//                               term, so it is added to (beta = 1) unless
//                               that term is a zero fill.
//
// Both also run for --gpu_emulate, the second calling a private GEMM with
// the same contract that the object defines as loops (DefineEmulatedGemm.cpp):
// the emulated build checks the numbers of all but cuBLAS itself.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"
#include "backends/gpu/HostLaunch.h"
#include "passes/LoweringUtils.h"
#include "runtime/include/tfaot/runtime/cuda_image.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_CONVSTOMATMULSPASS
#define GEN_PASS_DEF_MATMULSTOCUBLASPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

bool isF32(Value value) {
  return getElementTypeOrSelf(value.getType()).isF32();
}

/// Whether `value` is the constant +0.0 (what fills, pads and cuBLAS's
/// beta = 0 agree on).
bool isPositiveZero(Value value) {
  return matchPattern(value, m_PosZeroFloat());
}

/// +0.0, or integer 0: what a product's zero fill holds.
bool isZeroFill(Value value) {
  return isPositiveZero(value) || matchPattern(value, m_Zero());
}

//===----------------------------------------------------------------------===//
// tfaot-gpu-convs-to-matmuls
//===----------------------------------------------------------------------===//

/// `input`'s tensor.pad if it pads only H and W, statically, with zeros.
tensor::PadOp zeroSpatialPad(Value input) {
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad)
    return {};
  Value value = pad.getConstantPaddingValue();
  if (!value || !isPositiveZero(value))
    return {};
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  auto sourceType = cast<RankedTensorType>(pad.getSource().getType());
  bool spatialOnly = low.size() == 4 && low[0] == 0 && low[3] == 0 &&
                     high[0] == 0 && high[3] == 0 &&
                     llvm::none_of(low, ShapedType::isDynamic) &&
                     llvm::none_of(high, ShapedType::isDynamic) &&
                     sourceType.hasStaticShape();
  return spatialOnly ? pad : tensor::PadOp();
}

/// The (N*Ho*Wo) x (KH*KW*C) matrix of `conv`'s input windows.
Value buildPatchMatrix(OpBuilder &b, linalg::Conv2DNhwcHwcfOp conv) {
  Location loc = conv.getLoc();
  Value input = conv.getInputs()[0];
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto outputType = cast<RankedTensorType>(conv.getOutputs()[0].getType());
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
  auto dilations = llvm::to_vector(conv.getDilations().getValues<int64_t>());
  bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 &&
                   inputType.getDimSize(1) == outputType.getDimSize(1) &&
                   inputType.getDimSize(2) == outputType.getDimSize(2);
  if (pointwise)
    return tensor::CollapseShapeOp::create(
        b, loc, input, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});

  SmallVector<int64_t> shape = {outputType.getDimSize(0),
                                outputType.getDimSize(1),
                                outputType.getDimSize(2), kh, kw,
                                inputType.getDimSize(3)};
  Value empty =
      tensor::EmptyOp::create(b, loc, shape, inputType.getElementType());
  Value patches;
  if (auto pad = zeroSpatialPad(input)) {
    // The zero padding is read as it goes: no padded copy.
    Value zero = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(inputType.getElementType()));
    patches = mlir::tfaot::buildPaddedPatches(
        b, loc, pad.getSource(), pad.getStaticLow()[1], pad.getStaticLow()[2],
        zero, empty, strides, dilations);
  } else {
    // patches[n, oh, ow, i, j, c] = input[n, oh*sh + i*dh, ow*sw + j*dw, c]
    MLIRContext *context = b.getContext();
    AffineExpr n, oh, ow, i, j, c;
    bindDims(context, n, oh, ow, i, j, c);
    auto readMap = AffineMap::get(6, 0,
                                  {n, oh * strides[0] + i * dilations[0],
                                   ow * strides[1] + j * dilations[1], c},
                                  context);
    patches =
        linalg::GenericOp::create(
            b, loc, empty.getType(), ValueRange{input}, ValueRange{empty},
            ArrayRef<AffineMap>{readMap, b.getMultiDimIdentityMap(6)},
            SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
            [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
              linalg::YieldOp::create(nested, nestedLoc, args[0]);
            })
            .getResult(0);
  }
  return tensor::CollapseShapeOp::create(
      b, loc, patches, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
}

struct ConvsToMatmulsPass
    : mlir::tfaot::impl::ConvsToMatmulsPassBase<ConvsToMatmulsPass> {
  void runOnOperation() override {
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation().walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      bool staticShapes = llvm::all_of(conv->getOperands(), [](Value v) {
        auto type = dyn_cast<RankedTensorType>(v.getType());
        return type && type.hasStaticShape();
      });
      if (staticShapes && llvm::all_of(conv->getOperands(), isF32))
        convs.push_back(conv);
    });
    for (linalg::Conv2DNhwcHwcfOp conv : convs) {
      OpBuilder b(conv);
      Location loc = conv.getLoc();
      SmallVector<ReassociationIndices> rowsByChannels = {{0, 1, 2}, {3}};
      Value patches = buildPatchMatrix(b, conv);
      Value filter = tensor::CollapseShapeOp::create(
          b, loc, conv.getInputs()[1], rowsByChannels);
      Value init = tensor::CollapseShapeOp::create(b, loc, conv.getOutputs()[0],
                                                   rowsByChannels);
      Value product = linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                               ValueRange{patches, filter},
                                               ValueRange{init})
                          .getResult(0);
      Value result = tensor::ExpandShapeOp::create(
          b, loc, conv.getResult(0).getType(), product, rowsByChannels);
      conv.getResult(0).replaceAllUsesWith(result);
      Operation *input = conv.getInputs()[0].getDefiningOp();
      conv.erase();
      // A padding folded into the im2col (buildPaddedPatches) is dead now;
      // nothing after this pass would remove it before bufferization.
      if (isa_and_nonnull<tensor::PadOp>(input) && input->use_empty())
        input->erase();
    }
  }
};

//===----------------------------------------------------------------------===//
// tfaot-gpu-matmuls-to-cublas
//===----------------------------------------------------------------------===//

/// The runtime GEMM a product goes to: f32 (tfaot_rt_cuda_gemm) or int8
/// with B transposed and int32 C (tfaot_rt_cuda_gemm_s8).
enum class GemmKind { None, F32, S8 };

/// A matrix operand as cuBLAS takes it: address, leading dimension and the
/// distance between batch elements (0 without a batch), all as i64.
struct MatrixArg {
  Value address, leading, batchStride;
};

/// Whether `value`'s innermost dimension is contiguous (cuBLAS's layout);
/// strides of the outer ones are passed at run time.
bool hasUnitInnerStride(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return !strides.empty() && strides.back() == 1;
}

MatrixArg matrixArg(OpBuilder &b, Location loc, Value buffer, bool batched) {
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, index);
  };
  Value address = mlir::tfaot::bufferAddress(b, loc, buffer);
  ValueRange strides =
      memref::ExtractStridedMetadataOp::create(b, loc, buffer).getStrides();
  unsigned rowDim = batched ? 1 : 0;
  Value batchStride = batched ? toI64(strides[0])
                              : arith::ConstantIntOp::create(b, loc, i64, 0)
                                    .getResult();
  return {address, toI64(strides[rowDim]), batchStride};
}

/// `buffer` without the reshapes around it (same memory, other shape).
Value withoutReshapes(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def))
      buffer = collapse.getSrc();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
      buffer = expand.getSrc();
    else
      break;
  }
  return buffer;
}

/// Whether `buffer` holds only zeros when `reader` runs: of the ops that
/// write it (in any of its reshapes), the one before `reader` is a
/// linalg.fill of +0.0 (or integer 0). (CSE merges the products'
/// identical zero-filled init tensors into one, which bufferization copies
/// into each product's buffer; the last product may then write the shared
/// buffer in place.)
bool holdsZerosAt(Value buffer, Operation *reader) {
  Block *block = reader->getBlock();
  int zeroFillsBefore = 0;
  SmallVector<Value> views = {buffer};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      bool reads = isa<memref::DeallocOp>(user) ||
                   (isa<memref::CopyOp>(user) &&
                    cast<memref::CopyOp>(user).getSource() == view) ||
                   (isa<linalg::LinalgOp>(user) &&
                    cast<linalg::LinalgOp>(user).isDpsInput(&use));
      if (reads)
        continue;
      Operation *writer = block->findAncestorOpInBlock(*user);
      if (!writer)
        return false;
      if (!writer->isBeforeInBlock(reader))
        continue; // Written after it was read.
      auto fill = dyn_cast<linalg::FillOp>(user);
      if (!fill || !isZeroFill(fill.getInputs()[0]))
        return false;
      ++zeroFillsBefore;
    }
  }
  return zeroFillsBefore == 1;
}

/// The op that sets all of `product`'s output to zero just before it, if
/// there is one: a linalg.fill of +0.0 (integer 0 for an int8 product) or
/// a copy from a buffer that only holds zeros. In between only ops that
/// touch no memory or do not name that buffer (the buffer plan keeps other
/// live buffers apart).
Operation *zeroingBefore(linalg::LinalgOp product) {
  Value output = withoutReshapes(product.getDpsInitOperand(0)->get());
  for (Operation *op = product->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(op);
        fill && withoutReshapes(fill.getOutputs()[0]) == output)
      return isZeroFill(fill.getInputs()[0]) ? op : nullptr;
    if (auto copy = dyn_cast<memref::CopyOp>(op);
        copy && withoutReshapes(copy.getTarget()) == output)
      return holdsZerosAt(withoutReshapes(copy.getSource()), op) ? op
                                                                  : nullptr;
    if (isMemoryEffectFree(op))
      continue; // Views and arithmetic: they touch no memory.
    bool namesOutput = llvm::any_of(op->getOperands(), [&](Value operand) {
      return isa<MemRefType>(operand.getType()) &&
             withoutReshapes(operand) == output;
    });
    if (namesOutput ||
        (op->getNumRegions() != 0 && !isa<linalg::LinalgOp>(op)))
      return nullptr;
  }
  return nullptr;
}

struct MatmulsToCublasPass
    : mlir::tfaot::impl::MatmulsToCublasPassBase<MatmulsToCublasPass> {
  using MatmulsToCublasPassBase::MatmulsToCublasPassBase;

  /// Which runtime GEMM runs `op`, if one does.
  static GemmKind kindOf(linalg::LinalgOp op) {
    if (!op.hasPureBufferSemantics() ||
        !llvm::all_of(op->getOperands(), hasUnitInnerStride))
      return GemmKind::None;
    auto elementType = [&](unsigned i) {
      return getElementTypeOrSelf(op->getOperand(i).getType());
    };
    // linalg.matmul / batch_matmul without transposes, all f32.
    bool plain = false;
    if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation()))
      plain = !matmul.hasUserDefinedMaps();
    else if (auto batched = dyn_cast<linalg::BatchMatmulOp>(op.getOperation()))
      plain = !batched.hasUserDefinedMaps();
    if (plain && llvm::all_of(op->getOperands(), isF32))
      return GemmKind::F32;
    // i8 x i8^T -> i32 (tfaot-lower-int8-contractions{product=matmul}).
    if (isa<linalg::MatmulTransposeBOp>(op.getOperation()) &&
        elementType(0).isInteger(8) && elementType(1).isInteger(8) &&
        elementType(2).isInteger(32))
      return GemmKind::S8;
    return GemmKind::None;
  }

  func::FuncOp declareGemm(ModuleOp module, GemmKind kind) {
    StringRef name = ::tfaot::gpu::gemmFunction(kind == GemmKind::S8, emulate);
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Type i64 = b.getI64Type();
    SmallVector<Type> params(13, i64);
    params.push_back(b.getI32Type());
    auto func = func::FuncOp::create(b, module.getLoc(), name,
                                     b.getFunctionType(params, {}));
    func.setPrivate();
    return func;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<linalg::LinalgOp, GemmKind>> products;
    module.walk([&](linalg::LinalgOp op) {
      if (GemmKind kind = kindOf(op); kind != GemmKind::None)
        products.push_back({op, kind});
    });
    for (auto [op, kind] : products) {
      func::FuncOp gemm = declareGemm(module, kind);
      OpBuilder b(op);
      Location loc = op.getLoc();
      bool batched = isa<linalg::BatchMatmulOp>(op.getOperation());
      Value a = op.getDpsInputOperand(0)->get();
      Value bMatrix = op.getDpsInputOperand(1)->get();
      Value c = op.getDpsInitOperand(0)->get();
      // Looked for before the call's operands are built (they name C too).
      // With an empty reduction cuBLAS would leave C alone: keep the fill.
      auto aType = cast<MemRefType>(a.getType());
      int64_t reduction = aType.getDimSize(aType.getRank() - 1);
      bool nonEmpty = !ShapedType::isDynamic(reduction) && reduction > 0;
      Operation *zeroing = nonEmpty ? zeroingBefore(op) : nullptr;
      MatrixArg argA = matrixArg(b, loc, a, batched);
      MatrixArg argB = matrixArg(b, loc, bMatrix, batched);
      MatrixArg argC = matrixArg(b, loc, c, batched);
      unsigned rowDim = batched ? 1 : 0;
      auto dim = [&](Value buffer, unsigned d) -> Value {
        Value size = memref::DimOp::create(b, loc, buffer, d);
        return arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
      };
      Value batch = batched ? dim(c, 0)
                            : arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1)
                                  .getResult();
      // (B of an int8 product is [n, k]: its leading dimension is its row
      // stride all the same, and n is C's.)
      int flagBits = allowTf32 && kind == GemmKind::F32
                         ? ::tfaot::cuda_image::kGemmAllowTf32
                         : 0;
      if (zeroing) {
        zeroing->erase();
        flagBits |= ::tfaot::cuda_image::kGemmOverwrite;
      }
      Value flags =
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), flagBits);
      func::CallOp::create(
          b, loc, gemm,
          ValueRange{argA.address, argB.address, argC.address, batch,
                     dim(c, rowDim), dim(c, rowDim + 1), dim(a, rowDim + 1),
                     argA.leading, argB.leading, argC.leading,
                     argA.batchStride, argB.batchStride, argC.batchStride,
                     flags});
      op->erase();
    }
  }
};

} // namespace
