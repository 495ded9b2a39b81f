// RUN: tfaot-opt %s --tfaot-plan-buffers -split-input-file | FileCheck %s

// Tests the plan on a hand-computed case. Live ranges, in body op indices:
// a 256 B [1,5], c 128 B [2,10], b 192 B [6,11], d 64 B [7,9]. Largest
// first: a at 0; b at 0 (a is dead by then); c overlaps both, so after a at
// 256; d overlaps b (0..192) and c (256..384) and fits the 64-byte gap
// between them, where a was (best fit, rather than 384 at the end).
// Arena 384 = peak (a + c at [2,5], b + c + d at [7,9]); naive sum 640.
// CHECK: module attributes {tfaot.arena_bytes = 384 : i64, tfaot.naive_temp_bytes = 640 : i64, tfaot.peak_live_bytes = 384 : i64}
// CHECK-LABEL: func.func @plan
// CHECK-SAME: (%[[OUT:.*]]: memref<4xf32>, %[[ARENA:.*]]: memref<384xi8> {llvm.align = 64 : i64, llvm.noalias, tfaot.arena})
// CHECK-NOT: memref.alloc
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<384xi8> to memref<64xf32>
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%[[C256]]][] : memref<384xi8> to memref<32xf32>
// CHECK: %[[B0:.*]] = arith.constant 0 : index
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%[[B0]]][] : memref<384xi8> to memref<48xf32>
// CHECK: %[[C192:.*]] = arith.constant 192 : index
// CHECK: %[[D:.*]] = memref.view %[[ARENA]][%[[C192]]][] : memref<384xi8> to memref<16xf32>
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @plan(%out: memref<4xf32>) {
  %f = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  %c = memref.alloc() : memref<32xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<64xf32>)
  linalg.fill ins(%f : f32) outs(%c : memref<32xf32>)
  linalg.fill ins(%f : f32) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<48xf32>
  %d = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%b : memref<48xf32>)
  linalg.fill ins(%f : f32) outs(%d : memref<16xf32>)
  linalg.fill ins(%f : f32) outs(%c : memref<32xf32>)
  linalg.fill ins(%f : f32) outs(%b : memref<48xf32>)
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<48xf32>
  memref.dealloc %c : memref<32xf32>
  memref.dealloc %d : memref<16xf32>
  return
}

// -----

// Tests that buffers with disjoint lifetimes share offset 0 and that the
// arena is as large as the larger one.
// CHECK: module attributes {tfaot.arena_bytes = 64 : i64, tfaot.naive_temp_bytes = 112 : i64, tfaot.peak_live_bytes = 64 : i64}
// CHECK-LABEL: func.func @disjoint
// CHECK-SAME: %[[ARENA:[a-z0-9]+]]: memref<64xi8> {
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[O1]]][] : memref<64xi8> to memref<16xf32>
// CHECK: %[[O2:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[O2]]][] : memref<64xi8> to memref<12xf32>
func.func @disjoint(%x: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  %f = arith.constant 1.0 : f32
  %b = memref.alloc() : memref<12xf32>
  linalg.fill ins(%f : f32) outs(%b : memref<12xf32>)
  return
}

// -----

// Tests that overlapping buffers get distinct offsets, each a multiple of 64:
// 40 B at 0, 20 B at 64, 3 B at 128, so the arena is 131 bytes although only
// 63 are ever live.
// CHECK: module attributes {tfaot.arena_bytes = 131 : i64, tfaot.naive_temp_bytes = 63 : i64, tfaot.peak_live_bytes = 63 : i64}
// CHECK-LABEL: func.func @aligned
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK: memref.view %{{.*}}[%[[O1]]][] : memref<131xi8> to memref<10xf32>
// CHECK: %[[O3:.*]] = arith.constant 128 : index
// CHECK: memref.view %{{.*}}[%[[O3]]][] : memref<131xi8> to memref<3xi8>
// CHECK: %[[O2:.*]] = arith.constant 64 : index
// CHECK: memref.view %{{.*}}[%[[O2]]][] : memref<131xi8> to memref<5xf32>
func.func @aligned(%out: memref<f32>) {
  %a = memref.alloc() : memref<10xf32>
  %b = memref.alloc() : memref<3xi8>
  %c = memref.alloc() : memref<5xf32>
  %f = arith.constant 1.0 : f32
  %i = arith.constant 1 : i8
  linalg.fill ins(%f : f32) outs(%a : memref<10xf32>)
  linalg.fill ins(%i : i8) outs(%b : memref<3xi8>)
  linalg.fill ins(%f : f32) outs(%c : memref<5xf32>)
  return
}

// -----

// Tests that uses through aliases extend a buffer's life. Six 64-byte
// buffers in three pairs: %a is last used through a collapse_shape, %c
// through a subview of a cast, %e inside a loop (which counts at the loop).
// Each of them overlaps the buffer allocated after its last direct use, so
// the pair takes offsets 0 and 64; the pairs are disjoint and share them.
// CHECK: module attributes {tfaot.arena_bytes = 128 : i64, tfaot.naive_temp_bytes = 384 : i64, tfaot.peak_live_bytes = 128 : i64}
// CHECK-LABEL: func.func @aliases
// CHECK: %[[A:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[A]]][] : memref<128xi8> to memref<4x4xf32>
// CHECK: %[[B:.*]] = arith.constant 64 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[B]]][] : memref<128xi8> to memref<16xf32>
// CHECK: %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[C]]][] : memref<128xi8> to memref<16xf32>
// CHECK: %[[D:.*]] = arith.constant 64 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[D]]][] : memref<128xi8> to memref<16xf32>
// CHECK: %[[E:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[E]]][] : memref<128xi8> to memref<16xf32>
// CHECK: %[[G:.*]] = arith.constant 64 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[G]]][] : memref<128xi8> to memref<16xf32>
func.func @aliases(%out: memref<16xf32>) {
  %f = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  linalg.fill ins(%f : f32) outs(%a : memref<4x4xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%b : memref<16xf32>)
  memref.copy %flat, %out : memref<16xf32> to memref<16xf32>

  %c = memref.alloc() : memref<16xf32>
  %cast = memref.cast %c : memref<16xf32> to memref<?xf32>
  %sub = memref.subview %cast[4] [8] [1] : memref<?xf32> to memref<8xf32, strided<[1], offset: 4>>
  linalg.fill ins(%f : f32) outs(%c : memref<16xf32>)
  %d = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%d : memref<16xf32>)
  linalg.fill ins(%f : f32) outs(%sub : memref<8xf32, strided<[1], offset: 4>>)

  %e = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%e : memref<16xf32>)
  %g = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%g : memref<16xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %e[%i] : memref<16xf32>
    memref.store %v, %out[%i] : memref<16xf32>
  }
  return
}

// -----

// Tests that an alloc with a dynamic shape and one inside a loop are left as
// heap allocations (with their deallocs), while the static one beside them is
// planned.
// CHECK: module attributes {tfaot.arena_bytes = 32 : i64, tfaot.naive_temp_bytes = 32 : i64, tfaot.peak_live_bytes = 32 : i64}
// CHECK-LABEL: func.func @unplanned
// CHECK-SAME: %{{.*}}: memref<32xi8> {
// CHECK: %[[DYN:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.view
// CHECK: scf.for
// CHECK: %[[LOOP:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.dealloc %[[LOOP]]
// CHECK: memref.dealloc %[[DYN]]
func.func @unplanned(%n: index, %out: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %dyn = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%f : f32) outs(%dyn : memref<?xf32>)
  %s = memref.alloc() : memref<8xf32>
  linalg.fill ins(%f : f32) outs(%s : memref<8xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    linalg.fill ins(%f : f32) outs(%t : memref<4xf32>)
    memref.copy %t, %out : memref<4xf32> to memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  memref.dealloc %dyn : memref<?xf32>
  return
}

// -----

// Tests that a function without temporaries gets no arena argument.
// CHECK: module attributes {tfaot.arena_bytes = 0 : i64, tfaot.naive_temp_bytes = 0 : i64, tfaot.peak_live_bytes = 0 : i64}
// CHECK-LABEL: func.func @none
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>) {
func.func @none(%x: memref<4xf32>, %out: memref<4xf32>) {
  memref.copy %x, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Tests that a buffer whose address is handed to a call as an integer lives
// until that call, through the arithmetic in between: %b is allocated after
// %a's address is taken but before the call reads %a, so the two must not
// share bytes (arena 128, not 64).
// CHECK: module attributes {tfaot.arena_bytes = 128 : i64, tfaot.naive_temp_bytes = 128 : i64, tfaot.peak_live_bytes = 128 : i64}
// CHECK-LABEL: func.func @address
// CHECK: %[[OA:.*]] = arith.constant 0 : index
// CHECK: memref.view %{{.*}}[%[[OA]]][] : memref<128xi8> to memref<16xf32>
// CHECK: %[[OB:.*]] = arith.constant 64 : index
// CHECK: memref.view %{{.*}}[%[[OB]]][] : memref<128xi8> to memref<16xf32>
// CHECK: call @kernel
func.func private @kernel(i64, i64)
func.func @address(%x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %base = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  %c4 = arith.constant 4 : index
  %shifted = arith.addi %base, %c4 : index
  %addr_a = arith.index_cast %shifted : index to i64
  %b = memref.alloc() : memref<16xf32>
  %f = arith.constant 1.0 : f32
  linalg.fill ins(%f : f32) outs(%b : memref<16xf32>)
  %base_b = memref.extract_aligned_pointer_as_index %b : memref<16xf32> -> index
  %addr_b = arith.index_cast %base_b : index to i64
  func.call @kernel(%addr_a, %addr_b) : (i64, i64) -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}
