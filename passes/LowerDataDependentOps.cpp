//===- LowerDataDependentOps.cpp - NMS and Where to runtime calls ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. NonMaxSuppression and Where are
// sequential, data-driven searches (a greedy selection over a sorted list, a
// scan with a running count) that linalg cannot express, so, like
// DecodeJpeg (LowerImageOps.cpp), each becomes one call of the runtime
// (runtime/lib/data_dependent.cpp) writing into memref.allocs sized for the
// op's bound, which tfaot-plan-buffers places like any other buffer.
// Buffers cross the call as addresses (index); the node's name and static
// shapes as constant globals.
//
//===----------------------------------------------------------------------===//
#include "passes/LowerDataDependentOps.h"

#include "ir/DataDependentOps.h"
#include "ir/ListOps.h"
#include "passes/LoweringUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"
#include "passes/RuntimeCalls.h"
#include "tfaot/runtime/check_kinds.h"
#include "tfaot/runtime/data_dependent.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tfaot;

// The runtime's enums (::tfaot, the runtime's namespace, not the dialect's).
using ::tfaot::kCheckGather;
using ::tfaot::kWhereFloat16;
using ::tfaot::kWhereFloat32;
using ::tfaot::kWhereFloat64;
using ::tfaot::kWhereInteger;

/// Parameters of the runtime functions: addresses, then int64s.
static constexpr int kNmsAddresses = 10, kNmsInts = 3;
static constexpr int kWhereAddresses = 4, kWhereInts = 3;
/// tfaot_rt_check_indices (checks.h), as passes/LowerIndexChecks.cpp calls
/// it: indices, indices shape, bounds, node; kind, index bytes, indices
/// rank, bounds rank.
static constexpr int kCheckAddresses = 4, kCheckInts = 4;

/// Whether --runtime_checks=none left the checks on.
static bool runtimeChecksEnabled(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto mode = module ? module->getAttrOfType<StringAttr>(kRuntimeChecksAttr)
                     : StringAttr();
  return !mode || mode.getValue() != "none";
}

void mlir::tfaot::declareDataDependentRuntime(ModuleOp module) {
  bool nms = false, where = false, checks = false;
  module.walk([&](Operation *op) {
    nms |= isa<NonMaxSuppressionOp>(op);
    where |= isa<WhereOp>(op);
    checks |= isa<CheckBoundedIndicesOp, CheckListOp>(op) &&
              runtimeChecksEnabled(op);
  });
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto declare = [&](StringRef name, int addresses, int ints) {
    if (module.lookupSymbol(name))
      return;
    SmallVector<Type> params(addresses, b.getIndexType());
    params.append(ints, b.getI64Type());
    func::FuncOp::create(b, module.getLoc(), name,
                         b.getFunctionType(params, {}))
        .setPrivate();
  };
  if (nms)
    declare(tfaot_rt::kNonMaxSuppression, kNmsAddresses, kNmsInts);
  if (checks)
    declare(tfaot_rt::kCheckIndices, kCheckAddresses, kCheckInts);
  if (where)
    declare(tfaot_rt::kWhere, kWhereAddresses, kWhereInts);
}

namespace {

/// The pieces every call is built from.
struct CallBuilder {
  ConversionPatternRewriter &rewriter;
  Location loc;

  Value i64(int64_t v) {
    return arith::ConstantIntOp::create(rewriter, loc, v, 64);
  }
  Value alloc(RankedTensorType type) {
    return memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        rewriter.getI64IntegerAttr(64));
  }
  Value address(Value memref) {
    return memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc,
                                                          memref);
  }
  /// The address of a (converted) input tensor's buffer, read only.
  Value inputAddress(Value tensor) {
    auto t = cast<RankedTensorType>(tensor.getType());
    Value buffer = bufferization::ToBufferOp::create(
        rewriter, loc, MemRefType::get(t.getShape(), t.getElementType()),
        tensor, /*read_only=*/rewriter.getUnitAttr());
    return address(buffer);
  }
  Value result(Value buffer, Type type) {
    return bufferization::ToTensorOp::create(rewriter, loc, type, buffer,
                                             /*restrict=*/true,
                                             /*writable=*/true);
  }
};

// In both lowerings the outputs are allocated before any address is taken,
// and the inputs' addresses right before the call: tfaot-plan-buffers sees a
// buffer live until its last use, and the call is a use it cannot see.

struct NonMaxSuppressionLowering : TfaotPattern<NonMaxSuppressionOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(NonMaxSuppressionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CallBuilder c{rewriter, loc};
    auto module = op->getParentOfType<ModuleOp>();
    Value node = textGlobal(rewriter, loc, module, "__tfaot_nms_node",
                            nodeNameOf(loc).value_or("?"));
    auto indicesType = cast<RankedTensorType>(
        toSignless(op.getSelectedIndices().getType()));
    auto scoresType = cast<RankedTensorType>(op.getSelectedScores().getType());
    auto countType =
        cast<RankedTensorType>(toSignless(op.getValidOutputs().getType()));
    int64_t n = op.getBoxes().getType().getDimSize(0);
    int64_t bound = indicesType.getDimSize(0);
    int64_t maxSizeBytes =
        op.getMaxOutputSize().getType().getElementTypeBitWidth() / 8;
    SmallVector<Value> ints{c.i64(n), c.i64(bound), c.i64(maxSizeBytes)};

    Value indices = c.alloc(indicesType);
    Value scores = c.alloc(scoresType);
    Value count = c.alloc(countType);
    SmallVector<Value> args;
    for (Value input :
         {adaptor.getBoxes(), adaptor.getScores(), adaptor.getMaxOutputSize(),
          adaptor.getIouThreshold(), adaptor.getScoreThreshold(),
          adaptor.getSoftNmsSigma()})
      args.push_back(c.inputAddress(input));
    args.append({c.address(indices), c.address(scores), c.address(count),
                 node});
    args.append(ints);
    func::CallOp::create(rewriter, loc, tfaot_rt::kNonMaxSuppression,
                         TypeRange{}, args);
    rewriter.replaceOp(op, {c.result(indices, indicesType),
                            c.result(scores, scoresType),
                            c.result(count, countType)});
    return success();
  }
};

/// How the runtime reads an element of `type` (WhereElementKind).
static int64_t whereKind(Type type) {
  if (type.isF32())
    return kWhereFloat32;
  if (type.isF64())
    return kWhereFloat64;
  if (type.isF16() || type.isBF16())
    return kWhereFloat16;
  return kWhereInteger;
}

struct WhereLowering : TfaotPattern<WhereOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(WhereOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CallBuilder c{rewriter, loc};
    auto module = op->getParentOfType<ModuleOp>();
    auto input = cast<RankedTensorType>(adaptor.getInput().getType());
    Type element = input.getElementType();
    // An i1 is stored in a byte.
    int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
    Value dims = i64Global(rewriter, loc, module, "__tfaot_where_dims",
                           input.getShape());
    auto indexType = cast<RankedTensorType>(op.getIndex().getType());
    auto countType =
        cast<RankedTensorType>(toSignless(op.getCount().getType()));
    SmallVector<Value> ints{c.i64(input.getRank()), c.i64(bytes),
                            c.i64(whereKind(element))};

    Value index = c.alloc(indexType);
    Value count = c.alloc(countType);
    SmallVector<Value> args{c.inputAddress(adaptor.getInput()), dims,
                            c.address(index), c.address(count)};
    args.append(ints);
    func::CallOp::create(rewriter, loc, tfaot_rt::kWhere, TypeRange{}, args);
    rewriter.replaceOp(
        op, {c.result(index, indexType), c.result(count, countType)});
    return success();
  }
};

/// The dims as a tensor of int64: the bounds, with the count (int32,
/// widened) at `dim`.
struct BoundedDimsLowering : TfaotPattern<BoundedDimsOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(BoundedDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CallBuilder c{rewriter, loc};
    SmallVector<Value> dims;
    for (int64_t bound : op.getBounds())
      dims.push_back(c.i64(bound));
    Value count = tensor::ExtractOp::create(rewriter, loc, adaptor.getCount(),
                                            ValueRange{});
    dims[op.getDim()] = arith::ExtSIOp::create(rewriter, loc,
                                               rewriter.getI64Type(), count);
    rewriter.replaceOp(op, tensor::FromElementsOp::create(
                               rewriter, loc, resultType(op), dims));
    return success();
  }
};

/// A call of tfaot_rt_check_indices with the dims and the bound made at
/// run time: the indices' shape with dim 0 replaced by valid_rows, and
/// row_count as the bound. The op then stands for its own operand.
struct CheckBoundedIndicesLowering : TfaotPattern<CheckBoundedIndicesOp> {
  using TfaotPattern::TfaotPattern;
  LogicalResult
  matchAndRewrite(CheckBoundedIndicesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!runtimeChecksEnabled(op)) {
      rewriter.replaceOp(op, adaptor.getIndices());
      return success();
    }
    Location loc = op.getLoc();
    CallBuilder c{rewriter, loc};
    auto module = op->getParentOfType<ModuleOp>();
    Value node = textGlobal(rewriter, loc, module, "__tfaot_check_node",
                            nodeNameOf(loc).value_or("?"));
    auto type = cast<RankedTensorType>(adaptor.getIndices().getType());
    auto widen = [&](Value scalar) -> Value {
      Value v = tensor::ExtractOp::create(rewriter, loc, scalar, ValueRange{});
      return arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(), v);
    };
    // Zero-length tensors have no address; a scalar's shape gets one unused
    // element.
    SmallVector<Value> dims;
    for (int64_t d : type.getShape())
      dims.push_back(c.i64(d));
    if (dims.empty())
      dims.push_back(c.i64(1));
    else
      dims[0] = widen(adaptor.getValidRows());
    auto i64Vector = [&](ValueRange values) -> Value {
      auto t = RankedTensorType::get({int64_t(values.size())},
                                     rewriter.getI64Type());
      return tensor::FromElementsOp::create(rewriter, loc, t, values);
    };
    Value shape = i64Vector(dims);
    Value bounds = i64Vector({widen(adaptor.getRowCount())});
    SmallVector<Value> args{c.inputAddress(shape), c.inputAddress(bounds)};
    // The indices' address last, right before the call (above).
    args.insert(args.begin(), c.inputAddress(adaptor.getIndices()));
    args.append({node, c.i64(kCheckGather),
                 c.i64(type.getElementTypeBitWidth() / 8),
                 c.i64(type.getRank()), c.i64(1)});
    func::CallOp::create(rewriter, loc, tfaot_rt::kCheckIndices, TypeRange{},
                         args);
    rewriter.replaceOp(op, adaptor.getIndices());
    return success();
  }
};

} // namespace

void mlir::tfaot::populateDataDependentLoweringPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<NonMaxSuppressionLowering, WhereLowering, BoundedDimsLowering,
               CheckBoundedIndicesLowering>(
      converter, patterns.getContext());
}
