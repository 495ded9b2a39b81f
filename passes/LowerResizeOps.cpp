//===- LowerResizeOps.cpp - ResizeBilinear/NearestNeighbor to linalg ------===//
//
// Part of --tfaot-lower-to-linalg. Shapes are static, so the source rows and
// columns (and bilinear weights) of every output row and column are computed
// here, following TF's kernels exactly (align_corners, half_pixel_centers,
// clamping), and stored as small constant tables. The op itself becomes one
// linalg.generic over the output that reads its inputs with tensor.extract.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

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

Value indexTable(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getIndexType());
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(64, v));
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, ints));
}

Value floatTable(OpBuilder &b, Location loc, ArrayRef<float> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getF32Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
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
          Value top = at(rowLower, y), bottom = at(rowUpper, y);
          Value left = at(colLower, x), right = at(colUpper, x);
          Value xl = at(colLerp, x), yl = at(rowLerp, y);
          auto lerp = [&](Value a, Value z, Value t) -> Value {
            Value diff = arith::SubFOp::create(b, l, z, a);
            Value scaled = arith::MulFOp::create(b, l, diff, t);
            return arith::AddFOp::create(b, l, a, scaled);
          };
          auto read = [&](Value row, Value col) {
            return toF32(b, l, original, pixel(row, col));
          };
          Value topRow = lerp(read(top, left), read(top, right), xl);
          Value bottomRow = lerp(read(bottom, left), read(bottom, right), xl);
          return lerp(topRow, bottomRow, yl);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tfaot::populateResizeLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<ResizeLowering<ResizeBilinearOp, true>,
               ResizeLowering<ResizeNearestNeighborOp, false>>(
      converter, patterns.getContext());
}
