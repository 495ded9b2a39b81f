//===- ScaleJpegDecode.cpp - Decode a JPEG at the size a resize needs -----===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-scale-jpeg-decode (see the pass description in Passes.td).
//
// libjpeg can decode at 1/2, 1/4 or 1/8 of the size by running smaller
// inverse DCTs: that skips most of the IDCT, upsampling and colour
// conversion work, and the resize that follows reads a smaller image. The
// result is not the same numbers (a scaled IDCT is a different low-pass
// filter from bilinear taps on the full image), which is why the pass only
// runs when asked (tfaot compile --jpeg_dct_scaling).
//
// Only the chain TF preprocessing writes between the two is followed, so
// that changing the decoded size changes nothing else: Cast, a Reshape
// that adds unit dimensions (ExpandDims for the batch), and elementwise
// ops with a constant broadcast over the pixels (normalization).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "passes/Remarks.h"

#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_SCALEJPEGDECODEPASS
#include "passes/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;

static constexpr char kPass[] = "tfaot-scale-jpeg-decode";

/// Whether `shape` is the decoded image's [H, W, C] with unit dimensions
/// in front (the batch ExpandDims adds): only then do the pixels keep their
/// places when the image gets smaller.
static bool isImageShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> image) {
  if (shape.size() < 3 || shape.take_back(3) != image)
    return false;
  return llvm::all_of(shape.drop_back(3), [](int64_t d) { return d == 1; });
}

/// A constant operand that broadcasts over the pixels: at most one value
/// per channel (shape [], [C], [1, 1, C], ...).
static bool isPerChannelConstant(Value value, int64_t channels) {
  auto constant = value.getDefiningOp<ConstOp>();
  if (!constant)
    return false;
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape())
    return false;
  ArrayRef<int64_t> shape = type.getShape();
  for (size_t i = 0; i + 1 < shape.size(); ++i)
    if (shape[i] != 1)
      return false;
  return shape.empty() || shape.back() == 1 || shape.back() == channels;
}

/// Whether `op`, reading the decoded pixels through `input`, can take a
/// smaller image with nothing else changed.
static bool keepsPixelsApart(Operation *op, Value input,
                             ArrayRef<int64_t> image) {
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (op->getNumResults() != 1 || !out ||
      !isImageShape(out.getShape(), image))
    return false;
  if (isa<CastOp, ReshapeOp>(op))
    return true;
  int64_t channels = image[2];
  if (isa<AddOp, AddV2Op, SubOp, MulOp, RealDivOp, MaximumOp, MinimumOp>(op)) {
    Value other = op->getOperand(0) == input ? op->getOperand(1)
                                             : op->getOperand(0);
    return other != input && isPerChannelConstant(other, channels) &&
           out == input.getType();
  }
  return false;
}

/// `shape` (an image shape, see isImageShape) with height and width `to`.
static SmallVector<int64_t> rescaled(ArrayRef<int64_t> shape,
                                     ArrayRef<int64_t> to) {
  SmallVector<int64_t> result(shape);
  result[shape.size() - 3] = to[0];
  result[shape.size() - 2] = to[1];
  return result;
}

static RankedTensorType withShape(Type type, ArrayRef<int64_t> shape) {
  return cast<RankedTensorType>(type).clone(shape);
}

/// Height or width of a JPEG decoded at 1/ratio, as libjpeg computes it.
static int64_t ceilDiv(int64_t size, int64_t ratio) {
  return (size + ratio - 1) / ratio;
}

namespace {

/// A whole-image decode and the ops between it and the resize it feeds.
struct DecodeToResize {
  DecodeJpegOp decode;
  SmallVector<Operation *> chain;  ///< In order, excluding the resize.
  Operation *resize = nullptr;
};

std::optional<DecodeToResize> findChain(DecodeJpegOp decode) {
  if (decode.getCropWindow() || decode.getRatio() != 1)
    return std::nullopt;
  ArrayRef<int64_t> image =
      cast<RankedTensorType>(decode.getImage().getType()).getShape();
  // A 1-pixel-high image has nothing to shrink, and would make the image
  // shape ambiguous among unit dimensions.
  if (image[0] < 2 || image[1] < 2)
    return std::nullopt;
  DecodeToResize found{decode, {}, nullptr};
  Value value = decode.getImage();
  while (value.hasOneUse()) {
    Operation *user = *value.user_begin();
    if (isa<ResizeBilinearOp, ResizeNearestNeighborOp>(user)) {
      if (user->getOperand(0) != value ||
          user->getAttrOfType<StringAttr>("data_format").getValue() != "NHWC")
        return std::nullopt;
      found.resize = user;
      return found;
    }
    if (!keepsPixelsApart(user, value, image))
      return std::nullopt;
    found.chain.push_back(user);
    value = user->getResult(0);
  }
  return std::nullopt;
}

/// The largest of 2, 4, 8 that still leaves at least the resize's output
/// size, or 1.
int64_t chooseRatio(ArrayRef<int64_t> image, ArrayRef<int64_t> output) {
  for (int64_t ratio : {8, 4, 2})
    if (ceilDiv(image[0], ratio) >= output[0] &&
        ceilDiv(image[1], ratio) >= output[1])
      return ratio;
  return 1;
}

void scale(DecodeToResize &found) {
  DecodeJpegOp decode = found.decode;
  auto image = cast<RankedTensorType>(decode.getImage().getType());
  auto resized = cast<RankedTensorType>(found.resize->getResult(0).getType());
  // NHWC: the resize's output height and width.
  SmallVector<int64_t> output{resized.getDimSize(1), resized.getDimSize(2)};
  SmallVector<int64_t> from{image.getDimSize(0), image.getDimSize(1)};
  int64_t ratio = chooseRatio(from, output);
  if (ratio == 1)
    return;
  SmallVector<int64_t> to{ceilDiv(from[0], ratio),
                          ceilDiv(from[1], ratio)};

  OpBuilder b(decode);
  decode.setRatio(ratio);
  decode.getImage().setType(withShape(image, {to[0], to[1], image.getDimSize(2)}));
  for (Operation *op : found.chain) {
    Value result = op->getResult(0);
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> shape = rescaled(type.getShape(), to);
    result.setType(withShape(type, shape));
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      // The target shape is a constant of the reshape's own; give it the new
      // sizes in the same element type.
      auto shapeType = cast<RankedTensorType>(reshape.getShape().getType());
      b.setInsertionPoint(reshape);
      SmallVector<APInt> values;
      for (int64_t d : shape)
        values.push_back(
            APInt(shapeType.getElementTypeBitWidth(), d, /*isSigned=*/true));
      auto newShape = ConstOp::create(
          b, reshape.getLoc(), DenseIntElementsAttr::get(shapeType, values));
      reshape.getShapeMutable().assign(newShape);
    }
  }
  remarkRewrite(decode.getLoc(), kPass, "decoded at a smaller scale",
                llvm::formatv("1/{0}: {1}x{2} instead of {3}x{4} for the "
                              "{5}x{6} resize",
                              ratio, to[0], to[1], from[0], from[1], output[0],
                              output[1]));
}

struct ScaleJpegDecodePass
    : public tfaot::impl::ScaleJpegDecodePassBase<ScaleJpegDecodePass> {
  void runOnOperation() override {
    SmallVector<DecodeToResize> chains;
    getOperation().walk([&](DecodeJpegOp decode) {
      if (std::optional<DecodeToResize> found = findChain(decode))
        chains.push_back(*found);
    });
    for (DecodeToResize &found : chains)
      scale(found);
  }
};
} // namespace
