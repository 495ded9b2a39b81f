// RUN: tfaot-opt %s --tfaot-fold-requantize -split-input-file | FileCheck %s

// An int8 layer's rescale (scale [0.5, 0.25]), bias [1, -2] and ReLU6,
// then the next layer's quantize with 1 / scale = 10 and zero point -100,
// as tfaot-quantize-int8 writes them. Folded by hand:
//   scale * 10         = [5, 2.5]
//   bias * 10 - 100    = [-90, -120]
//   [0, 6] * 10 - 100  = [-100, -40]  (inside [-128, 127])
// CHECK-LABEL: func.func @bias_relu6
// CHECK: %[[F:.*]] = tfaot.Cast %{{.*}} : (tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK: %[[S:.*]] = tfaot.Const dense<[5.000000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = tfaot.Mul %[[F]], %[[S]]
// CHECK: %[[B:.*]] = tfaot.Const dense<[-9.000000e+01, -1.200000e+02]> : tensor<2xf32>
// CHECK: %[[YB:.*]] = tfaot.AddV2 %[[Y]], %[[B]]
// CHECK: %[[LO:.*]] = tfaot.Const dense<-1.000000e+02> : tensor<f32>
// CHECK: %[[YL:.*]] = tfaot.Maximum %[[YB]], %[[LO]]
// CHECK: %[[HI:.*]] = tfaot.Const dense<-4.000000e+01> : tensor<f32>
// CHECK: %[[YH:.*]] = tfaot.Minimum %[[YL]], %[[HI]]
// CHECK: %[[R:.*]] = tfaot.Round %[[YH]]
// CHECK: %[[Q:.*]] = tfaot.Cast %[[R]] : (tensor<3x2xf32>) -> tensor<3x2xi8>
// CHECK-NOT: tfaot.BiasAdd
// CHECK-NOT: tfaot.Relu6
// CHECK: return %[[Q]]
func.func @bias_relu6(%a: tensor<3x2xi8>) -> tensor<3x2xi8> {
  %w = tfaot.Const dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %p = tfaot.Int8MatMul %a, %w {a_zero_point = -128 : i32} : (tensor<3x2xi8>, tensor<2x2xi8>) -> tensor<3x2xi32>
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[0.5, 0.25]> : tensor<2xf32>
  %y = tfaot.Mul %f, %s : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %b = tfaot.Const dense<[1.0, -2.0]> : tensor<2xf32>
  %yb = tfaot.BiasAdd %y, %b : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %act = tfaot.Relu6 %yb : tensor<3x2xf32>
  %m = tfaot.Const dense<10.0> : tensor<f32>
  %q1 = tfaot.Mul %act, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<-100.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}

// -----

// No bias, no activation, zero point 0: the scale becomes [4] * 2 = [8],
// no add is needed, and the clamp is the int8 range.
// CHECK-LABEL: func.func @plain
// CHECK: tfaot.Const dense<8.000000e+00> : tensor<1xf32>
// CHECK: tfaot.Mul
// CHECK-NOT: tfaot.AddV2
// CHECK: tfaot.Const dense<-1.280000e+02> : tensor<f32>
// CHECK: tfaot.Maximum
// CHECK: tfaot.Const dense<1.270000e+02> : tensor<f32>
// CHECK: tfaot.Minimum
// CHECK: tfaot.Round
func.func @plain(%p: tensor<1x2x2x1xi32>) -> tensor<1x2x2x1xi8> {
  %f = tfaot.Cast %p : (tensor<1x2x2x1xi32>) -> tensor<1x2x2x1xf32>
  %s = tfaot.Const dense<[4.0]> : tensor<1xf32>
  %y = tfaot.Mul %f, %s : (tensor<1x2x2x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %m = tfaot.Const dense<2.0> : tensor<f32>
  %q1 = tfaot.Mul %y, %m : (tensor<1x2x2x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  %q2 = tfaot.Round %q1 : tensor<1x2x2x1xf32>
  %zp = tfaot.Const dense<0.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<1x2x2x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<1x2x2x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<1x2x2x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  %q = tfaot.Cast %q5 : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xi8>
  return %q : tensor<1x2x2x1xi8>
}

// -----

// Clamps compose in order: Minimum 3 then Maximum -1 is [-1, 3]; with
// 1 / scale = 20 and zero point 10 that is [-10, 70]. Two adds (an AddV2 of
// a [1, 2] constant, a BiasAdd) sum to [0.5, 1.5], so the bias is
// [0.5, 1.5] * 20 + 10 = [20, 40].
// CHECK-LABEL: func.func @clamps_and_adds
// CHECK: tfaot.Const dense<[2.000000e+01, 4.000000e+01]> : tensor<2xf32>
// CHECK: tfaot.Const dense<-1.000000e+01> : tensor<f32>
// CHECK: tfaot.Const dense<7.000000e+01> : tensor<f32>
func.func @clamps_and_adds(%p: tensor<3x2xi32>) -> tensor<3x2xi8> {
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[1.0, 1.0]> : tensor<2xf32>
  %y = tfaot.Mul %s, %f : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %c = tfaot.Const dense<[[0.25, 1.0]]> : tensor<1x2xf32>
  %y1 = tfaot.AddV2 %y, %c : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  %b = tfaot.Const dense<[0.25, 0.5]> : tensor<2xf32>
  %y2 = tfaot.BiasAdd %y1, %b : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %three = tfaot.Const dense<3.0> : tensor<f32>
  %y3 = tfaot.Minimum %y2, %three : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %minus1 = tfaot.Const dense<-1.0> : tensor<f32>
  %y4 = tfaot.Maximum %minus1, %y3 : (tensor<f32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %m = tfaot.Const dense<20.0> : tensor<f32>
  %q1 = tfaot.Mul %y4, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<10.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}

// -----

// The float result is also returned (as a residual's input would be
// read): the chain is left as it is.
// CHECK-LABEL: func.func @float_result_used
// CHECK: tfaot.Relu
// CHECK: tfaot.Round
// CHECK-NOT: tfaot.Round
func.func @float_result_used(%p: tensor<3x2xi32>) -> (tensor<3x2xi8>, tensor<3x2xf32>) {
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[0.5, 0.25]> : tensor<2xf32>
  %y = tfaot.Mul %f, %s : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %act = tfaot.Relu %y : tensor<3x2xf32>
  %m = tfaot.Const dense<10.0> : tensor<f32>
  %q1 = tfaot.Mul %act, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<-100.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q, %act : tensor<3x2xi8>, tensor<3x2xf32>
}

// -----

// A bias added after the ReLU is not part of one clamp of an affine map:
// left alone.
// CHECK-LABEL: func.func @add_after_clamp
// CHECK: tfaot.Relu
// CHECK: tfaot.BiasAdd
// CHECK: tfaot.Mul %{{.*}}, %{{.*}} : (tensor<3x2xf32>, tensor<f32>)
func.func @add_after_clamp(%p: tensor<3x2xi32>) -> tensor<3x2xi8> {
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[0.5, 0.25]> : tensor<2xf32>
  %y = tfaot.Mul %f, %s : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %act = tfaot.Relu %y : tensor<3x2xf32>
  %b = tfaot.Const dense<[1.0, -2.0]> : tensor<2xf32>
  %yb = tfaot.BiasAdd %act, %b : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %m = tfaot.Const dense<10.0> : tensor<f32>
  %q1 = tfaot.Mul %yb, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<-100.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}

// -----

// The activation's bound beyond the int8 range is cut to it: ReLU6 with
// 1 / scale = 40 and zero point -128 is [-128, 112], ReLU's +inf 127.
// CHECK-LABEL: func.func @bounds_cut
// CHECK: tfaot.Const dense<-1.280000e+02> : tensor<f32>
// CHECK: tfaot.Const dense<1.120000e+02> : tensor<f32>
// CHECK-LABEL: func.func @relu_unbounded
// CHECK: tfaot.Const dense<-1.280000e+02> : tensor<f32>
// CHECK: tfaot.Const dense<1.270000e+02> : tensor<f32>
func.func @bounds_cut(%p: tensor<3x2xi32>) -> tensor<3x2xi8> {
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[0.5, 0.25]> : tensor<2xf32>
  %y = tfaot.Mul %f, %s : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %act = tfaot.Relu6 %y : tensor<3x2xf32>
  %m = tfaot.Const dense<40.0> : tensor<f32>
  %q1 = tfaot.Mul %act, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<-128.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}
func.func @relu_unbounded(%p: tensor<3x2xi32>) -> tensor<3x2xi8> {
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[0.5, 0.25]> : tensor<2xf32>
  %y = tfaot.Mul %f, %s : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %act = tfaot.Relu %y : tensor<3x2xf32>
  %m = tfaot.Const dense<40.0> : tensor<f32>
  %q1 = tfaot.Mul %act, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<-128.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}

// -----

// A folded constant that is not a finite float32 (scale 1e10 times
// 1 / scale 1e30) is not folded: the chain stays as it is.
// CHECK-LABEL: func.func @not_finite
// CHECK: tfaot.Mul %{{.*}}, %{{.*}} : (tensor<3x2xf32>, tensor<f32>)
// CHECK: tfaot.Round
func.func @not_finite(%p: tensor<3x2xi32>) -> tensor<3x2xi8> {
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[1.0e10, 1.0]> : tensor<2xf32>
  %y = tfaot.Mul %f, %s : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %m = tfaot.Const dense<1.0e30> : tensor<f32>
  %q1 = tfaot.Mul %y, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<0.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}

// -----

// An int8 residual, as tfaot-quantize-int8's `residuals` option writes it:
// (Cast(r) - (-128)) * 0.5, added after the bias and before the ReLU; the
// next layer's quantize is 1 / scale = 10, zero point -100. Folded by hand:
//   scale * 10                    = [5, 2.5]
//   (bias + 128 * 0.5) * 10 - 100 = [550, 520]
//   the residual's scale 0.5 * 10 = 5
//   [0, inf] * 10 - 100           = [-100, 127] with the int8 range
// CHECK-LABEL: func.func @int8_residual
// CHECK: %[[F:.*]] = tfaot.Cast %{{.*}} : (tensor<3x2xi32>) -> tensor<3x2xf32>
// CHECK: %[[S:.*]] = tfaot.Const dense<[5.000000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = tfaot.Mul %[[F]], %[[S]]
// CHECK: %[[B:.*]] = tfaot.Const dense<[5.500000e+02, 5.200000e+02]> : tensor<2xf32>
// CHECK: %[[YB:.*]] = tfaot.AddV2 %[[Y]], %[[B]]
// CHECK: %[[RF:.*]] = tfaot.Cast %arg1 : (tensor<3x2xi8>) -> tensor<3x2xf32>
// CHECK: %[[RS:.*]] = tfaot.Const dense<5.000000e+00> : tensor<f32>
// CHECK: %[[R:.*]] = tfaot.Mul %[[RF]], %[[RS]]
// CHECK: %[[YR:.*]] = tfaot.AddV2 %[[YB]], %[[R]]
// CHECK: %[[LO:.*]] = tfaot.Const dense<-1.000000e+02> : tensor<f32>
// CHECK: %[[YL:.*]] = tfaot.Maximum %[[YR]], %[[LO]]
// CHECK: %[[HI:.*]] = tfaot.Const dense<1.270000e+02> : tensor<f32>
// CHECK: %[[YH:.*]] = tfaot.Minimum %[[YL]], %[[HI]]
// CHECK: %[[RD:.*]] = tfaot.Round %[[YH]]
// CHECK: %[[Q:.*]] = tfaot.Cast %[[RD]] : (tensor<3x2xf32>) -> tensor<3x2xi8>
// CHECK-NOT: tfaot.Sub
// CHECK-NOT: tfaot.Relu
// CHECK: return %[[Q]]
func.func @int8_residual(%a: tensor<3x2xi8>, %r: tensor<3x2xi8>) -> tensor<3x2xi8> {
  %w = tfaot.Const dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %p = tfaot.Int8MatMul %a, %w {a_zero_point = -128 : i32} : (tensor<3x2xi8>, tensor<2x2xi8>) -> tensor<3x2xi32>
  %f = tfaot.Cast %p : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %s = tfaot.Const dense<[0.5, 0.25]> : tensor<2xf32>
  %y = tfaot.Mul %f, %s : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %b = tfaot.Const dense<[1.0, -2.0]> : tensor<2xf32>
  %yb = tfaot.BiasAdd %y, %b : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %rf = tfaot.Cast %r : (tensor<3x2xi8>) -> tensor<3x2xf32>
  %rzp = tfaot.Const dense<-128.0> : tensor<f32>
  %rc = tfaot.Sub %rf, %rzp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %rs = tfaot.Const dense<0.5> : tensor<f32>
  %rd = tfaot.Mul %rc, %rs : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %sum = tfaot.AddV2 %yb, %rd : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %act = tfaot.Relu %sum : tensor<3x2xf32>
  %m = tfaot.Const dense<10.0> : tensor<f32>
  %q1 = tfaot.Mul %act, %m : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q2 = tfaot.Round %q1 : tensor<3x2xf32>
  %zp = tfaot.Const dense<-100.0> : tensor<f32>
  %q3 = tfaot.AddV2 %q2, %zp : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qlo = tfaot.Const dense<-128.0> : tensor<f32>
  %q4 = tfaot.Maximum %q3, %qlo : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %qhi = tfaot.Const dense<127.0> : tensor<f32>
  %q5 = tfaot.Minimum %q4, %qhi : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %q = tfaot.Cast %q5 : (tensor<3x2xf32>) -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}
