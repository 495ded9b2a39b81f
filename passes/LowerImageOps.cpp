//===- LowerImageOps.cpp - DecodeJpeg to a runtime call -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. Decoding is libjpeg's work, so
// tfaot.DecodeJpeg becomes a call of tfaot_rt_decode_jpeg (runtime/lib/
// jpeg.cpp) that writes the pixels straight into the result's buffer: a
// memref.alloc that tfaot-plan-buffers places in the arena, or that
// buffer-results-to-out-params replaces by the caller's result buffer.
// Buffers cross the call as plain addresses (index): the bare-pointer
// convention cannot declare one function for every image shape, and an
// address is what the C side takes.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tfaot;

/// The runtime function and its parameters (runtime/tfaot/runtime/jpeg.h):
/// contents, crop, out, what (addresses), then height, width, channels,
/// ratio, flags, image height, image width.
static constexpr int kNumAddresses = 4, kNumInts = 7;

/// tfaot::JpegFlags, which the runtime reads.
enum : int64_t {
  kJpegCrop = 1,
  kJpegFancyUpscaling = 2,
  kJpegDctAccurate = 4,
  kJpegCheckImageSize = 8,
};

void mlir::tfaot::declareImageRuntime(ModuleOp module) {
  bool used = false;
  module.walk([&](DecodeJpegOp) { used = true; });
  if (!used || module.lookupSymbol(tfaot_rt::kDecodeJpeg))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  SmallVector<Type> params(kNumAddresses, b.getIndexType());
  params.append(kNumInts, b.getI64Type());
  auto decl = func::FuncOp::create(b, module.getLoc(), tfaot_rt::kDecodeJpeg,
                                   b.getFunctionType(params, {}));
  decl.setPrivate();
}

/// What errors about this decode start with: the node, and the argument
/// when the bytes come straight from one.
static std::string describeDecode(DecodeJpegOp op) {
  // A crop with image_size is a DecodeJpeg that tfaot-fuse-decode-crop
  // narrowed to the window its Slice keeps.
  std::string what = op.getCropWindow() && !op.getImageSize()
                         ? "DecodeAndCropJpeg"
                         : "DecodeJpeg";
  if (auto name = dyn_cast<NameLoc>(op.getLoc()))
    what += " '" + name.getName().str() + "'";
  if (auto arg = dyn_cast<BlockArgument>(op.getContents()))
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      if (auto feed = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "tfaot.feed"))
        what += " (argument '" + feed.getValue().str() + "')";
  return what;
}

namespace {

struct DecodeJpegLowering : TfaotPattern<DecodeJpegOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(DecodeJpegOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    auto address = [&](Value memref) -> Value {
      return memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc,
                                                            memref);
    };
    auto buffer = [&](Value tensor) -> Value {
      auto t = cast<RankedTensorType>(tensor.getType());
      return bufferization::ToBufferOp::create(
          rewriter, loc, MemRefType::get(t.getShape(), t.getElementType()),
          tensor, /*read_only=*/rewriter.getUnitAttr());
    };
    auto i64 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, v, 64);
    };

    // The message prefix, NUL-terminated, as a constant global.
    std::string what = describeDecode(op);
    auto module = op->getParentOfType<ModuleOp>();
    auto textType = MemRefType::get({int64_t(what.size() + 1)},
                                    rewriter.getI8Type());
    SmallVector<int8_t> text(what.begin(), what.end());
    text.push_back(0);
    std::string symbol = "__tfaot_decode_what";
    for (int n = 1; module.lookupSymbol(symbol); ++n)
      symbol = "__tfaot_decode_what_" + std::to_string(n);
    memref::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      global = memref::GlobalOp::create(
          rewriter, loc, symbol, rewriter.getStringAttr("private"),
          textType,
          DenseElementsAttr::get(
              RankedTensorType::get(textType.getShape(), rewriter.getI8Type()),
              ArrayRef<int8_t>(text)),
          /*constant=*/true, /*alignment=*/nullptr);
    }
    Value whatRef = memref::GetGlobalOp::create(rewriter, loc, textType,
                                                global.getSymName());

    int64_t flags = 0;
    if (op.getFancyUpscaling())
      flags |= kJpegFancyUpscaling;
    if (op.getDctMethod() == "INTEGER_ACCURATE")
      flags |= kJpegDctAccurate;
    auto imageSize = op.getImageSize();
    if (imageSize)
      flags |= kJpegCheckImageSize;

    // The output is allocated before any address is taken, and the
    // addresses right before the call: tfaot-plan-buffers sees a buffer
    // live until its last use, and the call is a use it cannot see, so no
    // buffer read by the call may end, and none written start, before it.
    auto out = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        rewriter.getI64IntegerAttr(64));
    Value contents = buffer(adaptor.getContents());
    Value window = adaptor.getCropWindow();
    if (window) {
      flags |= kJpegCrop;
      window = buffer(window);
    }
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<Value> args{
        address(contents),
        window ? address(window)
               : arith::ConstantIndexOp::create(rewriter, loc, 0).getResult(),
        address(out),
        address(whatRef),
        i64(shape[0]),
        i64(shape[1]),
        i64(shape[2]),
        i64(op.getRatio()),
        i64(flags),
        i64(imageSize ? (*imageSize)[0] : 0),
        i64(imageSize ? (*imageSize)[1] : 0)};
    func::CallOp::create(rewriter, loc, tfaot_rt::kDecodeJpeg, TypeRange{},
                         args);
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, loc, type, out, /*restrict=*/true,
                               /*writable=*/true));
    return success();
  }
};

} // namespace

void mlir::tfaot::populateImageLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<DecodeJpegLowering>(converter, patterns.getContext());
}
