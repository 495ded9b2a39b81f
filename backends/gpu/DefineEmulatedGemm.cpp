//===- DefineEmulatedGemm.cpp - tfaot_rt_cuda_gemm's contract, on the CPU -===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-define-emulated-gemm gives the --gpu_emulate build a body for
// the GEMM that real GPU code hands to cuBLAS (tfaot-gpu-matmuls-to-cublas
// with emulate=true calls it tfaot_emulated_gemm, private to the object):
// plain loops over the same arguments, with the same meaning, as
//
//   for each batch b, row i < m, column j < n:
//     C[b][i][j] = (flags & overwrite ? 0 : C[b][i][j])
//                  + sum over p < k of A[b][i][p] * B[b][p][j]
//
// with row-major A, B, C at the given addresses, leading dimensions and
// batch strides (elements). tfaot_emulated_gemm_s8, for the int8 GEMM
// (tfaot_rt_cuda_gemm_s8), reads int8 A and B with B stored [n, k]
// (B[b][j][p]), sign-extends them and sums in int32 into an int32 C;
// tfaot_emulated_gemm_f16 and _bf16 (--precision=fp16|bf16) read 16-bit A
// and B, widen them exactly to f32 and sum in f32 into an f32 C, as cuBLAS
// does on tensor cores (in its own order). The emulated build thus checks, on machines without a GPU, everything about
// the library path but cuBLAS itself: the im2col, the operands' addresses
// and strides, dropping the zero fill and the int8 zero-point term.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/Passes.h"
#include "backends/gpu/HostLaunch.h"
#include "runtime/include/tfaot/runtime/cuda_image.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_DEFINEEMULATEDGEMMPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;

namespace {

using ::tfaot::gpu::GemmKind;

/// Builds the loops of the file comment into `func`'s (new) body, for
/// products of `kind`.
void defineBody(func::FuncOp func, GemmKind kind) {
  Location loc = func.getLoc();
  Block *entry = func.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  Type index = b.getIndexType(), i64 = b.getI64Type();
  bool s8 = kind == GemmKind::S8;
  Type inType = kind == GemmKind::S8    ? Type(b.getI8Type())
                : kind == GemmKind::F16  ? Type(b.getF16Type())
                : kind == GemmKind::BF16 ? Type(b.getBF16Type())
                                         : Type(b.getF32Type());
  Type accType = s8 ? Type(b.getI32Type()) : Type(b.getF32Type());
  int64_t inBytes = inType.getIntOrFloatBitWidth() / 8;
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto arg = [&](unsigned i) -> Value {
    return arith::IndexCastOp::create(b, loc, index, entry->getArgument(i));
  };
  Value a = entry->getArgument(0), bMatrix = entry->getArgument(1),
        c = entry->getArgument(2);
  Value batch = arg(3), m = arg(4), n = arg(5), k = arg(6), lda = arg(7),
        ldb = arg(8), ldc = arg(9), strideA = arg(10), strideB = arg(11),
        strideC = arg(12);
  Value flags = entry->getArgument(13);
  Value overwriteBit = arith::ConstantIntOp::create(
      b, loc, b.getI32Type(), ::tfaot::cuda_image::kGemmOverwrite);
  Value overwrite = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc, flags, overwriteBit),
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zeroAcc = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));

  // &base[batchStride * bi + ld * row + col] of `bytes`-byte elements, as a
  // pointer.
  auto element = [&](OpBuilder &nb, Value base, Value batchStride, Value bi,
                     Value ld, Value row, Value col, int64_t bytes) -> Value {
    Value offset = arith::AddIOp::create(
        nb, loc,
        arith::AddIOp::create(nb, loc,
                              arith::MulIOp::create(nb, loc, batchStride, bi),
                              arith::MulIOp::create(nb, loc, ld, row)),
        col);
    Value byteOffset = arith::MulIOp::create(
        nb, loc, arith::IndexCastOp::create(nb, loc, i64, offset),
        arith::ConstantIntOp::create(nb, loc, i64, bytes));
    Value address = arith::AddIOp::create(nb, loc, base, byteOffset);
    return LLVM::IntToPtrOp::create(nb, loc, ptr, address);
  };

  scf::ForOp::create(
      b, loc, zero, batch, one, ValueRange{},
      [&](OpBuilder &b1, Location, Value bi, ValueRange) {
        scf::ForOp::create(
            b1, loc, zero, m, one, ValueRange{},
            [&](OpBuilder &b2, Location, Value i, ValueRange) {
              scf::ForOp::create(
                  b2, loc, zero, n, one, ValueRange{},
                  [&](OpBuilder &b3, Location, Value j, ValueRange) {
                    Value cPtr = element(b3, c, strideC, bi, ldc, i, j, 4);
                    Value old = LLVM::LoadOp::create(b3, loc, accType, cPtr);
                    Value init = arith::SelectOp::create(b3, loc, overwrite,
                                                         zeroAcc, old);
                    auto sum = scf::ForOp::create(
                        b3, loc, zero, k, one, ValueRange{init},
                        [&](OpBuilder &b4, Location, Value p,
                            ValueRange acc) {
                          Value x = LLVM::LoadOp::create(
                              b4, loc, inType,
                              element(b4, a, strideA, bi, lda, i, p, inBytes));
                          // B[p][j], or B[j][p] for the int8 GEMM.
                          Value y = LLVM::LoadOp::create(
                              b4, loc, inType,
                              s8 ? element(b4, bMatrix, strideB, bi, ldb, j, p,
                                           inBytes)
                                 : element(b4, bMatrix, strideB, bi, ldb, p, j,
                                           inBytes));
                          Value next;
                          if (s8) {
                            x = arith::ExtSIOp::create(b4, loc, accType, x);
                            y = arith::ExtSIOp::create(b4, loc, accType, y);
                            next = arith::AddIOp::create(
                                b4, loc, acc[0],
                                arith::MulIOp::create(b4, loc, x, y));
                          } else {
                            if (inType != accType) {
                              x = arith::ExtFOp::create(b4, loc, accType, x);
                              y = arith::ExtFOp::create(b4, loc, accType, y);
                            }
                            next = arith::AddFOp::create(
                                b4, loc, acc[0],
                                arith::MulFOp::create(b4, loc, x, y));
                          }
                          scf::YieldOp::create(b4, loc, ValueRange{next});
                        });
                    LLVM::StoreOp::create(b3, loc, sum.getResult(0), cPtr);
                    scf::YieldOp::create(b3, loc);
                  });
              scf::YieldOp::create(b2, loc);
            });
        scf::YieldOp::create(b1, loc);
      });
  func::ReturnOp::create(b, loc);
}

struct DefineEmulatedGemmPass
    : mlir::tfaot::impl::DefineEmulatedGemmPassBase<DefineEmulatedGemmPass> {
  void runOnOperation() override {
    for (GemmKind kind : ::tfaot::gpu::kGemmKinds) {
      auto func = getOperation().lookupSymbol<func::FuncOp>(
          ::tfaot::gpu::gemmFunction(kind, /*emulated=*/true));
      if (!func || !func.isExternal())
        continue;
      defineBody(func, kind);
      // Local to the object: each emulated model carries its own copy.
      func->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(&getContext(),
                                           LLVM::Linkage::Internal));
    }
  }
};

} // namespace
