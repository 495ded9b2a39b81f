// RUN: tfaot-opt %s --tfaot-parallelize-loops -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-parallelize-loops=min-work=1000 -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: tfaot-opt %s -split-input-file --tfaot-cpu-to-llvm | FileCheck %s --check-prefix=LLVM

// Tests that a large matmul is split into 8 pieces of 8 rows (the register
// tile's height), outlined into a body that rebuilds the three buffers
// from their pointers in the context array, and replaced by one call of
// the runtime's parallel for.
// CHECK-LABEL: func.func private @tfaot_rt_parallel_for((!llvm.ptr, index, index) -> (), !llvm.ptr, index)
// CHECK-LABEL: func.func @matmul(
// CHECK: %[[CTX:.*]] = llvm.alloca %{{.*}} x i64
// CHECK-COUNT-3: memref.extract_aligned_pointer_as_index
// CHECK: %[[BODY:.*]] = constant @matmul_parallel0 : (!llvm.ptr, index, index) -> ()
// CHECK: %[[N:.*]] = arith.constant 8 : index
// CHECK: call @tfaot_rt_parallel_for(%[[BODY]], %[[CTX]], %[[N]])
// CHECK-NOT: linalg.matmul
// CHECK: return
// CHECK: func.func private @matmul_parallel0(%[[C:.*]]: !llvm.ptr, %[[BEGIN:.*]]: index, %[[END:.*]]: index) attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK: builtin.unrealized_conversion_cast {{.*}} to memref<64x256xf32>
// CHECK: builtin.unrealized_conversion_cast {{.*}} to memref<256x128xf32>
// CHECK: builtin.unrealized_conversion_cast {{.*}} to memref<64x128xf32>
// CHECK: scf.for %{{.*}} = %[[BEGIN]] to %[[END]]
// CHECK: linalg.matmul ins({{.*}} : memref<8x256xf32, {{.*}}>, memref<256x128xf32, {{.*}}>) outs({{.*}} : memref<8x128xf32,
// LLVM-LABEL: llvm.func @matmul(
// LLVM: %[[F:.*]] = llvm.mlir.addressof @matmul_parallel0 : !llvm.ptr
// LLVM: llvm.call @tfaot_rt_parallel_for(%[[F]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// LLVM: llvm.func internal @matmul_parallel0(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// LLVM: llvm.intr.fmuladd
func.func @matmul(%a: memref<64x256xf32>, %b: memref<256x128xf32>, %c: memref<64x128xf32>) {
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x128xf32>) outs(%c : memref<64x128xf32>)
  return
}

// -----

// Tests a loop tfaot-fuse-epilogues marked: the one-trip batch loop passes
// on to the row loop inside (4 iterations from 0 by 2); a scalar the body
// reads travels in its own slot, and the original induction variable is
// rebuilt from the iteration number. Below the default min-work (1M
// multiply-adds), it is parallel only with a smaller one.
// CHECK-LABEL: func.func @marked(
// CHECK-NOT: tfaot_rt_parallel_for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {tfaot.parallel}
// SMALL-LABEL: func.func @marked(
// SMALL: scf.for
// SMALL: llvm.store %arg1, %{{.*}} : f32, !llvm.ptr
// SMALL: %[[N:.*]] = arith.constant 4 : index
// SMALL: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %[[N]])
// SMALL: func.func private @marked_parallel0(
// SMALL: %[[SCALE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// SMALL: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// SMALL: %[[TWO_I:.*]] = arith.muli %[[I]], %c2
// SMALL: %[[H:.*]] = arith.addi %c0{{.*}}, %[[TWO_I]]
// SMALL: memref.subview %{{.*}}[0, %[[H]], 0] [4, 2, 64]
// SMALL: arith.mulf %{{.*}}, %[[SCALE]] : f32
func.func @marked(%in: memref<4x8x64xf32>, %scale: f32, %out: memref<4x8x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c2 = arith.constant 2 : index
  scf.for %n = %c0 to %c1 step %c1 {
    scf.for %h = %c0 to %c8 step %c2 {
      %i = memref.subview %in[0, %h, 0] [4, 2, 64] [1, 1, 1] : memref<4x8x64xf32> to memref<4x2x64xf32, strided<[512, 64, 1], offset: ?>>
      %o = memref.subview %out[0, %h, 0] [4, 2, 64] [1, 1, 1] : memref<4x8x64xf32> to memref<4x2x64xf32, strided<[512, 64, 1], offset: ?>>
      linalg.map { arith.mulf } ins(%i, %i : memref<4x2x64xf32, strided<[512, 64, 1], offset: ?>>, memref<4x2x64xf32, strided<[512, 64, 1], offset: ?>>) outs(%o : memref<4x2x64xf32, strided<[512, 64, 1], offset: ?>>)
      %v = memref.load %o[%c0, %c0, %c0] : memref<4x2x64xf32, strided<[512, 64, 1], offset: ?>>
      %w = arith.mulf %v, %scale : f32
      memref.store %w, %o[%c0, %c0, %c0] : memref<4x2x64xf32, strided<[512, 64, 1], offset: ?>>
    } {tfaot.parallel}
  } {tfaot.parallel}
  return
}

// -----

// Tests that a loop calling a function stays on the calling thread (the
// runtime's functions report errors in a per-thread slot), and so does a
// loop nobody marked parallel.
// SMALL-LABEL: func.func @calls(
// SMALL-NOT: tfaot_rt_parallel_for
// SMALL: scf.for
// SMALL: call @report
// SMALL: } {tfaot.parallel}
// SMALL: scf.for
// SMALL-NOT: tfaot_rt_parallel_for
// SMALL: return
func.func private @report(memref<4x64xf32>)
func.func @calls(%buffer: memref<16x4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %cst = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    %row = memref.subview %buffer[%i, 0, 0] [1, 4, 64] [1, 1, 1] : memref<16x4x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%row : memref<4x64xf32, strided<[64, 1], offset: ?>>)
    %copy = memref.alloc() : memref<4x64xf32>
    memref.copy %row, %copy : memref<4x64xf32, strided<[64, 1], offset: ?>> to memref<4x64xf32>
    func.call @report(%copy) : (memref<4x64xf32>) -> ()
    memref.dealloc %copy : memref<4x64xf32>
  } {tfaot.parallel}
  scf.for %i = %c0 to %c16 step %c1 {
    %row = memref.subview %buffer[%i, 0, 0] [1, 4, 64] [1, 1, 1] : memref<16x4x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%row : memref<4x64xf32, strided<[64, 1], offset: ?>>)
  }
  return
}

// -----

// Tests that a perfect nest of parallel loops (tfaot-fuse-epilogues' row
// loop around its channel-block loop, 7 x 4 tiles) becomes one parallel
// for over all 28 tiles, each rebuilding its row and block from the
// iteration number, instead of 7 pieces with the blocks serial inside.
// SMALL-LABEL: func.func @nest(
// SMALL: constant @nest_parallel0
// SMALL-NEXT: %[[N:.*]] = arith.constant 28 : index
// SMALL-NEXT: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %[[N]])
// SMALL: func.func private @nest_parallel0(
// SMALL: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// SMALL-NOT: scf.for
// SMALL: %[[RC:.*]]:2 = affine.delinearize_index %{{.*}} into (7, 4)
// SMALL: %[[C:.*]] = affine.apply #{{.*}}(%[[RC]]#1)
// SMALL: memref.subview %{{.*}}[0, %[[RC]]#0, 0, %[[C]]] [1, 1, 7, 64]
// SMALL: linalg.map
func.func @nest(%in: memref<1x7x7x256xf32>, %out: memref<1x7x7x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.for %h = %c0 to %c7 step %c1 {
    scf.for %c = %c0 to %c256 step %c64 {
      %i = memref.subview %in[0, %h, 0, %c] [1, 1, 7, 64] [1, 1, 1, 1] : memref<1x7x7x256xf32> to memref<1x1x7x64xf32, strided<[12544, 1792, 256, 1], offset: ?>>
      %o = memref.subview %out[0, %h, 0, %c] [1, 1, 7, 64] [1, 1, 1, 1] : memref<1x7x7x256xf32> to memref<1x1x7x64xf32, strided<[12544, 1792, 256, 1], offset: ?>>
      linalg.map { arith.mulf } ins(%i, %i : memref<1x1x7x64xf32, strided<[12544, 1792, 256, 1], offset: ?>>, memref<1x1x7x64xf32, strided<[12544, 1792, 256, 1], offset: ?>>) outs(%o : memref<1x1x7x64xf32, strided<[12544, 1792, 256, 1], offset: ?>>)
    } {tfaot.parallel}
  } {tfaot.parallel}
  return
}

// -----

// Tests the weight of elementwise work: an element of an op without a
// reduction counts as 8 multiply-adds, so at the default min-work (2^20)
// the requantizing of a 56x56x64 activation (200,704 elements, the int8
// ResNet-50's) goes to the thread pool, split along its rows, while a
// 28x28x64 one (50,176 elements) and a matrix product of as many
// multiply-adds as the large one has elements stay serial.
// CHECK-LABEL: func.func @elementwise(
// CHECK: constant @elementwise_parallel0
// CHECK-NEXT: %[[N:.*]] = arith.constant 56 : index
// CHECK-NEXT: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %[[N]])
// CHECK-NOT: tfaot_rt_parallel_for
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<1x28x28x64xf32>)
// CHECK-NOT: tfaot_rt_parallel_for
// CHECK: linalg.matmul
// CHECK-NOT: tfaot_rt_parallel_for
// CHECK: return
// CHECK: func.func private @elementwise_parallel0(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<1x1x56x64xf32, {{.*}}>) outs(%{{.*}} : memref<1x1x56x64xi8,
#identity = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @elementwise(%big: memref<1x56x56x64xf32>, %bigOut: memref<1x56x56x64xi8>,
                       %small: memref<1x28x28x64xf32>, %smallOut: memref<1x28x28x64xi8>,
                       %a: memref<392x512xf32>, %b: memref<512x1xf32>, %c: memref<392x1xf32>) {
  linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%big : memref<1x56x56x64xf32>) outs(%bigOut : memref<1x56x56x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %q = arith.fptosi %in : f32 to i8
    linalg.yield %q : i8
  }
  linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%small : memref<1x28x28x64xf32>) outs(%smallOut : memref<1x28x28x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %q = arith.fptosi %in : f32 to i8
    linalg.yield %q : i8
  }
  linalg.matmul ins(%a, %b : memref<392x512xf32>, memref<512x1xf32>) outs(%c : memref<392x1xf32>)
  return
}

// -----

// Tests the weight of depthwise work: a multiply-add of a depthwise
// convolution counts as 4 of a dense one, so MobileNetV2's 7x7x960
// depthwise layer (3x3 window, 423,360 multiply-adds) goes to the thread
// pool, split along its 7 output rows, while a 1x1 convolution of as many
// multiply-adds (7x7 pixels, 96 -> 90 channels) stays serial.
// CHECK-LABEL: func.func @depthwise(
// CHECK: constant @depthwise_parallel0
// CHECK-NEXT: %[[N:.*]] = arith.constant 7 : index
// CHECK-NEXT: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %[[N]])
// CHECK-NOT: tfaot_rt_parallel_for
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: tfaot_rt_parallel_for
// CHECK: return
// CHECK: func.func private @depthwise_parallel0(
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} outs(%{{.*}} : memref<1x1x7x960xf32,
func.func @depthwise(%x: memref<1x9x9x960xf32>, %w: memref<3x3x960xf32>, %y: memref<1x7x7x960xf32>,
                     %a: memref<1x7x7x96xf32>, %f: memref<1x1x96x90xf32>, %b: memref<1x7x7x90xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x9x9x960xf32>, memref<3x3x960xf32>) outs(%y : memref<1x7x7x960xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%a, %f : memref<1x7x7x96xf32>, memref<1x1x96x90xf32>) outs(%b : memref<1x7x7x90xf32>)
  return
}

// -----

// Tests that the zeroing fill right before a product is split with it: one
// parallel loop, each piece filling its own slice of the output right
// before its product (where tfaot-vectorize-contractions starts the
// accumulators from zero instead of loading them), not a parallel loop of
// fills and then one of products.
// CHECK-LABEL: func.func @fill_then_batch_matmul(
// CHECK-NOT: linalg.fill
// CHECK: call @tfaot_rt_parallel_for(
// CHECK-NOT: tfaot_rt_parallel_for
// CHECK: return
// CHECK: func.func private @fill_then_batch_matmul_parallel0(
// CHECK: scf.for
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[SLICE:.*]] : memref<1x196x64xf32
// CHECK-NEXT: linalg.batch_matmul ins({{.*}}) outs(%[[SLICE]] : memref<1x196x64xf32
func.func @fill_then_batch_matmul(%a: memref<36x196x64xf32>, %b: memref<36x64x64xf32>, %c: memref<36x196x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<36x196x64xf32>)
  linalg.batch_matmul ins(%a, %b : memref<36x196x64xf32>, memref<36x64x64xf32>) outs(%c : memref<36x196x64xf32>)
  return
}
