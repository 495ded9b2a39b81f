// RUN: tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-fuse-decode-crop))' -split-input-file | FileCheck %s
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-fuse-decode-crop))' -split-input-file 2>&1 | FileCheck %s --check-prefix=REMARK

// Tests that a Slice keeping every channel of a whole-image decode becomes
// one decode of the window, which still checks the whole image's size.
// CHECK-LABEL: func.func @slice
// CHECK: %[[W:.*]] = tfaot.Const dense<[5, 7, 16, 20]> : tensor<4xi32>
// CHECK-NEXT: %[[D:.*]] = tfaot.DecodeJpeg %arg0 crop %[[W]] {channels = 3 : i64, dct_method = "INTEGER_ACCURATE", image_size = array<i64: 37, 53>} : (tensor<2xi64>, tensor<4xi32>) -> tensor<16x20x3xui8>
// CHECK-NEXT: return %[[D]]
// REMARK: remark: [tfaot-fuse-decode-crop] fused Slice into DecodeJpeg: only the 16x20 window at (5, 7) of the 37x53 image is decoded
func.func @slice(%arg0: tensor<2xi64>) -> tensor<16x20x3xui8> {
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64, dct_method = "INTEGER_ACCURATE"} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %b = tfaot.Const dense<[5, 7, 0]> : tensor<3xi32>
  %s = tfaot.Const dense<[16, 20, -1]> : tensor<3xi32>
  %1 = tfaot.Slice %0, %b, %s : (tensor<37x53x3xui8>, tensor<3xi32>, tensor<3xi32>) -> tensor<16x20x3xui8>
  return %1 : tensor<16x20x3xui8>
}

// -----

// Tests that nothing is fused when the whole image is used elsewhere too
// (it must be decoded anyway) or when the Slice drops channels.
// CHECK-LABEL: func.func @not_fused
// CHECK-COUNT-2: tfaot.DecodeJpeg %arg0 {channels = 3 : i64}
// CHECK-NOT: crop
func.func @not_fused(%arg0: tensor<2xi64>) -> (tensor<37x53x3xui8>, tensor<16x20x3xui8>, tensor<16x20x1xui8>) {
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %b = tfaot.Const dense<[5, 7, 0]> : tensor<3xi32>
  %s = tfaot.Const dense<[16, 20, 3]> : tensor<3xi32>
  %1 = tfaot.Slice %0, %b, %s : (tensor<37x53x3xui8>, tensor<3xi32>, tensor<3xi32>) -> tensor<16x20x3xui8>
  %2 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %b2 = tfaot.Const dense<[5, 7, 1]> : tensor<3xi32>
  %s2 = tfaot.Const dense<[16, 20, 1]> : tensor<3xi32>
  %3 = tfaot.Slice %2, %b2, %s2 : (tensor<37x53x3xui8>, tensor<3xi32>, tensor<3xi32>) -> tensor<16x20x1xui8>
  return %0, %1, %3 : tensor<37x53x3xui8>, tensor<16x20x3xui8>, tensor<16x20x1xui8>
}

// -----

// Tests that a StridedSlice with steps of 1 is fused like a Slice: here
// x[5:21, 7:-26, :] of a 37x53 image (end_mask on the channels, a negative
// end counted from the right: 53 - 26 = 27, so 20 columns from 7).
// CHECK-LABEL: func.func @strided_slice
// CHECK: %[[W:.*]] = tfaot.Const dense<[5, 7, 16, 20]> : tensor<4xi32>
// CHECK-NEXT: %[[D:.*]] = tfaot.DecodeJpeg %arg0 crop %[[W]] {channels = 3 : i64, image_size = array<i64: 37, 53>} : (tensor<2xi64>, tensor<4xi32>) -> tensor<16x20x3xui8>
// CHECK-NEXT: return %[[D]]
// REMARK: remark: [tfaot-fuse-decode-crop] fused StridedSlice into DecodeJpeg: only the 16x20 window at (5, 7) of the 37x53 image is decoded
func.func @strided_slice(%arg0: tensor<2xi64>) -> tensor<16x20x3xui8> {
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %b = tfaot.Const dense<[5, 7, 0]> : tensor<3xi32>
  %e = tfaot.Const dense<[21, -26, 0]> : tensor<3xi32>
  %s = tfaot.Const dense<1> : tensor<3xi32>
  %1 = tfaot.StridedSlice %0, %b, %e, %s {end_mask = 4 : i64} : (tensor<37x53x3xui8>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<16x20x3xui8>
  return %1 : tensor<16x20x3xui8>
}

// -----

// Tests that a StridedSlice that skips pixels (stride 2) or drops an axis
// (shrink_axis_mask: one row) is not a window and is left alone.
// CHECK-LABEL: func.func @strided_not_fused
// CHECK-COUNT-2: tfaot.DecodeJpeg %arg0 {channels = 3 : i64}
// CHECK-NOT: crop
func.func @strided_not_fused(%arg0: tensor<2xi64>) -> (tensor<8x20x3xui8>, tensor<20x3xui8>) {
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %b = tfaot.Const dense<[5, 7, 0]> : tensor<3xi32>
  %e = tfaot.Const dense<[21, 27, 3]> : tensor<3xi32>
  %s2 = tfaot.Const dense<[2, 1, 1]> : tensor<3xi32>
  %1 = tfaot.StridedSlice %0, %b, %e, %s2 : (tensor<37x53x3xui8>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x20x3xui8>
  %2 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64} : (tensor<2xi64>) -> tensor<37x53x3xui8>
  %s1 = tfaot.Const dense<1> : tensor<3xi32>
  %3 = tfaot.StridedSlice %2, %b, %e, %s1 {shrink_axis_mask = 1 : i64} : (tensor<37x53x3xui8>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<20x3xui8>
  return %1, %3 : tensor<8x20x3xui8>, tensor<20x3xui8>
}
