// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-branch-results-in-place))' -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-gpu-branch-results-in-place),canonicalize)' -split-input-file | FileCheck %s --check-prefix=CANON

// Tests that an scf.if whose branches yield buffers of different layouts
// (bufferization's fully dynamic result) gets one buffer before it: the
// branch that allocated its own writes into it instead (no copy), the
// branch that yields a view copies it there; the users get the shared
// buffer through a cast, which canonicalization folds away, so the result
// has no run-time offset left.
// CHECK-LABEL: func.func @if_picks_a_buffer
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[SHARED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: %[[CAST:.*]] = memref.cast %[[SHARED]] : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT: scf.if %[[C]]
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[SHARED]] : memref<4xf32>)
// CHECK-NOT: memref.copy
// CHECK: scf.yield %[[CAST]]
// CHECK: } else {
// CHECK: %[[VIEW:.*]] = memref.subview %[[X]][4] [4] [1]
// CHECK: memref.copy %[[VIEW]], %[[SHARED]] : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
// CHECK-NEXT: scf.yield %[[CAST]]
// CHECK: memref.copy %[[CAST]], %[[OUT]]
// CANON-LABEL: func.func @if_picks_a_buffer
// CANON: %[[SHARED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CANON-NOT: offset: ?
// CANON: memref.copy %[[SHARED]], %{{.*}} : memref<4xf32> to memref<4xf32>
func.func @if_picks_a_buffer(%c: i1, %x: memref<8xf32>, %out: memref<4xf32>) {
  %r = scf.if %c -> memref<4xf32, strided<[?], offset: ?>> {
    %one = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<4xf32>
    linalg.fill ins(%one : f32) outs(%a : memref<4xf32>)
    %ca = memref.cast %a : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
    scf.yield %ca : memref<4xf32, strided<[?], offset: ?>>
  } else {
    %v = memref.subview %x[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    %cv = memref.cast %v : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[?], offset: ?>>
    scf.yield %cv : memref<4xf32, strided<[?], offset: ?>>
  }
  memref.copy %r, %out : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32>
  return
}

// -----

// Tests the same for each case of an scf.index_switch (a lowered Case),
// and that a result with the identity layout is left alone.
// CHECK-LABEL: func.func @switch_picks_a_buffer
// CHECK-SAME: (%[[I:.*]]: index, %[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4xf32>
// CHECK: %[[SHARED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: %[[CAST:.*]] = memref.cast %[[SHARED]]
// CHECK-NEXT: %{{.*}}:2 = scf.index_switch %[[I]] -> memref<4xf32, strided<[?], offset: ?>>, memref<2xf32>
// CHECK-NEXT: case 0 {
// CHECK-NEXT: %[[KEEP:.*]] = memref.alloc() : memref<2xf32>
// CHECK: memref.copy %[[X]], %[[SHARED]]
// CHECK-NEXT: scf.yield %[[CAST]], %[[KEEP]]
// CHECK: default {
// CHECK-NEXT: %[[KEEP2:.*]] = memref.alloc() : memref<2xf32>
// CHECK: memref.copy %[[Y]], %[[SHARED]]
// CHECK-NEXT: scf.yield %[[CAST]], %[[KEEP2]]
func.func @switch_picks_a_buffer(%i: index, %x: memref<4xf32>, %y: memref<4xf32>, %out: memref<4xf32, strided<[?], offset: ?>>) -> memref<2xf32> {
  %r:2 = scf.index_switch %i -> memref<4xf32, strided<[?], offset: ?>>, memref<2xf32>
  case 0 {
    %k = memref.alloc() : memref<2xf32>
    %cx = memref.cast %x : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
    scf.yield %cx, %k : memref<4xf32, strided<[?], offset: ?>>, memref<2xf32>
  }
  default {
    %k = memref.alloc() : memref<2xf32>
    %cy = memref.cast %y : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
    scf.yield %cy, %k : memref<4xf32, strided<[?], offset: ?>>, memref<2xf32>
  }
  memref.copy %r#0, %out : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
  return %r#1 : memref<2xf32>
}

// -----

// Tests that a select of two buffers of different layouts (an scf.if that
// only picked one, canonicalized) becomes an scf.if copying the one it
// picks into a buffer of its own.
// CHECK-LABEL: func.func @select_of_buffers
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<8xf32>
// CHECK: %[[V:.*]] = memref.subview %[[Y]]
// CHECK: %[[SHARED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: scf.if %[[C]] {
// CHECK: memref.copy %[[X]], %[[SHARED]]
// CHECK-NEXT: } else {
// CHECK-NEXT: memref.copy %[[V]], %[[SHARED]]
// CHECK-NEXT: }
// CHECK-NOT: arith.select
func.func @select_of_buffers(%c: i1, %x: memref<4xf32>, %y: memref<8xf32>, %out: memref<4xf32>) {
  %v = memref.subview %y[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %cx = memref.cast %x : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
  %cv = memref.cast %v : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32, strided<[?], offset: ?>>
  %s = arith.select %c, %cx, %cv : memref<4xf32, strided<[?], offset: ?>>
  memref.copy %s, %out : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32>
  return
}
