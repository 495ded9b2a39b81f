// RUN: tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-scale-jpeg-decode))' -split-input-file | FileCheck %s
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-scale-jpeg-decode))' -split-input-file 2>&1 | FileCheck %s --check-prefix=REMARK

// Tests the preprocessing chain TF writes: a 37x53 decode resized to 8x8
// is decoded at 1/4 (ceil(37/4) x ceil(53/4) = 10x14 >= 8x8; at 1/8 it would
// be 5x7, too small), and every op up to the resize takes the 10x14 image;
// the batch ExpandDims gets a new shape constant in its own element type.
// CHECK-LABEL: func.func @pipeline
// CHECK: %[[D:.*]] = tfaot.DecodeJpeg %arg0 {channels = 3 : i64, ratio = 4 : i64} : (tensor<2xi64>) -> tensor<10x14x3xui8>
// CHECK: %[[F:.*]] = tfaot.Cast %[[D]] : (tensor<10x14x3xui8>) -> tensor<10x14x3xf32>
// CHECK: %[[S:.*]] = tfaot.Const dense<[1, 10, 14, 3]> : tensor<4xi32>
// CHECK: %[[B:.*]] = tfaot.Reshape %[[F]], %[[S]] : (tensor<10x14x3xf32>, tensor<4xi32>) -> tensor<1x10x14x3xf32>
// CHECK: %[[N:.*]] = tfaot.Sub %[[B]], %{{.*}} : (tensor<1x10x14x3xf32>, tensor<3xf32>) -> tensor<1x10x14x3xf32>
// CHECK: tfaot.ResizeBilinear %[[N]], %{{.*}} {half_pixel_centers = true} : (tensor<1x10x14x3xf32>, tensor<2xi32>) -> tensor<1x8x8x3xf32>
// REMARK: remark: [tfaot-scale-jpeg-decode] decoded at a smaller scale: 1/4: 10x14 instead of 37x53 for the 8x8 resize
func.func @pipeline(%arg0: tensor<2xi64>) -> tensor<1x8x8x3xf32> {
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %1 = tfaot.Cast %0 : (tensor<37x53x3xui8>) -> tensor<37x53x3xf32>
  %shape = tfaot.Const dense<[1, 37, 53, 3]> : tensor<4xi32>
  %2 = tfaot.Reshape %1, %shape : (tensor<37x53x3xf32>, tensor<4xi32>) -> tensor<1x37x53x3xf32>
  %mean = tfaot.Const dense<[123.0, 117.0, 104.0]> : tensor<3xf32>
  %3 = tfaot.Sub %2, %mean : (tensor<1x37x53x3xf32>, tensor<3xf32>) -> tensor<1x37x53x3xf32>
  %size = tfaot.Const dense<8> : tensor<2xi32>
  %4 = tfaot.ResizeBilinear %3, %size {half_pixel_centers = true} : (tensor<1x37x53x3xf32>, tensor<2xi32>) -> tensor<1x8x8x3xf32>
  return %4 : tensor<1x8x8x3xf32>
}

// -----

// Tests the largest ratio: 224x224 out of 2000x3000 decodes at 1/8 (250x375).
// CHECK-LABEL: func.func @eighth
// CHECK: tfaot.DecodeJpeg %arg0 {channels = 3 : i64, ratio = 8 : i64} : (tensor<2xi64>) -> tensor<250x375x3xui8>
// CHECK: tfaot.ResizeNearestNeighbor %{{.*}} : (tensor<1x250x375x3xui8>, tensor<2xi32>) -> tensor<1x224x224x3xui8>
func.func @eighth(%arg0: tensor<2xi64>) -> tensor<1x224x224x3xui8> {
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<2000x3000x3xui8>
  %shape = tfaot.Const dense<[1, 2000, 3000, 3]> : tensor<4xi64>
  %1 = tfaot.Reshape %0, %shape : (tensor<2000x3000x3xui8>, tensor<4xi64>) -> tensor<1x2000x3000x3xui8>
  %size = tfaot.Const dense<224> : tensor<2xi32>
  %2 = tfaot.ResizeNearestNeighbor %1, %size : (tensor<1x2000x3000x3xui8>, tensor<2xi32>) -> tensor<1x224x224x3xui8>
  return %2 : tensor<1x224x224x3xui8>
}

// -----

// Tests the cases left alone: a resize that shrinks by less than 2 in one
// dimension, a decode whose pixels are also used elsewhere, an op in the
// chain that mixes pixels (a per-pixel constant), a decode already scaled,
// and a crop window.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: ratio = {{[248]}}
// CHECK: tfaot.DecodeJpeg %arg0 {channels = 3 : i64, ratio = 2 : i64} : (tensor<2xi64>) -> tensor<19x27x3xui8>
// CHECK-NOT: ratio = {{[48]}}
func.func @left_alone(%arg0: tensor<2xi64>) -> (tensor<1x20x8x3xf32>, tensor<37x53x3xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>, tensor<1x2x2x3xf32>) {
  %size = tfaot.Const dense<8> : tensor<2xi32>
  %shape = tfaot.Const dense<[1, 37, 53, 3]> : tensor<4xi32>
  // 37 -> 20 is less than half.
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %1 = tfaot.Cast %0 : (tensor<37x53x3xui8>) -> tensor<37x53x3xf32>
  %2 = tfaot.Reshape %1, %shape : (tensor<37x53x3xf32>, tensor<4xi32>) -> tensor<1x37x53x3xf32>
  %size2 = tfaot.Const dense<[20, 8]> : tensor<2xi32>
  %3 = tfaot.ResizeBilinear %2, %size2 : (tensor<1x37x53x3xf32>, tensor<2xi32>) -> tensor<1x20x8x3xf32>
  // The float image is returned too.
  %4 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %5 = tfaot.Cast %4 : (tensor<37x53x3xui8>) -> tensor<37x53x3xf32>
  %6 = tfaot.Reshape %5, %shape : (tensor<37x53x3xf32>, tensor<4xi32>) -> tensor<1x37x53x3xf32>
  %7 = tfaot.ResizeBilinear %6, %size : (tensor<1x37x53x3xf32>, tensor<2xi32>) -> tensor<1x8x8x3xf32>
  // A constant per pixel (a mask) would no longer line up.
  %8 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %9 = tfaot.Cast %8 : (tensor<37x53x3xui8>) -> tensor<37x53x3xf32>
  %mask = tfaot.Const dense<0.5> : tensor<37x53x3xf32>
  %10 = tfaot.Mul %9, %mask : (tensor<37x53x3xf32>, tensor<37x53x3xf32>) -> tensor<37x53x3xf32>
  %11 = tfaot.Reshape %10, %shape : (tensor<37x53x3xf32>, tensor<4xi32>) -> tensor<1x37x53x3xf32>
  %12 = tfaot.ResizeBilinear %11, %size : (tensor<1x37x53x3xf32>, tensor<2xi32>) -> tensor<1x8x8x3xf32>
  // Already decoded at 1/2.
  %13 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64, ratio = 2 : i64} : (tensor<2xi64>) -> tensor<19x27x3xui8>
  %14 = tfaot.Cast %13 : (tensor<19x27x3xui8>) -> tensor<19x27x3xf32>
  %shape2 = tfaot.Const dense<[1, 19, 27, 3]> : tensor<4xi32>
  %15 = tfaot.Reshape %14, %shape2 : (tensor<19x27x3xf32>, tensor<4xi32>) -> tensor<1x19x27x3xf32>
  %size4 = tfaot.Const dense<4> : tensor<2xi32>
  %16 = tfaot.ResizeBilinear %15, %size4 : (tensor<1x19x27x3xf32>, tensor<2xi32>) -> tensor<1x4x4x3xf32>
  // A crop window.
  %w = tfaot.Const dense<[5, 7, 16, 20]> : tensor<4xi32>
  %17 = tfaot.DecodeJpeg %arg0 crop %w {channels = 3 : i64, image_size = array<i64: 37, 53>} : (tensor<2xi64>, tensor<4xi32>) -> tensor<16x20x3xui8>
  %18 = tfaot.Cast %17 : (tensor<16x20x3xui8>) -> tensor<16x20x3xf32>
  %shape3 = tfaot.Const dense<[1, 16, 20, 3]> : tensor<4xi32>
  %19 = tfaot.Reshape %18, %shape3 : (tensor<16x20x3xf32>, tensor<4xi32>) -> tensor<1x16x20x3xf32>
  %size1 = tfaot.Const dense<2> : tensor<2xi32>
  %20 = tfaot.ResizeBilinear %19, %size1 : (tensor<1x16x20x3xf32>, tensor<2xi32>) -> tensor<1x2x2x3xf32>
  return %3, %5, %7, %12, %16, %20 : tensor<1x20x8x3xf32>, tensor<37x53x3xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>, tensor<1x2x2x3xf32>
}
