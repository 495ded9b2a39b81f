//===- Int8Ukernels.cpp - int8 linalg.mmt4d to the runtime's VNNI kernel --===//
//
// tfaot-cpu-mmt4d-to-ukernel: the int8 products that Int8Conv2D/Int8MatMul
// lower to (linalg.mmt4d, i8 x i8 -> i32, tiles 1x16x4, see
// passes/LowerInt8Contractions.cpp) become calls to
// tfaot_rt_mmt4d_s8s8s32, which the runtime implements with vpdpbusd where
// the CPU has AVX-512 VNNI (and plain loops elsewhere), choosing at run
// time so one object runs on any x86-64. The kernel splits the rows among
// the run's threads itself. Writing it by hand, as IREE does its
// "ukernels", is the point: LLVM does not form vpdpbusd from a loop nest.
//
// Runs on bufferized code, before loops are parallelized or vectorized.
// What initializes the output right before the product is folded into the
// call: a zero fill (the kernel overwrites instead of accumulating) or a
// broadcast row (the kernel starts every row from it).
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Pipeline.h"
#include "passes/LoweringUtils.h"
#include "runtime/lib/int8_gemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kKernel = "tfaot_rt_mmt4d_s8s8s32";

/// Whether `buffer` is a memref of `element` laid out densely (row-major,
/// any offset), which is what the kernel's plain pointers assume.
bool isDense(Value buffer, unsigned elementBits) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() ||
      !type.getElementType().isInteger(elementBits))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (type.getDimSize(d) != 1 && strides[d] != expected)
      return false;
    expected *= type.getDimSize(d);
  }
  return true;
}

/// An int8 mmt4d with the kernel's tiles (M0=1, N0=16, K0=4).
bool isKernelShaped(linalg::Mmt4DOp op) {
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value out = op.getDpsInitOperand(0)->get();
  if (!isDense(lhs, 8) || !isDense(rhs, 8) || !isDense(out, 32))
    return false;
  auto lhsShape = cast<MemRefType>(lhs.getType()).getShape();
  auto rhsShape = cast<MemRefType>(rhs.getType()).getShape();
  return lhsShape[2] == 1 && lhsShape[3] == 4 && rhsShape[2] == 16 &&
         rhsShape[3] == 4;
}

/// The linalg.broadcast of one dense row of i32 into `out` right before
/// `op` (the zero-point term of LowerInt8Contractions), if there is one.
linalg::BroadcastOp rowBroadcastBefore(linalg::Mmt4DOp op, Value out) {
  auto broadcast = dyn_cast_or_null<linalg::BroadcastOp>(op->getPrevNode());
  if (!broadcast || broadcast.getInit() != out ||
      broadcast.getDimensions() != ArrayRef<int64_t>{0, 2} ||
      !isDense(broadcast.getInput(), 32))
    return nullptr;
  return broadcast;
}

/// The linalg.fill of zero into `out` right before `op`, if there is one.
linalg::FillOp zeroFillBefore(linalg::Mmt4DOp op, Value out) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || fill.getDpsInitOperand(0)->get() != out)
    return nullptr;
  return matchPattern(fill.getDpsInputOperand(0)->get(), m_Zero()) ? fill
                                                                  : nullptr;
}

struct Mmt4dToUkernelPass
    : PassWrapper<Mmt4dToUkernelPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(Mmt4dToUkernelPass)
  StringRef getArgument() const override {
    return "tfaot-cpu-mmt4d-to-ukernel";
  }
  StringRef getDescription() const override {
    return "Replace int8 linalg.mmt4d (tiles 1x16x4) by calls to the "
           "runtime's VNNI kernel";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::Mmt4DOp> products;
    module.walk([&](linalg::Mmt4DOp op) {
      if (op.hasPureBufferSemantics() && isKernelShaped(op))
        products.push_back(op);
    });
    if (products.empty())
      return;
    OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
    auto kernel = module.lookupSymbol<func::FuncOp>(kKernel);
    if (!kernel) {
      Type i64 = top.getI64Type();
      kernel = func::FuncOp::create(
          top, module.getLoc(), kKernel,
          top.getFunctionType(
              {i64, i64, i64, i64, i64, i64, top.getI32Type(), i64}, {}));
      kernel.setPrivate();
    }
    for (linalg::Mmt4DOp op : products) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value lhs = op.getDpsInputOperand(0)->get();
      Value rhs = op.getDpsInputOperand(1)->get();
      Value out = op.getDpsInitOperand(0)->get();
      // Looked for before anything is built in front of the product.
      linalg::FillOp fill = zeroFillBefore(op, out);
      linalg::BroadcastOp row = fill ? nullptr : rowBroadcastBefore(op, out);
      int32_t flags = 0;
      Value columnInit;
      if (fill) {
        fill.erase();
        flags |= kMmt4dOverwrite;
      } else if (row) {
        columnInit = mlir::tfaot::bufferAddress(b, loc, row.getInput());
        row.erase();
        flags |= kMmt4dColumnInit;
      }
      if (!columnInit)
        columnInit = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
      auto lhsShape = cast<MemRefType>(lhs.getType()).getShape();
      auto rhsShape = cast<MemRefType>(rhs.getType()).getShape();
      auto i64 = [&](int64_t v) -> Value {
        return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
      };
      func::CallOp::create(
          b, loc, kernel,
          ValueRange{mlir::tfaot::bufferAddress(b, loc, lhs),
                     mlir::tfaot::bufferAddress(b, loc, rhs),
                     mlir::tfaot::bufferAddress(b, loc, out), i64(lhsShape[0]),
                     i64(rhsShape[0]), i64(lhsShape[1]),
                     arith::ConstantIntOp::create(b, loc, b.getI32Type(), flags)
                         .getResult(),
                     columnInit});
      op.erase();
    }
  }
};

} // namespace

void ::tfaot::cpu::registerInt8UkernelPass() {
  PassRegistration<Mmt4dToUkernelPass>();
}
