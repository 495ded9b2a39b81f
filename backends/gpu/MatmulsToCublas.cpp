//===- MatmulsToCublas.cpp - Matrix products as cuBLAS calls --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-matmuls-to-cublas (on buffers, before the kernel mapping):
// every linalg.matmul / batch_matmul whose rows are contiguous, with f32
// operands, or f16 / bf16 inputs into f32 (--precision=fp16|bf16,
// tfaot-gpu-store-half), becomes a host call to tfaot_rt_cuda_gemm or
// tfaot_rt_cuda_gemm_f16 / _bf16 (HostLaunch.h), which run cuBLAS on the
// run's stream, in order with the kernels. The zeroing of the product's
// buffer before it (every lowered conv and matmul has one: a fill, or a
// copy of a shared zero buffer) is dropped: cuBLAS then overwrites C
// (beta = 0) instead of adding to it. The int8 products of
// --quantize=int8 (a linalg.matmul of i8 rows by i8 weights stored [N, K],
// into i32) go to tfaot_rt_cuda_gemm_s8, cuBLAS's int8 GEMM; C starts from
// the zero-point term, so it is added to (beta = 1) unless that term is a
// zero fill.
//
// It also runs for --gpu_emulate, calling private GEMMs with the same
// contracts that the object defines as loops (DefineEmulatedGemm.cpp): the
// emulated build checks the numbers of all but cuBLAS itself.
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
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_MATMULSTOCUBLASPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

/// +0.0, or integer 0: what a product's zero fill holds (and what cuBLAS's
/// beta = 0 agrees with).
bool isZeroFill(Value value) {
  return matchPattern(value, m_PosZeroFloat()) || matchPattern(value, m_Zero());
}


using ::tfaot::gpu::GemmKind;

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
  static std::optional<GemmKind> kindOf(linalg::LinalgOp op) {
    if (!op.hasPureBufferSemantics() ||
        !llvm::all_of(op->getOperands(), hasUnitInnerStride))
      return std::nullopt;
    auto elementType = [&](unsigned i) {
      return getElementTypeOrSelf(op->getOperand(i).getType());
    };
    // linalg.matmul / batch_matmul without transposes into f32, from f32,
    // f16 or bf16 inputs of one type.
    bool plain = false;
    if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation()))
      plain = !matmul.hasUserDefinedMaps();
    else if (auto batched = dyn_cast<linalg::BatchMatmulOp>(op.getOperation()))
      plain = !batched.hasUserDefinedMaps();
    if (plain && elementType(2).isF32() && elementType(0) == elementType(1)) {
      if (elementType(0).isF32())
        return GemmKind::F32;
      if (elementType(0).isF16())
        return GemmKind::F16;
      if (elementType(0).isBF16())
        return GemmKind::BF16;
    }
    // i8 x i8^T -> i32 (tfaot-lower-int8-contractions{product=matmul}).
    if (isa<linalg::MatmulTransposeBOp>(op.getOperation()) &&
        elementType(0).isInteger(8) && elementType(1).isInteger(8) &&
        elementType(2).isInteger(32))
      return GemmKind::S8;
    return std::nullopt;
  }

  func::FuncOp declareGemm(ModuleOp module, GemmKind kind) {
    StringRef name = ::tfaot::gpu::gemmFunction(kind, emulate);
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
      if (std::optional<GemmKind> kind = kindOf(op))
        products.push_back({op, *kind});
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
