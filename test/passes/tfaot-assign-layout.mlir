// RUN: tfaot-opt %s --tfaot-assign-layout=layout=nhwc -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-assign-layout=layout=nchw -split-input-file | FileCheck %s --check-prefix=NCHW

// Tests that an NCHW chain (Conv2D, BiasAdd, Relu, MaxPool) runs in NHWC
// with one transpose at the argument and one at the result: the window
// attributes are permuted, the transposes between the ops cancel, and the
// filter stays HWIO.
// (NHWC is the default data_format, which the printer leaves out.)
// CHECK-LABEL: func.func @nchw_chain
// CHECK: %[[IN:.*]] = tfaot.Const dense<[0, 2, 3, 1]> : tensor<4xi32>
// CHECK: %[[X:.*]] = tfaot.Transpose %arg0, %[[IN]] : (tensor<1x3x9x9xf32>, tensor<4xi32>) -> tensor<1x9x9x3xf32>
// CHECK: %[[C:.*]] = tfaot.Conv2D %[[X]], %arg1 {explicit_paddings = [0, 0, 1, 2, 3, 4, 0, 0], padding = "EXPLICIT", strides = [1, 2, 1, 1]} : (tensor<1x9x9x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x5x14x4xf32>
// CHECK: %[[B:.*]] = tfaot.BiasAdd %[[C]], %arg2 : (tensor<1x5x14x4xf32>, tensor<4xf32>) -> tensor<1x5x14x4xf32>
// CHECK: %[[R:.*]] = tfaot.Relu %[[B]] : tensor<1x5x14x4xf32>
// CHECK: %[[P:.*]] = tfaot.MaxPool %[[R]] {ksize = [1, 1, 2, 1], padding = "VALID", strides = [1, 1, 2, 1]} : (tensor<1x5x14x4xf32>) -> tensor<1x5x7x4xf32>
// CHECK: %[[OUT:.*]] = tfaot.Const dense<[0, 3, 1, 2]> : tensor<4xi32>
// CHECK: %[[Y:.*]] = tfaot.Transpose %[[P]], %[[OUT]] : (tensor<1x5x7x4xf32>, tensor<4xi32>) -> tensor<1x4x5x7xf32>
// CHECK-NOT: tfaot.Transpose
// CHECK: return %[[Y]]
// With layout=nchw nothing changes.
// NCHW-LABEL: func.func @nchw_chain
// NCHW-NOT: tfaot.Transpose
// NCHW: tfaot.Conv2D %arg0, %arg1 {data_format = "NCHW", explicit_paddings = [0, 0, 0, 0, 1, 2, 3, 4], padding = "EXPLICIT", strides = [1, 1, 2, 1]}
// NCHW-NOT: tfaot.Transpose
// NCHW: return
func.func @nchw_chain(%x: tensor<1x3x9x9xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<4xf32>) -> tensor<1x4x5x7xf32> {
  %0 = tfaot.Conv2D %x, %w {data_format = "NCHW", padding = "EXPLICIT", explicit_paddings = [0, 0, 0, 0, 1, 2, 3, 4], strides = [1, 1, 2, 1]} : (tensor<1x3x9x9xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x5x14xf32>
  %1 = tfaot.BiasAdd %0, %b {data_format = "NCHW"} : (tensor<1x4x5x14xf32>, tensor<4xf32>) -> tensor<1x4x5x14xf32>
  %2 = tfaot.Relu %1 : tensor<1x4x5x14xf32>
  %3 = tfaot.MaxPool %2 {data_format = "NCHW", ksize = [1, 1, 1, 2], strides = [1, 1, 1, 2], padding = "VALID"} : (tensor<1x4x5x14xf32>) -> tensor<1x4x5x7xf32>
  return %3 : tensor<1x4x5x7xf32>
}

// -----

// Tests the shape of graphs converted from ONNX: NHWC convolutions with an
// explicit transpose to NCHW after each and back before the next, and a
// per-channel [C, 1, 1] constant Add, LeakyRelu, Pad and ConcatV2 in NCHW
// in between. With layout=nhwc every transpose cancels: the constant
// becomes [1, 1, C], the paddings rows and the concat axis follow the
// dimensions.
// CHECK-LABEL: func.func @onnx_style
// CHECK-NOT: tfaot.Transpose
// CHECK: %[[C1:.*]] = tfaot.Conv2D %arg0
// CHECK: %[[BIAS:.*]] = tfaot.Const dense<{{\[\[\[}}1.000000e+00, 2.000000e+00]]]> : tensor<1x1x2xf32>
// CHECK: %[[A:.*]] = tfaot.Add %[[C1]], %[[BIAS]] : (tensor<1x4x4x2xf32>, tensor<1x1x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[L:.*]] = tfaot.LeakyRelu %[[A]] {alpha = 1.000000e-01 : f32} : tensor<1x4x4x2xf32>
// CHECK: %[[PADS:.*]] = tfaot.Const dense<{{\[\[}}0, 0], [1, 1], [2, 2], [0, 0]]> : tensor<4x2xi32>
// CHECK: %[[P:.*]] = tfaot.Pad %[[L]], %[[PADS]], %{{.*}} : (tensor<1x4x4x2xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x6x8x2xf32>
// CHECK: %[[C2:.*]] = tfaot.Conv2D %[[P]], %arg2 {{.*}} -> tensor<1x4x6x2xf32>
// CHECK: %[[BEGIN:.*]] = tfaot.Const dense<[0, 0, 2, 0]> : tensor<4xi32>
// CHECK: %[[SIZE:.*]] = tfaot.Const dense<[-1, -1, 2, -1]> : tensor<4xi32>
// CHECK: %[[S:.*]] = tfaot.Slice %[[L]], %[[BEGIN]], %[[SIZE]] : (tensor<1x4x4x2xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x4x2x2xf32>
// CHECK: %[[AXIS:.*]] = tfaot.Const dense<2> : tensor<i32>
// CHECK: %[[CAT:.*]] = tfaot.ConcatV2(%[[C2]], %[[S]]), %[[AXIS]] : (tensor<1x4x6x2xf32>, tensor<1x4x2x2xf32>, tensor<i32>) -> tensor<1x4x8x2xf32>
// CHECK: %[[C3:.*]] = tfaot.Conv2D %[[CAT]]
// CHECK-NOT: tfaot.Transpose
// CHECK: return %[[C3]]
// With layout=nchw the convolutions turn NCHW, the explicit transposes
// cancel against theirs, and transposes stay at the argument and result.
// NCHW-LABEL: func.func @onnx_style
// NCHW: tfaot.Transpose %arg0
// NCHW: tfaot.Conv2D %{{.*}} {data_format = "NCHW"
// NCHW-NOT: tfaot.Transpose
// NCHW: %[[C3:.*]] = tfaot.Conv2D %{{.*}}, %arg3 {data_format = "NCHW"
// NCHW: %[[Y:.*]] = tfaot.Transpose %[[C3]]
// NCHW-NOT: tfaot.Transpose
// NCHW: return %[[Y]]
func.func @onnx_style(%x: tensor<1x4x4x3xf32>, %w1: tensor<1x1x3x2xf32>, %w2: tensor<3x3x2x2xf32>, %w3: tensor<1x1x2x5xf32>) -> tensor<1x4x8x5xf32> {
  %to_nchw = tfaot.Const dense<[0, 3, 1, 2]> : tensor<4xi32>
  %to_nhwc = tfaot.Const dense<[0, 2, 3, 1]> : tensor<4xi32>
  %bias = tfaot.Const dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %pads = tfaot.Const dense<[[0, 0], [0, 0], [1, 1], [2, 2]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %axis = tfaot.Const dense<-1> : tensor<i32>
  %begin = tfaot.Const dense<[0, 0, 0, 2]> : tensor<4xi32>
  %size = tfaot.Const dense<[-1, -1, -1, 2]> : tensor<4xi32>
  %c1 = tfaot.Conv2D %x, %w1 {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<1x4x4x2xf32>
  %t1 = tfaot.Transpose %c1, %to_nchw : (tensor<1x4x4x2xf32>, tensor<4xi32>) -> tensor<1x2x4x4xf32>
  %a = tfaot.Add %t1, %bias : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %l = tfaot.LeakyRelu %a {alpha = 0.1 : f32} : tensor<1x2x4x4xf32>
  %p = tfaot.Pad %l, %pads, %zero : (tensor<1x2x4x4xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x2x6x8xf32>
  %t2 = tfaot.Transpose %p, %to_nhwc : (tensor<1x2x6x8xf32>, tensor<4xi32>) -> tensor<1x6x8x2xf32>
  %c2 = tfaot.Conv2D %t2, %w2 {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x6x8x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x4x6x2xf32>
  %t3 = tfaot.Transpose %c2, %to_nchw : (tensor<1x4x6x2xf32>, tensor<4xi32>) -> tensor<1x2x4x6xf32>
  %s = tfaot.Slice %l, %begin, %size : (tensor<1x2x4x4xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x2xf32>
  %cat = tfaot.ConcatV2(%t3, %s), %axis : (tensor<1x2x4x6xf32>, tensor<1x2x4x2xf32>, tensor<i32>) -> tensor<1x2x4x8xf32>
  %t4 = tfaot.Transpose %cat, %to_nhwc : (tensor<1x2x4x8xf32>, tensor<4xi32>) -> tensor<1x4x8x2xf32>
  %c3 = tfaot.Conv2D %t4, %w3 {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x8x2xf32>, tensor<1x1x2x5xf32>) -> tensor<1x4x8x5xf32>
  return %c3 : tensor<1x4x8x5xf32>
}

// -----

// Tests that ResizeBilinear (NHWC-only in TF) takes the target layout too:
// in NCHW the conv -> resize -> conv chain needs transposes only at the
// boundary, and the resize gets data_format = "NCHW" (its `size` operand,
// [H, W], is the same in both layouts).
// CHECK-LABEL: func.func @resize_chain
// CHECK-NOT: tfaot.Transpose
// CHECK: tfaot.ResizeBilinear %{{.*}}, %{{.*}} {half_pixel_centers = true} : (tensor<1x4x4x2xf32>, tensor<2xi32>) -> tensor<1x8x8x2xf32>
// NCHW-LABEL: func.func @resize_chain
// NCHW: tfaot.Transpose %arg0
// NCHW: tfaot.Conv2D {{.*}}data_format = "NCHW"
// NCHW-NOT: tfaot.Transpose
// NCHW: tfaot.ResizeBilinear %{{.*}}, %{{.*}} {data_format = "NCHW", half_pixel_centers = true} : (tensor<1x2x4x4xf32>, tensor<2xi32>) -> tensor<1x2x8x8xf32>
// NCHW-NOT: tfaot.Transpose
// NCHW: tfaot.Conv2D {{.*}}data_format = "NCHW"
// NCHW: tfaot.Transpose
// NCHW-NEXT: return
func.func @resize_chain(%x: tensor<1x4x4x2xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x8x8x2xf32> {
  %size = tfaot.Const dense<[8, 8]> : tensor<2xi32>
  %0 = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = tfaot.ResizeBilinear %0, %size {half_pixel_centers = true} : (tensor<1x4x4x2xf32>, tensor<2xi32>) -> tensor<1x8x8x2xf32>
  %2 = tfaot.Conv2D %1, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x8x8x2xf32>
  return %2 : tensor<1x8x8x2xf32>
}

// -----

// Tests that with layout=nchw an NHWC chain (Conv2D, BiasAdd, Relu,
// AvgPool, FusedBatchNorm) turns NCHW with transposes only at the boundary;
// with layout=nhwc nothing changes.
// CHECK-LABEL: func.func @nhwc_chain
// CHECK-NOT: tfaot.Transpose
// CHECK: tfaot.Conv2D %arg0, %arg1 {padding = "SAME", strides = [1, 2, 2, 1]}
// CHECK-NOT: tfaot.Transpose
// CHECK: return
// NCHW-LABEL: func.func @nhwc_chain
// NCHW: %[[IN:.*]] = tfaot.Const dense<[0, 3, 1, 2]> : tensor<4xi32>
// NCHW: %[[X:.*]] = tfaot.Transpose %arg0, %[[IN]] : (tensor<1x8x8x3xf32>, tensor<4xi32>) -> tensor<1x3x8x8xf32>
// NCHW: %[[C:.*]] = tfaot.Conv2D %[[X]], %arg1 {data_format = "NCHW", padding = "SAME", strides = [1, 1, 2, 2]} : (tensor<1x3x8x8xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
// NCHW: %[[B:.*]] = tfaot.BiasAdd %[[C]], %arg2 {data_format = "NCHW"} : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
// NCHW: %[[R:.*]] = tfaot.Relu6 %[[B]] : tensor<1x4x4x4xf32>
// NCHW: %[[P:.*]] = tfaot.AvgPool %[[R]] {data_format = "NCHW", ksize = [1, 1, 2, 2], padding = "VALID", strides = [1, 1, 2, 2]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
// NCHW: %[[N:.*]] = tfaot.FusedBatchNorm %[[P]], %arg2, %arg2, %arg2, %arg2 {data_format = "NCHW"} : (tensor<1x4x2x2xf32>, {{.*}}) -> tensor<1x4x2x2xf32>
// NCHW: %[[OUT:.*]] = tfaot.Const dense<[0, 2, 3, 1]> : tensor<4xi32>
// NCHW: %[[Y:.*]] = tfaot.Transpose %[[N]], %[[OUT]] : (tensor<1x4x2x2xf32>, tensor<4xi32>) -> tensor<1x2x2x4xf32>
// NCHW: return %[[Y]]
func.func @nhwc_chain(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = tfaot.Conv2D %x, %w {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
  %1 = tfaot.BiasAdd %0, %b : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %2 = tfaot.Relu6 %1 : tensor<1x4x4x4xf32>
  %3 = tfaot.AvgPool %2 {ksize = [1, 2, 2, 1], strides = [1, 2, 2, 1], padding = "VALID"} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32>
  %4 = tfaot.FusedBatchNorm %3, %b, %b, %b, %b : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  return %4 : tensor<1x2x2x4xf32>
}

// -----

// Tests that a Reshape that flattens NCHW (C, H and W are no longer
// consecutive in NHWC) stops the motion: the transpose back to NCHW stays
// in front of it, moved past the Relu towards it.
// CHECK-LABEL: func.func @flatten_stops
// CHECK: %[[X:.*]] = tfaot.Transpose %arg0
// CHECK: %[[C:.*]] = tfaot.DepthwiseConv2dNative %[[X]], %arg1 {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x1xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[R:.*]] = tfaot.Relu %[[C]] : tensor<1x4x4x2xf32>
// CHECK: %[[T:.*]] = tfaot.Transpose %[[R]], %{{.*}} : (tensor<1x4x4x2xf32>, tensor<4xi32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[F:.*]] = tfaot.Reshape %[[T]], %{{.*}} : (tensor<1x2x4x4xf32>, tensor<2xi32>) -> tensor<1x32xf32>
// CHECK: return %[[F]]
func.func @flatten_stops(%x: tensor<1x2x4x4xf32>, %w: tensor<1x1x2x1xf32>) -> tensor<1x32xf32> {
  %shape = tfaot.Const dense<[1, 32]> : tensor<2xi32>
  %0 = tfaot.DepthwiseConv2dNative %x, %w {data_format = "NCHW", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<1x1x2x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = tfaot.Relu %0 : tensor<1x2x4x4xf32>
  %2 = tfaot.Reshape %1, %shape : (tensor<1x2x4x4xf32>, tensor<2xi32>) -> tensor<1x32xf32>
  return %2 : tensor<1x32xf32>
}

// -----

// Tests the ONNX detection-head shape: NCHW channel slices, Sigmoid, a
// Reshape merging H and W, and a transpose to [N, HW, C]. H and W stay
// consecutive in NHWC, so the Reshape is done there ([1, HW, C] directly),
// the StridedSlice's lists and masks follow the dimensions, and every
// transpose cancels.
// CHECK-LABEL: func.func @detection_head
// CHECK-NOT: tfaot.Transpose
// CHECK: %[[S:.*]] = tfaot.StridedSlice %{{.*}} {end_mask = 2 : i64} : (tensor<1x3x3x5xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x3x3x3xf32>
// CHECK: %[[G:.*]] = tfaot.Sigmoid %[[S]] : tensor<1x3x3x3xf32>
// CHECK: %[[R:.*]] = tfaot.Reshape %[[G]], %{{.*}} : (tensor<1x3x3x3xf32>, tensor<3xi64>) -> tensor<1x9x3xf32>
// CHECK-NOT: tfaot.Transpose
// CHECK: return %[[R]]
func.func @detection_head(%x: tensor<1x3x3x5xf32>) -> tensor<1x9x3xf32> {
  %to_nchw = tfaot.Const dense<[0, 3, 1, 2]> : tensor<4xi32>
  %swap = tfaot.Const dense<[0, 2, 1]> : tensor<3xi32>
  %begin = tfaot.Const dense<[0, 2, 0, 0]> : tensor<4xi64>
  %end = tfaot.Const dense<[1, 5, 0, 3]> : tensor<4xi64>
  %strides = tfaot.Const dense<1> : tensor<4xi64>
  %shape = tfaot.Const dense<[1, 3, 9]> : tensor<3xi64>
  %t = tfaot.Transpose %x, %to_nchw : (tensor<1x3x3x5xf32>, tensor<4xi32>) -> tensor<1x5x3x3xf32>
  %s = tfaot.StridedSlice %t, %begin, %end, %strides {end_mask = 4 : i64} : (tensor<1x5x3x3xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x3x3x3xf32>
  %g = tfaot.Sigmoid %s : tensor<1x3x3x3xf32>
  %r = tfaot.Reshape %g, %shape : (tensor<1x3x3x3xf32>, tensor<3xi64>) -> tensor<1x3x9xf32>
  %y = tfaot.Transpose %r, %swap : (tensor<1x3x9xf32>, tensor<3xi32>) -> tensor<1x9x3xf32>
  return %y : tensor<1x9x3xf32>
}

// -----

// Tests that a global average pool written as Mean over H and W of NCHW
// (keep_dims = false) reduces H and W of NHWC instead, and no transpose is
// left: [N, C] is the same in both layouts. The Mul by a per-channel
// constant of rank 4 is permuted with it.
// CHECK-LABEL: func.func @global_mean
// CHECK-NOT: tfaot.Transpose
// CHECK: %[[K:.*]] = tfaot.Const dense<{{\[\[\[\[}}2.000000e+00, 3.000000e+00]]]]> : tensor<1x1x1x2xf32>
// CHECK: %[[M:.*]] = tfaot.Mul %{{.*}}, %[[K]] : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[AXES:.*]] = tfaot.Const dense<[1, 2]> : tensor<2xi32>
// CHECK: %[[R:.*]] = tfaot.Mean %[[M]], %[[AXES]] : (tensor<1x4x4x2xf32>, tensor<2xi32>) -> tensor<1x2xf32>
// CHECK: return %[[R]]
func.func @global_mean(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>) -> tensor<1x2xf32> {
  %to_nchw = tfaot.Const dense<[0, 3, 1, 2]> : tensor<4xi32>
  %k = tfaot.Const dense<[[[[2.0]], [[3.0]]]]> : tensor<1x2x1x1xf32>
  %axes = tfaot.Const dense<[2, 3]> : tensor<2xi32>
  %c = tfaot.Conv2D %x, %w {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<1x4x4x2xf32>
  %t = tfaot.Transpose %c, %to_nchw : (tensor<1x4x4x2xf32>, tensor<4xi32>) -> tensor<1x2x4x4xf32>
  %m = tfaot.Mul %t, %k : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = tfaot.Mean %m, %axes : (tensor<1x2x4x4xf32>, tensor<2xi32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// -----

// Tests the transpose clean-ups: a transpose of a constant becomes a
// constant, two transposes compose into one, and one that composes into
// the identity goes.
// CHECK-LABEL: func.func @cleanups
// CHECK-DAG: %[[K:.*]] = tfaot.Const dense<{{\[\[}}1, 3], [2, 4]]> : tensor<2x2xi32>
// CHECK-DAG: %[[P:.*]] = tfaot.Const dense<[1, 2, 0]> : tensor<3xi32>
// CHECK: %[[T:.*]] = tfaot.Transpose %arg0, %[[P]] : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<3x4x2xf32>
// CHECK-NOT: tfaot.Transpose
// CHECK: return %[[K]], %[[T]], %arg0
func.func @cleanups(%x: tensor<2x3x4xf32>) -> (tensor<2x2xi32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>) {
  %k = tfaot.Const dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %swap = tfaot.Const dense<[1, 0]> : tensor<2xi32>
  %p1 = tfaot.Const dense<[0, 2, 1]> : tensor<3xi32>
  %p2 = tfaot.Const dense<[2, 0, 1]> : tensor<3xi32>
  %p3 = tfaot.Const dense<[1, 2, 0]> : tensor<3xi32>
  %kt = tfaot.Transpose %k, %swap : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  // [0, 2, 1] then [2, 0, 1] is [1, 0, 2]... composed: x dims (1, 2, 0).
  %a = tfaot.Transpose %x, %p1 : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<2x4x3xf32>
  %b = tfaot.Transpose %a, %p2 : (tensor<2x4x3xf32>, tensor<3xi32>) -> tensor<3x2x4xf32>
  %c = tfaot.Transpose %b, %p1 : (tensor<3x2x4xf32>, tensor<3xi32>) -> tensor<3x4x2xf32>
  // [1, 2, 0] then [2, 0, 1] is the identity.
  %d = tfaot.Transpose %x, %p3 : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<3x4x2xf32>
  %e = tfaot.Transpose %d, %p2 : (tensor<3x4x2xf32>, tensor<3xi32>) -> tensor<2x3x4xf32>
  return %kt, %c, %e : tensor<2x2xi32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>
}

// -----

// Tests that a transpose whose value is also used by an op that cannot be
// permuted (a Reshape) is not duplicated: moving it down past the Relu
// would need a second one, so the graph stays as it is.
// CHECK-LABEL: func.func @shared_stays
// CHECK: %[[T:.*]] = tfaot.Transpose %arg0
// CHECK: tfaot.Relu %[[T]]
// CHECK: tfaot.Reshape %[[T]]
// CHECK-NOT: tfaot.Transpose
// CHECK: return
func.func @shared_stays(%x: tensor<1x2x2x3xf32>) -> (tensor<1x3x2x2xf32>, tensor<1x12xf32>) {
  %to_nchw = tfaot.Const dense<[0, 3, 1, 2]> : tensor<4xi32>
  %shape = tfaot.Const dense<[1, 12]> : tensor<2xi32>
  %t = tfaot.Transpose %x, %to_nchw : (tensor<1x2x2x3xf32>, tensor<4xi32>) -> tensor<1x3x2x2xf32>
  %r = tfaot.Relu %t : tensor<1x3x2x2xf32>
  %f = tfaot.Reshape %t, %shape : (tensor<1x3x2x2xf32>, tensor<2xi32>) -> tensor<1x12xf32>
  return %r, %f : tensor<1x3x2x2xf32>, tensor<1x12xf32>
}

// -----

// Tests a group with a Reshape that adds a size-1 dimension: it goes with
// the dimension it follows (HW in [N, C, HW, 1], so [N, HW, 1, C] in NHWC),
// the Reshape is done on the NHWC argument directly, and the transposes
// around the group all go (the one on the keep_dims Mean, [1, 1, 1, C]
// either way, moves only size-1 dimensions and keeps the shape).
// CHECK-LABEL: func.func @reshape_inside
// CHECK-NOT: tfaot.Transpose
// CHECK: %[[R:.*]] = tfaot.Reshape %arg0, %{{.*}} : (tensor<1x3x4x2xf32>, tensor<4xi32>) -> tensor<1x12x1x2xf32>
// CHECK: %[[AXES:.*]] = tfaot.Const dense<[1, 2]> : tensor<2xi32>
// CHECK: %[[M:.*]] = tfaot.Mean %arg0, %[[AXES]] {keep_dims = true} : (tensor<1x3x4x2xf32>, tensor<2xi32>) -> tensor<1x1x1x2xf32>
// CHECK: %[[A:.*]] = tfaot.Add %[[R]], %[[M]] : (tensor<1x12x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x12x1x2xf32>
// CHECK-NOT: tfaot.Transpose
// CHECK: return %[[A]], %[[M]]
func.func @reshape_inside(%x: tensor<1x3x4x2xf32>) -> (tensor<1x12x1x2xf32>, tensor<1x1x1x2xf32>) {
  %to_nchw = tfaot.Const dense<[0, 3, 1, 2]> : tensor<4xi32>
  %to_nhwc = tfaot.Const dense<[0, 2, 3, 1]> : tensor<4xi32>
  %shape = tfaot.Const dense<[1, 2, 12, 1]> : tensor<4xi32>
  %axes = tfaot.Const dense<[2, 3]> : tensor<2xi32>
  %t = tfaot.Transpose %x, %to_nchw : (tensor<1x3x4x2xf32>, tensor<4xi32>) -> tensor<1x2x3x4xf32>
  %r = tfaot.Reshape %t, %shape : (tensor<1x2x3x4xf32>, tensor<4xi32>) -> tensor<1x2x12x1xf32>
  %m = tfaot.Mean %t, %axes {keep_dims = true} : (tensor<1x2x3x4xf32>, tensor<2xi32>) -> tensor<1x2x1x1xf32>
  %a = tfaot.Add %r, %m : (tensor<1x2x12x1xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x12x1xf32>
  %y1 = tfaot.Transpose %a, %to_nhwc : (tensor<1x2x12x1xf32>, tensor<4xi32>) -> tensor<1x12x1x2xf32>
  %y2 = tfaot.Transpose %m, %to_nhwc : (tensor<1x2x1x1xf32>, tensor<4xi32>) -> tensor<1x1x1x2xf32>
  return %y1, %y2 : tensor<1x12x1x2xf32>, tensor<1x1x1x2xf32>
}

// -----

// Tests the flatten in front of a classifier (Keras Flatten, then Dense):
// in NCHW the convolution's result must be flattened in NHWC order, so a
// transpose would stay in front of the Reshape. Instead the Reshape
// flattens the NCHW value and the MatMul's weight rows are reordered to
// match: row c*4 + h*2 + w of the new weights is row h*6 + w*3 + c of the
// old ones (hand-derived; the old row k holds k).
// CHECK-LABEL: func.func @flatten_into_matmul
// CHECK-NOT: tfaot.Transpose
// CHECK: return
// NCHW-LABEL: func.func @flatten_into_matmul
// NCHW: tfaot.Transpose %arg0
// NCHW-NOT: tfaot.Transpose
// NCHW: %[[C:.*]] = tfaot.Conv2D {{.*}} -> tensor<1x3x2x2xf32>
// NCHW: %[[B:.*]] = tfaot.BiasAdd %[[C]], {{.*}} {data_format = "NCHW"}
// NCHW: %[[R:.*]] = tfaot.Relu %[[B]]
// NCHW: %[[F:.*]] = tfaot.Reshape %[[R]], %{{.*}} : (tensor<1x3x2x2xf32>, tensor<2xi32>) -> tensor<1x12xf32>
// NCHW: %[[W:.*]] = tfaot.Const dense<{{\[\[}}0.000000e+00], [3.000000e+00], [6.000000e+00], [9.000000e+00], [1.000000e+00], [4.000000e+00], [7.000000e+00], [1.000000e+01], [2.000000e+00], [5.000000e+00], [8.000000e+00], [1.100000e+01]]> : tensor<12x1xf32>
// NCHW: %[[M:.*]] = tfaot.MatMul %[[F]], %[[W]]
// NCHW-NOT: tfaot.Transpose
// NCHW: return %[[M]]
func.func @flatten_into_matmul(%x: tensor<1x2x2x2xf32>, %f: tensor<1x1x2x3xf32>, %b: tensor<3xf32>) -> tensor<1x1xf32> {
  %shape = tfaot.Const dense<[-1, 12]> : tensor<2xi32>
  %w = tfaot.Const dense<[[0.0], [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0]]> : tensor<12x1xf32>
  %c = tfaot.Conv2D %x, %f {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x2x3xf32>
  %a = tfaot.BiasAdd %c, %b : (tensor<1x2x2x3xf32>, tensor<3xf32>) -> tensor<1x2x2x3xf32>
  %r = tfaot.Relu %a : tensor<1x2x2x3xf32>
  %flat = tfaot.Reshape %r, %shape : (tensor<1x2x2x3xf32>, tensor<2xi32>) -> tensor<1x12xf32>
  %m = tfaot.MatMul %flat, %w : (tensor<1x12xf32>, tensor<12x1xf32>) -> tensor<1x1xf32>
  return %m : tensor<1x1xf32>
}

// -----

// Tests the SSR-Net shape: two branches flattened alike, multiplied, a
// constant of [K] added, then a MatMul with transpose_b. In NCHW both
// transposes fold at once; the [K] constant and the weight columns are
// reordered the same way (hand-derived, as above).
// NCHW-LABEL: func.func @flattened_branches
// NCHW: tfaot.Transpose %arg0
// NCHW: tfaot.Transpose %arg0
// NCHW-NOT: tfaot.Transpose
// NCHW: %[[F1:.*]] = tfaot.Reshape {{.*}} : (tensor<1x3x2x2xf32>, tensor<2xi32>) -> tensor<1x12xf32>
// NCHW: %[[F2:.*]] = tfaot.Reshape {{.*}} : (tensor<1x3x2x2xf32>, tensor<2xi32>) -> tensor<1x12xf32>
// NCHW: %[[P:.*]] = tfaot.Mul %[[F1]], %[[F2]]
// NCHW: %[[K:.*]] = tfaot.Const dense<[0.000000e+00, 3.000000e+00, 6.000000e+00, 9.000000e+00, 1.000000e+00, 4.000000e+00, 7.000000e+00, 1.000000e+01, 2.000000e+00, 5.000000e+00, 8.000000e+00, 1.100000e+01]> : tensor<12xf32>
// NCHW: %[[S:.*]] = tfaot.AddV2 %[[P]], %[[K]]
// NCHW: %[[W:.*]] = tfaot.Const dense<{{\[\[}}0.000000e+00, 3.000000e+00, 6.000000e+00, 9.000000e+00, 1.000000e+00, 4.000000e+00, 7.000000e+00, 1.000000e+01, 2.000000e+00, 5.000000e+00, 8.000000e+00, 1.100000e+01]]> : tensor<1x12xf32>
// NCHW: %[[M:.*]] = tfaot.MatMul %[[S]], %[[W]] {transpose_b = true}
// NCHW-NOT: tfaot.Transpose
// NCHW: return %[[M]]
func.func @flattened_branches(%x: tensor<1x2x2x2xf32>, %f1: tensor<1x1x2x3xf32>, %f2: tensor<1x1x2x3xf32>) -> tensor<1x1xf32> {
  %shape = tfaot.Const dense<[-1, 12]> : tensor<2xi32>
  %k = tfaot.Const dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
  %w = tfaot.Const dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]]> : tensor<1x12xf32>
  %c1 = tfaot.Conv2D %x, %f1 {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x2x3xf32>
  %c2 = tfaot.Conv2D %x, %f2 {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x2x3xf32>
  %flat1 = tfaot.Reshape %c1, %shape : (tensor<1x2x2x3xf32>, tensor<2xi32>) -> tensor<1x12xf32>
  %flat2 = tfaot.Reshape %c2, %shape : (tensor<1x2x2x3xf32>, tensor<2xi32>) -> tensor<1x12xf32>
  %p = tfaot.Mul %flat1, %flat2 : (tensor<1x12xf32>, tensor<1x12xf32>) -> tensor<1x12xf32>
  %s = tfaot.AddV2 %p, %k : (tensor<1x12xf32>, tensor<12xf32>) -> tensor<1x12xf32>
  %m = tfaot.MatMul %s, %w {transpose_b = true} : (tensor<1x12xf32>, tensor<1x12xf32>) -> tensor<1x1xf32>
  return %m : tensor<1x1xf32>
}

// -----

// Tests that the flatten stays behind its transpose when the flattened
// value is needed as it is: by a MatMul whose weights are not constant, and
// by the function's result (through a Relu).
// NCHW-LABEL: func.func @flatten_must_stay
// NCHW: tfaot.Transpose %arg0
// NCHW: %[[T:.*]] = tfaot.Transpose %{{.*}} -> tensor<1x2x2x3xf32>
// NCHW: %[[F1:.*]] = tfaot.Reshape %[[T]]
// NCHW: tfaot.MatMul %[[F1]], %arg2
// NCHW: %[[R:.*]] = tfaot.Relu %[[T]]
// NCHW: %[[F2:.*]] = tfaot.Reshape %[[R]]
// NCHW-NOT: tfaot.Transpose
// NCHW: return %{{.*}}, %{{.*}}, %[[F2]]
func.func @flatten_must_stay(%x: tensor<1x2x2x2xf32>, %f: tensor<1x1x2x3xf32>, %w: tensor<12x1xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x12xf32>) {
  %shape = tfaot.Const dense<[-1, 12]> : tensor<2xi32>
  %k = tfaot.Const dense<1.0> : tensor<12x1xf32>
  %c = tfaot.Conv2D %x, %f {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x2x3xf32>
  %flat1 = tfaot.Reshape %c, %shape : (tensor<1x2x2x3xf32>, tensor<2xi32>) -> tensor<1x12xf32>
  %m1 = tfaot.MatMul %flat1, %w : (tensor<1x12xf32>, tensor<12x1xf32>) -> tensor<1x1xf32>
  %r = tfaot.Relu %c : tensor<1x2x2x3xf32>
  %flat2 = tfaot.Reshape %r, %shape : (tensor<1x2x2x3xf32>, tensor<2xi32>) -> tensor<1x12xf32>
  %m2 = tfaot.MatMul %flat2, %k : (tensor<1x12xf32>, tensor<12x1xf32>) -> tensor<1x1xf32>
  return %m1, %m2, %flat2 : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x12xf32>
}

// -----

// Tests a zero-interleaving upsampling (how TF.js converters write
// conv2d_transpose: Reshape to [N, H, 1, W, 1, C], Pad the size-1
// dimensions to 2, Reshape to [N, 2H, 2W, C]) between NHWC convolutions:
// in NCHW the size-1 dimensions go with H and W ([N, C, H, 1, W, 1]), so
// the Pad and both Reshapes run in NCHW and no transpose is left inside.
// NCHW-LABEL: func.func @upsample_by_pad
// NCHW: tfaot.Transpose %arg0
// NCHW-NOT: tfaot.Transpose
// NCHW: tfaot.Reshape {{.*}} -> tensor<1x3x2x1x2x1xf32>
// NCHW: tfaot.Pad {{.*}} -> tensor<1x3x2x2x2x2xf32>
// NCHW: tfaot.Reshape {{.*}} -> tensor<1x3x4x4xf32>
// NCHW: tfaot.Conv2D {{.*}} -> tensor<1x3x4x4xf32>
// NCHW: tfaot.Transpose
// NCHW-NOT: tfaot.Transpose
// NCHW: return
func.func @upsample_by_pad(%x: tensor<1x2x2x3xf32>, %f: tensor<1x1x3x3xf32>) -> tensor<1x4x4x3xf32> {
  %s6 = tfaot.Const dense<[1, 2, 1, 2, 1, 3]> : tensor<6xi64>
  %pads = tfaot.Const dense<[[0, 0], [0, 0], [0, 1], [0, 0], [0, 1], [0, 0]]> : tensor<6x2xi64>
  %s4 = tfaot.Const dense<[1, 4, 4, 3]> : tensor<4xi64>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  %c = tfaot.Conv2D %x, %f {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x2x2x3xf32>
  %r = tfaot.Reshape %c, %s6 : (tensor<1x2x2x3xf32>, tensor<6xi64>) -> tensor<1x2x1x2x1x3xf32>
  %p = tfaot.Pad %r, %pads, %zero : (tensor<1x2x1x2x1x3xf32>, tensor<6x2xi64>, tensor<f32>) -> tensor<1x2x2x2x2x3xf32>
  %u = tfaot.Reshape %p, %s4 : (tensor<1x2x2x2x2x3xf32>, tensor<4xi64>) -> tensor<1x4x4x3xf32>
  %y = tfaot.Conv2D %u, %f {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// -----

// Tests the squeeze-and-excite shape of Keras Dense layers on [N, 1, 1, C]:
// the transpose that would put the MatMul's result into NCHW only moves
// size-1 dimensions, so it is a Reshape, and none is left inside.
// NCHW-LABEL: func.func @squeeze_excite
// NCHW: tfaot.Transpose %arg0
// NCHW-NOT: tfaot.Transpose
// NCHW: %[[G:.*]] = tfaot.Sigmoid %{{.*}} : tensor<1x3x1x1xf32>
// NCHW: tfaot.Mul %{{.*}}, %[[G]] : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
// NCHW: tfaot.Transpose
// NCHW-NOT: tfaot.Transpose
// NCHW: return
func.func @squeeze_excite(%x: tensor<1x2x2x3xf32>, %f: tensor<1x1x3x3xf32>, %w: tensor<3x3xf32>, %b: tensor<3xf32>) -> tensor<1x2x2x3xf32> {
  %axes = tfaot.Const dense<[1, 2]> : tensor<2xi32>
  %s4 = tfaot.Const dense<[1, 1, 1, 3]> : tensor<4xi32>
  %c = tfaot.Conv2D %x, %f {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x2x2x3xf32>
  %m = tfaot.Mean %c, %axes : (tensor<1x2x2x3xf32>, tensor<2xi32>) -> tensor<1x3xf32>
  %d = tfaot.MatMul %m, %w : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<1x3xf32>
  %r = tfaot.Reshape %d, %s4 : (tensor<1x3xf32>, tensor<4xi32>) -> tensor<1x1x1x3xf32>
  %a = tfaot.BiasAdd %r, %b : (tensor<1x1x1x3xf32>, tensor<3xf32>) -> tensor<1x1x1x3xf32>
  %g = tfaot.Sigmoid %a : tensor<1x1x1x3xf32>
  %y = tfaot.Mul %c, %g : (tensor<1x2x2x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x2x2x3xf32>
  return %y : tensor<1x2x2x3xf32>
}
