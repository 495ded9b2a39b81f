// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-parallel-dims-first))' -split-input-file | FileCheck %s

// Tests that an NHWC mean over H and W, iterating (parallel, reduction,
// reduction, parallel), is interchanged so that both parallel dimensions
// come first (one GPU thread per output element, not per batch element):
// the input map follows the new loop order, the output map reads (n, c).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @mean_hw
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}} : memref<2x7x7x64xf32>) outs(%{{.*}} : memref<2x64xf32>)
// CHECK: arith.addf
#in = affine_map<(n, h, w, c) -> (n, h, w, c)>
#out = affine_map<(n, h, w, c) -> (n, c)>
func.func @mean_hw(%x: memref<2x7x7x64xf32>, %y: memref<2x64xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : memref<2x7x7x64xf32>) outs(%y : memref<2x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that a generic whose parallel dimensions already come first is left
// as it is.
// CHECK: #[[ROWS:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sums
// CHECK: linalg.generic {indexing_maps = [#[[ROWS]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @row_sums(%x: memref<4x8xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
