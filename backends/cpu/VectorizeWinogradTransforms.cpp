//===- VectorizeWinogradTransforms.cpp - Transforms as channel vector loops ===//
// SPDX-License-Identifier: Apache-2.0
//
// --tfaot-vectorize-winograd-transforms (see the pass description in
// Passes.td). The Winograd transforms are stated as generics that read 36
// operands per value, more than LLVM's loop vectorizer will check for
// overlap at run time, and the input transform's generic is the plain sum
// of 36 products per value. Their channels are contiguous in every buffer
// they touch, so this pass writes the vector loop itself, and computes each
// transform in factored form, a patch (or block) at a time.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Passes.h"
#include "backends/cpu/WinogradMatrices.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_VECTORIZEWINOGRADTRANSFORMSPASS
#include "backends/cpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using namespace mlir::tfaot;
using namespace mlir::tfaot::winograd;

namespace {

/// How `op` reads or writes an operand along the innermost loop: a whole
/// vector (the loop's dimension is the operand's last, contiguous one) or
/// one scalar for every lane (the loop's dimension does not index it).
enum class Access { Vector, Broadcast };

/// The access to `operand` of `op`, whose innermost loop is `last`, or
/// nothing when it is neither form.
std::optional<Access> accessOf(linalg::GenericOp op, OpOperand &operand,
                               unsigned last) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!map.isFunctionOfDim(last))
    return Access::Broadcast;
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || map.getNumResults() == 0 ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 ||
      map.getResults().back() != getAffineDimExpr(last, op.getContext()))
    return std::nullopt;
  for (AffineExpr expr : map.getResults().drop_back())
    if (expr.isFunctionOfDim(last))
      return std::nullopt;
  return Access::Vector;
}

/// Lanes per vector for an innermost loop of `range` iterations: the widest
/// power of two up to the register's f32 count that divides it (at least 4).
std::optional<int64_t> lanesFor(int64_t range, int64_t vectorBits) {
  for (int64_t lanes = vectorBits / 32; lanes >= 4; lanes /= 2)
    if (range % lanes == 0)
      return lanes;
  return std::nullopt;
}

bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// Whether the body is made of scalar elementwise ops (and constants) only,
/// which the vector loop can apply lane by lane.
bool hasElementwiseBody(linalg::GenericOp op) {
  for (Operation &inner : op.getBody()->without_terminator()) {
    bool constant = inner.hasTrait<OpTrait::ConstantLike>();
    if (!constant && (!inner.hasTrait<OpTrait::Elementwise>() ||
                      inner.getNumRegions() != 0))
      return false;
    if (!llvm::all_of(inner.getOperandTypes(), isScalar) ||
        !llvm::all_of(inner.getResultTypes(), isScalar))
      return false;
  }
  return true;
}

/// The operand's indices at the loop indices `ivs`.
SmallVector<Value> indicesAt(OpBuilder &b, Location loc, AffineMap map,
                             ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      indices.push_back(ivs[dim.getPosition()]);
    else
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

/// `value` as a vector of `lanes`: a splat if it is a scalar.
Value asVector(OpBuilder &b, Location loc, Value value, int64_t lanes) {
  if (isa<VectorType>(value.getType()))
    return value;
  return vector::BroadcastOp::create(
      b, loc, VectorType::get({lanes}, value.getType()), value);
}

/// Clones the scalar elementwise op `inner` on vectors of `lanes` (its
/// scalar operands splatted; constants stay scalar) and maps its results.
void cloneOnVectors(OpBuilder &b, Location loc, Operation &inner,
                    int64_t lanes, IRMapping &mapping) {
  if (inner.hasTrait<OpTrait::ConstantLike>()) {
    b.clone(inner, mapping);
    return;
  }
  SmallVector<Value> operands;
  for (Value operand : inner.getOperands())
    operands.push_back(
        asVector(b, loc, mapping.lookupOrDefault(operand), lanes));
  SmallVector<Type> types;
  for (Type type : inner.getResultTypes())
    types.push_back(VectorType::get({lanes}, type));
  OperationState state(loc, inner.getName(), operands, types,
                       inner.getAttrs());
  Operation *vectorOp = b.create(state);
  mapping.map(inner.getResults(), vectorOp->getResults());
}

/// Loops from 0 to each of `ranges` (step 1) around `body`, over the
/// patches or blocks of a transform. Each iteration writes its own patch or
/// block and nothing in the nest reads what another writes, so the loops
/// are marked for tfaot-parallelize-loops, which runs them on the thread
/// pool (as one loop over all blocks) when they do enough work.
void buildBlockLoops(OpBuilder &b, Location loc,
                     ArrayRef<std::pair<int64_t, int64_t>> ranges,
                     function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (auto [lo, hi] : ranges) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, lo));
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, hi));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  if (ranges.empty()) {
    body(b, loc, {});
    return;
  }
  scf::LoopNest nest = scf::buildLoopNest(b, loc, lbs, ubs, steps, body);
  for (scf::ForOp loop : nest.loops)
    loop->setAttr(kParallelLoopAttr, b.getUnitAttr());
}

/// The pieces of an output transform that its block-by-block form needs:
/// the algorithm, the P*P products by position a*P+b (operands reading the
/// batched product [P*P, N, tilesH, tilesW, C] at batch index a*P+b) and the
/// transformed value in its body (a fused epilogue starts from it).
struct OutputTransform {
  const Variant *variant = nullptr;
  SmallVector<OpOperand *> products;
  Operation *sum = nullptr;
  llvm::SmallPtrSet<Operation *, 32> chain; ///< what computes the sum
};

/// Finds the products and the sum in the "output" generic `op`, as
/// tfaot-winograd-convolutions builds them: the sum of P*P products
/// coeff_k * M_k, M_k read at (k, n, h floordiv m, w floordiv m, c), coeff_k
/// from a table at (h mod m, w mod m, k), for the variant whose P*P is the
/// batch of the products' buffer.
std::optional<OutputTransform> matchOutputTransform(linalg::GenericOp op) {
  OutputTransform t;
  MLIRContext *ctx = op.getContext();
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  auto blockMap = [&](int64_t k) {
    int64_t block = t.variant->block;
    return AffineMap::get(4, 0,
                          {getAffineConstantExpr(k, ctx), d0,
                           d1.floorDiv(block), d2.floorDiv(block), d3},
                          ctx);
  };
  Block *block = op.getBody();
  for (Operation &inner : block->without_terminator())
    if (inner.hasAttr(kSumAttr))
      t.sum = &inner;
  if (!t.sum || op.getNumLoops() != 4)
    return std::nullopt;
  SmallVector<Operation *> work = {t.sum};
  while (!work.empty()) {
    Operation *current = work.pop_back_val();
    if (!t.chain.insert(current).second)
      continue;
    if (auto mul = dyn_cast<arith::MulFOp>(current)) {
      auto coeff = dyn_cast<BlockArgument>(mul.getLhs());
      auto product = dyn_cast<BlockArgument>(mul.getRhs());
      if (!coeff || !product || coeff.getOwner() != block ||
          product.getOwner() != block)
        return std::nullopt;
      OpOperand *coeffOperand = &op->getOpOperand(coeff.getArgNumber());
      OpOperand *productOperand = &op->getOpOperand(product.getArgNumber());
      auto productType = dyn_cast<ShapedType>(productOperand->get().getType());
      if (!productType || !productType.hasRank() || productType.getRank() != 5)
        return std::nullopt;
      if (!t.variant) {
        t.variant = variantWithProducts(productType.getDimSize(0));
        if (!t.variant)
          return std::nullopt;
        t.products.assign(t.variant->products(), nullptr);
      }
      AffineMap coeffMap = op.getMatchingIndexingMap(coeffOperand);
      auto k = coeffMap.getNumResults() == 3
                   ? dyn_cast<AffineConstantExpr>(coeffMap.getResult(2))
                   : AffineConstantExpr();
      if (!k || k.getValue() < 0 || k.getValue() >= t.variant->products() ||
          op.getMatchingIndexingMap(productOperand) != blockMap(k.getValue()))
        return std::nullopt;
      t.products[k.getValue()] = productOperand;
      continue;
    }
    if (!isa<arith::AddFOp>(current))
      return std::nullopt;
    for (Value operand : current->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != block)
        return std::nullopt;
      work.push_back(def);
    }
  }
  if (!t.variant || llvm::is_contained(t.products, nullptr))
    return std::nullopt;
  return t;
}

struct VectorizeWinogradTransformsPass
    : public tfaot::impl::VectorizeWinogradTransformsPassBase<
          VectorizeWinogradTransformsPass> {
  using VectorizeWinogradTransformsPassBase::
      VectorizeWinogradTransformsPassBase;

  /// Rewrites `op` as loops whose innermost one steps through the last
  /// dimension a vector at a time, or leaves it (returning false).
  bool vectorize(linalg::GenericOp op) {
    if (!op.hasPureBufferSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops() || op.getNumLoops() == 0 ||
        op.hasIndexSemantics() || !hasElementwiseBody(op))
      return false;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return false;
    unsigned last = op.getNumLoops() - 1;
    std::optional<int64_t> lanes = lanesFor(ranges[last], vectorBits);
    if (!lanes)
      return false;
    SmallVector<Access> accesses;
    for (OpOperand &operand : op->getOpOperands()) {
      std::optional<Access> access = accessOf(op, operand, last);
      if (!access || (op.isDpsInit(&operand) && *access != Access::Vector))
        return false;
      accesses.push_back(*access);
    }

    Location loc = op.getLoc();
    OpBuilder b(op);
    SmallVector<Value> lbs, ubs, steps;
    for (unsigned d = 0; d < last; ++d) {
      lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      ubs.push_back(arith::ConstantIndexOp::create(b, loc, ranges[d]));
      steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    }
    auto body = [&](OpBuilder &ob, Location oloc, ValueRange outer) {
      // Scalars read once per vector loop, outside it.
      SmallVector<Value> ivs(outer);
      ivs.push_back(arith::ConstantIndexOp::create(ob, oloc, 0));
      IRMapping mapping;
      Block *block = op.getBody();
      for (OpOperand &operand : op->getOpOperands())
        if (accesses[operand.getOperandNumber()] == Access::Broadcast) {
          Value scalar = memref::LoadOp::create(
              ob, oloc, operand.get(),
              indicesAt(ob, oloc, op.getMatchingIndexingMap(&operand), ivs));
          mapping.map(block->getArgument(operand.getOperandNumber()), scalar);
        }
      Value zero = arith::ConstantIndexOp::create(ob, oloc, 0);
      Value range = arith::ConstantIndexOp::create(ob, oloc, ranges[last]);
      Value step = arith::ConstantIndexOp::create(ob, oloc, *lanes);
      scf::ForOp::create(
          ob, oloc, zero, range, step, ValueRange{},
          [&](OpBuilder &ib, Location iloc, Value iv, ValueRange) {
            ivs.back() = iv;
            emitLanes(ib, iloc, op, accesses, ivs, *lanes, mapping);
            scf::YieldOp::create(ib, iloc);
          });
    };
    if (last == 0)
      body(b, loc, {});
    else
      scf::buildLoopNest(b, loc, lbs, ubs, steps,
                         [&](OpBuilder &ob, Location oloc, ValueRange ivs) {
                           body(ob, oloc, ivs);
                         });
    op.erase();
    return true;
  }

  /// Computes the input transform `op` (as tfaot-winograd-convolutions
  /// builds it: V[k][n][ty][tx][c] = sum_m coeff[k][m] * d_m, d_m the patch
  /// position m = i*P+j, read at (n, m ty + i, m tx + j, c), P*P the first
  /// loop's range) patch by patch: the P*P positions are read once per
  /// channel vector and transformed as (B^T d) B, rows first, into the P*P
  /// values, each stored at its batch index k = a*P+b.
  bool vectorizeInputTransform(linalg::GenericOp op) {
    if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != 5 || op.getNumParallelLoops() != 5 ||
        op.hasIndexSemantics())
      return false;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return false;
    const Variant *variant = variantWithProducts(ranges[0]);
    if (!variant || op.getNumDpsInputs() != 2 * variant->products())
      return false;
    const int patchSide = variant->patch, blockSide = variant->block;
    std::optional<int64_t> lanes = lanesFor(ranges[4], vectorBits);
    OpOperand &init = *op.getDpsInitOperand(0);
    if (!lanes || !op.getMatchingIndexingMap(&init).isIdentity() ||
        accessOf(op, init, 4) != Access::Vector)
      return false;
    MLIRContext *ctx = op.getContext();
    AffineExpr k, d0, d1, d2, d3;
    bindDims(ctx, k, d0, d1, d2, d3);
    Value input = op.getDpsInputOperand(0)->get();
    for (int m = 0; m < variant->products(); ++m) {
      OpOperand *patch = op.getDpsInputOperand(m);
      AffineMap expected = AffineMap::get(5, 0,
                                          {d0, d1 * blockSide + m / patchSide,
                                           d2 * blockSide + m % patchSide, d3},
                                          ctx);
      if (patch->get() != input ||
          op.getMatchingIndexingMap(patch) != expected ||
          accessOf(op, *patch, 4) != Access::Vector)
        return false;
    }

    Location loc = op.getLoc();
    OpBuilder b(op);
    Value output = init.get();
    buildBlockLoops(
        b, loc, {{0, ranges[1]}, {0, ranges[2]}, {0, ranges[3]}},
        [&](OpBuilder &ob, Location oloc, ValueRange tileIvs) {
          Value zero = arith::ConstantIndexOp::create(ob, oloc, 0);
          Value end = arith::ConstantIndexOp::create(ob, oloc, ranges[4]);
          Value step = arith::ConstantIndexOp::create(ob, oloc, *lanes);
          scf::ForOp::create(
              ob, oloc, zero, end, step, ValueRange{},
              [&](OpBuilder &ib, Location iloc, Value c, ValueRange) {
                emitPatch(ib, iloc, *variant, input, output, tileIvs, c,
                          *lanes);
                scf::YieldOp::create(ib, iloc);
              });
        });
    op.erase();
    return true;
  }

  /// One channel vector `c` of the patch under the block (n, ty, tx) =
  /// `tileIvs`: its P*P transformed values stored into `output`.
  static void emitPatch(OpBuilder &b, Location loc, const Variant &v,
                        Value input, Value output, ValueRange tileIvs, Value c,
                        int64_t lanes) {
    const int patchSide = v.patch, blockSide = v.block;
    auto f32Vector = VectorType::get({lanes}, b.getF32Type());
    AffineExpr base;
    bindDims(b.getContext(), base);
    auto at = [&](Value tile, int64_t within) -> Value {
      return affine::AffineApplyOp::create(
          b, loc, AffineMap::get(1, 0, base * blockSide + within),
          ValueRange{tile});
    };
    Value d[kMaxPatch][kMaxPatch];
    for (int i = 0; i < patchSide; ++i)
      for (int j = 0; j < patchSide; ++j)
        d[i][j] = vector::LoadOp::create(
            b, loc, f32Vector, input,
            ValueRange{tileIvs[0], at(tileIvs[1], i), at(tileIvs[2], j), c});
    // t[a][j] = sum_i BT[a][i] d[i][j]; v[a][b] = sum_j t[a][j] BT[b][j].
    Value t[kMaxPatch][kMaxPatch];
    for (int a = 0; a < patchSide; ++a)
      for (int j = 0; j < patchSide; ++j) {
        SmallVector<Value> column;
        for (int i = 0; i < patchSide; ++i)
          column.push_back(d[i][j]);
        t[a][j] = linearCombination(b, loc, v.btRow(a), column);
      }
    for (int a = 0; a < patchSide; ++a)
      for (int col = 0; col < patchSide; ++col) {
        Value value = linearCombination(b, loc, v.btRow(col),
                                        ArrayRef<Value>(t[a], patchSide));
        Value k = arith::ConstantIndexOp::create(b, loc, a * patchSide + col);
        vector::StoreOp::create(
            b, loc, value, output,
            ValueRange{k, tileIvs[0], tileIvs[1], tileIvs[2], c});
      }
  }

  /// Computes the output transform `op` block by block: the 36 (16)
  /// products of a block are read once per channel vector and transformed
  /// as A^T (M A), columns first (for F(4x4) 180 operations per 16 pixels
  /// instead of 36 multiply-adds per pixel), then each of its pixels inside the
  /// output gets the fused epilogue. Blocks that hang over the bottom or right
  /// edge are looped over separately with fewer rows or columns.
  bool vectorizeOutputTransform(linalg::GenericOp op) {
    std::optional<OutputTransform> t = matchOutputTransform(op);
    if (!t || !op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != 4 || op.hasIndexSemantics() ||
        !hasElementwiseBody(op))
      return false;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return false;
    std::optional<int64_t> lanes = lanesFor(ranges[3], vectorBits);
    if (!lanes)
      return false;
    // The epilogue's operands (every operand the sum's chain does not
    // read) and the output must be read or written a vector at a time, or
    // be splats.
    Block *block = op.getBody();
    SmallVector<std::optional<Access>> accesses;
    for (OpOperand &operand : op->getOpOperands()) {
      std::optional<Access> access = accessOf(op, operand, 3);
      if (op.isDpsInit(&operand) &&
          (access != Access::Vector ||
           !block->getArgument(operand.getOperandNumber()).use_empty()))
        return false;
      accesses.push_back(access);
    }
    for (Operation &inner : block->without_terminator()) {
      if (t->chain.contains(&inner))
        continue;
      for (Value operand : inner.getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand))
          if (arg.getOwner() == block && !accesses[arg.getArgNumber()])
            return false;
    }

    Location loc = op.getLoc();
    OpBuilder b(op);
    const int blockSide = t->variant->block;
    int64_t fullRows = ranges[1] / blockSide, fullCols = ranges[2] / blockSide;
    SmallVector<std::pair<std::pair<int64_t, int64_t>, int64_t>> rowParts = {
        {{0, fullRows}, blockSide}};
    if (ranges[1] % blockSide)
      rowParts.push_back({{fullRows, fullRows + 1}, ranges[1] % blockSide});
    SmallVector<std::pair<std::pair<int64_t, int64_t>, int64_t>> colParts = {
        {{0, fullCols}, blockSide}};
    if (ranges[2] % blockSide)
      colParts.push_back({{fullCols, fullCols + 1}, ranges[2] % blockSide});
    for (auto [rowRange, rows] : rowParts)
      for (auto [colRange, cols] : colParts) {
        if (rowRange.first == rowRange.second ||
            colRange.first == colRange.second)
          continue;
        buildBlockLoops(b, loc, {{0, ranges[0]}, rowRange, colRange},
                   [&](OpBuilder &ob, Location oloc, ValueRange blockIvs) {
                     Value zero = arith::ConstantIndexOp::create(ob, oloc, 0);
                     Value end =
                         arith::ConstantIndexOp::create(ob, oloc, ranges[3]);
                     Value step =
                         arith::ConstantIndexOp::create(ob, oloc, *lanes);
                     scf::ForOp::create(
                         ob, oloc, zero, end, step, ValueRange{},
                         [&](OpBuilder &ib, Location iloc, Value c,
                             ValueRange) {
                           emitBlock(ib, iloc, op, *t, accesses, blockIvs, c,
                                     rows, cols, *lanes);
                           scf::YieldOp::create(ib, iloc);
                         });
                   });
      }
    op.erase();
    return true;
  }

  /// One channel vector `c` of the block (n, ty, tx) = `blockIvs`, `rows` x
  /// `cols` of its pixels inside the output.
  void emitBlock(OpBuilder &b, Location loc, linalg::GenericOp op,
                 const OutputTransform &t,
                 ArrayRef<std::optional<Access>> accesses, ValueRange blockIvs,
                 Value c, int64_t rows, int64_t cols, int64_t lanes) {
    const Variant &v = *t.variant;
    const int patchSide = v.patch, blockSide = v.block;
    auto f32Vector = VectorType::get({lanes}, b.getF32Type());
    SmallVector<Value> blockIndices = {Value()};
    llvm::append_range(blockIndices, blockIvs);
    blockIndices.push_back(c);
    Value m[kMaxPatch][kMaxPatch];
    for (int k = 0; k < v.products(); ++k) {
      blockIndices[0] = arith::ConstantIndexOp::create(b, loc, k);
      m[k / patchSide][k % patchSide] = vector::LoadOp::create(
          b, loc, f32Vector, t.products[k]->get(), blockIndices);
    }
    // r[a][q] = sum_b M[a][b] AT[q][b]; y[p][q] = sum_a AT[p][a] r[a][q].
    Value r[kMaxBlock][kMaxPatch];
    for (int q = 0; q < cols; ++q)
      for (int a = 0; a < patchSide; ++a)
        r[q][a] = linearCombination(b, loc, v.atRow(q),
                                    ArrayRef<Value>(m[a], patchSide));
    Block *block = op.getBody();
    AffineExpr base, offset;
    bindDims(b.getContext(), base, offset);
    for (int p = 0; p < rows; ++p)
      for (int q = 0; q < cols; ++q) {
        Value y = linearCombination(b, loc, v.atRow(p),
                                    ArrayRef<Value>(r[q], patchSide));
        auto pixel = [&](Value tile, int64_t within) -> Value {
          return affine::AffineApplyOp::create(
              b, loc, AffineMap::get(1, 0, base * blockSide + within),
              ValueRange{tile});
        };
        SmallVector<Value> ivs = {blockIvs[0], pixel(blockIvs[1], p),
                                  pixel(blockIvs[2], q), c};
        IRMapping mapping;
        mapping.map(t.sum->getResult(0), y);
        for (OpOperand &operand : op->getOpOperands()) {
          BlockArgument arg = block->getArgument(operand.getOperandNumber());
          std::optional<Access> access = accesses[operand.getOperandNumber()];
          if (op.isDpsInit(&operand) || !access ||
              llvm::none_of(arg.getUsers(), [&](Operation *user) {
                return !t.chain.contains(user);
              }))
            continue;
          SmallVector<Value> indices =
              indicesAt(b, loc, op.getMatchingIndexingMap(&operand), ivs);
          mapping.map(arg, *access == Access::Vector
                               ? vector::LoadOp::create(
                                     b, loc,
                                     VectorType::get({lanes}, arg.getType()),
                                     operand.get(), indices)
                                     .getResult()
                               : memref::LoadOp::create(b, loc, operand.get(),
                                                        indices)
                                     .getResult());
        }
        for (Operation &inner : block->without_terminator())
          if (!t.chain.contains(&inner))
            cloneOnVectors(b, loc, inner, lanes, mapping);
        OpOperand &init = *op.getDpsInitOperand(0);
        auto yield = cast<linalg::YieldOp>(block->getTerminator());
        vector::StoreOp::create(
            b, loc,
            asVector(b, loc, mapping.lookupOrDefault(yield.getValues()[0]),
                     lanes),
            init.get(),
            indicesAt(b, loc, op.getMatchingIndexingMap(&init), ivs));
      }
  }

  /// One vector step of the body at loop indices `ivs`.
  void emitLanes(OpBuilder &b, Location loc, linalg::GenericOp op,
                 ArrayRef<Access> accesses, ValueRange ivs, int64_t lanes,
                 IRMapping mapping) {
    Block *block = op.getBody();
    auto vectorOf = [&](Type scalar) { return VectorType::get({lanes}, scalar); };
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = block->getArgument(operand.getOperandNumber());
      if (accesses[operand.getOperandNumber()] != Access::Vector ||
          arg.use_empty())
        continue;
      mapping.map(arg, vector::LoadOp::create(
                           b, loc, vectorOf(arg.getType()), operand.get(),
                           indicesAt(b, loc, op.getMatchingIndexingMap(&operand),
                                     ivs)));
    }
    // Scalars (constants, broadcast operands, values from outside) meet
    // vectors as splats.
    for (Operation &inner : block->without_terminator())
      cloneOnVectors(b, loc, inner, lanes, mapping);
    auto yield = cast<linalg::YieldOp>(block->getTerminator());
    for (auto [value, init] :
         llvm::zip_equal(yield.getValues(), op.getDpsInitsMutable()))
      vector::StoreOp::create(
          b, loc, asVector(b, loc, mapping.lookupOrDefault(value), lanes),
          init.get(),
          indicesAt(b, loc, op.getMatchingIndexingMap(&init), ivs));
  }

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> transforms;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kWinogradTransformAttr))
        transforms.push_back(op);
    });
    for (linalg::GenericOp op : transforms) {
      auto kind = op->getAttrOfType<StringAttr>(kWinogradTransformAttr);
      if ((kind && kind.getValue() == "output" &&
           vectorizeOutputTransform(op)) ||
          (kind && kind.getValue() == "input" &&
           vectorizeInputTransform(op)) ||
          vectorize(op))
        ++numTransformsVectorized;
    }
  }
};

} // namespace
