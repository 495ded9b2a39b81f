//===- Passes.td - CUDA backend passes ---------------------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Passes that only the CUDA backend runs (backends/gpu/Pipeline.cpp puts
// them in order; the upstream passes around them do the mapping to GPU
// threads, the outlining of kernels and the NVVM lowering):
//
//  on tensors, before bufferization
//    tfaot-gpu-split-small-reductions, tfaot-gpu-convs-to-matmuls,
//    tfaot-gpu-store-half, tfaot-gpu-convs-to-cudnn;
//  on buffers, between bufferization and the upstream GPU mapping
//    tfaot-gpu-branch-results-in-place,
//    tfaot-gpu-cudnn-calls, tfaot-gpu-matmuls-to-cublas, tfaot-gpu-copies-to-linalg,
//    tfaot-gpu-parallel-dims-first, tfaot-gpu-accumulate-in-registers,
//    tfaot-gpu-sink-views-into-kernels, tfaot-gpu-stage-host-calls and
//    tfaot-gpu-read-decisions (not with --gpu_emulate),
//    tfaot-gpu-wrap-host-work, tfaot-gpu-flatten-parallel-loops;
//  after the outlining of kernels
//    tfaot-gpu-merge-kernel-modules, tfaot-gpu-contract-fp,
//    tfaot-gpu-check-host-code;
//  --gpu_emulate only (kernels run as loops on the CPU)
//    tfaot-gpu-emulate-launches, tfaot-gpu-define-emulated-gemm,
//    tfaot-gpu-define-emulated-conv.
//
// The target-independent passes are in passes/Passes.td, the CPU backend's
// in backends/cpu/Passes.td. The C++ of each def lives in a file named
// after it (ConvsToMatmulsPass in ConvsToMatmuls.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_PASSES_TD
#define TFAOT_BACKENDS_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def SplitSmallReductionsPass
    : Pass<"tfaot-gpu-split-small-reductions", "mlir::func::FuncOp"> {
  let summary = "Split long reductions with few outputs into partial "
                "reductions and a final one (more GPU threads per output)";
  let description = [{
    Runs on tensors, before bufferization. The kernel mapping gives every
    output element of a reduction one thread that loops over the whole
    reduced dimension; with few outputs (under 1024) and a long reduction
    (128 or more) that thread is the whole kernel. Such a reduction of size
    K becomes, with upstream's linalg split reduction, R partial reductions
    of K/R and a reduction of the R partials, R the divisor of K nearest
    sqrt(K) (at least 4, at most K/4): for 1000, 40 partials of 25.
    Reductions split reduction does not know, or with no such divisor, are
    left alone.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def ConvsToMatmulsPass
    : Pass<"tfaot-gpu-convs-to-matmuls", "mlir::func::FuncOp"> {
  let summary = "Rewrite f32 NHWC/HWCF convolutions on tensors as im2col + "
                "linalg.matmul (for cuBLAS)";
  let description = [{
    Runs on tensors, after the elementwise fusion (which would turn the
    matmul back into a generic) and before bufferization. Every statically
    shaped f32 `linalg.conv_2d_nhwc_hwcf` becomes an im2col copy (a parallel
    linalg.generic gathering each output pixel's KHxKWxC window into one
    row; a zero padding before the conv is folded into it) and a
    `linalg.matmul` with the HWCF filter seen as a (KH*KW*C)xF matrix. A
    1x1 stride-1 convolution needs no copy: its NHWC input already is the
    (N*H*W)xC matrix.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def DirectDepthwisePass
    : Pass<"tfaot-gpu-direct-depthwise", "mlir::func::FuncOp"> {
  let summary = "Depthwise convolutions as one generic each: the padded "
                "input read in place, the accumulator in a register, the "
                "elementwise epilogue fused";
  let description = [{
    Runs on tensors, before tfaot-gpu-store-half. Each statically shaped
    float `linalg.depthwise_conv_2d_nhwc_hwcm` that accumulates into a fill,
    reads an input padded along H and W by a constant (or not padded) and
    has at most 49 taps becomes a `linalg.generic` over its output whose
    body sums the taps in the named op's order, reading the unpadded input
    with `tensor.extract` at clamped indices and taking the padding value
    outside it. The elementwise generic that alone reads the result is
    fused into it. The pad, the fill and the epilogue's separate kernel
    go. Every depthwise convolution gets a remark saying which way it
    runs, for `tfaot explain`. The generic carries the window
    (`tfaot.depthwise_window`) for tfaot-gpu-tiled-depthwise.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def TiledDepthwisePass
    : Pass<"tfaot-gpu-tiled-depthwise", "mlir::func::FuncOp"> {
  let summary = "Depthwise convolutions as kernels that stage an input tile "
                "in workgroup memory and compute several outputs a thread";
  let description = [{
    Runs on buffers, before the kernel mapping. Each generic
    tfaot-gpu-direct-depthwise made (marked with its window)
    becomes a gpu.launch: a block copies the input its 4 x TW outputs of CB
    channels read (halo and stride included) into workgroup memory, a
    gpu.barrier, then each thread computes V adjacent outputs of one
    channel (V = 4 at stride 1, 2 at stride 2) by the generic's own body,
    its input reads turned into reads of the tile. Generics it cannot tile
    (channel multiplier, fewer than 8 channels, a tile over 32 KiB) keep
    the one-thread-per-output kernel. Every marked generic gets a remark:
    its tile (V, the block's outputs and channels CB, its threads, the
    input tile), or why it stays direct. The choice is
    chooseDepthwiseKernel's (DepthwiseKernel.h).
  }];
  let options = [
    Option<"direct", "direct", "bool", /*default=*/"false",
           "Keep every depthwise kernel direct (--gpu_depthwise=direct), "
           "with a remark saying so">,
    Option<"reportOnly", "report-only", "bool", /*default=*/"false",
           "Only remark which kernel each depthwise convolution gets, the "
           "IR untouched (tfaot explain, which stops before the kernel "
           "mapping)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def StoreHalfPass : Pass<"tfaot-gpu-store-half", "mlir::func::FuncOp"> {
  let summary = "Store activations and weights in f16 or bf16 between ops, "
                "with f32 arithmetic, and make matrix products 16-bit "
                "(--precision=fp16|bf16)";
  let description = [{
    Runs on tensors, after tfaot-gpu-convs-to-matmuls and before
    bufferization. Every f32 linalg.matmul / batch_matmul takes 16-bit
    inputs into its f32 output (weights converted at compile time, other
    inputs by a conversion kernel); every linalg.generic result that its op
    only writes, and whose readers can all widen it as they load it, is
    stored in 16 bits: rounded once at the store, widened by each reader.
    The entry's arguments and results, products' outputs and reductions
    stay f32. Named linalg ops other than products and fills are
    generalized first.
  }];
  let options = [
    Option<"type", "type", "std::string", /*default=*/"\"f16\"",
           "The 16-bit type: f16 or bf16">,
    Option<"keepConvs", "keep-convs", "bool", /*default=*/"false",
           "Treat statically shaped f32 linalg.conv_2d_nhwc_hwcf as "
           "products (16-bit inputs, f32 output) instead of generalizing "
           "them (--gpu_conv=cudnn: tfaot-gpu-convs-to-cudnn runs after)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def ConvsToCudnnPass
    : Pass<"tfaot-gpu-convs-to-cudnn", "mlir::func::FuncOp"> {
  let summary = "Pick the convolutions cuDNN runs: NHWC/HWCF with constant "
                "weights become NHWC/FHWC with the weights transposed to "
                "KRSC (--gpu_conv=cudnn)";
  let description = [{
    Runs on tensors, after tfaot-gpu-store-half{keep-convs=true} and
    before tfaot-gpu-convs-to-matmuls. A statically shaped
    `linalg.conv_2d_nhwc_hwcf` with constant weights and a zero-filled f32
    output becomes a `linalg.conv_2d_nhwc_fhwc` whose weights are
    transposed to KRSC at compile time. With 16-bit inputs only one whose
    epilogue cuDNN can fuse (ConvEpilogue.h: y = relu?(conv + z? + bias?),
    the ReLU possibly a ReLU6, stored in 16 bits) goes, and its bias is
    rounded to 16 bits (cuDNN's 16-bit configurations take a 16-bit bias);
    the others stay for im2col, each with a remark saying why (and each
    depthwise convolution with one saying it stays a generated kernel), for
    `tfaot explain`. tfaot-gpu-cudnn-calls makes the calls.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect"];
}

def CudnnCallsPass : Pass<"tfaot-gpu-cudnn-calls", "mlir::ModuleOp"> {
  let summary = "Replace each linalg.conv_2d_nhwc_fhwc on buffers, and its "
                "fusable epilogue, by a host call to the runtime's cuDNN "
                "convolution";
  let description = [{
    Runs on buffers, before tfaot-plan-buffers (which then keeps each
    call's operands alive up to the call). Every
    `linalg.conv_2d_nhwc_fhwc` (only tfaot-gpu-convs-to-cudnn makes them)
    on dense buffers becomes a host call to tfaot_rt_cuda_conv
    (backends/gpu/HostLaunch.h); when the `linalg.generic` right after it
    is its epilogue y = relu?(conv + z? + bias?) (ConvEpilogue.h; the ReLU
    possibly a ReLU6), the call writes that generic's output instead and
    the generic goes too: cuDNN's cudnnConvolutionBiasActivationForward
    does both. Where that output is in the convolution's input buffer, the
    call writes a temporary that a memref.copy moves after it. The zero
    fill of the convolution's buffer, or the copy of shared zeros into it,
    is dropped (cuDNN overwrites), and the shared zeros with their last
    copy. An
    input buffer that is a symmetric zero pad of another (an alloc, a zero
    fill and a copy into its interior, read by the convolution alone)
    becomes that buffer, with the padding passed to the call, and the
    fill and copy go (PaddedInput.h). Each
    call gets a remark saying what it fuses, for `tfaot explain`. For
    --gpu_emulate, tfaot-gpu-define-emulated-conv points the calls at
    loops.
  }];
  let options = [
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let cuDNN use TF32 tensor cores for f32 convolutions">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def MatmulsToCublasPass
    : Pass<"tfaot-gpu-matmuls-to-cublas", "mlir::ModuleOp"> {
  let summary = "Replace f32 (or f16/bf16 into f32) linalg.matmul/"
                "batch_matmul and int8 transposed-B linalg.matmul on "
                "row-contiguous buffers by host calls to the runtime's "
                "cuBLAS GEMMs";
  let description = [{
    Runs on buffers, before the kernel mapping. Every f32 `linalg.matmul` /
    `linalg.batch_matmul` whose rows are contiguous becomes a host call to
    tfaot_rt_cuda_gemm (backends/gpu/HostLaunch.h), which runs
    cublasSgemmStridedBatched on the run's stream, in order with the
    kernels; with f16 or bf16 inputs (tfaot-gpu-store-half) into f32,
    tfaot_rt_cuda_gemm_f16 / _bf16 (cuBLAS's tensor-core GEMM, fp32
    accumulation). The zeroing of the product's buffer before it (a fill, or a
    copy of a shared zero buffer) is dropped: cuBLAS then overwrites C
    (beta = 0) instead of adding to it. The int8 products of
    --quantize=int8 (a `linalg.matmul` of i8 rows by i8 weights stored
    [N, K], into i32) go to tfaot_rt_cuda_gemm_s8, cuBLAS's int8 GEMM; C
    starts from the zero-point term, so it is added to (beta = 1) unless
    that term is a zero fill. With emulate=true the calls go to
    tfaot_emulated_gemm(_f16, _bf16, _s8) instead, which
    tfaot-gpu-define-emulated-gemm defines in the object.
  }];
  let options = [
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Call tfaot_emulated_gemm(_f16, _bf16, _s8) (--gpu_emulate: defined in the "
           "object later, tfaot-gpu-define-emulated-gemm) instead of the "
           "runtime's cuBLAS entries">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let cuBLAS multiply in TF32 on tensor cores (10-bit mantissa "
           "inputs, fp32 accumulation)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def CopiesToLinalgPass
    : Pass<"tfaot-gpu-copies-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy so that copies become "
                "kernels";
  let description = [{
    Every `memref.copy` becomes a `linalg.copy`, so that copies become
    parallel loops, and with them kernels, like the other linalg ops.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def ParallelDimsFirstPass
    : Pass<"tfaot-gpu-parallel-dims-first", "mlir::func::FuncOp"> {
  let summary = "Interchange linalg.generic loops so that the parallel "
                "dimensions are the outer ones (all mapped to GPU threads)";
  let description = [{
    convert-linalg-to-parallel-loops turns only the leading parallel
    dimensions into the outer scf.parallel, and that is all the GPU mapping
    distributes over threads: a global average pool's (n, h, w, c) ran on n
    threads. Each linalg.generic's loops are interchanged so that its
    parallel dimensions come first, which gives every output element its
    own thread.
  }];
}

def AccumulateInRegistersPass
    : Pass<"tfaot-gpu-accumulate-in-registers", "mlir::func::FuncOp"> {
  let summary = "Carry a reduction loop's output element in a register: its "
                "load and store at loop-invariant indices move around the "
                "loop";
  let description = [{
    A reduction loop's load and store of its output element (at indices
    defined outside the loop, with no other access to that memref in the
    loop) become a loop-carried value: one load before the loop, one store
    after it, registers in between, instead of a global read-modify-write
    per multiply-add. Innermost loops go first, so a convolution's window
    loops are promoted one after the other.
  }];
}

def BranchResultsInPlacePass
    : Pass<"tfaot-gpu-branch-results-in-place", "mlir::func::FuncOp"> {
  let summary = "Give each buffer an scf.if or scf.index_switch picks at run "
                "time one buffer allocated before it, which every branch "
                "writes (kernels take no run-time offsets)";
  let description = [{
    Runs right after bufferization. Where the branches of an scf.if or
    scf.index_switch (a lowered tfaot.If/Case) yield buffers of different
    layouts, bufferization gives the result a fully dynamic layout, whose
    offset kernels (bare pointers) cannot take. Each such result of static
    shape gets one identity-layout buffer allocated before the branch: a
    branch that yields a buffer it allocated itself writes into that one
    instead (no copy), any other branch copies its value into it at its
    end. An arith.select of such buffers becomes an scf.if copying the one
    it picks. The users see the shared buffer through a memref.cast that
    canonicalization folds into them.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def SinkViewsIntoKernelsPass
    : Pass<"tfaot-gpu-sink-views-into-kernels", "mlir::func::FuncOp"> {
  let summary = "Clone the views a parallel loop uses whose offset is read "
                "from memory (a list write at a run-time row) into the loop, "
                "so that the kernel computes them";
  let description = [{
    Runs on the host code's parallel loops (kernels to be), before
    tfaot-gpu-wrap-host-work. A view the loop uses whose layout is known
    only at run time, or whose computation reads memory (memref.load: the
    row of a TensorArray or list write, a scalar a kernel wrote), is cloned
    with its computation (views, loads, pure arithmetic) into the loop's
    body: the kernel reads the scalar and makes the view itself, and takes
    only the buffer it is a view of, whose layout is static. A load moves
    only when no op between it and the loop may write its buffer; the host's
    copies nothing uses any more are erased.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def StageHostCallsPass
    : Pass<"tfaot-gpu-stage-host-calls", "mlir::ModuleOp"> {
  let summary = "Run the runtime's calls on host memory (NonMaxSuppression, "
                "Where) on host copies of their device buffers";
  let description = [{
    Each call of a runtime function that reads and writes host memory
    (HostLaunch.h's kHostMemoryCalls) gets a host buffer for each device
    buffer it takes (tfaot_rt_cuda_host_buffer), the ones it reads copied
    from the device before it (tfaot_rt_cuda_copy_to_host, synchronous),
    the ones it writes copied back after it (tfaot_rt_cuda_copy_to_device);
    constant globals it reads stay in host memory (a twin named
    __tfaot_host_*). The call is then marked tfaot.on_host_copies, which
    tfaot-gpu-check-host-code accepts. Not with --gpu_emulate, whose memory
    is the host's.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def ReadDecisionsPass
    : Pass<"tfaot-gpu-read-decisions", "mlir::ModuleOp"> {
  let summary = "Copy the scalars that host control flow decides on from "
                "device memory to the host";
  let description = [{
    A branch, loop or switch of the host code (scf.if, scf.while's
    scf.condition, scf.index_switch: the lowered tfaot.If/While/Case)
    decides on a value that a kernel wrote to device memory. Each
    memref.load that value comes from (through pure arithmetic) becomes a
    call to the runtime's tfaot_rt_cuda_read_scalar(address, bytes), a
    synchronous copy of those bytes to the host; the runtime then never
    captures the model into a CUDA graph (HostLaunch.h).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def WrapHostWorkPass
    : Pass<"tfaot-gpu-wrap-host-work", "mlir::func::FuncOp"> {
  let summary = "Put memory-touching code outside parallel loops into a "
                "one-iteration scf.parallel (run by one GPU thread)";
  let description = [{
    Memory-touching code outside any parallel loop (0-d ops, full
    reductions, branches and loops that hold no host work: TopKV2's walk
    over its histogram) goes into a one-iteration scf.parallel, which one
    GPU thread runs. Scalars it computes for later code are stored to
    device memory by the thread and loaded after it (the loads then move
    into the kernels that use them, or are read back for a decision).
    Calls stay on the host, as do runs that compute buffers used after
    them: tfaot-gpu-check-host-code reports both.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def FlattenParallelLoopsPass
    : Pass<"tfaot-gpu-flatten-parallel-loops", "mlir::func::FuncOp"> {
  let summary = "Rewrite every outermost scf.parallel as a 1-D blocks x "
                "threads nest over its linearized iteration space, with a "
                "bounds guard";
  let description = [{
    Every outermost scf.parallel becomes a 1-D (blocks x 256 threads) nest
    over its row-major linearized iteration space, with a bounds guard, so
    that gpu-map-parallel-loops gives each kernel a full thread block
    whatever its rank, and neighbouring threads touch neighbouring elements.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def MergeKernelModulesPass
    : Pass<"tfaot-gpu-merge-kernel-modules", "mlir::ModuleOp"> {
  let summary = "Move every outlined kernel into one gpu.module (one PTX "
                "image per entry), each named after the module it came from";
  let description = [{
    The outlined gpu.modules, one per kernel, become one gpu.module named
    tfaot_kernels (one PTX image per entry); each kernel is renamed after
    the module it came from, and the launches follow.
  }];
}

def ContractFpPass
    : Pass<"tfaot-gpu-contract-fp", "mlir::gpu::GPUModuleOp"> {
  let summary = "Allow floating-point contraction (a*b+c -> FMA) in "
                "kernels, as nvcc does by default";
  let description = [{
    Adds the `contract` fast-math flag to every arith op of the kernels, so
    that a multiply and an add may become one FMA, as nvcc does by default
    (--fmad).
  }];
}

def CheckHostCodePass
    : Pass<"tfaot-gpu-check-host-code", "mlir::ModuleOp"> {
  let summary = "Fail on any op left in host functions that would touch "
                "tensor memory (which lives on the device)";
  let description = [{
    The host function may only compute addresses, launch kernels and call
    the runtime's cuBLAS entries: anything else would dereference device
    memory on the CPU. Each such op is reported at its location (the node
    name), and the pass fails.
  }];
}

def EmulateLaunchesPass
    : Pass<"tfaot-gpu-emulate-launches", "mlir::func::FuncOp"> {
  let summary = "Replace gpu.launch with sequential loops over blocks and "
                "threads (to check the kernel mapping's results on the CPU)";
  let description = [{
    For --gpu_emulate: every gpu.launch becomes sequential loops over its
    blocks and threads, the body seeing the loop indices as its block and
    thread ids. A body of phases separated by top-level gpu.barrier ops runs
    each phase for every thread of a block before the next; workgroup
    attributions become one buffer the blocks reuse in turn. Pure values a
    thread carries across a barrier are recomputed; other carried values,
    barriers nested in regions, private attributions, async tokens and
    clusters are errors.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def DefineEmulatedGemmPass
    : Pass<"tfaot-gpu-define-emulated-gemm", "mlir::ModuleOp"> {
  let summary = "Give the --gpu_emulate build's tfaot_emulated_gemm a body: "
                "the GEMM cuBLAS runs on the GPU, as loops";
  let description = [{
    For --gpu_emulate: the declarations of tfaot_emulated_gemm and its
    _f16, _bf16 and _s8 forms that tfaot-gpu-matmuls-to-cublas{emulate=true}
    calls get bodies, loops with the contract of the runtime's
    tfaot_rt_cuda_gemm(_f16, _bf16, _s8), with internal linkage (each object
    carries its own copy).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def DefineEmulatedConvPass
    : Pass<"tfaot-gpu-define-emulated-conv", "mlir::ModuleOp"> {
  let summary = "Give the --gpu_emulate build's tfaot_emulated_conv_* a "
                "body: the convolution cuDNN runs on the GPU, as loops";
  let description = [{
    For --gpu_emulate: each call to tfaot_rt_cuda_conv goes to
    tfaot_emulated_conv_f32, _f16 or _bf16 by the data type in its
    (constant) flags, and those get bodies,
    loops with the contract of the runtime's tfaot_rt_cuda_conv: 16-bit
    inputs widened exactly, f32 sums, the epilogue in f32, one rounding at
    the store. Internal linkage (each object carries its own copy).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::LLVM::LLVMDialect"];
}

#endif // TFAOT_BACKENDS_GPU_PASSES_TD
