// RUN: tfaot-opt %s -tfaot-lower-to-linalg -split-input-file | FileCheck %s
// Gathers whose indices are not constants call tfaot_rt_check_indices
// before the gather (passes/LowerIndexChecks.cpp); constant indices in range
// and modules marked tfaot.runtime_checks = "none" get no call.

// Tests that a GatherV2 by an argument passes the indices' address, the
// indices shape [3] and the bound [4] (the axis' size) as constant globals,
// the node's name, then kind 0 (GatherV2), 4 bytes an index, rank 1 and one
// bound; and that the call comes before the gather, which still clamps.
// CHECK-DAG: memref.global "private" constant @__tfaot_check_node : memref<7xi8> = dense<[103, 97, 116, 104, 101, 114, 0]>
// CHECK-DAG: memref.global "private" constant @__tfaot_check_shape : memref<1xi64> = dense<3>
// CHECK-DAG: memref.global "private" constant @__tfaot_check_bounds : memref<1xi64> = dense<4>
// CHECK-DAG: func.func private @tfaot_rt_check_indices(index, index, index, index, i64, i64, i64, i64)
// CHECK-LABEL: func.func @gather
// CHECK-DAG: %[[KIND:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[RANK:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[NBOUNDS:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[NODE:.*]] = memref.get_global @__tfaot_check_node
// CHECK-DAG: %[[SHAPE:.*]] = memref.get_global @__tfaot_check_shape
// CHECK-DAG: %[[BOUNDS:.*]] = memref.get_global @__tfaot_check_bounds
// CHECK-DAG: %[[PN:.*]] = memref.extract_aligned_pointer_as_index %[[NODE]]
// CHECK-DAG: %[[PS:.*]] = memref.extract_aligned_pointer_as_index %[[SHAPE]]
// CHECK-DAG: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[BOUNDS]]
// CHECK-DAG: %[[BUF:.*]] = bufferization.to_buffer %arg1 read_only : tensor<3xi32> to memref<3xi32>
// CHECK-DAG: %[[PI:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: call @tfaot_rt_check_indices(%[[PI]], %[[PS]], %[[PB]], %[[PN]], %[[KIND]], %[[BYTES]], %[[RANK]], %[[NBOUNDS]])
// CHECK: linalg.generic
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @gather(%arg0: tensor<4x3xf32>, %arg1: tensor<3xi32>) -> tensor<3x3xf32> {
  %axis = tfaot.Const dense<0> : tensor<i32>
  %0 = tfaot.GatherV2 %arg0, %arg1, %axis : (tensor<4x3xf32>, tensor<3xi32>, tensor<i32>) -> tensor<3x3xf32> loc("gather")
  return %0 : tensor<3x3xf32>
}

// -----

// Tests that a GatherNd passes its int64 [2,2] indices with kind 1, 8 bytes
// an index, rank 2 and the whole params shape [4,3] as bounds (rank 2).
// CHECK-DAG: memref.global "private" constant @__tfaot_check_shape : memref<2xi64> = dense<2>
// CHECK-DAG: memref.global "private" constant @__tfaot_check_bounds : memref<2xi64> = dense<[4, 3]>
// CHECK-LABEL: func.func @gather_nd
// CHECK-DAG: %[[KIND:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[RANK:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[NBOUNDS:.*]] = arith.constant 2 : i64
// CHECK: call @tfaot_rt_check_indices(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[KIND]], %[[BYTES]], %[[RANK]], %[[NBOUNDS]])
// CHECK: linalg.generic
func.func @gather_nd(%arg0: tensor<4x3xf32>, %arg1: tensor<2x2xi64>) -> tensor<2xf32> {
  %0 = tfaot.GatherNd %arg0, %arg1 : (tensor<4x3xf32>, tensor<2x2xi64>) -> tensor<2xf32> loc("gnd")
  return %0 : tensor<2xf32>
}

// -----

// Tests that constant indices in range need no check, and that constant
// indices out of range keep theirs (TensorFlow fails at run time too).
// CHECK-LABEL: func.func @constant_indices
// CHECK-COUNT-1: call @tfaot_rt_check_indices
// CHECK-NOT: call @tfaot_rt_check_indices
// CHECK: return
func.func @constant_indices(%arg0: tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %axis = tfaot.Const dense<0> : tensor<i32>
  %good = tfaot.Const dense<[3, 0]> : tensor<2xi32>
  %bad = tfaot.Const dense<[4, 0]> : tensor<2xi32>
  %0 = tfaot.GatherV2 %arg0, %good, %axis : (tensor<4x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<2x3xf32> loc("good")
  %1 = tfaot.GatherV2 %arg0, %bad, %axis : (tensor<4x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<2x3xf32> loc("bad")
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Tests that tfaot.runtime_checks = "none" (--runtime_checks=none) emits no
// check and no declaration; the gather still clamps.
// CHECK-NOT: tfaot_rt_check_indices
// CHECK-LABEL: func.func @unchecked
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK-NOT: tfaot_rt_check_indices
module attributes {tfaot.runtime_checks = "none"} {
  func.func @unchecked(%arg0: tensor<4x3xf32>, %arg1: tensor<3xi32>) -> tensor<3x3xf32> {
    %axis = tfaot.Const dense<0> : tensor<i32>
    %0 = tfaot.GatherV2 %arg0, %arg1, %axis : (tensor<4x3xf32>, tensor<3xi32>, tensor<i32>) -> tensor<3x3xf32> loc("gather")
    return %0 : tensor<3x3xf32>
  }
}
