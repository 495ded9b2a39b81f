// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-wrap-host-work))' -split-input-file | FileCheck %s

// Tests that memory-touching code outside any parallel loop (a 0-d add)
// moves, with the pure ops between its loads and stores, into a
// one-iteration scf.parallel that one GPU thread runs.
// CHECK-LABEL: func.func @scalar_add
// CHECK-SAME: (%[[X:.*]]: memref<f32>, %[[Y:.*]]: memref<f32>, %[[OUT:.*]]: memref<f32>)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C1]]) step (%[[C1]]) {
// CHECK-NEXT: %[[A:.*]] = memref.load %[[X]][]
// CHECK-NEXT: %[[B:.*]] = memref.load %[[Y]][]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: memref.store %[[S]], %[[OUT]][]
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @scalar_add(%x: memref<f32>, %y: memref<f32>, %out: memref<f32>) {
  %a = memref.load %x[] : memref<f32>
  %b = memref.load %y[] : memref<f32>
  %s = arith.addf %a, %b : f32
  memref.store %s, %out[] : memref<f32>
  return
}

// -----

// Tests that a run of host work ends at a parallel loop, which is left as
// it is, and that the constants before the run stay outside it.
// CHECK-LABEL: func.func @before_loop
// CHECK-SAME: (%[[X:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>, %[[T:.*]]: memref<f32>)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[UB:.*]]) step (%[[UB]]) {
// CHECK-NEXT: memref.store %[[ONE]], %[[T]][]
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%c8) step
// CHECK-NEXT: memref.load %[[X]][%[[I]]]
// CHECK-NEXT: memref.store %{{.*}}, %[[OUT]][%[[I]]]
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @before_loop(%x: memref<8xf32>, %out: memref<8xf32>, %t: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %t[] : memref<f32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
  }
  return
}

// -----

// Tests that a load whose value is used after the run (here returned) is
// left in host code: tfaot-gpu-check-host-code reports it.
// CHECK-LABEL: func.func @escaping_load
// CHECK-NOT: scf.parallel
// CHECK: %[[V:.*]] = memref.load
// CHECK-NEXT: return %[[V]]
func.func @escaping_load(%i: memref<index>) -> index {
  %0 = memref.load %i[] : memref<index>
  return %0 : index
}
