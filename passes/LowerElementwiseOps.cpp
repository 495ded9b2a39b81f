//===- LowerElementwiseOps.cpp - Comparisons, Select, floor division ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg: the elementwise ops beyond arithmetic and
// activations. Each becomes a broadcasting linalg.generic whose body follows
// TF's definition (FloorDiv/FloorMod round toward -inf, Round to even,
// Softplus computed without overflow).
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tfaot;

/// A comparison of `x` and `y`, whose original element type is `type`.
static Value compare(OpBuilder &b, Location l, Type type, Value x, Value y,
                     arith::CmpFPredicate f, arith::CmpIPredicate s,
                     arith::CmpIPredicate u) {
  if (isa<FloatType>(type))
    return arith::CmpFOp::create(b, l, f, x, y);
  return arith::CmpIOp::create(b, l, isUnsignedInt(type) ? u : s, x, y);
}

template <typename OpTy>
static void addCompare(RewritePatternSet &patterns,
                       const TypeConverter &converter) {
  using namespace arith;
  patterns.add<ElementwiseLowering<OpTy>>(
      converter, patterns.getContext(),
      [](OpBuilder &b, Location l, OpTy, Type t, ValueRange a) -> Value {
        if constexpr (std::is_same_v<OpTy, GreaterOp>)
          return compare(b, l, t, a[0], a[1], CmpFPredicate::OGT,
                         CmpIPredicate::sgt, CmpIPredicate::ugt);
        else if constexpr (std::is_same_v<OpTy, GreaterEqualOp>)
          return compare(b, l, t, a[0], a[1], CmpFPredicate::OGE,
                         CmpIPredicate::sge, CmpIPredicate::uge);
        else if constexpr (std::is_same_v<OpTy, LessOp>)
          return compare(b, l, t, a[0], a[1], CmpFPredicate::OLT,
                         CmpIPredicate::slt, CmpIPredicate::ult);
        else if constexpr (std::is_same_v<OpTy, LessEqualOp>)
          return compare(b, l, t, a[0], a[1], CmpFPredicate::OLE,
                         CmpIPredicate::sle, CmpIPredicate::ule);
        else if constexpr (std::is_same_v<OpTy, EqualOp>)
          return compare(b, l, t, a[0], a[1], CmpFPredicate::OEQ,
                         CmpIPredicate::eq, CmpIPredicate::eq);
        else // NotEqual is true for NaN, as in TF.
          return compare(b, l, t, a[0], a[1], CmpFPredicate::UNE,
                         CmpIPredicate::ne, CmpIPredicate::ne);
      });
}

void mlir::tfaot::populateElementwiseLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  MLIRContext *ctx = patterns.getContext();
  addCompare<GreaterOp>(patterns, converter);
  addCompare<GreaterEqualOp>(patterns, converter);
  addCompare<LessOp>(patterns, converter);
  addCompare<LessEqualOp>(patterns, converter);
  addCompare<EqualOp>(patterns, converter);
  addCompare<NotEqualOp>(patterns, converter);

  patterns.add<ElementwiseLowering<LogicalAndOp>>(
      converter, ctx, [](OpBuilder &b, Location l, LogicalAndOp, Type, ValueRange a) {
        return (Value)arith::AndIOp::create(b, l, a[0], a[1]);
      });
  patterns.add<ElementwiseLowering<LogicalOrOp>>(
      converter, ctx, [](OpBuilder &b, Location l, LogicalOrOp, Type, ValueRange a) {
        return (Value)arith::OrIOp::create(b, l, a[0], a[1]);
      });
  patterns.add<ElementwiseLowering<LogicalNotOp>>(
      converter, ctx, [](OpBuilder &b, Location l, LogicalNotOp, Type t, ValueRange a) {
        Value one = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
        return (Value)arith::XOrIOp::create(b, l, a[0], one);
      });
  patterns.add<ElementwiseLowering<SelectV2Op>>(
      converter, ctx, [](OpBuilder &b, Location l, SelectV2Op, Type, ValueRange a) {
        return (Value)arith::SelectOp::create(b, l, a[0], a[1], a[2]);
      });

  patterns.add<ElementwiseLowering<FloorDivOp>>(
      converter, ctx, [](OpBuilder &b, Location l, FloorDivOp, Type t, ValueRange a) {
        if (isa<FloatType>(t)) {
          Value q = arith::DivFOp::create(b, l, a[0], a[1]);
          return (Value)math::FloorOp::create(b, l, q);
        }
        if (isUnsignedInt(t))
          return (Value)arith::DivUIOp::create(b, l, a[0], a[1]);
        return (Value)arith::FloorDivSIOp::create(b, l, a[0], a[1]);
      });
  patterns.add<ElementwiseLowering<FloorModOp>>(
      converter, ctx, [](OpBuilder &b, Location l, FloorModOp, Type t, ValueRange a) {
        // r = x rem y, moved into y's sign range when they disagree.
        if (isUnsignedInt(t))
          return (Value)arith::RemUIOp::create(b, l, a[0], a[1]);
        bool isFloat = isa<FloatType>(t);
        Value r = isFloat ? (Value)arith::RemFOp::create(b, l, a[0], a[1])
                          : (Value)arith::RemSIOp::create(b, l, a[0], a[1]);
        Value zero = scalarConstant(b, l, toSignless(t), 0);
        auto lt = [&](Value v) {
          return compare(b, l, t, v, zero, arith::CmpFPredicate::OLT,
                         arith::CmpIPredicate::slt, arith::CmpIPredicate::ult);
        };
        Value nonzero = compare(b, l, t, r, zero, arith::CmpFPredicate::UNE,
                                arith::CmpIPredicate::ne, arith::CmpIPredicate::ne);
        Value signsDiffer = arith::XOrIOp::create(b, l, lt(r), lt(a[1]));
        Value fix = arith::AndIOp::create(b, l, nonzero, signsDiffer);
        Value adjusted = buildBinaryScalar(b, l, BinaryKind::Add, t, r, a[1]);
        return (Value)arith::SelectOp::create(b, l, fix, adjusted, r);
      });
  patterns.add<ElementwiseLowering<PowOp>>(
      converter, ctx, [](OpBuilder &b, Location l, PowOp, Type t, ValueRange a) {
        if (isa<FloatType>(t))
          return (Value)math::PowFOp::create(b, l, a[0], a[1]);
        return (Value)math::IPowIOp::create(b, l, a[0], a[1]);
      });
  patterns.add<ElementwiseLowering<SoftplusOp>>(
      converter, ctx, [](OpBuilder &b, Location l, SoftplusOp, Type t, ValueRange a) {
        // max(x, 0) + log1p(exp(-|x|)): no overflow for large |x|.
        Value zero = scalarConstant(b, l, t, 0);
        Value pos = arith::MaximumFOp::create(b, l, a[0], zero);
        Value abs = math::AbsFOp::create(b, l, a[0]);
        Value neg = arith::NegFOp::create(b, l, abs);
        Value e = math::ExpOp::create(b, l, neg);
        Value log = math::Log1pOp::create(b, l, e);
        return (Value)arith::AddFOp::create(b, l, pos, log);
      });
  patterns.add<ElementwiseLowering<SeluOp>>(
      converter, ctx, [](OpBuilder &b, Location l, SeluOp, Type t, ValueRange a) {
        // TF's constants: scale * (x > 0 ? x : alpha * (exp(x) - 1)).
        Value scale = scalarConstant(b, l, t, 1.0507009873554804934193349852946);
        Value alpha = scalarConstant(b, l, t, 1.6732632423543772848170429916717);
        Value zero = scalarConstant(b, l, t, 0);
        Value expm1 = math::ExpM1Op::create(b, l, a[0]);
        Value negative = arith::MulFOp::create(b, l, alpha, expm1);
        Value positive = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                               a[0], zero);
        Value picked = arith::SelectOp::create(b, l, positive, a[0], negative);
        return (Value)arith::MulFOp::create(b, l, scale, picked);
      });
  addUnaryMathLowering<ErfOp, math::ErfOp>(patterns, converter);
  addUnaryMathLowering<SinOp, math::SinOp>(patterns, converter);
  addUnaryMathLowering<CosOp, math::CosOp>(patterns, converter);
  patterns.add<ElementwiseLowering<Atan2Op>>(
      converter, ctx, [](OpBuilder &b, Location l, Atan2Op, Type, ValueRange a) {
        return (Value)math::Atan2Op::create(b, l, a[0], a[1]);
      });
  addUnaryMathLowering<RoundOp, math::RoundEvenOp>(patterns, converter);
}
