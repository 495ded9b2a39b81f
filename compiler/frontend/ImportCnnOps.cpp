//===- ImportCnnOps.cpp - Convolutions, pools, matmuls, fused ops ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the contractions and window ops: MatMul, Conv2D,
// DepthwiseConv2dNative, MaxPool, AvgPool, Conv2DBackpropInput (as a
// convolution of the dilated gradient), and TF's fused ops (_FusedConv2D,
// FusedDepthwiseConv2dNative, _FusedMatMul), which are expanded into
// their parts (convolution, BiasAdd or batch norm, activation), every
// part located at the fused node; the graph passes fuse them again for
// code generation. buildConvolution, buildPool and buildMatMul are shared
// with the quantized importers (ImportQuantizedOps.cpp).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "ir/Ops.h"

using namespace mlir;
using namespace ::tfaot;

FailureOr<Value>(::tfaot::buildMatMul)(NodeImportContext &ctx, Value a,
                                       Value b) {
  auto boolAttr = [&](const char *name) {
    const tensorflow::AttrValue *v = ctx.attr(name);
    return v && v->b();
  };
  auto ta = cast<RankedTensorType>(a.getType());
  auto tb = cast<RankedTensorType>(b.getType());
  if (ta.getRank() != 2 || tb.getRank() != 2)
    return ctx.error("inputs must be matrices (rank 2), got " +
                     typeString(ta) + " and " + typeString(tb));
  int64_t m = ta.getDimSize(boolAttr("transpose_a") ? 1 : 0);
  int64_t n = tb.getDimSize(boolAttr("transpose_b") ? 0 : 1);
  return buildOp(ctx, "MatMul", {a, b},
                 RankedTensorType::get({m, n}, ta.getElementType()));
}

FailureOr<Value>(::tfaot::importMatMul)(NodeImportContext &ctx) {
  return buildMatMul(ctx, ctx.operands[0], ctx.operands[1]);
}

static SmallVector<int64_t> listAttr(NodeImportContext &ctx, const char *name,
                                     SmallVector<int64_t> fallback) {
  const tensorflow::AttrValue *v = ctx.attr(name);
  if (!v || v->list().i_size() == 0)
    return fallback;
  return SmallVector<int64_t>(v->list().i().begin(), v->list().i().end());
}

FailureOr<Type>(::tfaot::windowType)(NodeImportContext &ctx, Value input,
                                     int64_t windowH, int64_t windowW,
                                     int64_t outChannels) {
  auto type = cast<RankedTensorType>(input.getType());
  std::string why;
  auto window = mlir::tfaot::computeWindow2D(
      type.getShape(), stringAttr(ctx, "data_format", "NHWC"), windowH,
      windowW, listAttr(ctx, "strides", {}),
      listAttr(ctx, "dilations", {1, 1, 1, 1}),
      stringAttr(ctx, "padding", ""), listAttr(ctx, "explicit_paddings", {}),
      outChannels, why);
  if (failed(window)) {
    (void)ctx.error(why);
    return failure();
  }
  return Type(RankedTensorType::get(window->outputShape, type.getElementType()));
}

FailureOr<Value>(::tfaot::buildConvolution)(NodeImportContext &ctx,
                                            StringRef opName, Value input,
                                            Value filter) {
  auto filterType = cast<RankedTensorType>(filter.getType());
  if (filterType.getRank() != 4)
    return ctx.error("filter must have rank 4, got " + typeString(filterType));
  bool depthwise = opName == "DepthwiseConv2dNative";
  int64_t outChannels = depthwise
                            ? filterType.getDimSize(2) * filterType.getDimSize(3)
                            : filterType.getDimSize(3);
  FailureOr<Type> type = windowType(ctx, input, filterType.getDimSize(0),
                                    filterType.getDimSize(1), outChannels);
  if (failed(type))
    return failure();
  return buildOp(ctx, opName, {input, filter}, *type);
}

FailureOr<Value>(::tfaot::importConvolution)(NodeImportContext &ctx) {
  return buildConvolution(ctx, ctx.node.op(), ctx.operands[0],
                          ctx.operands[1]);
}

FailureOr<Value>(::tfaot::buildPool)(NodeImportContext &ctx, StringRef opName,
                                     Value input) {
  auto ksize = listAttr(ctx, "ksize", {});
  std::string format = stringAttr(ctx, "data_format", "NHWC");
  if (ksize.size() != 4)
    return ctx.error("ksize must have 4 elements");
  int64_t h = format == "NCHW" ? 2 : 1;
  auto inputType = cast<RankedTensorType>(input.getType());
  FailureOr<Type> type = windowType(
      ctx, input, ksize[h], ksize[h + 1],
      inputType.getRank() == 4
          ? inputType.getDimSize(format == "NCHW" ? 1 : 3)
          : 0);
  if (failed(type))
    return failure();
  return buildOp(ctx, opName, {input}, *type);
}

FailureOr<Value>(::tfaot::importPool)(NodeImportContext &ctx) {
  return buildPool(ctx, ctx.node.op(), ctx.operands[0]);
}

/// Conv2DBackpropInput (a transposed convolution), as a stride-1 VALID
/// convolution of the zero-dilated, padded gradient with the spatially
/// flipped filter whose channel dimensions are swapped. The dilation is a
/// reshape + pad (each pixel followed by stride-1 zeros) + slice.
FailureOr<Value>(::tfaot::importConv2DBackpropInput)(NodeImportContext &ctx) {
  auto sizes = constantInts(ctx, 0, "input_sizes");
  if (failed(sizes))
    return failure();
  DenseElementsAttr filter = constantElements(ctx.operands[1]);
  if (!filter || !filter.getElementType().isF32())
    return ctx.error("the filter must be a float32 constant");
  if (stringAttr(ctx, "data_format", "NHWC") != "NHWC")
    return ctx.error("only NHWC is supported");
  std::string padding = stringAttr(ctx, "padding", "");
  if (padding != "SAME" && padding != "VALID")
    return ctx.error("padding must be SAME or VALID, got \"" + padding + "\"");
  auto strides = listAttr(ctx, "strides", {1, 1, 1, 1});
  auto dilations = listAttr(ctx, "dilations", {1, 1, 1, 1});
  if (strides.size() != 4 || llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return ctx.error("needs 4 strides and no dilation");
  auto x = ctx.typeOf(2);
  auto filterType = cast<RankedTensorType>(filter.getType());
  if (sizes->size() != 4 || x.getRank() != 4 || filterType.getRank() != 4)
    return ctx.error("needs rank-4 input_sizes, filter and out_backprop");
  int64_t kh = filterType.getDimSize(0), kw = filterType.getDimSize(1);
  int64_t cOut = filterType.getDimSize(2), cIn = filterType.getDimSize(3);
  if (cIn != x.getDimSize(3) || (*sizes)[3] != cOut)
    return ctx.error("filter channels do not match out_backprop and "
                     "input_sizes");
  int64_t n = x.getDimSize(0), ih = x.getDimSize(1), iw = x.getDimSize(2);
  int64_t oh = (*sizes)[1], ow = (*sizes)[2], sh = strides[1], sw = strides[2];
  Type f32 = ctx.builder.getF32Type();

  // 1. Dilate: [N, ih, 1, iw, 1, C] padded to [N, ih, sh, iw, sw, C],
  //    reshaped to [N, ih*sh, iw*sw, C], trailing zeros sliced off.
  Value value = ctx.operands[2];
  if (sh > 1 || sw > 1) {
    value = buildReshape(ctx, value, {n, ih, 1, iw, 1, cIn});
    Value pads = buildI64Const(ctx, {0, 0, 0, 0, 0, sh - 1, 0, 0, 0, sw - 1, 0, 0},
                               {6, 2});
    value = buildOp(ctx, "Pad", {value, pads, buildScalar(ctx, f32, 0)},
                    RankedTensorType::get({n, ih, sh, iw, sw, cIn}, f32));
    value = buildReshape(ctx, value, {n, ih * sh, iw * sw, cIn});
    int64_t dh = (ih - 1) * sh + 1, dw = (iw - 1) * sw + 1;
    Value begin = buildI64Const(ctx, {0, 0, 0, 0}, {4});
    Value end = buildI64Const(ctx, {n, dh, dw, cIn}, {4});
    Value step = buildI64Const(ctx, {1, 1, 1, 1}, {4});
    value = buildOpWithAttrs(ctx, "StridedSlice", {value, begin, end, step},
                             RankedTensorType::get({n, dh, dw, cIn}, f32), {});
  }
  // 2. Pad so that a VALID kernel-sized window yields the forward input
  //    size: k - 1 - (forward padding before) in front, the rest behind.
  auto sidePads = [&](int64_t in, int64_t out, int64_t k, int64_t s,
                      int64_t &before, int64_t &after) {
    int64_t forward = 0;
    if (padding == "SAME")
      forward = std::max<int64_t>((in - 1) * s + k - out, 0) / 2;
    before = k - 1 - forward;
    after = out + k - 1 - ((in - 1) * s + 1) - before;
  };
  int64_t top, bottom, left, right;
  sidePads(ih, oh, kh, sh, top, bottom);
  sidePads(iw, ow, kw, sw, left, right);
  if (top < 0 || bottom < 0 || left < 0 || right < 0)
    return ctx.error("input_sizes are inconsistent with the gradient's shape");
  int64_t ph = (ih - 1) * sh + 1 + top + bottom;
  int64_t pw = (iw - 1) * sw + 1 + left + right;
  Value pads = buildI64Const(ctx, {0, 0, top, bottom, left, right, 0, 0}, {4, 2});
  value = buildOp(ctx, "Pad", {value, pads, buildScalar(ctx, f32, 0)},
                  RankedTensorType::get({n, ph, pw, cIn}, f32));
  // 3. The flipped, channel-swapped filter, computed now.
  SmallVector<float> original(filter.getValues<float>());
  SmallVector<float> flipped(original.size());
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j)
      for (int64_t a = 0; a < cIn; ++a)
        for (int64_t b = 0; b < cOut; ++b)
          flipped[((i * kw + j) * cIn + a) * cOut + b] =
              original[(((kh - 1 - i) * kw + (kw - 1 - j)) * cOut + b) * cIn + a];
  Value kernel = buildConst(
      ctx, DenseElementsAttr::get(RankedTensorType::get({kh, kw, cIn, cOut}, f32),
                                  ArrayRef<float>(flipped)));
  Builder &b = ctx.builder;
  return buildOpWithAttrs(
      ctx, "Conv2D", {value, kernel},
      RankedTensorType::get({n, oh, ow, cOut}, f32),
      {b.getNamedAttr("strides", b.getI64ArrayAttr({1, 1, 1, 1})),
       b.getNamedAttr("padding", b.getStringAttr("VALID"))});
}

//===----------------------------------------------------------------------===//
// TF's fused ops, expanded
//===----------------------------------------------------------------------===//

/// Applies `fused_ops` after the contraction result `value`, consuming the
/// node's extra inputs (`args`) in order.
static FailureOr<Value> applyFusedOps(NodeImportContext &ctx, Value value,
                                      ArrayRef<Value> args) {
  const tensorflow::AttrValue *fused = ctx.attr("fused_ops");
  if (!fused)
    return value;
  size_t nextArg = 0;
  auto takeArg = [&](StringRef what) -> FailureOr<Value> {
    if (nextArg >= args.size()) {
      (void)ctx.error("fused op " + what + " has no input left (num_args is " +
                      llvm::Twine(args.size()) + ")");
      return failure();
    }
    return args[nextArg++];
  };
  for (const std::string &op : fused->list().s()) {
    if (op == "BiasAdd") {
      FailureOr<Value> bias = takeArg(op);
      if (failed(bias))
        return failure();
      value = buildOp(ctx, "BiasAdd", {value, *bias}, value.getType());
    } else if (op == "Add") {
      FailureOr<Value> other = takeArg(op);
      if (failed(other))
        return failure();
      FailureOr<Value> sum = buildBinary(ctx, "AddV2", value, *other);
      if (failed(sum))
        return failure();
      value = *sum;
    } else if (op == "Relu" || op == "Relu6" || op == "Elu" ||
               op == "Sigmoid" || op == "Tanh") {
      value = buildOp(ctx, op, {value}, value.getType());
    } else if (op == "LeakyRelu") {
      const tensorflow::AttrValue *alpha = ctx.attr("leakyrelu_alpha");
      std::string name = "tfaot.LeakyRelu";
      OperationState state(ctx.loc, name);
      state.addOperands(value);
      state.addTypes(value.getType());
      state.addAttribute("alpha",
                         ctx.builder.getF32FloatAttr(alpha ? alpha->f() : 0.2f));
      value = ctx.builder.create(state)->getResult(0);
    } else if (op == "Prelu") {
      FailureOr<Value> alpha = takeArg(op);
      if (failed(alpha))
        return failure();
      value = buildOp(ctx, "Prelu", {value, *alpha}, value.getType());
    } else if (op == "FusedBatchNorm") {
      // The standalone op's semantics (inference, either data format), on
      // the contraction's result; the node's data_format and epsilon apply.
      SmallVector<Value> params;
      for (const char *name : {"scale", "offset", "mean", "variance"}) {
        FailureOr<Value> p = takeArg(name);
        if (failed(p))
          return failure();
        params.push_back(*p);
      }
      const tensorflow::AttrValue *eps = ctx.attr("epsilon");
      FailureOr<Value> normalized =
          buildBatchNorm(ctx, value, params, stringAttr(ctx, "data_format", "NHWC"),
                         eps ? eps->f() : 1e-4f);
      if (failed(normalized))
        return failure();
      value = *normalized;
    } else {
      return ctx.error("fused op '" + op + "' is not supported");
    }
  }
  return value;
}

/// _FusedConv2D, FusedDepthwiseConv2dNative: (input, filter, args...).
FailureOr<Value>(::tfaot::importFusedConvolution)(NodeImportContext &ctx) {
  StringRef base = ctx.node.op() == "_FusedConv2D" ? "Conv2D"
                                                    : "DepthwiseConv2dNative";
  FailureOr<Value> conv =
      buildConvolution(ctx, base, ctx.operands[0], ctx.operands[1]);
  if (failed(conv))
    return failure();
  return applyFusedOps(ctx, *conv, ctx.operands.drop_front(2));
}

/// _FusedMatMul: (a, b, args...).
FailureOr<Value>(::tfaot::importFusedMatMul)(NodeImportContext &ctx) {
  FailureOr<Value> product =
      buildMatMul(ctx, ctx.operands[0], ctx.operands[1]);
  if (failed(product))
    return failure();
  return applyFusedOps(ctx, *product, ctx.operands.drop_front(2));
}
