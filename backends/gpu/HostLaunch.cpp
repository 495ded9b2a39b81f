//===- HostLaunch.cpp - Kernel launches as calls into the runtime ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "backends/gpu/HostLaunch.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

using namespace mlir;

namespace {

/// Declares (once) an external runtime function.
LLVM::LLVMFuncOp declare(ModuleOp module, StringRef name, Type result,
                         ArrayRef<Type> params) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(
      builder, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(result, params));
}

struct HostRewriter {
  ModuleOp module;
  MLIRContext *context;
  Type ptr, i32, i64, voidType;
  Value image; // Per function: address of the embedded image.

  explicit HostRewriter(ModuleOp module)
      : module(module), context(module.getContext()),
        ptr(LLVM::LLVMPointerType::get(context)),
        i32(IntegerType::get(context, 32)), i64(IntegerType::get(context, 64)),
        voidType(LLVM::LLVMVoidType::get(context)) {}

  /// Host code may only compute addresses, call what the memref lowering
  /// calls for heap buffers, call the runtime's device entries (cuBLAS,
  /// cuDNN, the read-back of a scalar), branch, and launch;
  /// loads and stores would touch device memory from the CPU.
  bool checkHostOnlyAddresses(LLVM::LLVMFuncOp func, std::string &error) {
    WalkResult result = func.walk([&](Operation *op) {
      if (isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::MemcpyOp, LLVM::MemsetOp,
              LLVM::MemmoveOp>(op)) {
        error = "internal error: host code of '" + func.getName().str() +
                "' accesses memory ('" +
                op->getName().getStringRef().str() + "')";
        return WalkResult::interrupt();
      }
      if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
        // Only constants get a device copy; a mutable global would be host
        // memory handed to kernels.
        auto global = dyn_cast_or_null<LLVM::GlobalOp>(
            SymbolTable::lookupNearestSymbolFrom(op,
                                                 address.getGlobalNameAttr()));
        if (global && !global.getConstant()) {
          error = "internal error: host code of '" + func.getName().str() +
                  "' uses the mutable global '" + global.getSymName().str() +
                  "', which kernels cannot reach";
          return WalkResult::interrupt();
        }
      }
      if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        StringRef callee = call.getCallee().value_or("");
        if (callee != "malloc" && callee != "aligned_alloc" &&
            callee != "free" && !::tfaot::gpu::isRuntimeHostCall(callee) &&
            !::tfaot::gpu::hostMemoryCall(callee)) {
          error = "internal error: host code of '" + func.getName().str() +
                  "' calls '" + callee.str() + "'";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    return !result.wasInterrupted();
  }

  /// Weights: every address of a constant global becomes its device copy,
  /// but for the globals host code reads itself (kHostOnlyGlobalPrefix).
  void redirectConstants(LLVM::LLVMFuncOp func) {
    DataLayout layout(module);
    auto toDevice = declare(module, tfaot_rt::kCudaConstant, ptr, {ptr, i64});
    func.walk([&](LLVM::AddressOfOp address) {
      auto global = dyn_cast_or_null<LLVM::GlobalOp>(
          SymbolTable::lookupNearestSymbolFrom(address, address.getGlobalNameAttr()));
      if (!global || !global.getConstant() ||
          global.getSymName().starts_with(::tfaot::gpu::kHostOnlyGlobalPrefix))
        return;
      OpBuilder builder(address->getContext());
      builder.setInsertionPointAfter(address);
      Location loc = address.getLoc();
      Value bytes = LLVM::ConstantOp::create(
          builder, loc, i64,
          static_cast<int64_t>(layout.getTypeSize(global.getType())));
      auto call = LLVM::CallOp::create(builder, loc, toDevice,
                                       ValueRange{address.getResult(), bytes});
      address.getResult().replaceAllUsesExcept(call.getResult(), call);
    });
  }

  /// Heap temporaries the buffer plan left live on the device.
  void redirectHeap(LLVM::LLVMFuncOp func) {
    auto alloc = declare(module, tfaot_rt::kCudaAlloc, ptr, {i64});
    auto free = declare(module, tfaot_rt::kCudaFree, voidType, {ptr});
    func.walk([&](LLVM::CallOp call) {
      StringRef callee = call.getCallee().value_or("");
      OpBuilder builder(call);
      if (callee == "malloc") {
        call.setCallee(alloc.getName());
      } else if (callee == "aligned_alloc") {
        // Device allocations are 256-byte aligned, more than memref asks.
        auto replacement = LLVM::CallOp::create(builder, call.getLoc(), alloc,
                                                ValueRange{call.getOperand(1)});
        call.getResult().replaceAllUsesWith(replacement.getResult());
        call.erase();
      } else if (callee == "free") {
        call.setCallee(free.getName());
      }
    });
  }

  /// Gives each cuDNN call the name of its TF node (the convolution's
  /// location), for the runtime's errors: a constant string the host reads,
  /// so made after redirectConstants (it is no weight to upload).
  void nameConvLayers(LLVM::LLVMFuncOp func, LLVM::LLVMFuncOp convFn) {
    SmallVector<LLVM::CallOp> calls;
    func.walk([&](LLVM::CallOp call) {
      if (call.getCallee() == convFn.getName() &&
          call.getNumOperands() + 1 == convFn.getNumArguments())
        calls.push_back(call);
    });
    for (LLVM::CallOp call : calls) {
      OpBuilder builder(call);
      std::string layer =
          mlir::tfaot::nodeNameOf(call.getLoc()).value_or("");
      Value name = LLVM::createGlobalString(
          call.getLoc(), builder,
          "tfaot_conv_layer_" + std::to_string(convLayers++),
          layer + std::string(1, 0), LLVM::Linkage::Internal);
      SmallVector<Value> operands(call.getOperands());
      operands.push_back(name);
      LLVM::CallOp::create(builder, call.getLoc(), convFn, operands);
      call.erase();
    }
  }
  int convLayers = 0;

  void lowerLaunch(mlir::gpu::LaunchFuncOp launch, LLVM::LLVMFuncOp launchFn) {
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    Value one = LLVM::ConstantOp::create(builder, loc, i64, 1);
    ValueRange operands = launch.getKernelOperands();
    Value params = LLVM::AllocaOp::create(
        builder, loc, ptr, ptr,
        LLVM::ConstantOp::create(builder, loc, i64,
                                 std::max<int64_t>(operands.size(), 1)));
    for (auto [i, operand] : llvm::enumerate(operands)) {
      Value slot =
          LLVM::AllocaOp::create(builder, loc, ptr, operand.getType(), one);
      LLVM::StoreOp::create(builder, loc, operand, slot);
      Value entry = LLVM::GEPOp::create(builder, loc, ptr, ptr, params,
                                        ArrayRef<LLVM::GEPArg>{int32_t(i)});
      LLVM::StoreOp::create(builder, loc, slot, entry);
    }
    std::string kernel = launch.getKernelName().str();
    Value name = LLVM::createGlobalString(
        loc, builder, "tfaot_kernel_name_" + kernel, kernel + std::string(1, 0),
        LLVM::Linkage::Internal);
    auto toI64 = [&](Value v) -> Value {
      if (v.getType() == i64)
        return v;
      return LLVM::ZExtOp::create(builder, loc, i64, v);
    };
    Value shared = launch.getDynamicSharedMemorySize();
    if (!shared)
      shared = LLVM::ConstantOp::create(builder, loc, i32, 0);
    LLVM::CallOp::create(
        builder, loc, launchFn,
        ValueRange{image, name, toI64(launch.getGridSizeX()),
                   toI64(launch.getGridSizeY()), toI64(launch.getGridSizeZ()),
                   toI64(launch.getBlockSizeX()), toI64(launch.getBlockSizeY()),
                   toI64(launch.getBlockSizeZ()), shared, params});
    launch.erase();
  }
};

} // namespace

bool ::tfaot::gpu::lowerHostLaunches(ModuleOp module, const std::string &image,
                                   std::string &error) {
  HostRewriter rewriter(module);
  for (mlir::gpu::BinaryOp binary :
       llvm::make_early_inc_range(module.getOps<mlir::gpu::BinaryOp>()))
    binary.erase();
  module->removeAttr(mlir::gpu::GPUDialect::getContainerModuleAttrName());

  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto imageType = LLVM::LLVMArrayType::get(IntegerType::get(module.getContext(), 8),
                                            image.size());
  auto imageGlobal = LLVM::GlobalOp::create(
      builder, module.getLoc(), imageType, /*isConstant=*/true,
      LLVM::Linkage::Internal, "tfaot_cuda_image",
      builder.getStringAttr(image), /*alignment=*/64);

  SmallVector<LLVM::LLVMFuncOp> functions;
  for (LLVM::LLVMFuncOp func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal())
      functions.push_back(func);
  for (LLVM::LLVMFuncOp func : functions)
    if (!rewriter.checkHostOnlyAddresses(func, error))
      return false;
  auto launchFn = declare(
      module, tfaot_rt::kCudaLaunch, rewriter.voidType,
      {rewriter.ptr, rewriter.ptr, rewriter.i64, rewriter.i64, rewriter.i64,
       rewriter.i64, rewriter.i64, rewriter.i64, rewriter.i32, rewriter.ptr});
  // The cuDNN entry takes its layer's name last (HostLaunch.h).
  auto convFn = module.lookupSymbol<LLVM::LLVMFuncOp>(tfaot_rt::kCudaConv);
  if (convFn) {
    SmallVector<Type> params(convFn.getFunctionType().getParams());
    params.push_back(rewriter.ptr);
    convFn.setFunctionType(
        LLVM::LLVMFunctionType::get(rewriter.voidType, params));
  }
  for (LLVM::LLVMFuncOp func : functions) {
    rewriter.redirectConstants(func);
    rewriter.redirectHeap(func);
    if (convFn)
      rewriter.nameConvLayers(func, convFn);
    SmallVector<mlir::gpu::LaunchFuncOp> launches;
    func.walk([&](mlir::gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    if (launches.empty())
      continue;
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    rewriter.image =
        LLVM::AddressOfOp::create(entry, func.getLoc(), imageGlobal);
    for (mlir::gpu::LaunchFuncOp launch : launches)
      rewriter.lowerLaunch(launch, launchFn);
  }
  return true;
}
