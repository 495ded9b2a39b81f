// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-split-small-reductions | FileCheck %s

// Tests that a softmax's sum over 1000 classes at batch 1 (one output: one
// GPU thread) becomes 25 partial sums of 40 exponentials (25 threads) and a
// sum of the partials, which starts from the original init.
// CHECK-LABEL: func.func @softmax_sum(
// CHECK-SAME: %[[X:.*]]: tensor<1x1000xf32>, %[[INIT:.*]]: tensor<1xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [1, 25, 40]
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<25x1xf32>)
// CHECK: %[[PARTIAL:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[E]] : tensor<1x25x40xf32>) outs(%[[ZERO]] : tensor<25x1xf32>)
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[PARTIAL]] : tensor<25x1xf32>) outs(%[[INIT]] : tensor<1xf32>)
// CHECK-NOT: math.exp
// CHECK: arith.addf
// CHECK: return %[[SUM]]
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @softmax_sum(%x: tensor<1x1000xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
       ins(%x : tensor<1x1000xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %e = math.exp %a : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// Tests what stays one reduction: enough outputs to fill the GPU (2048
// channels), a short reduction (64), a length with no divisor to split by
// (997, prime), and an operand read through a map with a constant (a
// layer norm's broadcast mean, which upstream's split cannot take).
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.generic
#in2 = affine_map<(d0, d1) -> (d0, d1)>
#out2 = affine_map<(d0, d1) -> (d0)>
#bcast = affine_map<(d0, d1) -> (d0, 0)>
func.func @left_alone(%many: tensor<2048x300xf32>, %short: tensor<1x64xf32>, %prime: tensor<1x997xf32>,
                      %i2048: tensor<2048xf32>, %i1: tensor<1xf32>, %x: tensor<128x768xf32>,
                      %mean: tensor<128x1xf32>, %i128: tensor<128xf32>) -> (tensor<2048xf32>, tensor<1xf32>, tensor<1xf32>, tensor<128xf32>) {
  %0 = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "reduction"]}
       ins(%many : tensor<2048x300xf32>) outs(%i2048 : tensor<2048xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2048xf32>
  %1 = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "reduction"]}
       ins(%short : tensor<1x64xf32>) outs(%i1 : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %2 = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "reduction"]}
       ins(%prime : tensor<1x997xf32>) outs(%i1 : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %3 = linalg.generic {indexing_maps = [#in2, #bcast, #out2], iterator_types = ["parallel", "reduction"]}
       ins(%x, %mean : tensor<128x768xf32>, tensor<128x1xf32>) outs(%i128 : tensor<128xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %q = arith.mulf %d, %d : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0, %1, %2, %3 : tensor<2048xf32>, tensor<1xf32>, tensor<1xf32>, tensor<128xf32>
}
