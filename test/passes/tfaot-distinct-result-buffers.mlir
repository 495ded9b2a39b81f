// RUN: tfaot-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(tfaot-distinct-result-buffers))' -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(tfaot-distinct-result-buffers),buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' -split-input-file | FileCheck %s --check-prefix=OUT

// Tests tfaot-distinct-result-buffers: a buffer returned a second time (one
// tensor fetched twice) is copied into a buffer of its own, which
// buffer-results-to-out-params then turns into the second out-parameter
// (without the copy that pass crashed on the alloc returned twice).

// CHECK-LABEL: func.func @twice
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xi64>
// CHECK: "test.fill"(%[[A]])
// CHECK: %[[B:.*]] = memref.alloc() : memref<2xi64>
// CHECK: memref.copy %[[A]], %[[B]]
// CHECK: return %[[A]], %[[B]], %[[A]]
// OUT-LABEL: func.func @twice
// OUT-SAME: (%[[R0:.*]]: memref<2xi64>, %[[R1:.*]]: memref<2xi64>, %[[R2:.*]]: memref<2xi64>)
// OUT: "test.fill"(%[[R0]])
// OUT: memref.copy %[[R0]], %[[R1]]
// OUT: memref.copy %[[R0]], %[[R2]]
// OUT: return
func.func @twice() -> (memref<2xi64>, memref<2xi64>, memref<2xi64>) {
  %a = memref.alloc() : memref<2xi64>
  "test.fill"(%a) : (memref<2xi64>) -> ()
  return %a, %a, %a : memref<2xi64>, memref<2xi64>, memref<2xi64>
}

// -----

// Results that differ, and a fed argument returned once, are left alone;
// an argument returned twice is copied like an alloc; a dynamic size is
// read from the buffer.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[X:.*]]: memref<3xf32>, %[[D:.*]]: memref<?xf32>)
// CHECK: %[[C:.*]] = memref.alloc() : memref<3xf32>
// CHECK: memref.copy %[[X]], %[[C]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = memref.dim %[[D]], %[[ZERO]]
// CHECK: %[[E:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: memref.copy %[[D]], %[[E]]
// CHECK: return %[[X]], %[[C]], %[[D]], %[[E]]
func.func @mixed(%x: memref<3xf32>, %d: memref<?xf32>)
    -> (memref<3xf32>, memref<3xf32>, memref<?xf32>, memref<?xf32>) {
  return %x, %x, %d, %d : memref<3xf32>, memref<3xf32>, memref<?xf32>, memref<?xf32>
}

// -----

// CHECK-LABEL: func.func @distinct
// CHECK-NOT: memref.copy
// CHECK: return
func.func @distinct(%x: memref<3xf32>) -> (memref<3xf32>, memref<3xf32>) {
  %a = memref.alloc() : memref<3xf32>
  "test.fill"(%a) : (memref<3xf32>) -> ()
  return %x, %a : memref<3xf32>, memref<3xf32>
}
