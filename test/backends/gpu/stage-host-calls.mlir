// RUN: tfaot-opt %s --tfaot-gpu-stage-host-calls -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --tfaot-gpu-stage-host-calls --tfaot-gpu-check-host-code -split-input-file -verify-diagnostics

// Tests that NonMaxSuppression (a runtime call on host memory) gets a host
// buffer for each device buffer: the six it reads copied from the device
// before the call (the device buffers' bytes: 6 boxes of 4 floats, 6
// scores, four scalars), the three it writes copied back after it; the
// node's name, a constant global, is read in place from a host-only twin
// of the global; the call is marked as running on host copies, which
// tfaot-gpu-check-host-code accepts.
// CHECK: memref.global "private" constant @__tfaot_host___tfaot_nms_node : memref<4xi8> = dense<[110, 109, 115, 0]>
// CHECK: memref.global "private" constant @__tfaot_nms_node
// CHECK-LABEL: func.func @nms
// CHECK-SAME: (%[[BOXES:.*]]: memref<6x4xf32>, %[[SCORES:.*]]: memref<6xf32>, %[[MAX:.*]]: memref<i32>, %[[IOU:.*]]: memref<f32>, %[[ST:.*]]: memref<f32>, %[[SIGMA:.*]]: memref<f32>)
// CHECK: %[[IND:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xi32>
// CHECK: %[[SEL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK: %[[CNT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<i32>
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[BOXES]]
// CHECK: %[[DB:.*]] = arith.index_castui %[[PB]] : index to i64
// CHECK-NEXT: %[[NB:.*]] = arith.constant 96 : i64
// CHECK-NEXT: %[[HB:.*]] = call @tfaot_rt_cuda_host_buffer(%[[NB]]) : (i64) -> i64
// CHECK-NEXT: call @tfaot_rt_cuda_copy_to_host(%[[HB]], %[[DB]], %[[NB]])
// CHECK-NEXT: %[[AB:.*]] = arith.index_castui %[[HB]] : i64 to index
// CHECK: arith.constant 24 : i64
// CHECK: call @tfaot_rt_cuda_copy_to_host
// CHECK-COUNT-4: call @tfaot_rt_cuda_copy_to_host
// CHECK: %[[DI:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK-NEXT: %[[NI:.*]] = arith.constant 12 : i64
// CHECK-NEXT: %[[HI:.*]] = call @tfaot_rt_cuda_host_buffer(%[[NI]])
// CHECK-NOT: copy_to_host
// CHECK: %[[G:.*]] = memref.get_global @__tfaot_host___tfaot_nms_node : memref<4xi8>
// CHECK-NEXT: %[[NODE:.*]] = memref.extract_aligned_pointer_as_index %[[G]]
// CHECK-NEXT: call @tfaot_rt_non_max_suppression(%[[AB]], {{.*}}, %[[NODE]], {{.*}}) {tfaot.on_host_copies}
// CHECK-NEXT: call @tfaot_rt_cuda_copy_to_device(%[[DI]], %[[HI]], %[[NI]])
// CHECK-NEXT: call @tfaot_rt_cuda_copy_to_device
// CHECK-NEXT: call @tfaot_rt_cuda_copy_to_device
// CHECK-NEXT: return
// CHECK: func.func private @tfaot_rt_cuda_host_buffer(i64) -> i64
// CHECK: func.func private @tfaot_rt_cuda_copy_to_host(i64, i64, i64)
// CHECK: func.func private @tfaot_rt_cuda_copy_to_device(i64, i64, i64)
module {
  memref.global "private" constant @__tfaot_nms_node : memref<4xi8> = dense<[110, 109, 115, 0]>
  func.func private @tfaot_rt_non_max_suppression(index, index, index, index, index, index, index, index, index, index, i64, i64, i64)
  func.func @nms(%boxes: memref<6x4xf32>, %scores: memref<6xf32>, %max: memref<i32>, %iou: memref<f32>, %st: memref<f32>, %sigma: memref<f32>) {
    %n = arith.constant 6 : i64
    %bound = arith.constant 3 : i64
    %bytes = arith.constant 4 : i64
    %node = memref.get_global @__tfaot_nms_node : memref<4xi8>
    %pn = memref.extract_aligned_pointer_as_index %node : memref<4xi8> -> index
    %ind = memref.alloc() {alignment = 64 : i64} : memref<3xi32>
    %sel = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
    %cnt = memref.alloc() {alignment = 64 : i64} : memref<i32>
    %p0 = memref.extract_aligned_pointer_as_index %boxes : memref<6x4xf32> -> index
    %p1 = memref.extract_aligned_pointer_as_index %scores : memref<6xf32> -> index
    %p2 = memref.extract_aligned_pointer_as_index %max : memref<i32> -> index
    %p3 = memref.extract_aligned_pointer_as_index %iou : memref<f32> -> index
    %p4 = memref.extract_aligned_pointer_as_index %st : memref<f32> -> index
    %p5 = memref.extract_aligned_pointer_as_index %sigma : memref<f32> -> index
    %p6 = memref.extract_aligned_pointer_as_index %ind : memref<3xi32> -> index
    %p7 = memref.extract_aligned_pointer_as_index %sel : memref<3xf32> -> index
    %p8 = memref.extract_aligned_pointer_as_index %cnt : memref<i32> -> index
    func.call @tfaot_rt_non_max_suppression(%p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7, %p8, %pn, %n, %bound, %bytes) : (index, index, index, index, index, index, index, index, index, index, i64, i64, i64) -> ()
    return
  }
}

// -----

// Tests that a call whose buffer has a layout the copies cannot size (a
// view with an offset) is left as it is, and reported.
module {
  memref.global "private" constant @__tfaot_where_dims : memref<1xi64> = dense<8>
  func.func private @tfaot_rt_where(index, index, index, index, i64, i64, i64)
  func.func @where_of_view(%x: memref<16xf32>, %index: memref<8x1xi64>, %count: memref<i32>) {
    %rank = arith.constant 1 : i64
    %bytes = arith.constant 4 : i64
    %kind = arith.constant 1 : i64
    %v = memref.subview %x[8] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
    %dims = memref.get_global @__tfaot_where_dims : memref<1xi64>
    %p0 = memref.extract_aligned_pointer_as_index %v : memref<8xf32, strided<[1], offset: 8>> -> index
    %p1 = memref.extract_aligned_pointer_as_index %dims : memref<1xi64> -> index
    %p2 = memref.extract_aligned_pointer_as_index %index : memref<8x1xi64> -> index
    %p3 = memref.extract_aligned_pointer_as_index %count : memref<i32> -> index
    // expected-error @+1 {{cannot run on the GPU: it calls 'tfaot_rt_where', which runs on the CPU only}}
    func.call @tfaot_rt_where(%p0, %p1, %p2, %p3, %rank, %bytes, %kind) : (index, index, index, index, i64, i64, i64) -> ()
    return
  }
}
