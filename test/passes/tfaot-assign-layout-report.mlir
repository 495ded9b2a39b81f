// RUN: tfaot-opt %s --tfaot-assign-layout=layout=nchw -split-input-file -verify-diagnostics -o /dev/null

// Tests the remarks that say what the layout pass did, at the TensorFlow
// nodes (what `tfaot compile --report` groups): ops converted, the
// transposes kept at the graph's input and output, and one folded into the
// weights of the MatMul after a flatten.
func.func @classifier(%x: tensor<1x2x2x2xf32>, %f: tensor<1x1x2x3xf32>) -> (tensor<1x1xf32>, tensor<1x2x2x3xf32>) {
  %shape = tfaot.Const dense<[-1, 12]> : tensor<2xi32>
  %w = tfaot.Const dense<1.0> : tensor<12x1xf32>
  // expected-remark@+3 {{[tfaot-assign-layout] converted Conv2D to NCHW}}
  // expected-remark@+2 {{[tfaot-assign-layout] Transpose kept at a graph input or output}}
  // expected-remark@+1 {{[tfaot-assign-layout] Transpose folded into MatMul weights}}
  %c = tfaot.Conv2D %x, %f {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x2x3xf32>
  %flat = tfaot.Reshape %c, %shape : (tensor<1x2x2x3xf32>, tensor<2xi32>) -> tensor<1x12xf32>
  %m = tfaot.MatMul %flat, %w : (tensor<1x12xf32>, tensor<12x1xf32>) -> tensor<1x1xf32>
  // expected-remark@+2 {{[tfaot-assign-layout] converted MaxPool to NCHW}}
  // expected-remark@+1 {{[tfaot-assign-layout] Transpose kept at a graph input or output}}
  %p = tfaot.MaxPool %c {ksize = [1, 1, 1, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  return %m, %p : tensor<1x1xf32>, tensor<1x2x2x3xf32>
}

// -----

// Tests that a transpose that must stay says which ops need the data in
// the other order: a detection head flattening H, W and C together into
// [N, HWA, K] (a Reshape), which NCHW data cannot do without reordering.
func.func @detection_head(%x: tensor<1x2x2x3xf32>, %f: tensor<1x1x3x4xf32>) -> tensor<1x8x2xf32> {
  %shape = tfaot.Const dense<[1, 8, 2]> : tensor<3xi32>
  // expected-remark@+3 {{[tfaot-assign-layout] converted Conv2D to NCHW}}
  // expected-remark@+2 {{[tfaot-assign-layout] Transpose kept at a graph input or output}}
  // expected-remark@+1 {{[tfaot-assign-layout] Transpose left inside the graph: read by Reshape}}
  %c = tfaot.Conv2D %x, %f {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x3xf32>, tensor<1x1x3x4xf32>) -> tensor<1x2x2x4xf32>
  %r = tfaot.Reshape %c, %shape : (tensor<1x2x2x4xf32>, tensor<3xi32>) -> tensor<1x8x2xf32>
  return %r : tensor<1x8x2xf32>
}

// -----

// Tests the remark for a transpose that only moves size-1 dimensions (a
// Dense layer's [N, C] result made [N, 1, 1, C] for a BiasAdd that is now
// NCHW): it is a Reshape.
func.func @dense_bias(%x: tensor<1x3xf32>, %b: tensor<3xf32>) -> tensor<1x1x1x3xf32> {
  %s4 = tfaot.Const dense<[1, 1, 1, 3]> : tensor<4xi32>
  %r = tfaot.Reshape %x, %s4 : (tensor<1x3xf32>, tensor<4xi32>) -> tensor<1x1x1x3xf32>
  // expected-remark@+3 {{[tfaot-assign-layout] converted BiasAdd to NCHW}}
  // expected-remark@+2 {{[tfaot-assign-layout] Transpose of size-1 dimensions made a Reshape: 1x1x1x3 to 1x3x1x1}}
  // expected-remark@+1 {{[tfaot-assign-layout] Transpose of size-1 dimensions made a Reshape: 1x3x1x1 to 1x1x1x3}}
  %a = tfaot.BiasAdd %r, %b : (tensor<1x1x1x3xf32>, tensor<3xf32>) -> tensor<1x1x1x3xf32>
  return %a : tensor<1x1x1x3xf32>
}
