//===- StageHostCalls.cpp - Runtime calls on host copies ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot-gpu-stage-host-calls: NonMaxSuppression and Where are calls of the
// CPU runtime (passes/LowerDataDependentOps.cpp), sequential searches that
// read and write host memory through the addresses they are given. In a
// device build those addresses are device buffers. Each such call gets
// host copies instead (HostLaunch.h):
//
//   %h = tfaot_rt_cuda_host_buffer(bytes)           // every device buffer
//   tfaot_rt_cuda_copy_to_host(%h, %device, bytes)  // the ones it reads
//   tfaot_rt_non_max_suppression(%h, ...)
//   tfaot_rt_cuda_copy_to_device(%device, %h, bytes) // the ones it writes
//
// Constant globals it reads (the node's name, Where's dims, constant
// thresholds) are passed as they are, host memory, through a copy of the
// global whose name tells lowerHostLaunches not to upload it. The copies
// are synchronous on the run's stream, and a model that makes them is never
// captured into a CUDA graph (a replay would not run the host call). A call
// whose buffers cannot be sized (not a static, identity-layout buffer) is
// left alone: tfaot-gpu-check-host-code reports it.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/HostLaunch.h"
#include "backends/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfaot {
#define GEN_PASS_DEF_STAGEHOSTCALLSPASS
#include "backends/gpu/Passes.h.inc"
} // namespace mlir::tfaot

using namespace mlir;
using ::tfaot::gpu::HostMemoryCall;

namespace {

/// One address operand of a host call, and where its data is.
struct Operand {
  unsigned index = 0;
  Value buffer;              ///< The memref whose address it is.
  memref::GetGlobalOp global; ///< Set for a constant global (host memory).
  int64_t bytes = 0;         ///< Of a device buffer.
  bool written = false;
};

/// Bytes of a buffer of `type` (an i1 is stored in a byte), or -1 when its
/// address is not the start of its data or its size is not static.
int64_t bufferBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return -1;
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat())
    return -1;
  int64_t bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(1, bits / 8);
}

/// The address operands of `call` as `abi` describes them; false if one
/// cannot be staged.
bool classify(func::CallOp call, const HostMemoryCall &abi,
              SmallVectorImpl<Operand> &operands) {
  if (call.getNumOperands() < abi.addresses)
    return false;
  for (unsigned i = 0; i < abi.addresses; ++i) {
    auto extract = call.getOperand(i)
                       .getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>();
    if (!extract)
      return false;
    Operand operand;
    operand.index = i;
    operand.buffer = extract.getSource();
    operand.written = abi.writes(i);
    auto global = operand.buffer.getDefiningOp<memref::GetGlobalOp>();
    if (global && !operand.written) {
      operand.global = global;
    } else {
      operand.bytes = bufferBytes(cast<MemRefType>(operand.buffer.getType()));
      if (operand.bytes < 0)
        return false;
    }
    operands.push_back(operand);
  }
  return true;
}

struct StageHostCallsPass
    : mlir::tfaot::impl::StageHostCallsPassBase<StageHostCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::CallOp, const HostMemoryCall *>> calls;
    module.walk([&](func::CallOp call) {
      if (call->getParentOfType<mlir::gpu::GPUModuleOp>())
        return;
      if (const HostMemoryCall *abi =
              ::tfaot::gpu::hostMemoryCall(call.getCallee()))
        calls.push_back({call, abi});
    });
    for (auto [call, abi] : calls) {
      SmallVector<Operand> operands;
      if (classify(call, *abi, operands))
        stage(call, operands);
    }
  }

  /// Declares (once) the runtime entry `name` taking `params` i64s.
  func::FuncOp declare(StringRef name, unsigned params, bool returns) {
    ModuleOp module = getOperation();
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Type i64 = builder.getI64Type();
    auto fn = func::FuncOp::create(
        builder, module.getLoc(), name,
        builder.getFunctionType(SmallVector<Type>(params, i64),
                                returns ? TypeRange{i64} : TypeRange{}));
    fn.setPrivate();
    return fn;
  }

  /// The host-only twin of the constant global `global` names: the same
  /// data under a name lowerHostLaunches leaves in host memory.
  memref::GlobalOp hostTwin(memref::GetGlobalOp global) {
    ModuleOp module = getOperation();
    std::string name =
        (llvm::Twine(::tfaot::gpu::kHostOnlyGlobalPrefix) + global.getName())
            .str();
    if (auto twin = module.lookupSymbol<memref::GlobalOp>(name))
      return twin;
    auto original = module.lookupSymbol<memref::GlobalOp>(global.getName());
    auto twin = cast<memref::GlobalOp>(original->clone());
    twin.setSymName(name);
    module.getBody()->push_front(twin);
    return twin;
  }

  void stage(func::CallOp call, ArrayRef<Operand> operands) {
    func::FuncOp hostBuffer = declare(tfaot_rt::kCudaHostBuffer, 1, true);
    func::FuncOp toHost = declare(tfaot_rt::kCudaCopyToHost, 3, false);
    func::FuncOp toDevice = declare(tfaot_rt::kCudaCopyToDevice, 3, false);
    OpBuilder builder(call);
    Location loc = call.getLoc();
    Type i64 = builder.getI64Type();
    auto asI64 = [&](Value index) -> Value {
      return arith::IndexCastUIOp::create(builder, loc, i64, index);
    };
    SmallVector<std::array<Value, 3>> copiesBack; // device, host, bytes
    for (const Operand &operand : operands) {
      if (operand.global) {
        memref::GlobalOp twin = hostTwin(operand.global);
        Value ref = memref::GetGlobalOp::create(
            builder, loc, operand.buffer.getType(), twin.getSymName());
        call.setOperand(operand.index,
                        memref::ExtractAlignedPointerAsIndexOp::create(
                            builder, loc, ref));
        continue;
      }
      Value device = asI64(call.getOperand(operand.index));
      Value bytes = arith::ConstantIntOp::create(builder, loc, i64,
                                                 operand.bytes);
      Value host =
          func::CallOp::create(builder, loc, hostBuffer, ValueRange{bytes})
              .getResult(0);
      if (operand.written)
        copiesBack.push_back({device, host, bytes});
      else
        func::CallOp::create(builder, loc, toHost,
                             ValueRange{host, device, bytes});
      call.setOperand(operand.index,
                      arith::IndexCastUIOp::create(
                          builder, loc, builder.getIndexType(), host));
    }
    builder.setInsertionPointAfter(call);
    for (auto [device, host, bytes] : copiesBack)
      func::CallOp::create(builder, loc, toDevice,
                           ValueRange{device, host, bytes});
    call->setAttr(::tfaot::gpu::kOnHostCopiesAttr, builder.getUnitAttr());
  }
};

} // namespace
