// RUN: tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-split-shared-empties{max-users=2}))' | FileCheck %s
// RUN: tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-split-shared-empties))' | FileCheck %s --check-prefix=DEFAULT
// RUN: not tfaot-opt %s -pass-pipeline='builtin.module(func.func(tfaot-split-shared-empties{max-users=0}))' 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that a tensor.empty with five users keeps the first two, and that
// the next runs of two users (and then the last one) each get a copy placed
// right before the run's first user; an op using the empty twice counts
// once and keeps one empty for both operands. With the default of 64 users
// nothing changes.
// CHECK-LABEL: func.func @chain
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = linalg.exp ins(%{{.*}} : tensor<4xf32>) outs(%[[E0]] : tensor<4xf32>)
// CHECK-NEXT: %[[B:.*]] = linalg.exp ins(%[[A]] : tensor<4xf32>) outs(%[[E0]] : tensor<4xf32>)
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = linalg.add ins(%[[B]], %[[E1]] : tensor<4xf32>, tensor<4xf32>) outs(%[[E1]] : tensor<4xf32>)
// CHECK-NEXT: %[[D:.*]] = linalg.exp ins(%[[C]] : tensor<4xf32>) outs(%[[E1]] : tensor<4xf32>)
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: linalg.exp ins(%[[D]] : tensor<4xf32>) outs(%[[E2]] : tensor<4xf32>)
// DEFAULT-LABEL: func.func @chain
// DEFAULT-COUNT-1: tensor.empty
// DEFAULT-NOT: tensor.empty
// BAD: tfaot-split-shared-empties: max-users must be at least 1, not 0
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c = linalg.add ins(%b, %e : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %d = linalg.exp ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f = linalg.exp ins(%d : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
