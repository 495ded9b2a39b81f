//===- KernelPasses.cpp - Shape bufferized code into GPU kernels ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// The passes between bufferization and the upstream GPU mapping:
//
//  tfaot-gpu-copies-to-linalg     memref.copy -> linalg.copy, so that copies
//                                 become parallel loops (kernels) as well;
//  tfaot-gpu-parallel-dims-first  a linalg.generic's parallel dimensions
//                                 become its outer loops, so that all of them
//                                 are mapped to threads (a global average
//                                 pool's (n, h, w, c) ran on n threads);
//  tfaot-gpu-accumulate-in-registers
//                                 a reduction loop's load/store of its output
//                                 element becomes a loop-carried value: one
//                                 load before, one store after, registers in
//                                 between (not a global read-modify-write per
//                                 multiply-add);
//  tfaot-gpu-wrap-host-work       memory-touching code outside any parallel
//                                 loop (0-d ops, full reductions) goes into a
//                                 one-iteration scf.parallel: one thread runs it;
//  tfaot-gpu-flatten-parallel-loops
//                                 every outermost scf.parallel becomes a 1-D
//                                 (blocks x 256 threads) nest with a bounds
//                                 guard, so gpu-map-parallel-loops gives each
//                                 kernel a full thread block whatever the rank;
//  tfaot-gpu-merge-kernel-modules one gpu.module per entry (one PTX image);
//  tfaot-gpu-contract-fp          kernels may fuse a multiply and an add into
//                                 one FMA, as nvcc does by default (--fmad);
//  tfaot-gpu-check-host-code      the host function may only compute addresses
//                                 and launch kernels: everything else would
//                                 dereference device memory on the CPU.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/KernelPasses.h"

#include "backends/gpu/HostLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// Ops that only compute values (constants, index arithmetic) or name memory
/// without touching it: they may stay in host code.
bool isAddressOnly(Operation *op) {
  if (isa<ViewLikeOpInterface, memref::AllocOp, memref::DeallocOp,
          memref::GetGlobalOp, memref::AssumeAlignmentOp, func::ReturnOp>(op))
    return true;
  return op->getNumRegions() == 0 && isPure(op);
}

struct CopiesToLinalgPass
    : PassWrapper<CopiesToLinalgPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CopiesToLinalgPass)
  StringRef getArgument() const override { return "tfaot-gpu-copies-to-linalg"; }
  StringRef getDescription() const override {
    return "Turn memref.copy into linalg.copy so that copies become kernels";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

/// convert-linalg-to-parallel-loops turns only the leading parallel
/// dimensions into the outer scf.parallel, and that is all the GPU mapping
/// distributes over threads: a generic iterating (parallel, reduction,
/// reduction, parallel), like the NHWC Mean over H and W, became one thread
/// per batch element looping over everything else (8.7 of ResNet-50's 25 ms
/// on an H200, measured). Reordering its dimensions so that the parallel
/// ones come first gives every output element its own thread.
struct ParallelDimsFirstPass
    : PassWrapper<ParallelDimsFirstPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ParallelDimsFirstPass)
  StringRef getArgument() const override {
    return "tfaot-gpu-parallel-dims-first";
  }
  StringRef getDescription() const override {
    return "Interchange linalg.generic loops so that the parallel dimensions "
           "are the outer ones (all mapped to GPU threads)";
  }
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      SmallVector<unsigned> order;
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      for (unsigned i = 0; i < iterators.size(); ++i)
        if (iterators[i] == utils::IteratorType::parallel)
          order.push_back(i);
      for (unsigned i = 0; i < iterators.size(); ++i)
        if (iterators[i] != utils::IteratorType::parallel)
          order.push_back(i);
      bool identity = llvm::all_of(llvm::enumerate(order), [](auto pair) {
        return pair.index() == pair.value();
      });
      if (identity)
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitError("cannot reorder the loops of this op for the GPU");
        return signalPassFailure();
      }
    }
  }
};

struct AccumulateInRegistersPass
    : PassWrapper<AccumulateInRegistersPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AccumulateInRegistersPass)
  StringRef getArgument() const override {
    return "tfaot-gpu-accumulate-in-registers";
  }
  StringRef getDescription() const override {
    return "Carry a reduction loop's output element in a register: its "
           "load and store at loop-invariant indices move around the loop";
  }

  /// The load/store pair of `loop`'s body that reads and writes one element
  /// at indices defined outside the loop, the load first, with no other
  /// access to that memref anywhere in the loop. Linalg's loops give such a
  /// pair to every reduction; the output of a reduction never aliases its
  /// inputs after bufferization (that would be a read-after-write conflict),
  /// so the other memrefs the loop reads cannot be views of it.
  static std::pair<memref::LoadOp, memref::StoreOp>
  findAccumulator(scf::ForOp loop) {
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto load = dyn_cast<memref::LoadOp>(op);
      if (!load)
        continue;
      Value memref = load.getMemRef();
      bool invariant = llvm::all_of(load.getIndices(), [&](Value index) {
        return loop.isDefinedOutsideOfLoop(index);
      });
      if (!invariant || !loop.isDefinedOutsideOfLoop(memref))
        continue;
      memref::StoreOp store;
      bool otherAccess = false;
      loop.getBody()->walk([&](Operation *user) {
        if (user == load)
          return;
        auto candidate = dyn_cast<memref::StoreOp>(user);
        bool same = candidate && candidate.getMemRef() == memref &&
                    candidate.getIndices() == load.getIndices() &&
                    candidate->getBlock() == loop.getBody() && !store;
        if (same) {
          store = candidate;
          return;
        }
        if (llvm::is_contained(user->getOperands(), memref))
          otherAccess = true;
      });
      if (store && !otherAccess && load->isBeforeInBlock(store))
        return {load, store};
    }
    return {};
  }

  static void promote(scf::ForOp loop, memref::LoadOp load,
                      memref::StoreOp store) {
    OpBuilder builder(loop);
    Location loc = load.getLoc();
    Value initial = memref::LoadOp::create(builder, loc, load.getMemRef(),
                                           load.getIndices());
    auto carried = scf::ForOp::create(
        builder, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
        loop.getStep(), ValueRange{initial});
    // Move the body over: the induction variable and the accumulator map to
    // the new loop's block arguments.
    Block *body = carried.getBody();
    // (The builder adds no yield to a loop with iteration arguments.)
    if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
      body->back().erase();
    body->getOperations().splice(body->end(), loop.getBody()->getOperations());
    loop.getInductionVar().replaceAllUsesWith(carried.getInductionVar());
    load.getResult().replaceAllUsesWith(carried.getRegionIterArgs()[0]);
    Operation *oldYield = body->getTerminator();
    builder.setInsertionPoint(oldYield);
    scf::YieldOp::create(builder, oldYield->getLoc(),
                         ValueRange{store.getValueToStore()});
    oldYield->erase();
    builder.setInsertionPointAfter(carried);
    memref::StoreOp::create(builder, store.getLoc(), carried.getResult(0),
                            store.getMemRef(), store.getIndices());
    store.erase();
    load.erase();
    loop.erase();
  }

  void runOnOperation() override {
    // Innermost loops first: the load/store a promotion puts around a loop
    // is then the pair of the loop enclosing it (a conv's window loops).
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (loop.getNumResults() != 0)
        continue;
      auto [load, store] = findAccumulator(loop);
      if (load)
        promote(loop, load, store);
    }
  }
};

struct WrapHostWorkPass
    : PassWrapper<WrapHostWorkPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WrapHostWorkPass)
  StringRef getArgument() const override { return "tfaot-gpu-wrap-host-work"; }
  StringRef getDescription() const override {
    return "Put memory-touching code outside parallel loops into a "
           "one-iteration scf.parallel (run by one GPU thread)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<scf::SCFDialect, arith::ArithDialect>();
  }

  /// The maximal runs of top-level ops that touch memory, with the pure ops
  /// between them (they feed the stores). Runs end at parallel loops and at
  /// ops that only name memory.
  static SmallVector<SmallVector<Operation *>> hostWorkRuns(Block &block) {
    SmallVector<SmallVector<Operation *>> runs;
    SmallVector<Operation *> current;
    auto close = [&] {
      // Trailing pure ops belong to whatever follows.
      while (!current.empty() && isAddressOnly(current.back()))
        current.pop_back();
      if (!current.empty())
        runs.push_back(current);
      current.clear();
    };
    for (Operation &op : block) {
      // Calls stay on the host (tfaot-gpu-check-host-code reports them):
      // what they call is host code, not something a kernel can run.
      bool work = !isAddressOnly(&op) &&
                  !isa<scf::ParallelOp, CallOpInterface>(op);
      bool pure = op.getNumRegions() == 0 && isPure(&op) &&
                  !isa<ViewLikeOpInterface>(op);
      if (work || (pure && !current.empty()))
        current.push_back(&op);
      else
        close();
    }
    close();
    return runs;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    for (SmallVector<Operation *> &run : hostWorkRuns(func.getBody().front())) {
      llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
      Block &body = func.getBody().front();
      bool escapes = llvm::any_of(run, [&](Operation *op) {
        return llvm::any_of(op->getUsers(), [&](Operation *user) {
          return !inRun.contains(body.findAncestorOpInBlock(*user));
        });
      });
      if (escapes)
        continue; // tfaot-gpu-check-host-code reports it.
      OpBuilder builder(run.front());
      Location loc = run.front()->getLoc();
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value one = arith::ConstantIndexOp::create(builder, loc, 1);
      auto loop = scf::ParallelOp::create(builder, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
      Operation *terminator = loop.getBody()->getTerminator();
      for (Operation *op : run)
        op->moveBefore(terminator);
    }
  }
};

/// Threads per block of every kernel: a multiple of the warp size that keeps
/// enough blocks in flight on small tensors and is within every sm_80+ limit.
constexpr int64_t kThreadsPerBlock = 256;

struct FlattenParallelLoopsPass
    : PassWrapper<FlattenParallelLoopsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FlattenParallelLoopsPass)
  StringRef getArgument() const override {
    return "tfaot-gpu-flatten-parallel-loops";
  }
  StringRef getDescription() const override {
    return "Rewrite every outermost scf.parallel as a 1-D blocks x threads "
           "nest over its linearized iteration space, with a bounds guard";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<scf::SCFDialect, arith::ArithDialect>();
  }

  static void flatten(scf::ParallelOp loop) {
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    // Trip count of each dimension, and their product.
    SmallVector<Value> counts;
    Value total = index(1);
    for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                         loop.getUpperBound(), loop.getStep())) {
      Value extent = arith::SubIOp::create(builder, loc, ub, lb);
      Value count = arith::CeilDivSIOp::create(builder, loc, extent, step);
      counts.push_back(count);
      total = arith::MulIOp::create(builder, loc, total, count);
    }
    Value threads = index(kThreadsPerBlock);
    Value blocks = arith::CeilDivSIOp::create(builder, loc, total, threads);
    auto blockLoop = scf::ParallelOp::create(builder, loc, ValueRange{index(0)},
                                             ValueRange{blocks},
                                             ValueRange{index(1)});
    builder.setInsertionPoint(blockLoop.getBody()->getTerminator());
    auto threadLoop = scf::ParallelOp::create(
        builder, loc, ValueRange{index(0)}, ValueRange{threads},
        ValueRange{index(1)});
    builder.setInsertionPoint(threadLoop.getBody()->getTerminator());
    Value linear = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc,
                              blockLoop.getInductionVars()[0], threads),
        threadLoop.getInductionVars()[0]);
    Value inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                          linear, total);
    auto guard = scf::IfOp::create(builder, loc, inRange, /*withElse=*/false);
    builder.setInsertionPoint(guard.thenBlock()->getTerminator());
    // Row-major delinearization: the last dimension varies fastest, so
    // neighbouring threads touch neighbouring elements (coalesced).
    IRMapping mapping;
    Value rest = linear;
    for (int64_t d = loop.getNumLoops() - 1; d >= 0; --d) {
      Value position = d ? arith::RemUIOp::create(builder, loc, rest, counts[d])
                               .getResult()
                         : rest;
      if (d)
        rest = arith::DivUIOp::create(builder, loc, rest, counts[d]);
      Value iv = arith::AddIOp::create(
          builder, loc, loop.getLowerBound()[d],
          arith::MulIOp::create(builder, loc, position, loop.getStep()[d]));
      mapping.map(loop.getInductionVars()[d], iv);
    }
    for (Operation &op : loop.getBody()->without_terminator())
      builder.clone(op, mapping);
    loop.erase();
  }

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() && loop.getNumResults() == 0)
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost)
      flatten(loop);
  }
};

struct MergeKernelModulesPass
    : PassWrapper<MergeKernelModulesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MergeKernelModulesPass)
  StringRef getArgument() const override {
    return "tfaot-gpu-merge-kernel-modules";
  }
  StringRef getDescription() const override {
    return "Move every outlined kernel into one gpu.module (one PTX image per "
           "entry), each named after the module it came from";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<mlir::gpu::GPUModuleOp> kernelModules(
        module.getOps<mlir::gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    OpBuilder builder(kernelModules.front());
    auto merged = mlir::gpu::GPUModuleOp::create(builder, module.getLoc(),
                                           "tfaot_kernels");
    SymbolTable symbols(module);
    symbols.insert(merged);
    // Old kernel reference (module::function) -> new one.
    DenseMap<Attribute, SymbolRefAttr> renamed;
    Block &body = merged.getBodyRegion().front();
    for (mlir::gpu::GPUModuleOp old : kernelModules) {
      for (Operation &op : llvm::make_early_inc_range(old.getBody()->getOperations())) {
        auto kernel = dyn_cast<mlir::gpu::GPUFuncOp>(op);
        if (!kernel) {
          old.emitError("kernel module holds more than kernels; cannot merge");
          return signalPassFailure();
        }
        // Outlined module names are unique; kernels inside repeat names.
        std::string name = old.getName().str();
        auto oldRef = SymbolRefAttr::get(
            old.getNameAttr(), {FlatSymbolRefAttr::get(kernel.getNameAttr())});
        kernel.setName(name);
        kernel->moveBefore(&body, body.end());
        renamed[oldRef] = SymbolRefAttr::get(
            merged.getNameAttr(), {FlatSymbolRefAttr::get(kernel.getContext(), name)});
      }
    }
    module.walk([&](mlir::gpu::LaunchFuncOp launch) {
      auto it = renamed.find(launch.getKernel());
      if (it != renamed.end())
        launch.setKernelAttr(it->second);
    });
    for (mlir::gpu::GPUModuleOp old : kernelModules)
      old.erase();
  }
};

struct ContractFpPass
    : PassWrapper<ContractFpPass, OperationPass<mlir::gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ContractFpPass)
  StringRef getArgument() const override { return "tfaot-gpu-contract-fp"; }
  StringRef getDescription() const override {
    return "Allow floating-point contraction (a*b+c -> FMA) in kernels, as "
           "nvcc does by default";
  }
  void runOnOperation() override {
    getOperation().walk([](arith::ArithFastMathInterface op) {
      op->setAttr(op.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(
                      op->getContext(), op.getFastMathFlagsAttr().getValue() |
                                            arith::FastMathFlags::contract));
    });
  }
};

struct CheckHostCodePass
    : PassWrapper<CheckHostCodePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckHostCodePass)
  StringRef getArgument() const override { return "tfaot-gpu-check-host-code"; }
  StringRef getDescription() const override {
    return "Fail on any op left in host functions that would touch tensor "
           "memory (which lives on the device)";
  }
  void runOnOperation() override {
    bool failed = false;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (Operation &op : func.getBody().getOps()) {
        if (isAddressOnly(&op) || isa<mlir::gpu::LaunchFuncOp>(op))
          continue;
        // The runtime's cuBLAS entry takes device addresses by value.
        if (auto call = dyn_cast<func::CallOp>(op);
            call && tfaot::gpu::isRuntimeGemm(call.getCallee()))
          continue;
        // mlir::emitError, not op.emitError: the op's dump would not help
        // the user, the node name in the location does.
        InFlightDiagnostic diag = mlir::emitError(op.getLoc())
                                  << "cannot run on the GPU: ";
        if (auto call = dyn_cast<CallOpInterface>(op)) {
          auto callee = dyn_cast_if_present<SymbolRefAttr>(
              call.getCallableForCallee().dyn_cast<SymbolRefAttr>());
          diag << "it calls "
               << (callee ? "'" + callee.getLeafReference().str() + "'"
                          : std::string("a function"))
               << ", which runs on the CPU only";
        } else {
          diag << "'" << op.getName()
               << "' is left in host code, where it would access device "
                  "memory";
        }
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

void tfaot::gpu::registerKernelPasses() {
  PassRegistration<CopiesToLinalgPass>();
  PassRegistration<ParallelDimsFirstPass>();
  PassRegistration<AccumulateInRegistersPass>();
  PassRegistration<WrapHostWorkPass>();
  PassRegistration<FlattenParallelLoopsPass>();
  PassRegistration<MergeKernelModulesPass>();
  PassRegistration<ContractFpPass>();
  PassRegistration<CheckHostCodePass>();
}
