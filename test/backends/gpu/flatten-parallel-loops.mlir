// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-flatten-parallel-loops))' | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-flatten-parallel-loops,canonicalize))' | FileCheck %s --check-prefix=FOLDED

// Tests that a 2-D scf.parallel over 3x100 elements becomes a 1-D nest of
// blocks x 256 threads over the linearized iteration space: the trip counts
// are multiplied, blocks = ceildiv(total, 256), each thread's linear index
// is block * 256 + thread, a guard skips the tail, and the indices are
// delinearized row-major (the last dimension fastest).
// CHECK-LABEL: func.func @copy2d
// CHECK-SAME: (%[[X:.*]]: memref<3x100xf32>, %[[OUT:.*]]: memref<3x100xf32>)
// CHECK: %[[ROWS:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK: %[[PARTIAL:.*]] = arith.muli %{{.*}}, %[[ROWS]] : index
// CHECK: %[[COLS:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[PARTIAL]], %[[COLS]] : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %[[TOTAL]], %[[C256]] : index
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[BLOCKS]]) step
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C256]]) step
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[B]], %[[C256]] : index
// CHECK-NEXT: %[[LINEAR:.*]] = arith.addi %[[BASE]], %[[T]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[LINEAR]], %[[TOTAL]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[COL:.*]] = arith.remui %[[LINEAR]], %[[COLS]] : index
// CHECK-NEXT: %[[ROW:.*]] = arith.divui %[[LINEAR]], %[[COLS]] : index
// CHECK: %[[J:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT: memref.store %[[V]], %[[OUT]][%[[I]], %[[J]]]

// With the constants folded: 300 elements, 2 blocks of 256 threads.
// FOLDED-LABEL: func.func @copy2d
// FOLDED-DAG: %[[C256:.*]] = arith.constant 256 : index
// FOLDED-DAG: %[[C100:.*]] = arith.constant 100 : index
// FOLDED-DAG: %[[C300:.*]] = arith.constant 300 : index
// FOLDED-DAG: %[[C2:.*]] = arith.constant 2 : index
// FOLDED: scf.parallel (%[[B:.*]], %[[T:.*]]) = (%{{.*}}, %{{.*}}) to (%[[C2]], %[[C256]])
// FOLDED: %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %[[C300]] : index
// FOLDED-NEXT: scf.if %[[IN]]
// FOLDED-NEXT: arith.remui %{{.*}}, %[[C100]] : index
// FOLDED-NEXT: arith.divui %{{.*}}, %[[C100]] : index
func.func @copy2d(%x: memref<3x100xf32>, %out: memref<3x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c100) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<3x100xf32>
    memref.store %v, %out[%i, %j] : memref<3x100xf32>
  }
  return
}
