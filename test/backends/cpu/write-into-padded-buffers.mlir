// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-write-into-padded-buffers))' -split-input-file | FileCheck %s

// Tests that an elementwise op whose result is only copied into the
// interior of a padded buffer (bufferized tensor.pad: alloc, fill with the
// pad value, subview, copy) writes the interior itself: the padded buffer,
// its fill and the subview move before it, and the copy goes.
// CHECK-LABEL: func.func @quantize_into_padded
// CHECK: %[[PADDED:.*]] = memref.alloc() : memref<1x4x4x8xi8>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : i8) outs(%[[PADDED]]
// CHECK-NEXT: %[[INTERIOR:.*]] = memref.subview %[[PADDED]][0, 1, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1]
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[INTERIOR]] : memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>)
// CHECK-NOT: memref.copy
// CHECK: return %[[PADDED]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @quantize_into_padded(%x: memref<1x2x2x8xf32>) -> memref<1x4x4x8xi8> {
  %q = memref.alloc() : memref<1x2x2x8xi8>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x2x2x8xf32>) outs(%q : memref<1x2x2x8xi8>) {
  ^bb0(%in: f32, %out: i8):
    %i = arith.fptosi %in : f32 to i8
    linalg.yield %i : i8
  }
  %zp = arith.constant -3 : i8
  %padded = memref.alloc() : memref<1x4x4x8xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<1x4x4x8xi8>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1] : memref<1x4x4x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  memref.copy %q, %interior : memref<1x2x2x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  return %padded : memref<1x4x4x8xi8>
}

// -----

// Tests that nothing changes when the value is also read after the copy
// (it must keep its own buffer), or when the op reads its own output.
// CHECK-LABEL: func.func @also_read_later
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : memref<1x2x2x8xi8>)
// CHECK: memref.copy
// CHECK-LABEL: func.func @reads_its_output
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : memref<1x2x2x8xi8>)
// CHECK: memref.copy
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @also_read_later(%x: memref<1x2x2x8xi8>, %y: memref<1x2x2x8xi8>) -> memref<1x4x4x8xi8> {
  %q = memref.alloc() : memref<1x2x2x8xi8>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x2x2x8xi8>) outs(%q : memref<1x2x2x8xi8>) {
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  }
  %zp = arith.constant 0 : i8
  %padded = memref.alloc() : memref<1x4x4x8xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<1x4x4x8xi8>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1] : memref<1x4x4x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  memref.copy %q, %interior : memref<1x2x2x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  memref.copy %q, %y : memref<1x2x2x8xi8> to memref<1x2x2x8xi8>
  return %padded : memref<1x4x4x8xi8>
}
func.func @reads_its_output(%x: memref<1x2x2x8xi8>) -> memref<1x4x4x8xi8> {
  %q = memref.alloc() : memref<1x2x2x8xi8>
  memref.copy %x, %q : memref<1x2x2x8xi8> to memref<1x2x2x8xi8>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x2x2x8xi8>) outs(%q : memref<1x2x2x8xi8>) {
  ^bb0(%in: i8, %out: i8):
    %s = arith.addi %in, %out : i8
    linalg.yield %s : i8
  }
  %zp = arith.constant 0 : i8
  %padded = memref.alloc() : memref<1x4x4x8xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<1x4x4x8xi8>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1] : memref<1x4x4x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  memref.copy %q, %interior : memref<1x2x2x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  return %padded : memref<1x4x4x8xi8>
}

// -----

// Tests that the copy taken is the first use after the op whatever the
// order of the buffer's uses in memory: the buffer is shared with a later
// layer (overwritten by its op, then copied into that layer's padded
// buffer). Both producers write their padded interiors.
// CHECK-LABEL: func.func @shared_buffer
// CHECK: %[[P1:.*]] = memref.alloc() : memref<1x4x4x8xi8>
// CHECK: %[[I1:.*]] = memref.subview %[[P1]]
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[I1]]
// CHECK: %[[P2:.*]] = memref.alloc() : memref<1x4x4x8xi8>
// CHECK: %[[I2:.*]] = memref.subview %[[P2]]
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[I2]]
// CHECK-NOT: memref.copy
// CHECK: return
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @shared_buffer(%x: memref<1x2x2x8xi8>, %y: memref<1x2x2x8xi8>) -> (memref<1x4x4x8xi8>, memref<1x4x4x8xi8>) {
  %q = memref.alloc() : memref<1x2x2x8xi8>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x2x2x8xi8>) outs(%q : memref<1x2x2x8xi8>) {
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  }
  %zp = arith.constant 0 : i8
  %p1 = memref.alloc() : memref<1x4x4x8xi8>
  linalg.fill ins(%zp : i8) outs(%p1 : memref<1x4x4x8xi8>)
  %i1 = memref.subview %p1[0, 1, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1] : memref<1x4x4x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  memref.copy %q, %i1 : memref<1x2x2x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x2x2x8xi8>) outs(%q : memref<1x2x2x8xi8>) {
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  }
  %p2 = memref.alloc() : memref<1x4x4x8xi8>
  linalg.fill ins(%zp : i8) outs(%p2 : memref<1x4x4x8xi8>)
  %i2 = memref.subview %p2[0, 1, 1, 0] [1, 2, 2, 8] [1, 1, 1, 1] : memref<1x4x4x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  memref.copy %q, %i2 : memref<1x2x2x8xi8> to memref<1x2x2x8xi8, strided<[128, 32, 8, 1], offset: 40>>
  return %p1, %p2 : memref<1x4x4x8xi8>, memref<1x4x4x8xi8>
}
