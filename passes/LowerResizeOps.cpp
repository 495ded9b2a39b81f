//===- LowerResizeOps.cpp - ResizeBilinear/NearestNeighbor to linalg ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. Shapes are static, so the source rows and
// columns (and bilinear weights) of every output row and column are computed
// here, following TF's kernels exactly (align_corners, half_pixel_centers,
// clamping), and stored as small constant tables. The op itself becomes one
// linalg.generic over the output that reads its inputs with tensor.extract.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "passes/ConstantUtils.h"

#include "ir/Ops.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// Source positions for one output axis.
struct AxisTable {
  SmallVector<int64_t> lower, upper;
  SmallVector<float> lerp;
};

/// TF's scale between input and output sizes.
float resizeScale(int64_t in, int64_t out, bool alignCorners) {
  return alignCorners && out > 1 ? float(in - 1) / float(out - 1)
                                 : float(in) / float(out);
}

/// As TF's compute_interpolation_weights (resize_bilinear_op.cc).
AxisTable bilinearTable(int64_t in, int64_t out, bool alignCorners,
                        bool halfPixel) {
  AxisTable t;
  float scale = resizeScale(in, out, alignCorners);
  for (int64_t i = 0; i < out; ++i) {
    float source = halfPixel ? (float(i) + 0.5f) * scale - 0.5f
                             : float(i) * scale;
    float floor = std::floor(source);
    t.lower.push_back(std::max<int64_t>(int64_t(floor), 0));
    t.upper.push_back(std::min<int64_t>(int64_t(std::ceil(source)), in - 1));
    t.lerp.push_back(source - floor);
  }
  return t;
}

/// As TF's resize_nearest_neighbor_op.cc.
AxisTable nearestTable(int64_t in, int64_t out, bool alignCorners,
                       bool halfPixel) {
  AxisTable t;
  float scale = resizeScale(in, out, alignCorners);
  for (int64_t i = 0; i < out; ++i) {
    float source = halfPixel ? (float(i) + 0.5f) * scale : float(i) * scale;
    int64_t index = std::min<int64_t>(
        alignCorners ? int64_t(std::round(source)) : int64_t(std::floor(source)),
        in - 1);
    if (halfPixel)
      index = std::max<int64_t>(index, 0);
    t.lower.push_back(index);
  }
  return t;
}

/// The type of a constant table of `count` elements of `element`:
/// one-dimensional unless `shape` is given.
RankedTensorType tableType(Type element, size_t count,
                           ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims(shape);
  if (dims.empty())
    dims.push_back(int64_t(count));
  return RankedTensorType::get(dims, element);
}

Value indexTable(OpBuilder &b, Location loc, ArrayRef<int64_t> values,
                 ArrayRef<int64_t> shape = {}) {
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(64, v));
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          tableType(b.getIndexType(), values.size(), shape), ints));
}

Value floatTable(OpBuilder &b, Location loc, ArrayRef<float> values,
                 ArrayRef<int64_t> shape = {}) {
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(tableType(b.getF32Type(), values.size(), shape),
                             values));
}

/// Converts a pixel to f32 for bilinear interpolation.
Value toF32(OpBuilder &b, Location loc, Type original, Value v) {
  Type f32 = b.getF32Type();
  if (v.getType() == f32)
    return v;
  if (isa<FloatType>(v.getType()))
    return arith::ExtFOp::create(b, loc, f32, v);
  return isUnsignedInt(original) ? (Value)arith::UIToFPOp::create(b, loc, f32, v)
                                 : (Value)arith::SIToFPOp::create(b, loc, f32, v);
}

/// TF's bilinear interpolation of the four pixels `read(row, col)` gives:
/// along the row first, then between the two rows, each as a + (z - a) * t.
template <typename ReadFn>
Value interpolate(OpBuilder &b, Location l, ReadFn read, Value top,
                  Value bottom, Value left, Value right, Value xLerp,
                  Value yLerp) {
  auto lerp = [&](Value a, Value z, Value t) -> Value {
    Value diff = arith::SubFOp::create(b, l, z, a);
    Value scaled = arith::MulFOp::create(b, l, diff, t);
    return arith::AddFOp::create(b, l, a, scaled);
  };
  Value topRow = lerp(read(top, left), read(top, right), xLerp);
  Value bottomRow = lerp(read(bottom, left), read(bottom, right), xLerp);
  return lerp(topRow, bottomRow, yLerp);
}

template <typename OpTy, bool Bilinear>
struct ResizeLowering : TfaotPattern<OpTy> {
  using TfaotPattern<OpTy>::TfaotPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getImages().getType();
    Type original = inputType.getElementType();
    RankedTensorType type = this->resultType(op);
    // Dimension positions: NHWC (TF's) or NCHW (set by the layout pass).
    bool nchw = op.getDataFormat() == "NCHW";
    int64_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
    int64_t inH = inputType.getDimSize(hDim), inW = inputType.getDimSize(wDim);
    int64_t outH = type.getDimSize(hDim), outW = type.getDimSize(wDim);
    bool align = op.getAlignCorners(), half = op.getHalfPixelCenters();
    auto tableOf = Bilinear ? bilinearTable : nearestTable;
    AxisTable rows = tableOf(inH, outH, align, half);
    AxisTable cols = tableOf(inW, outW, align, half);
    Value rowLower = indexTable(rewriter, loc, rows.lower);
    Value colLower = indexTable(rewriter, loc, cols.lower);
    Value rowUpper, colUpper, rowLerp, colLerp;
    if (Bilinear) {
      rowUpper = indexTable(rewriter, loc, rows.upper);
      colUpper = indexTable(rewriter, loc, cols.upper);
      rowLerp = floatTable(rewriter, loc, rows.lerp);
      colLerp = floatTable(rewriter, loc, cols.lerp);
    }
    Value images = adaptor.getImages();
    Value result = buildElementwise(
        rewriter, loc, type, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          Value n = linalg::IndexOp::create(b, l, 0);
          Value y = linalg::IndexOp::create(b, l, hDim);
          Value x = linalg::IndexOp::create(b, l, wDim);
          Value c = linalg::IndexOp::create(b, l, cDim);
          auto at = [&](Value table, Value i) -> Value {
            return tensor::ExtractOp::create(b, l, table, ValueRange{i});
          };
          auto pixel = [&](Value row, Value col) -> Value {
            SmallVector<Value, 4> at = {n, row, col, c};
            if (nchw)
              at = {n, c, row, col};
            return tensor::ExtractOp::create(b, l, images, at);
          };
          if (!Bilinear)
            return pixel(at(rowLower, y), at(colLower, x));
          auto read = [&](Value row, Value col) {
            return toF32(b, l, original, pixel(row, col));
          };
          // Named first: argument evaluation order is unspecified, and the
          // IR should not depend on the host compiler.
          Value top = at(rowLower, y), bottom = at(rowUpper, y);
          Value left = at(colLower, x), right = at(colUpper, x);
          Value xl = at(colLerp, x), yl = at(rowLerp, y);
          return interpolate(b, l, read, top, bottom, left, right, xl, yl);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Where the crops of CropAndResize sample one axis: for each box and
/// output position, the two neighbouring source positions, the weight
/// between them (bilinear) or the nearest one, and whether the position is
/// inside the image at all (1; 0 takes the extrapolation value). As TF's
/// crop_and_resize_op.cc, in float, in its order of operations.
struct CropTable {
  SmallVector<int64_t> lower, upper, valid;
  SmallVector<float> lerp;
};

void addCropAxis(CropTable &t, float from, float to, int64_t in, int64_t out,
                 bool bilinear) {
  const float scale =
      out > 1 ? (to - from) * float(in - 1) / float(out - 1) : 0.0f;
  for (int64_t i = 0; i < out; ++i) {
    const float source = out > 1 ? from * float(in - 1) + float(i) * scale
                                 : 0.5f * (from + to) * float(in - 1);
    const bool inside = source >= 0.0f && source <= float(in - 1);
    int64_t lower = 0, upper = 0;
    float lerp = 0.0f;
    if (inside && bilinear) {
      lower = int64_t(std::floor(source));
      upper = int64_t(std::ceil(source));
      lerp = source - float(lower);
    } else if (inside) {
      lower = upper = int64_t(std::round(source));
    }
    t.lower.push_back(lower);
    t.upper.push_back(upper);
    t.lerp.push_back(lerp);
    t.valid.push_back(inside ? 1 : 0);
  }
}

struct CropAndResizeLowering : TfaotPattern<CropAndResizeOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(CropAndResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DenseElementsAttr boxes = denseConstant(op.getBoxes());
    auto boxInd = getConstantIntValues(op.getBoxInd());
    if (!boxes || !boxInd)
      return rewriter.notifyMatchFailure(op, "boxes are not constants");
    Location loc = op.getLoc();
    auto inputType = op.getImage().getType();
    Type original = inputType.getElementType();
    RankedTensorType type = resultType(op);
    const int64_t numBoxes = type.getDimSize(0), cropH = type.getDimSize(1),
                  cropW = type.getDimSize(2);
    const int64_t inH = inputType.getDimSize(1), inW = inputType.getDimSize(2);
    const bool bilinear = op.getMethod() == "bilinear";
    SmallVector<float> coords(boxes.getValues<float>());
    CropTable rows, cols;
    for (int64_t b = 0; b < numBoxes; ++b) {
      const float *box = &coords[4 * b];  // y1, x1, y2, x2
      addCropAxis(rows, box[0], box[2], inH, cropH, bilinear);
      addCropAxis(cols, box[1], box[3], inW, cropW, bilinear);
    }
    SmallVector<int64_t> rowShape{numBoxes, cropH}, colShape{numBoxes, cropW};
    Value rowLower = indexTable(rewriter, loc, rows.lower, rowShape);
    Value rowUpper = indexTable(rewriter, loc, rows.upper, rowShape);
    Value rowValid = indexTable(rewriter, loc, rows.valid, rowShape);
    Value rowLerp = floatTable(rewriter, loc, rows.lerp, rowShape);
    Value colLower = indexTable(rewriter, loc, cols.lower, colShape);
    Value colUpper = indexTable(rewriter, loc, cols.upper, colShape);
    Value colValid = indexTable(rewriter, loc, cols.valid, colShape);
    Value colLerp = floatTable(rewriter, loc, cols.lerp, colShape);
    Value imageOf = indexTable(rewriter, loc, *boxInd);
    Value images = adaptor.getImage();
    const float extrapolation = op.getExtrapolationValue().convertToFloat();
    Value result = buildElementwise(
        rewriter, loc, type, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          Value box = linalg::IndexOp::create(b, l, 0);
          Value y = linalg::IndexOp::create(b, l, 1);
          Value x = linalg::IndexOp::create(b, l, 2);
          Value c = linalg::IndexOp::create(b, l, 3);
          auto at = [&](Value table, Value i) -> Value {
            return tensor::ExtractOp::create(b, l, table, ValueRange{box, i});
          };
          Value n = tensor::ExtractOp::create(b, l, imageOf, ValueRange{box});
          auto read = [&](Value row, Value col) {
            Value v = tensor::ExtractOp::create(b, l, images,
                                                ValueRange{n, row, col, c});
            return toF32(b, l, original, v);
          };
          Value top = at(rowLower, y), left = at(colLower, x);
          Value value;
          if (bilinear) {
            Value bottom = at(rowUpper, y), right = at(colUpper, x);
            Value xl = at(colLerp, x), yl = at(rowLerp, y);
            value = interpolate(b, l, read, top, bottom, left, right, xl, yl);
          } else {
            value = read(top, left);
          }
          // Positions outside the image read pixel (0, 0) above, harmlessly;
          // the extrapolation value replaces what they read.
          Value inside = arith::MulIOp::create(b, l, at(rowValid, y),
                                               at(colValid, x));
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value isInside = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::ne, inside, zero);
          Value outside = arith::ConstantOp::create(
              b, l, b.getF32FloatAttr(extrapolation));
          return arith::SelectOp::create(b, l, isInside, value, outside);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tfaot::populateResizeLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<ResizeLowering<ResizeBilinearOp, true>,
               ResizeLowering<ResizeNearestNeighborOp, false>,
               CropAndResizeLowering>(
      converter, patterns.getContext());
}
