// RUN: tfaot-opt %s --tfaot-cpu-int8-ukernels --split-input-file | FileCheck %s

// A ResNet stage's first block: the shortcut's and the last 1x1's int8
// products, each rescaled (sitofp, scale, bias), added and ReLU'd by one
// generic. It is split: the shortcut's term is written as float to a new
// buffer by the first fused call (no residual, no clamp: lo -inf, hi
// +inf, a float result), and the second fused call adds that buffer as
// its residual and applies the ReLU. Neither product's int32 sums reach
// memory; no generic is left.
// CHECK-LABEL: func.func @join_of_two_products
// CHECK: %[[TERM:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x32xf32>
// CHECK: extract_aligned_pointer_as_index %[[TERM]]
// CHECK: %[[NOCLAMP_LO:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[NOCLAMP_HI:.*]] = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %[[FLOAT:.*]] = arith.constant 0 : i32
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused(%{{.*}}, %c0_i64{{[_0-9]*}}, %[[NOCLAMP_LO]], %[[NOCLAMP_HI]], %[[FLOAT]],
// CHECK: call @tfaot_rt_mmt4d_s8s32_other
// CHECK: %[[TERMPTR:.*]] = memref.extract_aligned_pointer_as_index %[[TERM]]
// CHECK: %[[RELU:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused(%{{.*}}, %[[RELU]], %[[INF]],
// CHECK-NOT: linalg.generic
// CHECK-NOT: tfaot_rt_mmt4d_s8s8s32(
// CHECK: return
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#col = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func private @tfaot_rt_mmt4d_s8s32_other()
func.func @join_of_two_products(%lhs0: memref<6x3x1x4xi8>, %rhs0: memref<2x3x16x4xi8>, %row0: memref<2x16xi32>,
                                %lhs1: memref<6x5x1x4xi8>, %rhs1: memref<2x5x16x4xi8>, %row1: memref<2x16xi32>,
                                %scale0: memref<32xf32>, %bias0: memref<32xf32>,
                                %scale1: memref<32xf32>, %bias1: memref<32xf32>) -> memref<1x2x3x32xf32> {
  %zero = arith.constant 0.0 : f32
  %sums0 = memref.alloc() : memref<6x2x1x16xi32>
  linalg.broadcast ins(%row0 : memref<2x16xi32>) outs(%sums0 : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs0, %rhs0 : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%sums0 : memref<6x2x1x16xi32>)
  // The block's other layers run between the two products.
  call @tfaot_rt_mmt4d_s8s32_other() : () -> ()
  %sums1 = memref.alloc() : memref<6x2x1x16xi32>
  linalg.broadcast ins(%row1 : memref<2x16xi32>) outs(%sums1 : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs1, %rhs1 : memref<6x5x1x4xi8>, memref<2x5x16x4xi8>) outs(%sums1 : memref<6x2x1x16xi32>)
  %flat1 = memref.collapse_shape %sums1 [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  %nhwc1 = memref.expand_shape %flat1 [[0, 1, 2], [3]] output_shape [1, 2, 3, 32] : memref<6x32xi32> into memref<1x2x3x32xi32>
  %flat0 = memref.collapse_shape %sums0 [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  %nhwc0 = memref.expand_shape %flat0 [[0, 1, 2], [3]] output_shape [1, 2, 3, 32] : memref<6x32xi32> into memref<1x2x3x32xi32>
  %result = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x32xf32>
  linalg.generic {indexing_maps = [#id, #col, #col, #id, #col, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%nhwc0, %scale0, %bias0, %nhwc1, %scale1, %bias1 : memref<1x2x3x32xi32>, memref<32xf32>, memref<32xf32>, memref<1x2x3x32xi32>, memref<32xf32>, memref<32xf32>)
      outs(%result : memref<1x2x3x32xf32>) {
  ^bb0(%a0: i32, %s0: f32, %b0: f32, %a1: i32, %s1: f32, %b1: f32, %o: f32):
    %f1 = arith.sitofp %a1 : i32 to f32
    %m1 = arith.mulf %f1, %s1 : f32
    %t1 = arith.addf %m1, %b1 : f32
    %f0 = arith.sitofp %a0 : i32 to f32
    %m0 = arith.mulf %f0, %s0 : f32
    %t0 = arith.addf %m0, %b0 : f32
    %sum = arith.addf %t0, %t1 : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }
  return %result : memref<1x2x3x32xf32>
}

// -----

// Not split: the join multiplies the two terms (not a sum of two
// rescaled products); both products stay plain calls and the generic
// stays.
// CHECK-LABEL: func.func @not_a_join
// CHECK: call @tfaot_rt_mmt4d_s8s8s32
// CHECK: call @tfaot_rt_mmt4d_s8s8s32
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.mulf
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @not_a_join(%lhs0: memref<6x3x1x4xi8>, %rhs0: memref<2x3x16x4xi8>, %row0: memref<2x16xi32>,
                      %scale0: memref<32xf32>, %scale1: memref<32xf32>) -> memref<6x32xf32> {
  %sums0 = memref.alloc() : memref<6x2x1x16xi32>
  linalg.broadcast ins(%row0 : memref<2x16xi32>) outs(%sums0 : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs0, %rhs0 : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%sums0 : memref<6x2x1x16xi32>)
  %sums1 = memref.alloc() : memref<6x2x1x16xi32>
  linalg.broadcast ins(%row0 : memref<2x16xi32>) outs(%sums1 : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs0, %rhs0 : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%sums1 : memref<6x2x1x16xi32>)
  %flat0 = memref.collapse_shape %sums0 [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  %flat1 = memref.collapse_shape %sums1 [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  %result = memref.alloc() {alignment = 64 : i64} : memref<6x32xf32>
  linalg.generic {indexing_maps = [#id, #col, #id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%flat0, %scale0, %flat1, %scale1 : memref<6x32xi32>, memref<32xf32>, memref<6x32xi32>, memref<32xf32>)
      outs(%result : memref<6x32xf32>) {
  ^bb0(%a0: i32, %s0: f32, %a1: i32, %s1: f32, %o: f32):
    %f0 = arith.sitofp %a0 : i32 to f32
    %m0 = arith.mulf %f0, %s0 : f32
    %f1 = arith.sitofp %a1 : i32 to f32
    %m1 = arith.mulf %f1, %s1 : f32
    %p = arith.mulf %m0, %m1 : f32
    linalg.yield %p : f32
  }
  return %result : memref<6x32xf32>
}

// -----

// The float32 join (panel kernel products, tiles 1x64x1): each term is the
// sums plus a bias. Split the same way: the shortcut's sums plus its bias
// go to a new float buffer through the first fused call (no residual, no
// clamp), the second fused call adds that buffer as its residual and
// applies the ReLU; no generic is left.
// CHECK-LABEL: func.func @float_join
// CHECK: %[[TERM:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x64xf32>
// CHECK: %[[TERMOUT:.*]] = memref.extract_aligned_pointer_as_index %[[TERM]]
// CHECK: %[[NOCLAMP_LO:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[NOCLAMP_HI:.*]] = arith.constant 0x7F800000 : f32
// CHECK: call @tfaot_rt_mmt4d_f32_fused(%{{.*}}, %{{.*}}, %c6_i64, %c1_i64, %c3_i64, %{{.*}}, %c64_i64, %{{[0-9]+}}, %c0_i64{{[_0-9]*}}, %[[NOCLAMP_LO]], %[[NOCLAMP_HI]],
// CHECK: call @tfaot_rt_mmt4d_s8s32_other
// CHECK: %[[TERMPTR:.*]] = memref.extract_aligned_pointer_as_index %[[TERM]]
// CHECK: %[[RELU:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: call @tfaot_rt_mmt4d_f32_fused(%{{.*}}, %{{.*}}, %c6_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c5_i64, %{{.*}}, %c64_i64{{[_0-9]*}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[RELU]], %[[INF]],
// CHECK-NOT: linalg.generic
// CHECK-NOT: tfaot_rt_mmt4d_f32f32f32(
// CHECK: return
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#col = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func private @tfaot_rt_mmt4d_s8s32_other()
func.func @float_join(%lhs0: memref<6x3x1x1xf32>, %rhs0: memref<1x3x64x1xf32>,
                      %lhs1: memref<6x5x1x1xf32>, %rhs1: memref<1x5x64x1xf32>,
                      %bias0: memref<64xf32>, %bias1: memref<64xf32>) -> memref<1x2x3x64xf32> {
  %zero = arith.constant 0.0 : f32
  %sums0 = memref.alloc() : memref<6x1x1x64xf32>
  linalg.fill ins(%zero : f32) outs(%sums0 : memref<6x1x1x64xf32>)
  linalg.mmt4d ins(%lhs0, %rhs0 : memref<6x3x1x1xf32>, memref<1x3x64x1xf32>) outs(%sums0 : memref<6x1x1x64xf32>)
  call @tfaot_rt_mmt4d_s8s32_other() : () -> ()
  %sums1 = memref.alloc() : memref<6x1x1x64xf32>
  linalg.fill ins(%zero : f32) outs(%sums1 : memref<6x1x1x64xf32>)
  linalg.mmt4d ins(%lhs1, %rhs1 : memref<6x5x1x1xf32>, memref<1x5x64x1xf32>) outs(%sums1 : memref<6x1x1x64xf32>)
  %flat1 = memref.collapse_shape %sums1 [[0], [1, 2, 3]] : memref<6x1x1x64xf32> into memref<6x64xf32>
  %nhwc1 = memref.expand_shape %flat1 [[0, 1, 2], [3]] output_shape [1, 2, 3, 64] : memref<6x64xf32> into memref<1x2x3x64xf32>
  %flat0 = memref.collapse_shape %sums0 [[0], [1, 2, 3]] : memref<6x1x1x64xf32> into memref<6x64xf32>
  %nhwc0 = memref.expand_shape %flat0 [[0, 1, 2], [3]] output_shape [1, 2, 3, 64] : memref<6x64xf32> into memref<1x2x3x64xf32>
  %result = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x64xf32>
  linalg.generic {indexing_maps = [#id, #col, #id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%nhwc0, %bias0, %nhwc1, %bias1 : memref<1x2x3x64xf32>, memref<64xf32>, memref<1x2x3x64xf32>, memref<64xf32>)
      outs(%result : memref<1x2x3x64xf32>) {
  ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32, %o: f32):
    %t1 = arith.addf %a1, %b1 : f32
    %t0 = arith.addf %a0, %b0 : f32
    %sum = arith.addf %t0, %t1 : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }
  return %result : memref<1x2x3x64xf32>
}
