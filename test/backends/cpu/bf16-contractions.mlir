// Tests --tfaot-cpu-bf16-contractions (--precision=bf16): which products
// become bf16 x bf16 -> f32 linalg.mmt4d, their packed weights, and the
// rounding of the activations; then the call tfaot-cpu-int8-ukernels makes
// of the bufferized product.
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-cpu-bf16-contractions),canonicalize)' --mlir-print-elementsattrs-with-hex-if-larger=100000 2>&1 | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-cpu-bf16-contractions),canonicalize)' -verify-diagnostics -o /dev/null
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-cpu-bf16-contractions),canonicalize,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},tfaot-cpu-int8-ukernels)' 2>/dev/null | FileCheck %s --check-prefix=CALL

// The im2col reads of @conv3x3 and @stem below (maps print first).
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3, d2 * 8 + d4)>
// CHECK-DAG: #[[STEM:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3, d2 * 6 + d4)>

// A matrix product [2, 3] x [3, 5]: K = 3 is padded to 4 (K1 = 2), N = 5 to
// one tile of 16. W[k][n] = k * 5 + n + 1, i.e. rows (1..5), (6..10),
// (11..15), so packed [1][2][16][2] column j of tile 0 holds the k pairs
// (W[0][j], W[1][j]) then (W[2][j], 0): bf16 1.0 = 0x3F80, 6.0 = 0x40C0,
// 2.0 = 0x4000, 7.0 = 0x40E0, 11.0 = 0x4130; padding columns are zero.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 6.000000e+00], [2.000000e+00, 7.000000e+00], [3.000000e+00, 8.000000e+00], [4.000000e+00, 9.000000e+00], [5.000000e+00, 1.000000e+01], [0.000000e+00, 0.000000e+00]{{.*}}{{\]\]}}, {{\[\[}}1.100000e+01, 0.000000e+00], [1.200000e+01, 0.000000e+00], [1.300000e+01, 0.000000e+00], [1.400000e+01, 0.000000e+00], [1.500000e+01, 0.000000e+00], [0.000000e+00, 0.000000e+00]{{.*}} : tensor<1x2x16x2xbf16>
// The activations are rounded by one generic, then padded: arith.truncf
// expanded to integer arithmetic on the bits (no libcall in the object).
// CHECK: %[[ROWS:.*]] = linalg.generic
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK: %[[PADDED:.*]] = tensor.pad %[[ROWS]] low[0, 0] high[0, 1]
// CHECK: %[[LHS:.*]] = tensor.expand_shape %[[PADDED]] {{\[\[}}0], [1, 2, 3]] output_shape [2, 2, 1, 2] : tensor<2x4xbf16> into tensor<2x2x1x2xbf16>
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<2x1x1x16xf32>
// CHECK: %[[TILED:.*]] = linalg.mmt4d ins(%[[LHS]], %[[W]] : tensor<2x2x1x2xbf16>, tensor<1x2x16x2xbf16>) outs(%[[ZERO]] : tensor<2x1x1x16xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[TILED]] {{\[\[}}0], [1, 2, 3]] : tensor<2x1x1x16xf32> into tensor<2x16xf32>
// CHECK: tensor.extract_slice %[[FLAT]][0, 0] [2, 5] [1, 1] : tensor<2x16xf32> to tensor<2x5xf32>
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<3x5xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x5xf32>) -> tensor<2x5xf32>
  // expected-remark @below {{[tfaot-cpu-bf16-contractions] matmul in bf16: 2x3 by 3x5}}
  %r = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x5xf32>) outs(%init : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}

// Weights are rounded to the nearest bf16, ties to even: 1 + 2^-8
// (1.00390625) is halfway between 1 and 1 + 2^-7 and goes to 1;
// 1 + 3 * 2^-8 (1.01171875) goes to 1 + 2^-6 (1.015625); 1.00390637 (just
// above the first halfway point) to 1 + 2^-7 (1.0078125).
// CHECK-LABEL: func.func @rounding
// CHECK: arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.015630e+00], [1.007810e+00, 0.000000e+00]
func.func @rounding(%a: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[1.00390625, 1.00390637], [1.01171875, 0.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2xf32>) -> tensor<1x2xf32>
  // expected-remark @below {{[tfaot-cpu-bf16-contractions] matmul in bf16: 1x2 by 2x2}}
  %r = linalg.matmul ins(%a, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// A 3x3 stride-2 convolution of a [1, 7, 7, 4] input into [1, 3, 3, 16]:
// im2col rows [9, 36] (K = 3 * 3 * 4, even: no pad), rounded as they are
// copied. A window row (kw, c) is 12 contiguous values of the input seen
// as [1, 7, 28]: loops (n, oh, ow, kh, j) read it at (oh * 2 + kh,
// ow * 8 + j). N = 16 is one tile; the [9, 16] product is the NHWC result
// after an expand_shape.
// CHECK-LABEL: func.func @conv3x3
// CHECK: %[[WIDE:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x7x7x4xf32> into tensor<1x7x28xf32>
// CHECK: linalg.generic {indexing_maps = [#[[READ]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[WIDE]] : tensor<1x7x28xf32>) outs(%{{.*}} : tensor<1x3x3x3x12xbf16>)
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3, 4]] : tensor<1x3x3x3x12xbf16> into tensor<9x36xbf16>
// CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<9x18x1x2xbf16>, tensor<1x18x16x2xbf16>) outs(%{{.*}} : tensor<9x1x1x16xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 3, 3, 16] : tensor<9x16xf32> into tensor<1x3x3x16xf32>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
func.func @conv3x3(%x: tensor<1x7x7x4xf32>) -> tensor<1x3x3x16xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x4x16xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x3x3x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x3x3x16xf32>) -> tensor<1x3x3x16xf32>
  // expected-remark @below {{[tfaot-cpu-bf16-contractions] conv_2d_nhwc_hwcf in bf16: 9x36 by 36x16}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x7x4xf32>, tensor<3x3x4x16xf32>) outs(%init : tensor<1x3x3x16xf32>) -> tensor<1x3x3x16xf32>
  return %r : tensor<1x3x3x16xf32>
}

// ResNet's stem, 7x7 stride 2 over 3 channels: K = 147 is odd. The rows go
// straight into the [9, 148] operand: its last column is zeroed on its own
// and the rounding generic writes the other 147 through a view, with no
// padded copy of the matrix.
// CHECK-LABEL: func.func @stem
// CHECK: %[[WIDE:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x11x11x3xf32> into tensor<1x11x33xf32>
// CHECK: %[[ROWS:.*]] = tensor.empty() : tensor<9x148xbf16>
// CHECK: %[[PADCOL:.*]] = tensor.extract_slice %[[ROWS]][0, 147] [9, 1] [1, 1]
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : bf16) outs(%[[PADCOL]] : tensor<9x1xbf16>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %[[ZEROS]] into %[[ROWS]][0, 147] [9, 1] [1, 1]
// CHECK: %[[INNER:.*]] = tensor.extract_slice %[[PADDED]][0, 0] [9, 147] [1, 1]
// CHECK: %[[WINDOWS:.*]] = tensor.expand_shape %[[INNER]] {{\[\[}}0, 1, 2], [3, 4]] output_shape [1, 3, 3, 7, 21]
// CHECK: %[[PATCHES:.*]] = linalg.generic {indexing_maps = [#[[STEM]], #{{.*}}], {{.*}} ins(%[[WIDE]] : tensor<1x11x33xf32>) outs(%[[WINDOWS]] : tensor<1x3x3x7x21xbf16>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[PATCHES]] {{\[\[}}0, 1, 2], [3, 4]] : tensor<1x3x3x7x21xbf16> into tensor<9x147xbf16>
// CHECK: %[[LHS:.*]] = tensor.insert_slice %[[FLAT]] into %[[PADDED]][0, 0] [9, 147] [1, 1]
// CHECK-NOT: tensor.pad
// CHECK: tensor.expand_shape %[[LHS]] {{\[\[}}0], [1, 2, 3]] output_shape [9, 74, 1, 2]
// CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<9x74x1x2xbf16>, tensor<1x74x16x2xbf16>)
func.func @stem(%x: tensor<1x11x11x3xf32>) -> tensor<1x3x3x16xf32> {
  %w = arith.constant dense<0.5> : tensor<7x7x3x16xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x3x3x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x3x3x16xf32>) -> tensor<1x3x3x16xf32>
  // expected-remark @below {{[tfaot-cpu-bf16-contractions] conv_2d_nhwc_hwcf in bf16: 9x147 by 147x16}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x11x11x3xf32>, tensor<7x7x3x16xf32>) outs(%init : tensor<1x3x3x16xf32>) -> tensor<1x3x3x16xf32>
  return %r : tensor<1x3x3x16xf32>
}

// A 1x1 stride-1 convolution reads its input as rows: no im2col, one
// rounding generic over [M, C].
// CHECK-LABEL: func.func @pointwise
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x4x4x8xf32> into tensor<16x8xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<16x8xf32>) outs(%{{.*}} : tensor<16x8xbf16>)
// CHECK: linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<16x4x1x2xbf16>, tensor<2x4x16x2xbf16>)
func.func @pointwise(%x: tensor<1x4x4x8xf32>) -> tensor<1x4x4x32xf32> {
  %w = arith.constant dense<0.25> : tensor<1x1x8x32xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x4x4x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  // expected-remark @below {{[tfaot-cpu-bf16-contractions] conv_2d_nhwc_hwcf in bf16: 16x8 by 8x32}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x4x4x8xf32>, tensor<1x1x8x32xf32>) outs(%init : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %r : tensor<1x4x4x32xf32>
}

// Products of two activations, weights that are not constants and
// products that start from something other than zero stay float32.
// CHECK-LABEL: func.func @stays_fp32
// CHECK-NOT: bf16
// CHECK-COUNT-2: linalg.matmul
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.mmt4d
func.func @stays_fp32(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %x: tensor<1x4x4x8xf32>, %start: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<1x4x4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x5xf32>) -> tensor<2x5xf32>
  %r1 = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x5xf32>) outs(%init : tensor<2x5xf32>) -> tensor<2x5xf32>
  %w = arith.constant dense<1.0> : tensor<3x5xf32>
  %r2 = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x5xf32>) outs(%start : tensor<2x5xf32>) -> tensor<2x5xf32>
  %cw = arith.constant dense<0.25> : tensor<1x1x8x32xf32>
  %cempty = tensor.empty() : tensor<1x4x4x32xf32>
  %one = arith.constant 1.0 : f32
  %cinit = linalg.fill ins(%one : f32) outs(%cempty : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  %r3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %cw : tensor<1x4x4x8xf32>, tensor<1x1x8x32xf32>) outs(%cinit : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %r1, %r2, %r3 : tensor<2x5xf32>, tensor<2x5xf32>, tensor<1x4x4x32xf32>
}

// Bufferized, the product after its zero fill is the runtime's bf16 kernel
// told to overwrite: (lhs, rhs, out, M = 2, N1 = 1, K1 = 2, flags = 1),
// marked with its floating-point operations for the profile (2 x 2 rows x
// 16 columns x 4 k, padding included).
// CALL-LABEL: func.func @matmul
// CALL-NOT: linalg.mmt4d
// CALL: %[[M:.*]] = arith.constant 2 : i64
// CALL: %[[N1:.*]] = arith.constant 1 : i64
// CALL: %[[K1:.*]] = arith.constant 2 : i64
// CALL: %[[FLAGS:.*]] = arith.constant 1 : i32
// CALL: call @tfaot_rt_mmt4d_bf16bf16f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %[[N1]], %[[K1]], %[[FLAGS]]) {tfaot.flop = 256 : i64} : (i64, i64, i64, i64, i64, i64, i32) -> ()
// CALL: func.func private @tfaot_rt_mmt4d_bf16bf16f32(i64, i64, i64, i64, i64, i64, i32)
