//===- Passes.td - tfaot graph and lowering passes --------*- tablegen -*-===//
//
// Passes that work on the tfaot dialect. Each def has a summary and an
// example; the C++ lives in a file named after the def.
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
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::tensor::TensorDialect",
  ];
  let statistics = [
    Statistic<"numOpsLowered", "ops-lowered", "Number of tfaot ops lowered">,
  ];
}

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

def PlanBuffersPass : Pass<"tfaot-plan-buffers", "mlir::ModuleOp"> {
  let summary = "place the entry function's temporaries in one arena argument";
  let description = [{
    Runs on bufferized code, after `buffer-results-to-out-params` and before
    `buffer-deallocation-pipeline`. In the module's public entry function it
    collects the statically shaped `memref.alloc`s of the function body,
    computes each one's live range over the body's op order (from the alloc
    to the last use of the buffer or of any view of it: subview, reshape,
    expand/collapse_shape, cast, any `ViewLikeOpInterface` op, and any other
    op that returns a memref from it; a use nested in a loop counts at its
    top-level op), and packs them into one arena: largest first, each into
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
    sum of the planned buffers), `tfaot.peak_live_bytes` (the most bytes live
    at once, a lower bound of any plan) and `tfaot.heap_temp_bytes` (static
    bytes of the allocs left alone) as i64 attributes.
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

#endif // TFAOT_PASSES_TD
