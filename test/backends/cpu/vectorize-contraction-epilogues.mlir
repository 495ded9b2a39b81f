// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-vectorize-contractions,canonicalize))' | FileCheck %s

// The elementwise generic after a product (bias and ReLU6 here) is applied
// tile by tile, right after each tile's accumulators are written: one
// vector per output pixel of the tile, reading the pixel just written and
// the tile's channels of the bias. No pass over the whole output is left.

#bias = affine_map<(d0, d1, d2, d3) -> (d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @conv_bias_relu6
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 {
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32 {
// CHECK: scf.for {{.*}} iter_args(
// CHECK-COUNT-8: vector.transfer_write {{.*}} : vector<32xf32>, memref<1x8x32xf32
// CHECK: memref.subview %arg3[%{{.*}}] [32] [1] : memref<64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: vector.transfer_read {{.*}} : memref<32xf32, strided<[1], offset: ?>>, vector<32xf32>
// CHECK: vector.transfer_read {{.*}} : memref<1x1x1x32xf32, {{.*}}>, vector<1x1x1x32xf32>
// CHECK: arith.addf {{.*}} : vector<1x1x1x32xf32>
// CHECK: arith.maximumf {{.*}} : vector<1x1x1x32xf32>
// CHECK: arith.minimumf {{.*}} : vector<1x1x1x32xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x1x1x32xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @conv_bias_relu6(%in: memref<1x1x16x32xf32>, %w: memref<1x1x32x64xf32>, %out: memref<1x1x16x64xf32>, %bias: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x1x16x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x1x16x32xf32>, memref<1x1x32x64xf32>) outs(%out : memref<1x1x16x64xf32>)
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : memref<64xf32>) outs(%out : memref<1x1x16x64xf32>) {
  ^bb0(%b: f32, %acc: f32):
    %s = arith.addf %acc, %b : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  return
}

// A residual added to the product: the residual is read at the tile's
// pixels and channels. The accumulators go through a buffer on the stack,
// not the output (LLVM cannot tell the residual from the output, and kept
// both stores of each output vector): the output is written once, by the
// epilogue.
// CHECK-LABEL: func.func @matmul_residual
// CHECK: %[[STACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8 {
// CHECK: scf.for {{.*}} iter_args(
// CHECK-COUNT-8: vector.transfer_write %{{.*}}, %[[STACK]][%{{.*}}, %c0] {{.*}} : vector<32xf32>, memref<8x32xf32>
// CHECK: %[[RES:.*]] = memref.subview %arg3[%{{.*}}, 0] [8, 32] [1, 1] : memref<16x32xf32>
// CHECK: %[[OUT:.*]] = memref.subview %arg2[%{{.*}}, 0] [8, 32] [1, 1] : memref<16x32xf32>
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c8 step %c1 {
// CHECK-DAG: %[[RESROW:.*]] = memref.subview %[[RES]][%[[ROW]], 0] [1, 32]
// CHECK-DAG: %[[ACCROW:.*]] = memref.subview %[[STACK]][%[[ROW]], 0] [1, 32]
// CHECK-DAG: %[[OUTROW:.*]] = memref.subview %[[OUT]][%[[ROW]], 0] [1, 32]
// CHECK-DAG: %[[R:.*]] = vector.transfer_read %[[RESROW]]
// CHECK-DAG: %[[A:.*]] = vector.transfer_read %[[ACCROW]]
// CHECK: arith.addf %[[A]], %[[R]] : vector<1x32xf32>
// CHECK: vector.transfer_write %{{.*}}, %[[OUTROW]]
// CHECK-NOT: vector.transfer_write
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @matmul_residual(%a: memref<16x64xf32>, %b: memref<64x32xf32>, %c: memref<16x32xf32>, %r: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x32xf32>)
  linalg.matmul ins(%a, %b : memref<16x64xf32>, memref<64x32xf32>) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<16x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// A multiplier-1 depthwise convolution in the NHWC x HWCM form: its
// epilogue over the 5-D output loses M with it (the C x 1 bias becomes C)
// and is applied by tiles the same way.
// CHECK-LABEL: func.func @depthwise_multiplier_1_bias
// CHECK-NOT: linalg.fill
// CHECK: memref.subview %arg3[0, 0] [64, 1] [1, 1] : memref<64x1xf32> to memref<64xf32
// CHECK: scf.for {{.*}} iter_args(
// CHECK-COUNT-24: vector.fma
// CHECK-COUNT-8: vector.transfer_write {{.*}} : vector<32xf32>
// CHECK: memref.subview %{{.*}}[%{{.*}}] [32] [1] : memref<64xf32, strided<[1]>>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: vector.transfer_read {{.*}} : memref<32xf32, strided<[1], offset: ?>>, vector<32xf32>
// CHECK: arith.addf {{.*}} : vector<1x1x1x32xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @depthwise_multiplier_1_bias(%in: memref<1x3x33x64xf32>, %w: memref<3x3x64x1xf32>, %out: memref<1x1x16x64x1xf32>, %bias: memref<64x1xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x1x16x64x1xf32>)
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x33x64xf32>, memref<3x3x64x1xf32>) outs(%out : memref<1x1x16x64x1xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : memref<64x1xf32>) outs(%out : memref<1x1x16x64x1xf32>) {
  ^bb0(%b: f32, %acc: f32):
    %s = arith.addf %acc, %b : f32
    linalg.yield %s : f32
  }
  return
}

// An epilogue that reads the product's output other than where it writes
// (a transpose) stays a pass over the whole output, after the product.
// CHECK-LABEL: func.func @epilogue_reads_elsewhere
// CHECK: scf.for {{.*}} iter_args(
// CHECK: linalg.generic
// CHECK: return
func.func @epilogue_reads_elsewhere(%a: memref<16x64xf32>, %b: memref<64x16xf32>, %c: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%a, %b : memref<16x64xf32>, memref<64x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}
