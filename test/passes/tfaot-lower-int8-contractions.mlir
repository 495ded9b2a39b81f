// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-lower-int8-contractions))' | FileCheck %s

// K = 3 is padded to 4 with a zero column; the weights [[1, 2], [3, 4],
// [5, 6]] are packed as [N/16 = 1, K/4 = 1, 16, 4]: lane 0 holds column 0's
// four k values [1, 3, 5, 0], lane 1 column 1's [2, 4, 6, 0], the other 14
// lanes (padding columns) zeros. The zero-point term is zp * column sums =
// 2 * [9, 12] = [18, 24].
// CHECK-DAG: #[[TILES:.*]] = affine_map<(d0, d1) -> (d0, d1 floordiv 16, 0, d1 mod 16)>
// CHECK-DAG: #[[COLUMN:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @matmul
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0] high[0, 1]
// CHECK: tensor.yield %c0_i8
// CHECK: %[[LHS:.*]] = tensor.expand_shape %[[PADDED]] {{\[\[}}0], [1, 2, 3]] output_shape [2, 1, 1, 4] : tensor<2x4xi8> into tensor<2x1x1x4xi8>
// CHECK: %[[RHS:.*]] = arith.constant dense<{{\[\[\[\[}}1, 3, 5, 0], [2, 4, 6, 0], [0, 0, 0, 0],
// CHECK-SAME: tensor<1x1x16x4xi8>
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK: %[[TILED:.*]] = linalg.mmt4d ins(%[[LHS]], %[[RHS]] : tensor<2x1x1x4xi8>, tensor<1x1x16x4xi8>) outs(%[[ZERO]] : tensor<2x1x1x16xi32>)
// CHECK: %[[CORRECTION:.*]] = arith.constant dense<[18, 24]> : tensor<2xi32>
// CHECK: linalg.generic {indexing_maps = [#[[TILES]], #[[COLUMN]], #{{.*}}]{{.*}} ins(%[[TILED]], %[[CORRECTION]]
// CHECK: arith.subi
func.func @matmul(%a: tensor<2x3xi8>) -> tensor<2x2xi32> {
  %b = tfaot.Const dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
  %p = tfaot.Int8MatMul %a, %b {a_zero_point = 2 : i32} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  return %p : tensor<2x2xi32>
}

// SAME padding of a 2x2 window pads one row and column after, with the zero
// point (-3), so padded taps contribute (zp - zp) * w = 0. The im2col copy
// reads the padded input at (oh + kh, ow + kw); its [9, 4] rows need no K
// padding. Zero-point term: -3 * (1 + 2 + 3 + 4) = -30.
// CHECK-LABEL: func.func @conv
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %c-3_i8
// CHECK: %[[PATCHES:.*]] = linalg.generic {{.*}} ins(%[[PADDED]] : tensor<1x4x4x1xi8>) outs(%{{.*}} : tensor<1x3x3x2x2x1xi8>)
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[PATCHES]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<1x3x3x2x2x1xi8> into tensor<9x4xi8>
// CHECK: %[[LHS:.*]] = tensor.expand_shape %[[ROWS]]
// CHECK: arith.constant dense<{{\[\[\[\[}}1, 2, 3, 4], [0, 0, 0, 0],
// CHECK: linalg.mmt4d ins(%[[LHS]], %{{.*}} : tensor<9x1x1x4xi8>, tensor<1x1x16x4xi8>)
// CHECK: arith.constant dense<-30> : tensor<1xi32>
// CHECK: %[[PRODUCT:.*]] = linalg.generic
// CHECK: tensor.expand_shape %[[PRODUCT]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 3, 3, 1] : tensor<9x1xi32> into tensor<1x3x3x1xi32>
func.func @conv(%x: tensor<1x3x3x1xi8>) -> tensor<1x3x3x1xi32> {
  %w = tfaot.Const dense<[[[[1]], [[2]]], [[[3]], [[4]]]]> : tensor<2x2x1x1xi8>
  %y = tfaot.Int8Conv2D %x, %w {input_zero_point = -3 : i32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xi8>, tensor<2x2x1x1xi8>) -> tensor<1x3x3x1xi32>
  return %y : tensor<1x3x3x1xi32>
}

// A 1x1 stride-1 convolution reads its input as the rows directly.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: linalg.generic {{.*}}tensor<1x2x2x4xi8>) outs
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2], [3]] : tensor<1x2x2x4xi8> into tensor<4x4xi8>
// CHECK: tensor.expand_shape %[[ROWS]]
// CHECK: linalg.mmt4d
func.func @pointwise(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x3xi32> {
  %w = tfaot.Const dense<1> : tensor<1x1x4x3xi8>
  %y = tfaot.Int8Conv2D %x, %w {input_zero_point = 0 : i32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x4xi8>, tensor<1x1x4x3xi8>) -> tensor<1x2x2x3xi32>
  return %y : tensor<1x2x2x3xi32>
}
