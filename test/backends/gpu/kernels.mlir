// RUN: tfaot-opt %s --tfaot-gpu-bufferize=cublas=false --tfaot-gpu-kernels=cublas=false -split-input-file | FileCheck %s

// Tests that elementwise ops fuse into one kernel of 256-thread blocks over
// the flattened output (600 elements: 3 blocks), guarded against the tail,
// and that the host function keeps only the launch.
// CHECK-LABEL: func.func @add_relu
// CHECK-NOT: memref.load
// CHECK: gpu.launch_func @tfaot_kernels::@add_relu_kernel blocks in (%c3, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-NEXT: return
// CHECK: gpu.module @tfaot_kernels
// CHECK: gpu.func @add_relu_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 3, 1, 1>}
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[BASE:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[T]] : index
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : index
// CHECK: scf.if %[[IN]]
// CHECK: arith.addf {{.*}} fastmath<contract>
// CHECK: arith.maximumf {{.*}} fastmath<contract>
// CHECK: memref.store
func.func @add_relu(%x: tensor<2x300xf32>, %y: tensor<2x300xf32>) -> tensor<2x300xf32> {
  %0 = tfaot.AddV2 %x, %y : (tensor<2x300xf32>, tensor<2x300xf32>) -> tensor<2x300xf32>
  %1 = tfaot.Relu %0 : tensor<2x300xf32>
  return %1 : tensor<2x300xf32>
}

// -----

// Tests that a matmul is one thread per output element looping over the
// reduction, with contraction allowed (ptxas then emits FMAs), after a
// kernel that zero-fills the output; the output element is read once,
// carried through the loop in a register and stored once.
// CHECK-LABEL: func.func @matmul
// CHECK: gpu.launch_func @tfaot_kernels::@matmul_kernel blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.launch_func @tfaot_kernels::@matmul_kernel_0 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @matmul_kernel(
// CHECK: memref.store %{{.*}} : memref<3x5xf32>
// CHECK: gpu.func @matmul_kernel_0(
// CHECK: scf.if
// CHECK: %[[INIT:.*]] = memref.load %[[OUT:.*]][%[[I:.*]], %[[J:.*]]] : memref<3x5xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK: %[[A:.*]] = memref.load %{{.*}} : memref<3x4xf32>
// CHECK: %[[W:.*]] = memref.load %{{.*}} : memref<4x5xf32>
// CHECK-NOT: memref.load
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[W]] fastmath<contract> : f32
// CHECK: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[M]] fastmath<contract> : f32
// CHECK-NEXT: scf.yield %[[NEXT]] : f32
// CHECK: memref.store %[[SUM]], %[[OUT]][%[[I]], %[[J]]] : memref<3x5xf32>
func.func @matmul(%x: tensor<3x4xf32>, %w: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = tfaot.MatMul %x, %w : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Tests a SAME-padded conv: the padded input is filled and copied into
// (two kernels, the copy through a subview the host computes), then one
// thread per output element loops over the 3x3x2 window.
// CHECK-LABEL: func.func @conv
// CHECK: gpu.launch_func @tfaot_kernels::@conv_kernel
// CHECK: %[[SUB:.*]] = memref.subview
// CHECK: gpu.launch_func @tfaot_kernels::@conv_kernel_0 {{.*}} args({{.*}}%[[SUB]] : memref<1x5x5x2xf32, strided<[98, 14, 2, 1], offset: 16>>)
// CHECK: gpu.launch_func @tfaot_kernels::@conv_kernel_1
// CHECK: gpu.launch_func @tfaot_kernels::@conv_kernel_2
// CHECK: gpu.func @conv_kernel_2(
// CHECK: %[[INIT:.*]] = memref.load %{{.*}} : memref<1x3x3x4xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[A0:.*]] = %[[INIT]])
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[A1:.*]] = %[[A0]])
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[A2:.*]] = %[[A1]])
// CHECK: memref.load %{{.*}} : memref<1x7x7x2xf32>
// CHECK: memref.load %{{.*}} : memref<3x3x2x4xf32>
// CHECK: arith.mulf
// CHECK: arith.addf %[[A2]]
// CHECK: memref.store %[[SUM]], %{{.*}} : memref<1x3x3x4xf32>
func.func @conv(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = tfaot.Conv2D %x, %w {strides = [1, 2, 2, 1], padding = "SAME"} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

// Tests that a reduction to a scalar, which has no parallel loop, still
// runs on the GPU: one thread (guard "< 1") initializes and accumulates.
// Its constants are inside the kernel, not parameters
// (gpu-launch-sink-index-computations: divisions by them fold).
// CHECK-LABEL: func.func @sum_all
// CHECK-NOT: memref.load
// CHECK-NOT: memref.store
// CHECK: gpu.launch_func @tfaot_kernels::@sum_all_kernel blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%{{.*}} : memref<f32>, %{{.*}} : memref<4x8xf32>)
// CHECK: gpu.func @sum_all_kernel(
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[T]], %[[ONE]] : index
// CHECK: scf.if %[[IN]]
// CHECK: memref.store %{{.*}}[] : memref<f32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<4x8xf32>
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK: memref.store %{{.*}}[] : memref<f32>
func.func @sum_all(%x: tensor<4x8xf32>) -> tensor<f32> {
  %axes = tfaot.Const dense<[0, 1]> : tensor<2xi32>
  %0 = tfaot.Sum %x, %axes : (tensor<4x8xf32>, tensor<2xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Tests that a global average pool (NHWC Mean over H and W: loops n, h, w,
// c) gives every (n, c) output element its own thread: the generic's
// parallel dimensions are moved in front of the reductions
// (tfaot-gpu-parallel-dims-first), so 2x300 outputs need 3 blocks, each
// thread summing its 4x5 window in a register. Before, the mapping stopped
// at n: one thread per batch element looped over h, w and c.
// CHECK-LABEL: func.func @global_average_pool
// CHECK: gpu.launch_func @tfaot_kernels::@global_average_pool_kernel_0 blocks in (%c3, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @global_average_pool_kernel_0(
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: scf.if
// CHECK: %[[N:.*]] = arith.divui
// CHECK-NOT: scf.parallel
// CHECK: %[[INIT:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x300xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (f32)
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: memref.load %{{.*}} : memref<2x4x5x300xf32>
// CHECK: arith.addf
// CHECK-NOT: scf.parallel
// CHECK: memref.store %{{.*}} : memref<2x300xf32>
func.func @global_average_pool(%x: tensor<2x4x5x300xf32>) -> tensor<2x300xf32> {
  %axes = tfaot.Const dense<[1, 2]> : tensor<2xi32>
  %0 = tfaot.Mean %x, %axes : (tensor<2x4x5x300xf32>, tensor<2xi32>) -> tensor<2x300xf32>
  return %0 : tensor<2x300xf32>
}
