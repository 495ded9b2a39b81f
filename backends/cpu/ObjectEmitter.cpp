//===- ObjectEmitter.cpp - LLVM dialect to a native object file -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Uses LLVM's new pass manager at the requested -O level, then the target's
// code generator. Object emission is position independent so the object can
// go into shared libraries as well as executables.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/ObjectEmitter.h"

#include "ir/DidYouMean.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
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

/// The triple `target` names, or the host's.
static llvm::Triple tripleOf(const cpu::TargetOptions &target) {
  return llvm::Triple(target.triple.empty()
                          ? llvm::sys::getDefaultTargetTriple()
                          : target.triple);
}

/// LLVM's target for `triple`, or null with `error` set.
static const llvm::Target *lookupTarget(const llvm::Triple &triple,
                                        std::string &error) {
  initializeTargetsOnce();
  std::string why;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, why);
  if (!target)
    error = "unknown target triple '" + triple.str() + "': " + why;
  return target;
}

/// The target's tables of CPUs and features. Asking with no CPU and no
/// features is what keeps LLVM from printing warnings about either.
static std::unique_ptr<llvm::MCSubtargetInfo>
subtargetTables(const llvm::Target &target, const llvm::Triple &triple) {
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      target.createMCSubtargetInfo(triple, "", ""));
}

template <typename KeyValues>
static std::vector<llvm::StringRef> keysOf(KeyValues table) {
  std::vector<llvm::StringRef> keys;
  for (const auto &entry : table)
    keys.push_back(entry.Key);
  return keys;
}

/// " (did you mean 'a' or 'b'?)" with the `names` closest to `wrong`
/// (ir/DidYouMean.h), or "".
static std::string didYouMeanIn(llvm::StringRef wrong,
                                llvm::ArrayRef<llvm::StringRef> names) {
  std::string suggestion = didYouMean(wrong, names);
  return suggestion.empty() ? "" : " (" + suggestion + ")";
}

std::string cpu::checkTarget(const TargetOptions &target) {
  if (target.optLevel < 0 || target.optLevel > 3)
    return "-O takes 0, 1, 2 or 3, not " + std::to_string(target.optLevel);
  llvm::Triple triple = tripleOf(target);
  std::string error;
  const llvm::Target *llvmTarget = lookupTarget(triple, error);
  if (!llvmTarget)
    return error + " (give an LLVM triple like x86_64-unknown-linux-gnu)";
  std::unique_ptr<llvm::MCSubtargetInfo> tables =
      subtargetTables(*llvmTarget, triple);
  if (!tables)
    return ""; // A target without subtargets: nothing to check against.
  bool native = target.cpu == "native";
  if (!target.cpu.empty() && !native &&
      !tables->isCPUStringValid(target.cpu))
    return "unknown --target_cpu '" + target.cpu + "' for " + triple.str() +
           didYouMeanIn(target.cpu,
                      keysOf(tables->getAllProcessorDescriptions())) +
           "; '--target_cpu help' lists the CPUs";
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(target.features).split(items, ',', -1, /*KeepEmpty=*/false);
  std::vector<llvm::StringRef> features =
      keysOf(tables->getAllProcessorFeatures());
  for (llvm::StringRef item : items) {
    item = item.trim();
    llvm::StringRef name = item.drop_front();
    if (!item.starts_with("+") && !item.starts_with("-"))
      return "--target_features: '" + item.str() +
             "' needs '+' (enable) or '-' (disable) in front, e.g. '+" +
             item.str() + "'";
    if (!llvm::is_contained(features, name))
      return "--target_features: unknown feature '" + name.str() + "' for " +
             triple.str() + didYouMeanIn(name, features);
  }
  // X86's code generator stops the process when 64-bit code is asked of a
  // CPU (or feature set) without x86-64; say so here instead.
  if (triple.isX86() && triple.isArch64Bit() && !native) {
    std::unique_ptr<llvm::MCSubtargetInfo> chosen(
        llvmTarget->createMCSubtargetInfo(triple, target.cpu,
                                          target.features));
    if (chosen && !chosen->checkFeatures("+64bit"))
      return "--target_cpu '" +
             (target.cpu.empty() ? std::string("generic") : target.cpu) +
             "' with --target_features '" + target.features +
             "' has no 64-bit mode, which " + triple.str() +
             " needs (pick an x86-64 CPU, or a 32-bit triple such as "
             "i686-unknown-linux-gnu)";
  }
  return "";
}

bool cpu::printTargetCpus(const TargetOptions &target, llvm::raw_ostream &os,
                          std::string &error) {
  llvm::Triple triple = tripleOf(target);
  const llvm::Target *llvmTarget = lookupTarget(triple, error);
  if (!llvmTarget)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> tables =
      subtargetTables(*llvmTarget, triple);
  os << "CPUs for --target_cpu with " << triple.str()
     << " (also 'native': this machine's):\n";
  if (tables)
    for (llvm::StringRef cpu : keysOf(tables->getAllProcessorDescriptions()))
      os << "  " << cpu << "\n";
  return true;
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

/// Lets every generated function realign its stack frame, so that spilled
/// vector registers get slots of their own alignment. x86-64 promises only
/// 16-byte stack alignment, and LLVM does not realign a frame on its own
/// once register allocation has used the frame pointer register: a
/// register tile that spills a few of its 32 zmm registers per reduction
/// step (the 7 x 4-vector tiles of tfaot-vectorize-contractions) then
/// stores and reloads them with unaligned 64-byte moves, and whether those
/// split across cache lines depends on where the process's stack happens
/// to start. ResNet-50's 256 -> 1024 and 512 -> 2048 1x1 convolutions took
/// 0.95 or 1.20 ms a call from one process to the next. The realignment
/// costs a few instructions per call.
static void alignVectorSpills(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("stackrealign");
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
  triple = tripleOf(target);
  const llvm::Target *llvmTarget = lookupTarget(triple, error);
  if (!llvmTarget)
    return nullptr;
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

bool cpu::hasAmxBf16(const TargetOptions &target) {
  llvm::Triple triple;
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(target, triple, error);
  return machine && triple.isX86() &&
         machine->getMCSubtargetInfo()->checkFeatures("+amx-bf16,+amx-tile");
}

bool cpu::emitObject(llvm::ArrayRef<mlir::ModuleOp> modules,
                     const TargetOptions &target, std::string &object,
                     std::string &error, std::string *llvmIR,
                     llvm::StringRef extraIR) {
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
  if (!extraIR.empty()) {
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> extra =
        llvm::parseAssemblyString(extraIR, diagnostic, context);
    if (!extra) {
      // Our own IR text: a bug in its writer, said as LLVM says it.
      std::string text;
      llvm::raw_string_ostream os(text);
      diagnostic.print("tfaot", os);
      error = "internal error in the generated C API table: " + text;
      return false;
    }
    // Same triple and layout, so that linking does not warn about them.
    extra->setTargetTriple(triple);
    extra->setDataLayout(llvmModule->getDataLayout());
    if (llvm::Linker::linkModules(*llvmModule, std::move(extra))) {
      error = "linking the C API table into the model failed";
      return false;
    }
  }

  optimize(*llvmModule, machine.get(), target.optLevel);
  if (triple.isX86())
    alignVectorSpills(*llvmModule);
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
