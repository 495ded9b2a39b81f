//===- LowerIndexChecks.cpp - Run-time checks of gathered indices ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of --tfaot-lower-to-linalg. A gather whose indices come from data
// gets, right before it, one call of tfaot_rt_check_indices (runtime/lib/
// checks.cpp) that reads the indices buffer once and fails Run() with
// TensorFlow's message when an index is out of range. The check sits
// outside the gather's loop nest, so it costs one pass over the indices,
// not one test per gathered element; the gather still clamps each index,
// so no input makes it read out of bounds, checked or not. As for
// DecodeJpeg (LowerImageOps.cpp), buffers cross the call as addresses
// (index), and the static facts (shapes, bounds, the node's name) as
// constant globals.
//
// The module attribute kRuntimeChecksAttr = "none" (tfaot compile
// --runtime_checks=none) turns the checks off; --target=cuda sets it too,
// since there the indices live in device memory, which the runtime's
// host-side check cannot read.
//
//===----------------------------------------------------------------------===//
#include "passes/LoweringUtils.h"

#include "ir/DataDependentOps.h"
#include "ir/Ops.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"
#include "passes/RuntimeCalls.h"
#include "tfaot/runtime/check_kinds.h"
#include "tfaot/runtime/symbols.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tfaot;

// The check kinds (::tfaot, the runtime's namespace, not the dialect's).
using ::tfaot::kCheckGather;
using ::tfaot::kCheckGatherNd;

/// The call's parameters: indices, indices shape, bounds, node (addresses),
/// then kind, index bytes, indices rank, bounds rank.
static constexpr int kNumAddresses = 4, kNumInts = 4;

static bool checksEnabled(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto mode = module ? module->getAttrOfType<StringAttr>(kRuntimeChecksAttr)
                     : StringAttr();
  return !mode || mode.getValue() != "none";
}

/// Whether the indices are constants all within `bounds` (componentwise for
/// tuples of `k`): then there is nothing to check at run time.
static bool constantInBounds(Value indices, ArrayRef<int64_t> bounds,
                             int64_t k) {
  auto values = getConstantIntValues(indices);
  if (!values)
    return false;
  for (size_t i = 0; i < values->size(); ++i)
    if ((*values)[i] < 0 || (*values)[i] >= bounds[i % k])
      return false;
  return true;
}

/// Whether `op` (a GatherV2 or GatherNd) gets a check.
static bool needsCheck(Operation *op) {
  if (!checksEnabled(op))
    return false;
  if (auto gather = dyn_cast<GatherV2Op>(op)) {
    // Checked against the params' run-time row count already (bounded
    // params, LowerDataDependentOps.cpp), which is at most the static one.
    if (gather.getIndices().getDefiningOp<CheckBoundedIndicesOp>())
      return false;
    auto axis = getConstantIntValues(gather.getAxis());
    auto params = gather.getParams().getType();
    if (!axis || axis->empty())
      return true; // the lowering reports it
    int64_t a = (*axis)[0] < 0 ? (*axis)[0] + params.getRank() : (*axis)[0];
    return !constantInBounds(gather.getIndices(), {params.getDimSize(a)}, 1);
  }
  auto nd = cast<GatherNdOp>(op);
  int64_t k = nd.getIndices().getType().getShape().back();
  return k > 0 && !constantInBounds(nd.getIndices(),
                                    nd.getParams().getType().getShape(), k);
}

/// Marks the gathers to check: decided once, before the conversion, so that
/// the declaration and the calls agree whatever the patterns' order.
static constexpr char kCheckMark[] = "tfaot.check_indices";

void mlir::tfaot::declareCheckRuntime(ModuleOp module) {
  bool used = false;
  module.walk([&](Operation *op) {
    if (isa<GatherV2Op, GatherNdOp>(op) && needsCheck(op)) {
      op->setAttr(kCheckMark, UnitAttr::get(op->getContext()));
      used = true;
    }
  });
  if (!used || module.lookupSymbol(tfaot_rt::kCheckIndices))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  SmallVector<Type> params(kNumAddresses, b.getIndexType());
  params.append(kNumInts, b.getI64Type());
  auto decl = func::FuncOp::create(b, module.getLoc(), tfaot_rt::kCheckIndices,
                                   b.getFunctionType(params, {}));
  decl.setPrivate();
}

Value mlir::tfaot::constantGlobal(ConversionPatternRewriter &rewriter,
                                  Location loc, ModuleOp module,
                                  StringRef prefix, DenseElementsAttr data) {
  auto type = MemRefType::get(data.getType().getShape(),
                              data.getType().getElementType());
  std::string symbol = prefix.str();
  for (int n = 1; module.lookupSymbol(symbol); ++n)
    symbol = prefix.str() + "_" + std::to_string(n);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(rewriter, loc, symbol,
                             rewriter.getStringAttr("private"), type, data,
                             /*constant=*/true, /*alignment=*/nullptr);
  }
  Value ref = memref::GetGlobalOp::create(rewriter, loc, type, symbol);
  return memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, ref);
}

Value mlir::tfaot::i64Global(ConversionPatternRewriter &rewriter,
                             Location loc, ModuleOp module, StringRef prefix,
                             ArrayRef<int64_t> values) {
  // A zero-length global would be a memref<0xi64>; give it one unused
  // element so that every global has an address.
  SmallVector<int64_t> data(values);
  if (data.empty())
    data.push_back(0);
  auto type = RankedTensorType::get({int64_t(data.size())},
                                    rewriter.getI64Type());
  return constantGlobal(rewriter, loc, module, prefix,
                        DenseElementsAttr::get(type, ArrayRef<int64_t>(data)));
}

Value mlir::tfaot::textGlobal(ConversionPatternRewriter &rewriter,
                              Location loc, ModuleOp module, StringRef prefix,
                              StringRef text) {
  SmallVector<int8_t> bytes(text.begin(), text.end());
  bytes.push_back(0);
  auto type =
      RankedTensorType::get({int64_t(bytes.size())}, rewriter.getI8Type());
  return constantGlobal(rewriter, loc, module, prefix,
                        DenseElementsAttr::get(type, ArrayRef<int8_t>(bytes)));
}

/// Emits the check of `op`'s `indices` (already converted) against
/// `bounds`, before the op, if declareCheckRuntime() marked it.
void mlir::tfaot::emitIndexCheck(ConversionPatternRewriter &rewriter,
                                 Operation *op, Value indices,
                                 ArrayRef<int64_t> bounds) {
  if (!op->hasAttr(kCheckMark))
    return;
  Location loc = op->getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t kind = isa<GatherNdOp>(op) ? kCheckGatherNd : kCheckGather;

  Value nodeAddress = textGlobal(rewriter, loc, module, "__tfaot_check_node",
                                 nodeNameOf(loc).value_or("?"));
  Value shape = i64Global(rewriter, loc, module, "__tfaot_check_shape",
                          type.getShape());
  Value boundsAddress =
      i64Global(rewriter, loc, module, "__tfaot_check_bounds", bounds);
  // The indices' address last, right before the call: the call is a use
  // tfaot-plan-buffers cannot see, and the gather that follows keeps the
  // buffer live across it.
  Value buffer = bufferization::ToBufferOp::create(
      rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
      indices, /*read_only=*/rewriter.getUnitAttr());
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(rewriter, loc, v, 64);
  };
  SmallVector<Value> args{address,
                          shape,
                          boundsAddress,
                          nodeAddress,
                          i64(kind),
                          i64(type.getElementTypeBitWidth() / 8),
                          i64(type.getRank()),
                          i64(int64_t(bounds.size()))};
  func::CallOp::create(rewriter, loc, tfaot_rt::kCheckIndices, TypeRange{},
                       args);
}
