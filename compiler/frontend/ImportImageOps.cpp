//===- ImportImageOps.cpp - DecodeJpeg and DecodeAndCropJpeg --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Both become one tfaot.DecodeJpeg with a static result. A decoded image's
// size is a property of the data, so the graph (or the command line) must
// fix it: DecodeAndCropJpeg by a crop window of constant height and width
// (its offset may be computed), DecodeJpeg by --jpeg_size, which the
// generated code checks against every image it decodes. Attribute values
// the runtime cannot honour are rejected here, naming the node.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/GraphImporter.h"
#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;

/// Checks the attributes DecodeJpeg and DecodeAndCropJpeg share and returns
/// them as tfaot.DecodeJpeg attributes.
static FailureOr<SmallVector<NamedAttribute>>
decodeAttrs(NodeImportContext &ctx, int64_t &channels) {
  channels = intAttr(ctx, "channels", 0);
  if (channels == 0)
    return ctx.error("channels=0 (the image's own channel count) is known only "
                     "at run time; set channels to 1 or 3");
  if (channels != 1 && channels != 3)
    return ctx.error(llvm::formatv("channels={0} is not supported; tfaot "
                                   "decodes to 1 (gray) or 3 (RGB) channels",
                                   channels));
  int64_t ratio = intAttr(ctx, "ratio", 1);
  if (ratio != 1 && ratio != 2 && ratio != 4 && ratio != 8)
    return ctx.error(llvm::formatv("ratio={0}: must be 1, 2, 4 or 8", ratio));
  std::string dct = stringAttr(ctx, "dct_method", "");
  if (dct != "" && dct != "INTEGER_FAST" && dct != "INTEGER_ACCURATE")
    return ctx.error("dct_method='" + dct + "': must be '', 'INTEGER_FAST' "
                     "or 'INTEGER_ACCURATE'");
  const tensorflow::AttrValue *recover = ctx.attr("try_recover_truncated");
  if (recover && recover->b())
    return ctx.error("try_recover_truncated=true is not supported: a "
                     "truncated JPEG is an error of Run()");
  const tensorflow::AttrValue *fraction = ctx.attr("acceptable_fraction");
  if (fraction && fraction->f() != 1.0f)
    return ctx.error(llvm::formatv(
        "acceptable_fraction={0} is not supported (it only matters with "
        "try_recover_truncated); use 1",
        fraction->f()));
  const tensorflow::AttrValue *fancy = ctx.attr("fancy_upscaling");
  Builder &b = ctx.builder;
  return SmallVector<NamedAttribute>{
      b.getNamedAttr("channels", b.getI64IntegerAttr(channels)),
      b.getNamedAttr("ratio", b.getI64IntegerAttr(ratio)),
      b.getNamedAttr("fancy_upscaling", b.getBoolAttr(!fancy || fancy->b())),
      b.getNamedAttr("dct_method", b.getStringAttr(dct))};
}

/// Constant value of element `i` of the 1-D `value`, looking through the
/// ConcatV2 of reshaped scalars that Pack imports as; nullopt if unknown.
static std::optional<int64_t> constantElement(Value value, int64_t i) {
  if (DenseElementsAttr dense = constantElements(value))
    return dense.getValues<APInt>()[i].getSExtValue();
  if (auto reshape = value.getDefiningOp<mlir::tfaot::ReshapeOp>())
    return constantElement(reshape.getTensor(), i);
  auto concat = value.getDefiningOp<mlir::tfaot::ConcatV2Op>();
  if (!concat)
    return std::nullopt;
  for (Value piece : concat.getValues()) {
    auto type = cast<RankedTensorType>(piece.getType());
    if (type.getRank() != 1)
      return std::nullopt;
    if (i < type.getDimSize(0))
      return constantElement(piece, i);
    i -= type.getDimSize(0);
  }
  return std::nullopt;
}

/// The constant [height, width] of a [y, x, h, w] crop window.
static std::optional<std::array<int64_t, 2>> constantCropSize(Value window) {
  std::optional<int64_t> h = constantElement(window, 2);
  std::optional<int64_t> w = constantElement(window, 3);
  if (!h || !w)
    return std::nullopt;
  return std::array<int64_t, 2>{*h, *w};
}

/// The contents operand must be a string graph input (a bytes argument).
static LogicalResult checkContents(NodeImportContext &ctx) {
  auto type = ctx.typeOf(0);
  if (!type.getElementType().isInteger(64) ||
      type.getShape() != ArrayRef<int64_t>{2})
    return ctx.error("contents must be a scalar string fed to the model "
                     "(a Placeholder of dtype string), got " +
                     typeString(type));
  return success();
}

namespace {
/// What both importers check first: the contents and the attributes.
struct DecodeSpec {
  SmallVector<NamedAttribute> attrs;
  int64_t channels = 0;
  /// The result type for a decoded height x width.
  RankedTensorType type(NodeImportContext &ctx, int64_t height,
                        int64_t width) const {
    return RankedTensorType::get(
        {height, width, channels},
        IntegerType::get(ctx.builder.getContext(), 8, IntegerType::Unsigned));
  }
};
} // namespace

static FailureOr<DecodeSpec> decodeSpec(NodeImportContext &ctx) {
  DecodeSpec spec;
  if (failed(checkContents(ctx)))
    return failure();
  auto attrs = decodeAttrs(ctx, spec.channels);
  if (failed(attrs))
    return failure();
  spec.attrs = std::move(*attrs);
  return spec;
}

FailureOr<Value>(::tfaot::importDecodeJpeg)(NodeImportContext &ctx) {
  FailureOr<DecodeSpec> spec = decodeSpec(ctx);
  if (failed(spec))
    return failure();
  ArrayRef<int64_t> size = ctx.options ? ArrayRef<int64_t>(ctx.options->jpegSize)
                                       : ArrayRef<int64_t>();
  if (size.size() != 2)
    return ctx.error(
        "the decoded image's size is known only at run time, but code "
        "generation needs it: give it with --jpeg_size HxW (checked on every "
        "image), or decode a window of constant size with DecodeAndCropJpeg");
  return buildOpWithAttrs(ctx, "DecodeJpeg", ctx.operands[0],
                          spec->type(ctx, size[0], size[1]), spec->attrs);
}

FailureOr<Value>(::tfaot::importDecodeAndCropJpeg)(NodeImportContext &ctx) {
  FailureOr<DecodeSpec> spec = decodeSpec(ctx);
  if (failed(spec))
    return failure();
  auto window = ctx.typeOf(1);
  if (!window.getElementType().isInteger(32) ||
      window.getShape() != ArrayRef<int64_t>{4})
    return ctx.error("crop_window must be int32 [y, x, height, width], got " +
                     typeString(window));
  auto hw = constantCropSize(ctx.operands[1]);
  if (!hw)
    return ctx.error("the crop window's height and width must be constants "
                     "(its offset may be computed): the result's size must be "
                     "known when compiling");
  if ((*hw)[0] < 1 || (*hw)[1] < 1)
    return ctx.error(llvm::formatv("crop window size {0}x{1} is empty",
                                   (*hw)[0], (*hw)[1]));
  return buildOpWithAttrs(ctx, "DecodeJpeg", ctx.operands,
                          spec->type(ctx, (*hw)[0], (*hw)[1]), spec->attrs);
}
