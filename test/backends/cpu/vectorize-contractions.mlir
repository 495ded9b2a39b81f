// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-vectorize-contractions,canonicalize))' | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-vectorize-contractions{vector-bits=256},canonicalize))' | FileCheck %s --check-prefix=AVX2

// Tests the register-blocked kernels: each tile's accumulator is read once
// (one 1-D vector per output pixel or row), carried through the reduction
// loops, updated by FMAs of a filter row by a broadcast input element, and
// written once after them.

// One output row of a 3x3 convolution, 16 -> 32 channels: a tile is all 8
// pixels x 32 channels (8 vectors of 32), the reduction loops are the
// window's rows, its columns and the input channels 8 at a time.
// CHECK-LABEL: func.func @conv
// CHECK-COUNT-8: vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<1x8x32xf32, strided<[256, 32, 1]>>, vector<32xf32>
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>)
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args(
// CHECK: scf.for %[[C:.*]] = %c0 to %c16 step %c8 iter_args(
// CHECK: memref.subview %arg0[0, %[[KH]], %[[KW]], %[[C]]] [1, 1, 8, 8]
// CHECK: memref.subview %arg1[%[[KH]], %[[KW]], %[[C]], 0] [1, 1, 8, 32]
// CHECK-NOT: vector.transfer_write
// 8 input channels x 8 pixels.
// CHECK-COUNT-64: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK-COUNT-8: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<32xf32>, memref<1x8x32xf32, strided<[256, 32, 1]>>
// CHECK-NEXT: return
// 256-bit vectors: tiles of 16 channels (two 8-wide vectors) by 8 pixels.
// AVX2-LABEL: func.func @conv
// AVX2: scf.for %{{.*}} = %c0 to %c32 step %c16
// AVX2-COUNT-8: vector.transfer_read {{.*}} vector<16xf32>
func.func @conv(%in: memref<1x3x10x16xf32>, %w: memref<3x3x16x32xf32>, %out: memref<1x1x8x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x10x16xf32>, memref<3x3x16x32xf32>) outs(%out : memref<1x1x8x32xf32>)
  return
}

// A 4x64 by 64x48 product: N = 48 in tiles of 16 (48 is no multiple of 32),
// all 4 rows at once, K 8 at a time.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %[[N:.*]] = %c0 to %c48 step %c16 {
// CHECK: %[[OUT:.*]] = memref.subview %arg2[0, %[[N]]] [4, 16] [1, 1]
// CHECK-COUNT-4: vector.transfer_read %[[OUT]]{{.*}} vector<16xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c64 step %c8 iter_args(%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}, %[[A2:.*]] = %{{.*}}, %[[A3:.*]] = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// The first K step: one B row, one FMA per row of A, into each accumulator.
// CHECK: vector.fma %{{.*}}, %[[B0:.*]], %[[A0]] : vector<16xf32>
// CHECK: vector.fma %{{.*}}, %[[B0]], %[[A1]] : vector<16xf32>
// CHECK: vector.fma %{{.*}}, %[[B0]], %[[A2]] : vector<16xf32>
// CHECK: vector.fma %{{.*}}, %[[B0]], %[[A3]] : vector<16xf32>
// CHECK-COUNT-4: vector.transfer_write %{{.*}}, %[[OUT]]
func.func @matmul(%a: memref<4x64xf32>, %b: memref<64x48xf32>, %c: memref<4x48xf32>) {
  linalg.matmul ins(%a, %b : memref<4x64xf32>, memref<64x48xf32>) outs(%c : memref<4x48xf32>)
  return
}

// A stride-2 depthwise row: channels are the vector (2 tiles of 32), 8
// output pixels per tile, and each filter tap is one FMA per pixel of the
// tap's channels by the input pixel's channels (no broadcast). With
// AVX-512 a step of the one loop left (the window's rows) reads the 17
// input pixels its 8 outputs' windows span once, and the window's three
// columns take theirs from that read: 24 FMAs. With AVX2's 16 registers
// the columns stay a loop of 8 pixels' reads each.
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 {
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32 {
// CHECK-COUNT-8: vector.transfer_read {{.*}} vector<32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read {{.*}} : memref<1x17x32xf32, {{.*}}>, vector<1x17x32xf32>
// CHECK: vector.transfer_read {{.*}} : memref<3x32xf32, {{.*}}>, vector<3x32xf32>
// CHECK-COUNT-24: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-NOT: scf.yield
// CHECK-COUNT-8: vector.transfer_write {{.*}} vector<32xf32>
// AVX2-LABEL: func.func @depthwise
// AVX2: scf.for {{.*}} iter_args(
// AVX2: scf.for {{.*}} iter_args(
// AVX2: vector.transfer_read {{.*}} vector<1x7x16xf32>
// AVX2-COUNT-4: vector.fma
// AVX2-NOT: vector.fma
// AVX2: scf.yield
// AVX2: scf.yield
func.func @depthwise(%in: memref<1x3x33x64xf32>, %w: memref<3x3x64xf32>, %out: memref<1x1x16x64xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x33x64xf32>, memref<3x3x64xf32>) outs(%out : memref<1x1x16x64xf32>)
  return
}

// The same row in the NHWC x HWCM form with multiplier 1 (as the lowering
// makes it, with an output tile of tfaot-fuse-epilogues' loop): read
// through views without M, it gets the same kernel.
// CHECK-LABEL: func.func @depthwise_multiplier_1
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 {
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32 {
// CHECK: scf.for {{.*}} iter_args(
// CHECK-COUNT-24: vector.fma
// CHECK-NOT: vector.fma
func.func @depthwise_multiplier_1(%in: memref<1x3x33x64xf32>, %w: memref<3x3x64x1xf32>, %out: memref<1x1x16x64x1xf32, strided<[1024, 1024, 64, 1, 1], offset: ?>>) {
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x33x64xf32>, memref<3x3x64x1xf32>) outs(%out : memref<1x1x16x64x1xf32, strided<[1024, 1024, 64, 1, 1], offset: ?>>)
  return
}

// The same with the zeroing fill before it, on the 5-D output: the fill
// moves onto the narrowed view and the accumulators start from its value,
// so neither the fill (a memset of each row) nor a read of the
// accumulators is left.
// CHECK-LABEL: func.func @depthwise_multiplier_1_filled
// CHECK-NOT: linalg.fill
// CHECK-NOT: vector.transfer_read %{{.*}} : memref<1x1x16x64xf32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}, %{{.*}} = %cst
// CHECK-COUNT-24: vector.fma
// CHECK-NOT: vector.fma
// CHECK-COUNT-8: vector.transfer_write
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @depthwise_multiplier_1_filled(%in: memref<1x3x33x64xf32>, %w: memref<3x3x64x1xf32>, %out: memref<1x1x16x64x1xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x1x16x64x1xf32>)
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x33x64xf32>, memref<3x3x64x1xf32>) outs(%out : memref<1x1x16x64x1xf32>)
  return
}

// A dilated window keeps its column loop: the columns' pixels are not
// the one span a read would cover.
// CHECK-LABEL: func.func @depthwise_dilated
// CHECK: scf.for {{.*}} iter_args(
// CHECK: scf.for {{.*}} iter_args(
// CHECK: vector.fma {{.*}} : vector<1x8x32xf32>
// CHECK-NOT: vector.fma
func.func @depthwise_dilated(%in: memref<1x5x20x64xf32>, %w: memref<3x3x64xf32>, %out: memref<1x1x16x64xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x5x20x64xf32>, memref<3x3x64xf32>) outs(%out : memref<1x1x16x64xf32>)
  return
}

// 24 output channels, which 16-lane vectors do not divide: the product is
// split into channels [0, 16), one 16-lane vector wide, and [16, 24), one
// 8-lane vector, each 8 pixels high with the fill before it split alike
// (the accumulators start from the filled value); not three 8-lane tiles
// (a third more FMAs) nor one 24-lane vector LLVM would widen.
// CHECK-LABEL: func.func @conv_24_channels
// CHECK-NOT: linalg.fill
// CHECK: memref.subview %{{.*}}[0, 0, 0, 0] [1, 1, 24, 16] [1, 1, 1, 1] : memref<1x1x24x24xf32>
// CHECK: memref.subview %{{.*}}[0, 0, 0, 0] [1, 1, 64, 16] [1, 1, 1, 1] : memref<1x1x64x24xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8 {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf32>
// CHECK-COUNT-8: vector.transfer_write {{.*}} : vector<16xf32>
// CHECK: memref.subview %{{.*}}[0, 0, 0, 16] [1, 1, 24, 8] [1, 1, 1, 1] : memref<1x1x24x24xf32>
// CHECK: memref.subview %{{.*}}[0, 0, 0, 16] [1, 1, 64, 8] [1, 1, 1, 1] : memref<1x1x64x24xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8 {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<8xf32>
// CHECK-COUNT-8: vector.transfer_write {{.*}} : vector<8xf32>
// CHECK-NOT: vector<24xf32>
// CHECK-NOT: linalg.fill
// CHECK: return
// With 8-lane vectors (AVX2) 24 channels are three whole vectors: no split.
// AVX2-LABEL: func.func @conv_24_channels
// AVX2-NOT: memref.subview %{{.*}}[0, 0, 0, 16]
// AVX2: scf.for %{{.*}} = %c0 to %c24 step %c8 {
// AVX2: scf.for {{.*}} -> (vector<8xf32>,
func.func @conv_24_channels(%in: memref<1x1x64x24xf32>, %w: memref<1x1x24x24xf32>, %out: memref<1x1x64x24xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x1x64x24xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x1x64x24xf32>, memref<1x1x24x24xf32>) outs(%out : memref<1x1x64x24xf32>)
  return
}

// Reduction tiles are powers of two: each row's input for a step is read as
// one vector and its elements broadcast, which LLVM makes one broadcast load
// each only for vector types it has registers for. Three input channels (an
// RGB stem) go one at a time (a tile of 3 became a load of two floats and
// one, and shuffles on the FMA port); K = 12 goes 4 at a time.
// CHECK-LABEL: func.func @conv_rgb
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(
// CHECK: scf.for %[[C:.*]] = %c0 to %c3 step %c1 iter_args(
// CHECK: memref.subview %arg0[0, %{{.*}}, %{{.*}}, %[[C]]] [1, 1, 15, 1]
// CHECK-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-LABEL: func.func @matmul_k12
// CHECK: scf.for %{{.*}} = %c0 to %c12 step %c4 iter_args(
// CHECK-COUNT-16: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
func.func @conv_rgb(%in: memref<1x3x17x3xf32>, %w: memref<3x3x3x32xf32>, %out: memref<1x1x8x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x17x3xf32>, memref<3x3x3x32xf32>) outs(%out : memref<1x1x8x32xf32>)
  return
}
func.func @matmul_k12(%a: memref<4x12xf32>, %b: memref<12x32xf32>, %c: memref<4x32xf32>) {
  linalg.matmul ins(%a, %b : memref<4x12xf32>, memref<12x32xf32>) outs(%c : memref<4x32xf32>)
  return
}

// A matmul of 40 columns: 32 as one tile two 16-lane vectors wide (a
// 32-lane vector, which LLVM splits in two), 8 as one 8-lane vector.
// CHECK-LABEL: func.func @matmul_40_columns
// CHECK: memref.subview %{{.*}}[0, 0] [64, 32] [1, 1] : memref<64x40xf32>
// CHECK: scf.for {{.*}} -> (vector<32xf32>,
// CHECK: memref.subview %{{.*}}[0, 32] [64, 8] [1, 1] : memref<64x40xf32>
// CHECK: scf.for {{.*}} -> (vector<8xf32>,
// CHECK: return
func.func @matmul_40_columns(%a: memref<8x64xf32>, %b: memref<64x40xf32>, %c: memref<8x40xf32>) {
  linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x40xf32>) outs(%c : memref<8x40xf32>)
  return
}

// A multiplier of 2 keeps the scalar path.
// CHECK-LABEL: func.func @depthwise_multiplier_2
// CHECK-NEXT: linalg.depthwise_conv_2d_nhwc_hwcm
func.func @depthwise_multiplier_2(%in: memref<1x3x33x64xf32>, %w: memref<3x3x64x2xf32>, %out: memref<1x1x16x64x2xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x33x64xf32>, memref<3x3x64x2xf32>) outs(%out : memref<1x1x16x64x2xf32>)
  return
}

// Dynamic shapes keep the scalar path.
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT: linalg.matmul
func.func @dynamic(%a: memref<?x64xf32>, %b: memref<64x48xf32>, %c: memref<?x48xf32>) {
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x48xf32>) outs(%c : memref<?x48xf32>)
  return
}

// The fill right before a product that writes all of its output (what
// tfaot-fuse-epilogues puts there): the accumulators start as the filled
// value in registers, nothing reads the output before the tile writes it,
// and the fill is gone. The value is carried through every reduction loop.
// CHECK-LABEL: func.func @conv_after_fill
// CHECK-NOT: linalg.fill
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<32xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK-NOT: vector.transfer_read {{.*}} : memref<1x8x32xf32, strided<[256, 32, 1]>>, vector<32xf32>
// CHECK-COUNT-8: vector.transfer_write %{{.*}} : vector<32xf32>, memref<1x8x32xf32
// CHECK-NEXT: return
func.func @conv_after_fill(%in: memref<1x3x10x16xf32>, %w: memref<3x3x16x32xf32>, %out: memref<1x1x8x32xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<1x1x8x32xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x10x16xf32>, memref<3x3x16x32xf32>) outs(%out : memref<1x1x8x32xf32>)
  return
}

// The same for a matmul tiled over N: each tile's accumulators start as
// the value, in every tile.
// CHECK-LABEL: func.func @matmul_after_fill
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c16 {
// CHECK-NOT: vector.transfer_read %{{.*}} : memref<4x16xf32
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8 iter_args(%{{.*}} = %cst, %{{.*}} = %cst, %{{.*}} = %cst, %{{.*}} = %cst)
// CHECK-COUNT-4: vector.transfer_write
func.func @matmul_after_fill(%a: memref<4x64xf32>, %b: memref<64x48xf32>, %c: memref<4x48xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x48xf32>)
  linalg.matmul ins(%a, %b : memref<4x64xf32>, memref<64x48xf32>) outs(%c : memref<4x48xf32>)
  return
}

// A fill of another buffer, or one with an op between it and the product,
// stays, and the accumulators are read from the output.
// CHECK-LABEL: func.func @fill_not_of_the_output
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg3
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2
// CHECK: memref.copy
// CHECK: vector.transfer_read %{{.*}} : memref<4x16xf32
// CHECK: vector.transfer_read %{{.*}} : memref<4x16xf32
func.func @fill_not_of_the_output(%a: memref<4x64xf32>, %b: memref<64x48xf32>, %c: memref<4x48xf32>, %d: memref<4x48xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%d : memref<4x48xf32>)
  linalg.matmul ins(%a, %b : memref<4x64xf32>, memref<64x48xf32>) outs(%c : memref<4x48xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<4x48xf32>)
  memref.copy %d, %c : memref<4x48xf32> to memref<4x48xf32>
  linalg.matmul ins(%a, %b : memref<4x64xf32>, memref<64x48xf32>) outs(%c : memref<4x48xf32>)
  return
}

// A row of a 1x1 convolution whose filter tfaot-fuse-epilogues packed in
// panels of 64 output channels (tfaot.panel_columns): one tile covers the
// panel's width, 7 pixels x 64 channels (four AVX-512 vectors a pixel, 28
// accumulators), so each reduction step reads one whole panel row.
// CHECK-LABEL: func.func @conv_packed_panel
// CHECK-NOT: scf.for
// CHECK-COUNT-7: vector.transfer_read {{.*}} : memref<1x7x64xf32, strided<[448, 64, 1]>>, vector<64xf32>
// CHECK-NOT: vector.transfer_read {{.*}}, vector<64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c8 iter_args(
// CHECK-COUNT-56: vector.fma {{.*}} : vector<64xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-7: vector.transfer_write {{.*}} : vector<64xf32>, memref<1x7x64xf32
// CHECK-NEXT: return
// 256-bit vectors: the mark (eight such vectors) is ignored; tiles as
// without it, 7 pixels x one 8-lane vector (12 accumulators).
// AVX2-LABEL: func.func @conv_packed_panel
// AVX2: scf.for %{{.*}} = %c0 to %c64 step %c8
// AVX2-COUNT-7: vector.transfer_read {{.*}} vector<8xf32>
func.func @conv_packed_panel(%in: memref<1x1x7x512xf32>, %w: memref<1x1x512x64xf32>, %out: memref<1x1x7x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.panel_columns = 64 : i64}
    ins(%in, %w : memref<1x1x7x512xf32>, memref<1x1x512x64xf32>) outs(%out : memref<1x1x7x64xf32>)
  return
}

// The same convolution without the mark keeps tiles of at most two
// vectors: 7 pixels x 32 channels, two of them.
// CHECK-LABEL: func.func @conv_64_unpacked
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK-COUNT-7: vector.transfer_read {{.*}}, vector<32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c8 iter_args(
// CHECK-COUNT-56: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: vector.fma
func.func @conv_64_unpacked(%in: memref<1x1x7x512xf32>, %w: memref<1x1x512x64xf32>, %out: memref<1x1x7x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x1x7x512xf32>, memref<1x1x512x64xf32>) outs(%out : memref<1x1x7x64xf32>)
  return
}

// One row (a classifier at batch 1): the tile is 8 vectors wide, so that
// eight independent FMA chains are in flight instead of two; each output
// still sums its products in K order. 256 columns: two 128-lane tiles.
// CHECK-LABEL: func.func @matmul_one_row
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c128
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8 iter_args(%{{.*}}) -> (vector<128xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<128xf32>
// CHECK-NOT: vector.fma
// With 256-bit vectors, eight of 8 lanes.
// AVX2-LABEL: func.func @matmul_one_row
// AVX2: scf.for %{{.*}} = %c0 to %c256 step %c64
// AVX2: -> (vector<64xf32>)
func.func @matmul_one_row(%a: memref<1x64xf32>, %b: memref<64x256xf32>, %c: memref<1x256xf32>) {
  linalg.matmul ins(%a, %b : memref<1x64xf32>, memref<64x256xf32>) outs(%c : memref<1x256xf32>)
  return
}

// Two rows: four vectors wide (8 accumulators).
// CHECK-LABEL: func.func @matmul_two_rows
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK: -> (vector<64xf32>, vector<64xf32>)
// CHECK-COUNT-16: vector.fma {{.*}} : vector<64xf32>
// CHECK-NOT: vector.fma
func.func @matmul_two_rows(%a: memref<2x64xf32>, %b: memref<64x256xf32>, %c: memref<2x256xf32>) {
  linalg.matmul ins(%a, %b : memref<2x64xf32>, memref<64x256xf32>) outs(%c : memref<2x256xf32>)
  return
}

// An elementwise epilogue whose contiguous innermost dimension spans at
// most four vectors (a bias over 16 channels) runs one row of it at a time
// as one vector: LLVM would unroll the 16-iteration loop and vectorize the
// pixel loop around it with gathers and scatters.
#bias_row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias_channel = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @bias_16_channels
// CHECK: scf.for %{{.*}} = %c0 to %c112 step %c1
// CHECK: vector.transfer_read %{{.*}} : memref<16xf32>, vector<16xf32>
// CHECK: vector.transfer_read %{{.*}} vector<1x1x1x16xf32>
// CHECK: arith.addf %{{.*}} : vector<1x1x1x16xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: linalg.generic
func.func @bias_16_channels(%bias: memref<16xf32>, %out: memref<1x1x112x16xf32>) {
  linalg.generic {indexing_maps = [#bias_channel, #bias_row], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<16xf32>) outs(%out : memref<1x1x112x16xf32>) {
  ^bb0(%b: f32, %o: f32):
    %s = arith.addf %o, %b : f32
    linalg.yield %s : f32
  }
  return
}

// 96 channels are six vectors: LLVM vectorizes that loop itself.
// CHECK-LABEL: func.func @bias_96_channels
// CHECK: linalg.generic
func.func @bias_96_channels(%bias: memref<96xf32>, %out: memref<1x1x112x96xf32>) {
  linalg.generic {indexing_maps = [#bias_channel, #bias_row], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<96xf32>) outs(%out : memref<1x1x112x96xf32>) {
  ^bb0(%b: f32, %o: f32):
    %s = arith.addf %o, %b : f32
    linalg.yield %s : f32
  }
  return
}
