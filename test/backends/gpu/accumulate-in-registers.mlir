// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-accumulate-in-registers))' -split-input-file | FileCheck %s

// Tests that a reduction loop's load and store of its output element, at
// indices defined outside the loop, become one load before the loop, a
// loop-carried value, and one store after it.
// CHECK-LABEL: func.func @dot
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK: %[[INIT:.*]] = memref.load %[[OUT]][] : memref<f32>
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT: %[[X:.*]] = memref.load %[[A]][%[[K]]]
// CHECK-NEXT: %[[Y:.*]] = memref.load %[[B]][%[[K]]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[SUM]], %[[OUT]][] : memref<f32>
// CHECK-NEXT: return
func.func @dot(%a: memref<64xf32>, %b: memref<64xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c1 {
    %acc = memref.load %out[] : memref<f32>
    %x = memref.load %a[%k] : memref<64xf32>
    %y = memref.load %b[%k] : memref<64xf32>
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    memref.store %s, %out[] : memref<f32>
  }
  return
}

// -----

// Tests that nested reduction loops (a convolution's window) are promoted
// innermost first, so the element is carried through both loops and
// loaded and stored once.
// CHECK-LABEL: func.func @window
// CHECK-SAME: (%[[A:.*]]: memref<3x3xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK: %[[INIT:.*]] = memref.load %[[OUT]][] : memref<f32>
// CHECK-NEXT: %[[ROWS:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT: %[[COLS:.*]] = scf.for %{{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (f32) {
// CHECK-NEXT: %[[X:.*]] = memref.load %[[A]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC2]], %[[X]] : f32
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[COLS]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[ROWS]], %[[OUT]][] : memref<f32>
func.func @window(%a: memref<3x3xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %acc = memref.load %out[] : memref<f32>
      %x = memref.load %a[%i, %j] : memref<3x3xf32>
      %s = arith.addf %acc, %x : f32
      memref.store %s, %out[] : memref<f32>
    }
  }
  return
}

// -----

// Tests that a load/store pair at indices that vary in the loop (an
// elementwise update, not a reduction) is left alone.
// CHECK-LABEL: func.func @varying
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.load %{{.*}}[%[[K]]]
// CHECK-NOT: iter_args
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[K]]]
func.func @varying(%a: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c1 {
    %acc = memref.load %out[%k] : memref<64xf32>
    %x = memref.load %a[%k] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %out[%k] : memref<64xf32>
  }
  return
}

// -----

// Tests that the element is not carried when the loop also accesses its
// memref elsewhere: the carried value would miss that access.
// CHECK-LABEL: func.func @other_access
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.load %{{.*}}[%c0] : memref<2xf32>
// CHECK-NOT: iter_args
// CHECK: memref.store %{{.*}}, %{{.*}}[%c0] : memref<2xf32>
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%c1] : memref<2xf32>
func.func @other_access(%a: memref<64xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c1 {
    %acc = memref.load %out[%c0] : memref<2xf32>
    %x = memref.load %a[%k] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %out[%c0] : memref<2xf32>
    memref.store %x, %out[%c1] : memref<2xf32>
  }
  return
}
