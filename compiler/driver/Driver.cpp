//===- Driver.cpp - tfaot compile: import, lower, emit --------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Stages: load the graph and config -> import to the tfaot dialect -> CPU
// bufferization pipeline (measure temp memory) -> LLVM dialect -> object and
// header. --emit stops early and prints the IR of a stage instead.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/Driver.h"

#include "backends/cpu/Passes.h"
#include "backends/cpu/Pipeline.h"
#include "backends/gpu/LowerEntry.h"
#include "backends/gpu/Pipeline.h"
#include "compiler/driver/BatchChunks.h"
#include "compiler/driver/CApiWriter.h"
#include "compiler/driver/CompileReport.h"
#include "compiler/driver/HeaderWriter.h"
#include "compiler/driver/SharedLibrary.h"
#include "compiler/driver/Watchdog.h"
#include "compiler/frontend/GraphImporter.h"
#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/TfjsLoader.h"
#include "ir/Dialect.h"
#include "passes/GraphPipeline.h"
#include "passes/MemoryPlan.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace tfaot;

std::string tfaot::defaultEntryPoint(const std::string &cppClass) {
  std::string name = cppClass;
  for (size_t pos; (pos = name.find("::")) != std::string::npos;)
    name.replace(pos, 2, "_");
  return "tfaot_" + name;
}

/// Writes --emit's IR to `path` ("-" is stdout): a file gets all of it or
/// keeps what it had.
static bool writeOutput(const std::string &path, llvm::StringRef contents,
                        GraphDiagnostics &diags) {
  return writeFileAtomically(path, contents, diags.stream());
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
namespace {
/// Tells the progress which pass runs, for --max_compile_seconds' message
/// (a stuck compilation is usually one pass that does not finish).
struct PassTracker : mlir::PassInstrumentation {
  explicit PassTracker(CompileProgress &progress) : progress(progress) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    // Pipeline adaptors (func.func(...)) have no argument: keep the pass
    // inside them.
    if (!pass->getArgument().empty())
      progress.setPass(pass->getArgument());
  }
  CompileProgress &progress;
};
} // namespace

static bool runPipeline(
    mlir::ModuleOp module,
    llvm::function_ref<mlir::LogicalResult(mlir::OpPassManager &)> build,
    const CompileOptions &options, GraphDiagnostics &diags,
    CompileProgress &progress) {
  mlir::PassManager pm(module->getContext());
  if (failed(build(pm))) {
    diags.error("internal error: cannot build the lowering pipeline");
    return false;
  }
  enableIRDumps(pm, options.dumpIrAfter, diags.stream());
  pm.addInstrumentation(std::make_unique<PassTracker>(progress));
  ScopedGraphDiagnosticHandler handler(module->getContext(), diags);
  if (failed(pm.run(module))) {
    if (!diags.hasErrors())
      diags.error("code generation failed");
    return false;
  }
  return true;
}

/// Parses --jpeg_size "HxW" into [H, W]; false (and `size` empty) if it is
/// not two positive integers.
static bool parseJpegSize(llvm::StringRef text, std::vector<int64_t> &size) {
  size.clear();
  auto [h, w] = text.split('x');
  int64_t height = 0, width = 0;
  if (h.getAsInteger(10, height) || w.getAsInteger(10, width) || height < 1 ||
      width < 1)
    return false;
  size = {height, width};
  return true;
}

/// The data layout for --layout on the CPU target ("auto" picks NHWC: the
/// layout of linalg's named convolutions, and the faster one on CPUs).
static std::string resolveLayout(const std::string &layout) {
  return layout == "auto" ? "nhwc" : layout;
}

static int compileGraph(const CompileOptions &options, const BuildHooks &hooks,
                        llvm::raw_ostream &errs, CompileReport &report);

int tfaot::buildOnce(const CompileOptions &options, const BuildHooks &hooks,
                     llvm::raw_ostream &errs, llvm::raw_ostream &out) {
  CompileReport report;
  report.graph = options.graph;
  report.graphPasses = options.graphPasses;
  report.layout = resolveLayout(options.layout);
  int rc = compileGraph(options, hooks, errs, report);
  if (rc == 0 && options.report == CompileOptions::Report::Text)
    report.print(out);
  if (rc == 0 && options.report == CompileOptions::Report::Json)
    report.printJson(out);
  return rc;
}

/// One entry function: the graph imported and lowered for one set of feed
/// shapes (one batch bucket, or the shapes as given).
struct LoweredEntry {
  int64_t batch = 0;  ///< 0: not a bucket.
  std::string symbol;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  FunctionSignature signature;
  uint64_t tempBytes = 0;  ///< Arena plus heap temporaries.
  /// With CompileOptions::profile: each timed op, by id.
  std::vector<ProfiledOp> profileOps;
  std::string ptx;         ///< --target=cuda: the kernels' PTX.
  bool cubin = false;      ///< --target=cuda: a cubin is embedded too.
  bool cublas = false;     ///< --target=cuda: the host code calls cuBLAS.
  /// Set when lowerEntry stopped after the graph passes because the batch
  /// is to be computed in runs of this many rows (lowerEntryInChunks).
  int64_t chunkRows = 0;
  /// The graph for one run's rows of such an entry: lowered whole.
  bool isChunk = false;
};

static bool checkEntryAbi(mlir::ModuleOp module, const LoweredEntry &entry,
                          GraphDiagnostics &diags);

/// --target=cuda after the shared stages: GPU bufferization here (the memory
/// plan is measured as for the CPU), the rest in backends/gpu/LowerEntry.
static bool lowerEntryForCuda(const CompileOptions &options,
                              GraphDiagnostics &diags, CompileReport &report,
                              CompileProgress &progress,
                              const std::string &bucket, LoweredEntry &entry) {
  mlir::ModuleOp module = *entry.module;
  progress.stage("lowering and bufferizing for the GPU" + bucket);
  std::string precision = effectivePrecision(options);
  gpu::GemmOptions gemms{options.gpuGemm == "cublas", precision == "tf32",
                         precision == "fp16"   ? "f16"
                         : precision == "bf16" ? "bf16"
                                               : "",
                         options.gpuConv == "cudnn", !options.gpuEmulate,
                         options.gpuDepthwise == "tiled"};
  if (!runPipeline(
          module,
          [&](mlir::OpPassManager &pm) {
            return gpu::buildBufferizePipeline(pm, gemms);
          },
          options, diags, progress))
    return false;
  report.memory = mlir::tfaot::readMemoryPlan(module);
  entry.tempBytes = report.memory->tempBytes();
  if (options.emit == EmitStage::Bufferized) {
    // tfaot explain stops here, before the kernel mapping: say which kernel
    // each depthwise convolution will get, as the mapping decides.
    return options.report == CompileOptions::Report::None ||
           runPipeline(
               module,
               [&](mlir::OpPassManager &pm) {
                 return gpu::buildDepthwiseReportPipeline(pm, gemms);
               },
               options, diags, progress);
  }
  gpu::EntryOptions gpuOptions;
  gpuOptions.arch = options.gpuArch;
  gpuOptions.gemms = gemms;
  gpuOptions.stop = options.emit == EmitStage::GpuKernels
                        ? gpu::EntryOptions::Stop::Kernels
                    : options.emit == EmitStage::Ptx ||
                            options.emit == EmitStage::LLVMDialect
                        ? gpu::EntryOptions::Stop::Ptx
                        : gpu::EntryOptions::Stop::Host;
  gpuOptions.emulate = options.gpuEmulate;
  if (options.gpuEmulate)
    gpuOptions.vectorBits = cpu::vectorBitsFor(options.target);
  gpuOptions.verbose = options.verbosity == Verbosity::Verbose;
  gpuOptions.graphName = options.graph;
  progress.stage("GPU kernels, PTX and host code" + bucket);
  std::string error;
  gpu::LoweredKernels kernels;
  bool ok = gpu::lowerBufferizedEntry(
      module, gpuOptions,
      [&](auto build) {
        return runPipeline(module, build, options, diags, progress);
      },
      kernels, error, diags.stream());
  if (!ok && !error.empty())
    diags.error(error);
  entry.ptx = kernels.ptx;
  entry.cubin = kernels.cubin;
  entry.cublas = kernels.cublas;
  return ok;
}

/// The batch of an entry: the first dimension shared by every argument and
/// result, or 0 when they do not share one (or a result's size varies).
static int64_t signatureBatch(const FunctionSignature &signature) {
  int64_t batch = 0;
  auto shares = [&](const TensorSignature &tensor) {
    if (tensor.shape.empty() || tensor.bounded)
      return false;
    if (!batch)
      batch = tensor.shape[0];
    return tensor.shape[0] == batch;
  };
  if (signature.args.empty() || !llvm::all_of(signature.args, shares) ||
      !llvm::all_of(signature.results, shares))
    return 0;
  return batch;
}

/// Decides, for a CPU object, whether the entry runs its batch in chunks
/// (BatchChunks.h); sets entry.chunkRows if so. False after an error.
static bool chooseEntryChunks(mlir::ModuleOp module,
                              const CompileOptions &options,
                              GraphDiagnostics &diags, CompileReport &report,
                              LoweredEntry &entry) {
  if (entry.isChunk)
    return true; // Already the graph for one run's rows.
  bool cpuObject = options.targetKind == "cpu" &&
                   (options.emit == EmitStage::Object ||
                    options.emit == EmitStage::LLVMDialect ||
                    options.emit == EmitStage::LLVMIR);
  int64_t batch = signatureBatch(entry.signature);
  if (!cpuObject || batch < 2) {
    int64_t rows = 0;
    parseBatchChunk(options.batchChunk, rows);
    if (cpuObject && !batch && rows) {
      diags.error("--batch_chunk=" + options.batchChunk +
                  ": the arguments and results do not share a first "
                  "dimension (the batch) to run in chunks");
      return false;
    }
    return true;
  }
  std::string note, error;
  entry.chunkRows = chooseBatchChunk(module, entry.symbol, batch,
                                     options.batchChunk, note, error);
  if (!error.empty()) {
    diags.error(error);
    return false;
  }
  report.batchChunks = note;
  return true;
}

/// The ops tfaot-instrument-profile timed, from its module attributes.
static std::vector<ProfiledOp> readProfiledOps(mlir::ModuleOp module) {
  std::vector<ProfiledOp> ops;
  auto names =
      module->getAttrOfType<mlir::ArrayAttr>(mlir::tfaot::kProfileNamesAttr);
  if (!names)
    return ops;
  auto flop = module->getAttrOfType<mlir::DenseI64ArrayAttr>(
      mlir::tfaot::kProfileFlopAttr);
  auto bytes = module->getAttrOfType<mlir::DenseI64ArrayAttr>(
      mlir::tfaot::kProfileBytesAttr);
  for (auto [i, name] : llvm::enumerate(names)) {
    ProfiledOp op{mlir::cast<mlir::StringAttr>(name).str()};
    if (flop && i < size_t(flop.size()))
      op.flop = flop[i];
    if (bytes && i < size_t(bytes.size()))
      op.bytes = bytes[i];
    ops.push_back(std::move(op));
  }
  return ops;
}

/// Imports `graph` for `config` and lowers it to the LLVM dialect, or only
/// as far as options.emit asks for IR. Returns false after reporting.
static bool lowerEntry(const tensorflow::GraphDef &graph,
                       const tensorflow::tf2xla::Config &config,
                       const CompileOptions &options, const BuildHooks &hooks,
                       mlir::MLIRContext &context, GraphDiagnostics &diags,
                       CompileReport &report, CompileProgress &progress,
                       LoweredEntry &entry) {
  std::string bucket =
      entry.batch ? " (batch " + std::to_string(entry.batch) + ")" : "";
  progress.stage("importing" + bucket);
  ImportOptions importOptions;
  importOptions.functionName = entry.symbol;
  parseJpegSize(options.jpegSize, importOptions.jpegSize);
  for (const std::string &text : options.feedValues) {
    std::string why; // Checked with the other flags in compileGraph.
    if (auto frozen = parseFrozenFeed(text, why))
      importOptions.frozenFeeds.push_back(*frozen);
  }
  entry.module = importGraph(graph, config, importOptions, &context, diags,
                             entry.signature);
  if (!entry.module)
    return false;
  mlir::ModuleOp module = *entry.module;
  report.opsImported = countTfaotOps(module);
  if (options.graphPasses) {
    progress.stage("graph passes" + bucket);
    mlir::tfaot::GraphPipelineOptions graphOptions;
    graphOptions.layout = resolveLayout(options.layout);
    graphOptions.jpegDctScaling = options.jpegDctScaling;
    if (!runPipeline(
            module,
            [&](mlir::OpPassManager &pm) {
              mlir::tfaot::buildGraphPipeline(pm, graphOptions);
              return mlir::success();
            },
            options, diags, progress))
      return false;
    report.opsAfterGraphPasses = countTfaotOps(module);
  }
  if (hooks.afterGraphPasses &&
      !hooks.afterGraphPasses(module, entry.signature))
    return false;
  if (options.emit == EmitStage::Tfaot)
    return true;
  if (!chooseEntryChunks(module, options, diags, report, entry))
    return false;
  if (entry.chunkRows)
    return true;
  // The lowering reads it (passes/LowerIndexChecks.cpp). CUDA code keeps its
  // indices in device memory, which the runtime's host-side check cannot
  // read: no checks there yet (the gathers still clamp).
  if (options.runtimeChecks == "none" || options.targetKind == "cuda")
    module->setAttr(mlir::tfaot::kRuntimeChecksAttr,
                    mlir::StringAttr::get(module->getContext(), "none"));
  if (options.emit == EmitStage::Linalg)
    return runPipeline(
        module,
        [](mlir::OpPassManager &pm) {
          pm.addPass(mlir::tfaot::createLowerToLinalgPass());
          return mlir::success();
        },
        options, diags, progress);
  if (options.targetKind == "cuda") {
    if (!lowerEntryForCuda(options, diags, report, progress, bucket, entry))
      return false;
    if (options.emit != EmitStage::Object && options.emit != EmitStage::LLVMIR)
      return true;
    return checkEntryAbi(module, entry, diags);
  }
  progress.stage("lowering and bufferizing" + bucket);
  // Both pipelines size their choices by the target's vector width (it
  // builds an LLVM TargetMachine: asked once).
  unsigned vectorBits = cpu::vectorBitsFor(options.target);
  if (!runPipeline(
          module,
          [&](mlir::OpPassManager &pm) {
            return cpu::buildBufferizePipeline(
                pm, options.convAlgorithm,
                effectivePrecision(options) == "bf16",
                cpu::hasAmxBf16(options.target),
                options.cpuGemm == "auto" && vectorBits == 512);
          },
          options, diags, progress))
    return false;
  report.memory = mlir::tfaot::readMemoryPlan(module);
  entry.tempBytes = report.memory->tempBytes();
  if (options.emit == EmitStage::Bufferized)
    return true;
  progress.stage("vector kernels and LLVM dialect" + bucket);
  if (!runPipeline(
          module,
          [&](mlir::OpPassManager &pm) {
            return cpu::buildToLLVMPipeline(pm, vectorBits, options.profile,
                                            options.maxFunctionOps);
          },
          options, diags, progress))
    return false;
  entry.profileOps = readProfiledOps(module);
  return checkEntryAbi(module, entry, diags);
}

/// The header calls the entry with one pointer per argument and result and
/// nothing back; make sure the lowering produced exactly that ABI.
static bool checkEntryAbi(mlir::ModuleOp module, const LoweredEntry &entry,
                          GraphDiagnostics &diags) {
  auto function = module.lookupSymbol<mlir::LLVM::LLVMFuncOp>(entry.symbol);
  size_t expectedParams =
      entry.signature.args.size() + entry.signature.results.size() +
      llvm::count_if(entry.signature.results,
                     [](const TensorSignature &r) { return r.bounded; }) +
      (mlir::tfaot::readArenaBytes(module) ? 1 : 0); // + the arena
  if (!function || function.getNumArguments() != expectedParams ||
      !mlir::isa<mlir::LLVM::LLVMVoidType>(
          function.getFunctionType().getReturnType())) {
    diags.error("internal error: the lowered entry function does not have the "
                "expected signature (" +
                llvm::Twine(expectedParams) + " pointers, no result)");
    return false;
  }
  return true;
}

/// The shape attribute of the Placeholder `name` in `graph` when it has a
/// known rank of at least one, else null: what --batch starts from for a
/// feed given without a shape.
static const tensorflow::TensorShapeProto *
placeholderShape(const tensorflow::GraphDef &graph, const std::string &name) {
  for (const tensorflow::NodeDef &node : graph.node()) {
    if (node.name() != name)
      continue;
    if (node.op() != "Placeholder")
      return nullptr;
    auto attr = node.attr().find("shape");
    if (attr == node.attr().end() || !attr->second.has_shape() ||
        attr->second.shape().unknown_rank() ||
        attr->second.shape().dim_size() == 0)
      return nullptr;
    return &attr->second.shape();
  }
  return nullptr;
}

/// Gives every feed of `config` the batch `batch` as its first dimension.
/// A feed without a shape takes its Placeholder's (`--feed x --batch 1,8`
/// on a [-1,784] or [1,784] placeholder), as a feed shape would replace it.
static bool setFeedBatch(tensorflow::tf2xla::Config &config,
                         const tensorflow::GraphDef &graph, int64_t batch,
                         GraphDiagnostics &diags) {
  for (tensorflow::tf2xla::Feed &feed : *config.mutable_feed()) {
    if (!feed.has_shape() || feed.shape().dim_size() == 0) {
      const tensorflow::TensorShapeProto *shape =
          feed.id().output_index() == 0
              ? placeholderShape(graph, feed.id().node_name())
              : nullptr;
      if (!shape) {
        diags.error("--batch: feed '" + feed.id().node_name() +
                    "' needs a shape whose first dimension is the batch "
                    "(its node is not a Placeholder of known rank: give "
                    "--feed " +
                    feed.id().node_name() +
                    ":N,... or a shape in the config)");
        return false;
      }
      *feed.mutable_shape() = *shape;
    }
    feed.mutable_shape()->mutable_dim(0)->set_size(batch);
  }
  return true;
}

/// Lowers `entry`, whose graph passes chose runs of entry.chunkRows rows:
/// the graph again for that many rows under a symbol of its own, then the
/// entry as a loop calling it on consecutive slices (BatchChunks.h). The
/// entry keeps the whole batch's signature; its arena is the chunk's.
static bool lowerEntryInChunks(const tensorflow::GraphDef &graph,
                               const tensorflow::tf2xla::Config &config,
                               const CompileOptions &options,
                               const BuildHooks &hooks,
                               mlir::MLIRContext &context,
                               GraphDiagnostics &diags, CompileReport &report,
                               CompileProgress &progress, LoweredEntry &entry) {
  int64_t rows = entry.chunkRows;
  int64_t batch = signatureBatch(entry.signature);
  tensorflow::tf2xla::Config chunkConfig = config;
  if (!setFeedBatch(chunkConfig, graph, rows, diags))
    return false;
  LoweredEntry chunk;
  chunk.batch = entry.batch;
  chunk.symbol = entry.symbol + "_rows" + std::to_string(rows);
  chunk.isChunk = true;
  // The graph passes rewrite the chunk's import as they did the entry's:
  // the report lists them once.
  report.rewrites.clear();
  if (!lowerEntry(graph, chunkConfig, options, hooks, context, diags, report,
                  progress, chunk))
    return false;
  if (signatureBatch(chunk.signature) != rows) {
    diags.error("internal error: the graph compiled for " +
                std::to_string(rows) + " rows does not have them as its batch");
    return false;
  }
  // Each parameter's slice: its bytes for the whole batch over the runs.
  std::vector<int64_t> sliceBytes;
  auto addSlice = [&](const TensorSignature &tensor) {
    int64_t bytes = elementBytes(tensor.dtype);
    for (int64_t dim : tensor.shape)
      bytes *= dim;
    sliceBytes.push_back(bytes / batch * rows);
  };
  for (const TensorSignature &arg : entry.signature.args)
    addSlice(arg);
  for (const TensorSignature &result : entry.signature.results)
    addSlice(result);
  std::string error;
  if (!appendBatchLoop(*chunk.module, chunk.symbol, entry.symbol,
                       batch / rows, sliceBytes, error)) {
    diags.error(error);
    return false;
  }
  entry.module = std::move(chunk.module);
  entry.tempBytes = chunk.tempBytes;
  entry.profileOps = std::move(chunk.profileOps);
  return checkEntryAbi(*entry.module, entry, diags);
}

/// Each tensor is fed once: a --feed does not amend a config's feed of the
/// same tensor (there would be two arguments for one tensor, one unused).
/// The first `configFeeds` feeds came from the config, the rest from --feed.
static bool checkFeedsUnique(const tensorflow::tf2xla::Config &config,
                             int configFeeds, GraphDiagnostics &diags) {
  auto source = [&](int i) { return i < configFeeds ? "the config" : "--feed"; };
  for (int i = 0; i < config.feed_size(); ++i)
    for (int j = 0; j < i; ++j) {
      const tensorflow::tf2xla::TensorId &a = config.feed(i).id();
      const tensorflow::tf2xla::TensorId &b = config.feed(j).id();
      if (a.node_name() != b.node_name() ||
          a.output_index() != b.output_index())
        continue;
      std::string where = source(i) == source(j)
                              ? std::string("twice by ") + source(i)
                              : std::string("by the config and by --feed");
      diags.usageError("feed '" + a.node_name() + "' is given " + where +
                       "; feed each tensor once (a --feed shape does not "
                       "amend the config's: change it there)");
      return false;
    }
  return true;
}

/// Every bucket must have the same arguments and results, each with the
/// bucket's batch as its first dimension: the generated class shares its
/// buffers between buckets.
static bool checkBucketSignatures(const std::vector<LoweredEntry> &entries,
                                  GraphDiagnostics &diags) {
  if (entries.size() < 2 && !entries.front().batch)
    return true;
  const FunctionSignature &largest = entries.back().signature;
  for (const LoweredEntry &entry : entries) {
    auto check = [&](const std::vector<TensorSignature> &tensors,
                     const std::vector<TensorSignature> &reference,
                     const char *what) {
      for (size_t i = 0; i < tensors.size(); ++i) {
        const std::vector<int64_t> &shape = tensors[i].shape;
        bool ok = !shape.empty() && shape[0] == entry.batch &&
                  shape.size() == reference[i].shape.size() &&
                  std::equal(shape.begin() + 1, shape.end(),
                             reference[i].shape.begin() + 1);
        if (!ok) {
          diags.error(llvm::Twine("--batch: ") + what + " '" +
                      tensors[i].name +
                      "' does not have the batch as its first dimension "
                      "(at batch " +
                      llvm::Twine(entry.batch) + " its shape is " +
                      showShape(shape) +
                      "); batch buckets need every feed and fetch batched");
          return false;
        }
      }
      return true;
    };
    if (!check(entry.signature.args, largest.args, "feed") ||
        !check(entry.signature.results, largest.results, "fetch"))
      return false;
  }
  return true;
}

/// Copies the plan's figures (arena, naive sum, peak live bytes) into the
/// header options, which print them and size kTempBytes from the arena.
static void copyMemoryPlan(mlir::ModuleOp module, HeaderOptions &options) {
  mlir::tfaot::MemoryPlan plan = mlir::tfaot::readMemoryPlan(module);
  options.arenaBytes = plan.arenaBytes;
  options.naiveTempBytes = plan.naiveTempBytes;
  options.peakLiveBytes = plan.peakLiveBytes;
}

static int compileGraph(const CompileOptions &options, const BuildHooks &hooks,
                        llvm::raw_ostream &terminal, CompileReport &report) {
  CompileProgress progress(options.verbosity, options.statusLine, terminal);
  llvm::raw_ostream &errs = progress.messages();
  GraphDiagnostics diags(options.graph, errs);
  diags.setQuiet(options.verbosity == Verbosity::Quiet);
  if (options.report != CompileOptions::Report::None)
    diags.setRemarkSink([&report](llvm::StringRef message, std::string node) {
      report.addRemark(message, std::move(node));
    });
  if (options.graph.empty()) {
    diags.usageError("no graph: give --graph model.pb");
    return 1;
  }
  bool emitObject = options.emit == EmitStage::Object;
  bool cApi = !options.outCHeader.empty() || !options.outSharedLibrary.empty();
  if (emitObject && options.outHeader.empty() && options.outObject.empty() &&
      !cApi && !options.artifacts) {
    diags.usageError("nothing to write: give --out_function_object and/or "
                     "--out_header (or --emit to print IR)");
    return 1;
  }
  if (std::string why = emitObject ? checkCApiFlags(options) : "";
      !why.empty()) {
    diags.usageError(why);
    return 1;
  }
  // The class also names the entry symbol, so it is checked with or
  // without a header.
  if (emitObject && !options.outHeader.empty() && options.cppClass.empty()) {
    diags.usageError("--cpp_class is required to write a header");
    return 1;
  }
  if (!options.cppClass.empty() && !isValidCppClassName(options.cppClass)) {
    diags.usageError("--cpp_class '" + options.cppClass +
                     "' is not a C++ class name like 'ns::Name'");
    return 1;
  }
  for (size_t i = 0; i < options.batchBuckets.size(); ++i)
    if (options.batchBuckets[i] < 1 ||
        (i && options.batchBuckets[i] <= options.batchBuckets[i - 1])) {
      diags.usageError(
          "--batch takes increasing batch sizes >= 1, e.g. 1,8,32");
      return 1;
    }
  if (std::vector<int64_t> size;
      !options.jpegSize.empty() && !parseJpegSize(options.jpegSize, size)) {
    diags.usageError("--jpeg_size takes the image's height and width as HxW, "
                     "e.g. 480x640, not '" + options.jpegSize + "'");
    return 1;
  }
  for (const std::string &text : options.feedValues) {
    std::string why;
    if (!parseFrozenFeed(text, why)) {
      diags.usageError(why);
      return 1;
    }
  }
  if (options.layout != "auto" && options.layout != "nhwc" &&
      options.layout != "nchw") {
    diags.usageError("--layout must be auto, nhwc or nchw, not '" +
                     options.layout + "'");
    return 1;
  }
  if (options.runtimeChecks != "all" && options.runtimeChecks != "none") {
    diags.usageError("--runtime_checks must be all or none, not '" +
                     options.runtimeChecks + "'");
    return 1;
  }
  if (int64_t rows; !parseBatchChunk(options.batchChunk, rows)) {
    diags.usageError("--batch_chunk must be auto, off or a number of rows, "
                     "not '" +
                     options.batchChunk + "'");
    return 1;
  }
  // -1 is the default, which the command line shows as its value.
  if (options.maxFunctionOps < -1) {
    diags.usageError("--max_function_ops must be 0 (never cut) or more, "
                     "not " +
                     std::to_string(options.maxFunctionOps));
    return 1;
  }
  // Written so that NaN fails too.
  if (!(options.maxCompileSeconds >= 0 &&
        options.maxCompileSeconds <= kMaxCompileSecondsLimit)) {
    diags.usageError("--max_compile_seconds must be a number of seconds "
                     "from 0 (no limit) to 1e9, not " +
                     formatSeconds(options.maxCompileSeconds));
    return 1;
  }
  if (options.targetKind != "cpu" && options.targetKind != "cuda") {
    diags.usageError("--target must be cpu or cuda, not '" +
                     options.targetKind + "'");
    return 1;
  }
  // Before the graph is read: a typo here is not worth a long load.
  if (std::string why = cpu::checkTarget(options.target); !why.empty()) {
    diags.usageError(why);
    return 1;
  }
  bool cuda = options.targetKind == "cuda";
  if (cuda && !gpu::isSupportedArch(options.gpuArch)) {
    diags.usageError("--gpu_arch must be one of " + gpu::supportedArchList() +
                     ", not '" + options.gpuArch + "'");
    return 1;
  }
  if (options.gpuGemm != "cublas" && options.gpuGemm != "kernels") {
    diags.usageError("--gpu_gemm must be cublas or kernels, not '" +
                     options.gpuGemm + "'");
    return 1;
  }
  if (options.cpuGemm != "auto" && options.cpuGemm != "generated") {
    diags.usageError("--cpu_gemm must be auto or generated, not '" +
                     options.cpuGemm + "'");
    return 1;
  }
  if (options.gpuConv != "im2col" && options.gpuConv != "cudnn") {
    diags.usageError("--gpu_conv must be im2col or cudnn, not '" +
                     options.gpuConv + "'");
    return 1;
  }
  if (options.gpuDepthwise != "tiled" && options.gpuDepthwise != "direct") {
    diags.usageError("--gpu_depthwise must be tiled or direct, not '" +
                     options.gpuDepthwise + "'");
    return 1;
  }
  const char *const convAlgorithms[] = {"direct", "winograd", "auto"};
  if (!llvm::is_contained(convAlgorithms, options.convAlgorithm)) {
    diags.usageError("--conv_algorithm must be direct, winograd or auto, "
                     "not '" + options.convAlgorithm + "'");
    return 1;
  }
  // auto, the default, leaves the choice to --gpu_conv there.
  if (cuda && options.convAlgorithm == "winograd") {
    diags.usageError("--conv_algorithm=" + options.convAlgorithm +
                     " is for --target=cpu (--gpu_conv chooses for cuda)");
    return 1;
  }
  if (options.gpuConv == "cudnn" && (!cuda || options.gpuGemm != "cublas")) {
    diags.usageError("--gpu_conv=cudnn needs --target=cuda and "
                     "--gpu_gemm=cublas (the convolutions cuDNN does not "
                     "take stay im2col + cuBLAS)");
    return 1;
  }
  const char *const precisions[] = {"fp32", "tf32", "fp16", "bf16"};
  if (!llvm::is_contained(precisions, options.precision)) {
    diags.usageError("--precision must be fp32, tf32, fp16 or bf16, not '" +
                     options.precision + "'");
    return 1;
  }
  if (options.allowTf32 && options.precision != "fp32" &&
      options.precision != "tf32") {
    diags.usageError("--allow_tf32 contradicts --precision=" +
                     options.precision);
    return 1;
  }
  std::string precision = effectivePrecision(options);
  // The flag as the user wrote it, for the errors below.
  std::string precisionFlag =
      options.allowTf32 ? "--allow_tf32" : "--precision=" + precision;
  // bf16 is also the CPU's (tfaot-cpu-bf16-contractions); fp16 and tf32
  // are the GPU's only.
  bool cpuPrecision = precision == "fp32" || precision == "bf16";
  if (!cuda && (options.gpuGemm != "cublas" || !cpuPrecision)) {
    diags.usageError((!cpuPrecision ? precisionFlag : "--gpu_gemm") +
                     " needs --target=cuda");
    return 1;
  }
  if (precision == "tf32" && options.gpuGemm != "cublas") {
    diags.usageError(precisionFlag +
                     " needs --gpu_gemm=cublas (TF32 is what cuBLAS may use; "
                     "the generated kernels compute in fp32)");
    return 1;
  }
  if (options.gpuEmulate && !cuda) {
    diags.usageError("--gpu_emulate needs --target=cuda");
    return 1;
  }
  if (!cuda && (options.emit == EmitStage::GpuKernels ||
                options.emit == EmitStage::Ptx)) {
    diags.usageError("--emit gpu and --emit ptx need --target=cuda");
    return 1;
  }

  // Feeds and fetches: the config first, then flags, in that order.
  tensorflow::tf2xla::Config config;
  if (!options.config.empty()) {
    GraphDiagnostics configDiags(options.config, errs);
    configDiags.setQuiet(options.verbosity == Verbosity::Quiet);
    auto loaded = loadConfig(options.config, configDiags);
    if (!loaded)
      return 1;
    config = *loaded;
  }
  // Config entries may name tensors as TF does ("x:0"): split them before
  // anything compares them with the --feed flags' names.
  if (!splitConfigTensorNames(config, diags))
    return 1;
  int configFeeds = config.feed_size();
  for (const std::string &feed : options.feeds)
    addFeedFlag(feed, config, diags);
  for (const std::string &fetch : options.fetches)
    addFetchFlag(fetch, config, diags);
  if (diags.hasErrors() || !checkFeedsUnique(config, configFeeds, diags))
    return 1;

  // A TF.js graph model (model.json + weight shards) and a SavedModel bring
  // their own signature, which fills in whatever feeds and fetches the user
  // left out.
  tensorflow::tf2xla::Config signatureConfig;
  // Stages: loading, four per entry, code generation, writing.
  progress.setTotalStages(
      3 + 4 * static_cast<int>(std::max<size_t>(1, options.batchBuckets.size())));
  // From here on the build counts against --max_compile_seconds.
  CompileWatchdog watchdog(options.maxCompileSeconds, options.graph, progress);
  progress.onStage([&watchdog] { watchdog.check(); });
  progress.stage("loading " + llvm::sys::path::filename(options.graph).str());
  auto graph = loadModel(options.graph, options.signature, config, diags,
                         &signatureConfig);
  if (!graph)
    return 1;
  applyTfjsSignature(signatureConfig, config, diags);

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::tfaot::TfaotDialect>();
  if (cuda)
    gpu::registerGpuTranslations(registry);
  mlir::MLIRContext context(registry);
  context.allowUnregisteredDialects(false);

  std::string cppClass = options.cppClass.empty() ? "Model" : options.cppClass;
  std::string symbol = options.entryPoint.empty() ? defaultEntryPoint(cppClass)
                                                  : options.entryPoint;
  // One entry per batch bucket (or one for the shapes as given).
  std::vector<int64_t> batches = options.batchBuckets;
  if (batches.empty())
    batches.push_back(0);
  std::vector<LoweredEntry> entries(batches.size());
  for (size_t i = 0; i < batches.size(); ++i) {
    LoweredEntry &entry = entries[i];
    entry.batch = batches[i];
    entry.symbol = entry.batch ? symbol + "_batch" + std::to_string(entry.batch)
                               : symbol;
    tensorflow::tf2xla::Config entryConfig = config;
    if (entry.batch && !setFeedBatch(entryConfig, *graph, entry.batch, diags))
      return 1;
    // The report describes the last (largest) bucket.
    report.rewrites.clear();
    if (!lowerEntry(*graph, entryConfig, options, hooks, context, diags,
                    report, progress, entry))
      return 1;
    if (entry.chunkRows &&
        !lowerEntryInChunks(*graph, entryConfig, options, hooks, context,
                            diags, report, progress, entry))
      return 1;
  }
  if (options.emit != EmitStage::Object && options.emit != EmitStage::LLVMIR) {
    if (options.outMlir.empty()) // tfaot explain: the report is the output.
      return 0;
    std::string text;
    if (options.emit == EmitStage::Ptx) {
      for (const LoweredEntry &entry : entries)
        text += entry.ptx;
      return writeOutput(options.outMlir, text, diags) ? 0 : 1;
    }
    for (const LoweredEntry &entry : entries)
      text += (entry.batch ? "// batch bucket " + std::to_string(entry.batch) +
                                 "\n"
                           : "") +
              printModule(*entry.module);
    return writeOutput(options.outMlir, text, diags) ? 0 : 1;
  }
  if (!checkBucketSignatures(entries, diags))
    return 1;

  // The buffers are the largest bucket's, and so is the arena: one Run()
  // uses one bucket.
  const LoweredEntry &largest = entries.back();
  HeaderOptions headerOptions;
  headerOptions.cppClass = cppClass;
  headerOptions.entrySymbol = largest.symbol;
  if (cuda && !options.gpuEmulate) {
    headerOptions.cuda = true;
    headerOptions.cudaNote =
        gpu::embeddingNote(options.gpuArch, largest.cubin, largest.cublas);
  }
  // rtrim: a SavedModel directory given as "model/" is still "model".
  headerOptions.sourceGraph =
      llvm::sys::path::filename(llvm::StringRef(options.graph).rtrim('/'))
          .str();
  copyMemoryPlan(*largest.module, headerOptions);
  for (const LoweredEntry &entry : entries) {
    headerOptions.tempBytes = std::max(headerOptions.tempBytes, entry.tempBytes);
    uint64_t arena = mlir::tfaot::readArenaBytes(*entry.module);
    headerOptions.arenaBytes = std::max(headerOptions.arenaBytes, arena);
    if (entry.batch)
      headerOptions.buckets.push_back({entry.batch, entry.symbol, arena > 0});
  }
  // With the C API the object also holds the model's table (CApiWriter.h).
  std::string infoSymbol = cInfoSymbol(symbol);
  std::string tableIR =
      cApi ? cApiTableIR(largest.signature, headerOptions, infoSymbol) : "";

  std::vector<mlir::ModuleOp> modules;
  for (LoweredEntry &entry : entries)
    modules.push_back(*entry.module);
  std::string object, error, llvmIR;
  progress.stage("generating code");
  if (!cpu::emitObject(modules, options.target, object, error,
                       options.emit == EmitStage::LLVMIR ? &llvmIR : nullptr,
                       tableIR)) {
    diags.error(error);
    return 1;
  }
  if (options.emit == EmitStage::LLVMIR)
    return writeOutput(options.outMlir, llvmIR, diags) ? 0 : 1;
  if (CompiledArtifacts *artifacts = options.artifacts) {
    artifacts->object = object;
    artifacts->entries.clear();
    for (const LoweredEntry &entry : entries)
      artifacts->entries.push_back({entry.batch, entry.symbol});
    artifacts->signature = entries.back().signature;
    artifacts->profileOps = entries.back().profileOps;
    artifacts->tempBytes = 0;
    // tempBytes (arena plus heap temporaries) covers the arena.
    for (const LoweredEntry &entry : entries)
      artifacts->tempBytes = std::max(artifacts->tempBytes, entry.tempBytes);
  }

  progress.stage("writing");
  // Every output is made first and written last, all or none (see
  // OutputFiles.h): a failure leaves no header without its object.
  OutputFiles localOutputs;
  OutputFiles &outputs = options.outputs ? *options.outputs : localOutputs;
  if (!options.outHeader.empty()) {
    std::string header;
    if (!writeHeader(largest.signature, headerOptions, header, error)) {
      diags.error(error);
      return 1;
    }
    outputs.add(options.outHeader, std::move(header));
  }
  if (!options.outCHeader.empty()) {
    std::string header;
    if (!writeCHeader(largest.signature, headerOptions, infoSymbol, header,
                      error)) {
      diags.error(error);
      return 1;
    }
    outputs.add(options.outCHeader, std::move(header));
  }
  if (!options.outSharedLibrary.empty()) {
    progress.stage("linking " +
                   llvm::sys::path::filename(options.outSharedLibrary).str());
    std::string library;
    if (!linkModelLibrary(largest.signature, object, infoSymbol,
                          options.target, library, error,
                          options.verbosity == Verbosity::Verbose ? &errs
                                                                  : nullptr)) {
      diags.error(error);
      return 1;
    }
    outputs.add(options.outSharedLibrary, std::move(library));
  }
  if (!options.outObject.empty())
    outputs.add(options.outObject, std::move(object));
  if (!options.outMetadataObject.empty()) {
    // tfcompile's build rules expect this file; an empty module gives a
    // valid object for the same target that defines nothing.
    auto empty = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
    std::string metadata;
    bool ok = cpu::emitObject({empty}, options.target, metadata, error);
    empty->erase();
    if (!ok) {
      diags.error(error);
      return 1;
    }
    outputs.add(options.outMetadataObject, std::move(metadata));
  }
  if (options.outputs)
    return 0; // The caller writes them.
  return outputs.commit(errs) ? 0 : 1;
}
