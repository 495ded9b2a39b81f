// Tests --tfaot-cpu-f32-panel-products (--cpu_gemm=auto on AVX-512
// targets): which float32 products become linalg.mmt4d / batch_mmt4d with
// tiles 1x64x1, their packed weights and rows; then the call
// tfaot-cpu-int8-ukernels makes of the bufferized product. The first runs
// lower the weight threshold so that small products qualify; the DEFAULT
// run checks the default thresholds (padding-share=0 lets the small ones
// pad their columns to 64 freely).
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-cpu-f32-panel-products{min-weight-bytes=0 max-im2col-bytes=4096 padding-share=0}),canonicalize)' --mlir-print-elementsattrs-with-hex-if-larger=100000 2>&1 | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-cpu-f32-panel-products{min-weight-bytes=0 max-im2col-bytes=4096 padding-share=0}),canonicalize)' -verify-diagnostics -o /dev/null
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-cpu-f32-panel-products),canonicalize)' --mlir-elide-elementsattrs-if-larger=64 2>/dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-cpu-f32-panel-products{min-weight-bytes=0 max-im2col-bytes=4096 padding-share=0}),canonicalize,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},tfaot-cpu-int8-ukernels)' 2>/dev/null | FileCheck %s --check-prefix=CALL

// The strided 1x1 convolution's rows (maps print first): row (n, oh, ow),
// column j read at (n, 2 * oh, 2 * 8 * ow + j) of the input seen as
// [N, H, W * C].
// CHECK-DAG: #[[STRIDED:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3, d2 * 16 + d4)>

// A matrix product [4, 3] x [3, 5]: N = 5 is padded to one panel of 64.
// W[k][n] = k * 5 + n + 1, so the packed [1][3][64][1] holds row k of W
// in panel row k: (1..5), (6..10), (11..15), each followed by 59 zeros.
// The rows are the input itself, seen as [4, 3, 1, 1].
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00], [2.000000e+00], [3.000000e+00], [4.000000e+00], [5.000000e+00], [0.000000e+00]{{.*}}{{\]\]}}, {{\[\[}}6.000000e+00], [7.000000e+00], [8.000000e+00], [9.000000e+00], [1.000000e+01], [0.000000e+00]{{.*}}{{\]\]}}, {{\[\[}}1.100000e+01], [1.200000e+01], [1.300000e+01], [1.400000e+01], [1.500000e+01], [0.000000e+00]{{.*}} : tensor<1x3x64x1xf32>
// CHECK: %[[LHS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] output_shape [4, 3, 1, 1] : tensor<4x3xf32> into tensor<4x3x1x1xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<4x1x1x64xf32>
// CHECK: %[[TILED:.*]] = linalg.mmt4d ins(%[[LHS]], %[[W]] : tensor<4x3x1x1xf32>, tensor<1x3x64x1xf32>) outs(%[[ZERO]] : tensor<4x1x1x64xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[TILED]] {{\[\[}}0], [1, 2, 3]] : tensor<4x1x1x64xf32> into tensor<4x64xf32>
// CHECK: tensor.extract_slice %[[FLAT]][0, 0] [4, 5] [1, 1] : tensor<4x64xf32> to tensor<4x5xf32>
// CHECK-NOT: linalg.matmul
// CALL-LABEL: func.func @matmul
// The call carries its floating-point operations for the profile: 2 x 4
// rows x 3 x 64 (the padded panel).
// CALL: call @tfaot_rt_mmt4d_f32f32f32(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c4_i64, %c1_i64{{.*}}, %c3_i64, %c1_i32) {tfaot.flop = 1536 : i64} : (i64, i64, i64, i64, i64, i64, i64, i32) -> ()
// CALL-NOT: linalg.mmt4d
func.func @matmul(%a: tensor<4x3xf32>) -> tensor<4x5xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<3x5xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x5xf32>) -> tensor<4x5xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x3 by 3x5}}
  %r = linalg.matmul ins(%a, %w : tensor<4x3xf32>, tensor<3x5xf32>) outs(%init : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// Two products [4, 3] x [3, 64] (Winograd's batched shape): batch_mmt4d on
// [2, 4, 3, 1, 1] rows and [2, 1, 3, 64, 1] weights; no padding to slice.
// CHECK-LABEL: func.func @batched
// CHECK: linalg.batch_mmt4d ins(%{{.*}}, %{{.*}} : tensor<2x4x3x1x1xf32>, tensor<2x1x3x64x1xf32>) outs(%{{.*}} : tensor<2x4x1x1x64xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3, 4]] : tensor<2x4x1x1x64xf32> into tensor<2x4x64xf32>
// CHECK-NOT: linalg.batch_matmul
// CALL-LABEL: func.func @batched
// CALL: call @tfaot_rt_mmt4d_f32f32f32(%{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c4_i64, %c1_i64, %c3_i64, %c1_i32)
func.func @batched(%a: tensor<2x4x3xf32>) -> tensor<2x4x64xf32> {
  %w = arith.constant dense<0.5> : tensor<2x3x64xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] batch_matmul on the runtime's packed float32 kernel: 2 products of 4x3 by 3x64}}
  %r = linalg.batch_matmul ins(%a, %w : tensor<2x4x3xf32>, tensor<2x3x64xf32>) outs(%init : tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  return %r : tensor<2x4x64xf32>
}

// A 1x1 stride-1 convolution [1, 2, 2, 8] -> 16 channels: its rows are the
// input seen as [4, 8] (no copy), the result [4, 64] sliced to 16 columns
// and seen as [1, 2, 2, 16].
// CHECK-LABEL: func.func @conv1x1
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x2x2x8xf32> into tensor<4x8xf32>
// CHECK: tensor.expand_shape %[[ROWS]] {{.*}} : tensor<4x8xf32> into tensor<4x8x1x1xf32>
// CHECK: linalg.mmt4d
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [4, 16] [1, 1] : tensor<4x64xf32> to tensor<4x16xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 2, 2, 16] : tensor<4x16xf32> into tensor<1x2x2x16xf32>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
func.func @conv1x1(%x: tensor<1x2x2x8xf32>) -> tensor<1x2x2x16xf32> {
  %w = arith.constant dense<0.25> : tensor<1x1x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x2x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] conv_2d_nhwc_hwcf on the runtime's packed float32 kernel: 4x8 by 8x16}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x2x8xf32>, tensor<1x1x8x16xf32>) outs(%init : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  return %r : tensor<1x2x2x16xf32>
}

// A 1x1 stride-2 convolution [1, 4, 4, 8] -> [1, 2, 2, 16]: its rows are
// copied (im2col, 4 x 8 values) by one generic.
// CHECK-LABEL: func.func @conv1x1_strided
// CHECK: linalg.generic {indexing_maps = [#[[STRIDED]], {{.*}}]
// CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<4x8x1x1xf32>, tensor<1x8x64x1xf32>)
func.func @conv1x1_strided(%x: tensor<1x4x4x8xf32>) -> tensor<1x2x2x16xf32> {
  %w = arith.constant dense<0.25> : tensor<1x1x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x2x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] conv_2d_nhwc_hwcf on the runtime's packed float32 kernel: 4x8 by 8x16}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x8xf32>, tensor<1x1x8x16xf32>) outs(%init : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  return %r : tensor<1x2x2x16xf32>
}

// A matrix-vector product (one row, a classifier at batch 1) is taken like
// any other: packed, its weights are one sequential stream. By default too,
// at the size of ResNet-50's classifier (2048 x 1000, padded to 1024).
// CHECK-LABEL: func.func @matvec
// CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<1x3x1x1xf32>, tensor<1x3x64x1xf32>) outs(%{{.*}} : tensor<1x1x1x64xf32>)
// CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<1x2048x1x1xf32>, tensor<16x2048x64x1xf32>) outs(%{{.*}} : tensor<1x16x1x64xf32>)
// CHECK-NOT: linalg.matmul
// DEFAULT-LABEL: func.func @matvec
// DEFAULT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<3x5xf32>)
// DEFAULT: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<1x2048x1x1xf32>, tensor<16x2048x64x1xf32>) outs(%{{.*}} : tensor<1x16x1x64xf32>)
// DEFAULT-NEXT: tensor.collapse_shape
// DEFAULT-NEXT: tensor.extract_slice
// DEFAULT-NEXT: return
// CALL-LABEL: func.func @matvec
// CALL: call @tfaot_rt_mmt4d_f32f32f32(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c1_i64{{.*}}, %c1_i64{{.*}}, %c3_i64, %c1_i32)
func.func @matvec(%a: tensor<1x3xf32>, %x: tensor<1x2048xf32>) -> (tensor<1x5xf32>, tensor<1x1000xf32>) {
  %w = arith.constant dense<0.5> : tensor<3x5xf32>
  %c = arith.constant dense<0.25> : tensor<2048x1000xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x5xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x5xf32>) -> tensor<1x5xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 1x3 by 3x5}}
  %r1 = linalg.matmul ins(%a, %w : tensor<1x3xf32>, tensor<3x5xf32>) outs(%i1 : tensor<1x5xf32>) -> tensor<1x5xf32>
  %e2 = tensor.empty() : tensor<1x1000xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 1x2048 by 2048x1000}}
  %r2 = linalg.matmul ins(%x, %c : tensor<1x2048xf32>, tensor<2048x1000xf32>) outs(%i2 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r1, %r2 : tensor<1x5xf32>, tensor<1x1000xf32>
}

// What stays generated code: a 3x3 convolution whose im2col rows (16 x 72
// floats, 4.5 KB) exceed max-im2col-bytes (4096 here); a product that adds
// to a start that is not zero; weights that are not constant.
// CHECK-LABEL: func.func @kept
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.matmul
// CHECK: linalg.matmul
// CHECK-NOT: mmt4d
func.func @kept(%x: tensor<1x6x6x8xf32>, %b: tensor<4x3xf32>, %v: tensor<3x5xf32>) -> (tensor<1x4x4x16xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %w = arith.constant dense<0.5> : tensor<3x5xf32>
  %f = arith.constant dense<0.25> : tensor<3x3x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e2 = tensor.empty() : tensor<1x4x4x16xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %r2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %f : tensor<1x6x6x8xf32>, tensor<3x3x8x16xf32>) outs(%i2 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %e3 = tensor.empty() : tensor<4x5xf32>
  %i3 = linalg.fill ins(%one : f32) outs(%e3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r3 = linalg.matmul ins(%b, %w : tensor<4x3xf32>, tensor<3x5xf32>) outs(%i3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %i4 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r4 = linalg.matmul ins(%b, %v : tensor<4x3xf32>, tensor<3x5xf32>) outs(%i4 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r2, %r3, %r4 : tensor<1x4x4x16xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}

// The default thresholds: 256 KiB of weights (256 x 256 floats) qualify,
// 255 x 256 do not; 4 rows of 256 columns are far under 1 MiB of result.
// 1024 x 500 (2 MB) pad to 512 columns, 2.4% more: taken; 4096 x 96 (1.5
// MB) would pad to 128, a third more: kept; 2048 x 160 (1.3 MB, the width
// of MobileNetV2's 7x7 projections) pad to 192, a fifth more: taken.
// (The other runs, with min-weight-bytes=0, take both.)
// CHECK-LABEL: func.func @threshold
// DEFAULT-LABEL: func.func @threshold
// DEFAULT: linalg.mmt4d
// DEFAULT: linalg.matmul
// DEFAULT: linalg.mmt4d
// DEFAULT: linalg.matmul
// DEFAULT: linalg.mmt4d {{.*}} tensor<3x2048x64x1xf32>
// DEFAULT-NOT: linalg.matmul
// DEFAULT-LABEL: func.func @epilogues
func.func @threshold(%a: tensor<4x256xf32>, %b: tensor<4x255xf32>, %c: tensor<4x1024xf32>, %d: tensor<4x4096xf32>, %f: tensor<4x2048xf32>) -> (tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x500xf32>, tensor<4x96xf32>, tensor<4x160xf32>) {
  %w = arith.constant dense<0.5> : tensor<256x256xf32>
  %v = arith.constant dense<0.5> : tensor<255x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x256xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x256xf32>) -> tensor<4x256xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x256 by 256x256}}
  %r1 = linalg.matmul ins(%a, %w : tensor<4x256xf32>, tensor<256x256xf32>) outs(%i : tensor<4x256xf32>) -> tensor<4x256xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x255 by 255x256}}
  %r2 = linalg.matmul ins(%b, %v : tensor<4x255xf32>, tensor<255x256xf32>) outs(%i : tensor<4x256xf32>) -> tensor<4x256xf32>
  %w3 = arith.constant dense<0.5> : tensor<1024x500xf32>
  %e3 = tensor.empty() : tensor<4x500xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x500xf32>) -> tensor<4x500xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x1024 by 1024x500}}
  %r3 = linalg.matmul ins(%c, %w3 : tensor<4x1024xf32>, tensor<1024x500xf32>) outs(%i3 : tensor<4x500xf32>) -> tensor<4x500xf32>
  %w4 = arith.constant dense<0.5> : tensor<4096x96xf32>
  %e4 = tensor.empty() : tensor<4x96xf32>
  %i4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x96xf32>) -> tensor<4x96xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x4096 by 4096x96}}
  %r4 = linalg.matmul ins(%d, %w4 : tensor<4x4096xf32>, tensor<4096x96xf32>) outs(%i4 : tensor<4x96xf32>) -> tensor<4x96xf32>
  %w5 = arith.constant dense<0.5> : tensor<2048x160xf32>
  %e5 = tensor.empty() : tensor<4x160xf32>
  %i5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<4x160xf32>) -> tensor<4x160xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x2048 by 2048x160}}
  %r5 = linalg.matmul ins(%f, %w5 : tensor<4x2048xf32>, tensor<2048x160xf32>) outs(%i5 : tensor<4x160xf32>) -> tensor<4x160xf32>
  return %r1, %r2, %r3, %r4, %r5 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x500xf32>, tensor<4x96xf32>, tensor<4x160xf32>
}

// Epilogues the fused call applies (tfaot_rt_mmt4d_f32_fused: lhs, rhs, m,
// n1, k, out, n, bias, residual, lo, hi, row_pixels, row_stride): a bias
// and ReLU (lo 0, hi +inf), then a bias, a residual and ReLU6 (lo 0, hi 6).
// A body the kernel cannot apply (a product by a constant) keeps the plain
// call and its generic.
// CALL-LABEL: func.func @epilogues
// CALL: %c0_i64 = arith.constant 0 : i64
// CALL-NEXT: %[[LO1:.*]] = arith.constant 0.000000e+00 : f32
// CALL-NEXT: %[[HI1:.*]] = arith.constant 0x7F800000 : f32
// CALL: call @tfaot_rt_mmt4d_f32_fused(%{{.*}}, %{{.*}}, %c4_i64, %c1_i64, %c3_i64, %{{.*}}, %c5_i64, %{{[0-9]+}}, %c0_i64, %[[LO1]], %[[HI1]], %c0_i64{{.*}}, %c0_i64{{.*}}) {tfaot.flop = 1536 : i64} : (i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, f32, i64, i64) -> ()
// CALL: %[[LO2:.*]] = arith.constant 0.000000e+00 : f32
// CALL-NEXT: %[[HI2:.*]] = arith.constant 6.000000e+00 : f32
// CALL: call @tfaot_rt_mmt4d_f32_fused(%{{.*}}, %{{.*}}, %c4_i64{{.*}}, %c1_i64{{.*}}, %c3_i64{{.*}}, %{{.*}}, %c5_i64{{.*}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[LO2]], %[[HI2]], %c0_i64{{.*}}, %c0_i64{{.*}})
// CALL: call @tfaot_rt_mmt4d_f32f32f32(
// CALL: linalg.generic
// CALL: arith.mulf
// CALL-NOT: linalg.mmt4d
#rows = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
func.func @epilogues(%a: tensor<4x3xf32>, %r: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %w = arith.constant dense<0.5> : tensor<3x5xf32>
  %bias = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x3 by 3x5}}
  %p1 = linalg.matmul ins(%a, %w : tensor<4x3xf32>, tensor<3x5xf32>) outs(%i : tensor<4x5xf32>) -> tensor<4x5xf32>
  %y1 = linalg.generic {indexing_maps = [#rows, #cols, #rows], iterator_types = ["parallel", "parallel"]} ins(%p1, %bias : tensor<4x5xf32>, tensor<5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%s: f32, %b: f32, %o: f32):
    %t = arith.addf %s, %b : f32
    %u = arith.maximumf %t, %zero : f32
    linalg.yield %u : f32
  } -> tensor<4x5xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x3 by 3x5}}
  %p2 = linalg.matmul ins(%a, %w : tensor<4x3xf32>, tensor<3x5xf32>) outs(%i : tensor<4x5xf32>) -> tensor<4x5xf32>
  %e2 = tensor.empty() : tensor<4x5xf32>
  %y2 = linalg.generic {indexing_maps = [#rows, #cols, #rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%p2, %bias, %r : tensor<4x5xf32>, tensor<5xf32>, tensor<4x5xf32>) outs(%e2 : tensor<4x5xf32>) {
  ^bb0(%s: f32, %b: f32, %res: f32, %o: f32):
    %t = arith.addf %s, %b : f32
    %v = arith.addf %t, %res : f32
    %u = arith.maximumf %v, %zero : f32
    %c = arith.minimumf %u, %six : f32
    linalg.yield %c : f32
  } -> tensor<4x5xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 4x3 by 3x5}}
  %p3 = linalg.matmul ins(%a, %w : tensor<4x3xf32>, tensor<3x5xf32>) outs(%i : tensor<4x5xf32>) -> tensor<4x5xf32>
  %e3 = tensor.empty() : tensor<4x5xf32>
  %y3 = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%p3 : tensor<4x5xf32>) outs(%e3 : tensor<4x5xf32>) {
  ^bb0(%s: f32, %o: f32):
    %t = arith.mulf %s, %two : f32
    linalg.yield %t : f32
  } -> tensor<4x5xf32>
  return %y1, %y2, %y3 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}

// The result bound (1 MiB by default) is for products whose result a
// generic of its own must read back: 1100 rows of 256 columns (1.1 MB)
// with 256 KiB of weights stay generated code alone, and qualify when an
// elementwise generic that only adds and clamps (the epilogue the kernel
// will apply) is their one reader; not when it does anything else (here a
// product by a constant).
// DEFAULT-LABEL: func.func @result_bound
// DEFAULT: linalg.matmul
// DEFAULT: linalg.mmt4d
// DEFAULT: linalg.matmul
// DEFAULT: arith.mulf
func.func @result_bound(%a: tensor<1100x256xf32>) -> (tensor<1100x256xf32>, tensor<1100x256xf32>, tensor<1100x256xf32>) {
  %w = arith.constant dense<0.5> : tensor<256x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1100x256xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1100x256xf32>) -> tensor<1100x256xf32>
  %p1 = linalg.matmul ins(%a, %w : tensor<1100x256xf32>, tensor<256x256xf32>) outs(%i : tensor<1100x256xf32>) -> tensor<1100x256xf32>
  // expected-remark @below {{[tfaot-cpu-f32-panel-products] matmul on the runtime's packed float32 kernel: 1100x256 by 256x256}}
  %p2 = linalg.matmul ins(%a, %w : tensor<1100x256xf32>, tensor<256x256xf32>) outs(%i : tensor<1100x256xf32>) -> tensor<1100x256xf32>
  %e2 = tensor.empty() : tensor<1100x256xf32>
  %y2 = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%p2 : tensor<1100x256xf32>) outs(%e2 : tensor<1100x256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %u = arith.maximumf %s, %zero : f32
    linalg.yield %u : f32
  } -> tensor<1100x256xf32>
  %two = arith.constant 2.0 : f32
  %p3 = linalg.matmul ins(%a, %w : tensor<1100x256xf32>, tensor<256x256xf32>) outs(%i : tensor<1100x256xf32>) -> tensor<1100x256xf32>
  %e3 = tensor.empty() : tensor<1100x256xf32>
  %y3 = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%p3 : tensor<1100x256xf32>) outs(%e3 : tensor<1100x256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %u = arith.mulf %s, %two : f32
    linalg.yield %u : f32
  } -> tensor<1100x256xf32>
  return %p1, %y2, %y3 : tensor<1100x256xf32>, tensor<1100x256xf32>, tensor<1100x256xf32>
}
