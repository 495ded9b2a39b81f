// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-lower-int8-contractions))' | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-lower-int8-contractions{product=matmul}))' | FileCheck %s --check-prefix=MATMUL
// RUN: not tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-lower-int8-contractions{product=gemm}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tfaot-lower-int8-contractions: product must be mmt4d or matmul, not 'gemm'

// product=matmul (the GPU backend's form): rows [M, K4] by the weights
// transposed to [N, K4] (K4 = K rounded up to 4, zero weights past K) in a
// linalg.matmul whose B map is (n, k), from the zero-point row broadcast to
// [M, N] (a zero fill when the zero point is 0); no N padding and no slice.
// MATMUL-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// MATMUL-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// MATMUL-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// MATMUL-LABEL: func.func @matmul
// MATMUL: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0] high[0, 1]
// MATMUL: %[[WT:.*]] = arith.constant dense<{{\[\[}}1, 3, 5, 0], [2, 4, 6, 0]]> : tensor<2x4xi8>
// MATMUL: %[[ROW:.*]] = arith.constant dense<[-18, -24]> : tensor<2xi32>
// MATMUL: %[[INIT:.*]] = linalg.broadcast ins(%[[ROW]] : tensor<2xi32>) outs(%{{.*}} : tensor<2x2xi32>) dimensions = [0]
// MATMUL: %[[P:.*]] = linalg.matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[PADDED]], %[[WT]] : tensor<2x4xi8>, tensor<2x4xi8>) outs(%[[INIT]] : tensor<2x2xi32>)
// MATMUL-NEXT: return %[[P]]
// The GPU form reads the padding as it goes: no tensor.pad, the im2col
// yields the zero point where the window leaves the 3x3 input.
// MATMUL-LABEL: func.func @conv
// MATMUL-NOT: tensor.pad
// MATMUL: %[[ZP:.*]] = arith.constant -3 : i8
// MATMUL: %[[PATCHES:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x3x2x2x1xi8>)
// MATMUL: %[[X:.*]] = tensor.extract %arg0
// MATMUL: %[[V:.*]] = arith.select %{{.*}}, %[[X]], %[[ZP]] : i8
// MATMUL: linalg.yield %[[V]]
// MATMUL: %[[ROWS:.*]] = tensor.collapse_shape %[[PATCHES]] {{.*}} : tensor<1x3x3x2x2x1xi8> into tensor<9x4xi8>
// MATMUL: %[[WT:.*]] = arith.constant dense<{{\[\[}}1, 2, 3, 4]]> : tensor<1x4xi8>
// MATMUL: arith.constant dense<30> : tensor<1xi32>
// MATMUL: %[[P:.*]] = linalg.matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[ROWS]], %[[WT]] : tensor<9x4xi8>, tensor<1x4xi8>)
// MATMUL: tensor.expand_shape %[[P]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 3, 3, 1]
// MATMUL-LABEL: func.func @pointwise
// MATMUL: %[[ROWS:.*]] = tensor.collapse_shape %arg0
// MATMUL: %[[ZERO:.*]] = linalg.fill ins(%c0_i32 : i32) outs(%{{.*}} : tensor<4x3xi32>)
// MATMUL: linalg.matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[ROWS]], %{{.*}} : tensor<4x4xi8>, tensor<3x4xi8>) outs(%[[ZERO]] : tensor<4x3xi32>)
// MATMUL-LABEL: func.func @depthwise
// MATMUL: linalg.depthwise_conv_2d_nhwc_hwc

// K = 3 is padded to 4 with a zero column; the weights [[1, 2], [3, 4],
// [5, 6]] are packed as [N/16 = 1, K/4 = 1, 16, 4]: lane 0 holds column 0's
// four k values [1, 3, 5, 0], lane 1 column 1's [2, 4, 6, 0], the other 14
// lanes (padding columns) zeros. The zero-point term -zp * column sums =
// -2 * [9, 12] = [-18, -24] is the product's initial row, broadcast to
// every row; the padding columns are sliced off at the end.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0] high[0, 1]
// CHECK: tensor.yield %c0_i8
// CHECK: %[[LHS:.*]] = tensor.expand_shape %[[PADDED]] {{\[\[}}0], [1, 2, 3]] output_shape [2, 1, 1, 4] : tensor<2x4xi8> into tensor<2x1x1x4xi8>
// CHECK: %[[RHS:.*]] = arith.constant dense<{{\[\[\[\[}}1, 3, 5, 0], [2, 4, 6, 0], [0, 0, 0, 0],
// CHECK-SAME: tensor<1x1x16x4xi8>
// CHECK: %[[ROW:.*]] = arith.constant dense<{{\[\[}}-18, -24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x16xi32>
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[ROW]] : tensor<1x16xi32>) outs(%{{.*}} : tensor<2x1x1x16xi32>) dimensions = [0, 2]
// CHECK: %[[TILED:.*]] = linalg.mmt4d ins(%[[LHS]], %[[RHS]] : tensor<2x1x1x4xi8>, tensor<1x1x16x4xi8>) outs(%[[INIT]] : tensor<2x1x1x16xi32>)
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[TILED]] {{\[\[}}0], [1, 2, 3]] : tensor<2x1x1x16xi32> into tensor<2x16xi32>
// CHECK: %[[RESULT:.*]] = tensor.extract_slice %[[ROWS]][0, 0] [2, 2] [1, 1]
// CHECK: return %[[RESULT]]
func.func @matmul(%a: tensor<2x3xi8>) -> tensor<2x2xi32> {
  %b = tfaot.Const dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
  %p = tfaot.Int8MatMul %a, %b {a_zero_point = 2 : i32} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  return %p : tensor<2x2xi32>
}

// SAME padding of a 2x2 window pads one row and column after, with the zero
// point (-3), so padded taps contribute (zp - zp) * w = 0. The im2col copy
// reads the padded input at (oh + kh, ow + kw); its [9, 4] rows need no K
// padding. Initial row: -zp * (1 + 2 + 3 + 4) = 30.
// CHECK-LABEL: func.func @conv
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %c-3_i8
// CHECK: %[[PATCHES:.*]] = linalg.generic {{.*}} ins(%[[PADDED]] : tensor<1x4x4x1xi8>) outs(%{{.*}} : tensor<1x3x3x2x2x1xi8>)
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[PATCHES]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<1x3x3x2x2x1xi8> into tensor<9x4xi8>
// CHECK: %[[LHS:.*]] = tensor.expand_shape %[[ROWS]]
// CHECK: arith.constant dense<{{\[\[\[\[}}1, 2, 3, 4], [0, 0, 0, 0],
// CHECK: arith.constant dense<{{\[\[}}30, 0,
// CHECK: linalg.mmt4d ins(%[[LHS]], %{{.*}} : tensor<9x1x1x4xi8>, tensor<1x1x16x4xi8>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice
// CHECK: tensor.expand_shape %[[SLICE]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 3, 3, 1] : tensor<9x1xi32> into tensor<1x3x3x1xi32>
func.func @conv(%x: tensor<1x3x3x1xi8>) -> tensor<1x3x3x1xi32> {
  %w = tfaot.Const dense<[[[[1]], [[2]]], [[[3]], [[4]]]]> : tensor<2x2x1x1xi8>
  %y = tfaot.Int8Conv2D %x, %w {input_zero_point = -3 : i32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xi8>, tensor<2x2x1x1xi8>) -> tensor<1x3x3x1xi32>
  return %y : tensor<1x3x3x1xi32>
}

// A 1x1 stride-1 convolution reads its input as the rows directly; with a
// zero point of 0 the product starts from zeros.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: linalg.generic {{.*}}tensor<1x2x2x4xi8>) outs
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2], [3]] : tensor<1x2x2x4xi8> into tensor<4x4xi8>
// CHECK: tensor.expand_shape %[[ROWS]]
// CHECK: linalg.fill
// CHECK: linalg.mmt4d
func.func @pointwise(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x3xi32> {
  %w = tfaot.Const dense<1> : tensor<1x1x4x3xi8>
  %y = tfaot.Int8Conv2D %x, %w {input_zero_point = 0 : i32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x4xi8>, tensor<1x1x4x3xi8>) -> tensor<1x2x2x3xi32>
  return %y : tensor<1x2x2x3xi32>
}

// A depthwise convolution stays one, on the input padded with the zero
// point (SAME 3x3 stride 1: one row and column on each side) and the
// filter as [KH, KW, C]; every output starts from -zp * (the channel's
// filter sum): -5 * (1 + ... + 9) = -225 and -5 * (-9) = 45.
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[ZP:.*]] = arith.constant 5 : i8
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[ZP]]
// CHECK: %[[FILTER:.*]] = arith.constant dense<{{.*}}> : tensor<3x3x2xi8>
// CHECK: %[[ROW:.*]] = arith.constant dense<[-225, 45]> : tensor<2xi32>
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[ROW]] : tensor<2xi32>) outs(%{{.*}} : tensor<1x4x4x2xi32>) dimensions = [0, 1, 2]
// CHECK: %[[OUT:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[PADDED]], %[[FILTER]] : tensor<1x6x6x2xi8>, tensor<3x3x2xi8>) outs(%[[INIT]] : tensor<1x4x4x2xi32>)
// CHECK: return %[[OUT]]
func.func @depthwise(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi32> {
  %w = tfaot.Const dense<[[[[1], [-1]], [[2], [-1]], [[3], [-1]]], [[[4], [-1]], [[5], [-1]], [[6], [-1]]], [[[7], [-1]], [[8], [-1]], [[9], [-1]]]]> : tensor<3x3x2x1xi8>
  %y = tfaot.Int8DepthwiseConv2D %x, %w {input_zero_point = 5 : i32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xi8>, tensor<3x3x2x1xi8>) -> tensor<1x4x4x2xi32>
  return %y : tensor<1x4x4x2xi32>
}

// A weight-only product (float32 rows, int8 weights) is the same in both
// forms: a zero fill and a generic over (m, n, k) summing a * float(b).
// CHECK-LABEL: func.func @weights_only
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4x5xi8>) outs(%[[FILL]] : tensor<3x5xf32>)
// CHECK: %[[W:.*]] = arith.sitofp %{{.*}} : i8 to f32
// CHECK: %[[T:.*]] = arith.mulf %{{.*}}, %[[W]] : f32
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[T]] : f32
// CHECK: linalg.yield %[[S]] : f32
// MATMUL-LABEL: func.func @weights_only
// MATMUL: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4x5xi8>)
func.func @weights_only(%a: tensor<3x4xf32>, %b: tensor<4x5xi8>) -> tensor<3x5xf32> {
  %p = tfaot.Int8WeightMatMul %a, %b : (tensor<3x4xf32>, tensor<4x5xi8>) -> tensor<3x5xf32>
  return %p : tensor<3x5xf32>
}
