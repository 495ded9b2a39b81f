// RUN: tfaot-opt %s -tfaot-lower-to-linalg -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-cpu-bufferize --tfaot-cpu-to-llvm -split-input-file | FileCheck %s --check-prefix=LLVM

// Tests that SAME padding with stride 2 pads 1 before and 1 after (TF puts
// an odd remainder after) and keeps the strides on the linalg convolution.
// CHECK-LABEL: func.func @conv_same
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<1x5x5x2xf32> to tensor<1x7x7x2xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %{{.*}} : tensor<1x7x7x2xf32>, tensor<3x3x2x4xf32>)
// Strided copies from the padding never reach the LLVM dialect as calls
// into MLIR's runner library.
// LLVM-LABEL: llvm.func @conv_same
// LLVM-NOT: memrefCopy
func.func @conv_same(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = tfaot.Conv2D %x, %w {strides = [1, 2, 2, 1], padding = "SAME"} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

// Tests that NCHW convolutions run in NHWC between two transposes.
// CHECK-LABEL: func.func @conv_nchw
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x2x5x5xf32>) outs(%{{.*}} : tensor<1x5x5x2xf32>) permutation = [0, 2, 3, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x3x3x4xf32>) outs(%{{.*}} : tensor<1x4x3x3xf32>) permutation = [0, 3, 1, 2]
func.func @conv_nchw(%x: tensor<1x2x5x5xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = tfaot.Conv2D %x, %w {strides = [1, 1, 1, 1], padding = "VALID", data_format = "NCHW"} : (tensor<1x2x5x5xf32>, tensor<3x3x2x4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// Tests that a depthwise multiplier becomes the last dimension of linalg's
// result and is collapsed into TF's channel c * M + m.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: tensor.pad
// CHECK: %[[D:.*]] = linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} -> tensor<1x2x2x2x2xf32>
// CHECK: tensor.collapse_shape %[[D]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x2x2x2x2xf32> into tensor<1x2x2x4xf32>
func.func @depthwise(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32> {
  %0 = tfaot.DepthwiseConv2dNative %x, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// -----

// Tests that max pooling pads with -inf, so padding never wins, and that a
// float pool is linalg.pooling_nhwc_max's loops (n, oh, ow, c, then the
// window's kh, kw; strides 2 on oh and ow) with arith.maxnumf as its body,
// so it skips NaN as TF.js does (the named op's maximumf returns NaN),
// starting from -inf.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @maxpool
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PADDED:.*]] = tensor.pad {{.*}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[NEGINF]]
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<1x2x2x1xf32>)
// CHECK: %[[SHAPE:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WINDOW]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PADDED]], %[[SHAPE]] : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%[[INIT]] : tensor<1x2x2x1xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[MAX:.*]] = arith.maxnumf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[MAX]] : f32
func.func @maxpool(%x: tensor<1x3x3x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = tfaot.MaxPool %x {ksize = [1, 2, 2, 1], strides = [1, 2, 2, 1], padding = "SAME"} : (tensor<1x3x3x1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

// Tests that SAME average pooling divides by the number of in-bounds
// elements of each window: 4, 2, 2 and 1 for a 3x3 input, 2x2 windows.
// CHECK: linalg.pooling_nhwc_sum
// CHECK: arith.constant dense<{{\[\[}}4.000000e+00, 2.000000e+00], [2.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK: arith.divf
func.func @avgpool(%x: tensor<1x3x3x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = tfaot.AvgPool %x {ksize = [1, 2, 2, 1], strides = [1, 2, 2, 1], padding = "SAME"} : (tensor<1x3x3x1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

// Tests ConcatV2 with a negative axis as consecutive insert_slices.
// CHECK-LABEL: func.func @concat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[S:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[S]][0, 3] [2, 1] [1, 1]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %axis = tfaot.Const dense<-1> : tensor<i32>
  %0 = tfaot.ConcatV2 (%a, %b), %axis : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<i32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Tests Mean with keep_dims: reduce, divide by the 12 reduced elements,
// reshape back to rank 3.
// CHECK-LABEL: func.func @mean
// CHECK: iterator_types = ["parallel", "reduction", "reduction"]
// CHECK: arith.addf
// CHECK: %[[N:.*]] = arith.constant 1.200000e+01 : f32
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK: tensor.reshape {{.*}} -> tensor<2x1x1xf32>
func.func @mean(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  %axes = tfaot.Const dense<[1, 2]> : tensor<2xi32>
  %0 = tfaot.Mean %x, %axes {keep_dims = true} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

// Tests Prelu and LeakyRelu as "x > 0 ? x : alpha * x".
// CHECK-LABEL: func.func @prelu
// CHECK: arith.mulf
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: %[[A:.*]] = arith.constant 1.000000e-01 : f32
// CHECK: arith.mulf %{{.*}}, %[[A]]
func.func @prelu(%x: tensor<2x3xf32>, %alpha: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tfaot.Prelu %x, %alpha : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = tfaot.LeakyRelu %0 {alpha = 0.1 : f32} : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
