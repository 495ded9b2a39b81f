//===- ObjectEmitter.cpp - LLVM dialect to a native object file -----------===//
//
// Uses LLVM's new pass manager at the requested -O level, then the target's
// code generator. Object emission is position independent so the object can
// go into shared libraries as well as executables.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/ObjectEmitter.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/IPO/ConstantMerge.h"

using namespace tfaot;

static void initializeTargetsOnce() {
  static bool done = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)done;
}

/// Resolves "native" to the host CPU and its features.
static void resolveCpu(const cpu::TargetOptions &target, std::string &cpu,
                       std::string &features) {
  cpu = target.cpu;
  features = target.features;
  if (cpu != "native")
    return;
  cpu = llvm::sys::getHostCPUName().str();
  std::string host;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    host += (host.empty() ? "" : ",") +
            std::string(feature.second ? "+" : "-") + feature.first().str();
  features = features.empty() ? host : host + "," + features;
}

static void optimize(llvm::Module &module, llvm::TargetMachine *machine,
                     int optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel <= 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager passes =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  // Entries of several batch buckets carry the same weights: merge the
  // identical constants (made unnamed_addr by linkEntries) into one copy.
  passes.addPass(llvm::ConstantMergePass());
  passes.run(module, mam);
}

/// Translates `modules` and links them into one LLVM module (their private
/// symbols are renamed apart). Local constants become unnamed_addr, which
/// is safe because generated code never compares their addresses, and lets
/// identical ones be merged.
static std::unique_ptr<llvm::Module>
linkEntries(llvm::ArrayRef<mlir::ModuleOp> modules, llvm::LLVMContext &context,
            std::string &error) {
  std::unique_ptr<llvm::Module> linked;
  for (mlir::ModuleOp module : modules) {
    mlir::registerBuiltinDialectTranslation(*module->getContext());
    mlir::registerLLVMDialectTranslation(*module->getContext());
    std::unique_ptr<llvm::Module> llvmModule =
        mlir::translateModuleToLLVMIR(module, context, "tfaot");
    if (!llvmModule) {
      error = "translation to LLVM IR failed";
      return nullptr;
    }
    if (!linked) {
      linked = std::move(llvmModule);
    } else if (llvm::Linker::linkModules(*linked, std::move(llvmModule))) {
      error = "linking the batch buckets' code failed";
      return nullptr;
    }
  }
  for (llvm::GlobalVariable &global : linked->globals())
    if (global.isConstant() && global.hasLocalLinkage())
      global.setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return linked;
}

/// The code generator for `target`, or null with `error` set.
static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const cpu::TargetOptions &target, llvm::Triple &triple,
                    std::string &error) {
  initializeTargetsOnce();
  triple = llvm::Triple(target.triple.empty()
                            ? llvm::sys::getDefaultTargetTriple()
                            : target.triple);
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget) {
    error = "unknown target triple '" + triple.str() + "': " + error;
    return nullptr;
  }
  std::string cpuName, features;
  resolveCpu(target, cpuName, features);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, cpuName, features, options, llvm::Reloc::PIC_, std::nullopt,
      target.optLevel >= 2 ? llvm::CodeGenOptLevel::Aggressive
                           : llvm::CodeGenOptLevel::Default));
  if (!machine)
    error = "cannot create a code generator for '" + triple.str() + "'";
  return machine;
}

unsigned cpu::vectorBitsFor(const TargetOptions &target) {
  llvm::Triple triple;
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(target, triple, error);
  if (!machine)
    return 128; // emitObject reports the error.
  const llvm::MCSubtargetInfo *info = machine->getMCSubtargetInfo();
  if (triple.isX86()) {
    if (info->checkFeatures("+avx512f"))
      return 512;
    if (info->checkFeatures("+avx"))
      return 256;
  }
  return 128; // SSE2, NEON and the like.
}

bool cpu::emitObject(llvm::ArrayRef<mlir::ModuleOp> modules,
                     const TargetOptions &target, std::string &object,
                     std::string &error, std::string *llvmIR) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      linkEntries(modules, context, error);
  if (!llvmModule)
    return false;
  llvm::Triple triple;
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(target, triple, error);
  if (!machine)
    return false;
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());

  optimize(*llvmModule, machine.get(), target.optLevel);
  if (llvmIR) {
    llvm::raw_string_ostream os(*llvmIR);
    llvmModule->print(os, nullptr);
  }

  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit object files";
    return false;
  }
  codegen.run(*llvmModule);
  object.assign(buffer.begin(), buffer.end());
  return true;
}
