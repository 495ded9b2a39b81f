// Tests --tfaot-winograd-convolutions: which convolutions become Winograd
// F(4x4,3x3) and the form they take (F(2x2,3x3) in winograd-small-blocks.mlir), and (with bufferization) the vector
// loops --tfaot-vectorize-winograd-transforms makes of the transforms.
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions))' | FileCheck %s
// The transformed filter printed in decimal, one [C_in x C_out] plane a line.
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions))' --mlir-print-elementsattrs-with-hex-if-larger=100000 | sed 's/\]\], \[\[/\n/g' | FileCheck %s --check-prefix=CONST
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions{algorithm=auto min-tiles=5}))' | FileCheck %s --check-prefix=AUTO
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions),canonicalize,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(tfaot-vectorize-winograd-transforms))' | FileCheck %s --check-prefix=VEC
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions),canonicalize,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(tfaot-vectorize-winograd-transforms),tfaot-parallelize-loops{min-work=1000})' | FileCheck %s --check-prefix=PAR
// RUN: not tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-winograd-convolutions{algorithm=fast}))' 2>&1 | FileCheck %s --check-prefix=BAD

// An all-ones 3x3 filter: G g G^T is (G 1)(G 1)^T with the row sums of G,
// r = 1/4, -1/2, -1/6, 7/24, 1/8, 1: plane a*6+b of the [36, C_in, C_out]
// constant is r[a] r[b] throughout, e.g. plane 0 is 1/16, plane 1 -1/8,
// plane 7 1/4, plane 15 (a=2, b=3) -7/144, plane 35 1.
// 8x8 outputs are 2x2 blocks of 4x4, patches of 6x6 from the 10x10 input.
// CONST-LABEL: func.func @conv_relu
// First the input transform's coefficients BT[a][i] BT[b][j], row (a, b) =
// (0, 0) first: BT[0] = 4, 0, -5, 0, 1, 0 times itself.
// CONST: arith.constant dense<{{\[\[}}1.600000e+01, 0.000000e+00, -2.000000e+01, 0.000000e+00, 4.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -2.000000e+01, -0.000000e+00, 2.500000e+01,
// CONST: arith.constant dense<{{\[\[\[}}6.250000e-02, 6.250000e-02,
// CONST-NEXT: {{^}}-1.250000e-01, -1.250000e-01,
// CONST-NEXT: {{^}}-0.0416666679,
// CONST-NEXT: {{^}}0.0729166642,
// CONST-NEXT: {{^}}3.125000e-02,
// CONST-NEXT: {{^}}2.500000e-01,
// CONST-NEXT: {{^}}-1.250000e-01,
// CONST-NEXT: {{^}}2.500000e-01,
// CONST-NEXT: {{^}}0.0833333358,
// CONST-NEXT: {{^}}-0.145833328,
// CONST-NEXT: {{^}}-6.250000e-02,
// CONST-NEXT: {{^}}-5.000000e-01,
// CONST-NEXT: {{^}}-0.0416666679,
// CONST-NEXT: {{^}}0.0833333358,
// CONST-NEXT: {{^}}0.027777778,
// CONST-NEXT: {{^}}-0.0486111119,
// CONST-NEXT: {{^}}-0.020833334,
// CONST-NEXT: {{^}}-0.166666672,
// CONST-NEXT: {{^}}0.0729166642,
// CONST-NEXT: {{^}}-0.145833328,
// CONST-NEXT: {{^}}-0.0486111119,
// CONST-NEXT: {{^}}0.0850694477,
// CONST-NEXT: {{^}}0.0364583321,
// CONST-NEXT: {{^}}0.291666657,
// CONST-NEXT: {{^}}3.125000e-02,
// CONST-NEXT: {{^}}-6.250000e-02,
// CONST-NEXT: {{^}}-0.020833334,
// CONST-NEXT: {{^}}0.0364583321,
// CONST-NEXT: {{^}}1.562500e-02,
// CONST-NEXT: {{^}}1.250000e-01,
// CONST-NEXT: {{^}}2.500000e-01,
// CONST-NEXT: {{^}}-5.000000e-01,
// CONST-NEXT: {{^}}-0.166666672,
// CONST-NEXT: {{^}}0.291666657,
// CONST-NEXT: {{^}}1.250000e-01,
// CONST-NEXT: {{^}}1.000000e+00, 1.000000e+00, {{.*}} : tensor<36x4x16xf32>
// CONST: return
// The patch, block and coefficient maps (printed first): the input
// transform over (k, n, tile row, tile column, channel), the output
// transform over the output's (n, h, w, c).
// CHECK-DAG: affine_map<(d0, d1, d2, d3, d4) -> (d1, d2 * 4, d3 * 4, d4)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3, d4) -> (d1, d2 * 4 + 5, d3 * 4 + 5, d4)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3, d4) -> (d0, 35)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3) -> (0, d0, d1 floordiv 4, d2 floordiv 4, d3)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3) -> (35, d0, d1 floordiv 4, d2 floordiv 4, d3)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3) -> (d1 mod 4, d2 mod 4, 35)>
// CHECK-LABEL: func.func @conv_relu
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg0, {{.*}} : tensor<1x10x10x4xf32>, {{.*}}) outs({{.*}} : tensor<36x1x2x2x4xf32>) attrs = {tfaot.winograd_transform = "input"}
// One batched product for the 36 positions.
// CHECK: linalg.batch_matmul ins({{.*}} : tensor<36x4x4xf32>, tensor<36x4x16xf32>) outs({{.*}} : tensor<36x4x16xf32>) -> tensor<36x4x16xf32>
// CHECK-NOT: linalg.matmul
// CHECK: tensor.expand_shape {{.*}} into tensor<36x1x2x2x16xf32>
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x8x16xf32>) attrs = {tfaot.winograd_transform = "output"}
// CHECK: arith.addf {{.*}} {tfaot.winograd_sum}
// CHECK: arith.maximumf
// CHECK: return %[[Y]]
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// With min-tiles=5, 4 blocks of 4x4 are too few, 16 of 2x2 are not:
// F(2x2,3x3) (test/backends/cpu/winograd-small-blocks.mlir).
// AUTO-LABEL: func.func @conv_relu
// AUTO-NOT: linalg.conv_2d_nhwc_hwcf
// AUTO: linalg.batch_matmul ins({{.*}} : tensor<16x16x4xf32>, tensor<16x4x16xf32>)
// AUTO-NOT: linalg.conv_2d_nhwc_hwcf
// VEC-LABEL: func.func @conv_relu
// VEC-NOT: linalg.generic
// The input transform: 36 loads of a patch, 36 stores of its values.
// VEC-COUNT-36: vector.load %arg0[{{.*}}] : memref<1x10x10x4xf32>, vector<4xf32>
// VEC-NOT: vector.load
// VEC-COUNT-36: vector.store {{.*}} : memref<36x1x2x2x4xf32>, vector<4xf32>
// VEC-NOT: vector.store
// VEC: linalg.batch_matmul
// VEC-COUNT-36: vector.load {{.*}} : memref<36x1x2x2x16xf32{{.*}}>, vector<16xf32>
// VEC: arith.maximumf {{.*}} : vector<16xf32>
// VEC: vector.store {{.*}} : memref<1x8x8x16xf32>, vector<16xf32>
func.func @conv_relu(%in: tensor<1x10x10x4xf32>) -> tensor<1x8x8x16xf32> {
  %w = arith.constant dense<1.0> : tensor<3x3x4x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%init : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e2 = tensor.empty() : tensor<1x8x8x16xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x8x8x16xf32>) outs(%e2 : tensor<1x8x8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x16xf32>
  return %relu : tensor<1x8x8x16xf32>
}

// 7x7 outputs of two images: 2x2 blocks each (8 in all), the last row and
// column of blocks hanging over; the 9x9 input gets one more zero row and
// column for their patches. No epilogue: the transform's result is returned.
// CHECK-LABEL: func.func @partial_blocks
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor<2x9x9x4xf32> to tensor<2x10x10x4xf32>
// CHECK: linalg.batch_matmul ins({{.*}} : tensor<36x8x4xf32>, tensor<36x4x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x7x7x16xf32>) attrs = {tfaot.winograd_transform = "output"}
// AUTO-LABEL: func.func @partial_blocks
// AUTO-NOT: linalg.conv_2d_nhwc_hwcf
// AUTO: tfaot.winograd_transform = "output"
// The blocks are looped over in four groups: whole (1x1 of them per image),
// the last row (3 of 4 pixel rows), the last column, the corner.
// VEC-LABEL: func.func @partial_blocks
// VEC-NOT: linalg.generic
// VEC-COUNT-16: vector.store {{.*}} : memref<2x7x7x16xf32>
// VEC-COUNT-12: vector.store {{.*}} : memref<2x7x7x16xf32>
// VEC-COUNT-12: vector.store {{.*}} : memref<2x7x7x16xf32>
// VEC-COUNT-9: vector.store {{.*}} : memref<2x7x7x16xf32>
// VEC-NOT: vector.store {{.*}} : memref<2x7x7x16xf32>
// VEC: return
// The transforms' vector loops go to the thread pool like the product:
// the input transform over its 2 x 2 x 2 patches (images and blocks as one
// loop), the product with its zeroing fill over the 36 products (one loop,
// not a loop of fills and then one of products), each of the output
// transform's four parts (full blocks, the bottom row, the right column,
// the corner) over the 2 images.
// PAR-LABEL: func.func @partial_blocks(
// PAR: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %c8
// PAR: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %c36
// PAR-NOT: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %c36
// PAR-COUNT-4: call @tfaot_rt_parallel_for(%{{.*}}, %{{.*}}, %c2_
// PAR-NOT: scf.for
// PAR: return
func.func @partial_blocks(%in: tensor<2x9x9x4xf32>) -> tensor<2x7x7x16xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x4x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x9x9x4xf32>, tensor<3x3x4x16xf32>) outs(%init : tensor<2x7x7x16xf32>) -> tensor<2x7x7x16xf32>
  return %conv : tensor<2x7x7x16xf32>
}

// Left alone: strides 2, dilations 2, a filter that is not a constant, an
// init that is not zero, a 1x1 filter.
// CHECK-LABEL: func.func @not_winograd
// CHECK-NOT: tfaot.winograd_transform
// CHECK-COUNT-5: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: tfaot.winograd_transform
// CHECK: return
func.func @not_winograd(%in: tensor<1x10x10x4xf32>, %wv: tensor<3x3x4x16xf32>)
    -> (tensor<1x4x4x16xf32>, tensor<1x6x6x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x10x10x16xf32>) {
  %w = arith.constant dense<1.0> : tensor<3x3x4x16xf32>
  %w1 = arith.constant dense<1.0> : tensor<1x1x4x16xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e4 = tensor.empty() : tensor<1x4x4x16xf32>
  %i4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %strided = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%i4 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %e6 = tensor.empty() : tensor<1x6x6x16xf32>
  %i6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %dilated = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%i6 : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %e8 = tensor.empty() : tensor<1x8x8x16xf32>
  %i8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %variable = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %wv : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%i8 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e8 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %accumulating = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%ones : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e10 = tensor.empty() : tensor<1x10x10x16xf32>
  %i10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<1x10x10x16xf32>) -> tensor<1x10x10x16xf32>
  %pointwise = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w1 : tensor<1x10x10x4xf32>, tensor<1x1x4x16xf32>) outs(%i10 : tensor<1x10x10x16xf32>) -> tensor<1x10x10x16xf32>
  return %strided, %dilated, %variable, %accumulating, %pointwise
      : tensor<1x4x4x16xf32>, tensor<1x6x6x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x10x10x16xf32>
}

// Left alone too: 2 input channels (the transforms' vector loops need 4).
// CHECK-LABEL: func.func @two_channels
// CHECK-NOT: tfaot.winograd_transform
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @two_channels(%in: tensor<1x10x10x2xf32>) -> tensor<1x8x8x16xf32> {
  %w = arith.constant dense<1.0> : tensor<3x3x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x2xf32>, tensor<3x3x2x16xf32>) outs(%init : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %conv : tensor<1x8x8x16xf32>
}

// BAD: tfaot-winograd-convolutions: algorithm must be winograd or auto, not 'fast'
