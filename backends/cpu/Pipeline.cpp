//===- Pipeline.cpp - CPU lowering pipelines ------------------------------===//
//
// The pipelines are written as textual pass pipelines: that keeps them
// readable as one list, and identical to what lit tests run through
// tfaot-opt. Upstream passes are registered once so the text resolves.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Pipeline.h"

#include "passes/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

// tfaot -> linalg on tensors -> bufferized memrefs. Function results become
// trailing out-parameters, so the caller (the generated class) owns them.
static const char kBufferizePipeline[] =
    "tfaot-lower-to-linalg,"
    "canonicalize,"
    "func.func(linalg-fuse-elementwise-ops),"
    "canonicalize,cse,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"
    "canonicalize,"
    "buffer-deallocation-pipeline";

// Bufferized code -> LLVM dialect. Bare-pointer calling convention: every
// buffer crosses the ABI as one plain pointer, which is what the generated
// header passes.
static const char kToLLVMPipeline[] =
    "func.func(tfaot-expand-strided-copies,convert-linalg-to-loops),"
    "lower-affine,"
    "convert-scf-to-cf,"
    "expand-strided-metadata,"
    "lower-affine,"
    "finalize-memref-to-llvm,"
    "convert-math-to-funcs,"
    "convert-math-to-llvm,"
    "convert-math-to-libm,"
    "convert-arith-to-llvm,"
    "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
    "convert-cf-to-llvm,"
    "reconcile-unrealized-casts";

static void registerUpstreamPassesOnce() {
  static bool done = [] {
    registerAllPasses();
    mlir::tfaot::registerTfaotPasses();
    return true;
  }();
  (void)done;
}

namespace tfaot::cpu {

LogicalResult buildBufferizePipeline(OpPassManager &pm) {
  registerUpstreamPassesOnce();
  return parsePassPipeline(kBufferizePipeline, pm);
}

LogicalResult buildToLLVMPipeline(OpPassManager &pm) {
  registerUpstreamPassesOnce();
  return parsePassPipeline(kToLLVMPipeline, pm);
}

void registerCpuPipelines() {
  registerUpstreamPassesOnce();
  PassPipelineRegistration<>(
      "tfaot-cpu-bufferize",
      "Lower tfaot to bufferized memref code with out-parameter results",
      [](OpPassManager &pm) { (void)buildBufferizePipeline(pm); });
  PassPipelineRegistration<>(
      "tfaot-cpu-to-llvm",
      "Lower bufferized code to the LLVM dialect (bare-pointer ABI)",
      [](OpPassManager &pm) { (void)buildToLLVMPipeline(pm); });
}

uint64_t countTempBytes(ModuleOp module) {
  uint64_t bytes = 0;
  module.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (type.hasStaticShape())
      bytes += type.getNumElements() *
               llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  });
  return bytes;
}

} // namespace tfaot::cpu
