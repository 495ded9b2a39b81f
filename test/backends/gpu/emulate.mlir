// RUN: tfaot-opt %s --tfaot-gpu-bufferize --tfaot-gpu-emulate | FileCheck %s

// Tests that --tfaot-gpu-emulate maps loops to launches as the GPU pipeline
// does, then runs each launch as loops over its blocks and threads (size-1
// dimensions folded away): 600 elements are 3 blocks of 256 threads, the
// kernel body guarded by the flattened index, no GPU op left.
// CHECK-LABEL: func.func @add_relu
// CHECK-NOT: gpu.
// CHECK: scf.for %[[B:.*]] = %c0 to %c3 step %c1
// CHECK-NEXT: scf.for %[[T:.*]] = %c0 to %c256 step %c1
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[B]], %c256 : index
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[BASE]], %[[T]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[I]], %c600 : index
// CHECK-NEXT: scf.if %[[IN]]
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: gpu.
func.func @add_relu(%x: tensor<2x300xf32>, %y: tensor<2x300xf32>) -> tensor<2x300xf32> {
  %0 = tfaot.AddV2 %x, %y : (tensor<2x300xf32>, tensor<2x300xf32>) -> tensor<2x300xf32>
  %1 = tfaot.Relu %0 : tensor<2x300xf32>
  return %1 : tensor<2x300xf32>
}
