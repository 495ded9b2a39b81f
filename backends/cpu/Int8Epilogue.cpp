//===- Int8Epilogue.cpp - Elementwise code the int8 kernel can apply ------===//
// SPDX-License-Identifier: Apache-2.0
//
// The shapes matched here are what tfaot-lower-int8-contractions and
// tfaot-fuse-elementwise leave after bufferization: the product's
// buffer [m][n1][1][16] i32 is collapsed to [m][16 n1], sliced to the first
// n columns when n is not a multiple of 16, expanded back to the layer's
// shape (NHWC) and read by one generic. Anything else is left as it is,
// which is always correct, only slower.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Int8Epilogue.h"

#include "passes/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>

using namespace mlir;

namespace tfaot::cpu {
namespace {

/// The view chain from the product's buffer `out` ([m][n1][1][16]) to
/// `operand`, innermost first, and the columns it keeps; or failure when
/// `operand` is not those sums as an [..., n] array with m rows. (Other
/// users of the views are sumsReadOnlyBy's concern.)
FailureOr<int64_t> columnsThroughViews(Value operand, Value out,
                                       SmallVectorImpl<Operation *> &views) {
  auto outType = cast<MemRefType>(out.getType());
  if (outType.getRank() != 4)
    return failure();
  const int64_t m = outType.getDimSize(0);
  const int64_t width = outType.getDimSize(1) * outType.getDimSize(3);
  Value v = operand;
  SmallVector<Operation *> chain; // Outermost first.
  while (v != out) {
    Operation *def = v.getDefiningOp();
    if (!def ||
        !isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::SubViewOp>(
            def))
      return failure();
    chain.push_back(def);
    v = def->getOperand(0);
  }
  views.assign(chain.rbegin(), chain.rend());
  // [m][n1][1][16] -> [m][16 n1].
  auto collapse = views.empty()
                      ? nullptr
                      : dyn_cast<memref::CollapseShapeOp>(views.front());
  if (!collapse || collapse.getResultType().getRank() != 2)
    return failure();
  size_t next = 1;
  int64_t n = width;
  // The first n columns.
  if (next < views.size())
    if (auto slice = dyn_cast<memref::SubViewOp>(views[next])) {
      if (!slice.hasZeroOffset() || !slice.hasUnitStride() ||
          slice.getType().getRank() != 2 ||
          slice.getType().getDimSize(0) != m)
        return failure();
      n = slice.getType().getDimSize(1);
      ++next;
    }
  // The rows split into the layer's leading dimensions, columns kept.
  if (next < views.size())
    if (auto expand = dyn_cast<memref::ExpandShapeOp>(views[next])) {
      auto groups = expand.getReassociationIndices();
      if (groups.size() != 2 || groups.back().size() != 1)
        return failure();
      ++next;
    }
  auto type = cast<MemRefType>(operand.getType());
  if (next != views.size() || type.getShape().back() != n ||
      type.getNumElements() != m * n)
    return failure();
  return n;
}

std::optional<float> constantFloat(Value v) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getType().isF32())
    return std::nullopt;
  return static_cast<float>(attr.getValueAsDouble());
}

/// What an input of the generic is to the epilogue.
enum class InputKind {
  Sums,     ///< The product's sums (through views).
  Column,   ///< One float per column (scale, bias).
  Residual, ///< A float per element, like the result.
  Int8Residual, ///< An int8 per element, dequantized in the body.
};

/// Reads the generic's body as the fused kernel's epilogue.
class BodyReader {
public:
  BodyReader(linalg::GenericOp generic, unsigned accInput,
             ArrayRef<InputKind> inputs)
      : generic(generic), inputs(inputs) {
    cur = generic.getRegion().front().getArgument(accInput);
  }

  /// `floatSums`: the sums are float32 already (a float product's), so
  /// the body starts at the bias, with no conversion and no scale.
  bool read(Int8EpilogueMatch &match, bool floatSums) {
    const float inf = std::numeric_limits<float>::infinity();
    match.lo = -inf;
    match.hi = inf;
    if (!floatSums) {
      auto toFloat = dyn_cast_or_null<arith::SIToFPOp>(user());
      if (!toFloat || !toFloat.getType().isF32())
        return false;
      advance(toFloat);
      auto mul = dyn_cast_or_null<arith::MulFOp>(user());
      if (!mul || !(match.scale = operandOfKind(mul, InputKind::Column)))
        return false;
      advance(mul);
    }
    if (auto add = dyn_cast_or_null<arith::AddFOp>(user()))
      if ((match.bias = operandOfKind(add, InputKind::Column)))
        advance(add);
    if (auto add = dyn_cast_or_null<arith::AddFOp>(user())) {
      if ((match.residual = operandOfKind(add, InputKind::Residual)))
        advance(add);
      else if (readInt8Residual(otherOperand(add), match))
        advance(add);
    }
    if (!readClamp(match.lo, match.hi))
      return false;
    if (startsRequantization()) {
      if (!readRequantization(match))
        return false;
      match.int8Result = true;
    }
    return readYield();
  }

  /// Reads a body that only requantizes its float input (the generic that
  /// makes a float result the next layer's int8 input) into match's q
  /// fields.
  bool readRequantizationOnly(Int8EpilogueMatch &match) {
    return startsRequantization() && readRequantization(match) &&
           readYield();
  }

private:
  /// The requantization: y * qMul, or y alone where tfaot-fold-requantize
  /// folded qMul and qZp into the scale and bias and the int8 range into
  /// the clamp.
  bool startsRequantization() const {
    return isa_and_nonnull<arith::MulFOp, math::RoundEvenOp>(user());
  }
  bool readRequantization(Int8EpilogueMatch &match) {
    if (auto qMul = dyn_cast_or_null<arith::MulFOp>(user())) {
      std::optional<float> factor = constantOperand(qMul);
      if (!factor)
        return false;
      match.qMul = *factor;
      advance(qMul);
    }
    auto round = dyn_cast_or_null<math::RoundEvenOp>(user());
    if (!round)
      return false;
    advance(round);
    if (auto add = dyn_cast_or_null<arith::AddFOp>(user())) {
      std::optional<float> zp = constantOperand(add);
      if (!zp)
        return false;
      match.qZp = *zp;
      advance(add);
    }
    if (!readClamp(match.qLo, match.qHi))
      return false;
    auto toInt = dyn_cast_or_null<arith::FPToSIOp>(user());
    if (!toInt || !toInt.getType().isInteger(8))
      return false;
    advance(toInt);
    return true;
  }
  /// Whether `v` is an int8 residual dequantized with constants,
  /// (sitofp(q) - zp) * s, or sitofp(q) * s (a zero point of 0 folded
  /// away), each step used once; if so, records it in `match`.
  bool readInt8Residual(Value v, Int8EpilogueMatch &match) {
    auto mul = v.getDefiningOp<arith::MulFOp>();
    if (!mul || !v.hasOneUse())
      return false;
    Value x = mul.getLhs();
    std::optional<float> scale = constantFloat(mul.getRhs());
    if (!scale) {
      x = mul.getRhs();
      scale = constantFloat(mul.getLhs());
    }
    if (!scale)
      return false;
    float zp = 0;
    size_t ops = 2;
    if (auto sub = x.getDefiningOp<arith::SubFOp>()) {
      std::optional<float> c = constantFloat(sub.getRhs());
      if (!c || !x.hasOneUse())
        return false;
      zp = *c;
      x = sub.getLhs();
      ++ops;
    }
    auto toFloat = x.getDefiningOp<arith::SIToFPOp>();
    if (!toFloat || !x.hasOneUse() || !toFloat.getType().isF32())
      return false;
    auto arg = dyn_cast<BlockArgument>(toFloat.getIn());
    if (!arg || arg.getOwner() != &generic.getRegion().front() ||
        arg.getArgNumber() >= inputs.size() ||
        inputs[arg.getArgNumber()] != InputKind::Int8Residual)
      return false;
    match.residualInt8 =
        generic.getDpsInputOperand(arg.getArgNumber())->get();
    match.residualScale = *scale;
    match.residualZp = zp;
    steps += ops;
    return true;
  }

  /// Every op of the body is one of the steps, and the last is yielded.
  bool readYield() {
    auto yield = dyn_cast_or_null<linalg::YieldOp>(user());
    return yield && yield.getNumOperands() == 1 &&
           steps + 1 == generic.getRegion().front().getOperations().size();
  }

  /// The only user of the current value, if it has exactly one.
  Operation *user() const {
    return cur.hasOneUse() ? *cur.getUsers().begin() : nullptr;
  }
  void advance(Operation *op) {
    cur = op->getResult(0);
    ++steps;
  }
  Value otherOperand(Operation *op) const {
    return op->getOperand(0) == cur ? op->getOperand(1) : op->getOperand(0);
  }
  /// The input of `kind` `op` combines the current value with, if any.
  Value operandOfKind(Operation *op, InputKind kind) const {
    auto arg = dyn_cast<BlockArgument>(otherOperand(op));
    if (!arg || arg.getOwner() != &generic.getRegion().front() ||
        arg.getArgNumber() >= inputs.size() ||
        inputs[arg.getArgNumber()] != kind)
      return nullptr;
    return generic.getDpsInputOperand(arg.getArgNumber())->get();
  }
  std::optional<float> constantOperand(Operation *op) const {
    return constantFloat(otherOperand(op));
  }
  /// Optional maximumf and minimumf by constants, in either order.
  bool readClamp(float &lo, float &hi) {
    bool haveLo = false, haveHi = false;
    for (int i = 0; i < 2; ++i) {
      Operation *op = user();
      if (!haveLo && isa_and_nonnull<arith::MaximumFOp>(op)) {
        std::optional<float> c = constantOperand(op);
        if (!c)
          return false;
        lo = *c;
        haveLo = true;
      } else if (!haveHi && isa_and_nonnull<arith::MinimumFOp>(op)) {
        std::optional<float> c = constantOperand(op);
        if (!c)
          return false;
        hi = *c;
        haveHi = true;
      } else {
        break;
      }
      advance(op);
    }
    // min then max equals max then min only for an ordered pair.
    return !(haveLo && haveHi) || lo <= hi;
  }

  mutable linalg::GenericOp generic; // Its accessors are not const.
  ArrayRef<InputKind> inputs;
  Value cur;
  size_t steps = 0;
};

/// Whether, once `product` has written its buffer, nothing but `generic`
/// reads it before it is written again. The buffer planner gives buffers
/// of the same shape at the same arena offset one view, and CSE merges the
/// views of views, so later layers use the same values: everything that
/// touches the buffer after the product, through any view, must come after
/// the generic, and the first of those must overwrite all of it.
bool sumsReadOnlyBy(linalg::LinalgOp product, linalg::GenericOp generic) {
  Value out = product.getDpsInitOperand(0)->get();
  Block *block = product->getBlock();
  Operation *init = product->getPrevNode();
  Operation *firstLater = nullptr;
  SmallVector<Value> views = {out};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = block->findAncestorOpInBlock(*use.getOwner());
      if (!user)
        return false;
      // Before the product: earlier layers' uses of a shared view.
      if (user == product.getOperation() || user == generic.getOperation() ||
          user->isBeforeInBlock(product) ||
          (user == init && view == out &&
           isa<linalg::FillOp, linalg::BroadcastOp>(user)) ||
          isa<memref::DeallocOp>(user))
        continue;
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
              memref::SubViewOp>(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      if (user->isBeforeInBlock(generic))
        return false;
      if (!firstLater || user->isBeforeInBlock(firstLater))
        firstLater = user;
    }
  }
  if (!firstLater)
    return true;
  // A whole-buffer fill or broadcast (the next product's init).
  auto fill = dyn_cast<linalg::FillOp>(firstLater);
  auto broadcast = dyn_cast<linalg::BroadcastOp>(firstLater);
  return (fill && fill.getDpsInitOperand(0)->get() == out) ||
         (broadcast && broadcast.getInit() == out);
}

/// The byte ranges of two views of one arena, if their offsets are
/// constants.
struct ByteRanges {
  int64_t aBegin, aEnd, bBegin, bEnd;
  bool overlap() const { return aBegin < bEnd && bBegin < aEnd; }
};
std::optional<ByteRanges> byteRanges(memref::ViewOp a, memref::ViewOp b) {
  APInt aOffset, bOffset;
  if (!matchPattern(a.getByteShift(), m_ConstantInt(&aOffset)) ||
      !matchPattern(b.getByteShift(), m_ConstantInt(&bOffset)))
    return std::nullopt;
  auto bytes = [](MemRefType type) {
    return type.getNumElements() * type.getElementTypeBitWidth() / 8;
  };
  int64_t aBegin = aOffset.getSExtValue(), bBegin = bOffset.getSExtValue();
  return ByteRanges{aBegin, aBegin + bytes(a.getType()), bBegin,
                    bBegin + bytes(b.getType())};
}

/// Whether buffers `residual` and `result` may share bytes other than as
/// the same buffer of one element type (an elementwise update in place,
/// `sameElementType`). Views of the arena at constant offsets are
/// compared; other distinct values are distinct allocations.
bool overlapsOtherThanInPlace(Value residual, Value result,
                              bool sameElementType) {
  auto a = residual.getDefiningOp<memref::ViewOp>();
  auto b = result.getDefiningOp<memref::ViewOp>();
  if (!a || !b)
    return residual == result && !sameElementType;
  if (a.getSource() != b.getSource())
    return false;
  std::optional<ByteRanges> ranges = byteRanges(a, b);
  if (!ranges)
    return true;
  if (!ranges->overlap())
    return false;
  return !sameElementType || ranges->aBegin != ranges->bBegin;
}

/// `buffer` without the views taken of it (reshapes, subviews, casts): the
/// allocation, argument or arena view its bytes belong to.
Value underlyingBuffer(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>()) {
    if (isa<memref::ViewOp>(view.getOperation()))
      break; // A view of the arena: compared by byte range below.
    buffer = view.getViewSource();
  }
  return buffer;
}

/// Whether an operand the product reads may share bytes with the result
/// the fused kernel writes. Bufferization writes an elementwise op in place
/// into a dead operand of its shape, and an epilogue's may reuse the
/// buffer of the product's own input (a chain of equal-width layers): fine
/// for the elementwise op, not for the fused kernel, which writes rows of
/// the result while later column blocks still read the same rows of A.
bool mayShareBytes(Value operand, Value result) {
  Value a = underlyingBuffer(operand), b = underlyingBuffer(result);
  if (a == b)
    return true;
  auto aView = a.getDefiningOp<memref::ViewOp>();
  auto bView = b.getDefiningOp<memref::ViewOp>();
  if (!aView || !bView)
    return false; // Distinct allocations or arguments.
  if (underlyingBuffer(aView.getSource()) !=
      underlyingBuffer(bView.getSource()))
    return false;
  std::optional<ByteRanges> ranges = byteRanges(aView, bView);
  return !ranges || ranges->overlap();
}

/// Whether `buffer` is the interior of a larger NHWC batch-1 buffer of
/// `element`s (tfaot-write-into-padded-buffers makes the producer of a
/// padded convolution input write there): pixels dense, rows of pixels
/// further apart. Sets the match's row layout if so.
bool isPaddedInterior(Value buffer, Type element, Int8EpilogueMatch &match) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || type.getElementType() != element ||
      type.getRank() != 4 || type.getDimSize(0) != 1)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(strides[1]) || strides[3] != 1 ||
      strides[2] != type.getDimSize(3) ||
      strides[1] < type.getDimSize(2) * type.getDimSize(3))
    return false;
  match.rowPixels = type.getDimSize(2);
  match.rowStride = strides[1];
  return true;
}

} // namespace

bool isDenseOf(Value buffer, Type element) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || type.getElementType() != element)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (type.getDimSize(d) != 1 && strides[d] != expected)
      return false;
    expected *= type.getDimSize(d);
  }
  return true;
}

std::optional<Int8EpilogueMatch> matchInt8Epilogue(linalg::LinalgOp product) {
  Value out = product.getDpsInitOperand(0)->get();
  // The generic comes after the product with nothing that reads or writes
  // memory in between, so the fused call can take its place. Allocs touch
  // no data, and filling a buffer allocated in between (the padded buffer
  // the generic writes into, see tfaot-write-into-padded-buffers) touches
  // none the product uses.
  linalg::GenericOp generic;
  SmallPtrSet<Value, 2> fresh;
  for (Operation *op = product->getNextNode(); op; op = op->getNextNode()) {
    if ((generic = dyn_cast<linalg::GenericOp>(op)))
      break;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      fresh.insert(alloc.getResult());
      continue;
    }
    // The fill may cover the fresh buffer whole or, once its interior has
    // a producer, only its border, through views.
    Value filled = mlir::tfaot::filledBuffer(op);
    if (filled && fresh.contains(underlyingBuffer(filled)))
      continue;
    if (!isMemoryEffectFree(op))
      return std::nullopt;
  }
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return std::nullopt;
  Int8EpilogueMatch match;
  match.generic = generic;
  const unsigned rank = generic.getNumLoops();
  MLIRContext *ctx = generic.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap lastColumn =
      AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx), ctx);
  std::optional<unsigned> accInput;
  SmallVector<InputKind> inputs;
  Type f32 = Float32Type::get(ctx);
  // The product's sums: an mmt4d's through its views, other products'
  // (NHWC) as they are, n being their channels.
  const bool tiled = isa<linalg::Mmt4DOp>(product.getOperation());
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    Value value = input->get();
    SmallVector<Operation *> views;
    FailureOr<int64_t> n = failure();
    if (!tiled && value == out && !accInput)
      n = cast<MemRefType>(out.getType()).getShape().back();
    else if (tiled && map == identity && !accInput)
      n = columnsThroughViews(value, out, views);
    if (map == identity && succeeded(n)) {
      accInput = input->getOperandNumber();
      match.n = *n;
      match.views = std::move(views);
      inputs.push_back(InputKind::Sums);
    } else if (map == lastColumn && isDenseOf(value, f32)) {
      inputs.push_back(InputKind::Column);
    } else if (map == identity && isDenseOf(value, f32)) {
      inputs.push_back(InputKind::Residual);
    } else if (map == identity &&
               isDenseOf(value, IntegerType::get(ctx, 8))) {
      inputs.push_back(InputKind::Int8Residual);
    } else {
      return std::nullopt;
    }
  }
  if (!accInput || !sumsReadOnlyBy(product, generic))
    return std::nullopt;
  // Per-column inputs have the result's columns, residuals its shape.
  Value acc = generic.getDpsInputOperand(*accInput)->get();
  ArrayRef<int64_t> shape = cast<MemRefType>(acc.getType()).getShape();
  for (auto [kind, input] : llvm::zip(inputs, generic.getDpsInputOperands())) {
    ArrayRef<int64_t> inputShape =
        cast<MemRefType>(input->get().getType()).getShape();
    if ((kind == InputKind::Column &&
         inputShape != ArrayRef<int64_t>{match.n}) ||
        ((kind == InputKind::Residual || kind == InputKind::Int8Residual) &&
         inputShape != shape))
      return std::nullopt;
  }

  OpOperand *init = generic.getDpsInitOperand(0);
  match.result = init->get();
  if (generic.getMatchingIndexingMap(init) != identity ||
      cast<MemRefType>(match.result.getType()).getShape() != shape)
    return std::nullopt;
  BodyReader reader(generic, *accInput, inputs);
  const bool floatSums =
      cast<MemRefType>(out.getType()).getElementType().isF32();
  if (!reader.read(match, floatSums))
    return std::nullopt;
  Type element = match.int8Result ? Type(IntegerType::get(ctx, 8)) : f32;
  if (!isDenseOf(match.result, element) &&
      !isPaddedInterior(match.result, element, match))
    return std::nullopt;
  // The kernel reads each residual element right before writing the result
  // element at the same index: fine in place, not for other overlaps.
  if (match.residual && overlapsOtherThanInPlace(match.residual, match.result,
                                                 !match.int8Result))
    return std::nullopt;
  if (match.residualInt8 &&
      overlapsOtherThanInPlace(match.residualInt8, match.result,
                               match.int8Result))
    return std::nullopt;
  for (OpOperand *input : product.getDpsInputOperands())
    if (mayShareBytes(input->get(), match.result))
      return std::nullopt;
  return match;
}

bool addInt8Copy(linalg::LinalgOp product, Int8EpilogueMatch &match) {
  if (match.int8Result || match.rowPixels != 0)
    return false;
  // The quantizing generic follows with nothing that touches memory in
  // between but the allocation of its output, so the fused call can move
  // to its place.
  linalg::GenericOp copy;
  for (Operation *op = match.generic->getNextNode(); op;
       op = op->getNextNode()) {
    if ((copy = dyn_cast<linalg::GenericOp>(op)))
      break;
    if (!isa<memref::AllocOp>(op) && !isMemoryEffectFree(op))
      return false;
  }
  if (!copy || !copy.hasPureBufferSemantics() || copy.getNumDpsInputs() != 1 ||
      copy.getNumDpsInits() != 1 ||
      copy.getNumParallelLoops() != copy.getNumLoops() ||
      copy.getDpsInputOperand(0)->get() != match.result ||
      !llvm::all_of(copy.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Value out = copy.getDpsInitOperand(0)->get();
  if (cast<MemRefType>(out.getType()).getShape() !=
          cast<MemRefType>(match.result.getType()).getShape() ||
      !isDenseOf(out, IntegerType::get(copy.getContext(), 8)))
    return false;
  Int8EpilogueMatch q = match;
  InputKind input = InputKind::Residual;
  if (!BodyReader(copy, 0, input).readRequantizationOnly(q))
    return false;
  // The kernel writes the copy's rows while it still reads everything
  // else.
  SmallVector<Value> read = {match.result, match.scale};
  for (Value v : {match.bias, match.residual, match.residualInt8})
    if (v)
      read.push_back(v);
  for (OpOperand *operand : product.getDpsInputOperands())
    read.push_back(operand->get());
  if (llvm::any_of(read, [&](Value v) { return mayShareBytes(v, out); }))
    return false;
  match.qMul = q.qMul;
  match.qZp = q.qZp;
  match.qLo = q.qLo;
  match.qHi = q.qHi;
  match.int8Copy = out;
  match.copyGeneric = copy;
  return true;
}

} // namespace tfaot::cpu
