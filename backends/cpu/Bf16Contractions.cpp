//===- Bf16Contractions.cpp - --precision=bf16 products -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-cpu-bf16-contractions, run by `tfaot compile --precision=bf16`
// after tfaot-winograd-convolutions and before tfaot-fuse-epilogues (on
// tensors).
// Each float32 convolution (linalg.conv_2d_nhwc_hwcf) and matrix product
// (linalg.matmul) with constant weights and a zero start becomes a product
// of bf16 operands summed in float32, written as linalg.mmt4d with tiles
// M0=1, N0=16, K0=2 (tfaot/runtime/bf16_kernels.h gives the layouts):
//  - the activations' rows (a convolution's im2col patches, or the input
//    itself for a 1x1 stride-1 one) rounded to bf16 (to nearest, ties to
//    even, in integer arithmetic) by one linalg.generic, [M, K] seen as
//    [M, K/2, 1, 2] (no packing copy);
//  - the weights rounded to bf16 (to nearest, ties to even) and packed here
//    into [N/16, K/2, 16, 2], the order vdpbf16ps reads them in;
//  - the float32 [M, N/16, 1, 16] result, row-major [M, N] after a
//    collapse, for the float32 epilogue (bias, activation, residual).
// K is padded to even and N to 16 with zero weights. tfaot-cpu-int8-ukernels
// (which takes these too) turns the mmt4d into a call of the runtime's
// kernel, which uses AVX512-BF16 where the CPU running it has it, portable
// float32 loops elsewhere. Everything else (depthwise convolutions, pools, softmax,
// normalizations, batched products of two activations) stays float32.
// Winograd products are not made bf16: the transforms scale values by up
// to 8 and cancel them again, which would multiply bf16's rounding error
// (2^-9 relative) as it does fp32's. Instead the CPU pipeline leaves
// Winograd (in fp32) only the 3x3 layers with enough 4x4 blocks to be
// faster that way (Pipeline.cpp), and this pass takes the rest.
//
// Each rewritten op gets a remark (tfaot explain lists them per node).
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Pipeline.h"
#include "backends/cpu/ProductOperands.h"
#include "passes/ConstantUtils.h"
#include "passes/LoweringUtils.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tfaot;
using ::tfaot::cpu::ConstantProduct;
using ::tfaot::cpu::im2colRows;
using ::tfaot::cpu::matchConstantProduct;
using ::tfaot::cpu::replaceProduct;
using ::tfaot::cpu::roundUp;

namespace {

constexpr int64_t kTileN = 16; // output columns per packed tile (N0)
constexpr int64_t kTileK = 2;  // k values per 32-bit lane (K0)
constexpr char kPassName[] = "tfaot-cpu-bf16-contractions";

/// `value` rounded to the nearest bf16, ties to even (the activations'
/// rounding below, and vcvtneps2bf16's); NaN stays a (quiet) NaN.
uint16_t toBf16(float value) {
  uint32_t bits = llvm::bit_cast<uint32_t>(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

/// `weights` ([k, n] row-major float32) rounded to bf16 in the
/// [N/16, K/2, 16, 2] tile layout, zeros in the padding.
DenseElementsAttr packWeights(MLIRContext *ctx, DenseElementsAttr weights,
                              int64_t k, int64_t n) {
  int64_t k1 = roundUp(k, kTileK) / kTileK, n1 = roundUp(n, kTileN) / kTileN;
  std::vector<uint16_t> packed(n1 * k1 * kTileN * kTileK, 0);
  int64_t i = 0;
  for (float w : weights.getValues<float>()) {
    int64_t row = i / n, col = i % n;
    ++i;
    packed[(((col / kTileN) * k1 + row / kTileK) * kTileN + col % kTileN) *
               kTileK +
           row % kTileK] = toBf16(w);
  }
  auto type = RankedTensorType::get({n1, k1, kTileN, kTileK},
                                    BFloat16Type::get(ctx));
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(packed.data()),
                           packed.size() * sizeof(uint16_t)));
}

/// rows [M, k] (bf16; or [M, k] padded to even with zeros) x weights [k, n] ->
/// [M, n] float32 as the mmt4d of the file comment.
Value buildProduct(OpBuilder &b, Location loc, Value rows,
                   DenseElementsAttr weights, int64_t k, int64_t n) {
  MLIRContext *ctx = b.getContext();
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();
  int64_t m = cast<RankedTensorType>(rows.getType()).getDimSize(0);
  int64_t kPadded = roundUp(k, kTileK), nPadded = roundUp(n, kTileN);
  int64_t k1 = kPadded / kTileK, n1 = nPadded / kTileN;
  if (cast<RankedTensorType>(rows.getType()).getDimSize(1) != kPadded) {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(bf16));
    rows = tensor::PadOp::create(
        b, loc, RankedTensorType::get({m, kPadded}, bf16), rows,
        getAsIndexOpFoldResult(ctx, {0, 0}),
        getAsIndexOpFoldResult(ctx, {0, kPadded - k}), zero);
  }
  Value lhs = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({m, k1, 1, kTileK}, bf16), rows,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  Value rhs =
      arith::ConstantOp::create(b, loc, packWeights(ctx, weights, k, n));
  auto tiledType = RankedTensorType::get({m, n1, 1, kTileN}, f32);
  Value init = buildFilled(b, loc, tiledType, scalarConstant(b, loc, f32, 0));
  Value tiled = linalg::Mmt4DOp::create(b, loc, TypeRange{tiledType},
                                        ValueRange{lhs, rhs}, ValueRange{init})
                    .getResult(0);
  Value product = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({m, nPadded}, f32), tiled,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  if (nPadded == n)
    return product;
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({m, n}, f32), product,
      getAsIndexOpFoldResult(ctx, {0, 0}), getAsIndexOpFoldResult(ctx, {m, n}),
      getAsIndexOpFoldResult(ctx, {1, 1}));
}

Value truncateToBf16(OpBuilder &b, Location loc, Value value) {
  return arith::TruncFOp::create(b, loc, b.getBF16Type(), value);
}

/// A [M, K] float32 matrix rounded to bf16.
Value bf16Rows(OpBuilder &b, Location loc, Value rows) {
  auto type = cast<RankedTensorType>(rows.getType());
  return buildElementwise(
      b, loc, RankedTensorType::get(type.getShape(), b.getBF16Type()),
      ValueRange{rows}, {b.getMultiDimIdentityMap(2)},
      [](OpBuilder &nb, Location l, ValueRange args) {
        return truncateToBf16(nb, l, args[0]);
      });
}

void remarkBf16(Operation *op, int64_t m, int64_t k, int64_t n) {
  remarkRewrite(op->getLoc(), kPassName,
                opShortName(op) + " in bf16",
                llvm::Twine(m) + "x" + llvm::Twine(k) + " by " +
                    llvm::Twine(k) + "x" + llvm::Twine(n));
}

/// Rewrites `op` if it is a convolution or matrix product with constant
/// weights; returns whether it did.
bool rewriteProduct(Operation *op) {
  std::optional<ConstantProduct> p = matchConstantProduct(op);
  if (!p)
    return false;
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value rows;
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op))
    rows = im2colRows(b, loc, conv, roundUp(p->k, kTileK), b.getBF16Type(),
                      truncateToBf16);
  else
    rows = bf16Rows(b, loc, op->getOperand(0));
  remarkBf16(op, p->m, p->k, p->n);
  replaceProduct(b, *p, buildProduct(b, loc, rows, p->weights, p->k, p->n));
  return true;
}

struct Bf16ContractionsPass
    : PassWrapper<Bf16ContractionsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(Bf16ContractionsPass)
  StringRef getArgument() const override { return kPassName; }
  StringRef getDescription() const override {
    return "Float32 convolutions and matrix products with constant weights "
           "as bf16 x bf16 -> f32 linalg.mmt4d (tiles 1x16x2), weights "
           "packed at compile time";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    tensor::TensorDialect>();
  }

  void runOnOperation() override {
    SmallVector<Operation *> products;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::MatmulOp>(op))
        products.push_back(op);
    });
    bool rewritten = false;
    for (Operation *op : products)
      rewritten |= rewriteProduct(op);
    if (!rewritten)
      return;
    // The roundings as integer arithmetic on the bits (to nearest, ties to
    // even, as toBf16): LLVM would make a truncation to bfloat a call of
    // __truncsfbf2 on CPUs without AVX512-BF16, which the object must not
    // need (and one call per value is slow).
    // Only the truncations in the rounding generics: the mmt4d's own body
    // (extf of bf16) must stay as linalg defines it.
    SmallVector<Operation *> roundings;
    getOperation().walk([&](arith::TruncFOp op) {
      if (op.getType().isBF16() && isa<linalg::GenericOp>(op->getParentOp()))
        roundings.push_back(op);
    });
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(roundings, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void ::tfaot::cpu::registerBf16ContractionsPass() {
  PassRegistration<Bf16ContractionsPass>();
}
