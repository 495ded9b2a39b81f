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

// Tests that a body of two phases separated by a barrier runs the first
// phase for every thread of a block, then the second: each thread stages
// its element in workgroup memory, and after the barrier reads its right
// neighbour's (which a later thread of the same block staged: run thread
// by thread, without phases, it would read what the previous block left).
// The workgroup buffer is allocated once before the block loop and freed
// after it; the thread's index %i, pure, is recomputed after the barrier,
// in the second phase's thread loop.
// CHECK-LABEL: func.func @shift_left
// CHECK-SAME: (%[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>)
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<4xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[BX:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[T1:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[B1:.*]] = arith.muli %[[BX]], %{{.*}}
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[B1]], %[[T1]]
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I1]]]
// CHECK-NEXT: memref.store %[[V]], %[[TILE]][%[[T1]]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[T2]], %{{.*}}
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[N]], %{{.*}}
// CHECK-NEXT: %[[W:.*]] = memref.load %[[TILE]][%[[R]]]
// CHECK-NEXT: %[[B2:.*]] = arith.muli %[[BX]], %{{.*}}
// CHECK-NEXT: %[[I2:.*]] = arith.addi %[[B2]], %[[T2]]
// CHECK-NEXT: memref.store %[[W]], %[[Y]][%[[I2]]]
// CHECK: memref.dealloc %[[TILE]] : memref<4xf32>
// CHECK-NOT: gpu.
func.func @shift_left(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<4xf32, #gpu.address_space<workgroup>>) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %next = arith.addi %tx, %c1 : index
    %j = arith.remui %next, %sx : index
    %w = memref.load %tile[%j] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %w, %y[%i] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// Tests that a loaded value a thread keeps across a barrier is refused: the
// barrier is there because memory may change, so it cannot be reloaded.
func.func @loaded_across_barrier(%x: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{cannot emulate a kernel whose thread keeps a value across a barrier that is not recomputable (memref.load)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<4xf32>
    gpu.barrier
    memref.store %v, %x[%c1] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Tests that a barrier inside a loop of the kernel is refused: its threads
// cannot be run phase by phase.
func.func @barrier_in_loop(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c4 step %c1 {
      // expected-error @+1 {{cannot emulate a barrier inside a region of the kernel}}
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
