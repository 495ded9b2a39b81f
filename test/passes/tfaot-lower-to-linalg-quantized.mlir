// RUN: tfaot-opt %s -tfaot-lower-to-linalg -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-cpu-bufferize --tfaot-cpu-to-llvm -split-input-file | FileCheck %s --check-prefix=LLVM
// The eight-bit ops (passes/LowerQuantizedOps.cpp): scalar parameters from
// the runtime ranges first, then one elementwise loop.

// Tests Requantize's 16-bit fixed point: (x * scale_fp) >> 32 plus the
// offsets, >> 16, clamped to [0, 255]; and RequantizationRange's min/max
// reductions over the whole tensor.
// CHECK-LABEL: func.func @requantize
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: arith.minsi
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: arith.maxsi
// CHECK: tensor.from_elements
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: %[[X:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[M:.*]] = arith.muli %[[X]], %{{.*}} : i64
// CHECK: %[[S:.*]] = arith.shrsi %[[M]], %c32_i64
// CHECK: %[[A:.*]] = arith.addi %[[S]], %{{.*}} : i64
// CHECK: %[[Q:.*]] = arith.shrsi %[[A]], %c16_i64
// CHECK: %[[LO:.*]] = arith.maxsi %[[Q]], %c0_i64
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %c255_i64
// CHECK: arith.trunci %[[HI]] : i64 to i8
// CHECK: -> tensor<2x3xi8>
// LLVM-LABEL: llvm.func @requantize
func.func @requantize(%acc: tensor<2x3xi32>, %lo: tensor<f32>, %hi: tensor<f32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<f32>) {
  %min, %max = tfaot.RequantizationRange %acc, %lo, %hi : (tensor<2x3xi32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %q = tfaot.Requantize %acc, %lo, %hi, %min, %max : (tensor<2x3xi32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xui8>
  return %q, %min, %max : tensor<2x3xui8>, tensor<f32>, tensor<f32>
}

// -----

// Tests that quint8 is widened unsigned before the zero point comes off,
// and that the zero point is -round(min * steps / range) in double.
// CHECK-LABEL: func.func @subtract_zero_point
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: math.round %{{.*}} : f64
// CHECK: %[[ZP:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: linalg.generic
// CHECK: %[[W:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: arith.subi %[[W]], %[[ZP]] : i32
// LLVM-LABEL: llvm.func @subtract_zero_point
func.func @subtract_zero_point(%q: tensor<4xui8>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xi32> {
  %0 = tfaot.SubtractZeroPoint %q, %lo, %hi : (tensor<4xui8>, tensor<f32>, tensor<f32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Tests MIN_FIRST quantization (round half away from zero, clamped to the
// storage range) and dequantization (unsigned integers to float).
// CHECK-LABEL: func.func @round_trip
// CHECK: linalg.generic
// CHECK: math.round %{{.*}} : f32
// CHECK: arith.maxnumf
// CHECK: arith.minnumf
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: linalg.generic
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// LLVM-LABEL: llvm.func @round_trip
func.func @round_trip(%x: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<4xf32> {
  %q = tfaot.Quantize %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xui8>
  %y = tfaot.Dequantize %q, %lo, %hi {mode = "MIN_FIRST"} : (tensor<4xui8>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
