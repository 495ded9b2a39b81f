//===- FuseDecodeCrop.cpp - DecodeJpeg + Slice -> decode of the window -----===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-fuse-decode-crop (see the pass description in Passes.td). Only a
// Slice or StridedSlice (steps of 1, no axis dropped or added) that keeps
// every channel qualifies: the decoder writes whole pixels, and TF graphs
// crop with tf.image.crop_to_bounding_box, i.e. a Slice with begin
// [y, x, 0] and size [h, w, -1], or with image[y0:y1, x0:x1], a
// StridedSlice.
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

/// The window a Slice or StridedSlice of a decoded [H, W, C] image takes:
/// its top-left pixel, if it keeps every channel and (for StridedSlice)
/// steps by 1 with no axis dropped or added.
static std::optional<std::pair<int64_t, int64_t>>
windowOrigin(Operation *crop, RankedTensorType image) {
  auto window = cast<RankedTensorType>(crop->getResult(0).getType());
  if (window.getRank() != 3 || window.getDimSize(2) != image.getDimSize(2))
    return std::nullopt;
  SmallVector<int64_t> begin;
  if (auto slice = dyn_cast<SliceOp>(crop)) {
    std::optional<SmallVector<int64_t>> values =
        getConstantIntValues(slice.getBegin());
    if (!values || values->size() != 3)
      return std::nullopt;
    begin = *values;
  } else {
    auto strided = cast<StridedSliceOp>(crop);
    auto b = getConstantIntValues(strided.getBegin());
    auto e = getConstantIntValues(strided.getEnd());
    auto s = getConstantIntValues(strided.getStrides());
    if (!b || !e || !s)
      return std::nullopt;
    std::string why;
    auto spec = computeStridedSlice(
        image.getShape(), *b, *e, *s, strided.getBeginMask(),
        strided.getEndMask(), strided.getEllipsisMask(),
        strided.getNewAxisMask(), strided.getShrinkAxisMask(), why);
    if (failed(spec) || ArrayRef<int64_t>(spec->outputShape) !=
                            ArrayRef<int64_t>(spec->sizes) ||
        llvm::any_of(spec->strides, [](int64_t st) { return st != 1; }))
      return std::nullopt;
    begin = spec->offsets;
  }
  if (begin[2] != 0)
    return std::nullopt;
  return std::make_pair(begin[0], begin[1]);
}

/// Replaces `crop` (a Slice or StridedSlice) of the whole-image `decode` by
/// a decode of the window.
static void fuse(DecodeJpegOp decode, Operation *crop) {
  RankedTensorType image = decode.getImage().getType();
  std::optional<std::pair<int64_t, int64_t>> origin = windowOrigin(crop, image);
  if (!origin)
    return;
  auto window = cast<RankedTensorType>(crop->getResult(0).getType());
  OpBuilder b(crop);
  SmallVector<int32_t> cropWindow{
      int32_t(origin->first), int32_t(origin->second),
      int32_t(window.getDimSize(0)), int32_t(window.getDimSize(1))};
  Value cropWindowConst = ConstOp::create(
      b, crop->getLoc(),
      DenseIntElementsAttr::get(RankedTensorType::get({4}, b.getI32Type()),
                                ArrayRef<int32_t>(cropWindow)));
  // At the decode's location: run-time errors keep naming that node.
  auto fused = DecodeJpegOp::create(
      b, decode.getLoc(), window, decode.getContents(), cropWindowConst,
      decode.getChannelsAttr(), decode.getRatioAttr(),
      decode.getFancyUpscalingAttr(), decode.getDctMethodAttr(),
      b.getDenseI64ArrayAttr(image.getShape().take_front(2)));
  remarkRewrite(crop->getLoc(), kPass,
                "fused " + crop->getName().stripDialect().str() +
                    " into DecodeJpeg",
                llvm::formatv("only the {0}x{1} window at ({2}, {3}) of the "
                              "{4}x{5} image is decoded",
                              cropWindow[2], cropWindow[3], cropWindow[0],
                              cropWindow[1], image.getDimSize(0),
                              image.getDimSize(1)));
  crop->getResult(0).replaceAllUsesWith(fused.getImage());
  crop->erase();
  decode.erase();
}

namespace {
struct FuseDecodeCropPass
    : public tfaot::impl::FuseDecodeCropPassBase<FuseDecodeCropPass> {
  void runOnOperation() override {
    SmallVector<std::pair<DecodeJpegOp, Operation *>> pairs;
    getOperation().walk([&](DecodeJpegOp decode) {
      if (decode.getCropWindow() || !decode->hasOneUse())
        return;
      Operation *user = *decode->user_begin();
      if (isa<SliceOp, StridedSliceOp>(user))
        pairs.push_back({decode, user});
    });
    for (auto [decode, crop] : pairs)
      fuse(decode, crop);
  }
};
} // namespace
