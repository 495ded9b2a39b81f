// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-copies-to-linalg))' | FileCheck %s

// Tests that every memref.copy, contiguous or strided, becomes a linalg.copy
// of the same source and target, which the GPU pipeline turns into a
// parallel loop (a kernel) like any other linalg op.
// CHECK-LABEL: func.func @contiguous
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>)
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NEXT: return
func.func @contiguous(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}

// CHECK-LABEL: func.func @into_strided_view
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<4x5xf32>)
// CHECK-NEXT: %[[SUB:.*]] = memref.subview %[[B]][1, 1] [2, 3] [1, 1]
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<2x3xf32>) outs(%[[SUB]] : memref<2x3xf32, strided<[5, 1], offset: 6>>)
// CHECK-NEXT: return
// CHECK-NOT: memref.copy
func.func @into_strided_view(%a: memref<2x3xf32>, %b: memref<4x5xf32>) {
  %sub = memref.subview %b[1, 1] [2, 3] [1, 1] : memref<4x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  memref.copy %a, %sub : memref<2x3xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  return
}
