//===- Int8Ukernels.cpp - int8 products to the runtime's kernels ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-cpu-int8-ukernels: the int8 products that Int8Conv2D/Int8MatMul
// and Int8DepthwiseConv2D lower to (passes/LowerInt8Contractions.cpp)
// become calls to the runtime's hand-written kernels, which pick the best
// instructions of the CPU the model runs on (vpdpbusd with AVX-512 VNNI,
// plain loops elsewhere) at run time, so one object runs on any x86-64.
// The kernels split the work among the run's threads themselves. Writing
// them by hand, as IREE does its "ukernels", is the point: LLVM does not
// form vpdpbusd from a loop nest.
//
//  - linalg.mmt4d (i8 x i8 -> i32, tiles 1x16x4) becomes
//    tfaot_rt_mmt4d_s8s8s32, or tfaot_rt_mmt4d_s8s8_fused when the
//    elementwise code reading its sums is an epilogue the kernel applies
//    itself (Int8Epilogue.h): then the sums never reach memory. A float
//    result that the next op only requantizes whole (a ResNet block's
//    output) is stored requantized too, and that op goes. A generic adding
//    two products' rescaled sums (a ResNet stage's first block) is split
//    first so that both products take an epilogue (Int8ResidualJoin.cpp).
//  - linalg.depthwise_conv_2d_nhwc_hwc (i8 x i8 -> i32) with such an
//    epilogue becomes tfaot_rt_depthwise_s8s8_fused; without one it stays
//    a loop nest.
//  - The im2col of a convolution whose rows need K padding (a 7x7x3 first
//    layer with --quantize_all_layers) becomes tfaot_rt_im2col_s8, which
//    writes the padded rows directly.
//  - The f32 x i8 -> f32 product of a weight-only MatMul (Int8WeightMatMul)
//    after its zero fill becomes tfaot_rt_matmul_f32s8.
//  - linalg.mmt4d and batch_mmt4d (f32, tiles 1x64x1) of
//    tfaot-cpu-f32-panel-products (F32PanelProducts.cpp) become
//    tfaot_rt_mmt4d_f32f32f32 (tfaot/runtime/f32_kernels.h), or, for an
//    mmt4d whose sums only a bias/residual/clamp epilogue reads,
//    tfaot_rt_mmt4d_f32_fused in the epilogue's place;
//  - linalg.mmt4d (bf16 x bf16 -> f32, tiles 1x16x2) of --precision=bf16
//    (Bf16Contractions.cpp) becomes tfaot_rt_mmt4d_bf16bf16f32
//    (tfaot/runtime/bf16_kernels.h), vdpbf16ps where the CPU has
//    AVX512-BF16; its float32 epilogue stays generated code.
// What initializes the output right before the product is folded into the
// call: a zero fill (overwrite instead of accumulate) or a broadcast row
// (the per-channel zero-point term every output starts from).
//
// Runs on bufferized code before the buffers are planned (a fused call
// reads the product's operands and writes the epilogue's result at once,
// which the plan must know) and before loops are parallelized or
// vectorized.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Int8Epilogue.h"
#include "backends/cpu/Passes.h"
#include "backends/cpu/Pipeline.h"
#include "passes/LoweringUtils.h"
#include "tfaot/runtime/bf16_kernels.h"
#include "tfaot/runtime/cpu_kernels.h"
#include "tfaot/runtime/f32_kernels.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// Whether `buffer` is a dense memref of `elementBits`-bit integers.
bool isDense(Value buffer, unsigned elementBits) {
  return ::tfaot::cpu::isDenseOf(
      buffer, IntegerType::get(buffer.getContext(), elementBits));
}

/// Whether `op`'s operands are dense int8, int8 and int32 buffers.
bool hasKernelOperands(linalg::LinalgOp op) {
  return op.hasPureBufferSemantics() &&
         isDense(op.getDpsInputOperand(0)->get(), 8) &&
         isDense(op.getDpsInputOperand(1)->get(), 8) &&
         isDense(op.getDpsInitOperand(0)->get(), 32);
}

/// Marks `call`, which replaces the contraction `product`, with the
/// floating-point operations it runs (2 per multiply-add) for the profile.
func::CallOp countFlop(func::CallOp call, linalg::LinalgOp product) {
  int64_t flop = 2;
  for (int64_t range : product.getStaticLoopRanges())
    flop *= range;
  call->setAttr(
      mlir::tfaot::kCallFlopAttr,
      IntegerAttr::get(IntegerType::get(call.getContext(), 64), flop));
  return call;
}

/// An int8 mmt4d with the kernel's tiles (M0=1, N0=16, K0=4).
bool isKernelShaped(linalg::Mmt4DOp op) {
  if (!hasKernelOperands(op))
    return false;
  auto lhsShape =
      cast<MemRefType>(op.getDpsInputOperand(0)->get().getType()).getShape();
  auto rhsShape =
      cast<MemRefType>(op.getDpsInputOperand(1)->get().getType()).getShape();
  return lhsShape[2] == 1 && lhsShape[3] == 4 && rhsShape[2] == 16 &&
         rhsShape[3] == 4;
}

/// A bf16 x bf16 -> f32 mmt4d on dense buffers with the bf16 kernel's
/// tiles (M0=1, N0=16, K0=2).
bool isBf16KernelShaped(linalg::Mmt4DOp op) {
  if (!op.hasPureBufferSemantics())
    return false;
  MLIRContext *ctx = op.getContext();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  if (!::tfaot::cpu::isDenseOf(lhs, BFloat16Type::get(ctx)) ||
      !::tfaot::cpu::isDenseOf(rhs, BFloat16Type::get(ctx)) ||
      !::tfaot::cpu::isDenseOf(op.getDpsInitOperand(0)->get(),
                               Float32Type::get(ctx)))
    return false;
  auto lhsShape = cast<MemRefType>(lhs.getType()).getShape();
  auto rhsShape = cast<MemRefType>(rhs.getType()).getShape();
  return lhsShape[2] == 1 && lhsShape[3] == 2 && rhsShape[2] == 16 &&
         rhsShape[3] == 2;
}

/// A float32 mmt4d or batch_mmt4d on dense buffers with the runtime's
/// float32 panel tiles (M0=1, N0=64, K0=1; F32PanelProducts.cpp).
bool isF32KernelShaped(linalg::LinalgOp op) {
  if (!isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(op) ||
      !op.hasPureBufferSemantics())
    return false;
  Type f32 = Float32Type::get(op.getContext());
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  if (!::tfaot::cpu::isDenseOf(lhs, f32) ||
      !::tfaot::cpu::isDenseOf(rhs, f32) ||
      !::tfaot::cpu::isDenseOf(op.getDpsInitOperand(0)->get(), f32))
    return false;
  auto lhsShape = cast<MemRefType>(lhs.getType()).getShape().take_back(2);
  auto rhsShape = cast<MemRefType>(rhs.getType()).getShape().take_back(2);
  return lhsShape[0] == 1 && lhsShape[1] == 1 && rhsShape[0] == 64 &&
         rhsShape[1] == 1;
}

/// The linalg.broadcast of dense i32 values into `op`'s output right before
/// it, over `dims` (the zero-point term of LowerInt8Contractions).
linalg::BroadcastOp rowBroadcastBefore(linalg::LinalgOp op,
                                       ArrayRef<int64_t> dims) {
  auto broadcast = dyn_cast_or_null<linalg::BroadcastOp>(op->getPrevNode());
  if (!broadcast || broadcast.getInit() != op.getDpsInitOperand(0)->get() ||
      broadcast.getDimensions() != dims || !isDense(broadcast.getInput(), 32))
    return nullptr;
  return broadcast;
}

/// The linalg.fill of zero (integer, or float +0) into `op`'s output right
/// before it.
linalg::FillOp zeroFillBefore(linalg::LinalgOp op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill ||
      fill.getDpsInitOperand(0)->get() != op.getDpsInitOperand(0)->get())
    return nullptr;
  Value value = fill.getDpsInputOperand(0)->get();
  return matchPattern(value, m_Zero()) || matchPattern(value, m_PosZeroFloat())
             ? fill
             : nullptr;
}

/// How an int8 product's output starts.
struct ProductInit {
  linalg::FillOp fill;           ///< Zero.
  linalg::BroadcastOp broadcast; ///< One value per channel.
  bool found() const { return fill || broadcast; }
  void erase() {
    if (fill)
      fill.erase();
    if (broadcast)
      broadcast.erase();
  }
};

ProductInit initBefore(linalg::LinalgOp op, ArrayRef<int64_t> dims) {
  ProductInit init;
  if (!(init.fill = zeroFillBefore(op)))
    init.broadcast = rowBroadcastBefore(op, dims);
  return init;
}

Value i64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}
Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}
Value f32(OpBuilder &b, Location loc, float v) {
  return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                        llvm::APFloat(v));
}
Value address(OpBuilder &b, Location loc, Value buffer) {
  return mlir::tfaot::bufferAddress(b, loc, buffer);
}
Value addressOrZero(OpBuilder &b, Location loc, Value buffer) {
  return buffer ? address(b, loc, buffer) : i64(b, loc, 0);
}

/// The per-channel start of `init` as an address, 0 for zero.
Value columnInit(OpBuilder &b, Location loc, ProductInit init) {
  return init.broadcast ? address(b, loc, init.broadcast.getInput())
                        : i64(b, loc, 0);
}

/// The epilogue's arguments after its result (and n), as the runtime
/// declares them: scale, bias, residual, lo, hi, int8_result, q_mul, q_zp,
/// q_lo, q_hi, row_pixels, row_stride (the matrix product's kernel takes
/// int8_copy after them).
void appendEpilogue(OpBuilder &b, Location loc,
                    const ::tfaot::cpu::Int8EpilogueMatch &e,
                    SmallVectorImpl<Value> &args) {
  args.append({address(b, loc, e.scale), addressOrZero(b, loc, e.bias),
               addressOrZero(b, loc, e.residual), f32(b, loc, e.lo),
               f32(b, loc, e.hi), i32(b, loc, e.int8Result),
               f32(b, loc, e.qMul), f32(b, loc, e.qZp), f32(b, loc, e.qLo),
               f32(b, loc, e.qHi), i64(b, loc, e.rowPixels),
               i64(b, loc, e.rowStride)});
}

/// Erases `out` if nothing but deallocs uses it any more (a fused
/// product's int32 buffer).
void eraseIfDead(Value out) {
  auto alloc = out.getDefiningOp<memref::AllocOp>();
  if (!alloc || !llvm::all_of(alloc->getUsers(), [](Operation *user) {
        return isa<memref::DeallocOp>(user);
      }))
    return;
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    user->erase();
  alloc.erase();
}

/// Removes the epilogue's generic and the views only it used.
void eraseEpilogue(::tfaot::cpu::Int8EpilogueMatch &e) {
  if (e.copyGeneric)
    e.copyGeneric.erase();
  e.generic.erase();
  for (Operation *view : llvm::reverse(e.views))
    if (view->use_empty())
      view->erase();
}

/// The private declaration of runtime function `name`, added once.
func::FuncOp declare(ModuleOp module, StringRef name, TypeRange arguments) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(top, module.getLoc(), name,
                                   top.getFunctionType(arguments, {}));
  decl.setPrivate();
  return decl;
}

/// The types of appendEpilogue's arguments.
SmallVector<Type> epilogueTypes(Builder &b) {
  Type i64 = b.getI64Type(), i32 = b.getI32Type(), f32 = b.getF32Type();
  return {i64, i64, i64, f32, f32, i32, f32, f32, f32, f32, i64, i64};
}

/// The value of the constant global `buffer` reads, if it is one.
DenseElementsAttr constantValue(Value buffer, SymbolTable &symbols) {
  auto read = buffer.getDefiningOp<memref::GetGlobalOp>();
  if (!read)
    return nullptr;
  auto global = symbols.lookup<memref::GlobalOp>(read.getName());
  if (!global || !global.getConstant())
    return nullptr;
  return dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
}

/// What the VNNI kernels start each column from (kMmt4dBiasedColumnInit)
/// when the packed weights `rhs` ([N1, K1, 16, 4]) and the product's init
/// are constants: the init's row (or zero) minus 128 times the column's
/// sum of the weights, in wrapping int32 arithmetic as the runtime would
/// compute it, as a new constant global read before `b`'s point. Null
/// when either is not a constant.
Value biasedColumnInit(OpBuilder &b, Location loc, SymbolTable &symbols,
                       Value rhs, ProductInit init) {
  DenseElementsAttr weights = constantValue(rhs, symbols);
  if (!weights || !weights.getElementType().isInteger(8))
    return nullptr;
  auto shape = cast<MemRefType>(rhs.getType()).getShape();
  const int64_t n1 = shape[0], k1 = shape[1], n0 = shape[2], k0 = shape[3];
  SmallVector<uint32_t> row(n1 * n0, 0);
  if (init.broadcast) {
    DenseElementsAttr start =
        constantValue(init.broadcast.getInput(), symbols);
    if (!start || start.getNumElements() != n1 * n0)
      return nullptr;
    llvm::copy(start.getValues<int32_t>(), row.begin());
  }
  auto values = weights.getValues<int8_t>();
  auto at = values.begin();
  for (int64_t t = 0; t < n1; ++t)
    for (int64_t g = 0; g < k1; ++g)
      for (int64_t j = 0; j < n0; ++j)
        for (int64_t q = 0; q < k0; ++q, ++at)
          row[t * n0 + j] -= 128u * static_cast<uint32_t>(int32_t{*at});
  SmallVector<int32_t> starts(row.begin(), row.end());
  auto type = MemRefType::get({n1, n0}, b.getI32Type());
  auto tensorType = RankedTensorType::get({n1, n0}, b.getI32Type());
  auto top = OpBuilder::atBlockBegin(
      &symbols.getOp()->getRegion(0).front());
  auto global = memref::GlobalOp::create(
      top, loc, "__tfaot_vnni_column_init", top.getStringAttr("private"), type,
      DenseElementsAttr::get(tensorType, ArrayRef<int32_t>(starts)),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  symbols.insert(global); // Renamed uniquely.
  return memref::GetGlobalOp::create(b, loc, type, global.getSymName());
}

void rewriteMmt4d(ModuleOp module, SymbolTable &symbols,
                  linalg::Mmt4DOp op) {
  Value out = op.getDpsInitOperand(0)->get();
  ProductInit init = initBefore(op, {0, 2});
  std::optional<::tfaot::cpu::Int8EpilogueMatch> epilogue;
  if (init.found())
    epilogue = ::tfaot::cpu::matchInt8Epilogue(op);
  if (epilogue)
    ::tfaot::cpu::addInt8Copy(op, *epilogue);
  // The fused call takes the place of the generic (of the last, with an
  // int8 copy) whose result it writes, the plain one the product's.
  OpBuilder b(!epilogue                ? op.getOperation()
              : epilogue->copyGeneric ? epilogue->copyGeneric.getOperation()
                                      : epilogue->generic.getOperation());
  Location loc = op.getLoc();
  int32_t flags = init.fill        ? kMmt4dOverwrite
                  : init.broadcast ? kMmt4dColumnInit
                                   : 0;
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value columnStart = init.broadcast ? init.broadcast.getInput() : nullptr;
  if (init.found())
    if (Value biased = biasedColumnInit(b, loc, symbols, rhs, init)) {
      columnStart = biased;
      flags = kMmt4dColumnInit | kMmt4dBiasedColumnInit;
    }
  auto lhsShape = cast<MemRefType>(lhs.getType()).getShape();
  auto rhsShape = cast<MemRefType>(rhs.getType()).getShape();
  Type i64Type = b.getI64Type(), i32Type = b.getI32Type();
  SmallVector<Value> args = {address(b, loc, lhs), address(b, loc, rhs)};
  if (epilogue) {
    // (lhs, rhs, m, n1, k1, flags, column_init, out, n, epilogue...)
    args.append({i64(b, loc, lhsShape[0]), i64(b, loc, rhsShape[0]),
                 i64(b, loc, lhsShape[1]), i32(b, loc, flags),
                 addressOrZero(b, loc, columnStart),
                 address(b, loc, epilogue->result),
                 i64(b, loc, epilogue->n)});
    appendEpilogue(b, loc, *epilogue, args);
    args.append({addressOrZero(b, loc, epilogue->int8Copy),
                 addressOrZero(b, loc, epilogue->residualInt8),
                 f32(b, loc, epilogue->residualScale),
                 f32(b, loc, epilogue->residualZp)});
    SmallVector<Type> types = {i64Type, i64Type, i64Type, i64Type, i64Type,
                               i32Type, i64Type, i64Type, i64Type};
    types.append(epilogueTypes(b));
    // int8_copy, residual_int8, residual_scale, residual_zp
    types.append({i64Type, i64Type, b.getF32Type(), b.getF32Type()});
    countFlop(
        func::CallOp::create(
            b, loc, declare(module, tfaot_rt::kMmt4dS8S8Fused, types), args),
        op);
    eraseEpilogue(*epilogue);
  } else {
    // (lhs, rhs, out, m, n1, k1, flags, column_init)
    args.append({address(b, loc, out), i64(b, loc, lhsShape[0]),
                 i64(b, loc, rhsShape[0]), i64(b, loc, lhsShape[1]),
                 i32(b, loc, flags), addressOrZero(b, loc, columnStart)});
    countFlop(
        func::CallOp::create(b, loc,
                             declare(module, tfaot_rt::kMmt4dS8S8S32,
                                     {i64Type, i64Type, i64Type, i64Type,
                                      i64Type, i64Type, i32Type, i64Type}),
                             args),
        op);
  }
  init.erase();
  op.erase();
  eraseIfDead(out);
}

/// The call of a floating-point kernel for `op`, a linalg.mmt4d (or
/// batch_mmt4d) that sums into float32: `kernel` (lhs, rhs, out, [batch,]
/// m, n1, k1, flags), the batch only where `takesBatch`. The kernel
/// overwrites out after a zero fill (folded into the call, flags =
/// `overwrite`) and adds to it otherwise:
///  - tfaot_rt_mmt4d_bf16bf16f32 (bf16 tiles 1x16x2, no batch);
///  - tfaot_rt_mmt4d_f32f32f32 (float32 tiles 1x64x1, mmt4d as a batch of
///    one or batch_mmt4d).
void rewriteFloatMmt4d(ModuleOp module, linalg::LinalgOp op, StringRef kernel,
                       bool takesBatch, int32_t overwrite) {
  Value out = op.getDpsInitOperand(0)->get();
  linalg::FillOp fill = zeroFillBefore(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  // [(batch,) m, k1, 1, k0] and [(batch,) n1, k1, n0, k0].
  auto lhsShape = cast<MemRefType>(lhs.getType()).getShape();
  auto rhsShape = cast<MemRefType>(rhs.getType()).getShape();
  size_t d = lhsShape.size() == 5 ? 1 : 0;
  Type i64Type = b.getI64Type(), i32Type = b.getI32Type();
  SmallVector<Value> args = {address(b, loc, lhs), address(b, loc, rhs),
                             address(b, loc, out)};
  if (takesBatch)
    args.push_back(i64(b, loc, d ? lhsShape[0] : 1));
  args.append({i64(b, loc, lhsShape[d]), i64(b, loc, rhsShape[d]),
               i64(b, loc, lhsShape[d + 1]),
               i32(b, loc, fill ? overwrite : 0)});
  SmallVector<Type> types(args.size() - 1, i64Type);
  types.push_back(i32Type);
  countFlop(
      func::CallOp::create(b, loc, declare(module, kernel, types), args), op);
  if (fill)
    fill.erase();
  op->erase();
}

/// A float32 mmt4d on the panel kernel's tiles after a zero fill whose
/// sums only an epilogue the kernel applies itself reads (bias, residual,
/// clamp: Int8Epilogue.h): one call of tfaot_rt_mmt4d_f32_fused in the
/// epilogue's place, so the sums never reach memory. Returns false,
/// changing nothing, where the epilogue is anything else.
bool rewriteFusedF32Mmt4d(ModuleOp module, linalg::Mmt4DOp op) {
  linalg::FillOp fill = zeroFillBefore(op);
  if (!fill)
    return false;
  std::optional<::tfaot::cpu::Int8EpilogueMatch> epilogue =
      ::tfaot::cpu::matchInt8Epilogue(op);
  if (!epilogue || epilogue->int8Result || epilogue->residualInt8)
    return false;
  Value out = op.getDpsInitOperand(0)->get();
  OpBuilder b(epilogue->generic);
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  // [m, k, 1, 1] and [n1, k, 64, 1].
  auto lhsShape = cast<MemRefType>(lhs.getType()).getShape();
  auto rhsShape = cast<MemRefType>(rhs.getType()).getShape();
  // (lhs, rhs, m, n1, k, out, n, bias, residual, lo, hi, row_pixels,
  //  row_stride)
  SmallVector<Value> args = {address(b, loc, lhs),
                             address(b, loc, rhs),
                             i64(b, loc, lhsShape[0]),
                             i64(b, loc, rhsShape[0]),
                             i64(b, loc, lhsShape[1]),
                             address(b, loc, epilogue->result),
                             i64(b, loc, epilogue->n),
                             addressOrZero(b, loc, epilogue->bias),
                             addressOrZero(b, loc, epilogue->residual),
                             f32(b, loc, epilogue->lo),
                             f32(b, loc, epilogue->hi),
                             i64(b, loc, epilogue->rowPixels),
                             i64(b, loc, epilogue->rowStride)};
  SmallVector<Type> types(9, b.getI64Type());
  types.append(
      {b.getF32Type(), b.getF32Type(), b.getI64Type(), b.getI64Type()});
  countFlop(func::CallOp::create(
                b, loc, declare(module, tfaot_rt::kMmt4dF32Fused, types), args),
            op);
  eraseEpilogue(*epilogue);
  fill.erase();
  op.erase();
  eraseIfDead(out);
  return true;
}

void rewriteDepthwise(ModuleOp module, linalg::DepthwiseConv2DNhwcHwcOp op) {
  ProductInit init = initBefore(op, {0, 1, 2});
  if (!init.found())
    return;
  std::optional<::tfaot::cpu::Int8EpilogueMatch> epilogue =
      ::tfaot::cpu::matchInt8Epilogue(op);
  // The depthwise kernel's entry point takes no int8 residual: no network
  // adds a shortcut right after a depthwise convolution.
  if (!epilogue || epilogue->residualInt8)
    return;
  Value out = op.getDpsInitOperand(0)->get();
  OpBuilder b(epilogue->generic);
  Location loc = op.getLoc();
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  auto in = cast<MemRefType>(input.getType()).getShape();
  auto window = cast<MemRefType>(filter.getType()).getShape();
  auto result = cast<MemRefType>(out.getType()).getShape();
  auto strides = llvm::to_vector(op.getStrides().getValues<int64_t>());
  auto dilations = llvm::to_vector(op.getDilations().getValues<int64_t>());
  // (input, filter, column_init, n, h, w, c, kh, kw, sh, sw, dh, dw, ho, wo,
  //  out, epilogue...)
  SmallVector<Value> args = {address(b, loc, input), address(b, loc, filter),
                             columnInit(b, loc, init)};
  for (int64_t v : {in[0], in[1], in[2], in[3], window[0], window[1],
                    strides[0], strides[1], dilations[0], dilations[1],
                    result[1], result[2]})
    args.push_back(i64(b, loc, v));
  args.push_back(address(b, loc, epilogue->result));
  appendEpilogue(b, loc, *epilogue, args);
  SmallVector<Type> types(16, b.getI64Type());
  types.append(epilogueTypes(b));
  func::CallOp::create(
      b, loc, declare(module, tfaot_rt::kDepthwiseS8S8Fused, types), args);
  eraseEpilogue(*epilogue);
  init.erase();
  op.erase();
  eraseIfDead(out);
}

/// Whether `op` is the product tfaot-lower-int8-contractions makes of an
/// Int8WeightMatMul, on dense buffers: out[m][n] += a[m][k] * float(b[k][n])
/// as a generic over (m, n, k) whose body is sitofp, mulf and addf.
bool isWeightOnlyProduct(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != 3)
    return false;
  MLIRContext *ctx = op.getContext();
  if (op.getIndexingMapsArray() != mlir::tfaot::matrixProductMaps(ctx) ||
      op.getIteratorTypesArray() != mlir::tfaot::matrixProductIterators())
    return false;
  Type f32 = Float32Type::get(ctx);
  if (!::tfaot::cpu::isDenseOf(op.getDpsInputOperand(0)->get(), f32) ||
      !isDense(op.getDpsInputOperand(1)->get(), 8) ||
      !::tfaot::cpu::isDenseOf(op.getDpsInitOperand(0)->get(), f32))
    return false;
  // sitofp(b), a * that, acc + that, yield.
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 4)
    return false;
  auto toFloat = dyn_cast<arith::SIToFPOp>(body.front());
  auto mul = dyn_cast<arith::MulFOp>(toFloat ? toFloat->getNextNode() : nullptr);
  auto add = dyn_cast<arith::AddFOp>(mul ? mul->getNextNode() : nullptr);
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  auto isArg = [&](Value v, unsigned i) { return v == body.getArgument(i); };
  auto either = [](Operation *op, auto first, auto second) {
    return (first(op->getOperand(0)) && second(op->getOperand(1))) ||
           (first(op->getOperand(1)) && second(op->getOperand(0)));
  };
  return toFloat && mul && add && yield &&
         isArg(toFloat.getIn(), 1) &&
         either(
             mul, [&](Value v) { return isArg(v, 0); },
             [&](Value v) { return v == toFloat.getResult(); }) &&
         either(
             add, [&](Value v) { return isArg(v, 2); },
             [&](Value v) { return v == mul.getResult(); }) &&
         yield->getOperand(0) == add.getResult();
}

/// A weight-only product right after the zero fill of its output becomes
/// tfaot_rt_matmul_f32s8 (a, b, out, m, n, k), which overwrites out.
void rewriteWeightOnly(ModuleOp module, linalg::GenericOp op) {
  linalg::FillOp fill = zeroFillBefore(op);
  if (!fill)
    return;
  Value out = op.getDpsInitOperand(0)->get();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value a = op.getDpsInputOperand(0)->get();
  Value w = op.getDpsInputOperand(1)->get();
  auto aShape = cast<MemRefType>(a.getType()).getShape();
  auto wShape = cast<MemRefType>(w.getType()).getShape();
  Type i64Type = b.getI64Type();
  func::CallOp::create(
      b, loc,
      declare(module, tfaot_rt::kMatmulF32S8, SmallVector<Type>(6, i64Type)),
      ValueRange{address(b, loc, a), address(b, loc, w), address(b, loc, out),
                 i64(b, loc, aShape[0]), i64(b, loc, wShape[1]),
                 i64(b, loc, aShape[1])});
  fill.erase();
  op.erase();
}

/// The generated im2col of an int8 convolution whose rows need K padding
/// (K = kh * kw * c not a multiple of 4: a 7x7x3 first layer): the window
/// gather G into an unpadded [n, oh, ow, kh, kw, c] buffer, and a copy of
/// that, as [M, K], into the first K columns of the zero-filled [M, Kp]
/// operand. `copy` is that copy; if the rest matches, all of it becomes
/// tfaot_rt_im2col_s8, which writes the padded rows (zeros included)
/// directly.
void rewritePaddedIm2col(ModuleOp module, memref::CopyOp copy) {
  auto collapse = copy.getSource().getDefiningOp<memref::CollapseShapeOp>();
  auto slice = copy.getTarget().getDefiningOp<memref::SubViewOp>();
  if (!collapse || !slice || !collapse->hasOneUse() || !slice->hasOneUse())
    return;
  Value windows = collapse.getSrc();
  Value rows = slice.getSource();
  auto windowsType = cast<MemRefType>(windows.getType());
  auto rowsType = cast<MemRefType>(rows.getType());
  if (windowsType.getRank() != 6 || rowsType.getRank() != 2 ||
      !isDense(windows, 8) || !isDense(rows, 8) || !slice.hasZeroOffset() ||
      !slice.hasUnitStride() ||
      collapse.getResultType().getShape() != slice.getType().getShape())
    return;
  ArrayRef<int64_t> shape = windowsType.getShape(); // n, oh, ow, kh, kw, c
  const int64_t k = shape[3] * shape[4] * shape[5];
  if (rowsType.getDimSize(0) != shape[0] * shape[1] * shape[2] ||
      slice.getType().getDimSize(1) != k)
    return;
  // The gather: the only other user of the windows' buffer, an identity
  // body over (b, y, x, i, j, ch) reading input[b][y*sh + i*dh][x*sw +
  // j*dw][ch] of a dense NHWC int8 input.
  auto alloc = windows.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return;
  linalg::GenericOp gather;
  for (Operation *user : alloc->getUsers()) {
    if (user == collapse.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (gather || !generic)
      return;
    gather = generic;
  }
  if (!gather || gather.getNumDpsInputs() != 1 ||
      gather.getNumDpsInits() != 1 || gather.getDpsInitOperand(0)->get() != windows ||
      gather.getNumParallelLoops() != 6 || gather.getNumLoops() != 6 ||
      !gather.getMatchingIndexingMap(gather.getDpsInitOperand(0)).isIdentity())
    return;
  Block &body = gather.getRegion().front();
  if (body.getOperations().size() != 1 ||
      body.getTerminator()->getOperand(0) != body.getArgument(0))
    return;
  Value input = gather.getDpsInputOperand(0)->get();
  auto inputType = cast<MemRefType>(input.getType());
  if (!isDense(input, 8) || inputType.getRank() != 4 ||
      inputType.getDimSize(0) != shape[0] ||
      inputType.getDimSize(3) != shape[5])
    return;
  // The map's coefficients, read off at unit vectors, and checked on a
  // point that mixes them all (an affine map with offsets or other terms
  // fails it).
  AffineMap map = gather.getMatchingIndexingMap(gather.getDpsInputOperand(0));
  auto at = [&](ArrayRef<int64_t> point) { return map.compose(point); };
  if (map.getNumResults() != 4 || at({0, 0, 0, 0, 0, 0}) !=
                                      SmallVector<int64_t>{0, 0, 0, 0})
    return;
  const int64_t sh = at({0, 1, 0, 0, 0, 0})[1], dh = at({0, 0, 0, 1, 0, 0})[1];
  const int64_t sw = at({0, 0, 1, 0, 0, 0})[2], dw = at({0, 0, 0, 0, 1, 0})[2];
  if (at({1, 3, 5, 2, 4, 1}) !=
      SmallVector<int64_t>{1, 3 * sh + 2 * dh, 5 * sw + 4 * dw, 1})
    return;
  // The zero fill of the padded rows, whole, right before the copy's view.
  Operation *fill = nullptr;
  for (Operation *user : rows.getUsers()) {
    if (user == slice.getOperation() || isa<memref::DeallocOp>(user) ||
        !user->isBeforeInBlock(copy))
      continue;
    Value value = mlir::tfaot::filledValue(user);
    if (mlir::tfaot::filledBuffer(user) != rows || fill || !value ||
        !matchPattern(value, m_Zero()))
      return;
    fill = user;
  }
  if (!fill || !gather->isBeforeInBlock(fill))
    return;
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  SmallVector<Value> args = {address(b, loc, input), address(b, loc, rows)};
  for (int64_t v : {inputType.getDimSize(0), inputType.getDimSize(1),
                    inputType.getDimSize(2), inputType.getDimSize(3),
                    shape[3], shape[4], sh, sw, dh, dw, shape[1], shape[2],
                    rowsType.getDimSize(1)})
    args.push_back(i64(b, loc, v));
  func::CallOp::create(
      b, loc,
      declare(module, tfaot_rt::kIm2colS8,
              SmallVector<Type>(15, b.getI64Type())),
      args);
  copy.erase();
  slice.erase();
  collapse.erase();
  fill->erase();
  gather.erase();
  eraseIfDead(alloc.getResult());
}

struct Int8UkernelsPass
    : PassWrapper<Int8UkernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(Int8UkernelsPass)
  StringRef getArgument() const override { return "tfaot-cpu-int8-ukernels"; }
  StringRef getDescription() const override {
    return "Replace int8 linalg.mmt4d (tiles 1x16x4), depthwise "
           "convolutions with their epilogues, float x int8 weight "
           "products, bf16 linalg.mmt4d (tiles 1x16x2) and float32 "
           "linalg.mmt4d / batch_mmt4d (tiles 1x64x1) by calls to the "
           "runtime's kernels";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    ::tfaot::cpu::splitJoinsOfTwoProducts(module);
    SmallVector<Operation *> products;
    module.walk([&](Operation *op) {
      if (auto mmt4d = dyn_cast<linalg::Mmt4DOp>(op)) {
        if (isKernelShaped(mmt4d) || isBf16KernelShaped(mmt4d) ||
            isF32KernelShaped(mmt4d))
          products.push_back(op);
      } else if (auto batch = dyn_cast<linalg::BatchMmt4DOp>(op)) {
        if (isF32KernelShaped(batch))
          products.push_back(op);
      } else if (auto depthwise =
                     dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(op)) {
        if (hasKernelOperands(depthwise))
          products.push_back(op);
      } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
        if (isWeightOnlyProduct(generic))
          products.push_back(op);
      }
    });
    SmallVector<memref::CopyOp> copies;
    module.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies)
      rewritePaddedIm2col(module, copy);
    // In program order: a fused product's erased generic may be what a
    // later product's matcher would otherwise look at.
    for (Operation *op : products) {
      auto mmt4d = dyn_cast<linalg::Mmt4DOp>(op);
      if (isF32KernelShaped(cast<linalg::LinalgOp>(op))) {
        if (!mmt4d || !rewriteFusedF32Mmt4d(module, mmt4d))
          rewriteFloatMmt4d(module, cast<linalg::LinalgOp>(op),
                            tfaot_rt::kMmt4dF32, /*takesBatch=*/true,
                            kF32Mmt4dOverwrite);
      } else if (mmt4d)
        isBf16KernelShaped(mmt4d)
            ? rewriteFloatMmt4d(module, mmt4d, tfaot_rt::kMmt4dBf16,
                                /*takesBatch=*/false, kBf16Mmt4dOverwrite)
            : rewriteMmt4d(module, symbols, mmt4d);
      else if (auto generic = dyn_cast<linalg::GenericOp>(op))
        rewriteWeightOnly(module, generic);
      else
        rewriteDepthwise(module,
                         cast<linalg::DepthwiseConv2DNhwcHwcOp>(op));
    }
  }
};

} // namespace

void ::tfaot::cpu::registerInt8UkernelPass() {
  PassRegistration<Int8UkernelsPass>();
}
