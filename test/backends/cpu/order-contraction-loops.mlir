// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-order-contraction-loops))' -split-input-file | FileCheck %s

// Tests that a convolution's output-channel loop (f, contiguous in the
// output and the HWCF filter) becomes the innermost, after the reductions:
// loops (n, oh, ow, kh, kw, c, f).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d3, d2 + d4, d5)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d6)>
// CHECK-LABEL: func.func @conv
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @conv(%in: memref<1x6x6x3xf32>, %w: memref<3x3x3x8xf32>, %out: memref<1x4x4x8xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %w : memref<1x6x6x3xf32>, memref<3x3x3x8xf32>) outs(%out : memref<1x4x4x8xf32>)
  return
}

// -----

// Tests a depthwise convolution with channel multiplier 1: the trailing
// size-1 dimension is skipped, so the channel loop goes innermost.
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d6, d3)>
// CHECK-LABEL: func.func @depthwise_m1
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]
func.func @depthwise_m1(%in: memref<1x6x6x8xf32>, %w: memref<3x3x8x1xf32>, %out: memref<1x4x4x8x1xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %w : memref<1x6x6x8xf32>, memref<3x3x8x1xf32>) outs(%out : memref<1x4x4x8x1xf32>)
  return
}

// -----

// Tests a matmul: (m, k, n), n innermost (B's rows and C's are contiguous).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// Tests that a matrix-vector product keeps K innermost: its only parallel
// loop with a contiguous output (M) walks A down a column.
// CHECK-LABEL: func.func @matvec
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
func.func @matvec(%a: memref<4x8xf32>, %b: memref<8x1xf32>, %c: memref<4x1xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x1xf32>) outs(%c : memref<4x1xf32>)
  return
}
