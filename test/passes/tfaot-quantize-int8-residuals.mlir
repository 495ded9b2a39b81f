// RUN: tfaot-opt %s --tfaot-quantize-int8=residuals=true -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-quantize-int8 -split-input-file | FileCheck %s --check-prefix=FLOAT

// A residual block: %x is the first 1x1's input and the shortcut of the
// addition after the second. With `residuals` the addition reads %x as the
// first layer quantized it, dequantized: range [0, 2.55] gives scale 0.01
// and zero point -128, so (Cast(q) - (-128)) * 0.01.
// CHECK-LABEL: func.func @block
// CHECK: %[[Q:.*]] = tfaot.Cast %{{.*}} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xi8>
// CHECK: %[[QF:.*]] = tfaot.Cast %[[Q]] : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xf32>
// CHECK: %[[ZP:.*]] = tfaot.Const dense<-1.280000e+02> : tensor<f32>
// CHECK: %[[C:.*]] = tfaot.Sub %[[QF]], %[[ZP]]
// CHECK: %[[S:.*]] = tfaot.Const dense<0.00999999977> : tensor<f32>
// CHECK: %[[D:.*]] = tfaot.Mul %[[C]], %[[S]]
// CHECK: tfaot.Int8Conv2D %[[Q]]
// CHECK: %[[SUM:.*]] = tfaot.AddV2 %{{.*}}, %[[D]]
// CHECK: tfaot.Relu %[[SUM]]
// The float input is read only to be quantized.
// FLOAT-LABEL: func.func @block
// FLOAT-NOT: tfaot.Sub
// FLOAT: tfaot.AddV2 %{{.*}}, %arg0
func.func @block(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w1 = tfaot.Const dense<[[[[0.5, 0.25], [-1.0, 0.75]]]]> : tensor<1x1x2x2xf32>
  %h = tfaot.Conv2D %x, %w1 {padding = "SAME", strides = [1, 1, 1, 1], tfaot.quantize_range = [0.0 : f32, 2.55 : f32]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r1 = tfaot.Relu %h : tensor<1x2x2x2xf32>
  %w2 = tfaot.Const dense<[[[[1.0, -0.5], [0.25, 2.0]]]]> : tensor<1x1x2x2xf32>
  %y = tfaot.Conv2D %r1, %w2 {padding = "SAME", strides = [1, 1, 1, 1], tfaot.quantize_range = [0.0 : f32, 4.0 : f32]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  %sum = tfaot.AddV2 %y, %x : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %out = tfaot.Relu %sum : tensor<1x2x2x2xf32>
  return %out : tensor<1x2x2x2xf32>
}

// -----

// Additions of a constant (a bias) and additions before the layer that
// quantizes %x keep reading the float value.
// CHECK-LABEL: func.func @not_residuals
// CHECK-NOT: tfaot.Sub
// CHECK: %[[EARLY:.*]] = tfaot.AddV2 %arg0, %arg1
// CHECK: tfaot.Int8MatMul
// CHECK: tfaot.AddV2 %arg0, %{{.*}} :
// CHECK-NOT: tfaot.Sub
func.func @not_residuals(%x: tensor<3x2xf32>, %z: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %early = tfaot.AddV2 %x, %z : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %b = tfaot.Const dense<1.0> : tensor<2x2xf32>
  %p = tfaot.MatMul %x, %b {tfaot.quantize_range = [0.0 : f32, 2.55 : f32]} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %c = tfaot.Const dense<0.5> : tensor<3x2xf32>
  %biased = tfaot.AddV2 %x, %c : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %early, %p, %biased : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}
