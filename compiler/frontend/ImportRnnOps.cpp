//===- ImportRnnOps.cpp - Fused LSTM and GRU cells, decomposed ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// TF's fused RNN ops (tf.contrib.rnn's LSTMBlockCell, LSTMBlockFusedCell and
// GRUBlockCell; Keras' BlockLSTMV2) decomposed at import into ops tfaot
// already lowers (MatMul, BiasAdd, Slice, Sigmoid, Tanh, Mul, AddV2, and
// Minimum/Maximum for cell_clip), so they need no kernel of their own:
//   - LSTMBlockCell and GRUBlockCell are one step;
//   - BlockLSTM and BlockLSTMV2 run that step over time in a tfaot.While
//     (a real loop whatever the length), each of the seven outputs a
//     [time, batch, cell] tensor carried through the loop and written one
//     row per step with ListSetItem (in place once bufferized). The loop
//     runs min(seq_len_max, time) steps; the rows after it stay zero (TF's
//     kernel zeroes cs and h there and leaves the others unset).
// The gate layout is TF's: LSTMBlockCell and BlockLSTM take the gates of
// `x_h * w + b` in the order i, ci, f, o (as LSTMCell's i, j, f, o),
// BlockLSTMV2 in Keras' order i, f, ci, o with no forget_bias.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;

namespace {
/// The attributes and weights of an LSTM step.
struct LstmParams {
  Value w, wci, wcf, wco, b;
  double forgetBias = 1.0;
  double cellClip = -1;  ///< <= 0: no clipping
  bool peephole = false;
  bool ifcoLayout = false;  ///< BlockLSTMV2: gates i, f, ci, o
};

/// One LSTM step's seven outputs, in TF's output order.
struct LstmStep {
  Value i, cs, f, o, ci, co, h;
  SmallVector<Value> all() const { return {i, cs, f, o, ci, co, h}; }
};
} // namespace

static RankedTensorType matrixType(Value like, int64_t rows, int64_t cols) {
  return RankedTensorType::get(
      {rows, cols}, cast<RankedTensorType>(like.getType()).getElementType());
}

/// Columns [k * width, (k + 1) * width) of the matrix `m`.
static Value columnBlock(NodeImportContext &ctx, Value m, int64_t k,
                         int64_t width) {
  int64_t rows = cast<RankedTensorType>(m.getType()).getDimSize(0);
  return buildOpWithAttrs(
      ctx, "Slice",
      {m, buildI64Const(ctx, {0, k * width}, {2}),
       buildI64Const(ctx, {rows, width}, {2})},
      matrixType(m, rows, width), {});
}

static Value unary(NodeImportContext &ctx, llvm::StringRef op, Value x) {
  return buildOpWithAttrs(ctx, op, {x}, x.getType(), {});
}

/// A binary op of two values of one type, or of a value and a scalar (the
/// result has the value's type).
static Value binary(NodeImportContext &ctx, llvm::StringRef op, Value x,
                    Value y) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto yType = cast<RankedTensorType>(y.getType());
  return buildOpWithAttrs(ctx, op, {x, y},
                          xType.getRank() >= yType.getRank() ? xType : yType,
                          {});
}

static Value scalarLike(NodeImportContext &ctx, Value like, double value) {
  return buildScalar(
      ctx, cast<RankedTensorType>(like.getType()).getElementType(), value);
}

/// [x, h] * w + b: the gates' pre-activations, [batch, gates * cell].
static Value gatesOf(NodeImportContext &ctx, Value x, Value h, Value w,
                     Value b) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto hType = cast<RankedTensorType>(h.getType());
  int64_t batch = xType.getDimSize(0);
  Value xh = buildOpWithAttrs(
      ctx, "ConcatV2", {x, h, buildI64Const(ctx, {1}, {})},
      matrixType(x, batch, xType.getDimSize(1) + hType.getDimSize(1)), {});
  int64_t width = cast<RankedTensorType>(w.getType()).getDimSize(1);
  Value product = buildOpWithAttrs(ctx, "MatMul", {xh, w},
                                   matrixType(x, batch, width), {});
  return buildOpWithAttrs(ctx, "BiasAdd", {product, b}, product.getType(), {});
}

/// One LSTMBlockCell step (TF's lstm_ops.h):
///   i = sigmoid(i + cs_prev * wci), f = sigmoid(f + forget_bias + cs_prev *
///   wcf), ci = tanh(ci), cs = clip(ci * i + cs_prev * f, cell_clip),
///   o = sigmoid(o + cs * wco), co = tanh(cs), h = co * o
/// (peephole terms only with use_peephole).
static LstmStep buildLstmStep(NodeImportContext &ctx, const LstmParams &p,
                              Value x, Value csPrev, Value hPrev) {
  int64_t cell = cast<RankedTensorType>(hPrev.getType()).getDimSize(1);
  Value gates = gatesOf(ctx, x, hPrev, p.w, p.b);
  int64_t iAt = 0, ciAt = p.ifcoLayout ? 2 : 1, fAt = p.ifcoLayout ? 1 : 2,
          oAt = 3;
  LstmStep s;
  Value i = columnBlock(ctx, gates, iAt, cell);
  if (p.peephole)
    i = binary(ctx, "AddV2", i, binary(ctx, "Mul", csPrev, p.wci));
  s.i = unary(ctx, "Sigmoid", i);
  Value f = columnBlock(ctx, gates, fAt, cell);
  if (p.forgetBias != 0)
    f = binary(ctx, "AddV2", f, scalarLike(ctx, f, p.forgetBias));
  if (p.peephole)
    f = binary(ctx, "AddV2", f, binary(ctx, "Mul", csPrev, p.wcf));
  s.f = unary(ctx, "Sigmoid", f);
  s.ci = unary(ctx, "Tanh", columnBlock(ctx, gates, ciAt, cell));
  Value cs = binary(ctx, "AddV2", binary(ctx, "Mul", s.ci, s.i),
                    binary(ctx, "Mul", csPrev, s.f));
  if (p.cellClip > 0) {
    cs = binary(ctx, "Minimum", cs, scalarLike(ctx, cs, p.cellClip));
    cs = binary(ctx, "Maximum", cs, scalarLike(ctx, cs, -p.cellClip));
  }
  s.cs = cs;
  Value o = columnBlock(ctx, gates, oAt, cell);
  if (p.peephole)
    o = binary(ctx, "AddV2", o, binary(ctx, "Mul", cs, p.wco));
  s.o = unary(ctx, "Sigmoid", o);
  s.co = unary(ctx, "Tanh", cs);
  s.h = binary(ctx, "Mul", s.co, s.o);
  return s;
}

static std::string shapeText(Value v) { return typeString(v.getType()); }

/// Checks an LSTM's operands (x [batch, input], cs and h [batch, cell],
/// w [input + cell, 4 cell], wci/wcf/wco [cell], b [4 cell]; all float32)
/// and reads its attributes. `first` is the operand index of x.
static FailureOr<LstmParams> lstmParams(NodeImportContext &ctx, unsigned first,
                                        bool v2) {
  auto x = ctx.typeOf(first), cs = ctx.typeOf(first + 1),
       h = ctx.typeOf(first + 2);
  int64_t batch = x.getDimSize(x.getRank() - 2);
  int64_t input = x.getDimSize(x.getRank() - 1);
  int64_t cell = h.getRank() == 2 ? h.getDimSize(1) : -1;
  for (unsigned k = first; k < first + 8; ++k)
    if (!ctx.typeOf(k).getElementType().isF32())
      return ctx.error("input " + std::to_string(k) + " is " +
                       typeString(ctx.typeOf(k)) +
                       "; tfaot decomposes these LSTMs in float32 only");
  auto is = [&](unsigned k, ArrayRef<int64_t> shape) {
    return ctx.typeOf(k).getShape() == shape;
  };
  if (h.getRank() != 2 || !is(first + 1, {batch, cell}) ||
      !is(first + 2, {batch, cell}) ||
      !is(first + 3, {input + cell, 4 * cell}) || !is(first + 4, {cell}) ||
      !is(first + 5, {cell}) || !is(first + 6, {cell}) ||
      !is(first + 7, {4 * cell}))
    return ctx.error(llvm::formatv(
        "needs x [batch, input], cs_prev and h_prev [batch, cell], w [input + "
        "cell, 4 * cell], wci, wcf, wco [cell] and b [4 * cell]; got x {0}, "
        "cs_prev {1}, h_prev {2}, w {3}, b {4}",
        typeString(x), typeString(cs), typeString(h),
        typeString(ctx.typeOf(first + 3)), typeString(ctx.typeOf(first + 7))));
  LstmParams p;
  p.w = ctx.operands[first + 3];
  p.wci = ctx.operands[first + 4];
  p.wcf = ctx.operands[first + 5];
  p.wco = ctx.operands[first + 6];
  p.b = ctx.operands[first + 7];
  p.ifcoLayout = v2;
  const tensorflow::AttrValue *bias = ctx.attr("forget_bias");
  p.forgetBias = v2 ? 0.0 : (bias ? bias->f() : 1.0);
  const tensorflow::AttrValue *clip = ctx.attr("cell_clip");
  p.cellClip = clip ? clip->f() : (v2 ? 0.0 : 3.0);
  const tensorflow::AttrValue *peephole = ctx.attr("use_peephole");
  p.peephole = peephole && peephole->b();
  return p;
}

static Value setOutputs(NodeImportContext &ctx, ArrayRef<Value> outputs) {
  ctx.extraOutputs.assign(outputs.begin() + 1, outputs.end());
  return outputs.front();
}

/// LSTMBlockCell(x, cs_prev, h_prev, w, wci, wcf, wco, b) -> i, cs, f, o,
/// ci, co, h.
FailureOr<Value>(::tfaot::importLstmBlockCell)(NodeImportContext &ctx) {
  if (ctx.typeOf(0).getRank() != 2)
    return ctx.error("x must be [batch, input], got " +
                     shapeText(ctx.operands[0]));
  FailureOr<LstmParams> p = lstmParams(ctx, 0, false);
  if (failed(p))
    return failure();
  return setOutputs(ctx, buildLstmStep(ctx, *p, ctx.operands[0],
                                       ctx.operands[1], ctx.operands[2])
                             .all());
}

/// BlockLSTM / BlockLSTMV2 (seq_len_max, x, cs_prev, h_prev, w, wci, wcf,
/// wco, b) -> i, cs, f, o, ci, co, h, each [time, batch, cell]: a While over
/// the time steps (see the file comment).
FailureOr<Value>(::tfaot::importBlockLstm)(NodeImportContext &ctx) {
  bool v2 = ctx.node.op() == "BlockLSTMV2";
  auto lenType = ctx.typeOf(0);
  if (lenType.getRank() != 0 || !lenType.getElementType().isInteger(64))
    return ctx.error("seq_len_max must be an int64 scalar, got " +
                     typeString(lenType));
  if (ctx.typeOf(1).getRank() != 3)
    return ctx.error("x must be [time, batch, input], got " +
                     shapeText(ctx.operands[1]));
  FailureOr<LstmParams> params = lstmParams(ctx, 1, v2);
  if (failed(params))
    return failure();
  Value x = ctx.operands[1];
  auto xType = ctx.typeOf(1);
  int64_t time = xType.getDimSize(0), batch = xType.getDimSize(1);
  int64_t cell = ctx.typeOf(3).getDimSize(1);
  Type f32 = xType.getElementType();
  auto seqType = RankedTensorType::get({time, batch, cell}, f32);

  // Loop variables: t, cs, h, the seven outputs; then the invariants x, the
  // weights and the step count min(seq_len_max, time).
  enum : unsigned {
    kTime, kCs, kH, kFirstOutput,
    kX = kFirstOutput + 7, kW, kWci, kWcf, kWco, kB, kSteps
  };
  Value steps = binary(ctx, "Minimum", ctx.operands[0],
                       buildI64Const(ctx, {time}, {}));
  Value zeros = buildConst(ctx, DenseElementsAttr::get(seqType, 0.0f));
  SmallVector<Value> vars{buildI64Const(ctx, {0}, {}), ctx.operands[2],
                          ctx.operands[3]};
  vars.append(7, zeros);
  vars.append({x, params->w, params->wci, params->wcf, params->wco,
               params->b, steps});
  SmallVector<Type> types(ValueRange(vars).getTypes());
  auto newBlock = [&]() {
    auto *block = new Block();
    for (Type type : types)
      block->addArgument(type, ctx.loc);
    return block;
  };
  Block *cond = newBlock(), *body = newBlock();
  {
    OpBuilder::InsertionGuard guard(ctx.builder);
    ctx.builder.setInsertionPointToEnd(cond);
    Value more = buildOpWithAttrs(
        ctx, "Less", {cond->getArgument(kTime), cond->getArgument(kSteps)},
        RankedTensorType::get({}, ctx.builder.getI1Type()), {});
    mlir::tfaot::YieldOp::create(ctx.builder, ctx.loc, ValueRange{more});

    ctx.builder.setInsertionPointToEnd(body);
    auto arg = [&](unsigned k) { return body->getArgument(k); };
    LstmParams p = *params;
    p.w = arg(kW);
    p.wci = arg(kWci);
    p.wcf = arg(kWcf);
    p.wco = arg(kWco);
    p.b = arg(kB);
    Value t = arg(kTime);
    Value xt = buildOpWithAttrs(
        ctx, "GatherV2", {arg(kX), t, buildI64Const(ctx, {0}, {})},
        matrixType(x, batch, xType.getDimSize(2)), {});
    LstmStep step = buildLstmStep(ctx, p, xt, arg(kCs), arg(kH));
    SmallVector<Value> next{binary(ctx, "AddV2", t,
                                   buildI64Const(ctx, {1}, {})),
                            step.cs, step.h};
    for (auto [k, value] : llvm::enumerate(step.all()))
      next.push_back(buildOpWithAttrs(ctx, "ListSetItem",
                                      {arg(kFirstOutput + k), t, value},
                                      seqType, {}));
    for (unsigned k = kX; k < vars.size(); ++k)
      next.push_back(arg(k));
    mlir::tfaot::YieldOp::create(ctx.builder, ctx.loc, next);
  }
  auto loop = mlir::tfaot::WhileOp::create(ctx.builder, ctx.loc, types, vars);
  loop.getCond().push_back(cond);
  loop.getBody().push_back(body);
  return setOutputs(
      ctx, SmallVector<Value>(loop.getResults().slice(kFirstOutput, 7)));
}

/// GRUBlockCell(x, h_prev, w_ru, w_c, b_ru, b_c) -> r, u, c, h:
///   r, u = sigmoid([x, h_prev] * w_ru + b_ru);
///   c = tanh([x, r * h_prev] * w_c + b_c); h = u * h_prev + (1 - u) * c.
FailureOr<Value>(::tfaot::importGruBlockCell)(NodeImportContext &ctx) {
  auto x = ctx.typeOf(0), h = ctx.typeOf(1);
  for (unsigned k = 0; k < 6; ++k)
    if (!ctx.typeOf(k).getElementType().isF32())
      return ctx.error("input " + std::to_string(k) + " is " +
                       typeString(ctx.typeOf(k)) +
                       "; tfaot decomposes GRUBlockCell in float32 only");
  int64_t batch = x.getRank() == 2 ? x.getDimSize(0) : -1;
  int64_t input = x.getRank() == 2 ? x.getDimSize(1) : -1;
  int64_t cell = h.getRank() == 2 ? h.getDimSize(1) : -1;
  auto is = [&](unsigned k, ArrayRef<int64_t> shape) {
    return ctx.typeOf(k).getShape() == shape;
  };
  if (batch < 0 || cell < 0 || !is(1, {batch, cell}) ||
      !is(2, {input + cell, 2 * cell}) || !is(3, {input + cell, cell}) ||
      !is(4, {2 * cell}) || !is(5, {cell}))
    return ctx.error(llvm::formatv(
        "needs x [batch, input], h_prev [batch, cell], w_ru [input + cell, 2 "
        "* cell], w_c [input + cell, cell], b_ru [2 * cell] and b_c [cell]; "
        "got x {0}, h_prev {1}, w_ru {2}, w_c {3}",
        typeString(x), typeString(h), typeString(ctx.typeOf(2)),
        typeString(ctx.typeOf(3))));
  Value xv = ctx.operands[0], hPrev = ctx.operands[1];
  Value ru = unary(ctx, "Sigmoid",
                   gatesOf(ctx, xv, hPrev, ctx.operands[2], ctx.operands[4]));
  Value r = columnBlock(ctx, ru, 0, cell), u = columnBlock(ctx, ru, 1, cell);
  Value c = unary(ctx, "Tanh",
                  gatesOf(ctx, xv, binary(ctx, "Mul", r, hPrev),
                          ctx.operands[3], ctx.operands[5]));
  Value keep = binary(ctx, "Mul", u, hPrev);
  Value fresh = binary(ctx, "Mul",
                       binary(ctx, "Sub", scalarLike(ctx, u, 1.0), u), c);
  Value hNew = binary(ctx, "AddV2", keep, fresh);
  return setOutputs(ctx, {r, u, c, hNew});
}
