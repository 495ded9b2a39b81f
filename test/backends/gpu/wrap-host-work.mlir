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

// Tests that a scalar the run computes for code after it (here returned)
// goes through a one-element buffer: the thread stores it, the host code
// loads it after the loop (tfaot-gpu-sink-views-into-kernels moves such a
// load into the kernels that use it; left in host code, as here,
// tfaot-gpu-check-host-code reports it).
// CHECK-LABEL: func.func @escaping_load
// CHECK-SAME: (%[[I:.*]]: memref<index>)
// CHECK: %[[SLOT:.*]] = memref.alloc() : memref<index>
// CHECK: scf.parallel
// CHECK-NEXT: %[[V:.*]] = memref.load %[[I]][]
// CHECK-NEXT: memref.store %[[V]], %[[SLOT]][]
// CHECK-NEXT: scf.reduce
// CHECK: %[[R:.*]] = memref.load %[[SLOT]][]
// CHECK-NEXT: memref.dealloc %[[SLOT]]
// CHECK-NEXT: return %[[R]]
func.func @escaping_load(%i: memref<index>) -> index {
  %0 = memref.load %i[] : memref<index>
  return %0 : index
}

// -----

// Tests that a loop holding no host work (no kernel, call or allocation:
// TopKV2's walk over its histogram) is sequential work that one thread
// runs, the position and sum it ends at stored for the code after it,
// while a loop around a parallel loop stays host control flow.
// CHECK-LABEL: func.func @histogram_walk
// CHECK-SAME: (%[[H:.*]]: memref<256xi32>, %[[OUT:.*]]: memref<8xf32>, %[[N:.*]]: index)
// CHECK: %[[POS:.*]] = memref.alloc() : memref<index>
// CHECK: %[[SUM:.*]] = memref.alloc() : memref<i32>
// CHECK: scf.parallel
// CHECK-NEXT: %[[W:.*]]:2 = scf.while
// CHECK: memref.store %[[W]]#0, %[[POS]][]
// CHECK-NEXT: memref.store %[[W]]#1, %[[SUM]][]
// CHECK-NEXT: scf.reduce
// CHECK: memref.load %[[POS]][]
// CHECK: memref.load %[[SUM]][]
// CHECK: scf.while
// CHECK: scf.parallel
func.func @histogram_walk(%h: memref<256xi32>, %out: memref<8xf32>, %n: index) -> (index, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c255 = arith.constant 255 : index
  %c0_i32 = arith.constant 0 : i32
  %c700 = arith.constant 700 : i32
  %w:2 = scf.while (%b = %c255, %s = %c0_i32) : (index, i32) -> (index, i32) {
    %x = memref.load %h[%b] : memref<256xi32>
    %t = arith.addi %s, %x : i32
    %more = arith.cmpi slt, %t, %c700 : i32
    scf.condition(%more) %b, %s : index, i32
  } do {
  ^bb0(%b: index, %s: i32):
    %x = memref.load %h[%b] : memref<256xi32>
    %b1 = arith.subi %b, %c1 : index
    %s1 = arith.addi %s, %x : i32
    scf.yield %b1, %s1 : index, i32
  }
  %z = scf.while (%k = %c0) : (index) -> index {
    %go = arith.cmpi slt, %k, %n : index
    scf.condition(%go) %k : index
  } do {
  ^bb0(%k: index):
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %f = arith.constant 1.0 : f32
      memref.store %f, %out[%i] : memref<8xf32>
      scf.reduce
    }
    %k1 = arith.addi %k, %c1 : index
    scf.yield %k1 : index
  }
  return %w#0, %w#1 : index, i32
}
