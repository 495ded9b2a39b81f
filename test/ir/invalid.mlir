// RUN: tfaot-opt %s -split-input-file -verify-diagnostics
// Every verifier message has a case here.

func.func @broadcast(%x: tensor<2x3xf32>, %y: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{operand shapes 'tensor<2x3xf32>' and 'tensor<4xf32>' are not broadcast-compatible}}
  %0 = tfaot.Add %x, %y : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_result(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{does not match the broadcast of}}
  %0 = tfaot.Mul %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @element_types(%x: tensor<2xf32>, %y: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error@+1 {{all of {x, y, z} have same element type}}
  %0 = tfaot.Sub %x, %y : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @matmul_inner(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{inner dimensions do not match}}
  %0 = tfaot.MatMul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_rank(%a: tensor<3xf32>, %b: tensor<3x5xf32>) -> tensor<1x5xf32> {
  // expected-error@+1 {{operands must be 2-D matrices}}
  %0 = tfaot.MatMul %a, %b : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

func.func @matmul_transposed(%a: tensor<3x2xf32>, %b: tensor<5x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{result type 'tensor<2x3xf32>' does not match the product shape}}
  %0 = tfaot.MatMul %a, %b {transpose_a = true, transpose_b = true} : (tensor<3x2xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @bias_format(%v: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{data_format must be "NHWC" or "NCHW", got "NWHC"}}
  %0 = tfaot.BiasAdd %v, %b {data_format = "NWHC"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @bias_channels(%v: tensor<1x3x4x5xf32>, %b: tensor<5xf32>) -> tensor<1x3x4x5xf32> {
  // expected-error@+1 {{bias has 5 elements but value has 3 channels (NCHW)}}
  %0 = tfaot.BiasAdd %v, %b {data_format = "NCHW"} : (tensor<1x3x4x5xf32>, tensor<5xf32>) -> tensor<1x3x4x5xf32>
  return %0 : tensor<1x3x4x5xf32>
}

// -----

func.func @bias_rank(%v: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{bias must be 1-D}}
  %0 = tfaot.BiasAdd %v, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<4x2xf32> {
  %s = tfaot.Const dense<[4, 2]> : tensor<2xi32>
  // expected-error@+1 {{cannot reshape 6 elements into 'tensor<4x2xf32>'}}
  %0 = tfaot.Reshape %x, %s : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @reshape_two_unknown(%x: tensor<2x3xf32>) -> tensor<6x1xf32> {
  %s = tfaot.Const dense<[-1, -1]> : tensor<2xi32>
  // expected-error@+1 {{only one dimension of the new shape may be -1}}
  %0 = tfaot.Reshape %x, %s : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<6x1xf32>
  return %0 : tensor<6x1xf32>
}

// -----

func.func @reshape_shape_rank(%x: tensor<2x3xf32>, %s: tensor<3xi32>) -> tensor<6xf32> {
  // expected-error@+1 {{shape has 3 elements but the result has rank 1}}
  %0 = tfaot.Reshape %x, %s : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @argmax_axis(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %d = tfaot.Const dense<2> : tensor<i32>
  // expected-error@+1 {{dimension 2 is out of range for input of rank 2}}
  %0 = tfaot.ArgMax %x, %d : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @argmax_rank(%x: tensor<2x3xf32>, %d: tensor<i32>) -> tensor<2x3xi64> {
  // expected-error@+1 {{result must have rank 1}}
  %0 = tfaot.ArgMax %x, %d : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

func.func @argmax_type(%x: tensor<2x3xf32>, %d: tensor<i32>) -> tensor<2xf32> {
  // expected-error@+1 {{result #0 must be ranked tensor of 32/64-bit integer values}}
  %0 = tfaot.ArgMax %x, %d : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @cumsum_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{axis 2 is not in [0, 2)}}
  %0 = tfaot.Cumsum %x {axis = 2 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cumsum_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{needs an input of rank >= 1, got a scalar}}
  %0 = tfaot.Cumsum %x {axis = 0 : i64} : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @softmax_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{logits must have rank >= 1, got a scalar}}
  %0 = tfaot.Softmax %x : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @sigmoid_int(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@+1 {{must be ranked tensor of floating-point values}}
  %0 = tfaot.Sigmoid %x : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @cast_shape(%x: tensor<2x3xf32>) -> tensor<3x2xi32> {
  // expected-error@+1 {{result shape 'tensor<3x2xi32>' differs from 'tensor<2x3xf32>'}}
  %0 = tfaot.Cast %x : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

func.func @const_type() -> tensor<3xf32> {
  // expected-error@+1 {{'tfaot.Const' op failed to verify that all of {value, output} have same type}}
  %0 = "tfaot.Const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
