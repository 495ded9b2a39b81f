// RUN: tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-expand-strided-copies))' -split-input-file | FileCheck %s

// Tests that a copy into a strided subview becomes linalg.copy.
// CHECK-LABEL: func.func @strided
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<2x3xf32>) outs(%{{.*}} : memref<2x3xf32, strided<[5, 1], offset: 1>>)
func.func @strided(%a: memref<2x3xf32>, %b: memref<2x5xf32>) {
  %sub = memref.subview %b[0, 1] [2, 3] [1, 1] : memref<2x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 1>>
  memref.copy %a, %sub : memref<2x3xf32> to memref<2x3xf32, strided<[5, 1], offset: 1>>
  return
}

// -----

// Tests that a contiguous copy stays a memref.copy (it becomes memcpy).
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
func.func @contiguous(%a: memref<2x3xf32>, %b: memref<2x3xf32>) {
  memref.copy %a, %b : memref<2x3xf32> to memref<2x3xf32>
  return
}
