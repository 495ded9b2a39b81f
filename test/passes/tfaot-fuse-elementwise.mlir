// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-fuse-elementwise{max-body-ops=4}))' | FileCheck %s --check-prefix=BOUND
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-fuse-elementwise))' | FileCheck %s --check-prefix=ALL

// Tests tfaot-fuse-elementwise's bound. Six elementwise generics of one
// mulf squaring its input (bodies of 2 operations with the yield) in a chain. With
// max-body-ops=4 a fused body holds at most three mulf (3 + yield):
// fusing a fourth would make 5 operations, so the chain becomes two
// generics of three each, the second reading the first. With the default
// bound (128) the chain is one generic of six, as upstream's
// linalg-fuse-elementwise-ops makes it.

// BOUND-LABEL: func.func @chain
// BOUND:      %[[FIRST:.*]] = linalg.generic
// BOUND-SAME:   ins(%arg0 : tensor<4xf32>)
// BOUND-COUNT-3: arith.mulf
// BOUND-NEXT:   linalg.yield
// BOUND:      %[[SECOND:.*]] = linalg.generic
// BOUND-SAME:   ins(%[[FIRST]] : tensor<4xf32>)
// BOUND-COUNT-3: arith.mulf
// BOUND-NEXT:   linalg.yield
// BOUND-NOT:  linalg.generic
// BOUND:      return %[[SECOND]]

// ALL-LABEL: func.func @chain
// ALL:       %[[ONE:.*]] = linalg.generic
// ALL-COUNT-6: arith.mulf
// ALL-NEXT:    linalg.yield
// ALL-NOT:   linalg.generic
// ALL:       return %[[ONE]]
#id = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %g1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.mulf %in, %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %g2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g1 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.mulf %in, %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %g3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g2 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.mulf %in, %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %g4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g3 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.mulf %in, %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %g5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g4 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.mulf %in, %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %g6 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%g5 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.mulf %in, %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  return %g6 : tensor<4xf32>
}
