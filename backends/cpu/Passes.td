//===- Passes.td - CPU backend codegen passes -------------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Passes that only the CPU backend runs, on linalg and bufferized code on
// its way to LLVM: epilogue fusion, in-place padding, strided copies, thread
// pool outlining, register-blocked contractions, loop order and profiling
// calls. The target-independent passes are in passes/Passes.td. Each def has
// a summary and an example; the C++ lives in a file named after the def.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_PASSES_TD
#define TFAOT_BACKENDS_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExpandStridedCopiesPass
    : Pass<"tfaot-expand-strided-copies", "mlir::func::FuncOp"> {
  let summary = "rewrite memref.copy between non-contiguous buffers as linalg.copy";
  let description = [{
    Bufferizing tensor.pad and tensor.insert_slice copies into strided
    subviews. MemRef-to-LLVM lowers such a `memref.copy` to a call to
    `memrefCopy` from MLIR's C runner library, which generated objects must
    not depend on. This pass turns those copies into `linalg.copy`, which
    becomes plain loops; contiguous copies stay `memref.copy` (memcpy).

    ```mlir
    memref.copy %a, %sub : memref<2x3xf32> to memref<2x3xf32, strided<[5, 1], offset: 1>>
    ```
    becomes
    ```mlir
    linalg.copy ins(%a : memref<2x3xf32>) outs(%sub : memref<2x3xf32, strided<[5, 1], offset: 1>>)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numCopiesExpanded", "copies-expanded",
              "Number of strided copies rewritten">,
  ];
}

def ApproximateMathPass
    : Pass<"tfaot-approximate-math", "mlir::func::FuncOp"> {
  let summary = "compute f32 math.erf and math.exp as polynomials, not libm calls";
  let description = [{
    LLVM lowers `math.erf` to a call to libm's `erff` per element, which
    keeps the loop around it from being vectorized, and a vectorized
    `math.exp` to one `expf` call per lane: GELU's erf (BERT's 128x3072
    intermediate activation) cost about as much as the matrix product it
    follows, and the sigmoids of the TF.js model `meet` a quarter of its
    run. This pass rewrites each f32 `math.erf` and `math.exp` as MLIR's
    polynomial approximations (arithmetic and selects, which LLVM
    vectorizes with the rest of the loop). Their largest errors against
    Python's math module are measured in
    test/backends/cpu/approximate-math.test: erf 1.8e-7 absolute, exp
    1.2e-7 relative where its result is a normal float (below that, from
    x = -87.3, results lose precision and are 0 from about -87.7). Other
    math ops keep their lowering.

    ```mlir
    %y = math.erf %x : f32
    ```
    becomes a clamp of |x|, three piecewise rational polynomials and a
    select by interval, with the sign of x restored; `math.exp` a range
    reduction, a polynomial and a scale by a power of two.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def OrderContractionLoopsPass
    : Pass<"tfaot-order-contraction-loops", "mlir::func::FuncOp"> {
  let summary = "make the contiguous output dimension the innermost loop of convolutions, pools and matmuls";
  let description = [{
    Linalg's named convolutions, pools and matmuls list their reduction
    loops last, so lowered as they are the innermost loop runs over input
    channels (or the matmul's K) with a large stride through the filter:
    nothing to vectorize. This pass generalizes each of them and moves the
    loop of the output's last dimension of size > 1 (output channels, the
    matmul's N; it is contiguous in the output and the filter) innermost,
    after the reductions, so the innermost loop is an axpy LLVM's loop
    vectorizer turns into SIMD code. Each output element still accumulates
    its terms in the same order: results are unchanged.

    ```mlir
    linalg.conv_2d_nhwc_hwcf ins(%in, %w : ...) outs(%out : ...)
    ```
    becomes a linalg.generic with loops (n, oh, ow, kh, kw, c, f).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def VectorizeContractionsPass
    : Pass<"tfaot-vectorize-contractions", "mlir::func::FuncOp"> {
  let summary = "register-blocked vector code for convolutions and matmuls on buffers";
  let description = [{
    Runs on bufferized code, before `tfaot-order-contraction-loops` (which
    handles what this pass leaves). Each statically shaped
    `linalg.conv_2d_nhwc_hwcf`, `linalg.depthwise_conv_2d_nhwc_hwc`,
    `linalg.matmul` and `linalg.batch_matmul` is tiled so one tile's outputs
    fit in vector registers: up to two vectors of output channels (or N;
    four, 7 pixels high, for a convolution that `tfaot-fuse-epilogues`
    marked `tfaot.panel_columns` = four AVX-512 vectors, whose packed filter
    panel the tile then reads whole) times up to 8 output pixels (or rows
    of M), the kernel window one tap at a time and the input channels (or
    K) 8 at a time (4, 2 or 1 where 8 does not divide them: powers of two,
    which LLVM reads as broadcast loads). A depthwise tile takes a window
    row of up to 3 undilated taps per step with AVX-512,
    reading the input pixels its outputs' windows span once. Tile sizes divide
    their dimensions, so every tile is static. A 2-D convolution tile is
    rewritten as the 1-D convolution linalg vectorizes, the tile becomes
    vector code, the accumulator's load and store are hoisted out of the
    reduction loops, and `vector.contract` is lowered to outer products, i.e.
    one FMA of a filter row by a broadcast input element per output pixel.
    When a `linalg.fill` of the whole output comes right before the op and
    the accumulator is carried through every reduction loop, the
    accumulator starts as the fill's value in registers and the fill is
    dropped (the tiles write every element). When an elementwise
    `linalg.generic` over the op's whole output comes right after it (the
    bias, activation and residual add `tfaot-fuse-epilogues` leaves), its
    piece for each tile runs at the end of the tile, one vector per row,
    on what the tile just wrote; it is not left as a second pass over the
    output.

    Each output element still adds its terms in the same order as the
    scalar loops (window rows, columns, then channels); only the multiply
    and add become one fused multiply-add.

    A `linalg.depthwise_conv_2d_nhwc_hwcm` with channel multiplier 1 (the
    form the lowering makes) is first rewritten as the HWC form through
    views that drop the unit dimension (its zeroing fill and its epilogue
    too), and then handled like it.

    The vector width comes from `vector-bits` (512 for AVX-512, 256 for
    AVX2); where it does not divide the output's contiguous dimension, the
    tile's columns are counted in the widest half, quarter, ... (down to 4
    lanes) that does: 24 channels on AVX-512 are three 8-lane vectors.

    Elementwise `linalg.generic`s (epilogues, mostly) whose innermost loop
    is the contiguous last dimension of what they read and write, and spans
    at most four vectors (a bias over 16 channels), become a loop over the
    other dimensions with that row as one vector. LLVM would otherwise
    unroll so short an inner loop and vectorize the loop around it, with
    gathers and scatters.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "width of the target's vector registers in bits">,
  ];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect", "mlir::affine::AffineDialect",
    "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
    "mlir::ub::UBDialect",
  ];
}

def ParallelizeLoopsPass
    : Pass<"tfaot-parallelize-loops", "mlir::ModuleOp"> {
  let summary = "run large loops on the runtime's thread pool";
  let description = [{
    Runs on bufferized code, before `tfaot-vectorize-contractions`. Each
    loop at the top of a function that `tfaot-fuse-epilogues` marked
    `tfaot.parallel` (the tile loop of a convolution or matmul with its
    epilogue: one output row per iteration; a perfect nest of such loops,
    images x rows x channel blocks, is first coalesced into one loop over
    all its tiles), and each statically shaped
    linalg op at the top of a function, which is first split into a
    parallel loop of up to 64 pieces along its first parallel dimension that
    is not the output's contiguous one (a matrix product's rows in multiples
    of 8; the contiguous dimension in pieces of 64 when it is all there is;
    a `linalg.fill` of its whole output right before it is split with it,
    each piece zeroing its own slice before its product, where
    `tfaot-vectorize-contractions` then starts the accumulators from zero),
    is outlined: its body becomes a private function
    `<function>_parallel<k>(context, begin, end)` running iterations
    [begin, end), and the loop becomes a call of the runtime's
    `tfaot_rt_parallel_for(body, context, n)`. The context is an array of
    8-byte slots on the stack holding the buffers (aligned pointers; every
    buffer has a static shape and layout) and scalars the body reads;
    constants are cloned into the body.

    Loops doing less than `min-work` multiply-adds or elements (for vector
    code, the lanes of the vectors it computes) are left alone (a dispatch
    to the pool costs microseconds), and so are loops
    that call functions: the runtime's functions report errors per thread.
    Each iteration computes what it computed in the loop, so results do not
    depend on the number of threads.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"1048576",
           "smallest iteration space (multiply-adds or elements) worth "
           "running on several threads">,
  ];
  let statistics = [
    Statistic<"numLoopsParallelized", "loops-parallelized",
              "Number of loops outlined for the thread pool">,
  ];
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect", "mlir::func::FuncDialect",
    "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect", "mlir::linalg::LinalgDialect",
    "mlir::ub::UBDialect",
  ];
}

def InstrumentProfilePass
    : Pass<"tfaot-instrument-profile", "mlir::ModuleOp"> {
  let summary = "time each op of the entry functions (tfaot bench --profile)";
  let description = [{
    Runs on bufferized code. Every op at the top of a public function that
    does work of its own (a linalg op, a loop, a call, a memref.copy; not
    views, constants or allocations) gets a call of
    `tfaot_rt_profile_begin(id)` before it and `tfaot_rt_profile_end(id)`
    after it, and the module attribute `tfaot.profile_names` lists each
    id's name: the kinds of linalg ops it runs ("fill + conv_2d_nhwc_hwcf +
    generic" for a convolution fused with its epilogue) and the TensorFlow
    node it comes from. `tfaot.profile_flop` and `tfaot.profile_bytes`
    give, per id, its work: 2 x the multiply-adds of the contractions it runs
    (linalg ops with a reduction loop whose body multiplies, times the trips
    of the constant loops around them; 0 when a count is not static) and
    the bytes of the statically shaped buffers defined outside it that it
    uses, each once. `tfaot bench --profile` defines the two functions
    and writes what they record as a Chrome trace; generated libraries are
    never instrumented.
  }];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::arith::ArithDialect"];
}

def WriteIntoPaddedBuffersPass
    : Pass<"tfaot-write-into-padded-buffers", "mlir::func::FuncOp"> {
  let summary = "make the producer of a padded convolution input write the "
                "padded buffer's interior";
  let description = [{
    Runs on bufferized code, before `tfaot-plan-buffers`. A padded
    convolution input is bufferized as an alloc filled with the pad value,
    a subview of its interior and a copy of the unpadded value into it.
    Where that value is an NHWC buffer of its own (any batch), written whole by
    one elementwise linalg op (all loops parallel, identity output map, the
    output not read) and afterwards only copied there, the padded buffer's
    alloc, fill and subview move before the op, the op writes the subview,
    and the copy goes (the planner then drops the unused buffer). A tile
    loop of `tfaot-fuse-epilogues` (scf.for marked `tfaot.parallel`) counts
    as writing its result whole when its one tile view of the buffer (or
    equal views, with bufferization's copies between them, which go) covers
    the buffer through the loops' induction variables and is zeroed by a
    linalg.fill before anything else touches it: its tile views are then
    rebuilt on the padded interior. Such a loop also counts as the later
    layer that overwrites a reused buffer. (MobileNetV2 copied each expand
    convolution's result into its depthwise convolution's padded input.)

    ```mlir
    linalg.generic ... outs(%q : memref<1x4x4x8xi8>)
    %p = memref.alloc() : memref<1x6x6x8xi8>
    linalg.fill ins(%zp : i8) outs(%p : memref<1x6x6x8xi8>)
    %in = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] ...
    memref.copy %q, %in
    ```
    becomes the alloc, the fill and the subview, then the generic writing
    `outs(%in)`. The CPU int8 kernels do the same for their fused results
    (`tfaot-cpu-int8-ukernels`).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numCopiesRemoved", "copies-removed",
              "Number of copies into padded buffers removed">,
  ];
}

def FuseEpiloguesPass : Pass<"tfaot-fuse-epilogues", "mlir::func::FuncOp"> {
  let summary = "fuse each convolution or matmul with its elementwise epilogue into one loop nest";
  let description = [{
    Runs on linalg on tensors, after `tfaot-fuse-elementwise`. For each
    elementwise `linalg.generic` (all loops parallel, identity output map,
    output value not read) reading, through identity maps, the result of a
    `linalg.conv_2d_nhwc_hwcf`, `linalg.depthwise_conv_2d_nhwc_hwc(m)` or
    `linalg.matmul` of the same type that has no other user and whose
    accumulator is a `linalg.fill`, the generic is rewritten to compute in
    place on the contraction's result, then tiled along its outer output
    dimensions with `scf.for` (one output row per tile for convolutions,
    the batch too when it is not 1, and blocks of output channels as well
    for a large full convolution with fewer than 32 rows in all, so that
    16 threads get pieces; blocks of whole rows, up to 8192
    elements and dividing M, for matmul), and the contraction and its fill
    are fused into the loop through its destination. A convolution split
    over channels loops over the channel blocks outside the rows, its
    blocks narrowed (down to 32 channels) until one block's weights fit
    768 KiB, and a constant filter is packed block-major (KH x KW x C x F
    becomes F/block x KH x KW x C x block), so every row reads the block's
    weights as one contiguous panel that stays in cache; each output
    element still adds the same terms in the same order. A packed block is
    one register tile wide (32 channels; 64 for a unit-stride convolution
    with at most 512 filter values per output channel, marked
    `tfaot.panel_columns` for the four-vector tile of
    `tfaot-vectorize-contractions`), so a tile reads its panel as one
    contiguous stream. A matmul's constant weights over 768 KiB are split
    and packed the same way (K x N becomes N/block x K x block), in blocks
    of 32 columns or, where 32 does not divide N, of the narrowest multiple
    of 8 up to 64 that does (40 for 1000 classes), whatever the number of
    rows: a classifier at batch 1 then streams its weights panel by panel,
    and every batch bucket packs them alike. Each tile is zeroed,
    accumulated and finished by the epilogue in the same slice of the
    result, so one-shot bufferization allocates nothing in the loop and the
    full-size temporary is gone. The padded input (`tensor.pad`) and the
    epilogue's other operands (bias, residual) stay whole tensors computed
    before the loop. The contraction's fill is redirected to the epilogue's
    destination tensor, the buffer bufferization had planned for the
    result (and a fill that CSE shared among contractions stops being
    shared by their loops). A multiplier-1 depthwise convolution that is
    still collapsed from 5-D HWCM to NHWC in front of the epilogue is
    rewritten as `linalg.depthwise_conv_2d_nhwc_hwc` first.

    ```mlir
    %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    %c = linalg.conv_2d_nhwc_hwcf ins(%padded, %w : ...) outs(%f : ...) -> tensor<1x8x8x16xf32>
    %r = linalg.generic {... iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
           ins(%c, %bias : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e1 : tensor<1x8x8x16xf32>) {...}
    ```
    becomes
    ```mlir
    %r = scf.for %h = %c0 to %c8 step %c1 iter_args(%acc = %e0) -> (tensor<1x8x8x16xf32>) {
      %in = tensor.extract_slice %padded[0, %h, 0, 0] [1, 3, 10, 3] [1, 1, 1, 1] : ...
      %s = tensor.extract_slice %acc[0, %h, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : ...
      %f = linalg.fill ins(%zero : f32) outs(%s : tensor<1x1x8x16xf32>) -> ...
      %c = linalg.conv_2d_nhwc_hwcf ins(%in, %w : ...) outs(%f : ...) -> ...
      %t = linalg.generic {...} ins(%bias : tensor<16xf32>) outs(%c : tensor<1x1x8x16xf32>) {...}
      %u = tensor.insert_slice %t into %acc[0, %h, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : ...
      scf.yield %u : tensor<1x8x8x16xf32>
    }
    ```
    Each fused group is reported with a remark naming the contraction's
    node.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
  let statistics = [
    Statistic<"numEpiloguesFused", "epilogues-fused",
              "Number of elementwise epilogues fused with their contraction">,
    Statistic<"numConvsBlocked", "convs-blocked",
              "Number of convolutions without a fused epilogue and batched "
              "products tiled over output-channel blocks">,
  ];
}

def WinogradConvolutionsPass
    : Pass<"tfaot-winograd-convolutions", "mlir::func::FuncOp"> {
  let summary = "compute 3x3 stride-1 convolutions as Winograd F(4x4,3x3) "
                "or F(2x2,3x3)";
  let description = [{
    Runs on linalg on tensors, after elementwise fusion and before
    `tfaot-fuse-epilogues` (`--conv_algorithm=winograd|auto`). Each f32
    `linalg.conv_2d_nhwc_hwcf` with a constant 3x3 filter, strides and
    dilations 1, input and output channels multiples of 4 and a
    zero-filled init (what the lowering of an ungrouped Conv2D makes; its
    SAME padding is the tensor.pad in front) becomes:

    1. an input transform, one `linalg.generic` over (position, image, tile
       row, tile column, channel) writing B^T d B of the 6x6 patch under
       each 4x4 block of output pixels to one tensor [36, N, tiles_h,
       tiles_w, C_in]: stated as the sum over the 36 patch positions (the
       padded input at 36 offsets) times BT[a][i] BT[b][j] from a 36x36
       constant, computed in factored form by
       `tfaot-vectorize-winograd-transforms`;
    2. one `linalg.batch_matmul` of the 36 products, [36 x tiles x C_in] x
       [36 x C_in x C_out], with the filter's G g G^T computed here in
       double precision and stored as one constant (4x the filter's size).
       One batched product rather than 36 matmuls: the kernel is generated
       once per layer, not 36 times (ResNet-50 compiled in 52 s instead of
       12.5 s direct; now 18.5 s), and the thread pool splits the batch;
    3. an output transform, one `linalg.generic` over the convolution's
       output [N, H, W, C_out] that sums the 36 products of the pixel's
       block with the coefficients A^T[p][a] A^T[q][b] of its position
       (p, q) in the block, read from a 4x4x36 constant.

    The one elementwise consumer of the convolution (bias, activation,
    residual add) is fused into the output transform. Where H or W is not a
    multiple of 4 the input gets zero rows and columns at its end for the
    last block's patch. Both transforms are marked
    `tfaot.winograd_transform` for `tfaot-vectorize-winograd-transforms`.

    `algorithm=winograd` rewrites every qualifying convolution as F(4x4).
    `algorithm=auto` chooses by the number of output blocks over the batch,
    since each transformed filter is read once for all of them: F(4x4)
    with at least `min-tiles` 4x4 blocks; otherwise F(2x2,3x3) with at least
    `min-tiles` 2x2 blocks (the same three steps on 4x4 patches: 16
    products, filters 16/9 of the direct ones, 2.25x fewer multiply-adds
    than direct), as for ResNet-50's 7x7 layers at batch 1; otherwise
    direct.
  }];
  let options = [
    Option<"algorithm", "algorithm", "std::string", /*default=*/"\"winograd\"",
           "winograd (every convolution that qualifies, as F(4x4)) or auto "
           "(F(4x4) or F(2x2) by their blocks, see min-tiles)">,
    Option<"minTiles", "min-tiles", "int64_t", /*default=*/"16",
           "with algorithm=auto: the fewest output blocks (of the "
           "algorithm's size, over the batch) worth a Winograd algorithm">,
  ];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::arith::ArithDialect",
  ];
  let statistics = [
    Statistic<"numConvolutionsRewritten", "convolutions-rewritten",
              "Number of convolutions rewritten as Winograd">,
    Statistic<"numSmallBlockConvolutions", "small-block-convolutions",
              "Of those, the number rewritten as F(2x2,3x3)">,
  ];
}

def VectorizeWinogradTransformsPass
    : Pass<"tfaot-vectorize-winograd-transforms", "mlir::func::FuncOp"> {
  let summary = "vector loops over channels for the Winograd transforms";
  let description = [{
    Runs on bufferized code, before `tfaot-parallelize-loops`. The input
    transform of `tfaot-winograd-convolutions` becomes a loop over blocks
    and channel vectors that loads the 36 (F(4x4)) or 16 (F(2x2)) vectors
    of a patch, forms B^T d then (B^T d) B with constant coefficients
    (zeros skipped, +-1 not multiplied) and stores the results at their
    positions of the [36, ...] or [16, ...] buffer (the algorithm is read
    off that batch size); the output transform a loop over blocks that applies
    A^T m A and the fused epilogue per pixel. Any other
    `linalg.generic` marked `tfaot.winograd_transform` whose loops are all
    parallel, whose body is scalar elementwise ops, and whose innermost
    loop indexes the last, contiguous dimension of every operand it indexes
    at all becomes a loop nest whose innermost loop steps through that
    dimension a vector at a time (`vector-bits` / 32 lanes, or the widest
    power of two down to 4 that divides it): `vector.load`s of the operands
    it indexes, scalar loads splatted for those it does not (hoisted out of
    the vector loop), the body on vectors, `vector.store`s of the results.
    LLVM's loop vectorizer leaves these loops scalar: they touch 36
    operands, more than it checks for overlap at run time. Each element is
    computed with the same operations in the same order as the scalar loop.
    The loops over patches and blocks are marked `tfaot.parallel`: each
    iteration writes its own patch or block, so `tfaot-parallelize-loops`
    may run them on the thread pool.

    ```mlir
    linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0),
                                     (d0, d1) -> (d0, d1)], ...,
                    tfaot.winograd_transform = "output"}
        ins(%m, %c : memref<2x32xf32>, memref<2xf32>) outs(%y : memref<2x32xf32>)
    ```
    becomes
    ```mlir
    scf.for %i = %c0 to %c2 step %c1 {
      %s = memref.load %c[%i]
      scf.for %j = %c0 to %c32 step %c16 {
        %v = vector.load %m[%i, %j] : memref<2x32xf32>, vector<16xf32>
        ... vector.store %r, %y[%i, %j]
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "width of the target's vector registers in bits">,
  ];
  let dependentDialects = [
    "mlir::scf::SCFDialect", "mlir::vector::VectorDialect",
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
    "mlir::memref::MemRefDialect",
  ];
  let statistics = [
    Statistic<"numTransformsVectorized", "transforms-vectorized",
              "Number of Winograd transforms turned into vector loops">,
  ];
}

#endif // TFAOT_BACKENDS_CPU_PASSES_TD
