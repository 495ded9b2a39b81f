// RUN: tfaot-opt %s --tfaot-quantize-int8 -split-input-file | FileCheck %s

// Input range [0, 2.55]: scale 2.55 / 255 = 0.01, zero point
// round(-128 - 0 / 0.01) = -128. Column 0 of the 1x1 filter has max |w| 1.27,
// so its scale is 0.01 and [0.5, -1.27, 0.015] become [50, -127, 2] (1.5
// rounds half to even); column 1 is all zero, which gets scale 1 and zeros.
// The rescale is 0.01 * 0.01 = 1e-4 for column 0 and 0.01 for column 1.
// CHECK-LABEL: func.func @conv
// CHECK: %[[INV:.*]] = tfaot.Const dense<1.000000e+02> : tensor<f32>
// CHECK: %[[SCALED:.*]] = tfaot.Mul %arg0, %[[INV]]
// CHECK: %[[ROUNDED:.*]] = tfaot.Round %[[SCALED]]
// CHECK: %[[ZP:.*]] = tfaot.Const dense<-1.280000e+02> : tensor<f32>
// CHECK: %[[SHIFTED:.*]] = tfaot.AddV2 %[[ROUNDED]], %[[ZP]]
// CHECK: %[[LOW:.*]] = tfaot.Maximum %[[SHIFTED]]
// CHECK: %[[CLAMPED:.*]] = tfaot.Minimum %[[LOW]]
// CHECK: %[[Q:.*]] = tfaot.Cast %[[CLAMPED]] : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xi8>
// CHECK: %[[W:.*]] = tfaot.Const dense<{{\[\[\[\[}}50, 0], [-127, 0], [2, 0]]]]> : tensor<1x1x3x2xi8>
// CHECK: %[[ACC:.*]] = tfaot.Int8Conv2D %[[Q]], %[[W]] {input_zero_point = -128 : i32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x2x2x3xi8>, tensor<1x1x3x2xi8>) -> tensor<1x2x2x2xi32>
// CHECK: %[[F:.*]] = tfaot.Cast %[[ACC]] : (tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xf32>
// CHECK: %[[S:.*]] = tfaot.Const dense<[{{9.99999.*}}E-5, {{0.00999999|1.000000e-02}}{{.*}}]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = tfaot.Mul %[[F]], %[[S]]
// CHECK: %[[R:.*]] = tfaot.Relu %[[Y]]
// CHECK-NOT: tfaot.Conv2D
// CHECK: return %[[R]]
func.func @conv(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x2x2xf32> {
  %w = tfaot.Const dense<[[[[0.5, 0.0], [-1.27, 0.0], [0.015, 0.0]]]]> : tensor<1x1x3x2xf32>
  %y = tfaot.Conv2D %x, %w {padding = "SAME", strides = [1, 1, 1, 1], tfaot.quantize_range = [0.0 : f32, 2.55 : f32]} : (tensor<1x2x2x3xf32>, tensor<1x1x3x2xf32>) -> tensor<1x2x2x2xf32>
  %r = tfaot.Relu %y : tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// -----

// A range that excludes 0 is widened to include it: [1, 3] -> [0, 3], so
// the scale is 3 / 255 and the input is multiplied by 85.
// transpose_b weights are transposed at compile time: b is [N=2, K=2], so
// column 0 of the [K, N] int8 matrix is b's row 0, [1, 0.5] -> [127, 64]
// (63.5 rounds half to even), and column 1 is [-2, 2] -> [-127, 127].
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK: tfaot.Const dense<8.500000e+01> : tensor<f32>
// CHECK: tfaot.Const dense<-1.280000e+02> : tensor<f32>
// CHECK: %[[W:.*]] = tfaot.Const dense<{{\[\[}}127, -127], [64, 127]]> : tensor<2x2xi8>
// CHECK: tfaot.Int8MatMul %{{.*}}, %[[W]] {a_zero_point = -128 : i32} : (tensor<3x2xi8>, tensor<2x2xi8>) -> tensor<3x2xi32>
// CHECK-NOT: tfaot.MatMul
func.func @matmul_transpose_b(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = tfaot.Const dense<[[1.0, 0.5], [-2.0, 2.0]]> : tensor<2x2xf32>
  %p = tfaot.MatMul %a, %b {transpose_b = true, tfaot.quantize_range = [1.0 : f32, 3.0 : f32]} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %p : tensor<3x2xf32>
}

// -----

// Ops without the attribute stay float.
// CHECK-LABEL: func.func @unmarked
// CHECK: tfaot.MatMul
// CHECK-NOT: Int8
func.func @unmarked(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = tfaot.Const dense<1.0> : tensor<2x2xf32>
  %p = tfaot.MatMul %a, %b : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %p : tensor<3x2xf32>
}

// -----

// A depthwise convolution (multiplier 1): its weights are per channel over
// the 2x1 window, channel 0 [0.5, -1.0] -> scale 1/127 -> [64, -127]
// (63.5 rounds half to even), channel 1 [0.25, 0.125] -> scale 0.25/127 ->
// [127, 64]; the filter keeps its HWCM shape. Range [-1, 1]: scale 2/255,
// zero point round(-128 - (-1) / scale) = -1 (in float32 1 / scale is a
// hair above 127.5, so -0.5 does not come out exactly).
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[Q:.*]] = tfaot.Cast %{{.*}} : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xi8>
// CHECK: %[[W:.*]] = tfaot.Const dense<{{\[\[\[\[}}64], [127]]], {{\[\[\[}}-127], [64]]]]> : tensor<2x1x2x1xi8>
// CHECK: %[[ACC:.*]] = tfaot.Int8DepthwiseConv2D %[[Q]], %[[W]] {input_zero_point = -1 : i32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x3x3x2xi8>, tensor<2x1x2x1xi8>) -> tensor<1x2x3x2xi32>
// CHECK: %[[F:.*]] = tfaot.Cast %[[ACC]]
// CHECK: tfaot.Mul %[[F]]
// CHECK-NOT: tfaot.DepthwiseConv2dNative
func.func @depthwise(%x: tensor<1x3x3x2xf32>) -> tensor<1x2x3x2xf32> {
  %w = tfaot.Const dense<[[[[0.5], [0.25]]], [[[-1.0], [0.125]]]]> : tensor<2x1x2x1xf32>
  %y = tfaot.DepthwiseConv2dNative %x, %w {padding = "VALID", strides = [1, 1, 1, 1], tfaot.quantize_range = [-1.0 : f32, 1.0 : f32]} : (tensor<1x3x3x2xf32>, tensor<2x1x2x1xf32>) -> tensor<1x2x3x2xf32>
  return %y : tensor<1x2x3x2xf32>
}

// -----

// tfaot.quantize_weights_only: the weights become int8 per column as above
// ([[1, 0.5], [-2, 2]] -> column scales 2/127 and 2/127: [[64, 32],
// [-127, 127]]: 63.5 rounds half to even to 64, 31.75 to 32),
// the input stays float32 and the column scales follow the product.
// CHECK-LABEL: func.func @weights_only
// CHECK-NOT: tfaot.Round
// CHECK: %[[W:.*]] = tfaot.Const dense<{{\[\[}}64, 32], [-127, 127]]> : tensor<2x2xi8>
// CHECK: %[[P:.*]] = tfaot.Int8WeightMatMul %arg0, %[[W]] : (tensor<3x2xf32>, tensor<2x2xi8>) -> tensor<3x2xf32>
// CHECK: %[[S:.*]] = tfaot.Const dense<0.0157480{{[0-9]*}}> : tensor<2xf32>
// CHECK: %[[Y:.*]] = tfaot.Mul %[[P]], %[[S]]
// CHECK: return %[[Y]]
func.func @weights_only(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = tfaot.Const dense<[[1.0, 0.5], [-2.0, 2.0]]> : tensor<2x2xf32>
  %p = tfaot.MatMul %a, %b {tfaot.quantize_weights_only} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %p : tensor<3x2xf32>
}
