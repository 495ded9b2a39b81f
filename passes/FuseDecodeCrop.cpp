//===- FuseDecodeCrop.cpp - DecodeJpeg + Slice -> decode of the window -----===//
//
// --tfaot-fuse-decode-crop (see the pass description in Passes.td). Only a
// Slice that keeps every channel qualifies: the decoder writes whole
// pixels, and TF graphs crop with tf.image.crop_to_bounding_box, i.e. a
// Slice with begin [y, x, 0] and size [h, w, -1].
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "passes/Remarks.h"

#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_FUSEDECODECROPPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

static constexpr char kPass[] = "tfaot-fuse-decode-crop";

/// Replaces `slice` of the whole-image `decode` by a decode of the window.
static void fuse(DecodeJpegOp decode, SliceOp slice) {
  std::optional<SmallVector<int64_t>> begin =
      getConstantIntValues(slice.getBegin());
  RankedTensorType window = slice.getOutput().getType();
  RankedTensorType image = decode.getImage().getType();
  if (!begin || begin->size() != 3 || (*begin)[2] != 0 ||
      window.getDimSize(2) != image.getDimSize(2))
    return;
  OpBuilder b(slice);
  SmallVector<int32_t> crop{int32_t((*begin)[0]), int32_t((*begin)[1]),
                            int32_t(window.getDimSize(0)),
                            int32_t(window.getDimSize(1))};
  Value cropWindow = ConstOp::create(
      b, slice.getLoc(),
      DenseIntElementsAttr::get(RankedTensorType::get({4}, b.getI32Type()),
                                ArrayRef<int32_t>(crop)));
  // At the decode's location: run-time errors keep naming that node.
  auto fused = DecodeJpegOp::create(
      b, decode.getLoc(), window, decode.getContents(), cropWindow,
      decode.getChannelsAttr(), decode.getRatioAttr(),
      decode.getFancyUpscalingAttr(), decode.getDctMethodAttr(),
      b.getDenseI64ArrayAttr(image.getShape().take_front(2)));
  remarkRewrite(slice.getLoc(), kPass, "fused Slice into DecodeJpeg",
                llvm::formatv("only the {0}x{1} window at ({2}, {3}) of the "
                              "{4}x{5} image is decoded",
                              crop[2], crop[3], crop[0], crop[1],
                              image.getDimSize(0), image.getDimSize(1)));
  slice.getOutput().replaceAllUsesWith(fused.getImage());
  slice.erase();
  decode.erase();
}

namespace {
struct FuseDecodeCropPass
    : public tfaot::impl::FuseDecodeCropPassBase<FuseDecodeCropPass> {
  void runOnOperation() override {
    SmallVector<std::pair<DecodeJpegOp, SliceOp>> pairs;
    getOperation().walk([&](DecodeJpegOp decode) {
      if (decode.getCropWindow() || !decode->hasOneUse())
        return;
      if (auto slice = dyn_cast<SliceOp>(*decode->user_begin()))
        pairs.push_back({decode, slice});
    });
    for (auto [decode, slice] : pairs)
      fuse(decode, slice);
  }
};
} // namespace
