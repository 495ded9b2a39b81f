//===- JitModel.cpp - Run a compiled object inside the compiler -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// See JitModel.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/jit/JitModel.h"

#include "compiler/driver/HeaderWriter.h"
#include "compiler/jit/BenchProfile.h"
#include "tfaot/runtime/bf16_kernels.h"
#include "tfaot/runtime/checks.h"
#include "tfaot/runtime/cpu_kernels.h"
#include "tfaot/runtime/data_dependent.h"
#include "tfaot/runtime/f32_kernels.h"
#include "tfaot/runtime/run_hooks.h"
#include "tfaot/runtime/symbols.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <cstring>
#include <random>

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
  provide(tfaot_rt::kIm2colS8, &tfaot_rt_im2col_s8);
  // The bf16 products of --precision=bf16 (bf16_gemm.cpp).
  provide(tfaot_rt::kMmt4dBf16, &tfaot_rt_mmt4d_bf16bf16f32);
  provide(tfaot_rt::kMmt4dF32, &tfaot_rt_mmt4d_f32f32f32);
  provide(tfaot_rt::kMmt4dF32Fused, &tfaot_rt_mmt4d_f32_fused);
  // The run-time index checks (runtime/lib/checks.cpp).
  provide(tfaot_rt::kCheckIndices, &tfaot_rt_check_indices);
  // NonMaxSuppression and Where (runtime/lib/data_dependent.cpp).
  provide(tfaot_rt::kNonMaxSuppression, &tfaot_rt_non_max_suppression);
  provide(tfaot_rt::kWhere, &tfaot_rt_where);
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
  // Each bounded result's run-time dims come after the results.
  size_t numBounded = llvm::count_if(
      sig.results, [](const TensorSignature &r) { return r.bounded; });
  auto jit = linkObject(artifacts.object, artifacts.entries.back().symbol,
                        sig.args.size(), sig.results.size() + numBounded);
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
  for (const TensorSignature &result : sig.results) {
    if (!result.bounded)
      continue;
    model->resultDims_.push_back(model->results_.size());
    model->results_.emplace_back(sizeof(int64_t) *
                                 std::max<size_t>(1, result.shape.size()));
    model->resultPointers_.push_back(model->results_.back().data.get());
  }
  model->arena_ = std::make_unique<AlignedBuffer>(artifacts.tempBytes);
  model->pool_ = std::make_unique<ThreadPool>(threads);
  return model;
}

JitModel::~JitModel() = default;

std::vector<int64_t> JitModel::resultShape(size_t i) const {
  const TensorSignature &result = signature_.results[i];
  if (!result.bounded)
    return result.shape;
  size_t slot = 0;
  for (size_t r = 0; r < i; ++r)
    slot += signature_.results[r].bounded;
  const auto *dims =
      static_cast<const int64_t *>(results_[resultDims_[slot]].data.get());
  return std::vector<int64_t>(dims, dims + result.shape.size());
}

bool JitModel::run() {
  // As CompiledFunction::Run(): the entry reports errors in this thread's
  // slot, not through its (void) result.
  internal::ClearRunError();
  {
    internal::ScopedThreadPool current(pool_.get());
    entry_(argPointers_.data(), resultPointers_.data(), arena_->data.get());
  }
  runError_ = internal::RunError();
  internal::ClearRunError();
  return runError_.empty();
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

bool tfaot::runOrReport(JitModel &model, const std::string &graph,
                        llvm::raw_ostream &errs) {
  if (model.run())
    return true;
  GraphDiagnostics(graph, errs)
      .error("the compiled graph failed at run time: " + model.runError());
  return false;
}

namespace {
template <typename T, typename Dist>
void fillWith(void *buffer, uint64_t count, Dist &dist, std::mt19937_64 &rng) {
  T *data = static_cast<T *>(buffer);
  for (uint64_t i = 0; i < count; ++i)
    data[i] = static_cast<T>(dist(rng));
}
} // namespace

std::vector<size_t> tfaot::fillRandomInputs(JitModel &model, uint64_t seed,
                                            const std::vector<bool> &given) {
  std::mt19937_64 rng(seed);
  std::vector<size_t> zeros;
  const std::vector<TensorSignature> &args = model.signature().args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i < given.size() && given[i])
      continue;
    std::uniform_real_distribution<double> real(-1.0, 1.0);
    std::uniform_int_distribution<int> small(0, 9), bit(0, 1);
    void *buffer = model.arg(i);
    uint64_t count = bufferBytes(args[i]) / elementBytes(args[i].dtype);
    switch (args[i].dtype) {
    case tensorflow::DT_FLOAT: fillWith<float>(buffer, count, real, rng); break;
    case tensorflow::DT_DOUBLE: fillWith<double>(buffer, count, real, rng); break;
    case tensorflow::DT_INT8: fillWith<int8_t>(buffer, count, small, rng); break;
    case tensorflow::DT_UINT8: case tensorflow::DT_QUINT8:
      fillWith<uint8_t>(buffer, count, small, rng); break;
    case tensorflow::DT_INT16: fillWith<int16_t>(buffer, count, small, rng); break;
    case tensorflow::DT_UINT16: fillWith<uint16_t>(buffer, count, small, rng); break;
    case tensorflow::DT_INT32: fillWith<int32_t>(buffer, count, small, rng); break;
    case tensorflow::DT_UINT32: fillWith<uint32_t>(buffer, count, small, rng); break;
    case tensorflow::DT_INT64: fillWith<int64_t>(buffer, count, small, rng); break;
    case tensorflow::DT_UINT64: fillWith<uint64_t>(buffer, count, small, rng); break;
    case tensorflow::DT_BOOL: fillWith<uint8_t>(buffer, count, bit, rng); break;
    default: zeros.push_back(i); break;
    }
  }
  return zeros;
}
