//===- ImportGatherOps.cpp - GatherV2, GatherNd, BatchMatMulV2 ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Importers of the ops passes/LowerGatherOps.cpp lowers: the gathers,
// whose result shape comes from params and indices, and BatchMatMul(V2),
// whose batch dimensions broadcast.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ImportHelpers.h"

#include "ir/Ops.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ::tfaot;

FailureOr<Value>(::tfaot::importGatherV2)(NodeImportContext &ctx) {
  auto axisValues = constantInts(ctx, 2, "the axis");
  if (failed(axisValues))
    return failure();
  const tensorflow::AttrValue *batchDims = ctx.attr("batch_dims");
  if (batchDims && batchDims->i() != 0)
    return ctx.error("batch_dims other than 0 is not supported yet");
  auto params = ctx.typeOf(0), indices = ctx.typeOf(1);
  FailureOr<int64_t> axis =
      normalizeAxis(ctx, (*axisValues)[0], params.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(params.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, params.getShape().drop_front(*axis + 1));
  return buildOp(ctx, "GatherV2", ctx.operands,
                 RankedTensorType::get(shape, params.getElementType()));
}

FailureOr<Value>(::tfaot::importGatherNd)(NodeImportContext &ctx) {
  auto params = ctx.typeOf(0), indices = ctx.typeOf(1);
  if (indices.getRank() < 1)
    return ctx.error("indices must have rank >= 1");
  int64_t k = indices.getShape().back();
  if (k > params.getRank())
    return ctx.error("index tuples are longer than the params' rank");
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, params.getShape().drop_front(k));
  return buildOp(ctx, "GatherNd", ctx.operands,
                 RankedTensorType::get(shape, params.getElementType()));
}

FailureOr<Value>(::tfaot::importBatchMatMul)(NodeImportContext &ctx) {
  auto x = ctx.typeOf(0), y = ctx.typeOf(1);
  if (x.getRank() < 2 || y.getRank() < 2)
    return ctx.error("inputs must have rank >= 2");
  auto flag = [&](const char *name) {
    const tensorflow::AttrValue *v = ctx.attr(name);
    return v && v->b();
  };
  SmallVector<int64_t> batch;
  if (failed(mlir::tfaot::broadcastShapes(x.getShape().drop_back(2),
                                          y.getShape().drop_back(2), batch)))
    return ctx.error("batch dimensions of " + typeString(x) + " and " +
                     typeString(y) + " do not broadcast");
  int64_t m = x.getDimSize(x.getRank() - (flag("adj_x") ? 1 : 2));
  int64_t kx = x.getDimSize(x.getRank() - (flag("adj_x") ? 2 : 1));
  int64_t ky = y.getDimSize(y.getRank() - (flag("adj_y") ? 1 : 2));
  int64_t n = y.getDimSize(y.getRank() - (flag("adj_y") ? 2 : 1));
  if (kx != ky)
    return ctx.error(llvm::formatv("inner dimensions differ: {0} and {1}", kx, ky));
  batch.push_back(m);
  batch.push_back(n);
  return buildOp(ctx, "BatchMatMulV2", ctx.operands,
                 RankedTensorType::get(batch, x.getElementType()));
}
