//===- HelpText.cpp - Man-page style help for each tfaot command ----------===//
// SPDX-License-Identifier: Apache-2.0
#include "HelpText.h"

static const char kToolHelp[] =
    R"(tfaot - ahead-of-time compiler for TensorFlow inference graphs

SYNOPSIS
  tfaot show    --graph G [--signature S] [--json]
  tfaot compile --graph G [--config C | --feed F... --fetch F...]
                --cpp_class ns::Name --out_header H --out_function_object O
  tfaot run     --graph G [feeds, fetches] [--input name=x.npy]...
                [--output_dir D] [--compare DIR]
  tfaot explain --graph G [feeds, fetches, --layout, --batch] [--json]
  tfaot bench   --graph G [feeds, fetches] [--batch 1,8 | --sweep] [--json]
  tfaot ops     --graph G [--json]

DESCRIPTION
  show     says what a graph takes and gives (names, dtypes, shapes,
           signatures), which ops tfaot compiles, and the flags to compile
           it: the command to run first on a new model.
  compile  writes an object file (code and weights) and a C++ header
           declaring a class that runs the graph; link it with
           libtfaot_runtime.a.
  explain  says what the graph passes do to a graph and plans its memory,
           writing no files.
  bench    compiles for each batch size, runs on random inputs and reports
           latency and throughput; --sweep recommends a batch size.
  run      compiles in memory, runs once on .npy inputs and writes each
           result as .npy; --compare checks them against references.
  ops      lists a graph's ops and whether tfaot compiles them.

  The graph is a frozen GraphDef (.pb, .pbtxt), a TF.js graph model
  (model.json) or a SavedModel directory. Run 'tfaot COMMAND --help' for a
  command's flags.

ERRORS
  Each error is a line that starts with what is at fault: 'FILE: error:'
  for a file (it cannot be read or written, or a node, shape or entry in
  it is wrong), 'tfaot COMMAND: error:' for the command line (a flag
  missing, malformed or out of range, or flags that do not go together).

EXIT STATUS
  0 success; 1 any error (bad flags, unreadable graph, unsupported op,
  failed compilation); 3 a compilation ran past --max_compile_seconds;
  tfaot ops: 2 when some ops are not supported; tfaot run --compare: 1
  when a result does not match.
)";

static const char kCompileHelp[] =
    R"(tfaot compile - compile a TensorFlow graph into an object file and a header

SYNOPSIS
  tfaot compile --graph G [--config C] [--feed name[:shape[:dtype]]]...
                [--fetch name[:index]]... --cpp_class ns::Name
                --out_header H --out_function_object O [flags]
  tfaot compile --graph G ... --emit tfaot|linalg|bufferized|llvm|llvm-ir
  tfaot compile --graph G ... --target cuda [--gpu_arch sm_90|sm_89|sm_80]

DESCRIPTION
  Imports the graph (pruned to what the fetches need), runs the graph
  passes, lowers through MLIR and LLVM, and writes the object (code and
  weights) and the header (a class deriving from tfaot::CompiledFunction:
  typed argument and result buffers, Run(), error_msg(), memory figures).
  tfcompile's flags and tf2xla.Config files work unchanged; the flags it
  has that tfaot does not need are accepted with a warning. Feeds and
  fetches come from --config, then --feed/--fetch, and for TF.js models
  and SavedModels from their signature.

  Errors name the file and, where one is at fault, the node and its op;
  every problem of a kind is listed at once. On a terminal a progress line
  shows the stage; --verbose prints each stage's time, --quiet only errors.

  --target cuda compiles for NVIDIA GPUs instead: PTX kernels (and a cubin
  for --gpu_arch when ptxas is installed) in the object with a host
  launcher, and a class deriving from tfaot::CudaCompiledFunction, whose
  Run() copies the arguments to the GPU and the results back (or uses the
  caller's device buffers: set_arg_device_ptr); link
  libtfaot_cuda_runtime.a too. --emit gpu|ptx prints the kernels.
  --batch works there too.

EXIT STATUS
  0 the outputs were written; 1 any error: then no output is written, and
  files already at the output paths keep what they had (each output goes
  to a temporary file that is renamed into place once all are written);
  3 the compilation ran past --max_compile_seconds (default 1800 s): it
  is stopped with an error naming the graph, the stage and the pass it
  was in, and no output is written.

EXAMPLES
  tfaot compile --graph mnist.pb --feed x:1,784 --fetch y_pred \
      --cpp_class demo::Mnist --out_header mnist.h --out_function_object mnist.o
  tfaot compile --graph model.json --batch 1,8,32 --target_cpu x86-64-v3 \
      --cpp_class m::Net --out_header net.h --out_function_object net.o
  tfaot compile --graph saved_model_dir --emit tfaot | less
  tfaot compile --graph mnist.pb --feed x:1,784 --fetch y_pred --target cuda \
      --cpp_class demo::Mnist --out_header mnist.h --out_function_object mnist.o
)";

static const char kExplainHelp[] =
    R"(tfaot explain - say what the compiler does to a graph

SYNOPSIS
  tfaot explain --graph G [--config C] [--feed F]... [--fetch F]...
                [--layout auto|nhwc|nchw] [--batch N,...] [--json]
                [--target cuda [--gpu_conv im2col|cudnn] [--precision P]
                 [--gpu_gemm cublas|kernels] [--gpu_depthwise tiled|direct]]

DESCRIPTION
  Compiles as far as the memory plan and prints, instead of writing files,
  what 'compile --report' prints: per graph pass, what it rewrote at which
  TF nodes (and what it left, with the reason), op counts before and after
  the passes, and the memory plan (arena, lower bound, naive sum). With
  --target cuda --gpu_conv cudnn it also says where each convolution runs
  and why: cuDNN with its epilogue fused, cuDNN with the epilogue a kernel,
  im2col + cuBLAS, or a generated kernel (depthwise).

  With --target cuda (either --gpu_conv) it says, one line per depthwise
  convolution (TF node), which kernel the GPU runs: the tiled one, with
  its tile (V outputs a thread, the block's outputs x CB channels and its
  threads, the input tile staged in shared memory and its bytes), or the
  direct one (one thread per output) and why: --gpu_depthwise=direct, a
  channel count not a multiple of 8, an input tile over 32 KiB (large or
  dilated windows), or a window of more than 49 taps. The kernel mapping
  that 'compile' runs makes the same choice.

EXIT STATUS
  0 the report was printed; 1 any error.

EXAMPLES
  tfaot explain --graph nanodet.json --layout nchw
  tfaot explain --graph model.pb --feed input:1,224,224,3 --json | jq .rewrites
  tfaot explain --graph resnet50.pb --target cuda --gpu_conv cudnn
  tfaot explain --graph mobilenet_v2.pb --feed input:1,224,224,3 \
      --fetch logits --target cuda --precision fp16 --json |
      jq '.rewrites[] | select(.pass == "tfaot-gpu-tiled-depthwise")'
)";

static const char kBenchHelp[] =
    R"(tfaot bench - measure a compiled model and choose a batch size

SYNOPSIS
  tfaot bench --graph G [feeds, fetches] [--batch N,... | --sweep]
              [--latency_budget MS] [--iters N] [--min_time S]
              [--threads N] [--target_cpu native] [--plot F.svg]
              [--profile trace.json] [--json]

DESCRIPTION
  For each batch size, compiles the graph as 'compile --batch N' would,
  links the object into this process, runs Run() on random inputs (those
  of 'tfaot run' without --input: floats uniform in [-1, 1), integers in
  [0, 10), seed 0) and prints median, p90 and minimum latency, items/s,
  the arena and the compile time. --sweep measures batch
  1, 2, 4, ..., 64 (or --batch's list) and recommends the batch size with
  the most items/s whose p90 latency fits --latency_budget. --threads N
  runs the model's parallel loops on N threads, as the generated class's
  set_num_threads(N) does (results are the same for any N). --profile
  compiles the first batch size once more with a timing call around each
  op of the model (a convolution with its fused epilogue is one op), writes
  every op of every run as a Chrome trace for Perfetto (a track per
  thread: with --threads N, each worker's chunks of the parallel loops),
  and prints the slowest ops with their share of a run; on one thread it
  also predicts the run on 2 to 16 threads (each parallel loop divided as
  the pool divides it, the rest serial: a bound) and names the ops with
  the most serial time. --plot draws the
  measurements, marking the batch size --sweep recommends.

EXIT STATUS
  0 every batch size was measured; 1 any error.

EXAMPLES
  tfaot bench --graph resnet50.pb --feed input:1,224,224,3 --target_cpu native
  tfaot bench --graph resnet50.pb --feed input:1,224,224,3 --threads 0
  tfaot bench --graph model.json --target_cpu native --profile trace.json
  tfaot bench --graph model.json --sweep --latency_budget 50 --plot curve.svg
)";

static const char kOpsHelp[] =
    R"(tfaot ops - list a graph's ops and whether tfaot compiles them

SYNOPSIS
  tfaot ops --graph G [--signature NAME] [--json]

DESCRIPTION
  Prints every op of the graph (and of its function library, counted after
  a '+') with its count and whether tfaot compiles it, then the unsupported
  ones. Use it before writing any flags to see what stands between a graph
  and tfaot.

EXIT STATUS
  0 every op is supported; 2 some are not; 1 the graph cannot be read.

EXAMPLES
  tfaot ops --graph handtrack.json
  tfaot ops --graph saved_model_dir --json
)";

static const char kShowHelp[] =
    R"(tfaot show - what a graph takes and gives, and how to compile it

SYNOPSIS
  tfaot show --graph G [--signature NAME] [--json]

DESCRIPTION
  Prints the graph's inputs and outputs as they must be named: the name
  the generated header and 'tfaot run' use (a signature's key, else the
  node), the tensor (node:index), the dtype and the shape, -1 where a
  dimension is unknown. They are the signature's where the model has one
  (a SavedModel's SignatureDef, a TF.js model's "signature"); in a plain
  GraphDef the inputs are the Placeholders and the outputs the nodes no
  other node reads (leaving out NoOp, Const, Assert, variables and the
  saver). For a SavedModel it also lists the meta graph's tags and every
  signature, marking the default one.

  Then the ops with their counts and whether tfaot compiles them (as
  'tfaot ops' lists them), and the --feed/--fetch flags that compile the
  graph, ready to paste: -1 dimensions are set to 1 there. The graph is
  imported with those flags to check them; the outputs' dtypes and shapes
  shown are the imported ones, or '?' with the reason when that failed.

EXIT STATUS
  0 the report was printed; 1 the graph cannot be read.

EXAMPLES
  tfaot show --graph simple_mnist.pb
  tfaot show --graph saved_model_dir --signature classify
  tfaot show --graph model.json --json | jq .flags
)";

static const char kRunHelp[] =
    R"(tfaot run - run a graph once on given inputs and check its results

SYNOPSIS
  tfaot run --graph G [--config C] [--feed F]... [--fetch F]...
            [--input name=file.npy|file.bin]... [--output_dir D]
            [--threads N] [--seed S] [--compare DIR [--rtol R] [--atol A]]

DESCRIPTION
  Compiles the graph as 'tfaot compile' would with the same flags, links
  the object into this process as 'tfaot bench' does, and runs it once.
  Each --input fills one argument from a .npy file (its dtype and shape
  must be the argument's: little-endian, C order) or a .bin file of
  exactly the argument's raw bytes; arguments given none get random data
  (floats uniform in [-1, 1), integers in [0, 10), from --seed), and
  standard error says which. With no --feed and no --config, each .npy
  input also feeds its argument with the file's shape and dtype (no
  --feed needed for a placeholder of unknown batch size); with no --fetch
  and no --config, a GraphDef's fetches are the nodes no other node reads,
  as 'tfaot show' lists them (standard error names them). Each result is
  written as D/<name>.npy, its name made safe for a file name, and printed
  with its dtype, shape, minimum, maximum and mean. The files hold the bytes the
  same object computes when linked into a program.

  --compare DIR reads DIR/<name>.npy for each result and prints the
  largest absolute and relative errors; a result matches when every
  element is within atol + rtol * |reference| (NaN matches only NaN).

EXIT STATUS
  0 the results were written (and all match); 1 any error, or a result
  that does not match its reference.

EXAMPLES
  tfaot run --graph simple_mnist.pb --input x=digits.npy --output_dir out
  tfaot run --graph model.json --compare tf_outputs --rtol 1e-4
  tfaot run --graph saved_model_dir --input x=x.bin --threads 0
)";

const char *tfaot::helpOverview(llvm::StringRef command) {
  if (command == "compile")
    return kCompileHelp;
  if (command == "explain")
    return kExplainHelp;
  if (command == "bench")
    return kBenchHelp;
  if (command == "ops")
    return kOpsHelp;
  if (command == "show")
    return kShowHelp;
  if (command == "run")
    return kRunHelp;
  return kToolHelp;
}
