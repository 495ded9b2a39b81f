//===- ConvEpilogue.cpp - What cuDNN's fused convolution can take ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "backends/gpu/ConvEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace tfaot::gpu {
namespace {

/// The one generic reading `conv`'s output tensor, as an input.
linalg::GenericOp tensorReader(linalg::LinalgOp conv) {
  Value result = conv->getResult(0);
  if (!result.hasOneUse())
    return {};
  OpOperand &use = *result.getUses().begin();
  auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
  return generic && generic.isDpsInput(&use) ? generic : linalg::GenericOp();
}

/// The generic reading `conv`'s output buffer, as an input, right after it
/// (nothing touching memory in between, so that a call in its place reads
/// the x that `conv` read). Whether anything else reads the output is not
/// seen here: views of the buffer plan are shared by the tensors that take
/// turns in one place; the caller knows it from the tensors.
linalg::GenericOp bufferReader(linalg::LinalgOp conv) {
  Value buffer = conv.getDpsInitOperand(0)->get();
  Operation *next = conv->getNextNode();
  while (next && (isMemoryEffectFree(next) || isa<memref::AllocOp>(next)))
    next = next->getNextNode();
  auto reader = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!reader || !llvm::is_contained(reader.getDpsInputs(), buffer))
    return {};
  return reader;
}

/// The input of `op` that `value` (in its body) is, seen through a
/// widening from 16 bits.
std::optional<unsigned> inputOf(linalg::GenericOp op, Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    value = ext.getIn();
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op.getBody() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return std::nullopt;
  return arg.getArgNumber();
}

} // namespace

std::optional<ConvEpilogue> matchConvEpilogue(linalg::LinalgOp conv) {
  linalg::GenericOp op =
      conv.hasPureTensorSemantics() ? tensorReader(conv) : bufferReader(conv);
  if (!op || op.getNumDpsInits() != 1 || op.getNumLoops() != 4 ||
      op.getNumParallelLoops() != 4)
    return std::nullopt;
  Value convOutput = conv.hasPureTensorSemantics()
                         ? conv->getResult(0)
                         : conv.getDpsInitOperand(0)->get();
  ConvEpilogue epilogue;
  epilogue.op = op;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  std::optional<unsigned> convInput;
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get() == convOutput)
      convInput = input->getOperandNumber();
  if (!convInput || !maps[*convInput].isIdentity() || !maps.back().isIdentity())
    return std::nullopt;
  epilogue.convInput = *convInput;
  Block *body = op.getBody();
  if (!op.getMatchingBlockArgument(op.getDpsInitOperand(0)).use_empty())
    return std::nullopt;
  MLIRContext *context = op.getContext();
  AffineMap channels =
      AffineMap::get(4, 0, getAffineDimExpr(3, context), context);
  Value current = body->getArgument(*convInput);
  while (true) {
    if (!current.hasOneUse())
      return std::nullopt;
    Operation *user = *current.getUsers().begin();
    if (auto add = dyn_cast<arith::AddFOp>(user)) {
      if (epilogue.relu || epilogue.narrows)
        return std::nullopt;  // cuDNN adds before the activation.
      Value other = add.getLhs() == current ? add.getRhs() : add.getLhs();
      std::optional<unsigned> input = inputOf(op, other);
      if (!input || *input == *convInput)
        return std::nullopt;
      if (maps[*input] == channels && !epilogue.biasInput)
        epilogue.biasInput = input;
      else if (maps[*input].isIdentity() && !epilogue.residualInput)
        epilogue.residualInput = input;
      else
        return std::nullopt;
      current = add.getResult();
      continue;
    }
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(user)) {
      Value other = user->getOperand(0) == current ? user->getOperand(1)
                                                   : user->getOperand(0);
      if (epilogue.relu || epilogue.narrows ||
          !matchPattern(other, m_PosZeroFloat()))
        return std::nullopt;
      epilogue.relu = true;
      current = user->getResult(0);
      continue;
    }
    // ReLU6: the ReLU, then min(., 6).
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(user) && epilogue.relu &&
        !epilogue.relu6 && !epilogue.narrows) {
      Value other = user->getOperand(0) == current ? user->getOperand(1)
                                                   : user->getOperand(0);
      APFloat six(0.0f);
      if (!matchPattern(other, m_ConstantFloat(&six)) ||
          !six.isExactlyValue(6.0))
        return std::nullopt;
      epilogue.relu6 = true;
      current = user->getResult(0);
      continue;
    }
    if (isa<arith::TruncFOp>(user) && !epilogue.narrows) {
      epilogue.narrows = true;
      current = user->getResult(0);
      continue;
    }
    if (isa<linalg::YieldOp>(user))
      break;
    return std::nullopt;
  }
  unsigned used = 1 + (epilogue.biasInput ? 1 : 0) +
                  (epilogue.residualInput ? 1 : 0);
  if (used != op.getNumDpsInputs())
    return std::nullopt;
  return epilogue;
}

} // namespace tfaot::gpu
