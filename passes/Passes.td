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

#endif // TFAOT_PASSES_TD
