// RUN: tfaot-opt %s -tfaot-lower-to-linalg -split-input-file | FileCheck %s
// DecodeJpeg lowers to a call of the runtime's tfaot_rt_decode_jpeg
// (passes/LowerImageOps.cpp).

// Tests that a whole-image decode passes the bytes descriptor, no crop
// window (address 0), a fresh 64-byte aligned buffer the call writes, the
// message prefix naming node and argument, then height, width, channels,
// ratio and the flags (fancy upsampling 2 | ISLOW 4 = 6), and that the
// buffer becomes the result tensor.
// CHECK: memref.global "private" constant @__tfaot_decode_what : memref<42xi8> = dense<[68, 101, 99, 111, 100, 101, 74, 112, 101, 103, 32, 39, 100, 101, 99, 111, 100, 101, 39, 32, 40
// CHECK: func.func private @tfaot_rt_decode_jpeg(index, index, index, index, i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @whole
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[H:.*]] = arith.constant 37 : i64
// CHECK-DAG: %[[W:.*]] = arith.constant 53 : i64
// CHECK-DAG: %[[CH:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 6 : i64
// CHECK-DAG: arith.constant 0 : i64
// CHECK-DAG: %[[BYTES:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<2xi64> to memref<2xi64>
// CHECK-DAG: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<37x53x3xi8>
// CHECK-DAG: %[[WHAT:.*]] = memref.get_global @__tfaot_decode_what : memref<42xi8>
// CHECK-DAG: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[BYTES]]
// CHECK-DAG: %[[PO:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK-DAG: %[[PW:.*]] = memref.extract_aligned_pointer_as_index %[[WHAT]]
// CHECK: call @tfaot_rt_decode_jpeg(%[[PB]], %[[C0]], %[[PO]], %[[PW]], %[[H]], %[[W]], %[[CH]], %[[ONE]], %[[FLAGS]], %{{.*}}, %{{.*}})
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<37x53x3xi8> to tensor<37x53x3xi8>
// CHECK: return %[[T]]
func.func @whole(%arg0: tensor<2xi64> {tfaot.feed = "contents"}) -> tensor<37x53x3xui8> {
  %0 = tfaot.DecodeJpeg %arg0 {channels = 3 : i64, dct_method = "INTEGER_ACCURATE"} : (tensor<2xi64>) -> tensor<37x53x3xui8> loc("decode")
  return %0 : tensor<37x53x3xui8>
}

// -----

// Tests that a crop passes the window's address and sets the crop flag
// (1 | fancy 2 = 3; IFAST for dct_method ""), ratio 2, and with image_size
// the size check (8) and the whole image's size.
// CHECK-LABEL: func.func @crop
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 11 : i64
// CHECK-DAG: %[[RATIO:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[IH:.*]] = arith.constant 40 : i64
// CHECK-DAG: %[[IW:.*]] = arith.constant 60 : i64
// CHECK-DAG: %[[WIN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<4xi32> to memref<4xi32>
// CHECK-DAG: %[[PWIN:.*]] = memref.extract_aligned_pointer_as_index %[[WIN]]
// CHECK: call @tfaot_rt_decode_jpeg(%{{.*}}, %[[PWIN]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[RATIO]], %[[FLAGS]], %[[IH]], %[[IW]])
// CHECK-SAME: (index, index, index, index, i64, i64, i64, i64, i64, i64, i64) -> ()
func.func @crop(%arg0: tensor<2xi64>, %w: tensor<4xi32>) -> tensor<16x20x1xui8> {
  %0 = tfaot.DecodeJpeg %arg0 crop %w {channels = 1 : i64, ratio = 2 : i64, image_size = array<i64: 40, 60>} : (tensor<2xi64>, tensor<4xi32>) -> tensor<16x20x1xui8>
  return %0 : tensor<16x20x1xui8>
}
