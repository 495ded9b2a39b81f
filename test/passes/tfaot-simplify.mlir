// RUN: tfaot-opt %s --tfaot-simplify -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-simplify=max-fold-elements=2 -split-input-file | FileCheck %s --check-prefix=LIMIT

//===----------------------------------------------------------------------===//
// 1. Reshape chains
//===----------------------------------------------------------------------===//

// Tests that a Reshape of a Reshape reads the inner operand (the -1 in the
// outer shape resolves to 12 either way) and the inner one goes.
// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x6xf32>)
// CHECK: %[[R:.*]] = tfaot.Reshape %[[X]], %{{.*}} : (tensor<2x6xf32>, tensor<1xi32>) -> tensor<12xf32>
// CHECK-NOT: tfaot.Reshape
// CHECK: return %[[R]]
func.func @reshape_chain(%x: tensor<2x6xf32>) -> tensor<12xf32> {
  %s1 = tfaot.Const dense<[2, 3, 2]> : tensor<3xi32>
  %s2 = tfaot.Const dense<-1> : tensor<1xi32>
  %0 = tfaot.Reshape %x, %s1 : (tensor<2x6xf32>, tensor<3xi32>) -> tensor<2x3x2xf32>
  %1 = tfaot.Reshape %0, %s2 : (tensor<2x3x2xf32>, tensor<1xi32>) -> tensor<12xf32>
  return %1 : tensor<12xf32>
}

// -----

// Tests that an inner Reshape with another user stays for that user, while
// the outer one still reads x directly.
// CHECK-LABEL: func.func @reshape_chain_shared
// CHECK-SAME: (%[[X:.*]]: tensor<2x6xf32>)
// CHECK-DAG: %[[INNER:.*]] = tfaot.Reshape %[[X]], %{{.*}} -> tensor<2x3x2xf32>
// CHECK-DAG: %[[OUTER:.*]] = tfaot.Reshape %[[X]], %{{.*}} -> tensor<12xf32>
// CHECK: return %[[INNER]], %[[OUTER]]
func.func @reshape_chain_shared(%x: tensor<2x6xf32>) -> (tensor<2x3x2xf32>, tensor<12xf32>) {
  %s1 = tfaot.Const dense<[2, 3, 2]> : tensor<3xi32>
  %s2 = tfaot.Const dense<12> : tensor<1xi32>
  %0 = tfaot.Reshape %x, %s1 : (tensor<2x6xf32>, tensor<3xi32>) -> tensor<2x3x2xf32>
  %1 = tfaot.Reshape %0, %s2 : (tensor<2x3x2xf32>, tensor<1xi32>) -> tensor<12xf32>
  return %0, %1 : tensor<2x3x2xf32>, tensor<12xf32>
}

// -----

// Tests that a Reshape to its operand's own type disappears, also at the
// end of a chain that comes back to the original shape.
// CHECK-LABEL: func.func @reshape_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: tfaot.Reshape
// CHECK: return %[[X]], %[[X]]
func.func @reshape_same_type(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %s = tfaot.Const dense<[2, 3]> : tensor<2xi32>
  %s6 = tfaot.Const dense<[6]> : tensor<1xi32>
  %0 = tfaot.Reshape %x, %s : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %1 = tfaot.Reshape %x, %s6 : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
  %2 = tfaot.Reshape %1, %s : (tensor<6xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %0, %2 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Tests that a Reshape of a float constant (ReshapeOp::fold's result) is
// materialized as a constant of the new shape.
// CHECK-LABEL: func.func @reshape_constant
// CHECK: %[[C:.*]] = tfaot.Const dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: tfaot.Reshape
// CHECK: return %[[C]]
func.func @reshape_constant() -> tensor<2x2xf32> {
  %c = tfaot.Const dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = tfaot.Const dense<[2, 2]> : tensor<2xi32>
  %0 = tfaot.Reshape %c, %s : (tensor<4xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

//===----------------------------------------------------------------------===//
// 2. Neutral elements
//===----------------------------------------------------------------------===//

// -----

// Tests x * 1, 1 * x, x / 1, x + (-0), 0 + x (int) and x - 0: all become x.
// CHECK-LABEL: func.func @neutral
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[I:.*]]: tensor<3xi32>)
// CHECK-NOT: tfaot.Mul
// CHECK-NOT: tfaot.RealDiv
// CHECK-NOT: tfaot.Add
// CHECK-NOT: tfaot.Sub
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[I]], %[[X]]
func.func @neutral(%x: tensor<4x3xf32>, %i: tensor<3xi32>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<3xi32>, tensor<4x3xf32>) {
  %one = tfaot.Const dense<1.0> : tensor<f32>
  %ones = tfaot.Const dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  %negzero = tfaot.Const dense<-0.0> : tensor<1x3xf32>
  %izero = tfaot.Const dense<0> : tensor<3xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %0 = tfaot.Mul %x, %one : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %1 = tfaot.Mul %ones, %x : (tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = tfaot.RealDiv %x, %one : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %3 = tfaot.Add %x, %negzero : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  %4 = tfaot.AddV2 %izero, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %5 = tfaot.Sub %x, %zero : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<3xi32>, tensor<4x3xf32>
}

// -----

// Tests what must stay: a non-splat "one", a 1 that broadcasts x to a larger
// shape, 1 / x, 0 - x, a one that changes nothing but is 1.5, and a 1 whose
// broadcast changes x's rank.
// CHECK-LABEL: func.func @neutral_not
// CHECK: tfaot.Mul %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: tfaot.Mul %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: tfaot.RealDiv %{{.*}}, %{{.*}} : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: tfaot.Sub %{{.*}}, %{{.*}} : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: tfaot.Mul %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK: tfaot.AddV2 %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<1x1xf32>) -> tensor<1x3xf32>
func.func @neutral_not(%x: tensor<3xf32>)
    -> (tensor<3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x3xf32>) {
  %mixed = tfaot.Const dense<[1.0, 2.0, 1.0]> : tensor<3xf32>
  %ones23 = tfaot.Const dense<1.0> : tensor<2x3xf32>
  %one = tfaot.Const dense<1.0> : tensor<f32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %half = tfaot.Const dense<1.5> : tensor<f32>
  %zero11 = tfaot.Const dense<0.0> : tensor<1x1xf32>
  %0 = tfaot.Mul %x, %mixed : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = tfaot.Mul %x, %ones23 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tfaot.RealDiv %one, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = tfaot.Sub %zero, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %4 = tfaot.Mul %x, %half : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %5 = tfaot.AddV2 %x, %zero11 : (tensor<3xf32>, tensor<1x1xf32>) -> tensor<1x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x3xf32>
}

//===----------------------------------------------------------------------===//
// 3. Pad into convolution padding
//===----------------------------------------------------------------------===//

// -----

// Tests the fold into a VALID Conv2D: H padded 1+1, W 2+2 becomes EXPLICIT
// [0, 0, 1, 1, 2, 2, 0, 0]; the result stays 1x5x7x4 ((5+2-3)+1 by
// (5+4-3)+1).
// CHECK-LABEL: func.func @pad_conv_valid
// CHECK-SAME: (%[[X:.*]]: tensor<1x5x5x2xf32>, %[[W:.*]]: tensor<3x3x2x4xf32>)
// CHECK-NOT: tfaot.Pad
// CHECK: %[[C:.*]] = tfaot.Conv2D %[[X]], %[[W]]
// CHECK-SAME: explicit_paddings = [0, 0, 1, 1, 2, 2, 0, 0]
// CHECK-SAME: padding = "EXPLICIT"
// CHECK-SAME: (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x5x7x4xf32>
// CHECK: return %[[C]]
func.func @pad_conv_valid(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x5x7x4xf32> {
  %pads = tfaot.Const dense<[[0, 0], [1, 1], [2, 2], [0, 0]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %p = tfaot.Pad %x, %pads, %zero : (tensor<1x5x5x2xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x7x9x2xf32>
  %0 = tfaot.Conv2D %p, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x7x9x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x5x7x4xf32>
  return %0 : tensor<1x5x7x4xf32>
}

// -----

// Tests the fold into a SAME, stride-2 NCHW depthwise convolution. On the
// padded 7x7 input SAME gives out = ceil(7/2) = 4 and pads
// (4-1)*2 + 3 - 7 = 2: 1 before, 1 after. Adding the Pad's H (1, 0) and
// W (0, 1): H (2, 1), W (1, 2), in NCHW order [0,0, 0,0, 2,1, 1,2]; on the
// 6x6 input (6+3-3)/2+1 = 4 again.
// CHECK-LABEL: func.func @pad_depthwise_same_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x6x6xf32>
// CHECK-NOT: tfaot.Pad
// CHECK: tfaot.DepthwiseConv2dNative %[[X]]
// CHECK-SAME: explicit_paddings = [0, 0, 0, 0, 2, 1, 1, 2]
// CHECK-SAME: padding = "EXPLICIT"
// CHECK-SAME: (tensor<1x2x6x6xf32>, tensor<3x3x2x1xf32>) -> tensor<1x2x4x4xf32>
func.func @pad_depthwise_same_nchw(%x: tensor<1x2x6x6xf32>, %w: tensor<3x3x2x1xf32>) -> tensor<1x2x4x4xf32> {
  %pads = tfaot.Const dense<[[0, 0], [0, 0], [1, 0], [0, 1]]> : tensor<4x2xi64>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %p = tfaot.Pad %x, %pads, %zero : (tensor<1x2x6x6xf32>, tensor<4x2xi64>, tensor<f32>) -> tensor<1x2x7x7xf32>
  %0 = tfaot.DepthwiseConv2dNative %p, %w {strides = [1, 1, 2, 2], padding = "SAME", data_format = "NCHW"} : (tensor<1x2x7x7xf32>, tensor<3x3x2x1xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Tests that an EXPLICIT convolution adds its own padding to the Pad's, and
// that a Pad with another user stays for it (the convolution still folds).
// CHECK-LABEL: func.func @pad_conv_explicit_shared
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x1xf32>
// CHECK: %[[P:.*]] = tfaot.Pad %[[X]]
// CHECK: %[[C:.*]] = tfaot.Conv2D %[[X]]
// CHECK-SAME: explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0]
// CHECK: return %[[C]], %[[P]]
func.func @pad_conv_explicit_shared(%x: tensor<1x4x4x1xf32>, %w: tensor<2x2x1x1xf32>) -> (tensor<1x5x5x1xf32>, tensor<1x5x5x1xf32>) {
  %pads = tfaot.Const dense<[[0, 0], [0, 1], [1, 0], [0, 0]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %p = tfaot.Pad %x, %pads, %zero : (tensor<1x4x4x1xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x5x5x1xf32>
  %0 = tfaot.Conv2D %p, %w {strides = [1, 1, 1, 1], padding = "EXPLICIT", explicit_paddings = [0, 0, 1, 0, 0, 1, 0, 0]} : (tensor<1x5x5x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x5x5x1xf32>
  return %0, %p : tensor<1x5x5x1xf32>, tensor<1x5x5x1xf32>
}

// -----

// Tests an integer convolution padded with integer 0.
// CHECK-LABEL: func.func @pad_conv_int
// CHECK-NOT: tfaot.Pad
// CHECK: tfaot.Conv2D
// CHECK-SAME: explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0]
func.func @pad_conv_int(%x: tensor<1x3x3x1xi32>, %w: tensor<3x3x1x1xi32>) -> tensor<1x3x3x1xi32> {
  %pads = tfaot.Const dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0> : tensor<i32>
  %p = tfaot.Pad %x, %pads, %zero : (tensor<1x3x3x1xi32>, tensor<4x2xi32>, tensor<i32>) -> tensor<1x5x5x1xi32>
  %0 = tfaot.Conv2D %p, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x5x5x1xi32>, tensor<3x3x1x1xi32>) -> tensor<1x3x3x1xi32>
  return %0 : tensor<1x3x3x1xi32>
}

// -----

// Tests the Pads that must stay: a non-zero fill (PadV2), a -0.0 fill (the
// convolution pads with +0.0), padding in the channel and in the batch
// dimension, and a Pad feeding MaxPool (which pads with -inf).
// CHECK-LABEL: func.func @pad_not_folded
// CHECK-COUNT-4: tfaot.Conv2D %{{.*}} {padding = "VALID", strides = [1, 1, 1, 1]}
// CHECK: tfaot.MaxPool %{{.*}} {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 1, 1, 1]}
// CHECK-NOT: EXPLICIT
func.func @pad_not_folded(%x: tensor<1x3x3x1xf32>, %w: tensor<3x3x1x1xf32>, %w2: tensor<3x3x2x1xf32>)
    -> (tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>, tensor<1x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<1x4x4x1xf32>) {
  %pads = tfaot.Const dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>
  %cpads = tfaot.Const dense<[[0, 0], [0, 0], [0, 0], [1, 0]]> : tensor<4x2xi32>
  %npads = tfaot.Const dense<[[1, 0], [0, 0], [0, 0], [0, 0]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %one = tfaot.Const dense<1.0> : tensor<f32>
  %negzero = tfaot.Const dense<-0.0> : tensor<f32>
  %p1 = tfaot.Pad %x, %pads, %one : (tensor<1x3x3x1xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x5x5x1xf32>
  %0 = tfaot.Conv2D %p1, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x5x5x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  %p2 = tfaot.Pad %x, %pads, %negzero : (tensor<1x3x3x1xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x5x5x1xf32>
  %1 = tfaot.Conv2D %p2, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x5x5x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  %p3 = tfaot.Pad %x, %cpads, %zero : (tensor<1x3x3x1xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  %2 = tfaot.Conv2D %p3, %w2 {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x3x3x2xf32>, tensor<3x3x2x1xf32>) -> tensor<1x1x1x1xf32>
  %p4 = tfaot.Pad %x, %npads, %zero : (tensor<1x3x3x1xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<2x3x3x1xf32>
  %3 = tfaot.Conv2D %p4, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<2x3x3x1xf32>, tensor<3x3x1x1xf32>) -> tensor<2x1x1x1xf32>
  %p5 = tfaot.Pad %x, %pads, %zero : (tensor<1x3x3x1xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x5x5x1xf32>
  %4 = tfaot.MaxPool %p5 {ksize = [1, 2, 2, 1], strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x5x5x1xf32>) -> tensor<1x4x4x1xf32>
  return %0, %1, %2, %3, %4 : tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>, tensor<1x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<1x4x4x1xf32>
}

// -----

// Tests a Pad in NCHW reaching an NHWC convolution through a Transpose
// [0, 2, 3, 1]: the Pad's H (1, 1) and W (0, 2) land on the NHWC
// convolution's dimensions 1 and 2, which reads a new Transpose of x
// (1x2x4x4 -> 1x4x4x2). Padded 6x6, 3x3 VALID: 4x4 either way.
// CHECK-LABEL: func.func @pad_transpose_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>, %[[W:.*]]: tensor<3x3x2x1xf32>)
// CHECK-NOT: tfaot.Pad
// CHECK: %[[T:.*]] = tfaot.Transpose %[[X]], %{{.*}} : (tensor<1x2x4x4xf32>, tensor<4xi32>) -> tensor<1x4x4x2xf32>
// CHECK: tfaot.Conv2D %[[T]], %[[W]]
// CHECK-SAME: explicit_paddings = [0, 0, 1, 1, 0, 2, 0, 0]
// CHECK-SAME: -> tensor<1x4x4x1xf32>
func.func @pad_transpose_conv(%x: tensor<1x2x4x4xf32>, %w: tensor<3x3x2x1xf32>) -> tensor<1x4x4x1xf32> {
  %pads = tfaot.Const dense<[[0, 0], [0, 0], [1, 1], [0, 2]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %perm = tfaot.Const dense<[0, 2, 3, 1]> : tensor<4xi32>
  %p = tfaot.Pad %x, %pads, %zero : (tensor<1x2x4x4xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x2x6x6xf32>
  %t = tfaot.Transpose %p, %perm : (tensor<1x2x6x6xf32>, tensor<4xi32>) -> tensor<1x6x6x2xf32>
  %0 = tfaot.Conv2D %t, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x6x6x2xf32>, tensor<3x3x2x1xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

// -----

// Tests that a Transpose with another user keeps the Pad in front of the
// convolution (folding would transpose twice).
// CHECK-LABEL: func.func @pad_transpose_shared
// CHECK: tfaot.Pad
// CHECK: tfaot.Conv2D {{.*}}padding = "VALID"
func.func @pad_transpose_shared(%x: tensor<1x2x4x4xf32>, %w: tensor<3x3x2x1xf32>) -> (tensor<1x4x4x1xf32>, tensor<1x6x6x2xf32>) {
  %pads = tfaot.Const dense<[[0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %perm = tfaot.Const dense<[0, 2, 3, 1]> : tensor<4xi32>
  %p = tfaot.Pad %x, %pads, %zero : (tensor<1x2x4x4xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x2x6x6xf32>
  %t = tfaot.Transpose %p, %perm : (tensor<1x2x6x6xf32>, tensor<4xi32>) -> tensor<1x6x6x2xf32>
  %0 = tfaot.Conv2D %t, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x6x6x2xf32>, tensor<3x3x2x1xf32>) -> tensor<1x4x4x1xf32>
  return %0, %t : tensor<1x4x4x1xf32>, tensor<1x6x6x2xf32>
}

//===----------------------------------------------------------------------===//
// 4. Constant folding
//===----------------------------------------------------------------------===//

// -----

// Tests Keras' decomposed batch norm over constants:
//   scale = rsqrt(var + eps) * gamma = rsqrt([3, 0] + 1) * [2, 3]
//         = [1/2, 1/1] * [2, 3] = [1, 3]
//   shift = beta - mean * scale = [0.5, 0.5] - [1, 2] * [1, 3] = [-0.5, -5.5]
// leaving x * [1, 3] + [-0.5, -5.5].
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x2x2xf32>)
// CHECK-DAG: %[[SCALE:.*]] = tfaot.Const dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[SHIFT:.*]] = tfaot.Const dense<[-5.000000e-01, -5.500000e+00]> : tensor<2xf32>
// CHECK: %[[M:.*]] = tfaot.Mul %[[X]], %[[SCALE]]
// CHECK: %[[A:.*]] = tfaot.AddV2 %[[M]], %[[SHIFT]]
// CHECK: return %[[A]]
func.func @batch_norm(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %var = tfaot.Const dense<[3.0, 0.0]> : tensor<2xf32>
  %eps = tfaot.Const dense<1.0> : tensor<f32>
  %gamma = tfaot.Const dense<[2.0, 3.0]> : tensor<2xf32>
  %mean = tfaot.Const dense<[1.0, 2.0]> : tensor<2xf32>
  %beta = tfaot.Const dense<0.5> : tensor<2xf32>
  %0 = tfaot.AddV2 %var, %eps : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = tfaot.Rsqrt %0 : tensor<2xf32>
  %scale = tfaot.Mul %1, %gamma : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = tfaot.Mul %mean, %scale : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %shift = tfaot.Sub %beta, %2 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = tfaot.Mul %x, %scale : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %4 = tfaot.AddV2 %3, %shift : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %4 : tensor<1x2x2x2xf32>
}

// -----

// Tests that Rsqrt is 1 / sqrt(x) in float, as the generated code computes
// it: sqrt(1.5) rounds to 0x1.3988e2p+0 (1.22474492) and 1 / that to
// 0x1.a20bd6p-1 = 0.816496551, whereas the correctly rounded 1/sqrt(1.5) is
// 0x1.a20bd8p-1 = 0.816496611. sqrt(2) = 0x1.6a09e6p+0 = 1.41421354;
// 1/3 = 0x1.555556p-2 = 0.333333343; expf(1) = 0x1.5bf0a8p+1 = 2.71828175;
// log(1) = 0.
// CHECK-LABEL: func.func @unary_float
// CHECK-DAG: tfaot.Const dense<0.816496551> : tensor<f32>
// CHECK-DAG: tfaot.Const dense<1.41421354> : tensor<f32>
// CHECK-DAG: tfaot.Const dense<0.333333343> : tensor<f32>
// CHECK-DAG: tfaot.Const dense<2.71828175> : tensor<f32>
// CHECK-DAG: tfaot.Const dense<0.000000e+00> : tensor<f32>
// CHECK-NOT: tfaot.Rsqrt
// CHECK-NOT: tfaot.Sqrt
// CHECK-NOT: tfaot.Reciprocal
// CHECK-NOT: tfaot.Exp
// CHECK-NOT: tfaot.Log
func.func @unary_float() -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %a = tfaot.Const dense<1.5> : tensor<f32>
  %b = tfaot.Const dense<2.0> : tensor<f32>
  %c = tfaot.Const dense<3.0> : tensor<f32>
  %d = tfaot.Const dense<1.0> : tensor<f32>
  %0 = tfaot.Rsqrt %a : tensor<f32>
  %1 = tfaot.Sqrt %b : tensor<f32>
  %2 = tfaot.Reciprocal %c : tensor<f32>
  %3 = tfaot.Exp %d : tensor<f32>
  %4 = tfaot.Log %d : tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Tests Relu/Relu6/Neg/Abs/Square/Floor/Ceil on floats, with the signed
// zeros of arith.maximumf (max(-0, +0) = +0) and of negation.
// Relu [-1, -0, 2] = [0, 0, 2]; Relu6 [7, -3, 5.5] = [6, 0, 5.5];
// Neg [0, -2.5, 1] = [-0, 2.5, -1]; Abs [-0, -2.5, 1] = [0, 2.5, 1];
// Square [-3, 0.5, 1e20] = [9, 0.25, inf] (1e40 overflows float);
// Floor [-1.5, 1.5, -0] = [-2, 1, -0]; Ceil [-1.5, 1.5, 0.25] = [-1, 2, 1].
// CHECK-LABEL: func.func @unary_more
// CHECK-DAG: tfaot.Const dense<[0.000000e+00, 0.000000e+00, 2.000000e+00]>
// CHECK-DAG: tfaot.Const dense<[6.000000e+00, 0.000000e+00, 5.500000e+00]>
// CHECK-DAG: tfaot.Const dense<[-0.000000e+00, 2.500000e+00, -1.000000e+00]>
// CHECK-DAG: tfaot.Const dense<[0.000000e+00, 2.500000e+00, 1.000000e+00]>
// CHECK-DAG: tfaot.Const dense<[9.000000e+00, 2.500000e-01, 0x7F800000]>
// CHECK-DAG: tfaot.Const dense<[-2.000000e+00, 1.000000e+00, -0.000000e+00]>
// CHECK-DAG: tfaot.Const dense<[-1.000000e+00, 2.000000e+00, 1.000000e+00]>
func.func @unary_more() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r = tfaot.Const dense<[-1.0, -0.0, 2.0]> : tensor<3xf32>
  %r6 = tfaot.Const dense<[7.0, -3.0, 5.5]> : tensor<3xf32>
  %n = tfaot.Const dense<[0.0, -2.5, 1.0]> : tensor<3xf32>
  %a = tfaot.Const dense<[-0.0, -2.5, 1.0]> : tensor<3xf32>
  %s = tfaot.Const dense<[-3.0, 0.5, 1.0e20]> : tensor<3xf32>
  %f = tfaot.Const dense<[-1.5, 1.5, -0.0]> : tensor<3xf32>
  %c = tfaot.Const dense<[-1.5, 1.5, 0.25]> : tensor<3xf32>
  %0 = tfaot.Relu %r : tensor<3xf32>
  %1 = tfaot.Relu6 %r6 : tensor<3xf32>
  %2 = tfaot.Neg %n : tensor<3xf32>
  %3 = tfaot.Abs %a : tensor<3xf32>
  %4 = tfaot.Square %s : tensor<3xf32>
  %5 = tfaot.Floor %f : tensor<3xf32>
  %6 = tfaot.Ceil %c : tensor<3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Tests binary folds with NumPy broadcasting: [[1], [2]] + [10, 20, 30] =
// [[11, 21, 31], [12, 22, 32]]; Maximum/Minimum of -0 and +0 are +0 and -0
// (arith.maximumf/minimumf); SquaredDifference (3 - 5)^2 = 4; RealDiv
// 1 / 0 = inf; Sub 0.1 - 0.1 = 0.
// CHECK-LABEL: func.func @binary_float
// CHECK-DAG: tfaot.Const dense<{{\[\[}}1.100000e+01, 2.100000e+01, 3.100000e+01], [1.200000e+01, 2.200000e+01, 3.200000e+01]]> : tensor<2x3xf32>
// CHECK-DAG: tfaot.Const dense<[0.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: tfaot.Const dense<[-0.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: tfaot.Const dense<4.000000e+00> : tensor<2xf32>
// CHECK-DAG: tfaot.Const dense<0x7F800000> : tensor<f32>
// CHECK-NOT: tfaot.Add
// CHECK-NOT: tfaot.Maximum
// CHECK-NOT: tfaot.Minimum
// CHECK-NOT: tfaot.SquaredDifference
// CHECK-NOT: tfaot.RealDiv
func.func @binary_float() -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>) {
  %col = tfaot.Const dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %row = tfaot.Const dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %nz = tfaot.Const dense<[-0.0, 1.0]> : tensor<2xf32>
  %pz = tfaot.Const dense<[0.0, 3.0]> : tensor<2xf32>
  %three = tfaot.Const dense<3.0> : tensor<2xf32>
  %five = tfaot.Const dense<5.0> : tensor<f32>
  %one = tfaot.Const dense<1.0> : tensor<f32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %0 = tfaot.Add %col, %row : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = tfaot.Maximum %nz, %pz : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = tfaot.Minimum %nz, %pz : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = tfaot.SquaredDifference %three, %five : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %4 = tfaot.RealDiv %one, %zero : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>
}

// -----

// Tests that half precision rounds to the type: 2048 + 1 = 2049 is a tie
// between the f16 neighbours 2048 and 2050 and goes to the even 2048, and
// f64 computes in double: 0.1 + 0.2 = 0.30000000000000004.
// CHECK-LABEL: func.func @binary_narrow_wide
// CHECK-DAG: tfaot.Const dense<2.048000e+03> : tensor<f16>
// CHECK-DAG: tfaot.Const dense<0.30000000000000004> : tensor<f64>
func.func @binary_narrow_wide() -> (tensor<f16>, tensor<f64>) {
  %a = tfaot.Const dense<2048.0> : tensor<f16>
  %b = tfaot.Const dense<1.0> : tensor<f16>
  %c = tfaot.Const dense<0.1> : tensor<f64>
  %d = tfaot.Const dense<0.2> : tensor<f64>
  %0 = tfaot.AddV2 %a, %b : (tensor<f16>, tensor<f16>) -> tensor<f16>
  %1 = tfaot.AddV2 %c, %d : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %0, %1 : tensor<f16>, tensor<f64>
}

// -----

// Tests integer folds: ui8 [200, 3] * 2 wraps to [144, 6] (400 - 256);
// i32 [7, -7] / 2 truncates to [3, -3]; Neg of INT32_MIN wraps to itself;
// Relu6 of ui8 [7, 1] = [6, 1]; a division by zero is left to run time.
// CHECK-LABEL: func.func @integer
// CHECK-DAG: tfaot.Const dense<[144, 6]> : tensor<2xui8>
// CHECK-DAG: tfaot.Const dense<[3, -3]> : tensor<2xi32>
// CHECK-DAG: tfaot.Const dense<[-2147483648, -5]> : tensor<2xi32>
// CHECK-DAG: tfaot.Const dense<[6, 1]> : tensor<2xui8>
// CHECK: tfaot.RealDiv %{{.*}}, %{{.*}} : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
// CHECK-NOT: tfaot.Mul
// CHECK-NOT: tfaot.Neg
func.func @integer() -> (tensor<2xui8>, tensor<2xi32>, tensor<2xi32>, tensor<2xui8>, tensor<2xi32>) {
  %u = tfaot.Const dense<[200, 3]> : tensor<2xui8>
  %two = tfaot.Const dense<2> : tensor<ui8>
  %i = tfaot.Const dense<[7, -7]> : tensor<2xi32>
  %itwo = tfaot.Const dense<2> : tensor<i32>
  %izero = tfaot.Const dense<0> : tensor<i32>
  %n = tfaot.Const dense<[-2147483648, 5]> : tensor<2xi32>
  %r = tfaot.Const dense<[7, 1]> : tensor<2xui8>
  %0 = tfaot.Mul %u, %two : (tensor<2xui8>, tensor<ui8>) -> tensor<2xui8>
  %1 = tfaot.RealDiv %i, %itwo : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  %2 = tfaot.Neg %n : tensor<2xi32>
  %3 = tfaot.Relu6 %r : tensor<2xui8>
  %4 = tfaot.RealDiv %i, %izero : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  return %0, %1, %2, %3, %4 : tensor<2xui8>, tensor<2xi32>, tensor<2xi32>, tensor<2xui8>, tensor<2xi32>
}

// -----

// Tests Cast folds: float -> int truncates toward zero ([1.5, -2.7] ->
// [1, -2]); -1 -> ui8 is 255; float -> bool is != 0 ([0, -0, 0.5] ->
// [false, false, true]); 16777217 -> f32 rounds to the even 16777216 =
// 2^24 (0x4B800000);
// 3e9 does not fit i32, so that Cast stays.
// CHECK-LABEL: func.func @cast
// CHECK-DAG: tfaot.Const dense<[1, -2]> : tensor<2xi32>
// CHECK-DAG: tfaot.Const dense<255> : tensor<ui8>
// CHECK-DAG: tfaot.Const dense<[false, false, true]> : tensor<3xi1>
// CHECK-DAG: tfaot.Const dense<0x4B800000> : tensor<f32>
// CHECK: tfaot.Cast %{{.*}} : (tensor<f32>) -> tensor<i32>
// CHECK-NOT: tfaot.Cast
func.func @cast() -> (tensor<2xi32>, tensor<ui8>, tensor<3xi1>, tensor<f32>, tensor<i32>) {
  %f = tfaot.Const dense<[1.5, -2.7]> : tensor<2xf32>
  %m = tfaot.Const dense<-1> : tensor<i32>
  %z = tfaot.Const dense<[0.0, -0.0, 0.5]> : tensor<3xf32>
  %big = tfaot.Const dense<16777217> : tensor<i32>
  %huge = tfaot.Const dense<3.0e9> : tensor<f32>
  %0 = tfaot.Cast %f : (tensor<2xf32>) -> tensor<2xi32>
  %1 = tfaot.Cast %m : (tensor<i32>) -> tensor<ui8>
  %2 = tfaot.Cast %z : (tensor<3xf32>) -> tensor<3xi1>
  %3 = tfaot.Cast %big : (tensor<i32>) -> tensor<f32>
  %4 = tfaot.Cast %huge : (tensor<f32>) -> tensor<i32>
  return %0, %1, %2, %3, %4 : tensor<2xi32>, tensor<ui8>, tensor<3xi1>, tensor<f32>, tensor<i32>
}

// -----

// Tests Transpose of constants: [[1, 2, 3], [4, 5, 6]] by [1, 0] is
// [[1, 4], [2, 5], [3, 6]]; bools move the same way.
// CHECK-LABEL: func.func @transpose_constant
// CHECK-DAG: tfaot.Const dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG: tfaot.Const dense<{{\[\[}}true, false], [false, false], [false, true]]> : tensor<3x2xi1>
// CHECK-NOT: tfaot.Transpose
func.func @transpose_constant() -> (tensor<3x2xf32>, tensor<3x2xi1>) {
  %c = tfaot.Const dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tfaot.Const dense<[[true, false, false], [false, false, true]]> : tensor<2x3xi1>
  %perm = tfaot.Const dense<[1, 0]> : tensor<2xi32>
  %0 = tfaot.Transpose %c, %perm : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %1 = tfaot.Transpose %b, %perm : (tensor<2x3xi1>, tensor<2xi32>) -> tensor<3x2xi1>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xi1>
}

// -----

// Tests ConcatV2 of constants along axis 1 (and -1 for bools), with a
// splat operand: [[1, 2], [3, 4]] ++ [[5], [5]] = [[1, 2, 5], [3, 4, 5]].
// CHECK-LABEL: func.func @concat_constant
// CHECK-DAG: tfaot.Const dense<{{\[\[}}1.000000e+00, 2.000000e+00, 5.000000e+00], [3.000000e+00, 4.000000e+00, 5.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: tfaot.Const dense<{{\[\[}}true, false, true], [false, true, true]]> : tensor<2x3xi1>
// CHECK-NOT: tfaot.ConcatV2
func.func @concat_constant() -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %a = tfaot.Const dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = tfaot.Const dense<5.0> : tensor<2x1xf32>
  %c = tfaot.Const dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %d = tfaot.Const dense<true> : tensor<2x1xi1>
  %axis = tfaot.Const dense<1> : tensor<i32>
  %last = tfaot.Const dense<-1> : tensor<i64>
  %0 = tfaot.ConcatV2 (%a, %b), %axis : (tensor<2x2xf32>, tensor<2x1xf32>, tensor<i32>) -> tensor<2x3xf32>
  %1 = tfaot.ConcatV2 (%c, %d), %last : (tensor<2x2xi1>, tensor<2x1xi1>, tensor<i64>) -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// Tests the size limit: [1, 2, 3] + [1, 2, 3] = [2, 4, 6] folds by
// default, but not with max-fold-elements=2, under which the 2-element
// 1 + 1 = 2 still does.
// CHECK-LABEL: func.func @size_limit
// CHECK-DAG: tfaot.Const dense<[2.000000e+00, 4.000000e+00, 6.000000e+00]> : tensor<3xf32>
// CHECK-DAG: tfaot.Const dense<2.000000e+00> : tensor<2xf32>
// CHECK-NOT: tfaot.Add
// LIMIT-LABEL: func.func @size_limit
// LIMIT-DAG: tfaot.Const dense<2.000000e+00> : tensor<2xf32>
// LIMIT-DAG: tfaot.Add %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
func.func @size_limit() -> (tensor<3xf32>, tensor<2xf32>) {
  %a = tfaot.Const dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = tfaot.Const dense<1.0> : tensor<2xf32>
  %0 = tfaot.Add %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = tfaot.Add %b, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<3xf32>, tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// 5. No-ops
//===----------------------------------------------------------------------===//

// -----

// Tests that Identity chains, a Cast to the same type, ConcatV2 and AddN of
// one input, an identity Transpose, whole Slice/StridedSlice, zero Pad and
// MirrorPad and a same-type BroadcastTo all give x back.
// CHECK-LABEL: func.func @no_ops
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: tfaot.Identity
// CHECK-NOT: tfaot.Cast
// CHECK-NOT: tfaot.ConcatV2
// CHECK-NOT: tfaot.AddN
// CHECK-NOT: tfaot.Transpose
// CHECK-NOT: tfaot.Slice
// CHECK-NOT: tfaot.StridedSlice
// CHECK-NOT: tfaot.Pad
// CHECK-NOT: tfaot.MirrorPad
// CHECK-NOT: tfaot.BroadcastTo
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @no_ops(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %axis = tfaot.Const dense<0> : tensor<i32>
  %perm = tfaot.Const dense<[0, 1]> : tensor<2xi32>
  %begin = tfaot.Const dense<[0, 0]> : tensor<2xi32>
  %size = tfaot.Const dense<[-1, 3]> : tensor<2xi32>
  %end = tfaot.Const dense<[2, 3]> : tensor<2xi32>
  %strides = tfaot.Const dense<[1, 1]> : tensor<2xi32>
  %pads = tfaot.Const dense<0> : tensor<2x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %shape = tfaot.Const dense<[2, 3]> : tensor<2xi32>
  %i0 = tfaot.Identity %x : tensor<2x3xf32>
  %i1 = tfaot.Identity %i0 : tensor<2x3xf32>
  %0 = tfaot.Cast %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tfaot.ConcatV2 (%x), %axis : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  %2 = tfaot.AddN %x : tensor<2x3xf32>
  %3 = tfaot.Transpose %x, %perm : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %4 = tfaot.Slice %x, %begin, %size : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xf32>
  %5 = tfaot.StridedSlice %x, %begin, %end, %strides : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xf32>
  %6 = tfaot.Pad %x, %pads, %zero : (tensor<2x3xf32>, tensor<2x2xi32>, tensor<f32>) -> tensor<2x3xf32>
  %7 = tfaot.MirrorPad %x, %pads {mode = "REFLECT"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<2x3xf32>
  %8 = tfaot.BroadcastTo %x, %shape : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %i1, %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Tests the look-alikes that must stay: a Cast that changes the type (i32
// to ui32), a real Transpose, a Slice not from 0, a StridedSlice with
// stride 2.
// CHECK-LABEL: func.func @no_ops_not
// CHECK: tfaot.Cast
// CHECK: tfaot.Transpose
// CHECK: tfaot.Slice
// CHECK: tfaot.StridedSlice
func.func @no_ops_not(%i: tensor<2x2xi32>, %x: tensor<2x2xf32>) -> (tensor<2x2xui32>, tensor<2x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  %perm = tfaot.Const dense<[1, 0]> : tensor<2xi32>
  %begin = tfaot.Const dense<[1, 0]> : tensor<2xi32>
  %size = tfaot.Const dense<[1, 2]> : tensor<2xi32>
  %b0 = tfaot.Const dense<[0, 0]> : tensor<2xi32>
  %end = tfaot.Const dense<[2, 2]> : tensor<2xi32>
  %strides = tfaot.Const dense<[2, 1]> : tensor<2xi32>
  %0 = tfaot.Cast %i : (tensor<2x2xi32>) -> tensor<2x2xui32>
  %1 = tfaot.Transpose %x, %perm : (tensor<2x2xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  %2 = tfaot.Slice %x, %begin, %size : (tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x2xf32>
  %3 = tfaot.StridedSlice %x, %b0, %end, %strides : (tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x2xf32>
  return %0, %1, %2, %3 : tensor<2x2xui32>, tensor<2x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

// Tests that a StridedSlice taking every element into another shape is a
// Reshape: x[0] of a batch of one (shrink_axis_mask), which the Reshape
// after it then undoes (the chain collapses to a no-op), and a new axis
// (new_axis_mask) on its own. A shrink of a dimension larger than 1 takes
// only part of the input and stays.
// CHECK-LABEL: func.func @strided_slice_reshapes
// CHECK-DAG: %[[S:.*]] = tfaot.Const dense<[1, 4, 1, 3]> : tensor<4xi64>
// CHECK-DAG: %[[N:.*]] = tfaot.Reshape %arg0, %[[S]] : (tensor<1x4x3xf32>, tensor<4xi64>) -> tensor<1x4x1x3xf32>
// CHECK-DAG: %[[P:.*]] = tfaot.StridedSlice %arg1
// CHECK: return %arg0, %[[N]], %[[P]]
func.func @strided_slice_reshapes(%x: tensor<1x4x3xf32>, %y: tensor<2x3xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x1x3xf32>, tensor<3xf32>) {
  %zeros = tfaot.Const dense<0> : tensor<3xi32>
  %ones = tfaot.Const dense<1> : tensor<3xi32>
  %full = tfaot.Const dense<[1, 4, 3]> : tensor<3xi32>
  %z2 = tfaot.Const dense<0> : tensor<2xi32>
  %o2 = tfaot.Const dense<1> : tensor<2xi32>
  %shape = tfaot.Const dense<[1, 4, 3]> : tensor<3xi32>
  %0 = tfaot.StridedSlice %x, %zeros, %full, %ones {shrink_axis_mask = 1 : i64} : (tensor<1x4x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<4x3xf32>
  %1 = tfaot.Reshape %0, %shape : (tensor<4x3xf32>, tensor<3xi32>) -> tensor<1x4x3xf32>
  %b4 = tfaot.Const dense<0> : tensor<4xi32>
  %e4 = tfaot.Const dense<[0, 0, 0, 0]> : tensor<4xi32>
  %s4 = tfaot.Const dense<1> : tensor<4xi32>
  %2 = tfaot.StridedSlice %x, %b4, %e4, %s4 {begin_mask = 15 : i64, end_mask = 15 : i64, new_axis_mask = 4 : i64} : (tensor<1x4x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x4x1x3xf32>
  %3 = tfaot.StridedSlice %y, %z2, %o2, %o2 {shrink_axis_mask = 1 : i64, end_mask = 2 : i64} : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3xf32>
  return %1, %2, %3 : tensor<1x4x3xf32>, tensor<1x4x1x3xf32>, tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// 6. A Cast in front of ResizeBilinear
//===----------------------------------------------------------------------===//

// Tests that the resize reads the uint8 pixels itself, through the batch
// Reshape (rebuilt for the narrower type), and that the Cast goes.
// CHECK-LABEL: func.func @cast_into_resize
// CHECK-SAME: (%[[X:.*]]: tensor<6x8x3xui8>)
// CHECK-NOT: tfaot.Cast
// CHECK: %[[R:.*]] = tfaot.Reshape %[[X]], %{{.*}} : (tensor<6x8x3xui8>, tensor<4xi32>) -> tensor<1x6x8x3xui8>
// CHECK: tfaot.ResizeBilinear %[[R]], %{{.*}} {half_pixel_centers = true} : (tensor<1x6x8x3xui8>, tensor<2xi32>) -> tensor<1x3x4x3xf32>
func.func @cast_into_resize(%x: tensor<6x8x3xui8>) -> tensor<1x3x4x3xf32> {
  %shape = tfaot.Const dense<[1, 6, 8, 3]> : tensor<4xi32>
  %size = tfaot.Const dense<[3, 4]> : tensor<2xi32>
  %f = tfaot.Cast %x : (tensor<6x8x3xui8>) -> tensor<6x8x3xf32>
  %b = tfaot.Reshape %f, %shape : (tensor<6x8x3xf32>, tensor<4xi32>) -> tensor<1x6x8x3xf32>
  %r = tfaot.ResizeBilinear %b, %size {half_pixel_centers = true} : (tensor<1x6x8x3xf32>, tensor<2xi32>) -> tensor<1x3x4x3xf32>
  return %r : tensor<1x3x4x3xf32>
}

// -----

// Tests that the Cast stays where it has another reader, or narrows (f64 to
// f32 rounds, which the resize's own conversion of f64 would not), and
// that a f16 Cast right in front of the resize goes.
// CHECK-LABEL: func.func @cast_kept_for_resize
// CHECK-SAME: (%[[X:.*]]: tensor<1x6x8x3xi8>, %[[D:.*]]: tensor<1x6x8x3xf64>, %[[H:.*]]: tensor<1x6x8x3xf16>)
// CHECK: %[[F:.*]] = tfaot.Cast %[[X]]
// CHECK: tfaot.ResizeBilinear %[[F]]
// CHECK: %[[G:.*]] = tfaot.Cast %[[D]]
// CHECK: tfaot.ResizeBilinear %[[G]]
// CHECK-NOT: tfaot.Cast
// CHECK: tfaot.ResizeBilinear %[[H]], %{{.*}} : (tensor<1x6x8x3xf16>, tensor<2xi32>) -> tensor<1x3x4x3xf32>
func.func @cast_kept_for_resize(%x: tensor<1x6x8x3xi8>, %d: tensor<1x6x8x3xf64>, %h: tensor<1x6x8x3xf16>) -> (tensor<1x3x4x3xf32>, tensor<1x6x8x3xf32>, tensor<1x3x4x3xf32>, tensor<1x3x4x3xf32>) {
  %size = tfaot.Const dense<[3, 4]> : tensor<2xi32>
  %f = tfaot.Cast %x : (tensor<1x6x8x3xi8>) -> tensor<1x6x8x3xf32>
  %r = tfaot.ResizeBilinear %f, %size : (tensor<1x6x8x3xf32>, tensor<2xi32>) -> tensor<1x3x4x3xf32>
  %g = tfaot.Cast %d : (tensor<1x6x8x3xf64>) -> tensor<1x6x8x3xf32>
  %s = tfaot.ResizeBilinear %g, %size : (tensor<1x6x8x3xf32>, tensor<2xi32>) -> tensor<1x3x4x3xf32>
  %k = tfaot.Cast %h : (tensor<1x6x8x3xf16>) -> tensor<1x6x8x3xf32>
  %t = tfaot.ResizeBilinear %k, %size : (tensor<1x6x8x3xf32>, tensor<2xi32>) -> tensor<1x3x4x3xf32>
  return %r, %f, %s, %t : tensor<1x3x4x3xf32>, tensor<1x6x8x3xf32>, tensor<1x3x4x3xf32>, tensor<1x3x4x3xf32>
}
