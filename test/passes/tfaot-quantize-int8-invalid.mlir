// RUN: tfaot-opt %s --tfaot-quantize-int8 -split-input-file -verify-diagnostics -o /dev/null

func.func @computed_weights(%a: tensor<3x2xf32>, %b: tensor<2x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{cannot be quantized to int8: only float32 NHWC Conv2D, DepthwiseConv2dNative (multiplier 1) and MatMul with constant weights can}}
  %p = tfaot.MatMul %a, %b {tfaot.quantize_range = [0.0 : f32, 1.0 : f32]} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %p : tensor<3x2xf32>
}

// -----

func.func @bad_range(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = tfaot.Const dense<1.0> : tensor<2x2xf32>
  // expected-error @+1 {{tfaot.quantize_range must be [min, max] with min <= max}}
  %p = tfaot.MatMul %a, %b {tfaot.quantize_range = [2.0 : f32, 1.0 : f32]} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %p : tensor<3x2xf32>
}

// -----

func.func @weights_only_conv(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x2x2xf32> {
  %w = tfaot.Const dense<1.0> : tensor<1x1x3x2xf32>
  // expected-error @+1 {{tfaot.quantize_weights_only takes a float32 MatMul with constant weights (and no tfaot.quantize_range)}}
  %y = tfaot.Conv2D %x, %w {padding = "SAME", strides = [1, 1, 1, 1], tfaot.quantize_weights_only} : (tensor<1x2x2x3xf32>, tensor<1x1x3x2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}
