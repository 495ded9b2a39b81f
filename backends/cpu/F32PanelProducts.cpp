//===- F32PanelProducts.cpp - float32 products on the runtime's kernel ----===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-cpu-f32-panel-products, run by `tfaot compile` for AVX-512 targets
// (--cpu_gemm=auto) after tfaot-winograd-convolutions and before
// tfaot-fuse-epilogues (on tensors).
//
// The generated contraction kernels (VectorizeContractions.cpp) are at
// their weakest where a product's weights are large and its rows few:
// every tile of 8 rows streams the weights again. On one Sapphire Rapids
// core ResNet-50's stage-5 1x1 convolutions (49 rows, 4 MB of weights) ran
// at 100 GFLOP/s and its Winograd products (36 of 16 x 256 by 256 x 256)
// at 54, against an FMA peak of 231. Those products become the runtime's
// tfaot_rt_mmt4d_f32f32f32 (tfaot/runtime/f32_kernels.h), which reads
// weights packed here into whole 64-column panels, each panel once per
// 6-row block from L2:
//  - linalg.conv_2d_nhwc_hwcf and linalg.matmul with constant weights and
//    a zero start, at least kMinWeightBytes of weights, with rows of their
//    input as it is (1x1 stride 1) or im2col rows of at most
//    kMaxIm2colBytes; and either an epilogue (bias, activation, residual:
//    one elementwise generic reading the result) that the kernel's fused
//    call (tfaot_rt_mmt4d_f32_fused) will apply to each block of sums as
//    it is finished, or at most kMaxResultBytes of result (the epilogue is
//    then an elementwise op of its own over the result, which stays cheap
//    while the result is in L2);
//  - linalg.batch_matmul with constant right-hand sides (Winograd's 16 or
//    36 products per layer), whose result the output transform reads
//    anyway, at any size.
// Each becomes linalg.mmt4d (linalg.batch_mmt4d) with tiles M0=1, N0=64,
// K0=1, N padded to 64 with zero weights; tfaot-cpu-int8-ukernels turns it
// into the call. Products whose padding would add more than a fifth to N
// (kPaddingShare) stay generated.
//
// Matrix-vector products (a classifier at batch 1) too are bound by how
// fast their weights stream in, and the generated code reads them badly:
// each step of its reduction takes 512 bytes of one weight row, the next
// step the next row, a page further on, so the hardware prefetchers never
// catch on. Packed in panels, the same weights are one sequential stream:
// ResNet-50's 2048 x 1000 classifier took 1.05 ms at batch 1 generated and
// 0.51 on the kernel, MobileNetV2's 1280 x 1000 (in L3) 0.234 and 0.196
// (one Sapphire Rapids core).
//
// Each rewritten op gets a remark (tfaot explain lists them per node).
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Pipeline.h"
#include "backends/cpu/ProductOperands.h"
#include "passes/LoweringUtils.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

#include <vector>

using namespace mlir;
using namespace mlir::tfaot;
using ::tfaot::cpu::ConstantProduct;
using ::tfaot::cpu::im2colRows;
using ::tfaot::cpu::inputIsRows;
using ::tfaot::cpu::matchConstantProduct;
using ::tfaot::cpu::replaceProduct;
using ::tfaot::cpu::roundUp;

namespace {

constexpr int64_t kPanel = 64; // output columns per packed panel (N0)
constexpr char kPassName[] = "tfaot-cpu-f32-panel-products";

/// The defaults of the thresholds in the file comment (pass options, so
/// that lit tests can take small products).
constexpr int64_t kMinWeightBytes = 256 << 10;
constexpr int64_t kMaxResultBytes = 1 << 20;
constexpr int64_t kMaxIm2colBytes = 1 << 20;

/// A fifth: MobileNetV2's 7x7 projections to 160 channels (padded to 192)
/// ran at 117-119 GFLOP/s as generated code and at 132-138 on the kernel,
/// computing a fifth more (one Sapphire Rapids core, per-layer profiles
/// alternating two builds; bench/results/2026-11-30-spr-panel-balance.md).
/// With an eighth they stayed generated.
constexpr int64_t kPaddingShare = 5;

struct Thresholds {
  int64_t minWeightBytes, maxResultBytes, maxIm2colBytes;
  int64_t paddingShare;

  /// Whether a (single) product of `m` rows, `k` x `n` weights and
  /// `im2col` bytes of rows copied for it is worth the runtime's kernel;
  /// `fusedEpilogue`: the kernel will likely apply its epilogue, so that
  /// the size of its result does not matter.
  bool qualify(int64_t m, int64_t k, int64_t n, int64_t im2colBytes,
               bool fusedEpilogue) const {
    return fitsPanels(n) && k * n * 4 >= minWeightBytes &&
           (fusedEpilogue || m * n * 4 <= maxResultBytes) &&
           im2colBytes <= maxIm2colBytes;
  }

  /// What every product on the kernel needs, Winograd's batched ones
  /// included: columns whose padding to whole panels adds at most
  /// 1/paddingShare of them (a fifth: 1000 -> 1024 and
  /// 160 -> 192 do; 96 -> 128 would compute a third more); paddingShare 0:
  /// any.
  bool fitsPanels(int64_t n) const {
    return paddingShare == 0 || (roundUp(n, kPanel) - n) * paddingShare <= n;
  }
};

/// `batch` weight matrices [k, n] (row-major float32, one after the other)
/// in the [batch, N/64, k, 64, 1] panel layout, zeros in the padding.
DenseElementsAttr packWeights(MLIRContext *ctx, DenseElementsAttr weights,
                              int64_t batch, int64_t k, int64_t n,
                              bool batched) {
  int64_t n1 = roundUp(n, kPanel) / kPanel;
  std::vector<float> packed(batch * n1 * k * kPanel, 0.0f);
  int64_t i = 0;
  for (float w : weights.getValues<float>()) {
    int64_t s = i / (k * n), row = (i / n) % k, col = i % n;
    ++i;
    packed[((s * n1 + col / kPanel) * k + row) * kPanel + col % kPanel] = w;
  }
  SmallVector<int64_t> shape = {n1, k, kPanel, 1};
  if (batched)
    shape.insert(shape.begin(), batch);
  auto type = RankedTensorType::get(shape, Float32Type::get(ctx));
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(packed.data()),
                           packed.size() * sizeof(float)));
}

/// rows [(B,) M, k] x weights [(B,) k, n] -> [(B,) M, n] as the mmt4d (or
/// batch_mmt4d) of the file comment.
Value buildProduct(OpBuilder &b, Location loc, Value rows,
                   DenseElementsAttr weights, int64_t k, int64_t n) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  auto rowsType = cast<RankedTensorType>(rows.getType());
  bool batched = rowsType.getRank() == 3;
  int64_t batch = batched ? rowsType.getDimSize(0) : 1;
  int64_t m = rowsType.getDimSize(batched ? 1 : 0);
  int64_t nPadded = roundUp(n, kPanel), n1 = nPadded / kPanel;
  auto lead = [&](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> shape(dims);
    if (batched)
      shape.insert(shape.begin(), batch);
    return shape;
  };
  // [.., M, k] as [.., M, k, 1, 1]; [.., M, N1, 1, 64] back as [.., M, N].
  int64_t d = batched ? 1 : 0;
  SmallVector<ReassociationIndices> lhsGroups, outGroups;
  for (int64_t i = 0; i < d; ++i) {
    lhsGroups.push_back({i});
    outGroups.push_back({i});
  }
  lhsGroups.push_back({d});
  lhsGroups.push_back({d + 1, d + 2, d + 3});
  outGroups.push_back({d});
  outGroups.push_back({d + 1, d + 2, d + 3});
  Value lhs = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(lead({m, k, 1, 1}), f32), rows, lhsGroups);
  Value rhs = arith::ConstantOp::create(
      b, loc, packWeights(ctx, weights, batch, k, n, batched));
  auto tiledType = RankedTensorType::get(lead({m, n1, 1, kPanel}), f32);
  Value init = buildFilled(b, loc, tiledType, scalarConstant(b, loc, f32, 0));
  Value tiled =
      batched
          ? linalg::BatchMmt4DOp::create(b, loc, TypeRange{tiledType},
                                         ValueRange{lhs, rhs}, ValueRange{init})
                .getResult(0)
          : linalg::Mmt4DOp::create(b, loc, TypeRange{tiledType},
                                    ValueRange{lhs, rhs}, ValueRange{init})
                .getResult(0);
  Value product = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get(lead({m, nPadded}), f32), tiled, outGroups);
  if (nPadded == n)
    return product;
  SmallVector<int64_t> zeros(d + 2, 0), ones(d + 2, 1);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(lead({m, n}), f32), product,
      getAsIndexOpFoldResult(ctx, zeros),
      getAsIndexOpFoldResult(ctx, lead({m, n})),
      getAsIndexOpFoldResult(ctx, ones));
}

void remarkPanels(Operation *op, int64_t batch, int64_t m, int64_t k,
                  int64_t n) {
  std::string count =
      batch > 1 ? (llvm::Twine(batch) + " products of ").str() : "";
  remarkRewrite(op->getLoc(), kPassName,
                opShortName(op) + " on the runtime's packed float32 kernel",
                count + std::to_string(m) + "x" + std::to_string(k) + " by " +
                    std::to_string(k) + "x" + std::to_string(n));
}

/// Whether the one reader of `op`'s result is an elementwise generic that
/// reads it whole and only adds and clamps (tfaot-fuse-elementwise's bias,
/// ReLU/ReLU6 and residual add): what tfaot-cpu-int8-ukernels will fuse
/// into the kernel's call once bufferized, where its exact form matches.
bool readByEpilogue(Operation *op) {
  Value result = op->getResult(0);
  if (!result.hasOneUse())
    return false;
  OpOperand &use = *result.getUses().begin();
  auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.isDpsInput(&use) ||
      !generic.getMatchingIndexingMap(&use).isIdentity())
    return false;
  return llvm::all_of(generic.getBody()->getOperations(), [](Operation &op) {
    return isa<arith::AddFOp, arith::MaximumFOp, arith::MinimumFOp,
               linalg::YieldOp>(op);
  });
}

/// Rewrites `op` if it is a product with constant weights that qualifies;
/// returns whether it did.
bool rewriteProduct(Operation *op, const Thresholds &limits) {
  std::optional<ConstantProduct> p = matchConstantProduct(op);
  if (!p)
    return false;
  auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op);
  bool copiesRows = conv && !inputIsRows(conv);
  if (p->batched
          ? !limits.fitsPanels(p->n)
          : !limits.qualify(p->m, p->k, p->n, copiesRows ? p->m * p->k * 4 : 0,
                            readByEpilogue(op)))
    return false;
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value rows = conv ? im2colRows(b, loc, conv, p->k, b.getF32Type(),
                                 [](OpBuilder &, Location, Value v) {
                                   return v;
                                 })
                    : op->getOperand(0);
  remarkPanels(op, p->batch, p->m, p->k, p->n);
  replaceProduct(b, *p, buildProduct(b, loc, rows, p->weights, p->k, p->n));
  return true;
}

struct F32PanelProductsPass
    : PassWrapper<F32PanelProductsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(F32PanelProductsPass)
  F32PanelProductsPass() = default;
  F32PanelProductsPass(const F32PanelProductsPass &other)
      : PassWrapper(other) {}

  Option<int64_t> minWeightBytes{
      *this, "min-weight-bytes", llvm::cl::init(kMinWeightBytes),
      llvm::cl::desc("Convolutions and matrix products with fewer bytes of "
                     "weights stay generated code")};
  Option<int64_t> maxResultBytes{
      *this, "max-result-bytes", llvm::cl::init(kMaxResultBytes),
      llvm::cl::desc("... and those with more bytes of result, unless "
                     "an elementwise epilogue reads it")};
  Option<int64_t> maxIm2colBytes{
      *this, "max-im2col-bytes", llvm::cl::init(kMaxIm2colBytes),
      llvm::cl::desc("... and the convolutions whose rows (im2col) would "
                     "take more bytes")};
  Option<int64_t> paddingShare{
      *this, "padding-share", llvm::cl::init(kPaddingShare),
      llvm::cl::desc("Products whose columns, padded to whole 64-column "
                     "panels, grow by more than 1/padding-share stay "
                     "generated code (0: any padding)")};

  StringRef getArgument() const override { return kPassName; }
  StringRef getDescription() const override {
    return "Float32 convolutions and matrix products with large constant "
           "weights and an epilogue the kernel applies or a small result "
           "(and Winograd's batched products) as "
           "linalg.mmt4d / batch_mmt4d with tiles 1x64x1 for the runtime's "
           "packed kernel, weights packed at compile time";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    tensor::TensorDialect>();
  }

  void runOnOperation() override {
    SmallVector<Operation *> products;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::MatmulOp,
              linalg::BatchMatmulOp>(op))
        products.push_back(op);
    });
    Thresholds limits{minWeightBytes, maxResultBytes, maxIm2colBytes,
                      paddingShare};
    for (Operation *op : products)
      rewriteProduct(op, limits);
  }
};

} // namespace

void ::tfaot::cpu::registerF32PanelProductsPass() {
  PassRegistration<F32PanelProductsPass>();
}
