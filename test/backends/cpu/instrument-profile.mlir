// RUN: tfaot-opt %s --tfaot-instrument-profile | FileCheck %s

// Tests that each op doing work at the top of the entry function gets a
// begin and an end call with its own id, that views and allocations get
// none, and that the names say what each op runs and for which node: the
// loop by the linalg ops inside it, with the contraction's node.
// Beside the names, each op's work (tfaot bench --profile prints rates from
// it): the loop runs 4 tiles of a 2x32x16 matmul, 4 x 2 x 1024 = 8192 flop,
// and uses %a, %b and %tmp once each (1024 + 2048 + 512 bytes); the copy
// reads 512 bytes and writes 512; the call passes %out (512). The fill and
// the ReLU in the loop add no flop.
// CHECK: module attributes {tfaot.profile_bytes = array<i64: 3584, 1024, 512>, tfaot.profile_flop = array<i64: 8192, 0, 0>, tfaot.profile_names = ["fill + matmul + generic 'dense/MatMul'", "copy 'output'", "report"]}
// CHECK-DAG: func.func private @tfaot_rt_profile_begin(i64)
// CHECK-DAG: func.func private @tfaot_rt_profile_end(i64)
// CHECK-LABEL: func.func @entry(
// CHECK-DAG: %[[ID0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ID1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[ID2:.*]] = arith.constant 2 : i64
// CHECK: memref.alloc
// CHECK-NEXT: call @tfaot_rt_profile_begin(%[[ID0]])
// CHECK-NEXT: scf.for
// CHECK: } {tfaot.parallel}
// CHECK-NEXT: call @tfaot_rt_profile_end(%[[ID0]])
// CHECK-NEXT: memref.subview
// CHECK-NEXT: call @tfaot_rt_profile_begin(%[[ID1]])
// CHECK-NEXT: memref.copy
// CHECK-NEXT: call @tfaot_rt_profile_end(%[[ID1]])
// CHECK-NEXT: call @tfaot_rt_profile_begin(%[[ID2]])
// CHECK-NEXT: call @report
// CHECK-NEXT: call @tfaot_rt_profile_end(%[[ID2]])
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
// The function it calls is not instrumented (it has no body here; private
// functions with one, such as outlined loops, are not either).
// CHECK-NOT: tfaot_rt_profile_begin
func.func private @report(memref<8x16xf32>)
func.func @entry(%a: memref<8x32xf32>, %b: memref<32x16xf32>, %out: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c2 {
    %ai = memref.subview %a[%i, 0] [2, 32] [1, 1] : memref<8x32xf32> to memref<2x32xf32, strided<[32, 1], offset: ?>>
    %ti = memref.subview %tmp[%i, 0] [2, 16] [1, 1] : memref<8x16xf32> to memref<2x16xf32, strided<[16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%ti : memref<2x16xf32, strided<[16, 1], offset: ?>>) loc("dense/MatMul")
    linalg.matmul ins(%ai, %b : memref<2x32xf32, strided<[32, 1], offset: ?>>, memref<32x16xf32>) outs(%ti : memref<2x16xf32, strided<[16, 1], offset: ?>>) loc("dense/MatMul")
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ti : memref<2x16xf32, strided<[16, 1], offset: ?>>) {
    ^bb0(%x: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    } loc("dense/Relu")
  } {tfaot.parallel}
  %view = memref.subview %tmp[0, 0] [8, 16] [1, 1] : memref<8x16xf32> to memref<8x16xf32, strided<[16, 1]>>
  memref.copy %view, %out : memref<8x16xf32, strided<[16, 1]>> to memref<8x16xf32> loc("output")
  func.call @report(%out) : (memref<8x16xf32>) -> ()
  memref.dealloc %tmp : memref<8x16xf32>
  return
}
