//===- DefineEmulatedConv.cpp - tfaot_rt_cuda_conv's contract, on the CPU -===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-define-emulated-conv gives the --gpu_emulate build bodies for
// the convolutions that real GPU code hands to cuDNN
// (tfaot-gpu-cudnn-calls calls tfaot_rt_cuda_conv; here each call goes to
// tfaot_emulated_conv_f32, _f16 or _bf16 instead, by the element type its
// constant flags name): plain loops over
// the same arguments, with the same meaning, as
//
//   for each n, oh < OH, ow < OW, k < K:
//     acc = sum over r < R, s < S, c < C (f32, 16-bit values widened) of
//           x[n][oh*sh + r*dh - ph][ow*sw + s*dw - pw][c] * w[k][r][s][c]
//           (x zero outside its H x W: the padding)
//     acc += z[n][oh][ow][k]  (flags & residual)
//     acc += bias[k]          (flags & bias)
//     acc = max(acc, 0)       (flags & relu)
//     acc = min(acc, 6)       (flags & relu6: cuDNN's CLIPPED_RELU at 6)
//     y[n][oh][ow][k] = acc, rounded once to y's type
//
// with packed NHWC x (N x H x W x C), z and y (N x OH x OW x K), KRSC w and
// a bias of K, at the given addresses. That is cuDNN's
// y = act(alpha1 * conv(x, w) + alpha2 * z + bias) with alpha1 = 1, alpha2
// = 1 or 0, in the order of its formula. The emulated build thus checks,
// without a GPU, everything about the cuDNN path but cuDNN: which
// convolutions and epilogues go, the weights' transposition, the operands'
// addresses and shapes and the rounding points.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/HostLaunch.h"
#include "backends/gpu/Passes.h"
#include "runtime/include/tfaot/runtime/cuda_image.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_DEFINEEMULATEDCONVPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
namespace cuda_image = ::tfaot::cuda_image;

namespace {

/// Builds the loops of the file comment into `func`'s (new) body, for data
/// of type `element`.
void defineBody(func::FuncOp func, Type element) {
  Location loc = func.getLoc();
  Block *entry = func.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  Type index = b.getIndexType(), i64 = b.getI64Type(), f32 = b.getF32Type();
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  auto arg = [&](unsigned i) -> Value {
    return arith::IndexCastOp::create(b, loc, index, entry->getArgument(i));
  };
  Value x = entry->getArgument(1), w = entry->getArgument(2),
        bias = entry->getArgument(3), z = entry->getArgument(4),
        y = entry->getArgument(5);
  Value n = arg(6), h = arg(7), wd = arg(8), c = arg(9), k = arg(10),
        r = arg(11), s = arg(12), oh = arg(13), ow = arg(14), sh = arg(15),
        sw = arg(16), dh = arg(17), dw = arg(18), ph = arg(19), pw = arg(20);
  Value flags = entry->getArgument(21);
  auto flag = [&](int bit) -> Value {
    Value i32Bit = arith::ConstantIntOp::create(b, loc, b.getI32Type(), bit);
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, flags, i32Bit),
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
  };
  Value hasResidual = flag(cuda_image::kConvResidual);
  Value hasBias = flag(cuda_image::kConvBias);
  Value hasRelu = flag(cuda_image::kConvRelu);
  Value hasRelu6 = flag(cuda_image::kConvRelu6);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value sixF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(6));

  // ((a * B + b) * C + c ...): the linear index of a packed tensor.
  auto linear = [&](OpBuilder &nb, ArrayRef<Value> indices,
                    ArrayRef<Value> sizes) {
    Value result = indices[0];
    for (size_t i = 1; i < indices.size(); ++i)
      result = arith::AddIOp::create(
          nb, loc, arith::MulIOp::create(nb, loc, result, sizes[i]),
          indices[i]);
    return result;
  };
  // &base[i] of `bytes`-byte elements, as a pointer.
  auto element_at = [&](OpBuilder &nb, Value base, Value i, int64_t size) {
    Value offset = arith::MulIOp::create(
        nb, loc, arith::IndexCastOp::create(nb, loc, i64, i),
        arith::ConstantIntOp::create(nb, loc, i64, size));
    Value address = arith::AddIOp::create(nb, loc, base, offset);
    return LLVM::IntToPtrOp::create(nb, loc, ptr, address);
  };
  // The f32 value of element i of `base`.
  auto load = [&](OpBuilder &nb, Value base, Value i) -> Value {
    Value value = LLVM::LoadOp::create(nb, loc, element,
                                       element_at(nb, base, i, bytes));
    return element.isF32() ? value : arith::ExtFOp::create(nb, loc, f32, value);
  };
  // cond ? base[i] : 0 (f32), loading only when cond holds.
  auto loadIf = [&](OpBuilder &nb, Value cond, Value base, Value i) -> Value {
    return scf::IfOp::create(
               nb, loc, cond,
               [&](OpBuilder &tb, Location) {
                 scf::YieldOp::create(tb, loc, load(tb, base, i));
               },
               [&](OpBuilder &eb, Location) {
                 scf::YieldOp::create(eb, loc, zeroF);
               })
        .getResult(0);
  };
  // 0 <= i < size.
  auto inside = [&](OpBuilder &nb, Value i, Value size) -> Value {
    return arith::AndIOp::create(
        nb, loc,
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::sge, i, zero),
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::slt, i, size));
  };
  // acc + (cond ? base[i] : 0), loading only when cond holds.
  auto addIf = [&](OpBuilder &nb, Value cond, Value acc, Value base,
                   Value i) -> Value {
    return scf::IfOp::create(
               nb, loc, cond,
               [&](OpBuilder &tb, Location) {
                 Value sum =
                     arith::AddFOp::create(tb, loc, acc, load(tb, base, i));
                 scf::YieldOp::create(tb, loc, sum);
               },
               [&](OpBuilder &eb, Location) {
                 scf::YieldOp::create(eb, loc, acc);
               })
        .getResult(0);
  };
  auto loop = [&](OpBuilder &nb, Value upper, ValueRange inits,
                  function_ref<void(OpBuilder &, Value, ValueRange)> body) {
    return scf::ForOp::create(
        nb, loc, zero, upper, one, inits,
        [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
          body(lb, iv, args);
        });
  };

  loop(b, n, ValueRange(), [&](OpBuilder &b1, Value ni, ValueRange) {
    loop(b1, oh, ValueRange(), [&](OpBuilder &b2, Value i, ValueRange) {
      loop(b2, ow, ValueRange(), [&](OpBuilder &b3, Value j, ValueRange) {
        loop(b3, k, ValueRange(), [&](OpBuilder &b4, Value kk, ValueRange) {
          Value row = arith::SubIOp::create(
              b4, loc, arith::MulIOp::create(b4, loc, i, sh), ph);
          Value col = arith::SubIOp::create(
              b4, loc, arith::MulIOp::create(b4, loc, j, sw), pw);
          auto sum = loop(b4, r, zeroF, [&](OpBuilder &b5, Value p,
                                            ValueRange acc5) {
            Value hi = arith::AddIOp::create(
                b5, loc, row, arith::MulIOp::create(b5, loc, p, dh));
            auto sumS = loop(b5, s, acc5, [&](OpBuilder &b6, Value q,
                                              ValueRange acc6) {
              Value wi = arith::AddIOp::create(
                  b6, loc, col, arith::MulIOp::create(b6, loc, q, dw));
              Value in = arith::AndIOp::create(b6, loc, inside(b6, hi, h),
                                               inside(b6, wi, wd));
              auto sumC = loop(b6, c, acc6, [&](OpBuilder &b7, Value cc,
                                                ValueRange acc7) {
                // A padding zero is multiplied and added like a value, as
                // a padded copy would be.
                Value xv = loadIf(b7, in, x,
                                  linear(b7, {ni, hi, wi, cc}, {n, h, wd, c}));
                Value wv = load(b7, w, linear(b7, {kk, p, q, cc},
                                              {k, r, s, c}));
                Value next = arith::AddFOp::create(
                    b7, loc, acc7[0], arith::MulFOp::create(b7, loc, xv, wv));
                scf::YieldOp::create(b7, loc, next);
              });
              scf::YieldOp::create(b6, loc, sumC.getResult(0));
            });
            scf::YieldOp::create(b5, loc, sumS.getResult(0));
          });
          Value out = linear(b4, {ni, i, j, kk}, {n, oh, ow, k});
          Value acc = addIf(b4, hasResidual, sum.getResult(0), z, out);
          acc = addIf(b4, hasBias, acc, bias, kk);
          Value relu = arith::MaximumFOp::create(b4, loc, acc, zeroF);
          acc = arith::SelectOp::create(b4, loc, hasRelu, relu, acc);
          Value capped = arith::MinimumFOp::create(b4, loc, acc, sixF);
          acc = arith::SelectOp::create(b4, loc, hasRelu6, capped, acc);
          Value stored =
              element.isF32() ? acc
                              : arith::TruncFOp::create(b4, loc, element, acc);
          LLVM::StoreOp::create(b4, loc, stored,
                                element_at(b4, y, out, bytes));
          scf::YieldOp::create(b4, loc);
        });
        scf::YieldOp::create(b3, loc);
      });
      scf::YieldOp::create(b2, loc);
    });
    scf::YieldOp::create(b1, loc);
  });
  func::ReturnOp::create(b, loc);
}

struct DefineEmulatedConvPass
    : mlir::tfaot::impl::DefineEmulatedConvPassBase<DefineEmulatedConvPass> {
  /// Points every call to the runtime's entry at the twin of its type.
  LogicalResult redirectCalls() {
    ModuleOp module = getOperation();
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (call.getCallee() == tfaot_rt::kCudaConv)
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      APInt flags;
      if (!matchPattern(call.getOperands().back(), m_ConstantInt(&flags)))
        return call.emitError("internal error: a cuDNN call's flags are not "
                              "a constant");
      int64_t bits = flags.getSExtValue();
      const char *name = bits & cuda_image::kConvF16
                             ? ::tfaot::gpu::kEmulatedConvF16Function
                         : bits & cuda_image::kConvBF16
                             ? ::tfaot::gpu::kEmulatedConvBF16Function
                             : ::tfaot::gpu::kEmulatedConvF32Function;
      if (!module.lookupSymbol(name)) {
        OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
        auto twin = func::FuncOp::create(b, module.getLoc(), name,
                                         call.getCalleeType());
        twin.setPrivate();
      }
      call.setCallee(name);
    }
    if (auto entry = module.lookupSymbol<func::FuncOp>(tfaot_rt::kCudaConv))
      entry.erase();
    return success();
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    if (failed(redirectCalls()))
      return signalPassFailure();
    std::pair<const char *, Type> twins[] = {
        {::tfaot::gpu::kEmulatedConvF32Function, Float32Type::get(context)},
        {::tfaot::gpu::kEmulatedConvF16Function, Float16Type::get(context)},
        {::tfaot::gpu::kEmulatedConvBF16Function, BFloat16Type::get(context)}};
    for (auto [name, element] : twins) {
      auto func = getOperation().lookupSymbol<func::FuncOp>(name);
      if (!func || !func.isExternal())
        continue;
      defineBody(func, element);
      // Local to the object: each emulated model carries its own copy.
      func->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
    }
  }
};

} // namespace
