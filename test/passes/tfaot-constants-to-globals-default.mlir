// RUN: tfaot-opt %s -pass-pipeline='builtin.module(tfaot-constants-to-globals)' | FileCheck %s

// Tests the default bound on users of one read of a constant: 8 (a
// read's cost in one-shot-bufferize's analysis grows with the square of
// its users; bench/results/2026-11-28-devvm-compile-scaling-5.md). Of the
// nine users of %c, the first eight share its first read and the ninth
// gets a read of its own, right before it.
// CHECK-LABEL: func.func @nine_users
// CHECK: %[[G:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT: %[[C:.*]] = bufferization.to_tensor %[[G]] restrict
// CHECK-COUNT-8: linalg.add ins(%{{.*}}, %[[C]] :
// CHECK-NEXT: %[[G2:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT: %[[C2:.*]] = bufferization.to_tensor %[[G2]] restrict
// CHECK-NEXT: linalg.add ins(%{{.*}}, %[[C2]] :
// CHECK-NOT: memref.get_global
func.func @nine_users(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %o = tensor.empty() : tensor<4xf32>
  %a1 = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a2 = linalg.add ins(%a1, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a3 = linalg.add ins(%a2, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a4 = linalg.add ins(%a3, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a5 = linalg.add ins(%a4, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a6 = linalg.add ins(%a5, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a7 = linalg.add ins(%a6, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a8 = linalg.add ins(%a7, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %a9 = linalg.add ins(%a8, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %a9 : tensor<4xf32>
}
