// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-write-into-padded-buffers))' -split-input-file | FileCheck %s

// Tests that an elementwise op whose result is only copied into the
// interior of a padded buffer (bufferized tensor.pad: alloc, fill with the
// pad value, subview, copy) writes the interior itself: the padded buffer,
// its fill and the subview move before it, and the copy goes. The fill
// then covers only the border: the rows above and below the interior, the
// columns left and right of it.
// CHECK-LABEL: func.func @quantize_into_padded
// CHECK: %[[PADDED:.*]] = memref.alloc() : memref<1x4x4x8xi8>
// CHECK-NEXT: %[[TOP:.*]] = memref.subview %[[PADDED]][0, 0, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : i8) outs(%[[TOP]]
// CHECK-NEXT: %[[BOTTOM:.*]] = memref.subview %[[PADDED]][0, 3, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : i8) outs(%[[BOTTOM]]
// CHECK-NEXT: %[[LEFT:.*]] = memref.subview %[[PADDED]][0, 1, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : i8) outs(%[[LEFT]]
// CHECK-NEXT: %[[RIGHT:.*]] = memref.subview %[[PADDED]][0, 1, 3, 0] [1, 2, 1, 8] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : i8) outs(%[[RIGHT]]
// CHECK-NOT: linalg.fill
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
// CHECK: %[[I1:.*]] = memref.subview %[[P1]][0, 1, 1, 0]
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[I1]]
// CHECK: %[[P2:.*]] = memref.alloc() : memref<1x4x4x8xi8>
// CHECK: %[[I2:.*]] = memref.subview %[[P2]][0, 1, 1, 0]
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

// -----

// Tests that a fused convolution loop of tfaot-fuse-epilogues (rows of a
// 1x1 convolution, each tile zeroed by a fill first, the loop marked
// tfaot.parallel) writes the padded buffer's interior: the loop's tiles
// cover all 4 rows, so the padded buffer's alloc, fill and interior move
// before the loop, the tile view is rebuilt on the interior (its strides,
// the same offsets and sizes) and the copy goes.
// CHECK-LABEL: func.func @loop_into_padded
// CHECK: %[[P:.*]] = memref.alloc() : memref<1x6x6x8xf32>
// CHECK-COUNT-4: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<1x{{[14]}}x{{[16]}}x8xf32, strided<[288, 48, 8, 1]{{.*}}>>)
// CHECK-NOT: linalg.fill
// CHECK: %[[IN:.*]] = memref.subview %[[P]][0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1]
// CHECK: scf.for %[[H:.*]] =
// CHECK: %[[T:.*]] = memref.subview %[[IN]][0, %[[H]], 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>> to memref<1x1x4x8xf32, strided<[288, 48, 8, 1], offset: ?>>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[T]] :
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[T]] :
// CHECK: } {tfaot.parallel}
// CHECK-NOT: memref.copy
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]],
func.func @loop_into_padded(%x: memref<1x4x4x8xf32>, %w: memref<1x1x8x8xf32>, %dw: memref<3x3x8xf32>, %out: memref<1x4x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x4x4x8xf32>
  scf.for %h = %c0 to %c4 step %c1 {
    %in = memref.subview %x[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    %t = memref.subview %r[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>, memref<1x1x8x8xf32>)
      outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
  } {tfaot.parallel}
  %p = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x6x6x8xf32>)
  %interior = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %r, %interior : memref<1x4x4x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %dw : memref<1x6x6x8xf32>, memref<3x3x8xf32>) outs(%out : memref<1x4x4x8xf32>)
  memref.dealloc %r : memref<1x4x4x8xf32>
  memref.dealloc %p : memref<1x6x6x8xf32>
  return
}

// -----

// Tests that loops that do not write the whole buffer from scratch keep
// the copy: one covers rows 0-1 of 4 (the rest of the buffer would be
// lost), one accumulates into its tile without a fill first (it reads the
// buffer's old values).
// CHECK-LABEL: func.func @loop_not_whole
// CHECK: memref.copy
// CHECK: memref.copy
func.func @loop_not_whole(%x: memref<1x4x4x8xf32>, %w: memref<1x1x8x8xf32>, %o1: memref<1x6x6x8xf32>, %o2: memref<1x6x6x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x4x4x8xf32>
  scf.for %h = %c0 to %c2 step %c1 {
    %in = memref.subview %x[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    %t = memref.subview %r[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>, memref<1x1x8x8xf32>)
      outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
  } {tfaot.parallel}
  %p = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x6x6x8xf32>)
  %interior = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %r, %interior : memref<1x4x4x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %p, %o1 : memref<1x6x6x8xf32> to memref<1x6x6x8xf32>
  %s = memref.alloc() : memref<1x4x4x8xf32>
  scf.for %h = %c0 to %c4 step %c1 {
    %in = memref.subview %x[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    %t = memref.subview %s[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>, memref<1x1x8x8xf32>)
      outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
  } {tfaot.parallel}
  %q = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%zero : f32) outs(%q : memref<1x6x6x8xf32>)
  %interior2 = memref.subview %q[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %s, %interior2 : memref<1x4x4x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %q, %o2 : memref<1x6x6x8xf32> to memref<1x6x6x8xf32>
  memref.dealloc %r : memref<1x4x4x8xf32>
  memref.dealloc %p : memref<1x6x6x8xf32>
  memref.dealloc %s : memref<1x4x4x8xf32>
  memref.dealloc %q : memref<1x6x6x8xf32>
  return
}

// -----

// Tests that a buffer which a later tile loop reuses (bufferization shares
// buffers: a residual block's next expand convolution writes the same
// buffer) still has its copy removed when that later loop overwrites the
// whole buffer, tile by tile, each tile filled first. The first loop
// writes the padded interior; the second still writes the old buffer.
// (Bufferization leaves a copy between two equal views of each tile until
// CSE; it goes too.)
// CHECK-LABEL: func.func @reused_by_loop
// CHECK: %[[R:.*]] = memref.alloc() : memref<1x4x4x8xf32>
// CHECK: %[[P:.*]] = memref.alloc() : memref<1x6x6x8xf32>
// CHECK: %[[IN:.*]] = memref.subview %[[P]][0, 1, 1, 0]
// CHECK: scf.for %[[H:.*]] =
// CHECK: memref.subview %[[IN]][0, %[[H]], 0, 0] [1, 1, 4, 8]
// CHECK-NOT: memref.copy
// CHECK: } {tfaot.parallel}
// CHECK-NOT: memref.copy
// CHECK: scf.for
// CHECK: memref.subview %[[R]]
// CHECK-NOT: memref.copy
// CHECK: } {tfaot.parallel}
// CHECK-NEXT: memref.copy %[[P]], %{{.*}} : memref<1x6x6x8xf32> to memref<1x6x6x8xf32>
// CHECK-NOT: memref.copy
// CHECK: return
func.func @reused_by_loop(%x: memref<1x4x4x8xf32>, %w: memref<1x1x8x8xf32>, %o: memref<1x6x6x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<1x4x4x8xf32>
  scf.for %h = %c0 to %c4 step %c1 {
    %in = memref.subview %x[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    %t = memref.subview %r[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>, memref<1x1x8x8xf32>)
      outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
    %t2 = memref.subview %r[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    memref.copy %t, %t2 : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
  } {tfaot.parallel}
  %p = memref.alloc() : memref<1x6x6x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x6x6x8xf32>)
  %interior = memref.subview %p[0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  memref.copy %r, %interior : memref<1x4x4x8xf32> to memref<1x4x4x8xf32, strided<[288, 48, 8, 1], offset: 56>>
  scf.for %h = %c0 to %c4 step %c1 {
    %in = memref.subview %p[0, %h, 1, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x6x6x8xf32> to memref<1x1x4x8xf32, strided<[288, 48, 8, 1], offset: ?>>
    %t = memref.subview %r[0, %h, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : memref<1x4x4x8xf32> to memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<1x1x4x8xf32, strided<[288, 48, 8, 1], offset: ?>>, memref<1x1x8x8xf32>)
      outs(%t : memref<1x1x4x8xf32, strided<[128, 32, 8, 1], offset: ?>>)
  } {tfaot.parallel}
  memref.copy %p, %o : memref<1x6x6x8xf32> to memref<1x6x6x8xf32>
  memref.dealloc %r : memref<1x4x4x8xf32>
  memref.dealloc %p : memref<1x6x6x8xf32>
  return
}

// -----

// Tests a batch of images (the padded buffer pads rows and columns only)
// and a pad value written by an input-less linalg.map (as bufferized
// tensor.pad gives): the map is cloned onto the four border parts, each
// covering both images, and the producer writes the interior.
// CHECK-LABEL: func.func @batch_into_padded
// CHECK: %[[P:.*]] = memref.alloc() : memref<2x5x5x4xf32>
// CHECK: memref.subview %[[P]][0, 0, 0, 0] [2, 1, 5, 4] [1, 1, 1, 1]
// CHECK: linalg.map outs(
// CHECK: memref.subview %[[P]][0, 3, 0, 0] [2, 2, 5, 4] [1, 1, 1, 1]
// CHECK: linalg.map outs(
// CHECK: memref.subview %[[P]][0, 1, 0, 0] [2, 2, 1, 4] [1, 1, 1, 1]
// CHECK: linalg.map outs(
// CHECK: memref.subview %[[P]][0, 1, 3, 0] [2, 2, 2, 4] [1, 1, 1, 1]
// CHECK: linalg.map outs(
// CHECK-NOT: linalg.map
// CHECK: %[[IN:.*]] = memref.subview %[[P]][0, 1, 1, 0] [2, 2, 2, 4] [1, 1, 1, 1]
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[IN]] : memref<2x2x2x4xf32, strided<[100, 20, 4, 1], offset: 24>>)
// CHECK-NOT: memref.copy
// CHECK: return %[[P]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @batch_into_padded(%x: memref<2x2x2x4xf32>) -> memref<2x5x5x4xf32> {
  %q = memref.alloc() : memref<2x2x2x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<2x2x2x4xf32>) outs(%q : memref<2x2x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %in : f32
    linalg.yield %r : f32
  }
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<2x5x5x4xf32>
  linalg.map outs(%padded : memref<2x5x5x4xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 2, 2, 4] [1, 1, 1, 1] : memref<2x5x5x4xf32> to memref<2x2x2x4xf32, strided<[100, 20, 4, 1], offset: 24>>
  memref.copy %q, %interior : memref<2x2x2x4xf32> to memref<2x2x2x4xf32, strided<[100, 20, 4, 1], offset: 24>>
  return %padded : memref<2x5x5x4xf32>
}
