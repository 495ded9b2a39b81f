// RUN: tfaot-opt %s -pass-pipeline='builtin.module(tfaot-constants-to-globals{max-users=2})' | FileCheck %s
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(tfaot-constants-to-globals{max-users=2},one-shot-bufferize{bufferize-function-boundaries})' | FileCheck %s --check-prefix=BUF
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries})' | FileCheck %s --check-prefix=BUF
// RUN: not tfaot-opt %s -pass-pipeline='builtin.module(tfaot-constants-to-globals{max-users=-1})' 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that each distinct tensor constant becomes one private constant
// global, named and ordered as one-shot-bufferize names and orders its own
// (the BUF lines hold for one-shot-bufferize alone and after this pass):
// the first of a shape is __constant_<shape>, later ones get _0, _1, and
// each new global goes to the top of the module; equal values share one
// global, a scalar is __constant_xf32, and a global already holding a value
// is reused. The three users of %s keep its first read for two of them and
// the third gets a read of its own.
// CHECK: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<5.000000e+00> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<2.000000e+00> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @existing : memref<4xf32> = dense<3.000000e+00> {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @consts
// CHECK: %[[G1:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT: %[[S:.*]] = bufferization.to_tensor %[[G1]] restrict : memref<4xf32> to tensor<4xf32>
// CHECK-NEXT: %[[G2:.*]] = memref.get_global @__constant_4xf32_0 : memref<4xf32>
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor %[[G2]] restrict
// CHECK-NEXT: %[[G3:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT: %[[U:.*]] = bufferization.to_tensor %[[G3]] restrict
// CHECK-NEXT: %[[G4:.*]] = memref.get_global @existing : memref<4xf32>
// CHECK-NEXT: %[[E:.*]] = bufferization.to_tensor %[[G4]] restrict
// CHECK-NEXT: %[[G5:.*]] = memref.get_global @__constant_xf32 : memref<f32>
// CHECK-NEXT: bufferization.to_tensor %[[G5]] restrict
// CHECK-NEXT: %[[O:.*]] = tensor.empty
// CHECK-NEXT: %[[A:.*]] = linalg.add ins(%[[S]], %[[T]] :
// CHECK-NEXT: %[[B:.*]] = linalg.add ins(%[[A]], %[[S]] :
// CHECK-NEXT: %[[G6:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT: %[[S2:.*]] = bufferization.to_tensor %[[G6]] restrict
// CHECK-NEXT: %[[C:.*]] = linalg.add ins(%[[B]], %[[S2]] :
// CHECK-NEXT: %[[D:.*]] = linalg.add ins(%[[C]], %[[U]] :
// CHECK-NEXT: linalg.add ins(%[[D]], %[[E]] :
// CHECK-NOT: arith.constant
// BUF: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<5.000000e+00> {alignment = 64 : i64}
// BUF-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<2.000000e+00> {alignment = 64 : i64}
// BUF-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00> {alignment = 64 : i64}
// BUF-NEXT: memref.global "private" constant @existing
// BUF-NOT: memref.global
// BUF-LABEL: func.func @consts
// BUF-NOT: arith.constant
// BUF: memref.get_global @__constant_4xf32 : memref<4xf32>
// BUF: memref.get_global @__constant_4xf32_0 : memref<4xf32>
// BUF: memref.get_global @__constant_4xf32 : memref<4xf32>
// BUF: memref.get_global @existing : memref<4xf32>
// BUF: memref.get_global @__constant_xf32 : memref<f32>
// BAD: tfaot-constants-to-globals: max-users must be at least 0, not -1
memref.global "private" constant @existing : memref<4xf32> = dense<3.0> {alignment = 64 : i64}
func.func @consts() -> (tensor<4xf32>, tensor<f32>) {
  %s = arith.constant dense<1.0> : tensor<4xf32>
  %t = arith.constant dense<2.0> : tensor<4xf32>
  %u = arith.constant dense<1.0> : tensor<4xf32>
  %e = arith.constant dense<3.0> : tensor<4xf32>
  %k = arith.constant dense<5.0> : tensor<f32>
  %o = tensor.empty() : tensor<4xf32>
  %a = linalg.add ins(%s, %t : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.add ins(%a, %s : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %c = linalg.add ins(%b, %s : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %d = linalg.add ins(%c, %u : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %f = linalg.add ins(%d, %e : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %f, %k : tensor<4xf32>, tensor<f32>
}
