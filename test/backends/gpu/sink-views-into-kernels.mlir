// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-sink-views-into-kernels))' -split-input-file | FileCheck %s

// Tests that a list write at a row read from memory (a subview at a run-time
// offset, copied into by a parallel loop) moves into the loop: the load of
// the row, its clamp and the view are cloned into the loop's body, and the
// host's copies, now unused, are erased, so the loop takes only the list
// and the row's buffer, both with static layouts.
// CHECK-LABEL: func.func @list_write
// CHECK-SAME: (%[[LIST:.*]]: memref<4x3xf32>, %[[ITEM:.*]]: memref<3xf32>, %[[ROW:.*]]: memref<i32>)
// CHECK-NOT: memref.load
// CHECK-NOT: memref.subview
// CHECK: scf.parallel (%[[J:.*]]) =
// CHECK-NEXT: %[[R:.*]] = memref.load %[[ROW]][] : memref<i32>
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[R]] : i32 to index
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[LIST]][%[[I]], 0] [1, 3] [1, 1]
// CHECK-NEXT: %[[X:.*]] = memref.load %[[ITEM]][%[[J]]]
// CHECK-NEXT: memref.store %[[X]], %[[V]][%[[J]]]
func.func @list_write(%list: memref<4x3xf32>, %item: memref<3xf32>, %row: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = memref.load %row[] : memref<i32>
  %i = arith.index_cast %r : i32 to index
  %v = memref.subview %list[%i, 0] [1, 3] [1, 1] : memref<4x3xf32> to memref<3xf32, strided<[1], offset: ?>>
  scf.parallel (%j) = (%c0) to (%c3) step (%c1) {
    %x = memref.load %item[%j] : memref<3xf32>
    memref.store %x, %v[%j] : memref<3xf32, strided<[1], offset: ?>>
    scf.reduce
  }
  return
}

// -----

// Tests that the load stays where it is when a loop between it and the
// loop that uses the view writes the buffer it reads (the kernel would
// read the new row, not the one the host code read).
// CHECK-LABEL: func.func @row_rewritten
// CHECK: %[[R:.*]] = memref.load
// CHECK: %[[V:.*]] = memref.subview
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<i32>
// CHECK: scf.parallel
// CHECK-NOT: memref.subview
// CHECK: memref.store %{{.*}}, %[[V]]
func.func @row_rewritten(%list: memref<4x3xf32>, %item: memref<3xf32>, %row: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %r = memref.load %row[] : memref<i32>
  %i = arith.index_cast %r : i32 to index
  %v = memref.subview %list[%i, 0] [1, 3] [1, 1] : memref<4x3xf32> to memref<3xf32, strided<[1], offset: ?>>
  scf.parallel (%k) = (%c0) to (%c1) step (%c1) {
    memref.store %one, %row[] : memref<i32>
    scf.reduce
  }
  scf.parallel (%j) = (%c0) to (%c3) step (%c1) {
    %x = memref.load %item[%j] : memref<3xf32>
    memref.store %x, %v[%j] : memref<3xf32, strided<[1], offset: ?>>
    scf.reduce
  }
  return
}
