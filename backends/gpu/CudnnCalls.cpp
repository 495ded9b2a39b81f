//===- CudnnCalls.cpp - Convolutions and their epilogues as cuDNN calls ---===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-cudnn-calls (on buffers, before the buffer plan, which then
// keeps each call's operands alive up to it):
// every linalg.conv_2d_nhwc_fhwc, which only tfaot-gpu-convs-to-cudnn makes
// (ConvsToCudnn.cpp says which convolutions), becomes a host call to
// tfaot_rt_cuda_conv (HostLaunch.h). When the generic right after it is a
// fusable epilogue (ConvEpilogue.h) the call takes the epilogue's bias, z
// and ReLU (or ReLU6), writes the epilogue's output (or, where that is in
// the convolution's input buffer, a temporary copied there after the
// call), and the generic goes: one cuDNN
// call (cudnnConvolutionBiasActivationForward) instead of an im2col copy,
// a GEMM and an epilogue kernel reading the GEMM's f32 output. Else the
// call writes the convolution's own (f32) buffer and the epilogue stays a
// kernel. The zero fill of the convolution's buffer, or the copy of zeros
// into it, goes (cuDNN overwrites; with a fused epilogue no one reads that
// buffer any more). An input that
// is a symmetric zero pad of another buffer (PaddedInput.h) is replaced by
// that buffer and the call pads, so the pad's fill and copy go too.
//
// --gpu_emulate later points the calls at tfaot_emulated_conv_*, the same
// contract as loops (DefineEmulatedConv.cpp).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/ConvEpilogue.h"
#include "backends/gpu/HostLaunch.h"
#include "backends/gpu/PaddedInput.h"
#include "backends/gpu/Passes.h"
#include "passes/LoweringUtils.h"
#include "passes/Remarks.h"
#include "runtime/include/tfaot/runtime/cuda_image.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_CUDNNCALLSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
namespace cuda_image = ::tfaot::cuda_image;

namespace {

/// A buffer cuDNN can take as a packed NHWC tensor (or KRSC filter, or
/// bias vector).
bool isDense(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && memref::isStaticShapeAndContiguousRowMajor(type);
}

Type elementOf(Value value) { return getElementTypeOrSelf(value.getType()); }


struct CudnnCallsPass
    : mlir::tfaot::impl::CudnnCallsPassBase<CudnnCallsPass> {
  using CudnnCallsPassBase::CudnnCallsPassBase;

  /// The runtime's entry.
  func::FuncOp declareConv(ModuleOp module) {
    StringRef name = tfaot_rt::kCudaConv;
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    SmallVector<Type> params(21, b.getI64Type());
    params.push_back(b.getI32Type());
    auto func = func::FuncOp::create(b, module.getLoc(), name,
                                     b.getFunctionType(params, {}));
    func.setPrivate();
    return func;
  }

  /// Whether `epilogue` of a convolution of `element` data can be the
  /// call's: as tfaot-gpu-convs-to-cudnn chose, bias, z and y dense and of
  /// the data type (f32 y for f32 data).
  static bool fusable(const ::tfaot::gpu::ConvEpilogue &epilogue,
                      Type element) {
    linalg::GenericOp op = epilogue.op;
    if (!epilogue.biasInput || !op.hasPureBufferSemantics())
      return false;
    Value y = op.getDpsInits()[0];
    Value bias = op.getDpsInputs()[*epilogue.biasInput];
    bool ok = isDense(y) && elementOf(y) == element && isDense(bias) &&
              elementOf(bias) == element;
    if (epilogue.residualInput) {
      Value z = op.getDpsInputs()[*epilogue.residualInput];
      ok = ok && isDense(z) && elementOf(z) == element;
    }
    return ok;
  }

  /// Says, for `explain` and --report, how the call runs `conv`: with its
  /// epilogue fused ("conv + bias + ReLU6") or the epilogue left a kernel.
  /// (cuDNN may still refuse the fused call at run time; the runtime then
  /// runs it unfused, see runtime/lib/cuda/cudnn.h.)
  void remarkPlacement(linalg::Conv2DNhwcFhwcOp conv,
                       const std::optional<::tfaot::gpu::ConvEpilogue> &e,
                       bool padInCall, bool copied) {
    // The form goes into the remark's group (what --report's text shows),
    // the pad and copy around the call into its detail.
    std::string what = "cuDNN conv, epilogue a kernel";
    if (e)
      what = "cuDNN fused conv" +
             std::string(e->residualInput ? " + residual" : "") + " + bias" +
             (e->relu6 ? " + ReLU6" : e->relu ? " + ReLU" : "");
    SmallVector<StringRef, 2> around;
    if (padInCall)
      around.push_back("padding in the call");
    else if (conv->hasAttr(::tfaot::gpu::kPaddedInputAttr))
      around.push_back("after a pad copy");
    if (copied)
      around.push_back("written aside, then copied over its input");
    mlir::tfaot::remarkRewrite(conv.getLoc(), getArgument(), what,
                               llvm::join(around, "; "));
  }

  LogicalResult replace(linalg::Conv2DNhwcFhwcOp conv, int64_t site) {
    Value x = conv.getInputs()[0], w = conv.getInputs()[1];
    Value output = conv.getOutputs()[0];
    Type element = elementOf(x);
    bool half = element.isF16() || element.isBF16();
    if (!isDense(x) || !isDense(w) || !isDense(output) || elementOf(w) != element)
      return conv.emitError("internal error: a convolution for cuDNN has "
                            "operands it cannot take (not dense, or of "
                            "different types)");
    std::optional<::tfaot::gpu::ConvEpilogue> epilogue;
    if (conv->hasAttr(::tfaot::gpu::kFusedEpilogueAttr))
      epilogue = ::tfaot::gpu::matchConvEpilogue(conv);
    if (epilogue && !fusable(*epilogue, element))
      epilogue.reset();
    if (half && !epilogue)
      return conv.emitError("internal error: a 16-bit convolution for cuDNN "
                            "has no epilogue that stores 16 bits right "
                            "after it");
    // A symmetric zero pad of x: cuDNN reads the unpadded buffer and pads.
    std::optional<::tfaot::gpu::SymmetricZeroPad> pad =
        ::tfaot::gpu::matchSymmetricZeroPad(x, conv);
    if (pad)
      x = pad->source;
    // The zero fills of the convolution's buffer: cuDNN overwrites it, or
    // (fused) no one reads it. Kept if anything but the convolution reads
    // the zeros: something before it, or a copy from that buffer (a zero
    // buffer that other products' buffers are copied from). Looked for
    // before the call's operands are built, which name the buffer too.
    bool zerosUnread = llvm::all_of(output.getUsers(), [&](Operation *user) {
      if (auto copy = dyn_cast<memref::CopyOp>(user))
        return copy.getTarget() == output;
      return user == conv.getOperation() ||
             isa<linalg::FillOp, memref::DeallocOp>(user) ||
             (user->getBlock() == conv->getBlock() &&
              conv->isBeforeInBlock(user));
    });
    // The zeros may also arrive by a copy: CSE gives convolutions of one
    // shape one zero-filled tensor, and bufferization copies it into each
    // one's buffer. Those copies go too, and the shared zeros with the
    // last of them (dropUnreadZeros).
    SmallVector<Operation *> dead;
    SmallVector<Value> zeroSources;
    for (Operation *user : output.getUsers()) {
      if (!zerosUnread || user->getBlock() != conv->getBlock() ||
          !user->isBeforeInBlock(conv))
        continue;
      if (isa<linalg::FillOp>(user)) {
        dead.push_back(user);
      } else if (auto copy = dyn_cast<memref::CopyOp>(user);
                 copy && copy.getTarget() == output) {
        dead.push_back(copy);
        zeroSources.push_back(copy.getSource());
      }
    }
    Operation *at = epilogue ? epilogue->op.getOperation() : conv;
    OpBuilder b(at);
    Location loc = conv.getLoc();
    Type i64 = b.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(b, loc, i64, value);
    };
    auto address = [&](Value buffer) {
      return mlir::tfaot::bufferAddress(b, loc, buffer);
    };
    int flags = element.isF16()    ? cuda_image::kConvF16
                : element.isBF16() ? cuda_image::kConvBF16
                : allowTf32        ? cuda_image::kConvAllowTf32
                                   : 0;
    Value bias = constant(0), z = constant(0), y = output;
    // Bufferization may write an elementwise epilogue in place over a dead
    // input, the convolution's x among them: right for the epilogue alone,
    // which runs after the convolution has read x, wrong for one call that
    // reads x while it writes y. Then the call writes a temporary, copied
    // into y after it.
    Value inPlaceOutput;
    if (epilogue) {
      linalg::GenericOp op = epilogue->op;
      bias = address(op.getDpsInputs()[*epilogue->biasInput]);
      flags |= cuda_image::kConvBias;
      if (epilogue->residualInput) {
        z = address(op.getDpsInputs()[*epilogue->residualInput]);
        flags |= cuda_image::kConvResidual;
      }
      if (epilogue->relu)
        flags |= cuda_image::kConvRelu;
      if (epilogue->relu6)
        flags |= cuda_image::kConvRelu6;
      y = op.getDpsInits()[0];
      if (::tfaot::gpu::viewRoot(y) == ::tfaot::gpu::viewRoot(x)) {
        inPlaceOutput = y;
        auto type = cast<MemRefType>(y.getType());
        y = memref::AllocOp::create(
            b, loc, MemRefType::get(type.getShape(), type.getElementType()));
      }
    }
    remarkPlacement(conv, epilogue, pad.has_value(),
                    static_cast<bool>(inPlaceOutput));
    ArrayRef<int64_t> in = cast<MemRefType>(x.getType()).getShape();
    ArrayRef<int64_t> filter = cast<MemRefType>(w.getType()).getShape();
    ArrayRef<int64_t> out = cast<MemRefType>(output.getType()).getShape();
    auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
    auto dilations = llvm::to_vector(conv.getDilations().getValues<int64_t>());
    SmallVector<Value> args = {constant(site), address(x), address(w), bias,
                               z, address(y)};
    for (int64_t value : {in[0], in[1], in[2], in[3], filter[0], filter[1],
                          filter[2], out[1], out[2], strides[0], strides[1],
                          dilations[0], dilations[1], pad ? pad->h : 0,
                          pad ? pad->w : 0})
      args.push_back(constant(value));
    args.push_back(arith::ConstantIntOp::create(b, loc, b.getI32Type(), flags));
    func::CallOp::create(b, loc, declareConv(getOperation()), args);
    if (inPlaceOutput) {
      memref::CopyOp::create(b, loc, y, inPlaceOutput);
      memref::DeallocOp::create(b, loc, y);
    }
    if (epilogue)
      dead.push_back(epilogue->op);
    dead.push_back(conv);
    if (pad)
      dead.append(pad->ops.begin(), pad->ops.end());
    for (Operation *op : dead)
      op->erase();
    for (Value zeros : zeroSources)
      dropUnreadZeros(zeros);
    return success();
  }

  /// Erases `buffer`, an alloc that its fills alone still use, with them.
  static void dropUnreadZeros(Value buffer) {
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    if (!alloc || !llvm::all_of(alloc->getUsers(), [](Operation *user) {
          return isa<linalg::FillOp>(user);
        }))
      return;
    for (Operation *fill : llvm::make_early_inc_range(alloc->getUsers()))
      fill->erase();
    alloc.erase();
  }

  void runOnOperation() override {
    SmallVector<linalg::Conv2DNhwcFhwcOp> convs;
    getOperation().walk([&](linalg::Conv2DNhwcFhwcOp conv) {
      if (conv.hasPureBufferSemantics())
        convs.push_back(conv);
    });
    int64_t site = 0;
    for (linalg::Conv2DNhwcFhwcOp conv : convs)
      if (failed(replace(conv, site++)))
        return signalPassFailure();
  }
};

} // namespace
