//===- Pipeline.cpp - CPU lowering pipelines ------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The pipelines are written as textual pass pipelines: that keeps them
// readable as one list, and identical to what lit tests run through
// tfaot-opt. Upstream passes are registered once so the text resolves.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/Pipeline.h"

#include "backends/cpu/Passes.h"
#include "passes/ConstantsToGlobals.h"
#include "passes/Passes.h"
#include "passes/SplitEntry.h"
#include "passes/SplitSharedEmpties.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

// tfaot -> linalg on tensors -> bufferized memrefs. Function results become
// trailing out-parameters, so the caller (the generated class) owns them.
// `convAlgorithm` other than "direct" adds tfaot-winograd-convolutions;
// `bf16` adds tfaot-cpu-bf16-contractions after it, which takes every
// other convolution and matrix product with constant weights. With bf16,
// `auto` leaves Winograd (fp32) only the 3x3 layers of at least
// kBf16WinogradMinTiles 4x4 blocks: on one Zen 5 core, ResNet-50's stage 2
// (196 blocks at batch 1) took 1.40 ms in fp32 Winograd against 2.04 in
// bf16, stage 3 (49 blocks) 2.63 against 2.48, stage 4 (16) 4.85 against
// 3.73 (bench/results/2026-11-28-devvm-cpu-bf16.md).
static constexpr int kBf16WinogradMinTiles = 64;
static std::string bufferizePipeline(llvm::StringRef convAlgorithm, bool bf16,
                                     bool f32Panels) {
  std::string bf16Products =
      bf16 ? "func.func(tfaot-cpu-bf16-contractions),canonicalize," : "";
  // After the bf16 pass, which takes the products it wants first.
  std::string f32PanelProducts =
      f32Panels ? "func.func(tfaot-cpu-f32-panel-products),canonicalize," : "";
  std::string minTiles =
      bf16 && convAlgorithm == "auto"
          ? " min-tiles=" + std::to_string(kBf16WinogradMinTiles)
          : "";
  std::string winograd =
      convAlgorithm == "direct"
          ? ""
          : "func.func(tfaot-winograd-convolutions{algorithm=" +
                convAlgorithm.str() + minTiles + "}),canonicalize,";
  return "tfaot-lower-to-linalg,"
         "canonicalize,"
         "func.func(tfaot-fuse-elementwise),"
         "canonicalize,cse,"
         // After the fusion, which would take the int8 products apart.
         "func.func(tfaot-lower-int8-contractions),"
         // After the fusion too, which would otherwise fuse each producer into
         // the input transform's 36 reads of it; the pass fuses the epilogue
         // into the output transform itself.
         + winograd + bf16Products + f32PanelProducts +
         // Each conv/matmul with its epilogue becomes one tiled loop nest that
         // writes the result slice in place (no temporary, no alloc in a loop).
         "func.func(tfaot-fuse-epilogues),"
         "canonicalize,"
         // A loop (tfaot.While) whose body yields a new tensor for a loop
         // variable yields a new buffer: allowed, the old one is freed by the
         // deallocation pipeline (or planned, outside the loop).
         // CSE made one tensor.empty the destination of every op of its type;
         // bounded runs of users keep bufferization's alias sets small.
         "func.func(tfaot-split-shared-empties),"
         // One global per distinct constant, found by a hash map rather than
         // one-shot-bufferize's scan of the module per constant (quadratic),
         // and bounded runs of users per read of a constant that CSE made
         // shared.
         "tfaot-constants-to-globals,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map "
         "allow-return-allocs-from-loops},"
         // A tensor fetched twice is one buffer returned twice, which the next
         // pass cannot hoist: each repeat gets a copy
         // (passes/DistinctResultBuffers.cpp).
         "func.func(tfaot-distinct-result-buffers),"
         "buffer-results-to-out-params{hoist-static-allocs "
         "modify-public-functions},"
         "canonicalize,"
         // The int8 products become kernel calls before the buffers are
         // planned: a call that applies the epilogue reads the product's
         // operands and writes the epilogue's result at once, which the plan
         // must see. Producers of a padded convolution input write the padded
         // buffer (before the kernel calls, which take such a result too).
         "func.func(tfaot-write-into-padded-buffers),"
         "tfaot-cpu-int8-ukernels,"
         // Before deallocation: planned buffers become views of the arena
         // argument, which the deallocation pipeline knows it does not own, so
         // only the allocs the plan left alone get deallocs.
         "tfaot-plan-buffers,"
         "buffer-deallocation-pipeline,"
         // Around loops and branches the deallocation pipeline calls a helper
         // it generates on dynamically sized lists of buffers, which the
         // bare-pointer ABI cannot pass: inline it (nothing else is left to
         // inline here; no cleanup pipeline, so straight-line code is
         // unchanged) and drop the helper.
         "inline{default-pipeline=},"
         "symbol-dce";
}

// Bufferized code -> LLVM dialect. Bare-pointer calling convention: every
// buffer crosses the ABI as one plain pointer, which is what the generated
// header passes.
static std::string toLLVMPipeline(unsigned vectorBits, bool profile,
                                  int64_t maxFunctionOps) {
  // Large loops are outlined for the thread pool before the contraction
  // tiles are vectorized, so the outlined bodies get the same kernels.
  // The Winograd transforms become vector loops before the thread pool
  // outlining, which would split them along rows that their blocks of 4
  // share.
  //
  // A large entry function is cut into pieces first (after the profile's
  // timing calls, which move with the ops they time): LLVM's passes per
  // function grow faster than the function.
  std::string split =
      maxFunctionOps < 0   ? "tfaot-split-entry,"
      : maxFunctionOps > 0 ? "tfaot-split-entry{max-ops=" +
                                 std::to_string(maxFunctionOps) + "},"
                           : "";
  return std::string(profile ? "tfaot-instrument-profile," : "") + split +
         "func.func(tfaot-expand-strided-copies,tfaot-approximate-math,"
         "tfaot-vectorize-winograd-transforms{vector-bits=" +
         std::to_string(vectorBits) +
         "}),"
         "tfaot-parallelize-loops,"
         "func.func(tfaot-vectorize-contractions{vector-bits=" +
         std::to_string(vectorBits) +
         "},"
         "tfaot-order-contraction-loops,convert-linalg-to-loops,"
         "convert-vector-to-scf{full-unroll=true}),"
         "lower-affine,"
         "convert-scf-to-cf,"
         "expand-strided-metadata,"
         "lower-affine,"
         "convert-vector-to-llvm,"
         "convert-ub-to-llvm,"
         "finalize-memref-to-llvm,"
         "convert-math-to-funcs,"
         "convert-math-to-llvm,"
         "convert-math-to-libm,"
         "convert-arith-to-llvm,"
         "convert-func-to-llvm{use-bare-ptr-memref-call-conv},"
         "convert-cf-to-llvm,"
         "reconcile-unrealized-casts";
}

static void registerUpstreamPassesOnce() {
  static bool done = [] {
    registerAllPasses();
    mlir::tfaot::registerTfaotPasses();
    mlir::tfaot::registerSplitSharedEmptiesPass();
    mlir::tfaot::registerConstantsToGlobalsPass();
    mlir::tfaot::registerSplitEntryPass();
    mlir::tfaot::registerTfaotCpuPasses();
    ::tfaot::cpu::registerInt8UkernelPass();
    ::tfaot::cpu::registerBf16ContractionsPass();
    ::tfaot::cpu::registerF32PanelProductsPass();
    return true;
  }();
  (void)done;
}

namespace tfaot::cpu {

LogicalResult buildBufferizePipeline(OpPassManager &pm,
                                     llvm::StringRef convAlgorithm, bool bf16,
                                     bool amxBf16, bool f32Panels) {
  registerUpstreamPassesOnce();
  // With AMX-BF16 every layer is faster as a bf16 product: on one Sapphire
  // Rapids core ResNet-50 at batch 1 took 18.8 ms with every convolution in
  // bf16 against 20.9 with stage 2 in fp32 Winograd (the rule above).
  if (bf16 && amxBf16 && convAlgorithm == "auto")
    convAlgorithm = "direct";
  return parsePassPipeline(bufferizePipeline(convAlgorithm, bf16, f32Panels),
                           pm);
}

LogicalResult buildToLLVMPipeline(OpPassManager &pm, unsigned vectorBits,
                                  bool profile, int64_t maxFunctionOps) {
  registerUpstreamPassesOnce();
  return parsePassPipeline(
      toLLVMPipeline(vectorBits, profile, maxFunctionOps), pm);
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
      [](OpPassManager &pm) { (void)buildToLLVMPipeline(pm, 512); });
}

} // namespace tfaot::cpu
