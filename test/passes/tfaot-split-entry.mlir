// RUN: tfaot-opt %s -pass-pipeline='builtin.module(tfaot-split-entry{max-ops=4})' | FileCheck %s
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(tfaot-split-entry{max-ops=18})' | FileCheck %s --check-prefix=WHOLE
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(tfaot-split-entry{max-ops=0})' | FileCheck %s --check-prefix=WHOLE
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(tfaot-instrument-profile,tfaot-split-entry{max-ops=4})' | FileCheck %s --check-prefix=PROFILE
// RUN: not tfaot-opt %s -pass-pipeline='builtin.module(tfaot-split-entry{max-ops=-1})' 2>&1 | FileCheck %s --check-prefix=BAD

// Tests the cut of a bufferized entry function into pieces of at most
// max-ops operations (nested ones counted), by hand from the sizes below:
//   op                                   size  piece so far
//   constant, get_global, view, address  0     (recomputed where used)
//   generic (x * 2 -> t0)                 3     3
//   call @tfaot_rt_check_indices          1     4
//   load idx[0]                           1     5 > 4: cut -> piece 1
//   index_cast                            1     2
//   scf.for (copy n of t0 to out)         4     6 > 4: cut -> piece 2
//   alloc tmp                             1     5 > 4: cut -> piece 3
//   generic (t0 + t0 -> tmp)              3     no cut while tmp lives:
//   generic (tmp * 2 -> out)              3     a heap buffer never crosses
//   dealloc tmp                           1     a call (its pointer alone
//                                               would reach the dealloc)
// 18 in all: with max-ops=18 (or 0) the function stays whole.
//
// Each piece is private, internal and noinline, takes the entry's
// arguments it uses (the arena with its noalias and alignment), recomputes
// constants, the global and the arena view itself, and passes a scalar
// between pieces: n, read from idx in piece 1, bounds the loop of piece 2,
// which moves whole. The entry calls the pieces in order.

// CHECK-LABEL: func.func @model(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<4xf32>, %[[IDX:[a-z0-9]+]]: memref<2xi32>, %[[OUT:[a-z0-9]+]]: memref<4xf32>, %[[ARENA:[a-z0-9]+]]: memref<64xi8> {llvm.align = 64 : i64, llvm.noalias})
// CHECK-NEXT: call @model_piece0(%[[X]], %[[ARENA]], %[[IDX]]) {no_inline} : (memref<4xf32>, memref<64xi8>, memref<2xi32>) -> ()
// CHECK-NEXT: %[[N:.*]] = call @model_piece1(%[[IDX]]) {no_inline} : (memref<2xi32>) -> index
// CHECK-NEXT: call @model_piece2(%[[ARENA]], %[[OUT]], %[[N]]) {no_inline} : (memref<64xi8>, memref<4xf32>, index) -> ()
// CHECK-NEXT: call @model_piece3(%[[ARENA]], %[[OUT]]) {no_inline} : (memref<64xi8>, memref<4xf32>) -> ()
// CHECK-NEXT: return
// CHECK-NEXT: }

// CHECK-LABEL: func.func private @model_piece0(
// CHECK-SAME: %[[X0:[a-z0-9]+]]: memref<4xf32>, %[[A0:[a-z0-9]+]]: memref<64xi8> {llvm.align = 64 : i64, llvm.noalias}, %[[I0:[a-z0-9]+]]: memref<2xi32>)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK-SAME: no_inline
// CHECK-DAG: %[[G0:.*]] = memref.get_global @__constant_4xf32
// CHECK-DAG: %[[T0:.*]] = memref.view %[[A0]]
// CHECK-DAG: %[[P0:.*]] = memref.extract_aligned_pointer_as_index %[[I0]]
// CHECK: linalg.generic {{.*}} ins(%[[X0]], %[[G0]] : {{.*}}) outs(%[[T0]] : memref<4xf32>)
// CHECK: call @tfaot_rt_check_indices(%[[P0]])
// CHECK-NEXT: return
// CHECK-NEXT: }

// CHECK-LABEL: func.func private @model_piece1(
// CHECK-SAME: %[[I1:[a-z0-9]+]]: memref<2xi32>) -> index
// CHECK: %[[L1:.*]] = memref.load %[[I1]]
// CHECK-NEXT: %[[N1:.*]] = arith.index_cast %[[L1]] : i32 to index
// CHECK-NEXT: return %[[N1]] : index
// CHECK-NEXT: }

// CHECK-LABEL: func.func private @model_piece2(
// CHECK-SAME: %[[A2:[a-z0-9]+]]: memref<64xi8> {llvm.align = 64 : i64, llvm.noalias}, %[[O2:[a-z0-9]+]]: memref<4xf32>, %[[N2:[a-z0-9]+]]: index)
// CHECK: %[[T2:.*]] = memref.view %[[A2]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N2]] step
// CHECK-NEXT: %[[V:.*]] = memref.load %[[T2]][%[[K]]]
// CHECK-NEXT: memref.store %[[V]], %[[O2]][%[[K]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }

// CHECK-LABEL: func.func private @model_piece3(
// CHECK-SAME: %[[A3:[a-z0-9]+]]: memref<64xi8> {llvm.align = 64 : i64, llvm.noalias}, %[[O3:[a-z0-9]+]]: memref<4xf32>)
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[TMP]] : memref<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[TMP]], %{{.*}} : {{.*}}) outs(%[[O3]] : memref<4xf32>)
// CHECK: memref.dealloc %[[TMP]]
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NOT: func.func

// WHOLE-LABEL: func.func @model(
// WHOLE-NOT: call @model_piece
// WHOLE: memref.dealloc
// WHOLE-NEXT: return
// WHOLE-NOT: _piece

// The profile's timing calls go into the pieces with the ops they time,
// each piece with its copy of the ids it uses, and no cut separates an op
// from its calls: the first piece (begin, generic, end: 5 ops) runs past
// max-ops rather than cut before the end.
// PROFILE-LABEL: func.func @model(
// PROFILE-NOT: tfaot_rt_profile
// PROFILE: return
// PROFILE-LABEL: func.func private @model_piece0(
// PROFILE: %[[ID0:.*]] = arith.constant 0 : i64
// PROFILE: call @tfaot_rt_profile_begin(%[[ID0]])
// PROFILE-NEXT: linalg.generic
// PROFILE: call @tfaot_rt_profile_end(%[[ID0]])
// PROFILE-NEXT: return
// PROFILE-LABEL: func.func private @model_piece1(
// PROFILE: %[[ID1:.*]] = arith.constant 1 : i64
// PROFILE: call @tfaot_rt_profile_begin(%[[ID1]])
// PROFILE-NEXT: call @tfaot_rt_check_indices
// PROFILE-NEXT: call @tfaot_rt_profile_end(%[[ID1]])
// PROFILE-NEXT: memref.load
// PROFILE-NEXT: return

// BAD: tfaot-split-entry: max-ops must be at least 0, not -1

module {
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.000000e+00> {alignment = 64 : i64}
  func.func private @tfaot_rt_check_indices(index)
  func.func @model(%x: memref<4xf32>, %idx: memref<2xi32>, %out: memref<4xf32>,
                   %arena: memref<64xi8> {llvm.align = 64 : i64, llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %two = memref.get_global @__constant_4xf32 : memref<4xf32>
    %t0 = memref.view %arena[%c0][] : memref<64xi8> to memref<4xf32>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                    iterator_types = ["parallel"]}
        ins(%x, %two : memref<4xf32>, memref<4xf32>) outs(%t0 : memref<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    }
    %address = memref.extract_aligned_pointer_as_index %idx : memref<2xi32> -> index
    func.call @tfaot_rt_check_indices(%address) : (index) -> ()
    %i = memref.load %idx[%c0] : memref<2xi32>
    %n = arith.index_cast %i : i32 to index
    scf.for %k = %c0 to %n step %c1 {
      %v = memref.load %t0[%k] : memref<4xf32>
      memref.store %v, %out[%k] : memref<4xf32>
    }
    %tmp = memref.alloc() : memref<4xf32>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                    iterator_types = ["parallel"]}
        ins(%t0, %t0 : memref<4xf32>, memref<4xf32>) outs(%tmp : memref<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                    iterator_types = ["parallel"]}
        ins(%tmp, %two : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    }
    memref.dealloc %tmp : memref<4xf32>
    return
  }
}
