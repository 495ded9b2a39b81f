//===- tfaot.cpp - The tfaot command-line tool ----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Flag parsing only (tfcompile's flag names where they exist); the work is
// tfaot::compile in compiler/Compile.cpp. Exit codes: 0 success, 1 any error
// (bad flags, bad graph, failed compilation).
//
//===----------------------------------------------------------------------===//
#include "compiler/Bench.h"
#include "compiler/Compile.h"
#include "compiler/Run.h"
#include "compiler/Show.h"
#include "compiler/driver/Driver.h"
#include "passes/SplitEntry.h"
#include "compiler/driver/OpReport.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/OpImporters.h"
#include "HelpText.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

#ifndef TFAOT_VERSION
#define TFAOT_VERSION "unknown"
#endif

static cl::OptionCategory compileCategory("tfaot compile options");
static cl::SubCommand compileCmd(
    "compile", "Compile a TensorFlow graph into an object file and a C++ header");

static cl::SubCommand explainCmd(
    "explain", "Say what the compiler does to a graph: per pass, the rewrites "
               "with the TF node names, op counts before and after, and the "
               "memory plan (compile --report without writing files)");

static cl::SubCommand benchCmd(
    "bench", "Compile a graph for each batch size, run it on random inputs "
             "and report latency (median, p90) and throughput; --sweep says "
             "which batch size to use");
// bench's own flags; the ones it shares with compile stay in compileCategory.
static cl::OptionCategory benchCategory("tfaot bench options");

static cl::SubCommand runCmd(
    "run", "Compile a graph in memory, run it once on .npy inputs (random "
           "ones where none are given), write each result as .npy and print "
           "its statistics; --compare checks them against reference .npy "
           "files");

static cl::OptionCategory opsCategory("tfaot ops options");
static cl::SubCommand opsCmd(
    "ops", "List the ops of a TensorFlow graph with their counts and whether "
           "tfaot compiles them (exit 0: all supported, 2: some are not)");

static cl::opt<std::string> opsGraphFlag(
    "graph", cl::sub(opsCmd), cl::cat(opsCategory), cl::value_desc("file"),
    cl::desc("The graph: a binary GraphDef (.pb), a text GraphDef (.pbtxt), "
             "a TF.js graph model (model.json) or a SavedModel directory "
             "(listed as compiled: inlined and frozen). Counts are "
             "'graph+functions' where the function library has nodes too."));
static cl::opt<std::string> opsSignatureFlag(
    "signature", cl::sub(opsCmd), cl::cat(opsCategory), cl::value_desc("name"),
    cl::desc("For a SavedModel: the signature to list (default "
             "serving_default, or the only one)."));

static cl::opt<bool> opsJsonFlag(
    "json", cl::sub(opsCmd), cl::cat(opsCategory),
    cl::desc("Print the report as one JSON object (same exit codes)."));

static cl::OptionCategory showCategory("tfaot show options");
static cl::SubCommand showCmd(
    "show", "Say what a graph takes and gives: inputs and outputs with "
            "their names, dtypes and shapes, SavedModel signatures and "
            "tags, the ops, and the --feed/--fetch flags that compile it");
static cl::opt<std::string> showGraphFlag(
    "graph", cl::sub(showCmd), cl::cat(showCategory), cl::value_desc("file"),
    cl::desc("The graph: a binary GraphDef (.pb), a text GraphDef (.pbtxt), "
             "a TF.js graph model (model.json) or a SavedModel directory."));
static cl::opt<std::string> showSignatureFlag(
    "signature", cl::sub(showCmd), cl::cat(showCategory),
    cl::value_desc("name"),
    cl::desc("For a SavedModel: the signature whose inputs and outputs to "
             "show (default serving_default, or the only one); all are "
             "listed."));
static cl::opt<bool> showJsonFlag(
    "json", cl::sub(showCmd), cl::cat(showCategory),
    cl::desc("Print everything as one JSON object."));

// run's own flags; the ones that shape the compilation are compile's.
static cl::OptionCategory runCategory("tfaot run options");
static cl::list<std::string> runInputFlags(
    "input", cl::sub(runCmd), cl::cat(runCategory),
    cl::value_desc("name=file.npy|file.bin"),
    cl::desc("An argument's data: a .npy file of the argument's dtype and "
             "shape, or a .bin file of exactly its raw bytes. name is the "
             "argument's name in the header (what 'tfaot show' lists) or "
             "its node. Repeatable; arguments given none get random data."));
static cl::opt<std::string> runOutputDirFlag(
    "output_dir", cl::sub(runCmd), cl::cat(runCategory), cl::init("."),
    cl::value_desc("dir"),
    cl::desc("Where each result is written as <name>.npy (characters other "
             "than letters, digits, '.', '_' and '-' in the name become "
             "'_'; default: the current directory)."));
static cl::opt<int> runThreadsFlag(
    "threads", cl::sub(runCmd), cl::cat(runCategory), cl::init(1),
    cl::desc("Threads Run() uses, as set_num_threads(N) (default 1; 0: one "
             "per hardware thread); the results are the same for any N."));
static cl::opt<uint64_t> runSeedFlag(
    "seed", cl::sub(runCmd), cl::cat(runCategory), cl::init(0),
    cl::desc("Seed of the random inputs (default 0): floats uniform in "
             "[-1, 1), integers in [0, 10), bools 0 or 1."));
static cl::opt<std::string> runCompareFlag(
    "compare", cl::sub(runCmd), cl::cat(runCategory), cl::value_desc("dir"),
    cl::desc("Compare each result with dir/<name>.npy (same shape, any "
             "numeric dtype) and exit 1 if an element differs by more than "
             "atol + rtol * |reference| (NaN matches only NaN)."));
static cl::opt<double> runRtolFlag(
    "rtol", cl::sub(runCmd), cl::cat(runCategory), cl::init(1e-5),
    cl::desc("--compare's relative tolerance (default 1e-5)."));
static cl::opt<double> runAtolFlag(
    "atol", cl::sub(runCmd), cl::cat(runCategory), cl::init(1e-6),
    cl::desc("--compare's absolute tolerance (default 1e-6)."));

static cl::opt<std::string> graphFlag(
    "graph", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("file"),
    cl::desc("The TensorFlow graph to compile: a binary GraphDef (.pb), a "
             "text GraphDef (.pbtxt), a TF.js graph model (model.json) or a "
             "SavedModel directory (saved_model.pb + variables/; variables "
             "are frozen, functions inlined)."));
static cl::opt<std::string> signatureFlag(
    "signature", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory), cl::value_desc("name"),
    cl::desc("For a SavedModel: the SignatureDef to compile (default "
             "serving_default, else the only one). Its inputs and outputs "
             "are the feeds and fetches unless --config/--feed/--fetch give "
             "them; header accessors are named by the signature's keys."));
static cl::opt<std::string> configFlag(
    "config", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("file"),
    cl::desc("A tfcompile tf2xla.Config in text format naming the feeds and "
             "fetches (optional if --feed/--fetch are given)."));
static cl::list<std::string> feedFlags(
    "feed", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("name[:shape[:dtype]]"),
    cl::desc("An input of the compiled function, e.g. x:1,784:float32; the "
             "shape replaces the placeholder's, which it must match in rank "
             "(needed where it has -1). A 0 right after the name is TF's "
             "output index, not a shape: x:0:1,784 is x:1,784. For a "
             "SavedModel the name may be a signature key (x) or its node "
             "(serving_default_x). An empty shape is a scalar: n: or "
             "n::int32. Repeatable; each tensor is fed once, by the config "
             "or by --feed."));
static cl::list<std::string> feedValueFlags(
    "feed_value", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("name=v[,v...]"),
    cl::desc("Freeze a placeholder's value at compile time, e.g. scale=1.5 "
             "or sizes=3,4: it becomes a constant, is no argument of the "
             "generated class, and what the graph computes from it (shapes "
             "too) is specialized. A single value fills the feed's shape; "
             "several are its elements in order (a vector if the shape is "
             "unknown). Repeatable."));
static cl::list<std::string> fetchFlags(
    "fetch", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("name[:index]"),
    cl::desc("An output of the compiled function: a node (y, same as y:0) "
             "or one of its outputs (y:1); for a SavedModel also a signature "
             "key (scores). Repeatable, the same tensor too (each fetch is a "
             "result of its own); added after the config's fetches."));
static cl::opt<std::string> cppClassFlag(
    "cpp_class", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("ns::Name"),
    cl::desc("Name of the generated C++ class, with optional namespaces."));
static cl::opt<std::string> entryPointFlag(
    "entry_point", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("symbol"),
    cl::desc("Symbol of the generated function in the object file (default: "
             "tfaot_ plus the class path, unique per class)."));
static cl::opt<std::string> outHeaderFlag(
    "out_header", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("file"), cl::desc("Where to write the generated C++ header."));
static cl::opt<std::string> outObjectFlag(
    "out_function_object", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("file"),
    cl::desc("Where to write the object file with the code and weights."));
static cl::opt<std::string> outCHeaderFlag(
    "out_c_header", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("file"),
    cl::desc("Also write a C header (C99, includable from C++) for the "
             "same object: create/destroy an instance, argument and result "
             "pointers, shapes, dtypes, run, errors, threads (see "
             "tfaot/runtime/c_api.h). The object then also holds the model's "
             "table, tfaot_<class>_info. Needs --cpp_class, which names "
             "the C functions (ns::Name -> ns_Name_create)."));
static cl::opt<std::string> outSharedLibraryFlag(
    "out_shared_library", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("file.so"),
    cl::desc("Also write a self-contained shared library (the object, the "
             "runtime and libstdc++ linked in) exporting only the C API and "
             "tfaot_model_info(), for dlopen(). Linked with clang++ (of the "
             "LLVM tfaot was built with, else on PATH; $TFAOT_CXX to choose) "
             "and lld when found; the runtime is found next to tfaot "
             "($TFAOT_RUNTIME_LIBRARY to choose). Host target only."));
static cl::opt<std::string> outMetadataFlag(
    "out_metadata_object", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("file"),
    cl::desc("tfcompile's metadata object: written as an object that "
             "defines nothing (the header carries the metadata), so build "
             "rules that expect it keep working."));

// tfcompile flags accepted so that its command lines work unchanged; each
// says when given what tfaot does instead.
static cl::opt<bool> genNameToIndexFlag(
    "gen_name_to_index", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::desc("tfcompile compatibility; name lookups (LookupArgIndex, "
             "LookupResultIndex) are always generated."));
static cl::opt<bool> genProgramShapeFlag(
    "gen_program_shape", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::desc("tfcompile compatibility, ignored: the header's static tables "
             "(kArgNShape, StaticInfo()) describe every buffer."));
static cl::opt<std::string> xlaFlagsFlag(
    "xla_flags", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("flags"),
    cl::desc("tfcompile compatibility, ignored (tfaot does not use XLA)."));
static cl::opt<std::string> mlirComponentsFlag(
    "mlir_components", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("components"),
    cl::desc("tfcompile compatibility, ignored (tfaot is MLIR throughout)."));

static cl::opt<std::string> tripleFlag(
    "target_triple", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("triple"),
    cl::desc("LLVM target triple to generate code for (default: the host); "
             "the triple, CPU and features are checked before the graph is "
             "read."));
static cl::opt<std::string> cpuFlag(
    "target_cpu", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("cpu"),
    cl::desc("Target CPU, e.g. x86-64-v3, or 'native' for this machine's "
             "(default: generic); 'help' lists the CPUs of the target triple "
             "and exits."));
static cl::opt<std::string> featuresFlag(
    "target_features", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("features"),
    cl::desc("LLVM target features, each +name (enable) or -name (disable), "
             "e.g. +avx2,+fma."));
static cl::opt<std::string> targetKindFlag(
    "target", cl::sub(compileCmd), cl::sub(explainCmd), cl::cat(compileCategory), cl::init("cpu"),
    cl::value_desc("cpu|cuda"),
    cl::desc("What runs the model: cpu (default), or cuda: PTX kernels (and "
             "a cubin when ptxas is installed) with a host launcher; the "
             "class then derives from tfaot::CudaCompiledFunction."));
static cl::opt<std::string> gpuArchFlag(
    "gpu_arch", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::init("sm_90"), cl::value_desc("sm_80|sm_89|sm_90"),
    cl::desc("GPU architecture for --target=cuda (default sm_90)."));
static cl::opt<std::string> gpuGemmFlag(
    "gpu_gemm", cl::sub(compileCmd), cl::sub(explainCmd), cl::cat(compileCategory),
    cl::init("cublas"), cl::value_desc("cublas|kernels"),
    cl::desc("With --target=cuda, what runs f32 convolutions and matrix "
             "products: cublas (default; the program then needs "
             "libcublas.so.13 or .12 at run time) or kernels (generated, "
             "slower, nothing but the driver needed)."));
static cl::opt<std::string> gpuConvFlag(
    "gpu_conv", cl::sub(compileCmd), cl::sub(explainCmd), cl::cat(compileCategory),
    cl::init("im2col"), cl::value_desc("im2col|cudnn"),
    cl::desc("With --target=cuda, what runs convolutions: im2col (default; "
             "an im2col copy and a cuBLAS GEMM, the bias and activation in "
             "a kernel after it) or cudnn (cuDNN, with a bias, residual "
             "add and ReLU or ReLU6 after it fused into the call, unfused "
             "cuDNN calls where cuDNN refuses that; the program then needs "
             "libcudnn.so.9 at run time). Convolutions cuDNN cannot take "
             "stay im2col; 'tfaot explain' says which run where."));
static cl::opt<std::string> gpuDepthwiseFlag(
    "gpu_depthwise", cl::sub(compileCmd), cl::sub(explainCmd),
    cl::cat(compileCategory), cl::init("tiled"),
    cl::value_desc("tiled|direct"),
    cl::desc("With --target=cuda, how depthwise convolutions run: tiled "
             "(default; a block stages its input tile in shared memory, "
             "each thread computes several outputs) or direct (one thread "
             "per output, each reading its window from global memory). "
             "Windows the tiled kernel cannot take stay direct; 'tfaot "
             "explain' and 'compile --report' say which, with each tile, "
             "and why."));
static cl::opt<std::string> precisionFlag(
    "precision", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd),
    cl::sub(runCmd), cl::cat(compileCategory),
    cl::init("fp32"), cl::value_desc("fp32|tf32|fp16|bf16"),
    cl::desc("fp32 (default). bf16 on the CPU: convolutions and matrix "
             "products with constant weights multiply bf16 operands and sum "
             "in fp32 (AMX tiles or AVX512-BF16 vdpbf16ps where the CPU "
             "running the model has them, fp32 loops on the same bf16 values "
             "elsewhere), everything else stays fp32. With --target=cuda: "
             "tf32, cuBLAS "
             "multiplies on tensor cores with inputs rounded to a 10-bit "
             "mantissa; fp16 or bf16, activations and weights are stored in "
             "16 bits between ops and products run on tensor cores, with "
             "fp32 arithmetic and sums (arguments, results, reductions and "
             "products' outputs stay fp32)."));
static cl::opt<bool> allowTf32Flag(
    "allow_tf32", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::desc("With --target=cuda, let cuBLAS multiply in TF32 on tensor "
             "cores: faster, with inputs rounded to a 10-bit mantissa "
             "(default off: products in full fp32). The same as "
             "--precision=tf32."));
static cl::opt<std::string> quantizeFlag(
    "quantize", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("int8"),
    cl::desc("Post-training quantization: int8 makes the float32 Conv2D and "
             "MatMul layers with constant weights int8 (per-channel weights, "
             "per-tensor activations calibrated on --calibration, int32 "
             "sums; AMX tiles or AVX-512 VNNI where the CPU has them, "
             "cuBLAS's int8 GEMM "
             "with --target=cuda)."));
static cl::opt<std::string> calibrationFlag(
    "calibration", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::value_desc("file.npy|dir"),
    cl::desc("With --quantize, or --precision=bf16 (or fp16 with "
             "--target=cuda) for its accuracy report: samples of the (single, float32) feed, as "
             "one .npy file or a directory of them; an array of the feed's "
             "shape is one sample, [n, ...] is several."));
static cl::opt<std::string> calibrationMethodFlag(
    "calibration_method", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory), cl::init("minmax"),
    cl::value_desc("minmax|percentile|entropy"),
    cl::desc("How an activation's range is chosen from the calibration runs: "
             "minmax (default: all values), percentile (clip the rarest "
             "values at both ends, see --calibration_percentile) or entropy "
             "(the range whose 8-bit steps keep the distribution of the "
             "values best: least KL divergence, as TensorRT's calibrator)."));
static cl::opt<double> calibrationPercentileFlag(
    "calibration_percentile", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory), cl::init(99.99), cl::value_desc("p"),
    cl::desc("With --calibration_method=percentile: the percentage of values "
             "kept inside the range at each end (default 99.99)."));
static cl::opt<bool> quantizeAllLayersFlag(
    "quantize_all_layers", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory),
    cl::desc("With --quantize: also quantize the first and last "
             "contraction, which stay float32 by default (they see the raw "
             "input and produce the logits, where 8 bits lose the most)."));
static cl::opt<int64_t> quantizeMinKFlag(
    "quantize_min_k", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory), cl::init(0), cl::value_desc("k"),
    cl::desc("With --quantize: keep in float32 the contractions whose "
             "outputs each sum fewer than k products (kh * kw * in_channels "
             "for a convolution, kh * kw for a depthwise one). Default 0: "
             "quantize them all (the int8 kernels finish each layer on their "
             "own sums, so even short products gain). Fewer products average "
             "out less rounding: 10 keeps 3x3 depthwise convolutions in "
             "float when the report shows too large an error."));
static cl::opt<bool> quantizeFloatWeightsFlag(
    "quantize_float_weights", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory),
    cl::desc("With --quantize and --target=cpu: store the weights of the "
             "MatMul layers kept in float32 as int8 too, per column, "
             "converted as the product reads them; their activations stay "
             "float32. MobileNetV2's 1280 x 1000 classifier then takes a "
             "quarter of its 5 MB and less time; the report shows what it "
             "costs in accuracy (on the generated MLP, whose first and last "
             "layers are both MatMuls, top-1 agreement went from 99% to "
             "97.5%)."));
static cl::opt<bool> quantizeResidualsFlag(
    "quantize_residuals", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory),
    cl::desc("With --quantize: residual additions (a ResNet's or "
             "MobileNetV2's shortcut) read the int8 tensor the next layer "
             "reads, dequantized, instead of its float value, so the blocks "
             "pass their output on in int8 only, as PyTorch's quantized add "
             "does. Faster where the shortcut's traffic bounds the block's "
             "last product; the shortcut is then rounded to 8 bits, which "
             "the report measures."));
static cl::opt<std::string> quantizeReportFlag(
    "quantize_report", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("file"),
    cl::desc("With --quantize: write the quantization report (per-layer "
             "scales, int8 vs float error on the calibration samples, "
             "top-1 agreement, sizes) to this file, as JSON if it ends in "
             ".json; - prints it."));
static cl::opt<std::string> precisionReportFlag(
    "precision_report", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::value_desc("file"),
    cl::desc("With --precision=bf16 (or fp16 with --target=cuda) and "
             "--calibration: write the accuracy report (per output the "
             "largest and mean error against the fp32 build on the "
             "calibration samples, top-1 agreement; CUDA builds computed "
             "through --gpu_emulate) to this file, "
             "as JSON if it ends in .json; - prints it. --calibration alone "
             "prints the one-line summary."));
static cl::opt<bool> gpuEmulateFlag(
    "gpu_emulate", cl::sub(compileCmd), cl::cat(compileCategory), cl::Hidden,
    cl::desc("Testing: with --target=cuda, run the kernels' launches as "
             "loops on the CPU and write a CPU library (checks the GPU "
             "kernel mapping's results without a GPU)."));
static cl::opt<int> optLevelFlag(
    "O", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory), cl::init(2),
    cl::Prefix, cl::desc("LLVM optimization level, 0 to 3 (default 2: the kernels "
                         "are vectorized before LLVM, and -O3 made them slower "
                         "and the compile longer, measured)."));
static cl::opt<tfaot::EmitStage> emitFlag(
    "emit", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::init(tfaot::EmitStage::Object),
    cl::desc("What to produce; anything but 'obj' prints IR to -o."),
    cl::values(
        clEnumValN(tfaot::EmitStage::Object, "obj",
                   "object file and header (default)"),
        clEnumValN(tfaot::EmitStage::Tfaot, "tfaot",
                   "the tfaot dialect after the graph passes (the "
                   "imported graph with --graph_passes=false)"),
        clEnumValN(tfaot::EmitStage::Linalg, "linalg",
                   "after lowering to linalg on tensors"),
        clEnumValN(tfaot::EmitStage::Bufferized, "bufferized",
                   "after bufferization"),
        clEnumValN(tfaot::EmitStage::LLVMDialect, "llvm",
                   "the LLVM dialect"),
        clEnumValN(tfaot::EmitStage::LLVMIR, "llvm-ir",
                   "optimized LLVM IR (for cuda: the host code)"),
        clEnumValN(tfaot::EmitStage::GpuKernels, "gpu",
                   "--target=cuda: after mapping loops to GPU kernels"),
        clEnumValN(tfaot::EmitStage::Ptx, "ptx",
                   "--target=cuda: the kernels' PTX")));
static cl::opt<std::string> outputFlag(
    "o", cl::sub(compileCmd), cl::cat(compileCategory), cl::init("-"),
    cl::value_desc("file"),
    cl::desc("Where --emit writes IR (default: standard output)."));
static cl::opt<bool> graphPassesFlag(
    "graph_passes", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::init(true),
    cl::desc("Run the graph passes (clean-ups, batch-norm folding, layout "
             "assignment) before lowering; --graph_passes=false "
             "lowers the graph as imported (default true)."));
static cl::opt<std::string> layoutFlag(
    "layout", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory), cl::init("auto"),
    cl::value_desc("auto|nhwc|nchw"),
    cl::desc("Data layout of convolutions, pools and batch norm; the graph's "
             "inputs and outputs keep theirs (transposes are added at the "
             "boundary only). auto: NHWC on CPU (default auto)."));
static cl::opt<std::string> convAlgorithmFlag(
    "conv_algorithm", cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::init("auto"), cl::value_desc("direct|winograd|auto"),
    cl::desc("How the CPU computes f32 3x3 stride-1 undilated convolutions "
             "with constant filters: auto (default: Winograd F(4x4,3x3) "
             "where the layer has at least 16 4x4 output blocks over the "
             "batch, else Winograd F(2x2,3x3) where it has at least 16 2x2 "
             "blocks, direct elsewhere), direct, or winograd (F(4x4,3x3) "
             "for all: about 4x fewer multiply-adds, filters 4x larger, "
             "results within a few 1e-6 relative of direct; F(2x2,3x3): "
             "2.25x fewer, filters 16/9 larger; see docs/performance.md). "
             "With --target=cuda, --gpu_conv chooses instead."));
static cl::opt<std::string> cpuGemmFlag(
    "cpu_gemm", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd),
    cl::sub(runCmd), cl::cat(compileCategory), cl::init("auto"),
    cl::value_desc("auto|generated"),
    cl::desc("What runs the CPU's f32 convolutions and matrix products with "
             "constant weights: auto (default: on AVX-512 targets, the "
             "runtime's packed kernel, tfaot_rt_mmt4d_f32f32f32, for those "
             "with at least 256 KiB of weights, an epilogue the kernel "
             "applies itself (bias, residual, ReLU) or at most 1 MiB of "
             "result, 4 or more rows and columns that pad to whole 64-column "
             "panels with at most a fifth more, and for Winograd's "
             "batched products; "
             "generated code elsewhere, and for every product on other "
             "targets) or generated (generated code for all). 'tfaot "
             "explain' lists the layers the kernel takes."));
static cl::opt<std::string> jpegSizeFlag(
    "jpeg_size", cl::sub(compileCmd), cl::sub(explainCmd), cl::cat(compileCategory),
    cl::value_desc("HxW"),
    cl::desc("Height and width of every image the graph's DecodeJpeg nodes "
             "decode (after their `ratio`), e.g. 480x640: code generation "
             "needs the size, and Run() fails on an image of another size. "
             "Not needed for DecodeAndCropJpeg with a constant-size window."));
static cl::opt<bool> jpegDctScalingFlag(
    "jpeg_dct_scaling", cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::desc("Decode a JPEG at 1/2, 1/4 or 1/8 of its size (libjpeg's "
             "scaled IDCT) when a resize shrinks it at least that much "
             "anyway: faster, but the pixels differ slightly from a "
             "full-size decode, so it is off by default."));
static cl::opt<std::string> runtimeChecksFlag(
    "runtime_checks", cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::init("all"), cl::value_desc("all|none"),
    cl::desc("all: the generated code checks indices it reads from data "
             "(GatherV2, GatherNd) and Run() fails with TensorFlow's message "
             "on one out of range; none: no checks, such indices are "
             "clamped into range, for inputs validated beforehand (default "
             "all; --target=cuda has no checks yet)."));
static cl::opt<int64_t> maxFunctionOpsFlag(
    "max_function_ops", cl::sub(compileCmd), cl::sub(benchCmd),
    cl::sub(runCmd), cl::cat(compileCategory),
    cl::init(mlir::tfaot::kSplitEntryMaxOps), cl::value_desc("n"),
    cl::desc("Cut an entry function of more operations than this (after "
             "bufferization, nested ones counted) into functions of about "
             "this size, called in order: LLVM optimizes a large graph in "
             "time linear in its size (default 8000, which no model of the "
             "test corpus reaches; 0: never cut). The generated code does "
             "the same work in the same order."));
static cl::opt<std::string> batchChunkFlag(
    "batch_chunk", cl::sub(compileCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory), cl::init("auto"),
    cl::value_desc("auto|off|rows"),
    cl::desc("CPU: compute a batch as several runs of the graph compiled for "
             "fewer rows, on consecutive slices of the inputs and results, "
             "so that each layer's activations stay in the cache. Only for "
             "graphs whose every result row depends on the same input row "
             "alone. auto (default): when the largest layer's activations "
             "at the full batch exceed 48 MiB (counted before fusion), in "
             "runs of rows that keep them under 24 MiB (unless reading the "
             "weights again would cost more); off: the whole batch at once; a number: runs of that "
             "many rows, for every batch (bucket) it divides. --report says what was "
             "chosen. Results are the same either way, up to Winograd's "
             "choice of layers, which depends on the rows per run."));
static cl::opt<double> maxCompileSecondsFlag(
    "max_compile_seconds", cl::sub(compileCmd), cl::sub(explainCmd),
    cl::sub(benchCmd), cl::sub(runCmd), cl::cat(compileCategory),
    cl::init(1800), cl::value_desc("seconds"),
    cl::desc("Stop a compilation that runs longer, with an error naming the "
             "graph and the stage and pass it was in, and exit status 3 "
             "(default 1800; 0: no limit). Each build counts on its own: "
             "--quantize builds twice, bench once per batch size."));
static cl::list<std::string> dumpIrAfterFlag(
    "dump_ir_after", cl::sub(compileCmd), cl::sub(explainCmd), cl::cat(compileCategory),
    cl::CommaSeparated, cl::value_desc("pass[,pass...]|all"),
    cl::desc("Print the IR to standard error after these passes (their "
             "tfaot-opt names, e.g. tfaot-fold-batch-norm), or after all."));
static cl::list<int64_t> batchFlag(
    "batch", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::cat(compileCategory),
    cl::CommaSeparated, cl::value_desc("n[,n...]"),
    cl::desc("Batch buckets, e.g. 1,8,32: one library with an entry "
             "specialized for each batch size (the first dimension of every "
             "feed and fetch, replacing the feed's or placeholder's); at run "
             "time set_batch_size(n) picks the smallest bucket that holds "
             "n."));
static cl::opt<bool> reportFlag(
    "report", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::desc("After compiling, print to standard output what the graph "
             "passes rewrote (per pass, with TF node names), op counts "
             "before and after them, and the memory plan."));
static cl::opt<bool> reportJsonFlag(
    "json", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::cat(compileCategory),
    cl::desc("With --report (or explain): print it as one JSON object (every "
             "rewritten node listed)."));
static cl::opt<int64_t> itersFlag(
    "iters", cl::sub(benchCmd), cl::cat(benchCategory), cl::init(10),
    cl::desc("bench: at least this many timed runs per batch size "
             "(default 10)."));
static cl::opt<double> minTimeFlag(
    "min_time", cl::sub(benchCmd), cl::cat(benchCategory), cl::init(1.0),
    cl::value_desc("seconds"),
    cl::desc("bench: keep running until this much time was timed per batch "
             "size (default 1)."));
static cl::opt<std::string> profileFlag(
    "profile", cl::sub(benchCmd), cl::cat(benchCategory),
    cl::value_desc("trace.json"),
    cl::desc("bench: also compile the first batch size with a timing call "
             "around each op, run it, write every op of every run to this "
             "file as a Chrome trace (open it in Perfetto or "
             "chrome://tracing; a track per thread, with the chunks of the "
             "parallel loops each one ran) and print the 15 slowest ops, "
             "each with its GFLOP/s (its convolutions' and matrix "
             "products' multiply-adds) and GB/s (the buffers it reads and "
             "writes, once each)."));
static cl::opt<int> threadsFlag(
    "threads", cl::sub(benchCmd), cl::cat(benchCategory), cl::init(1),
    cl::desc("bench: threads Run() uses, as set_num_threads(N) does in the "
             "generated class (default 1; 0: one per hardware thread)."));
static cl::opt<bool> sweepFlag(
    "sweep", cl::sub(benchCmd), cl::cat(benchCategory),
    cl::desc("bench: measure batch sizes 1, 2, 4, ..., 64 (unless --batch "
             "names others) and recommend the one with the most items/s "
             "within --latency_budget."));
static cl::opt<double> latencyBudgetFlag(
    "latency_budget", cl::sub(benchCmd), cl::cat(benchCategory),
    cl::init(0.0), cl::value_desc("ms"),
    cl::desc("bench --sweep: only batch sizes whose p90 latency is within "
             "this many milliseconds qualify (default: no budget)."));
static cl::opt<std::string> plotFlag(
    "plot", cl::sub(benchCmd), cl::cat(benchCategory),
    cl::value_desc("file.svg"),
    cl::desc("bench: also draw items/s and p90 latency per batch size as "
             "an SVG (with --sweep, the recommended batch size marked)."));

static cl::opt<bool> quietFlag(
    "quiet", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory),
    cl::desc("Print errors only: no warnings, no progress line."));
static cl::opt<bool> verboseFlag(
    "verbose", cl::sub(compileCmd), cl::sub(explainCmd), cl::sub(benchCmd), cl::sub(runCmd),
    cl::cat(compileCategory),
    cl::desc("Print each compilation stage with its time to standard error "
             "(without it, a terminal gets one progress line that is erased "
             "when done); with --target=cuda, also whether a cubin was "
             "assembled."));

static cl::opt<bool> listOpsFlag(
    "list_ops", cl::sub(compileCmd), cl::cat(compileCategory),
    cl::desc("Print the TensorFlow ops tfaot can compile, and exit."));

static void printVersion(llvm::raw_ostream &os) {
  os << "tfaot " << TFAOT_VERSION
     << " - ahead-of-time compiler for TensorFlow inference graphs\n";
}

/// Parses the flags. The errors cl reports through its stream ("tfaot:
/// Unknown command line argument '--grap'.") are reprinted in the style of
/// the others: "tfaot compile: error: Unknown command line argument ...".
/// (A bad value of a flag cl parses itself, like --emit's, is reported by
/// cl::Option::error straight to llvm::errs(), which cannot be restyled.)
static bool parseFlags(int argc, char **argv, llvm::StringRef command,
                       tfaot::GraphDiagnostics &usage) {
  std::string errors;
  llvm::raw_string_ostream stream(errors);
  bool parsed = cl::ParseCommandLineOptions(
      argc, argv, tfaot::helpOverview(command), &stream);
  std::string program = llvm::sys::path::filename(argv[0]).str() + ": ";
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(errors).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    if (!line.consume_front(program))
      llvm::errs() << line << "\n";
    else if (line.starts_with("Did you mean")) // Follows its error.
      llvm::errs() << tfaot::commandName() << ": " << line << "\n";
    else
      usage.usageError(line);
  }
  return parsed;
}

/// Whether `name` is one of the subcommands declared above.
static bool isCommand(llvm::StringRef name) {
  return !name.empty() && llvm::any_of(cl::getRegisteredSubcommands(),
                                       [&](cl::SubCommand *sub) {
                                         return sub->getName() == name;
                                       });
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::SetVersionPrinter(printVersion);
  // Show only our flags in --help, not the many LLVM registers globally.
  cl::HideUnrelatedOptions(compileCategory);
  cl::HideUnrelatedOptions(compileCategory, compileCmd);
  cl::HideUnrelatedOptions(compileCategory, explainCmd);
  cl::HideUnrelatedOptions({&compileCategory, &benchCategory}, benchCmd);
  cl::HideUnrelatedOptions(opsCategory, opsCmd);
  cl::HideUnrelatedOptions(showCategory, showCmd);
  cl::HideUnrelatedOptions({&compileCategory, &runCategory}, runCmd);
  // Each command's --help opens with its own man-style overview.
  llvm::StringRef command = argc > 1 ? argv[1] : "";
  if (isCommand(command))
    tfaot::setCommandName(("tfaot " + command).str());
  // Errors about the command line, under the command's name.
  tfaot::GraphDiagnostics usage("", llvm::errs());
  if (!parseFlags(argc, argv, command, usage))
    return 1;

  if (opsCmd)
    return tfaot::reportGraphOps(opsGraphFlag, opsSignatureFlag, opsJsonFlag,
                                 llvm::outs(), llvm::errs());
  if (showCmd)
    return tfaot::showGraph(showGraphFlag, showSignatureFlag, showJsonFlag,
                            llvm::outs(), llvm::errs());
  if (!compileCmd && !explainCmd && !benchCmd && !runCmd) {
    usage.usageError("no command given; run 'tfaot compile --help' or "
                     "'tfaot --help'");
    return 1;
  }
  if (listOpsFlag) {
    for (const std::string &op : tfaot::supportedOps())
      llvm::outs() << op << "\n";
    return 0;
  }
  if (cpuFlag == "help") {
    tfaot::cpu::TargetOptions target;
    target.triple = tripleFlag;
    std::string error;
    if (tfaot::cpu::printTargetCpus(target, llvm::outs(), error))
      return 0;
    usage.usageError(error);
    return 1;
  }
  // Empty is "not given" further on; given empty is a mistake.
  if (cppClassFlag.getNumOccurrences() && cppClassFlag.empty()) {
    usage.usageError("--cpp_class '' is not a C++ class name like "
                     "'ns::Name'");
    return 1;
  }
  tfaot::CompileOptions options;
  options.graph = graphFlag;
  options.signature = signatureFlag;
  options.config = configFlag;
  options.feeds.assign(feedFlags.begin(), feedFlags.end());
  options.feedValues.assign(feedValueFlags.begin(), feedValueFlags.end());
  options.fetches.assign(fetchFlags.begin(), fetchFlags.end());
  options.cppClass = cppClassFlag;
  options.entryPoint = entryPointFlag;
  options.outHeader = outHeaderFlag;
  options.outObject = outObjectFlag;
  options.outMetadataObject = outMetadataFlag;
  options.outCHeader = outCHeaderFlag;
  options.outSharedLibrary = outSharedLibraryFlag;
  if (quietFlag && verboseFlag) {
    usage.usageError("--quiet and --verbose exclude each other");
    return 1;
  }
  options.verbosity = quietFlag     ? tfaot::Verbosity::Quiet
                      : verboseFlag ? tfaot::Verbosity::Verbose
                                    : tfaot::Verbosity::Normal;
  // The progress line is for people watching a compile, not for logs, and
  // bench keeps the terminal for its table.
  options.statusLine =
      compileCmd && llvm::sys::Process::StandardErrIsDisplayed();
  usage.setQuiet(options.verbosity == tfaot::Verbosity::Quiet);
  auto ignored = [&usage](const char *flag, const char *why) {
    usage.warning(llvm::Twine(flag) + " is ignored: " + why);
  };
  if (genProgramShapeFlag)
    ignored("--gen_program_shape", "the header's static tables describe "
                                   "every buffer");
  if (xlaFlagsFlag.getNumOccurrences())
    ignored("--xla_flags", "tfaot does not use XLA");
  if (mlirComponentsFlag.getNumOccurrences())
    ignored("--mlir_components", "tfaot is MLIR throughout");
  (void)genNameToIndexFlag; // Always on: nothing to do or say.
  options.emit = emitFlag;
  options.outMlir = outputFlag;
  options.graphPasses = graphPassesFlag;
  options.layout = layoutFlag;
  options.jpegSize = jpegSizeFlag;
  options.jpegDctScaling = jpegDctScalingFlag;
  options.convAlgorithm = convAlgorithmFlag;
  options.cpuGemm = cpuGemmFlag;
  options.runtimeChecks = runtimeChecksFlag;
  if (maxFunctionOpsFlag < 0) {
    usage.usageError("--max_function_ops must be 0 (never cut) or more, "
                     "not " +
                     std::to_string(maxFunctionOpsFlag));
    return 1;
  }
  options.maxFunctionOps = maxFunctionOpsFlag;
  options.batchChunk = batchChunkFlag;
  options.maxCompileSeconds = maxCompileSecondsFlag;
  options.dumpIrAfter.assign(dumpIrAfterFlag.begin(), dumpIrAfterFlag.end());
  options.batchBuckets.assign(batchFlag.begin(), batchFlag.end());
  if (reportJsonFlag && !reportFlag && !explainCmd && !benchCmd) {
    usage.usageError("--json needs --report");
    return 1;
  }
  if (explainCmd) {
    // The report is the output: lower as far as the memory plan (after
    // bufferization) and write nothing else.
    options.emit = tfaot::EmitStage::Bufferized;
    options.outMlir.clear();
    options.report = reportJsonFlag ? tfaot::CompileOptions::Report::Json
                                    : tfaot::CompileOptions::Report::Text;
  } else if (reportFlag)
    options.report = reportJsonFlag ? tfaot::CompileOptions::Report::Json
                                    : tfaot::CompileOptions::Report::Text;
  options.target.triple = tripleFlag;
  options.target.cpu = cpuFlag;
  options.target.features = featuresFlag;
  options.target.optLevel = optLevelFlag;
  options.targetKind = targetKindFlag;
  options.gpuArch = gpuArchFlag;
  options.gpuEmulate = gpuEmulateFlag;
  options.gpuGemm = gpuGemmFlag;
  options.gpuConv = gpuConvFlag;
  options.gpuDepthwise = gpuDepthwiseFlag;
  options.allowTf32 = allowTf32Flag;
  options.precision = precisionFlag;
  options.quantize = quantizeFlag;
  options.calibration = calibrationFlag;
  options.calibrationMethod = calibrationMethodFlag;
  options.calibrationPercentile = calibrationPercentileFlag;
  options.quantizeAllLayers = quantizeAllLayersFlag;
  options.quantizeResiduals = quantizeResidualsFlag;
  options.quantizeMinK = quantizeMinKFlag;
  options.quantizeFloatWeights = quantizeFloatWeightsFlag;
  options.quantizeReport = quantizeReportFlag;
  options.precisionReport = precisionReportFlag;
  if (runCmd) {
    tfaot::RunOptions run;
    run.compile = options;
    run.inputs.assign(runInputFlags.begin(), runInputFlags.end());
    run.outputDir = runOutputDirFlag;
    run.threads = runThreadsFlag;
    run.seed = runSeedFlag;
    run.compareDir = runCompareFlag;
    run.rtol = runRtolFlag;
    run.atol = runAtolFlag;
    return tfaot::runGraph(run, llvm::outs(), llvm::errs());
  }
  if (benchCmd) {
    tfaot::BenchOptions bench;
    bench.compile = options;
    bench.compile.report = tfaot::CompileOptions::Report::None;
    bench.batches = options.batchBuckets;
    if (sweepFlag && bench.batches.empty())
      bench.batches = {1, 2, 4, 8, 16, 32, 64};
    bench.minIters = itersFlag;
    bench.minTimeSeconds = minTimeFlag;
    bench.threads = threadsFlag;
    bench.sweep = sweepFlag;
    bench.latencyBudgetMs = latencyBudgetFlag;
    bench.json = reportJsonFlag;
    bench.plotPath = plotFlag;
    bench.profilePath = profileFlag;
    return tfaot::bench(bench, llvm::outs(), llvm::errs());
  }
  return tfaot::compile(options, llvm::errs());
}
