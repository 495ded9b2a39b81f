//===- JitModel.cpp - Run a compiled object inside the compiler -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// See JitModel.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/jit/JitModel.h"

#include "compiler/driver/HeaderWriter.h"
#include "compiler/jit/BenchProfile.h"
#include "tfaot/runtime/cpu_kernels.h"
#include "tfaot/runtime/run_hooks.h"
#include "tfaot/runtime/symbols.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>

using namespace tfaot;

AlignedBuffer::AlignedBuffer(uint64_t bytes)
    : data(bytes ? std::aligned_alloc(64, (bytes + 63) / 64 * 64) : nullptr,
           &std::free) {
  if (data)
    std::memset(data.get(), 0, (bytes + 63) / 64 * 64);
}

uint64_t tfaot::bufferBytes(const TensorSignature &sig) {
  uint64_t elements = 1;
  for (int64_t d : sig.shape)
    elements *= static_cast<uint64_t>(d);
  return elements * elementBytes(sig.dtype);
}

namespace {

/// A module with `void tfaot_bench_call(void **args, void **results,
/// void *arena)`, which calls `symbol` the way the generated header's
/// wrapper does: one pointer per argument, one per result, then the arena.
llvm::orc::ThreadSafeModule callWrapper(const std::string &symbol,
                                        size_t numArgs, size_t numResults,
                                        const llvm::DataLayout &layout) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("bench_call", *context);
  module->setDataLayout(layout);
  llvm::Type *ptr = llvm::PointerType::getUnqual(*context);
  llvm::Type *voidType = llvm::Type::getVoidTy(*context);
  std::vector<llvm::Type *> entryParams(numArgs + numResults + 1, ptr);
  llvm::FunctionCallee entry = module->getOrInsertFunction(
      symbol, llvm::FunctionType::get(voidType, entryParams, false));
  auto *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(voidType, {ptr, ptr, ptr}, false),
      llvm::Function::ExternalLinkage, "tfaot_bench_call", *module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(*context, "entry", wrapper));
  std::vector<llvm::Value *> operands;
  auto loadPointers = [&](llvm::Value *array, size_t count) {
    for (size_t i = 0; i < count; ++i)
      operands.push_back(b.CreateLoad(
          ptr, b.CreateConstGEP1_64(ptr, array, i)));
  };
  loadPointers(wrapper->getArg(0), numArgs);
  loadPointers(wrapper->getArg(1), numResults);
  operands.push_back(wrapper->getArg(2));
  b.CreateCall(entry, operands);
  b.CreateRetVoid();
  return llvm::orc::ThreadSafeModule(std::move(module), std::move(context));
}

/// Links `object` into a fresh JIT (resolving libc/libm from this
/// process) with `tfaot_bench_call`, a wrapper that calls `symbol`.
llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
linkObject(const std::string &object, const std::string &symbol,
           size_t numArgs, size_t numResults) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  (*jit)->getMainJITDylib().addGenerator(std::move(*process));
  // The one runtime function every model calls; this binary links the
  // runtime, which it does not export.
  llvm::orc::SymbolMap runtime;
  auto provide = [&](const char *name, auto *function) {
    runtime[(*jit)->mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(function),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  };
  provide(tfaot_rt::kParallelFor, &tfaot_rt_parallel_for);
  // The int8 products of --quantize=int8 (runtime/lib/int8_gemm.cpp).
  provide(tfaot_rt::kMmt4dS8S8S32, &tfaot_rt_mmt4d_s8s8s32);
  provide(tfaot_rt::kMmt4dS8S8Fused, &tfaot_rt_mmt4d_s8s8_fused);
  provide(tfaot_rt::kDepthwiseS8S8Fused, &tfaot_rt_depthwise_s8s8_fused);
  // The int8-weight MatMuls of --quantize_float_weights (f32s8_gemm.cpp).
  provide(tfaot_rt::kMatmulF32S8, &tfaot_rt_matmul_f32s8);
  // What a --profile build calls around each op.
  provide(tfaot_rt::kProfileBegin, &ProfileRecorder::Begin);
  provide(tfaot_rt::kProfileEnd, &ProfileRecorder::End);
  if (llvm::Error err = (*jit)->getMainJITDylib().define(
          llvm::orc::absoluteSymbols(std::move(runtime))))
    return std::move(err);
  if (llvm::Error err = (*jit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(object, "model.o")))
    return std::move(err);
  if (llvm::Error err = (*jit)->addIRModule(callWrapper(
          symbol, numArgs, numResults, (*jit)->getDataLayout())))
    return std::move(err);
  return std::move(*jit);
}

} // namespace

llvm::Expected<std::unique_ptr<JitModel>>
JitModel::load(const CompiledArtifacts &artifacts, int threads) {
  const FunctionSignature &sig = artifacts.signature;
  auto jit = linkObject(artifacts.object, artifacts.entries.back().symbol,
                        sig.args.size(), sig.results.size());
  if (!jit)
    return jit.takeError();
  auto address = (*jit)->lookup("tfaot_bench_call");
  if (!address)
    return address.takeError();
  std::unique_ptr<JitModel> model(new JitModel());
  model->entry_ = address->toPtr<Entry>();
  model->jit_ = std::move(*jit);
  model->signature_ = sig;
  for (const TensorSignature &arg : sig.args) {
    model->args_.emplace_back(bufferBytes(arg));
    model->argPointers_.push_back(model->args_.back().data.get());
  }
  for (const TensorSignature &result : sig.results) {
    model->results_.emplace_back(bufferBytes(result));
    model->resultPointers_.push_back(model->results_.back().data.get());
  }
  model->arena_ = std::make_unique<AlignedBuffer>(artifacts.tempBytes);
  model->pool_ = std::make_unique<ThreadPool>(threads);
  return model;
}

JitModel::~JitModel() = default;

void JitModel::run() {
  internal::ScopedThreadPool current(pool_.get());
  entry_(argPointers_.data(), resultPointers_.data(), arena_->data.get());
}

std::unique_ptr<JitModel>
tfaot::loadCompiledGraph(const CompiledArtifacts &artifacts, int threads,
                         const std::string &graph, llvm::StringRef command,
                         llvm::raw_ostream &errs) {
  GraphDiagnostics diags(graph, errs);
  for (const TensorSignature &arg : artifacts.signature.args)
    if (arg.dtype == tensorflow::DT_STRING) {
      diags.error(command + " does not run graphs with string arguments ('" +
                  arg.name + "'); feed the decoded image instead (--feed of "
                  "the decode's consumer)");
      return nullptr;
    }
  auto model = JitModel::load(artifacts, threads);
  if (!model) {
    diags.error("cannot load the compiled code: " +
                llvm::toString(model.takeError()));
    return nullptr;
  }
  return std::move(*model);
}
