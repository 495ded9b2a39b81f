// RUN: tfaot-opt %s --tfaot-fold-batch-norm --canonicalize -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-fold-batch-norm -split-input-file -verify-diagnostics -o /dev/null

// All numbers below are chosen so the folded values are exact in float32.

// FusedBatchNorm after an NHWC Conv2D. variance + epsilon = 4 for both
// channels, so s = scale / 2 = [0.5, 1]; t = offset - mean * s =
// [0.5 - 1 * 0.5, -1 - 0 * 1] = [0, -1]; the 1x1 filter [2, 3] becomes
// [1, 3].
// CHECK-LABEL: func.func @conv_batch_norm
// CHECK-DAG: %[[W:.*]] = tfaot.Const dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00]]]]> : tensor<1x1x1x2xf32>
// CHECK-DAG: %[[T:.*]] = tfaot.Const dense<[0.000000e+00, -1.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = tfaot.Conv2D %arg0, %[[W]]
// CHECK: %[[R:.*]] = tfaot.BiasAdd %[[C]], %[[T]] :
// CHECK-NOT: FusedBatchNorm
// CHECK: return %[[R]]
func.func @conv_batch_norm(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x2xf32> {
  %w = tfaot.Const dense<[[[[2.0, 3.0]]]]> : tensor<1x1x1x2xf32>
  %scale = tfaot.Const dense<[1.0, 2.0]> : tensor<2xf32>
  %offset = tfaot.Const dense<[0.5, -1.0]> : tensor<2xf32>
  %mean = tfaot.Const dense<[1.0, 0.0]> : tensor<2xf32>
  %var = tfaot.Const dense<[3.0, 3.0]> : tensor<2xf32>
  %y = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("conv1/Conv2D")
  // expected-remark @+1 {{[tfaot-fold-batch-norm] folded FusedBatchNorm: into Conv2D 'conv1/Conv2D'}}
  %z = tfaot.FusedBatchNorm %y, %scale, %offset, %mean, %var {epsilon = 1.0 : f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  return %z : tensor<1x4x4x2xf32>
}


// -----

// The decomposed form through an existing bias: Conv2D -> BiasAdd [1, 1] ->
// Mul [2, 10] -> Add [0.5, 0.5] (as [1,1,1,2]). Weights [2, 3] * [2, 10] =
// [4, 30]; bias [1, 1] * [2, 10] + 0.5 = [2.5, 10.5]. One Conv2D and one
// BiasAdd remain.
// CHECK-LABEL: func.func @conv_bias_mul_add
// CHECK-DAG: %[[W:.*]] = tfaot.Const dense<{{\[\[\[\[}}4.000000e+00, 3.000000e+01]]]]>
// CHECK-DAG: %[[T:.*]] = tfaot.Const dense<[2.500000e+00, 1.050000e+01]>
// CHECK: %[[C:.*]] = tfaot.Conv2D %arg0, %[[W]]
// CHECK-NEXT: %[[R:.*]] = tfaot.BiasAdd %[[C]], %[[T]]
// CHECK-NEXT: return %[[R]]
func.func @conv_bias_mul_add(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x2xf32> {
  %w = tfaot.Const dense<[[[[2.0, 3.0]]]]> : tensor<1x1x1x2xf32>
  %b = tfaot.Const dense<[1.0, 1.0]> : tensor<2xf32>
  %m = tfaot.Const dense<[2.0, 10.0]> : tensor<2xf32>
  %a = tfaot.Const dense<0.5> : tensor<1x1x1x2xf32>
  %y = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %yb = tfaot.BiasAdd %y, %b : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{[tfaot-fold-batch-norm] folded Mul: into Conv2D}}
  %ym = tfaot.Mul %m, %yb : (tensor<2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{[tfaot-fold-batch-norm] folded AddV2: into Conv2D}}
  %ya = tfaot.AddV2 %ym, %a : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  return %ya : tensor<1x4x4x2xf32>
}


// -----

// An NCHW depthwise convolution times a [2,1,1] constant [3, 4]: the HWCM
// filter [2, 3] (channel c, multiplier 1) becomes [6, 12] and an NCHW BiasAdd
// of zeros stands for the (absent) shift.
// CHECK-LABEL: func.func @depthwise_nchw_mul
// CHECK-DAG: %[[W:.*]] = tfaot.Const dense<{{\[\[\[\[}}6.000000e+00], [1.200000e+01]]]]> : tensor<1x1x2x1xf32>
// CHECK-DAG: %[[T:.*]] = tfaot.Const dense<0.000000e+00> : tensor<2xf32>
// CHECK: %[[C:.*]] = tfaot.DepthwiseConv2dNative %arg0, %[[W]] {data_format = "NCHW"
// CHECK: tfaot.BiasAdd %[[C]], %[[T]] {data_format = "NCHW"}
func.func @depthwise_nchw_mul(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = tfaot.Const dense<[[[[2.0], [3.0]]]]> : tensor<1x1x2x1xf32>
  %m = tfaot.Const dense<[[[3.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %y = tfaot.DepthwiseConv2dNative %x, %w {data_format = "NCHW", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<1x1x2x1xf32>) -> tensor<1x2x4x4xf32>
  // expected-remark @+1 {{folded Mul: into DepthwiseConv2dNative}}
  %z = tfaot.Mul %y, %m : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %z : tensor<1x2x4x4xf32>
}

// -----

// MatMul with transpose_b (b is [N=2, K=3]): Mul [2, 3] scales the rows of
// b, Sub [1, 2] becomes the bias: -[1, 2] (there was none before).
// CHECK-LABEL: func.func @matmul_transposed_mul_sub
// CHECK-DAG: %[[B:.*]] = tfaot.Const dense<{{\[\[}}2.000000e+00, 4.000000e+00, 6.000000e+00], [1.200000e+01, 1.500000e+01, 1.800000e+01]]>
// CHECK-DAG: %[[T:.*]] = tfaot.Const dense<[-1.000000e+00, -2.000000e+00]>
// CHECK: %[[P:.*]] = tfaot.MatMul %arg0, %[[B]] {transpose_b = true}
// CHECK-NEXT: %[[R:.*]] = tfaot.BiasAdd %[[P]], %[[T]]
// CHECK-NEXT: return %[[R]]
func.func @matmul_transposed_mul_sub(%x: tensor<5x3xf32>) -> tensor<5x2xf32> {
  %b = tfaot.Const dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %m = tfaot.Const dense<[2.0, 3.0]> : tensor<2xf32>
  %s = tfaot.Const dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %p = tfaot.MatMul %x, %b {transpose_b = true} : (tensor<5x3xf32>, tensor<2x3xf32>) -> tensor<5x2xf32>
  // expected-remark @+1 {{folded Mul: into MatMul}}
  %pm = tfaot.Mul %p, %m : (tensor<5x2xf32>, tensor<2xf32>) -> tensor<5x2xf32>
  // expected-remark @+1 {{folded Sub: into MatMul}}
  %ps = tfaot.Sub %pm, %s : (tensor<5x2xf32>, tensor<1x2xf32>) -> tensor<5x2xf32>
  return %ps : tensor<5x2xf32>
}

// -----

// Cases that must not fire (-verify-diagnostics: no remark either).
// CHECK-LABEL: func.func @not_folded
func.func @not_folded(%x: tensor<1x4x4x1xf32>, %wa: tensor<1x1x1x2xf32>)
    -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>,
        tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  %w = tfaot.Const dense<[[[[2.0, 3.0]]]]> : tensor<1x1x1x2xf32>
  %m = tfaot.Const dense<[2.0, 10.0]> : tensor<2xf32>
  %b = tfaot.Const dense<[1.0, 1.0]> : tensor<2xf32>
  // Weights that are not a constant.
  // CHECK: %[[C0:.*]] = tfaot.Conv2D %arg0, %arg1
  // CHECK-NEXT: tfaot.Mul %[[C0]]
  %c0 = tfaot.Conv2D %x, %wa {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %r0 = tfaot.Mul %c0, %m : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  // The convolution has another user (returned as well).
  // CHECK: %[[C1:.*]] = tfaot.Conv2D %arg0
  // CHECK-NEXT: tfaot.Mul %[[C1]]
  %c1 = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %r1 = tfaot.Mul %c1, %m : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  // The constant varies along H, not only along the channels.
  // CHECK: %[[C2:.*]] = tfaot.Conv2D %arg0
  // CHECK-NEXT: tfaot.Mul %[[C2]]
  %h = tfaot.Const dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
  %c2 = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %r2 = tfaot.Mul %c2, %h : (tensor<1x4x4x2xf32>, tensor<4x1x1xf32>) -> tensor<1x4x4x2xf32>
  // constant - conv is not an affine map with scale 1.
  // CHECK: %[[C3:.*]] = tfaot.Conv2D %arg0
  // CHECK-NEXT: tfaot.Sub %{{.*}}, %[[C3]]
  %c3 = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %r3 = tfaot.Sub %b, %c3 : (tensor<2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  // A BiasAdd right after the convolution is already the folded form.
  // CHECK: %[[C4:.*]] = tfaot.Conv2D %arg0
  // CHECK-NEXT: tfaot.BiasAdd %[[C4]]
  %c4 = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %r4 = tfaot.BiasAdd %c4, %b : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  return %r0, %r1, %c1, %r2, %r3, %r4 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
}
