//===- LowerTopK.cpp - TopKV2 by radix selection --------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. TopKV2 per row, in time linear in the
// row whatever its order:
//   1. Radix selection finds the key of the k-th best element, T, and how
//      many elements equal to T belong to the k best. Each element has an
//      unsigned integer key that orders as TF orders values (floats: the
//      sign bit flipped, and all bits for negatives; -0 keyed as +0 so the
//      two tie; signed integers: the sign bit flipped). A histogram of the
//      key's top 16 bits picks the bin holding the k-th best; the next pass
//      counts the next 16 bits of the elements in that bin; 32-bit keys
//      take two passes, 64-bit keys four. Rows of fewer than 16384
//      elements, and 8-bit types, count 8 bits a pass instead: a 256-bin
//      histogram is cheaper to clear than their extra passes cost.
//   2. One more scan takes every element whose key beats T and, in index
//      order, the first elements equal to T: exactly k, the lowest indices
//      winning ties as in TF. They go into a heap ordered worst on top.
//   3. Taking the worst off the top k times fills the row's slots from the
//      last to the first: O(k log k).
// The heap it replaces kept the k best of the scan so far: O(n) on most
// rows but O(n log k) with a serial chain of loads per level when every
// element beats the worst kept one (an ascending row: 169-224 ms for 1.3
// million elements, bench/topk). The histogram passes have no such chain.
// NaN keys above +inf (so NaN ranks first, as torch.topk ranks it); TF
// leaves the order of NaN unspecified.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/Ops.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tfaot;

namespace {

/// The builders of one TopKV2 lowering: element keys, the heap of the
/// selected elements (values and i64 input positions), and small constants.
struct TopKBuilder {
  Type original;  // The op's element type: its signedness decides keys.
  Type element;   // Its signless form, the tensors' element type.
  unsigned width; // Bits of an element, and of its key.
  unsigned bits;  // Bits of the key each histogram pass counts.

  Value index(OpBuilder &b, Location l, int64_t v) const {
    return arith::ConstantIndexOp::create(b, l, v);
  }
  Value keyConst(OpBuilder &b, Location l, uint64_t v) const {
    Type type = b.getIntegerType(width);
    return arith::ConstantOp::create(
        b, l, b.getIntegerAttr(type, APInt(width, v, /*isSigned=*/false,
                                           /*implicitTrunc=*/true)));
  }

  /// The unsigned key of element x: keys compare as TF compares values.
  Value key(OpBuilder &b, Location l, Value x) const {
    Type keyType = b.getIntegerType(width);
    Value signBit = keyConst(b, l, uint64_t(1) << (width - 1));
    if (!isa<FloatType>(element))
      return isUnsignedInt(original)
                 ? x
                 : (Value)arith::XOrIOp::create(b, l, x, signBit);
    Value bits = arith::BitcastOp::create(b, l, keyType, x);
    // -0 and +0 are equal values: give both +0's bits, so they tie.
    Value isZero = arith::CmpFOp::create(
        b, l, arith::CmpFPredicate::OEQ, x,
        arith::ConstantOp::create(b, l, b.getZeroAttr(element)));
    bits = arith::SelectOp::create(b, l, isZero, keyConst(b, l, 0), bits);
    // All ones for a negative value, 0 otherwise.
    Value negative = arith::ShRSIOp::create(
        b, l, bits, keyConst(b, l, width - 1));
    return arith::XOrIOp::create(
        b, l, bits, arith::OrIOp::create(b, l, negative, signBit));
  }

  /// Element a (key ka, position ia) is worse than b: a smaller key, or
  /// the same key at a later position.
  Value worse(OpBuilder &b, Location l, Value ka, Value ia, Value kb,
              Value ib) const {
    Value less = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, ka, kb);
    Value same = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, ka, kb);
    Value later = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, ia, ib);
    return arith::OrIOp::create(b, l, less,
                                arith::AndIOp::create(b, l, same, later));
  }

  /// Whether heap slot p is worse than slot q.
  Value slotWorse(OpBuilder &b, Location l, Value hv, Value hi, Value p,
                  Value q) const {
    return worse(b, l, key(b, l, tensor::ExtractOp::create(b, l, hv, p)),
                 tensor::ExtractOp::create(b, l, hi, p),
                 key(b, l, tensor::ExtractOp::create(b, l, hv, q)),
                 tensor::ExtractOp::create(b, l, hi, q));
  }

  /// (hv, hi) with slots p and q exchanged.
  std::pair<Value, Value> swap(OpBuilder &b, Location l, Value hv, Value hi,
                               Value p, Value q) const {
    Value vp = tensor::ExtractOp::create(b, l, hv, p);
    Value ip = tensor::ExtractOp::create(b, l, hi, p);
    Value vq = tensor::ExtractOp::create(b, l, hv, q);
    Value iq = tensor::ExtractOp::create(b, l, hi, q);
    hv = tensor::InsertOp::create(b, l, vq, hv, p);
    hi = tensor::InsertOp::create(b, l, iq, hi, p);
    hv = tensor::InsertOp::create(b, l, vp, hv, q);
    hi = tensor::InsertOp::create(b, l, ip, hi, q);
    return {hv, hi};
  }

  /// Moves slot p up while it is worse than its parent.
  std::pair<Value, Value> siftUp(OpBuilder &b, Location l, Value hv, Value hi,
                                 Value p) const {
    auto loop = scf::WhileOp::create(
        b, l, TypeRange{p.getType(), hv.getType(), hi.getType()},
        ValueRange{p, hv, hi},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value q = args[0];
          Value up = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, q,
                                           index(b, l, 0));
          // At the root, read slot 0 against itself: never worse. (The
          // select, not the arithmetic, keeps the read in bounds: q - 1
          // wraps at q = 0, and LLVM may hoist the load above the branch.)
          Value parent = arith::DivUIOp::create(
              b, l, arith::SubIOp::create(b, l, q, index(b, l, 1)),
              index(b, l, 2));
          parent = arith::SelectOp::create(b, l, up, parent, index(b, l, 0));
          Value moves = arith::AndIOp::create(
              b, l, up, slotWorse(b, l, args[1], args[2], q, parent));
          scf::ConditionOp::create(b, l, moves, args);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value parent = arith::DivUIOp::create(
              b, l, arith::SubIOp::create(b, l, args[0], index(b, l, 1)),
              index(b, l, 2));
          auto [v, i] = swap(b, l, args[1], args[2], args[0], parent);
          scf::YieldOp::create(b, l, ValueRange{parent, v, i});
        });
    return {loop.getResult(1), loop.getResult(2)};
  }

  /// Moves slot 0 down among the first `size` slots while a child is worse
  /// than it. The loop carries the slot the entry moves to; its parent, the
  /// slot it leaves, is (slot - 1) / 2. (Before and after regions carry the
  /// same values, as bufferization in place needs.)
  std::pair<Value, Value> siftDown(OpBuilder &b, Location l, Value hv,
                                   Value hi, Value size) const {
    auto loop = scf::WhileOp::create(
        b, l, TypeRange{b.getIndexType(), hv.getType(), hi.getType()},
        ValueRange{index(b, l, 0), hv, hi},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value p = args[0], v = args[1], i = args[2];
          Value pick = p;
          for (int64_t c = 1; c <= 2; ++c) {
            Value child = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, p, index(b, l, 2)),
                index(b, l, c));
            Value inside =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, child,
                                      size);
            // Outside the heap, compare the pick with itself: not worse.
            Value read = arith::SelectOp::create(b, l, inside, child, pick);
            Value take = arith::AndIOp::create(
                b, l, inside, slotWorse(b, l, v, i, read, pick));
            pick = arith::SelectOp::create(b, l, take, child, pick);
          }
          Value moves =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, pick, p);
          scf::ConditionOp::create(b, l, moves, ValueRange{pick, v, i});
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value parent = arith::DivUIOp::create(
              b, l, arith::SubIOp::create(b, l, args[0], index(b, l, 1)),
              index(b, l, 2));
          auto [v, i] = swap(b, l, args[1], args[2], parent, args[0]);
          scf::YieldOp::create(b, l, ValueRange{args[0], v, i});
        });
    return {loop.getResult(1), loop.getResult(2)};
  }

  /// Radix selection on `row` of `input` ([rows, n]): the key T of the k-th
  /// best element and how many elements keyed T are among the k best (at
  /// least 1). `hist` is a scratch tensor of 2^bits i32 counters; returns
  /// it too, as the loops leave it.
  struct Threshold {
    Value key, equalCount, hist;
  };
  Threshold select(OpBuilder &b, Location l, Value input, Value row, int64_t n,
                   int64_t k, Value hist) const {
    const int64_t bins = int64_t(1) << bits;
    Type i32 = b.getI32Type();
    Value prefix = keyConst(b, l, 0);
    Value need = arith::ConstantIntOp::create(b, l, i32, k);
    for (unsigned pass = 0; pass < width / bits; ++pass) {
      const unsigned shift = width - bits * (pass + 1);
      Value zero = arith::ConstantIntOp::create(b, l, i32, 0);
      hist = linalg::FillOp::create(b, l, zero, hist).getResult(0);
      // Counts the keys whose higher bits are the prefix chosen so far, by
      // their next `bits` bits.
      auto count = scf::ForOp::create(
          b, l, index(b, l, 0), index(b, l, n), index(b, l, 1),
          ValueRange{hist},
          [&](OpBuilder &b, Location l, Value i, ValueRange h) {
            Value x = tensor::ExtractOp::create(b, l, input, ValueRange{row, i});
            Value kx = key(b, l, x);
            auto bump = [&](OpBuilder &b, Location l) -> Value {
              Value bin = arith::AndIOp::create(
                  b, l,
                  arith::ShRUIOp::create(b, l, kx, keyConst(b, l, shift)),
                  keyConst(b, l, bins - 1));
              bin = arith::IndexCastUIOp::create(b, l, b.getIndexType(), bin);
              Value c = tensor::ExtractOp::create(b, l, h[0], bin);
              c = arith::AddIOp::create(
                  b, l, c, arith::ConstantIntOp::create(b, l, i32, 1));
              return tensor::InsertOp::create(b, l, c, h[0], bin);
            };
            if (pass == 0) {
              scf::YieldOp::create(b, l, bump(b, l));
              return;
            }
            Value high = arith::ShRUIOp::create(b, l, kx,
                                                keyConst(b, l, shift + bits));
            Value match = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                high, prefix);
            auto counted = scf::IfOp::create(
                b, l, match,
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l, bump(b, l));
                },
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l, h[0]);
                });
            scf::YieldOp::create(b, l, counted.getResults());
          });
      hist = count.getResult(0);
      // From the top bin down, the first bin whose count reaches `need`
      // with the counts above it; `need` becomes what it still lacks.
      Value counts = hist;
      auto walk = scf::WhileOp::create(
          b, l, TypeRange{b.getIndexType(), i32},
          ValueRange{index(b, l, bins - 1), zero},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value c = tensor::ExtractOp::create(b, l, counts, args[0]);
            Value reach = arith::AddIOp::create(b, l, args[1], c);
            Value short_ = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::slt, reach, need);
            Value more = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ugt, args[0], index(b, l, 0));
            scf::ConditionOp::create(
                b, l, arith::AndIOp::create(b, l, short_, more), args);
          },
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value c = tensor::ExtractOp::create(b, l, counts, args[0]);
            scf::YieldOp::create(
                b, l,
                ValueRange{arith::SubIOp::create(b, l, args[0], index(b, l, 1)),
                           arith::AddIOp::create(b, l, args[1], c)});
          });
      Value bin = arith::IndexCastUIOp::create(b, l, b.getIntegerType(width),
                                               walk.getResult(0));
      // (A shift by the key's whole width would be poison: the first pass
      // has no prefix to shift.)
      prefix = pass == 0
                   ? bin
                   : (Value)arith::OrIOp::create(
                         b, l,
                         arith::ShLIOp::create(b, l, prefix,
                                               keyConst(b, l, bits)),
                         bin);
      need = arith::SubIOp::create(b, l, need, walk.getResult(1));
    }
    return {prefix, need, hist};
  }
};

struct TopKV2Lowering : TfaotPattern<TopKV2Op> {
  using TfaotPattern::TfaotPattern;

  LogicalResult
  matchAndRewrite(TopKV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto valuesType = toSignless(op.getValues().getType());
    auto indicesType = toSignless(op.getIndices().getType());
    Type element = inputType.getElementType();
    Type indexElement = indicesType.getElementType();
    int64_t n = inputType.getShape().back(), k = valuesType.getShape().back();
    unsigned width = element.getIntOrFloatBitWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return rewriter.notifyMatchFailure(op, "element width is not 8-64 bits");
    if (n > std::numeric_limits<int32_t>::max())
      return rewriter.notifyMatchFailure(op, "rows over 2^31 elements");
    // No element to select (k = 0, or rows of none): empty results.
    if (k == 0 || n == 0) {
      rewriter.replaceOp(
          op, ValueRange{tensor::EmptyOp::create(rewriter, loc,
                                                 valuesType.getShape(),
                                                 valuesType.getElementType()),
                         tensor::EmptyOp::create(rewriter, loc,
                                                 indicesType.getShape(),
                                                 indexElement)});
      return success();
    }
    int64_t rows = inputType.getNumElements() / n;
    Type i64 = rewriter.getI64Type();
    unsigned bits = width == 8 || n < 16384 ? 8 : 16;
    TopKBuilder topk{op.getInput().getType().getElementType(), element, width,
                     bits};
    auto c = [&](OpBuilder &b, Location l, int64_t v) {
      return topk.index(b, l, v);
    };

    // Rows of the input and outputs as 2-D tensors. The outputs, the heap's
    // values and positions and the histogram are each a buffer of their
    // own: as tensor.empty ops, two of the same type (the heap's values
    // and positions of an int64 TopKV2) would be merged by CSE into one
    // buffer that both loops write.
    Value input = buildStaticReshape(
        rewriter, loc, adaptor.getInput(),
        RankedTensorType::get({rows, n}, element));
    auto fresh = [&](ArrayRef<int64_t> shape, Type type) -> Value {
      return bufferization::AllocTensorOp::create(
          rewriter, loc, RankedTensorType::get(shape, type), ValueRange{});
    };
    Value outV = fresh({rows, k}, element);
    Value outI = fresh({rows, k}, indexElement);
    Value heapV = fresh({k}, element);
    Value heapI = fresh({k}, i64);
    Value hist = fresh({int64_t(1) << bits}, rewriter.getI32Type());

    auto rowLoop = scf::ForOp::create(
        rewriter, loc, c(rewriter, loc, 0), c(rewriter, loc, rows),
        c(rewriter, loc, 1), ValueRange{outV, outI, heapV, heapI, hist},
        [&](OpBuilder &b, Location l, Value row, ValueRange args) {
          // 1. The k-th best key and how many of its kind to take.
          TopKBuilder::Threshold t =
              topk.select(b, l, input, row, n, k, args[4]);
          // 2. The elements that beat it, and the first ones equal to it,
          //    into the heap.
          Value zero32 = arith::ConstantIntOp::create(b, l, b.getI32Type(), 0);
          auto take = scf::ForOp::create(
              b, l, c(b, l, 0), c(b, l, n), c(b, l, 1),
              ValueRange{args[2], args[3], c(b, l, 0), t.equalCount},
              [&](OpBuilder &b, Location l, Value i, ValueRange a) {
                Value x = tensor::ExtractOp::create(b, l, input,
                                                    ValueRange{row, i});
                Value kx = topk.key(b, l, x);
                Value beats = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ugt, kx, t.key);
                Value equal = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq, kx, t.key);
                Value equalTaken = arith::AndIOp::create(
                    b, l, equal,
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt,
                                          a[3], zero32));
                Value taken = arith::OrIOp::create(b, l, beats, equalTaken);
                auto insert = scf::IfOp::create(
                    b, l, taken,
                    [&](OpBuilder &b, Location l) {
                      Value at = a[2];
                      Value v = tensor::InsertOp::create(b, l, x, a[0], at);
                      Value p = tensor::InsertOp::create(
                          b, l, arith::IndexCastOp::create(b, l, i64, i), a[1],
                          at);
                      auto [sv, sp] = topk.siftUp(b, l, v, p, at);
                      Value left = arith::SubIOp::create(
                          b, l, a[3],
                          arith::ExtUIOp::create(b, l, b.getI32Type(),
                                                 equalTaken));
                      scf::YieldOp::create(
                          b, l,
                          ValueRange{sv, sp,
                                     arith::AddIOp::create(b, l, at,
                                                           c(b, l, 1)),
                                     left});
                    },
                    [&](OpBuilder &b, Location l) {
                      scf::YieldOp::create(b, l, a);
                    });
                scf::YieldOp::create(b, l, insert.getResults());
              });
          // 3. Taking the worst off the top k times fills the row's slots
          //    from the last to the first.
          auto drain = scf::ForOp::create(
              b, l, c(b, l, 0), c(b, l, k), c(b, l, 1),
              ValueRange{args[0], args[1], take.getResult(0),
                         take.getResult(1)},
              [&](OpBuilder &b, Location l, Value s, ValueRange a) {
                Value zero = c(b, l, 0);
                Value slot = arith::SubIOp::create(b, l, c(b, l, k - 1), s);
                Value v = tensor::ExtractOp::create(b, l, a[2], zero);
                Value p = tensor::ExtractOp::create(b, l, a[3], zero);
                Value ov = tensor::InsertOp::create(b, l, v, a[0],
                                                    ValueRange{row, slot});
                Value at = indexElement.isInteger(64)
                               ? p
                               : (Value)arith::TruncIOp::create(
                                     b, l, indexElement, p);
                Value oi = tensor::InsertOp::create(b, l, at, a[1],
                                                    ValueRange{row, slot});
                // The last of the remaining `slot` entries moves to the top.
                Value lastV = tensor::ExtractOp::create(b, l, a[2], slot);
                Value lastP = tensor::ExtractOp::create(b, l, a[3], slot);
                Value hv = tensor::InsertOp::create(b, l, lastV, a[2], zero);
                Value hp = tensor::InsertOp::create(b, l, lastP, a[3], zero);
                auto [sv, sp] = topk.siftDown(b, l, hv, hp, slot);
                scf::YieldOp::create(b, l, ValueRange{ov, oi, sv, sp});
              });
          scf::YieldOp::create(b, l,
                               ValueRange{drain.getResult(0),
                                          drain.getResult(1),
                                          drain.getResult(2),
                                          drain.getResult(3), t.hist});
        });
    Value values = buildStaticReshape(rewriter, loc, rowLoop.getResult(0),
                                      valuesType);
    Value indices = buildStaticReshape(rewriter, loc, rowLoop.getResult(1),
                                       indicesType);
    rewriter.replaceOp(op, ValueRange{values, indices});
    return success();
  }
};

} // namespace

void mlir::tfaot::populateTopKLoweringPatterns(RewritePatternSet &patterns,
                                               const TypeConverter &converter) {
  patterns.add<TopKV2Lowering>(converter, patterns.getContext());
}
