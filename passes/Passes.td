//===- Passes.td - tfaot graph and lowering passes --------*- tablegen -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Passes that work on the tfaot dialect. Each def has a summary and an
// example; the C++ lives in a file named after the def. The passes only the
// CPU backend runs are in backends/cpu/Passes.td.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_PASSES_TD
#define TFAOT_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToLinalgPass : Pass<"tfaot-lower-to-linalg", "mlir::ModuleOp"> {
  let summary = "lower tfaot ops to linalg, tensor, arith and math";
  let description = [{
    Rewrites every tfaot op into upstream dialects on tensors, the common
    entry point of the CPU and GPU backends. Elementwise ops become
    `linalg.generic` with broadcasting indexing maps, MatMul becomes
    `linalg.matmul`, reductions (Softmax, ArgMax) become reduction
    `linalg.generic`s, and TF's unsigned element types become signless.

    ```mlir
    %0 = tfaot.Relu %x : tensor<2x3xf32>
    ```
    becomes
    ```mlir
    %e = tensor.empty() : tensor<2x3xf32>
    %0 = linalg.generic {...} ins(%x : tensor<2x3xf32>) outs(%e : ...) {
      ^bb0(%in: f32, %out: f32):
        %z = arith.constant 0.0 : f32
        %r = arith.maximumf %in, %z : f32
        linalg.yield %r : f32
    } -> tensor<2x3xf32>
    ```
    Code generation needs static shapes: a tfaot op with a dynamic
    dimension is reported (naming its node) and the pass fails.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
  let statistics = [
    Statistic<"numOpsLowered", "ops-lowered", "Number of tfaot ops lowered">,
  ];
}

def FuseElementwisePass : Pass<"tfaot-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "linalg-fuse-elementwise-ops with a bound on the fused body";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` (the same fusion, reshape
    folding, constant folding and canonicalization patterns, top-down),
    except that a producer is fused into its consumer only while the fused
    `linalg.generic` keeps at most `max-body-ops` operations in its body.
    Each fusion clones both bodies into a new op, so fusing a chain of n
    elementwise ops one producer at a time without a bound clones
    O(n^2) operations: a graph with a chain of 6000 (10k nodes) took 80 s.
    With the bound a long chain becomes consecutive generics of up to
    `max-body-ops` operations each, and the cost is linear in n. No model
    of the corpus reaches the bound, so their code is unchanged.

    ```mlir
    %a = linalg.generic ... ins(%x) { addf } -> tensor<64xf32>
    %b = linalg.generic ... ins(%a) { maximumf } -> tensor<64xf32>
    ```
    becomes one `linalg.generic` computing `addf` then `maximumf`, unless
    the two bodies together exceed `max-body-ops` operations.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"128",
           "Most operations (the terminator included) a fused body may have">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::tensor::TensorDialect"];
}

def DistinctResultBuffersPass
    : Pass<"tfaot-distinct-result-buffers", "mlir::func::FuncOp"> {
  let summary = "give each returned buffer that repeats an earlier result a copy of its own";
  let description = [{
    Runs on bufferized code, right before `buffer-results-to-out-params`,
    in the CPU and the CUDA pipelines. A function that returns one buffer
    more than once (a tensor fetched twice: `--fetch y --fetch y`) gets a
    fresh buffer and a `memref.copy` for each repeat, because
    `buffer-results-to-out-params{hoist-static-allocs}` would replace the
    alloc of the repeated buffer a second time after erasing it. The first
    result keeps its buffer.

    ```mlir
    %a = memref.alloc() : memref<2xi64>
    return %a, %a : memref<2xi64>, memref<2xi64>
    ```
    becomes
    ```mlir
    %a = memref.alloc() : memref<2xi64>
    %b = memref.alloc() : memref<2xi64>
    memref.copy %a, %b : memref<2xi64> to memref<2xi64>
    return %a, %b : memref<2xi64>, memref<2xi64>
    ```
    A repeated buffer with a non-identity layout is an error (function
    results have the identity layout after one-shot-bufferize's
    `function-boundary-type-conversion=identity-layout-map`).
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def PlanBuffersPass : Pass<"tfaot-plan-buffers", "mlir::ModuleOp"> {
  let summary = "place the entry function's temporaries in one arena argument";
  let description = [{
    Runs on bufferized code, after `buffer-results-to-out-params` and before
    `buffer-deallocation-pipeline`. In the module's public entry function it
    collects the statically shaped `memref.alloc`s of the function body,
    computes each one's live range over the body's op order (from the alloc
    to the last use of the buffer or of any view of it: subview, reshape,
    expand/collapse_shape, cast, any `ViewLikeOpInterface` op, any other
    op that returns a memref from it, and its address as an integer
    (`memref.extract_aligned_pointer_as_index`, followed through
    side-effect-free arithmetic to the call that takes it); a use nested in
    a loop counts at its top-level op), and packs them into one arena:
    largest first, each into
    the best-fitting gap among the already placed buffers whose live ranges
    overlap its own, at offsets aligned to 64 bytes.

    Each planned alloc becomes a `memref.view` of a new trailing argument
    `memref<Nxi8>` (the arena; only added when N > 0), and its deallocs are
    erased. Allocs with a dynamic shape, a non-identity layout, a memory
    space, an element type other than integer/float, or inside a nested
    region are left alone (and counted), so correctness never depends on
    the plan.

    ```mlir
    func.func @f(%x: memref<16xf32>, %out: memref<16xf32>) {
      %a = memref.alloc() : memref<16xf32>
      ...
    }
    ```
    becomes
    ```mlir
    func.func @f(%x: memref<16xf32>, %out: memref<16xf32>, %arena: memref<64xi8>) {
      %c0 = arith.constant 0 : index
      %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
      ...
    }
    ```
    The module gets `tfaot.arena_bytes` (N), `tfaot.naive_temp_bytes` (the
    sum of the planned buffers) and `tfaot.peak_live_bytes` (the most bytes
    live at once, a lower bound of any plan) as i64 attributes;
    passes/MemoryPlan.h names them and reads them back (readMemoryPlan, which
    also counts the static bytes of the allocs left alone).
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::memref::MemRefDialect",
  ];
  let statistics = [
    Statistic<"numPlanned", "buffers-planned",
              "Number of allocs placed in the arena">,
    Statistic<"numUnplanned", "buffers-unplanned",
              "Number of allocs left as heap allocations">,
    Statistic<"numDeallocsErased", "deallocs-erased",
              "Number of deallocs of planned buffers erased">,
    Statistic<"arenaBytes", "arena-bytes", "Size of the arena in bytes">,
    Statistic<"naiveBytes", "naive-bytes",
              "Sum of the sizes of the planned buffers">,
    Statistic<"peakLiveBytes", "peak-live-bytes",
              "Most bytes of planned buffers live at one op">,
  ];
}

def ScaleJpegDecodePass
    : Pass<"tfaot-scale-jpeg-decode", "mlir::func::FuncOp"> {
  let summary = "decode a JPEG at 1/2, 1/4 or 1/8 scale for a resize that "
                "shrinks it at least that much";
  let description = [{
    A whole-image DecodeJpeg (ratio 1) whose pixels reach a ResizeBilinear
    or ResizeNearestNeighbor (NHWC) only through Cast, ExpandDims-style
    Reshapes and elementwise ops with per-channel constants gets the
    largest ratio of 2, 4, 8 that still decodes at least the resize's
    output size; the ops in between get the smaller shape. libjpeg then
    runs scaled inverse DCTs and the resize reads a smaller image. The
    results differ slightly from the full-size decode, so `tfaot compile`
    runs this pass only with --jpeg_dct_scaling. Decodes of a crop window
    are left alone.

    ```mlir
    %0 = tfaot.DecodeJpeg %c {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
    %1 = tfaot.Cast %0 : (tensor<37x53x3xui8>) -> tensor<37x53x3xf32>
    %2 = tfaot.Reshape %1, %shape : (...) -> tensor<1x37x53x3xf32>
    %3 = tfaot.ResizeBilinear %2, %size : (...) -> tensor<1x8x8x3xf32>
    ```
    becomes a decode with `ratio = 4 : i64` to tensor<10x14x3xui8>, the
    Cast and Reshape on 10x14 images, and the same resize.
  }];
}

def FuseDecodeCropPass
    : Pass<"tfaot-fuse-decode-crop", "mlir::func::FuncOp"> {
  let summary = "decode only the window of a JPEG that a Slice keeps";
  let description = [{
    A whole-image DecodeJpeg (size from --jpeg_size) whose only user is a
    Slice with constant begin and size over height and width (all
    channels), or a StridedSlice with constant bounds, steps of 1 and no
    axis dropped or added (`image[y0:y1, x0:x1]`), becomes one DecodeJpeg of that window: libjpeg then skips the
    rows above it, decompresses only the iMCU columns it covers and stops
    after its last row. The whole image's size stays checked at run time
    (`image_size`), so a wrongly sized image fails as before.

    ```mlir
    %0 = tfaot.DecodeJpeg %c {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
    %1 = tfaot.Slice %0, %begin, %size : (...) -> tensor<16x20x3xui8>   // begin [5, 7, 0]
    ```
    becomes
    ```mlir
    %w = tfaot.Const dense<[5, 7, 16, 20]> : tensor<4xi32>
    %1 = tfaot.DecodeJpeg %c crop %w {channels = 3 : i64, image_size = array<i64: 37, 53>} : (...) -> tensor<16x20x3xui8>
    ```
  }];
}

def SimplifyPass : Pass<"tfaot-simplify", "mlir::ModuleOp"> {
  let summary = "exact algebraic clean-ups and constant folding of tfaot ops";
  let description = [{
    Runs on the tfaot dialect before lowering, with the greedy pattern
    driver (the dialect's folders run too: Identity disappears, and the
    integer/shape folders' results become `tfaot.Const`). No rewrite
    changes an output bit, except that `x + 0.0` turns -0.0 into +0.0 (the
    trade TF's Grappler makes too).

    1. Reshape chains collapse, and a Reshape to its operand's type goes:
       ```mlir
       %1 = tfaot.Reshape %x, %s1 : (tensor<2x6xf32>, tensor<3xi32>) -> tensor<2x3x2xf32>
       %2 = tfaot.Reshape %1, %s2 : (tensor<2x3x2xf32>, tensor<1xi32>) -> tensor<12xf32>
       ```
       becomes `tfaot.Reshape %x, %s2 : (tensor<2x6xf32>, ...) -> tensor<12xf32>`.
    2. Neutral elements: `x * 1`, `1 * x`, `x / 1`, `x + 0`, `0 + x` (Add,
       AddV2) and `x - 0` become `x` when the constant has one value
       throughout and the op's result type is x's type (broadcasting
       changes neither shape nor dtype):
       `tfaot.Mul %x, %one : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>`
       becomes `%x`.
    3. A Pad by a constant +0.0 (or integer 0) that pads only the spatial
       dimensions of a Conv2D or DepthwiseConv2dNative input (of its
       data_format) becomes the convolution's padding: the convolution
       reads the unpadded input with padding "EXPLICIT" and
       explicit_paddings = (its own VALID, EXPLICIT or SAME amounts on the
       padded input) + (the Pad's):
       ```mlir
       %p = tfaot.Pad %x, %pads, %zero   // pads [[0,0],[1,1],[2,2],[0,0]]
       %y = tfaot.Conv2D %p, %w {padding = "VALID", ...}
       ```
       becomes `tfaot.Conv2D %x, %w {padding = "EXPLICIT",
       explicit_paddings = [0, 0, 1, 1, 2, 2, 0, 0], ...}`. The Pad may
       also reach the convolution through a Transpose that only the
       convolution uses (NCHW graphs that pad, then transpose to NHWC): the
       convolution then reads a new Transpose of the unpadded input. The
       Pad stays while it has other users; pools are left alone.
    4. Constant folding, computed as the generated code computes it (in the
       element type; f16/bf16 in float, rounded once): the unary ops Neg,
       Abs, Sqrt, Rsqrt (1 / sqrt(x)), Reciprocal, Exp, Log, Square, Relu,
       Relu6, Floor, Ceil; the binary ops Add, AddV2, Sub, Mul, RealDiv,
       Maximum, Minimum, SquaredDifference with NumPy broadcasting (integer
       division by zero or overflow is left to run time); Cast between
       float, integer and bool types (a float out of the target's range is
       left alone); Transpose and ConcatV2 (any element type and axis).
       `Rsqrt(Const 4.0)` becomes `Const 0.5`.
       Results above `max-fold-elements` elements are not folded, nor
       broadcasts that grow past both 65536 elements and their largest
       operand.
    5. No-ops: Cast to the same type, ConcatV2 and AddN of one input,
       Transpose by the identity permutation, Slice and StridedSlice taking
       the whole input, Pad and MirrorPad by zero, BroadcastTo the input's
       own type: each becomes its input.
    6. A Cast to f32 of integers (8 bits or wider) or f16/bf16 that only a
       ResizeBilinear reads, possibly through one Reshape (the batch
       ExpandDims of JPEG preprocessing), is dropped: the resize reads the
       narrower pixels and converts each value it reads, as TF's kernel
       does, so the numbers are the same and no float copy of the image is
       made. `ResizeBilinear(Cast(%u8 : tensor<1x480x640x3xui8>))` becomes
       `ResizeBilinear(%u8)`.
  }];
  let options = [
    Option<"maxFoldElements", "max-fold-elements", "int64_t",
           /*default=*/"int64_t(1) << 24",
           "Largest constant (in elements) that folding may create">,
  ];
  let statistics = [
    Statistic<"numReshapeChains", "reshape-chains-collapsed",
              "Reshapes of Reshapes that now read the inner operand">,
    Statistic<"numReshapesRemoved", "reshapes-removed",
              "Reshapes to their operand's own type removed">,
    Statistic<"numNeutralRemoved", "neutral-ops-removed",
              "Mul/RealDiv by 1 and Add/AddV2/Sub of 0 removed">,
    Statistic<"numPadsFolded", "pads-folded",
              "Zero Pads folded into a convolution's padding">,
    Statistic<"numConstantsFolded", "constants-folded",
              "Elementwise, Cast, Transpose and ConcatV2 ops of constants "
              "folded">,
    Statistic<"numFoldsMaterialized", "folds-materialized",
              "Constant results of the dialect's folders made tfaot.Const">,
    Statistic<"numFoldsTooLarge", "folds-too-large",
              "Constant folds skipped for the size of their result">,
    Statistic<"numIdentitiesRemoved", "identities-removed",
              "Identity ops removed (by Identity's folder)">,
    Statistic<"numNoOpsRemoved", "no-ops-removed",
              "Same-type Casts and other no-op ops removed">,
    Statistic<"numCastsIntoResize", "casts-into-resize",
              "Casts to f32 in front of a ResizeBilinear left to the resize">,
  ];
}

def AssignLayoutPass : Pass<"tfaot-assign-layout", "mlir::ModuleOp"> {
  let summary = "put convolutions, pools and batch norms in one data layout";
  let description = [{
    Runs on the tfaot dialect, on every function of the module, in two
    steps. Every rewrite is an exact permutation of elements: no number
    changes.

    1. Every op with a `data_format` (Conv2D, DepthwiseConv2dNative,
       MaxPool, AvgPool, FusedBatchNorm, and BiasAdd of rank >= 3) that is
       not in the target layout is rewritten into it: its input goes
       through a Transpose into the target layout, its 4-element strides,
       dilations, ksize and explicit_paddings are permuted, and its result
       goes through a Transpose back. Filters are HWIO/HWCM in both layouts
       and stay as they are.
    2. Transposes are then moved through layout-agnostic ops and cancelled.
       For a transpose with permutation p, the pass takes the connected
       group of ops that could compute the same values permuted by p:
       elementwise ops (unary ones, LeakyRelu, Cast, and binary ones whose
       other operands are transposed too, constants of any broadcastable
       rank, or scalars), BiasAdd and FusedBatchNorm when the channel lands
       where the target layout has it, Pad and MirrorPad (paddings rows
       permuted), ConcatV2 (axis remapped), Slice and StridedSlice (no
       ellipsis/new-axis/shrink masks) and the reductions Mean, Sum, Max,
       Min, Prod, Any, All with constant axes (with keep_dims = false the
       result gets the permutation left of the kept dimensions). It counts
       the transposes the group would remove (transposes into it by p;
       transposes out of it that compose with p into the identity) and add
       (where the group meets other values), and rewrites it when that
       removes transposes, or moves them towards the results without
       adding any. Transpose(Transpose(x)) becomes one transpose, an
       identity transpose goes, and a transpose of a constant becomes a
       constant. A Reshape moves when the dimension groups it merges or
       splits stay consecutive; a size-1 dimension it adds goes with the
       dimension it follows (so a zero-interleaving upsampling, Reshape to
       [N, H, 1, W, 1, C], Pad, Reshape, moves as a whole).
    3. A transpose read only through flattening Reshapes to [N, K] that feed
       MatMuls with constant weights (directly or through elementwise ops
       whose other operands are flattened alike or constant; Keras's
       Flatten + Dense) is folded away: the Reshapes flatten its input and
       the weight rows (and any [K] constant on the way) are reordered.
    4. Transposes left that only move size-1 dimensions become Reshapes.

    What stays: transposes next to the function's arguments and results,
    and in front of ops that need the other element order (a Reshape that
    merges the channel with other dimensions into a non-MatMul consumer,
    gathers over flattened pixels, ResizeBilinear, a StridedSlice with
    masks). Each one left says which ops read it in its remark.

    With `layout=nhwc`:
    ```mlir
    %0 = tfaot.Conv2D %x, %w {data_format = "NCHW", padding = "VALID",
        strides = [1, 1, 2, 2]} : (tensor<1x3x8x8xf32>, tensor<3x3x3x4xf32>)
        -> tensor<1x4x3x3xf32>
    %1 = tfaot.Relu %0 : tensor<1x4x3x3xf32>
    return %1 : tensor<1x4x3x3xf32>
    ```
    becomes
    ```mlir
    %t = tfaot.Transpose %x, %nchw_to_nhwc  // [0, 2, 3, 1]
    %0 = tfaot.Conv2D %t, %w {data_format = "NHWC", padding = "VALID",
        strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
        -> tensor<1x3x3x4xf32>
    %1 = tfaot.Relu %0 : tensor<1x3x3x4xf32>
    %2 = tfaot.Transpose %1, %nhwc_to_nchw  // [0, 3, 1, 2]
    return %2 : tensor<1x4x3x3xf32>
    ```
  }];
  let options = [
    Option<"layout", "layout", "std::string", /*default=*/"\"nhwc\"",
           "target data layout: nhwc or nchw">,
  ];
  let statistics = [
    Statistic<"numOpsRelaidOut", "ops-relaid-out",
              "Number of ops with a data_format rewritten into the target layout">,
    Statistic<"numTransposesBefore", "transposes-before",
              "Number of Transpose ops when the pass starts">,
    Statistic<"numTransposesInserted", "transposes-inserted",
              "Number of Transpose ops created">,
    Statistic<"numTransposesRemoved", "transposes-removed",
              "Number of Transpose ops erased (cancelled, composed or folded)">,
    Statistic<"numGroupsMoved", "groups-moved",
              "Number of groups of ops rewritten to move transposes through them">,
    Statistic<"numTransposesAtIO", "transposes-at-io",
              "Transposes left next to a function argument or result">,
    Statistic<"numTransposesLeft", "transposes-left",
              "Transposes left elsewhere (in front of ops that cannot be permuted)">,
  ];
}

def LowerInt8ContractionsPass : Pass<"tfaot-lower-int8-contractions", "mlir::func::FuncOp"> {
  let summary = "Int8Conv2D / Int8MatMul to im2col + an int8 product (linalg.mmt4d or linalg.matmul), Int8DepthwiseConv2D to linalg's depthwise convolution";
  let description = [{
    Runs after tfaot-fuse-elementwise (tfaot-lower-to-linalg leaves
    these ops alone). Each becomes the activation rows (an im2col copy, none
    for a 1x1 stride-1 convolution) times the weights, from the zero-point
    term. With product=mmt4d (the CPU backend's form) that is a linalg.mmt4d
    with tiles 1x16x4 against the weights packed at compile time, which the
    CPU backend turns into a call to the runtime's VNNI kernel. With
    product=matmul (the GPU backend's) it is a linalg.matmul with B
    transposed: rows [M, K] by the weights as [N, K], each output channel's
    K values contiguous, the layout of cuBLAS's int8 GEMM (which
    tfaot-gpu-matmuls-to-cublas calls) and of its generated kernel
    otherwise. K is padded to a multiple of 4 in both forms.
  }];
  let options = [
    Option<"product", "product", "std::string", /*default=*/"\"mmt4d\"",
           "form of the int8 products: mmt4d (CPU) or matmul (GPU)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def QuantizeInt8Pass : Pass<"tfaot-quantize-int8", "mlir::ModuleOp"> {
  let summary = "int8 convolutions and matmuls where a calibrated range is given";
  let description = [{
    Every float32 Conv2D (NHWC), DepthwiseConv2dNative (NHWC, channel
    multiplier 1) or MatMul with constant weights that carries
    `tfaot.quantize_range = [min, max]` (the range of its input, found by
    `tfaot compile --quantize=int8 --calibration`) is replaced by:
    - the input quantized per tensor to i8 with a zero point:
      clamp(round(x / s) + zp, -128, 127), as Mul, Round, Add, Maximum,
      Minimum and Cast;
    - the weights quantized per output channel, symmetrically to
      [-127, 127] (scale = max |w| / 127);
    - Int8Conv2D / Int8DepthwiseConv2D / Int8MatMul (i32 accumulation);
    - Cast to f32 and a Mul by s * weight_scale per output channel.
    The float ops that followed (BiasAdd, Relu, ...) are unchanged; the
    lowering fuses them with the rescale and the next layer's quantize.

    A float32 MatMul with constant weights that carries the unit attribute
    `tfaot.quantize_weights_only` keeps its float32 input: its weights
    become int8 per column as above, the product an Int8WeightMatMul
    (float32 sums of a * float(b)) and a Mul by the column scales.
    Ops without either attribute are left alone.

    With `residuals`, a residual addition reads the int8 stream: where a
    quantized layer's float input x is also an operand of an AddV2 or Add
    of x's shape whose other operand is not a constant (the shortcut of a
    ResNet or MobileNetV2 block), that operand becomes the int8 input
    dequantized, (Cast(q) - zp) * s. x is then read only to be quantized,
    so its producer can write int8 alone, and the block's last product
    reads a quarter of the bytes for its shortcut (as PyTorch's quantized
    add does). The addition then sees x rounded to 8 bits: the
    quantization report says what that costs.
  }];
  let options = [
    Option<"residuals", "residuals", "bool", /*default=*/"false",
           "Residual additions read the quantized input of the layers that "
           "share their operand (dequantized) instead of the float value">,
  ];
  let statistics = [
    Statistic<"numQuantized", "ops-quantized", "Number of contractions made int8">,
    Statistic<"numResiduals", "residuals-int8",
              "Residual additions made to read the int8 stream">,
    Statistic<"numWeightsOnly", "weights-only",
              "Number of MatMuls given int8 weights and float32 activations">,
  ];
}

def FoldRequantizePass : Pass<"tfaot-fold-requantize", "mlir::func::FuncOp"> {
  let summary = "one multiply-add and one clamp from an int8 layer's sums to the next layer's int8 input";
  let description = [{
    Runs after `tfaot-quantize-int8`. Where a quantized layer's float
    result feeds only the next layer's quantization, each element goes
    through
    ```
    y = float(acc) * s[c] (+ b[c] ...)       // rescale and bias
    y = clamp(y, lo, hi)                     // Relu, Relu6, Maximum, Minimum by constants
    q = int8(clamp(round(y * m) + zp, -128, 127))   // the next layer's quantize
    ```
    Since m > 0 this is, up to float32 rounding,
    ```
    q = int8(round(clamp(float(acc) * (s[c] m) + (b[c] m + zp), lo', hi')))
    ```
    with [lo', hi'] = [lo m + zp, hi m + zp] clamped to [-128, 127]: one
    multiply, one add, one clamp and a rounding instead of two multiplies,
    two adds and two clamps, with the constants folded at compile time.
    The int8 kernels' in-register epilogue has a shorter path for exactly
    this form (runtime/lib/int8_epilogue.h, kInt8RoundOnly), which is most
    of MobileNetV2's and ResNet-50's int8 layers. A rounding can differ by
    one step of the int8 scale where y * m lies within float32 rounding of
    a half; all builds (fused, unfused, GPU) compute the folded form, so
    they still agree with each other bit for bit.

    An int8 residual added before the clamp (what tfaot-quantize-int8's
    `residuals` option writes: (float(r) - zp_r) * s_r) folds the same way,
    as one more term float(r) * (s_r m), its zero point going into the
    bias: the in-register epilogue then reads the shortcut as bytes.

    Left alone: float results with other users (a float residual's input),
    a bias or clamp that is not per channel or scalar, an add after a
    clamp, and any other op between the two layers.
  }];
  let statistics = [
    Statistic<"numFolded", "requantizations-folded",
              "Number of rescale-to-requantize chains folded">,
  ];
}

def FoldBatchNormPass : Pass<"tfaot-fold-batch-norm", "mlir::ModuleOp"> {
  let summary = "fold batch norm and per-channel affine ops into conv/matmul weights";
  let description = [{
    Inference batch norm is y = x * s + t per channel. When x is the result
    of a Conv2D, DepthwiseConv2dNative or MatMul with constant f32 weights
    (and no other user), the scale goes into the weights of each output
    channel and the shift into a BiasAdd, so the activations are touched
    once. Folded ops: FusedBatchNorm (inference; s = scale * rsqrt(variance
    + epsilon), t = offset - mean * s) and its decomposed forms: Mul by a
    constant, Add/AddV2/Sub/BiasAdd of a constant, where the constant
    varies along the channel dimension only ([C], [1,1,1,C], [C,1,1] in
    NCHW, a scalar). A BiasAdd with a constant bias between the contraction
    and the op is folded through (bias' = bias * s + t). Chains fold one op
    at a time until contraction -> BiasAdd remains.

    ```mlir
    %y = tfaot.Conv2D %x, %w {...} : ...
    %z = tfaot.FusedBatchNorm %y, %scale, %offset, %mean, %var {epsilon = 1.0e-3 : f32} : ...
    ```
    becomes
    ```mlir
    %y = tfaot.Conv2D %x, %w_times_s {...} : ...
    %z = tfaot.BiasAdd %y, %t : ...
    ```
    The weights are rewritten in float32, so results move by float rounding
    (a few ulps), as with TensorFlow's own graph optimizer.
  }];
  let statistics = [
    Statistic<"numBatchNormsFolded", "batch-norms-folded",
              "Number of FusedBatchNorm ops folded into weights">,
    Statistic<"numScalesFolded", "scales-folded",
              "Number of Mul-by-constant ops folded into weights">,
    Statistic<"numShiftsFolded", "shifts-folded",
              "Number of added constants folded into a bias">,
  ];
}

#endif // TFAOT_PASSES_TD
