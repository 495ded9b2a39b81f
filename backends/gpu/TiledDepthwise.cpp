//===- TiledDepthwise.cpp - Depthwise kernels over shared-memory tiles ----===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-tiled-depthwise runs on buffers, first in the kernel mapping
// (--gpu_depthwise=tiled, the default). tfaot-gpu-direct-depthwise made
// each depthwise convolution one generic over its output, one GPU thread
// per output element: every thread reads its whole window (9 taps for
// 3x3) from global memory, so each input element is read up to 9 times
// (through L1/L2 at best), and neighbouring threads repeat the index
// arithmetic of the same taps.
//
// Here such a generic (marked with its window, kDepthwiseWindowAttr)
// becomes a gpu.launch of its own. A block owns a tile of TH x TW outputs
// of one image and a block of CB channels. Phase 1: its threads copy the
// input the tile's windows cover (the halo and the stride included) into
// workgroup memory, consecutive threads taking consecutive channels, so a
// warp reads a row of the tile in one coalesced access (NHWC: channels are
// innermost); positions in the padding get a zero, which the body replaces
// by the pad's value as before. A gpu.barrier. Phase 2: each thread
// computes V adjacent outputs of one row and one channel: the generic's
// body, cloned once per output, its input reads turned into reads of the
// tile, its accumulator in a register, the fused epilogue applied and the
// result stored. The body is the generic's own, so the taps are summed in
// the same order with the same widenings and roundings (the 16-bit
// builds' extf/truncf included): the CPU, --gpu_emulate and the GPU agree
// as with the direct kernel. The V copies read overlapping windows of the
// tile at the same addresses, which LLVM loads once (no store between).
//
// The tile's sizes, and when the direct kernel stays, are chosen by
// chooseDepthwiseKernel (DepthwiseKernel.cpp), which `tfaot explain` runs
// too (report-only: remarks, the IR untouched).
// Sizes that are not multiples of the tile (7, 14) leave threads without
// an output, which skip the body (no read of the epilogue's operands
// outside them).
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/DepthwiseKernel.h"
#include "backends/gpu/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_TILEDDEPTHWISEPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using ::tfaot::gpu::chooseDepthwiseKernel;
using ::tfaot::gpu::DepthwiseConvShape;
using ::tfaot::gpu::DepthwiseKernel;

namespace {

/// A marked depthwise generic and how it is tiled.
struct Plan {
  linalg::GenericOp op;
  int64_t batch = 0, outH = 0, outW = 0, channels = 0;
  int64_t height = 0, width = 0;  ///< The unpadded input's.
  int64_t taps[2] = {0, 0}, strides[2] = {1, 1}, dilations[2] = {1, 1};
  int64_t low[2] = {0, 0};
  DepthwiseKernel kernel;  ///< Its blocks and tile.
  Value source;  ///< The unpadded input buffer the body loads.
  Type element;  ///< Its element type, the tile's.
};

/// `attr`'s field `name` as `n` integers, or false.
bool readField(DictionaryAttr attr, StringRef name, int64_t *out, size_t n) {
  auto field = attr.getAs<DenseI64ArrayAttr>(name);
  if (!field || field.size() != static_cast<int64_t>(n))
    return false;
  llvm::copy(field.asArrayRef(), out);
  return true;
}

/// Whether `load` reads the convolution's input: a 4-d buffer from outside
/// the body, of the input's shape, at the generic's channel (index 3).
bool readsInput(memref::LoadOp load, linalg::GenericOp op, const Plan &plan) {
  auto type = load.getMemRefType();
  if (op->isAncestor(load.getMemRef().getParentRegion()->getParentOp()) ||
      type.getShape() != ArrayRef<int64_t>{plan.batch, plan.height,
                                           plan.width, plan.channels})
    return false;
  auto index = load.getIndices()[3].getDefiningOp<linalg::IndexOp>();
  return index && index.getDim() == 3;
}

/// The plan for `op`, or why it keeps the direct kernel; `tiledFlag` is
/// --gpu_depthwise=tiled.
FailureOr<Plan> planFor(linalg::GenericOp op, bool tiledFlag,
                        std::string &why) {
  // --gpu_depthwise=direct keeps every one direct, whatever its shape.
  if (!tiledFlag) {
    why = chooseDepthwiseKernel(DepthwiseConvShape(), tiledFlag).directBecause;
    return failure();
  }
  Plan plan;
  plan.op = op;
  auto window = op->getAttrOfType<DictionaryAttr>(
      mlir::tfaot::kDepthwiseWindowAttr);
  int64_t input[4];
  if (!readField(window, "input", input, 4) ||
      !readField(window, "taps", plan.taps, 2) ||
      !readField(window, "strides", plan.strides, 2) ||
      !readField(window, "dilations", plan.dilations, 2) ||
      !readField(window, "low", plan.low, 2)) {
    why = "malformed window attribute";
    return failure();
  }
  plan.height = input[1];
  plan.width = input[2];
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 5 || !op.getIndexingMapsArray().back().isIdentity()) {
    why = "not a 5-d generic on buffers with one identity output";
    return failure();
  }
  auto outType = cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!outType.hasStaticShape() || outType.getDimSize(4) != 1) {
    why = "a channel multiplier other than 1";
    return failure();
  }
  plan.batch = outType.getDimSize(0);
  plan.outH = outType.getDimSize(1);
  plan.outW = outType.getDimSize(2);
  plan.channels = outType.getDimSize(3);
  if (input[0] != plan.batch || input[3] != plan.channels) {
    why = "input and output disagree on N or C";
    return failure();
  }
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr expr : map.getResults())
      if (!isa<AffineDimExpr>(expr) &&
          !(isa<AffineConstantExpr>(expr) &&
            cast<AffineConstantExpr>(expr).getValue() == 0)) {
        why = "an operand read other than by the loop indices";
        return failure();
      }
  // Every read of the input buffer must be one the tile can serve.
  WalkResult walk = op.getBody()->walk([&](memref::LoadOp load) {
    if (!readsInput(load, op, plan))
      return WalkResult::advance();
    if (plan.source && plan.source != load.getMemRef())
      return WalkResult::interrupt();
    plan.source = load.getMemRef();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !plan.source) {
    why = "its input reads not found in the body";
    return failure();
  }
  // Threads past the output's edge run the body too (computeOutputs): any
  // other read must be per channel (the weights), never per position.
  WalkResult other = op.getBody()->walk([&](memref::LoadOp load) {
    if (load.getMemRef() == plan.source)
      return WalkResult::advance();
    for (Value index : load.getIndices()) {
      auto loop = index.getDefiningOp<linalg::IndexOp>();
      if (!matchPattern(index, m_Constant()) &&
          !(loop && loop.getDim() >= 3))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (other.wasInterrupted()) {
    why = "a read in its body other than of its input and per channel";
    return failure();
  }
  plan.element = cast<MemRefType>(plan.source.getType()).getElementType();
  DepthwiseConvShape shape;
  shape.batch = plan.batch;
  shape.channels = plan.channels;
  llvm::copy(plan.taps, shape.taps);
  llvm::copy(plan.strides, shape.strides);
  llvm::copy(plan.dilations, shape.dilations);
  shape.elementBits = plan.element.getIntOrFloatBitWidth();
  plan.kernel = chooseDepthwiseKernel(shape, tiledFlag);
  if (!plan.kernel.tiled()) {
    why = plan.kernel.directBecause;
    return failure();
  }
  return plan;
}

/// Builds index arithmetic at one insertion point.
struct Index {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) { return arith::MulIOp::create(b, loc, x, c(y)); }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
};

/// Where a block's tile starts and whose it is.
struct BlockOrigin {
  Value image, channel0;  ///< n, and the block's first channel.
  Value outRow0, outCol0; ///< Its first output row and column.
  Value inRow0, inCol0;   ///< Input coordinates of the tile's (0, 0).
};

BlockOrigin blockOrigin(Index &ix, const Plan &plan, gpu::LaunchOp launch) {
  const DepthwiseKernel &k = plan.kernel;
  BlockOrigin o;
  int64_t channelBlocks = plan.channels / k.channelBlock;
  Value z = launch.getBlockIds().z;
  o.image = ix.div(z, channelBlocks);
  o.channel0 = ix.mul(ix.rem(z, channelBlocks), k.channelBlock);
  o.outRow0 = ix.mul(launch.getBlockIds().y, k.tileRows);
  o.outCol0 = ix.mul(launch.getBlockIds().x, k.tileCols);
  o.inRow0 = ix.sub(ix.mul(o.outRow0, plan.strides[0]), ix.c(plan.low[0]));
  o.inCol0 = ix.sub(ix.mul(o.outCol0, plan.strides[1]), ix.c(plan.low[1]));
  return o;
}

/// Phase 1: the block's threads copy the tile, element i of the tile (in
/// row, column, channel order) by thread i mod the block's threads.
void stageTile(OpBuilder &b, Location loc, const Plan &plan,
               gpu::LaunchOp launch, Value tile) {
  const DepthwiseKernel &k = plan.kernel;
  Index ix{b, loc};
  BlockOrigin o = blockOrigin(ix, plan, launch);
  gpu::KernelDim3 t = launch.getThreadIds();
  int64_t across = k.tileCols / k.perThread;
  int64_t threads = k.threads();
  Value linear = ix.add(
      t.x, ix.mul(ix.add(t.y, ix.mul(t.z, across)), k.channelBlock));
  int64_t elements = k.inputRows * k.inputCols * k.channelBlock;
  auto loop = scf::ForOp::create(b, loc, linear, ix.c(elements), ix.c(threads));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  Value lane = ix.rem(i, k.channelBlock);
  Value position = ix.div(i, k.channelBlock);
  Value col = ix.rem(position, k.inputCols);
  Value row = ix.div(position, k.inputCols);
  Value ih = ix.add(o.inRow0, row), iw = ix.add(o.inCol0, col);
  Value zero = ix.c(0);
  Value inside = ix.both(
      ix.both(ix.lt(ih, ix.c(plan.height)), ix.lt(iw, ix.c(plan.width))),
      ix.both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, ih,
                                    zero),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, iw,
                                    zero)));
  // Read at the nearest position inside, then choose: no branch, whose
  // 16-bit value would reach the store through a phi, which the emulation's
  // x86 code promotes to f32 and truncates back through a libcall
  // (__truncsfbf2) not every C runtime has. The GPU's clamped reads at the
  // border hit the lines the block reads anyway.
  auto clamp = [&](Value at, int64_t size) -> Value {
    Value low = arith::MaxSIOp::create(b, loc, at, zero);
    return arith::MinSIOp::create(b, loc, low, ix.c(size - 1));
  };
  Value x = memref::LoadOp::create(
      b, loc, plan.source,
      ValueRange{o.image, clamp(ih, plan.height), clamp(iw, plan.width),
                 ix.add(o.channel0, lane)});
  Value padding = arith::ConstantOp::create(b, loc, plan.element,
                                            b.getZeroAttr(plan.element));
  Value staged = arith::SelectOp::create(b, loc, inside, x, padding);
  memref::StoreOp::create(b, loc, staged, tile, ValueRange{row, col, lane});
  b.setInsertionPointAfter(loop);
}

/// The input coordinate a load of the body reads along one axis, before
/// the body's clamping: the direct kernel selects 0 for a tap in the
/// padding (and the pad's value for what it reads there); the tile holds
/// the padding too, so the unclamped coordinate is inside it.
Value unclamped(Value coordinate) {
  if (auto select = coordinate.getDefiningOp<arith::SelectOp>())
    if (matchPattern(select.getFalseValue(), m_Zero()))
      return select.getTrueValue();
  return coordinate;
}

/// Phase 2: the thread's outputs, the body cloned for each.
void computeOutputs(OpBuilder &b, Location loc, const Plan &plan,
                    gpu::LaunchOp launch, Value tile) {
  const DepthwiseKernel &k = plan.kernel;
  Index ix{b, loc};
  BlockOrigin o = blockOrigin(ix, plan, launch);
  gpu::KernelDim3 t = launch.getThreadIds();
  linalg::GenericOp op = plan.op;
  Value channel = ix.add(o.channel0, t.x);
  Value oh = ix.add(o.outRow0, t.z);
  Value firstCol = ix.add(o.outCol0, ix.mul(t.y, k.perThread));
  Value rowInside = ix.lt(oh, ix.c(plan.outH));
  // Threads past the output's edge (sizes not multiples of the tile)
  // compute too, reading the tile (which their windows stay inside) and
  // the operands at the last row or column, and store nothing: the V
  // bodies stay one straight line, whose reads of the same tile element
  // LLVM merges.
  Value lastRow = ix.c(plan.outH - 1), lastCol = ix.c(plan.outW - 1);
  Value ohRead = arith::MinUIOp::create(b, loc, oh, lastRow);
  for (int64_t v = 0; v < k.perThread; ++v) {
    Value ow = ix.add(firstCol, ix.c(v));
    Value loops[5] = {o.image, oh, ow, channel, ix.c(0)};
    Value readAt[5] = {o.image, ohRead,
                       arith::MinUIOp::create(b, loc, ow, lastCol), channel,
                       loops[4]};
    IRMapping mapping;
    // The operands' elements at this output, by their indexing maps.
    auto at = [&](AffineMap map) {
      SmallVector<Value> indices;
      for (AffineExpr expr : map.getResults())
        indices.push_back(isa<AffineDimExpr>(expr)
                              ? readAt[cast<AffineDimExpr>(expr).getPosition()]
                              : ix.c(0));
      return indices;
    };
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      if (arg.use_empty())
        continue;
      mapping.map(arg, memref::LoadOp::create(
                           b, loc, operand.get(),
                           at(op.getMatchingIndexingMap(&operand))));
    }
    for (Operation &bodyOp : op.getBody()->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
        mapping.map(index.getResult(), loops[index.getDim()]);
        continue;
      }
      auto load = dyn_cast<memref::LoadOp>(bodyOp);
      if (!load || load.getMemRef() != plan.source) {
        b.clone(bodyOp, mapping);
        continue;
      }
      // The body's input coordinate less the tile's origin (LLVM folds
      // the block's part away: (oh0 + tz) * s + k - low - (oh0 * s - low)).
      auto inTile = [&](Value coordinate, Value origin) {
        return ix.sub(mapping.lookupOrDefault(unclamped(coordinate)), origin);
      };
      Value row = inTile(load.getIndices()[1], o.inRow0);
      Value col = inTile(load.getIndices()[2], o.inCol0);
      mapping.map(load.getResult(),
                  memref::LoadOp::create(b, loc, tile,
                                         ValueRange{row, col, t.x})
                      .getResult());
    }
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    Value result = mapping.lookupOrDefault(yield.getOperand(0));
    auto inside = scf::IfOp::create(
        b, loc, ix.both(rowInside, ix.lt(ow, ix.c(plan.outW))),
        /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(inside.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, result, op.getDpsInits()[0],
                            ValueRange(loops));
  }
}

/// The launch that replaces `plan.op`.
void buildLaunch(const Plan &plan) {
  const DepthwiseKernel &k = plan.kernel;
  linalg::GenericOp op = plan.op;
  OpBuilder b(op);
  Location loc = op.getLoc();
  Index ix{b, loc};
  int64_t across = k.tileCols / k.perThread;
  auto tileType = MemRefType::get(
      {k.inputRows, k.inputCols, k.tileChannels}, plan.element,
      AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::GPUDialect::getWorkgroupAddressSpace()));
  auto launch = gpu::LaunchOp::create(
      b, loc, ix.c(llvm::divideCeil(plan.outW, k.tileCols)),
      ix.c(llvm::divideCeil(plan.outH, k.tileRows)),
      ix.c(plan.batch * (plan.channels / k.channelBlock)),
      ix.c(k.channelBlock), ix.c(across), ix.c(k.tileRows),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{tileType});
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  Value tile = launch.getWorkgroupAttributions()[0];
  stageTile(b, loc, plan, launch, tile);
  gpu::BarrierOp::create(b, loc);
  computeOutputs(b, loc, plan, launch, tile);
  gpu::TerminatorOp::create(b, loc);
}

struct TiledDepthwisePass
    : mlir::tfaot::impl::TiledDepthwisePassBase<TiledDepthwisePass> {
  using TiledDepthwisePassBase::TiledDepthwisePassBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> marked;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op->hasAttr(mlir::tfaot::kDepthwiseWindowAttr))
        marked.push_back(op);
    });
    for (linalg::GenericOp op : marked) {
      std::string why;
      FailureOr<Plan> plan = planFor(op, !direct, why);
      if (failed(plan)) {
        mlir::tfaot::remarkRewrite(
            op.getLoc(), getArgument(),
            "direct kernel (depthwise, one thread per output)", why);
        continue;
      }
      mlir::tfaot::remarkRewrite(op.getLoc(), getArgument(),
                                 "tiled kernel (depthwise)",
                                 plan->kernel.describe());
      if (reportOnly)
        continue;
      buildLaunch(*plan);
      op.erase();
    }
  }
};

} // namespace
