// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-emulate-launches))' -split-input-file -verify-diagnostics | FileCheck %s

// Tests that a gpu.launch becomes six sequential loops, blocks outermost
// and then threads, z to x (x fastest), whose induction variables stand for
// the block and thread ids in the body, and that the body's grid and block
// sizes are the launch's operands.
// CHECK-LABEL: func.func @fill_rows
// CHECK-SAME: (%[[X:.*]]: memref<24xf32>, %[[V:.*]]: f32)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[STEP:.*]] = arith.constant 1 : index
// CHECK: scf.for %{{.*}} = %[[ZERO]] to %[[C1]] step %[[STEP]] {
// CHECK-NEXT: scf.for %{{.*}} = %[[ZERO]] to %[[C1]] step %[[STEP]] {
// CHECK-NEXT: scf.for %[[BX:.*]] = %[[ZERO]] to %[[C6]] step %[[STEP]] {
// CHECK-NEXT: scf.for %{{.*}} = %[[ZERO]] to %[[C1]] step %[[STEP]] {
// CHECK-NEXT: scf.for %{{.*}} = %[[ZERO]] to %[[C1]] step %[[STEP]] {
// CHECK-NEXT: scf.for %[[TX:.*]] = %[[ZERO]] to %[[C4]] step %[[STEP]] {
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[BX]], %[[C4]] : index
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK-NEXT: memref.store %[[V]], %[[X]][%[[I]]] : memref<24xf32>
// CHECK-NOT: gpu.launch
func.func @fill_rows(%x: memref<24xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c6, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    memref.store %v, %x[%i] : memref<24xf32>
    gpu.terminator
  }
  return
}

// -----

// Tests that a kernel with a barrier is an error: its threads cannot run
// one after another.
func.func @barrier(%x: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{cannot emulate a kernel with barriers}}
    gpu.barrier
    gpu.terminator
  }
  return
}
