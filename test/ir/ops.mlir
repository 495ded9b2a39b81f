// RUN: tfaot-opt %s | tfaot-opt | FileCheck %s
// Round trip: every op prints in a form that parses back to the same op.

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
func.func @mlp(%x: tensor<2x4xf32>) -> tensor<2xi64> {
  // CHECK: %[[W:.*]] = tfaot.Const dense<1.000000e+00> : tensor<4x3xf32>
  %w = tfaot.Const dense<1.0> : tensor<4x3xf32>
  // CHECK: %[[B:.*]] = tfaot.Const dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
  %b = tfaot.Const dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  // CHECK: %[[MM:.*]] = tfaot.MatMul %[[X]], %[[W]] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %mm = tfaot.MatMul %x, %w {transpose_a = false, transpose_b = false} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[BA:.*]] = tfaot.BiasAdd %[[MM]], %[[B]] :
  %ba = tfaot.BiasAdd %mm, %b {data_format = "NHWC"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: tfaot.Relu %[[BA]] : tensor<2x3xf32>
  %r = tfaot.Relu %ba : tensor<2x3xf32>
  // CHECK: tfaot.MatMul {{.*}} {transpose_a = true} :
  %mmt = tfaot.MatMul %x, %x {transpose_a = true, transpose_b = false} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  // CHECK: tfaot.Relu6
  %r6 = tfaot.Relu6 %r : tensor<2x3xf32>
  // CHECK: tfaot.Sigmoid
  %s = tfaot.Sigmoid %r6 : tensor<2x3xf32>
  // CHECK: tfaot.Tanh
  %t = tfaot.Tanh %s : tensor<2x3xf32>
  // CHECK: tfaot.Softmax
  %sm = tfaot.Softmax %t : tensor<2x3xf32>
  // CHECK: tfaot.AddV2 {{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %a = tfaot.AddV2 %sm, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: tfaot.Sub
  %sub = tfaot.Sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: tfaot.Mul
  %mul = tfaot.Mul %sub, %sub : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: tfaot.RealDiv
  %div = tfaot.RealDiv %mul, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: tfaot.Maximum
  %max = tfaot.Maximum %div, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: tfaot.Minimum
  %min = tfaot.Minimum %max, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: tfaot.Identity {{.*}} : tensor<2x3xf32>
  %id = tfaot.Identity %min : tensor<2x3xf32>
  %shape = tfaot.Const dense<[3, 2]> : tensor<2xi32>
  // CHECK: tfaot.Reshape {{.*}} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %rs = tfaot.Reshape %id, %shape : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  // CHECK: tfaot.Cast {{.*}} {Truncate = true} : (tensor<3x2xf32>) -> tensor<3x2xui8>
  %c = tfaot.Cast %rs {Truncate = true} : (tensor<3x2xf32>) -> tensor<3x2xui8>
  %axis = tfaot.Const dense<0> : tensor<i32>
  // CHECK: tfaot.ArgMax {{.*}} : (tensor<3x2xui8>, tensor<i32>) -> tensor<2xi64>
  %am = tfaot.ArgMax %c, %axis : (tensor<3x2xui8>, tensor<i32>) -> tensor<2xi64>
  return %am : tensor<2xi64>
}
