//===- PaddedInput.cpp - A convolution input that is a zero pad -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "backends/gpu/PaddedInput.h"
#include "passes/LoweringUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace tfaot::gpu {
namespace {

/// Whether `op` writes `buffer` (all of it) with a floating-point zero and
/// reads nothing: a linalg.fill of a zero, or a linalg.map without inputs
/// whose body yields a zero constant.
bool fillsWithZero(Operation *op, Value buffer) {
  Value value = mlir::tfaot::filledValue(op);
  return value && mlir::tfaot::filledBuffer(op) == buffer &&
         matchPattern(value, m_AnyZeroFloat());
}

/// Whether an op strictly between `from` and `to` (one block) has an
/// operand in `root`'s buffer, at any depth.
bool touchedBetween(Operation *from, Operation *to, Value root) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode()) {
    WalkResult touched = op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (isa<MemRefType>(operand.getType()) && viewRoot(operand) == root)
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (touched.wasInterrupted())
      return true;
  }
  return false;
}

} // namespace

Value viewRoot(Value view) {
  while (auto op = view.getDefiningOp<ViewLikeOpInterface>())
    view = op.getViewSource();
  return view;
}

std::optional<SymmetricZeroPad> matchSymmetricZeroPad(Value x,
                                                      Operation *conv) {
  auto alloc = x.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return std::nullopt;
  Operation *fill = nullptr;
  memref::SubViewOp view;
  for (Operation *user : x.getUsers()) {
    if (user == conv)
      continue;
    if (!fill && fillsWithZero(user, x)) {
      fill = user;
    } else if (auto subview = dyn_cast<memref::SubViewOp>(user); subview &&
                                                               !view) {
      view = subview;
    } else {
      return std::nullopt;  // Another reader or writer.
    }
  }
  if (!fill || !view || !view->hasOneUse())
    return std::nullopt;
  auto copy = dyn_cast<memref::CopyOp>(*view->user_begin());
  if (!copy || copy.getTarget() != view.getResult())
    return std::nullopt;
  Value source = copy.getSource();
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  auto paddedType = cast<MemRefType>(x.getType());
  if (!sourceType || !memref::isStaticShapeAndContiguousRowMajor(sourceType) ||
      !paddedType.hasStaticShape() || paddedType.getRank() != 4)
    return std::nullopt;
  // The order bufferization wrote them in, in conv's block.
  Block *block = conv->getBlock();
  if (fill->getBlock() != block || copy->getBlock() != block ||
      !fill->isBeforeInBlock(copy) || !copy->isBeforeInBlock(conv))
    return std::nullopt;
  ArrayRef<int64_t> offsets = view.getStaticOffsets();
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ArrayRef<int64_t> padded = paddedType.getShape();
  ArrayRef<int64_t> inner = sourceType.getShape();
  if (ShapedType::isDynamicShape(offsets) || sizes != inner ||
      !llvm::all_of(view.getStaticStrides(),
                    [](int64_t s) { return s == 1; }) ||
      offsets[0] != 0 || offsets[3] != 0 || inner[0] != padded[0] ||
      inner[3] != padded[3])
    return std::nullopt;
  int64_t h = offsets[1], w = offsets[2];
  if (padded[1] - inner[1] != 2 * h || padded[2] - inner[2] != 2 * w)
    return std::nullopt;  // Asymmetric: cuDNN's legacy call cannot.
  if (touchedBetween(copy, conv, viewRoot(source)))
    return std::nullopt;
  return SymmetricZeroPad{source, h, w, {copy, view, fill, alloc}};
}

} // namespace tfaot::gpu
