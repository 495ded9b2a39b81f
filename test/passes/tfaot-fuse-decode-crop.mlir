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
