//===- ImportMathOps.cpp - Batch norm, random numbers, Einsum -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of FusedBatchNorm (V1-V3, inference only), RandomUniform and
// Einsum. Einsum has no tfaot op: the equations it supports are matrix
// products, so it is rewritten here into Transpose, Reshape and
// BatchMatMulV2, which already lower well.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TensorConversion.h"
#include "ir/Ops.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace ::tfaot;

//===----------------------------------------------------------------------===//
// FusedBatchNorm, FusedBatchNormV2, FusedBatchNormV3
//===----------------------------------------------------------------------===//

FailureOr<Value>(::tfaot::importFusedBatchNorm)(NodeImportContext &ctx) {
  // TF's default for is_training is true, so a node without the attribute is
  // a training node too.
  const tensorflow::AttrValue *training = ctx.attr("is_training");
  if (!training || training->b())
    return ctx.error("is_training is true: batch statistics are computed only "
                     "in training, and tfaot compiles inference graphs (export "
                     "the model with is_training=false)");
  std::string format = stringAttr(ctx, "data_format", "NHWC");
  if (format != "NHWC" && format != "NCHW")
    return ctx.error("data_format must be NHWC or NCHW, got " + format);
  const tensorflow::AttrValue *epsilon = ctx.attr("epsilon");
  return buildBatchNorm(ctx, ctx.operands[0], ctx.operands.drop_front(), format,
                        epsilon ? epsilon->f() : 1e-4f);
}

FailureOr<Value>(::tfaot::buildBatchNorm)(NodeImportContext &ctx, Value input,
                                          ValueRange params,
                                          llvm::StringRef format,
                                          float epsilon) {
  auto x = cast<RankedTensorType>(input.getType());
  if (x.getRank() != 4)
    return ctx.error("x must have rank 4, got " + typeString(x));
  int64_t channels = x.getDimSize(format == "NCHW" ? 1 : 3);
  static const char *names[] = {"scale", "offset", "mean", "variance"};
  for (unsigned i = 0; i < 4; ++i) {
    auto type = cast<RankedTensorType>(params[i].getType());
    if (type.getElementType() != x.getElementType())
      return ctx.error(llvm::formatv("{0} is {1} but x is {2}; mixed "
                                     "precision batch norm is not supported",
                                     names[i], typeString(type),
                                     typeString(x)));
    if (type.getRank() != 1 || type.getDimSize(0) != channels)
      return ctx.error(llvm::formatv("{0} must have shape [{1}] (the channels "
                                     "of x in {2}), got {3}",
                                     names[i], channels, format,
                                     typeString(type)));
  }
  SmallVector<Value> operands = {input};
  operands.append(params.begin(), params.begin() + 4);
  Builder &b = ctx.builder;
  return buildOpWithAttrs(
      ctx, "FusedBatchNorm", operands, x,
      {b.getNamedAttr("epsilon", b.getF32FloatAttr(epsilon)),
       b.getNamedAttr("data_format", b.getStringAttr(format)),
       b.getNamedAttr("is_training", b.getBoolAttr(false))});
}

//===----------------------------------------------------------------------===//
// RandomUniform
//===----------------------------------------------------------------------===//

FailureOr<Value>(::tfaot::importRandomUniform)(NodeImportContext &ctx) {
  auto shape = constantInts(ctx, 0, "the shape");
  if (failed(shape))
    return failure();
  for (int64_t d : *shape)
    if (d < 0)
      return ctx.error("the shape must not have negative dimensions");
  const tensorflow::AttrValue *dtype = ctx.attr("dtype");
  Type element = dtype ? convertDataType(dtype->type(), ctx.builder.getContext())
                       : Type();
  if (!element || !isa<FloatType>(element))
    return ctx.error("dtype must be a floating-point type, got " +
                     dataTypeName(dtype ? dtype->type()
                                        : tensorflow::DT_INVALID));
  const tensorflow::AttrValue *seedAttr = ctx.attr("seed");
  const tensorflow::AttrValue *seed2Attr = ctx.attr("seed2");
  int64_t seed = seedAttr ? seedAttr->i() : 0;
  int64_t seed2 = seed2Attr ? seed2Attr->i() : 0;
  // Unseeded (TF would draw a fresh seed): use one fixed per node, so two
  // dropout masks of the same shape in one graph still differ.
  if (seed == 0 && seed2 == 0)
    seed2 = int64_t(llvm::xxh3_64bits(ctx.node.name()) >> 1);
  Builder &b = ctx.builder;
  return buildOpWithAttrs(ctx, "RandomUniform", ctx.operands,
                          RankedTensorType::get(*shape, element),
                          {b.getNamedAttr("seed", b.getI64IntegerAttr(seed)),
                           b.getNamedAttr("seed2", b.getI64IntegerAttr(seed2))});
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

namespace {

/// One operand's subscripts, with "..." expanded into one label per
/// dimension it covers (labels '0'..'9', which einsum equations cannot use).
struct Subscripts {
  std::string labels;
  bool hasEllipsis = false;
};

} // namespace

/// Parses one term ("b...ij") for an operand of `rank` (or the output, rank
/// -1: the ellipsis then has `ellipsisRank` dimensions).
static FailureOr<Subscripts> parseTerm(StringRef term, int64_t rank,
                                       int64_t ellipsisRank,
                                       std::string &why) {
  Subscripts s;
  size_t dots = term.find("...");
  std::string before = term.substr(0, dots).str();
  std::string after =
      dots == StringRef::npos ? "" : term.substr(dots + 3).str();
  for (char c : before + after)
    if (!llvm::isAlpha(c)) {
      why = "subscript '" + std::string(1, c) + "' is not a letter";
      return failure();
    }
  if (dots == StringRef::npos) {
    s.labels = before;
  } else {
    s.hasEllipsis = true;
    int64_t covered = rank >= 0 ? rank - int64_t(before.size() + after.size())
                                : ellipsisRank;
    if (covered < 0 || covered > 10) {
      why = "the ellipsis cannot cover " + std::to_string(covered) +
            " dimensions";
      return failure();
    }
    s.labels = before;
    for (int64_t i = 0; i < covered; ++i)
      s.labels.push_back(char('0' + i));
    s.labels += after;
  }
  if (rank >= 0 && int64_t(s.labels.size()) != rank) {
    why = "term '" + term.str() + "' has " + std::to_string(s.labels.size()) +
          " subscripts for an operand of rank " + std::to_string(rank);
    return failure();
  }
  for (size_t i = 0; i < s.labels.size(); ++i)
    if (s.labels.find(s.labels[i], i + 1) != std::string::npos) {
      why = "subscript '" + std::string(1, s.labels[i]) +
            "' repeats within one term (diagonals are not supported)";
      return failure();
    }
  return s;
}

/// Transposes `value` (whose dimensions carry `labels`) so they read
/// `order`, unless they already do.
static Value permuteTo(NodeImportContext &ctx, Value value, StringRef labels,
                       StringRef order) {
  if (labels == order)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> perm, shape;
  for (char c : order) {
    perm.push_back(labels.find(c));
    shape.push_back(type.getDimSize(perm.back()));
  }
  Value permConst = buildI64Const(ctx, perm, {int64_t(perm.size())});
  return buildOpWithAttrs(ctx, "Transpose", {value, permConst},
                          RankedTensorType::get(shape, type.getElementType()),
                          {});
}

static Value reshapeIfNeeded(NodeImportContext &ctx, Value value,
                             ArrayRef<int64_t> shape) {
  if (cast<RankedTensorType>(value.getType()).getShape() == shape)
    return value;
  return buildReshape(ctx, value, shape);
}

/// Einsum with two operands whose labels each fall into one of four roles:
/// batch (both operands and the output), contracted (both operands only),
/// and free (one operand and the output). That is a batched matrix product
/// after transposing each operand to [batch, free, contracted] /
/// [batch, contracted, free] and merging each role into one dimension.
FailureOr<Value>(::tfaot::importEinsum)(NodeImportContext &ctx) {
  const tensorflow::AttrValue *eqAttr = ctx.attr("equation");
  std::string equation = eqAttr ? eqAttr->s() : "";
  llvm::erase_if(equation, [](char c) { return llvm::isSpace(c); });
  auto unsupported = [&](const Twine &why) {
    return ctx.error("equation '" + equation + "' is not supported: " + why +
                     "; tfaot handles two-operand equations that are (batched) "
                     "matrix products, such as 'bij,bjk->bik'");
  };
  if (ctx.operands.size() != 2)
    return unsupported(llvm::formatv("it has {0} operand(s)",
                                     ctx.operands.size()));
  StringRef eq(equation);
  size_t arrow = eq.find("->");
  if (arrow == StringRef::npos)
    return unsupported("it has no explicit output ('->')");
  auto [lhsTerm, rhsTerm] = eq.substr(0, arrow).split(',');
  StringRef outTerm = eq.substr(arrow + 2);
  auto a = ctx.typeOf(0), b = ctx.typeOf(1);
  if (a.getElementType() != b.getElementType())
    return unsupported("the operands differ in element type");
  std::string why;
  auto lhs = parseTerm(lhsTerm, a.getRank(), 0, why);
  if (failed(lhs))
    return unsupported(why);
  auto rhs = parseTerm(rhsTerm, b.getRank(), 0, why);
  if (failed(rhs))
    return unsupported(why);
  int64_t ellA = a.getRank() - int64_t(lhsTerm.size()) +
                 (lhs->hasEllipsis ? 3 : 0);
  int64_t ellB = b.getRank() - int64_t(rhsTerm.size()) +
                 (rhs->hasEllipsis ? 3 : 0);
  if (lhs->hasEllipsis && rhs->hasEllipsis && ellA != ellB)
    return unsupported("the ellipses cover different numbers of dimensions "
                       "(broadcasting is not supported)");
  auto out = parseTerm(outTerm, -1,
                       lhs->hasEllipsis ? ellA : (rhs->hasEllipsis ? ellB : 0),
                       why);
  if (failed(out))
    return unsupported(why);
  if (out->hasEllipsis != (lhs->hasEllipsis || rhs->hasEllipsis))
    return unsupported("the ellipsis must appear in the output exactly when "
                       "it appears in an input");

  auto sizeOf = [&](char c) -> int64_t {
    size_t i = lhs->labels.find(c);
    if (i != std::string::npos)
      return a.getDimSize(i);
    return b.getDimSize(rhs->labels.find(c));
  };
  std::string batch, contracted, freeA, freeB;
  for (char c : out->labels) {
    bool inA = lhs->labels.find(c) != std::string::npos;
    bool inB = rhs->labels.find(c) != std::string::npos;
    if (inA && inB)
      batch.push_back(c);
    else if (inA)
      freeA.push_back(c);
    else if (inB)
      freeB.push_back(c);
    else
      return unsupported("output subscript '" + std::string(1, c) +
                         "' appears in no input");
  }
  for (char c : lhs->labels) {
    bool inB = rhs->labels.find(c) != std::string::npos;
    bool inOut = out->labels.find(c) != std::string::npos;
    if (!inOut && !inB)
      return unsupported("subscript '" + std::string(1, c) +
                         "' is summed within one operand");
    if (!inOut)
      contracted.push_back(c);
  }
  for (char c : rhs->labels)
    if (lhs->labels.find(c) == std::string::npos &&
        out->labels.find(c) == std::string::npos)
      return unsupported("subscript '" + std::string(1, c) +
                         "' is summed within one operand");
  for (char c : batch + contracted) {
    int64_t da = a.getDimSize(lhs->labels.find(c));
    int64_t db = b.getDimSize(rhs->labels.find(c));
    if (da != db)
      return unsupported(llvm::formatv("subscript '{0}' has size {1} in the "
                                       "first operand and {2} in the second",
                                       c, da, db)
                             .str());
  }

  auto product = [&](StringRef labels) {
    int64_t n = 1;
    for (char c : labels)
      n *= sizeOf(c);
    return n;
  };
  SmallVector<int64_t> batchShape;
  for (char c : batch)
    batchShape.push_back(sizeOf(c));
  int64_t m = product(freeA), n = product(freeB), k = product(contracted);

  // [batch..., M, K] x [batch..., K, N] -> [batch..., M, N]
  Value x = permuteTo(ctx, ctx.operands[0], lhs->labels,
                      batch + freeA + contracted);
  SmallVector<int64_t> xShape(batchShape);
  xShape.append({m, k});
  x = reshapeIfNeeded(ctx, x, xShape);
  Value y = permuteTo(ctx, ctx.operands[1], rhs->labels,
                      batch + contracted + freeB);
  SmallVector<int64_t> yShape(batchShape);
  yShape.append({k, n});
  y = reshapeIfNeeded(ctx, y, yShape);
  SmallVector<int64_t> productShape(batchShape);
  productShape.append({m, n});
  Value result = buildOpWithAttrs(
      ctx, "BatchMatMulV2", {x, y},
      RankedTensorType::get(productShape, a.getElementType()), {});
  // Split M and N back into their labels, then order them as the output.
  SmallVector<int64_t> splitShape(batchShape);
  for (char c : freeA + freeB)
    splitShape.push_back(sizeOf(c));
  result = reshapeIfNeeded(ctx, result, splitShape);
  return permuteTo(ctx, result, batch + freeA + freeB, out->labels);
}
