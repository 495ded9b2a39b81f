// Tests the choice --tfaot-winograd-convolutions{algorithm=auto} makes by
// the number of output blocks (min-tiles, 16 by default), and the form of
// Winograd F(2x2,3x3): 4x4 patches, 16 products, 2x2 output blocks.
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions{algorithm=auto}))' | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions{algorithm=auto}))' --mlir-print-elementsattrs-with-hex-if-larger=100000 | sed 's/\]\], \[\[/\n/g' | FileCheck %s --check-prefix=CONST
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions{algorithm=auto}),canonicalize,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(tfaot-vectorize-winograd-transforms))' | FileCheck %s --check-prefix=VEC
// With algorithm=winograd every convolution is F(4x4), whatever its size.
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions{algorithm=winograd}))' | FileCheck %s --check-prefix=ALL

// 7x7 outputs of one image: 2x2 = 4 blocks of 4x4 (fewer than 16, so not
// F(4x4)), 4x4 = 16 blocks of 2x2 (F(2x2)). The last row and column of
// 2x2 blocks hang over: the 9x9 input gets a zero row and column for their
// 4x4 patches (4 * 2 + 2 = 10).
// CHECK-DAG: affine_map<(d0, d1, d2, d3, d4) -> (d1, d2 * 2, d3 * 2, d4)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3, d4) -> (d1, d2 * 2 + 3, d3 * 2 + 3, d4)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3, d4) -> (d0, 15)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3) -> (15, d0, d1 floordiv 2, d2 floordiv 2, d3)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3) -> (d1 mod 2, d2 mod 2, 15)>
// CHECK-LABEL: func.func @seven_by_seven
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<16x1x4x4x4xf32>) attrs = {tfaot.winograd_transform = "input"}
// CHECK: linalg.batch_matmul ins({{.*}} : tensor<16x16x4xf32>, tensor<16x4x16xf32>) outs({{.*}} : tensor<16x16x16xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<16x1x4x4x16xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x7x7x16xf32>) attrs = {tfaot.winograd_transform = "output"}
// CHECK: arith.addf {{.*}} {tfaot.winograd_sum}
// CHECK: arith.maximumf
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK: return
// ALL-LABEL: func.func @seven_by_seven
// ALL: linalg.batch_matmul ins({{.*}} : tensor<36x4x4xf32>, tensor<36x4x16xf32>)
//
// The input transform's coefficients BT[a][i] BT[b][j], row (a, b) = (0, 0)
// first: BT[0] = 1, 0, -1, 0 times itself. Then the filter: all ones, so
// G g G^T = (G 1)(G 1)^T with G's row sums r = 1, 3/2, 1/2, 1: plane a*4+b
// of the [16, C_in, C_out] constant is r[a] r[b] throughout.
// CONST-LABEL: func.func @seven_by_seven
// CONST: arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, -1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, -1.000000e+00, -0.000000e+00, 1.000000e+00, -0.000000e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00]
// CONST: arith.constant dense<{{\[\[\[}}1.000000e+00, 1.000000e+00,
// CONST-NEXT: {{^}}1.500000e+00,
// CONST-NEXT: {{^}}5.000000e-01,
// CONST-NEXT: {{^}}1.000000e+00,
// CONST-NEXT: {{^}}1.500000e+00,
// CONST-NEXT: {{^}}2.250000e+00,
// CONST-NEXT: {{^}}7.500000e-01,
// CONST-NEXT: {{^}}1.500000e+00,
// CONST-NEXT: {{^}}5.000000e-01,
// CONST-NEXT: {{^}}7.500000e-01,
// CONST-NEXT: {{^}}2.500000e-01,
// CONST-NEXT: {{^}}5.000000e-01,
// CONST-NEXT: {{^}}1.000000e+00,
// CONST-NEXT: {{^}}1.500000e+00,
// CONST-NEXT: {{^}}5.000000e-01,
// CONST-NEXT: {{^}}1.000000e+00, 1.000000e+00, {{.*}} : tensor<16x4x16xf32>
//
// The input transform loads the 16 positions of a patch and stores its 16
// values; the output transform loads a block's 16 products and stores its
// pixels in four groups: the 3x3 whole blocks (4 pixels), the last row of
// blocks (1 of 2 pixel rows), the last column, the corner.
// VEC-LABEL: func.func @seven_by_seven
// VEC-NOT: linalg.generic
// VEC-COUNT-16: vector.load {{.*}} : memref<1x10x10x4xf32>, vector<4xf32>
// VEC-NOT: vector.load
// VEC-COUNT-16: vector.store {{.*}} : memref<16x1x4x4x4xf32>, vector<4xf32>
// VEC-NOT: vector.store
// VEC: linalg.batch_matmul
// VEC-COUNT-16: vector.load {{.*}} : memref<16x1x4x4x16xf32{{.*}}>, vector<16xf32>
// VEC-COUNT-4: vector.store {{.*}} : memref<1x7x7x16xf32>, vector<16xf32>
// VEC-COUNT-16: vector.load {{.*}} : memref<16x1x4x4x16xf32{{.*}}>, vector<16xf32>
// VEC-COUNT-2: vector.store {{.*}} : memref<1x7x7x16xf32>, vector<16xf32>
// VEC-COUNT-16: vector.load {{.*}} : memref<16x1x4x4x16xf32{{.*}}>, vector<16xf32>
// VEC-COUNT-2: vector.store {{.*}} : memref<1x7x7x16xf32>, vector<16xf32>
// VEC-COUNT-16: vector.load {{.*}} : memref<16x1x4x4x16xf32{{.*}}>, vector<16xf32>
// VEC-COUNT-1: vector.store {{.*}} : memref<1x7x7x16xf32>, vector<16xf32>
// VEC-NOT: vector.store
// VEC: return
func.func @seven_by_seven(%in: tensor<1x9x9x4xf32>) -> tensor<1x7x7x16xf32> {
  %w = arith.constant dense<1.0> : tensor<3x3x4x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x9x9x4xf32>, tensor<3x3x4x16xf32>) outs(%init : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %e2 = tensor.empty() : tensor<1x7x7x16xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x7x7x16xf32>) outs(%e2 : tensor<1x7x7x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x7x7x16xf32>
  return %relu : tensor<1x7x7x16xf32>
}

// 5x5 outputs: 3x3 = 9 blocks of 2x2, fewer than 16: direct with auto.
// CHECK-LABEL: func.func @five_by_five
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: tfaot.winograd_transform
// CHECK: return
// ALL-LABEL: func.func @five_by_five
// ALL: linalg.batch_matmul ins({{.*}} : tensor<36x4x4xf32>, tensor<36x4x16xf32>)
func.func @five_by_five(%in: tensor<1x7x7x4xf32>) -> tensor<1x5x5x16xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x4x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x7x7x4xf32>, tensor<3x3x4x16xf32>) outs(%init : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  return %conv : tensor<1x5x5x16xf32>
}
