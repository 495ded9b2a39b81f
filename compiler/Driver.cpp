//===- Driver.cpp - tfaot compile: import, lower, emit --------------------===//
//
// Stages: load the graph and config -> import to the tfaot dialect -> CPU
// bufferization pipeline (measure temp memory) -> LLVM dialect -> object and
// header. --emit stops early and prints the IR of a stage instead.
//
//===----------------------------------------------------------------------===//
#include "compiler/Driver.h"

#include "backends/cpu/HeaderWriter.h"
#include "backends/cpu/Pipeline.h"
#include "compiler/CompileReport.h"
#include "compiler/GraphImporter.h"
#include "compiler/GraphLoader.h"
#include "compiler/TfjsLoader.h"
#include "ir/Dialect.h"
#include "passes/GraphPipeline.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace tfaot;

std::string tfaot::defaultEntryPoint(const std::string &cppClass) {
  std::string name = cppClass;
  for (size_t pos; (pos = name.find("::")) != std::string::npos;)
    name.replace(pos, 2, "_");
  return "tfaot_" + name;
}

/// Writes `contents` to `path` ("-" is stdout), atomically for real files.
static bool writeOutput(const std::string &path, llvm::StringRef contents,
                        GraphDiagnostics &diags) {
  std::string error;
  auto file = mlir::openOutputFile(path, &error);
  if (!file) {
    diags.error("cannot write '" + path + "': " + error);
    return false;
  }
  file->os() << contents;
  file->keep();
  return true;
}

static std::string printModule(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// Prints the IR to `os` after the passes named in `passNames` (pass
/// arguments, or "all"), for --dump_ir_after.
static void enableIRDumps(mlir::PassManager &pm,
                          const std::vector<std::string> &passNames,
                          llvm::raw_ostream &os) {
  if (passNames.empty())
    return;
  // Printing whole modules from nested passes needs a single thread.
  pm.getContext()->disableMultithreading();
  auto selected = [passNames](mlir::Pass *pass, mlir::Operation *) {
    return llvm::any_of(passNames, [&](const std::string &name) {
      return name == "all" || name == pass->getArgument();
    });
  };
  pm.enableIRPrinting([](mlir::Pass *, mlir::Operation *) { return false; },
                      selected, /*printModuleScope=*/true,
                      /*printAfterOnlyOnChange=*/false,
                      /*printAfterOnlyOnFailure=*/false, os);
}

/// Runs `build`'s pipeline on `module`, reporting failures against the graph.
static bool runPipeline(
    mlir::ModuleOp module,
    llvm::function_ref<mlir::LogicalResult(mlir::OpPassManager &)> build,
    const CompileOptions &options, GraphDiagnostics &diags) {
  mlir::PassManager pm(module->getContext());
  if (failed(build(pm))) {
    diags.error("internal error: cannot build the lowering pipeline");
    return false;
  }
  enableIRDumps(pm, options.dumpIrAfter, diags.stream());
  ScopedGraphDiagnosticHandler handler(module->getContext(), diags);
  if (failed(pm.run(module))) {
    if (!diags.hasErrors())
      diags.error("code generation failed");
    return false;
  }
  return true;
}

/// The data layout for --layout on the CPU target ("auto" picks NHWC: the
/// layout of linalg's named convolutions, and the faster one on CPUs).
static std::string resolveLayout(const std::string &layout) {
  return layout == "auto" ? "nhwc" : layout;
}

static uint64_t moduleBytes(mlir::ModuleOp module, llvm::StringRef name) {
  auto attr = module->getAttrOfType<mlir::IntegerAttr>(name);
  return attr ? static_cast<uint64_t>(attr.getInt()) : 0;
}

/// The memory figures PlanBuffers left on the module.
static CompileReport::Memory memoryPlanOf(mlir::ModuleOp module) {
  CompileReport::Memory memory;
  memory.arenaBytes = moduleBytes(module, "tfaot.arena_bytes");
  memory.naiveTempBytes = moduleBytes(module, "tfaot.naive_temp_bytes");
  memory.peakLiveBytes = moduleBytes(module, "tfaot.peak_live_bytes");
  memory.heapTempBytes = moduleBytes(module, "tfaot.heap_temp_bytes");
  return memory;
}

static int compileGraph(const CompileOptions &options, llvm::raw_ostream &errs,
                        CompileReport &report);

int tfaot::compile(const CompileOptions &options, llvm::raw_ostream &errs,
                   llvm::raw_ostream &out) {
  CompileReport report;
  report.graph = options.graph;
  report.graphPasses = options.graphPasses;
  report.layout = resolveLayout(options.layout);
  int rc = compileGraph(options, errs, report);
  if (rc == 0 && options.report == CompileOptions::Report::Text)
    report.print(out);
  if (rc == 0 && options.report == CompileOptions::Report::Json)
    report.printJson(out);
  return rc;
}

static int compileGraph(const CompileOptions &options, llvm::raw_ostream &errs,
                        CompileReport &report) {
  GraphDiagnostics diags(options.graph, errs);
  if (options.report != CompileOptions::Report::None)
    diags.setRemarkSink([&report](llvm::StringRef message, std::string node) {
      report.addRemark(message, std::move(node));
    });
  if (options.graph.empty()) {
    diags.error("no graph: give --graph model.pb");
    return 1;
  }
  bool emitObject = options.emit == EmitStage::Object;
  if (emitObject && options.outHeader.empty() && options.outObject.empty()) {
    diags.error("nothing to write: give --out_function_object and/or "
                "--out_header (or --emit to print IR)");
    return 1;
  }
  if (emitObject && !options.outHeader.empty() &&
      !cpu::isValidCppClassName(options.cppClass)) {
    diags.error(options.cppClass.empty()
                    ? "--cpp_class is required to write a header"
                    : "--cpp_class '" + options.cppClass +
                          "' is not a C++ class name like 'ns::Name'");
    return 1;
  }
  if (options.layout != "auto" && options.layout != "nhwc" &&
      options.layout != "nchw") {
    diags.error("--layout must be auto, nhwc or nchw, not '" + options.layout +
                "'");
    return 1;
  }

  // Feeds and fetches: the config first, then flags, in that order.
  tensorflow::tf2xla::Config config;
  if (!options.config.empty()) {
    GraphDiagnostics configDiags(options.config, errs);
    auto loaded = loadConfig(options.config, configDiags);
    if (!loaded)
      return 1;
    config = *loaded;
  }
  for (const std::string &feed : options.feeds)
    addFeedFlag(feed, config, diags);
  for (const std::string &fetch : options.fetches)
    addFetchFlag(fetch, config, diags);
  if (diags.hasErrors())
    return 1;

  // A TF.js graph model (model.json + weight shards) brings its own
  // signature, which fills in whatever feeds and fetches the user left out.
  bool tfjs = llvm::StringRef(options.graph).ends_with_insensitive(".json");
  tensorflow::tf2xla::Config signatureConfig;
  auto graph = tfjs ? loadTfjsModel(options.graph, diags, &signatureConfig)
                    : loadGraphDef(options.graph, diags);
  if (!graph)
    return 1;
  if (tfjs)
    applyTfjsSignature(signatureConfig, config, diags);

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::tfaot::TfaotDialect>();
  mlir::MLIRContext context(registry);
  context.allowUnregisteredDialects(false);

  ImportOptions importOptions;
  std::string cppClass = options.cppClass.empty() ? "Model" : options.cppClass;
  importOptions.functionName = options.entryPoint.empty()
                                   ? defaultEntryPoint(cppClass)
                                   : options.entryPoint;
  FunctionSignature signature;
  auto module = importGraph(*graph, config, importOptions, &context, diags,
                            signature);
  if (!module)
    return 1;
  report.opsImported = countTfaotOps(*module);
  auto stopAt = [&](EmitStage stage) {
    return options.emit == stage
               ? (writeOutput(options.outMlir, printModule(*module), diags) ? 0
                                                                           : 1)
               : -1;
  };
  if (options.graphPasses) {
    mlir::tfaot::GraphPipelineOptions graphOptions;
    graphOptions.layout = resolveLayout(options.layout);
    if (!runPipeline(
            *module,
            [&](mlir::OpPassManager &pm) {
              mlir::tfaot::buildGraphPipeline(pm, graphOptions);
              return mlir::success();
            },
            options, diags))
      return 1;
    report.opsAfterGraphPasses = countTfaotOps(*module);
  }
  if (int rc = stopAt(EmitStage::Tfaot); rc >= 0)
    return rc;

  if (options.emit == EmitStage::Linalg) {
    bool ok = runPipeline(
        *module,
        [](mlir::OpPassManager &pm) {
          pm.addPass(mlir::tfaot::createLowerToLinalgPass());
          return mlir::success();
        },
        options, diags);
    return ok ? stopAt(EmitStage::Linalg) : 1;
  }
  if (!runPipeline(*module, cpu::buildBufferizePipeline, options, diags))
    return 1;
  uint64_t tempBytes = cpu::countTempBytes(*module);
  report.memory = memoryPlanOf(*module);
  if (int rc = stopAt(EmitStage::Bufferized); rc >= 0)
    return rc;
  if (!runPipeline(*module, cpu::buildToLLVMPipeline, options, diags))
    return 1;
  // The header calls the entry with one pointer per argument and result and
  // nothing back; make sure the lowering produced exactly that ABI.
  auto entry = module->lookupSymbol<mlir::LLVM::LLVMFuncOp>(
      importOptions.functionName);
  size_t expectedParams = signature.args.size() + signature.results.size() +
                          (cpu::arenaBytes(*module) ? 1 : 0); // + the arena
  if (!entry || entry.getNumArguments() != expectedParams ||
      !mlir::isa<mlir::LLVM::LLVMVoidType>(
          entry.getFunctionType().getReturnType())) {
    diags.error("internal error: the lowered entry function does not have the "
                "expected signature (" +
                llvm::Twine(expectedParams) + " pointers, no result)");
    return 1;
  }
  if (int rc = stopAt(EmitStage::LLVMDialect); rc >= 0)
    return rc;

  std::string object, error, llvmIR;
  if (!cpu::emitObject(*module, options.target, object, error,
                       options.emit == EmitStage::LLVMIR ? &llvmIR : nullptr)) {
    diags.error(error);
    return 1;
  }
  if (options.emit == EmitStage::LLVMIR)
    return writeOutput(options.outMlir, llvmIR, diags) ? 0 : 1;

  if (!options.outHeader.empty()) {
    cpu::HeaderOptions headerOptions;
    headerOptions.cppClass = options.cppClass;
    headerOptions.entrySymbol = importOptions.functionName;
    headerOptions.sourceGraph = llvm::sys::path::filename(options.graph).str();
    headerOptions.tempBytes = tempBytes;
    cpu::readMemoryPlan(*module, headerOptions);
    std::string header;
    if (!cpu::writeHeader(signature, headerOptions, header, error)) {
      diags.error(error);
      return 1;
    }
    if (!writeOutput(options.outHeader, header, diags))
      return 1;
  }
  if (!options.outObject.empty() &&
      !writeOutput(options.outObject, object, diags))
    return 1;
  return 0;
}
