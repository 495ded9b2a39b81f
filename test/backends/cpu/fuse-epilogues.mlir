// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-fuse-epilogues,canonicalize))' -split-input-file | FileCheck %s
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-fuse-epilogues))' -split-input-file -verify-diagnostics -o /dev/null
// RUN: tfaot-opt %s --pass-pipeline='builtin.module(func.func(tfaot-fuse-epilogues))' -split-input-file 2>/dev/null | FileCheck %s --check-prefix=PACK

// Tests fusing contractions with their elementwise epilogues: the epilogue
// is tiled by output rows and the contraction and its zero fill move into
// the tile loop, writing the loop's destination slice, which the epilogue
// then updates in place. The padded input stays one tensor before the loop.
// (canonicalize, as in the CPU pipeline, folds the full-size slices of the
// weights and the one-trip loops.)

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x3xf32>, %[[W:.*]]: tensor<3x3x3x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]]
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x16xf32>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK: %[[LOOP:.*]] = scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[E]]) -> (tensor<1x8x8x16xf32>)
// CHECK-NEXT: %[[IN:.*]] = tensor.extract_slice %[[PAD]][0, %[[H]], 0, 0] [1, 3, 10, 3] [1, 1, 1, 1]
// CHECK-NEXT: %[[OUT:.*]] = tensor.extract_slice %[[ACC]][0, %[[H]], 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
// CHECK-NEXT: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : tensor<1x1x8x16xf32>)
// CHECK-NEXT: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[IN]], %[[W]] : tensor<1x3x10x3xf32>, tensor<3x3x3x16xf32>) outs(%[[FILL]] : tensor<1x1x8x16xf32>)
// CHECK-NEXT: %[[EPI:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<16xf32>) outs(%[[CONV]] : tensor<1x1x8x16xf32>)
// CHECK: ^bb0(%[[BIAS:.*]]: f32, %[[ACCV:.*]]: f32):
// CHECK: %[[SUM:.*]] = arith.addf %[[ACCV]], %[[BIAS]]
// CHECK: arith.maximumf %[[SUM]]
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[EPI]] into %[[ACC]][0, %[[H]], 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
// CHECK: scf.yield %[[INS]]
// CHECK: return %[[LOOP]]
func.func @conv_bias_relu(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %e0 = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%pad, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> loc("conv1")
  %e1 = tensor.empty() : tensor<1x8x8x16xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'conv1'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e1 : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>

// A matmul epilogue that reads the product twice (x * sigmoid(x) style):
// tiles of whole rows; 4 rows of 16 fit one tile, so the loop has one trip
// and folds away, leaving the epilogue in place on the product.
// CHECK-LABEL: func.func @matmul_swish
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK-NOT: scf.for
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[W]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[FILL]] : tensor<4x16xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<16xf32>) outs(%[[MM]] : tensor<4x16xf32>)
// CHECK: ^bb0(%[[BIAS:.*]]: f32, %[[V:.*]]: f32):
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[BIAS]]
// CHECK: arith.mulf %[[V]], %[[S]]
// CHECK: return %[[R]]
func.func @matmul_swish(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("dense/MatMul")
  %e1 = tensor.empty() : tensor<4x16xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'dense/MatMul'}}
  %r = linalg.generic {indexing_maps = [#id2, #col2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm, %b, %mm : tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>) outs(%e1 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %bias: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %p = arith.mulf %in2, %s : f32
    linalg.yield %p : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A tall matmul: 8192 / 512 columns = 16 rows per tile, the largest
// divisor of 40 rows not above that is 10, so 4 tiles of 10 rows.
// CHECK-LABEL: func.func @matmul_rows
// CHECK: %[[C10:.*]] = arith.constant 10 : index
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C10]] iter_args(%[[ACC:[a-z0-9_]+]] =
// CHECK: %[[A:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [10, 8] [1, 1]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [10, 512] [1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[OUT]] :
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[A]], %{{.*}}) outs(%[[FILL]] : tensor<10x512xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[MM]] : tensor<10x512xf32>)
func.func @matmul_rows(%a: tensor<40x8xf32>, %w: tensor<8x512xf32>) -> tensor<40x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<40x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<40x512xf32>) -> tensor<40x512xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<40x8xf32>, tensor<8x512xf32>) outs(%f : tensor<40x512xf32>) -> tensor<40x512xf32> loc("mm")
  %e1 = tensor.empty() : tensor<40x512xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'mm'}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm : tensor<40x512xf32>) outs(%e1 : tensor<40x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<40x512xf32>
  return %r : tensor<40x512xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Weights of 1 MiB (over the 768 KiB panel budget) and rows for two
// tiles: the product is split into panels of 32 columns, the panel loop
// outside the rows, so each panel is read from memory once. Constant
// weights are packed panel-major: 512x512 becomes 16x512x32 and each
// panel is the slice [j / 32, 0, 0] of it (the splat here canonicalizes to
// one 512x32 splat; the PACK run, without canonicalize, shows the packed
// constant). A tile has 8192 / 32 = 256 rows.
// CHECK-LABEL: func.func @matmul_panels
// CHECK-DAG: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<512x32xf32>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C32]]
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C256]]
// CHECK: %[[A:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [256, 512] [1, 1]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %{{.*}}[%[[I]], %[[J]]] [256, 32] [1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[OUT]] :
// CHECK: linalg.matmul ins(%[[A]], %[[W]] : tensor<256x512xf32>, tensor<512x32xf32>) outs(%[[FILL]] : tensor<256x32xf32>)
// PACK-LABEL: func.func @matmul_panels
// PACK: %[[P:.*]] = arith.constant dense<5.000000e-01> : tensor<16x512x32xf32>
// PACK: scf.for %[[J:[a-z0-9_]+]] =
// PACK: %[[B:.*]] = affine.apply #{{.*}}(%[[J]])
// PACK: %[[W:.*]] = tensor.extract_slice %[[P]][%[[B]], 0, 0] [1, 512, 32] [1, 1, 1] : tensor<16x512x32xf32> to tensor<512x32xf32>
// PACK: linalg.matmul ins(%{{.*}}, %[[W]] :
func.func @matmul_panels(%a: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<512x512xf32>
  %e0 = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<512x512xf32>, tensor<512x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32> loc("panels")
  %e1 = tensor.empty() : tensor<512x512xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'panels'}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm : tensor<512x512xf32>) outs(%e1 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The same weights as an argument (not packable): the widest panel under
// 768 KiB whose width divides 512 is 256 columns (512 KiB), with 8192 /
// 256 = 32 rows per tile; panels outside rows again.
// CHECK-LABEL: func.func @matmul_blocks
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C256]]
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C32]]
// CHECK: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, %[[J]]] [512, 256] [1, 1]
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<32x512xf32>, tensor<512x256xf32>) outs(%{{.*}} : tensor<32x256xf32>)
func.func @matmul_blocks(%a: tensor<64x512xf32>, %w: tensor<512x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<64x512xf32>, tensor<512x512xf32>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32> loc("blocks")
  %e1 = tensor.empty() : tensor<64x512xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'blocks'}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm : tensor<64x512xf32>) outs(%e1 : tensor<64x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// A classifier at batch 1: one row, so each weight is used once, and 1000
// KB of constant weights (over the panel budget). They are packed in
// panels of 40 columns (the widest multiple of 8 from 64 down to 32 that
// divides 1000): 256x1000 becomes 25x256x40, each panel one contiguous
// run, one loop iteration (and thread-pool piece) per panel.
// CHECK-LABEL: func.func @matvec_panels
// CHECK-DAG: %[[C40:.*]] = arith.constant 40 : index
// CHECK: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C40]]
// CHECK-NOT: scf.for
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x256xf32>, tensor<256x40xf32>) outs(%{{.*}} : tensor<1x40xf32>)
// PACK-LABEL: func.func @matvec_panels
// PACK: %[[P:.*]] = arith.constant dense<2.500000e-01> : tensor<25x256x40xf32>
// PACK: scf.for %[[J:[a-z0-9_]+]] =
// PACK: %[[B:.*]] = affine.apply #{{.*}}(%[[J]])
// PACK: %[[W:.*]] = tensor.extract_slice %[[P]][%[[B]], 0, 0] [1, 256, 40] [1, 1, 1] : tensor<25x256x40xf32> to tensor<256x40xf32>
// PACK: linalg.matmul ins(%{{.*}}, %[[W]] :
func.func @matvec_panels(%a: tensor<1x256xf32>, %b: tensor<1000xf32>) -> tensor<1x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<256x1000xf32>
  %e0 = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<1x256xf32>, tensor<256x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32> loc("matvec")
  %e1 = tensor.empty() : tensor<1x1000xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'matvec'}}
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm, %b : tensor<1x1000xf32>, tensor<1000xf32>) outs(%e1 : tensor<1x1000xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// 1001 classes (a background class first): no multiple of 8 divides 1001,
// so the product stays whole.
// CHECK-LABEL: func.func @matvec_odd
// CHECK-NOT: scf.for
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x256xf32>, tensor<256x1001xf32>)
func.func @matvec_odd(%a: tensor<1x256xf32>) -> tensor<1x1001xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<256x1001xf32>
  %e0 = tensor.empty() : tensor<1x1001xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x1001xf32>) -> tensor<1x1001xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<1x256xf32>, tensor<256x1001xf32>) outs(%f : tensor<1x1001xf32>) -> tensor<1x1001xf32> loc("odd")
  %e1 = tensor.empty() : tensor<1x1001xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'odd'}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm : tensor<1x1001xf32>) outs(%e1 : tensor<1x1001xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1001xf32>
  return %r : tensor<1x1001xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// A depthwise convolution with multiplier 1 (HWCM computed as 5-D and
// collapsed to NHWC by the lowering) becomes the NHWC x HWC form first,
// then fuses like a convolution; the filter is collapsed to HWC. Batch 2
// is tiled too (a loop per image, a loop per row).
// CHECK-LABEL: func.func @depthwise_relu6
// CHECK-SAME: (%[[X:.*]]: tensor<2x6x6x8xf32>, %[[W:.*]]: tensor<3x3x8x1xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK: %[[W3:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1], [2, 3]] : tensor<3x3x8x1xf32> into tensor<3x3x8xf32>
// CHECK: scf.for %[[N:[a-z0-9_]+]] =
// CHECK: scf.for %[[H:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] =
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[X]][%[[N]], %[[H]], 0, 0] [1, 3, 6, 8] [1, 1, 1, 1]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[N]], %[[H]], 0, 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[OUT]] :
// CHECK: %[[DW:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[IN]], %[[W3]] : tensor<1x3x6x8xf32>, tensor<3x3x8xf32>) outs(%[[FILL]] : tensor<1x1x4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[B]] : tensor<8xf32>) outs(%[[DW]] : tensor<1x1x4x8xf32>)
// CHECK: arith.minimumf
// CHECK-NOT: tensor.collapse_shape
func.func @depthwise_relu6(%x: tensor<2x6x6x8xf32>, %w: tensor<3x3x8x1xf32>, %b: tensor<8xf32>) -> tensor<2x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e0 = tensor.empty() : tensor<2x4x4x8x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x4x8x1xf32>) -> tensor<2x4x4x8x1xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x6x6x8xf32>, tensor<3x3x8x1xf32>) outs(%f : tensor<2x4x4x8x1xf32>) -> tensor<2x4x4x8x1xf32> loc("dw")
  %c = tensor.collapse_shape %d [[0], [1], [2], [3, 4]] : tensor<2x4x4x8x1xf32> into tensor<2x4x4x8xf32>
  %e1 = tensor.empty() : tensor<2x4x4x8xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into depthwise_conv_2d_nhwc_hwc: 'dw'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<2x4x4x8xf32>, tensor<8xf32>) outs(%e1 : tensor<2x4x4x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<2x4x4x8xf32>
  return %r : tensor<2x4x4x8xf32>
}

// -----

#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#cm5 = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>

// The form the CPU pipeline gives: tfaot-fuse-elementwise has moved
// the collapse below the epilogue, which runs on the 5-D HWCM result.
// CHECK-LABEL: func.func @depthwise_hwcm
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x4x8x1xf32>
// CHECK: scf.for %[[H:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[E]])
// CHECK: %[[OUT:.*]] = tensor.extract_slice %[[ACC]][0, %[[H]], 0, 0, 0] [1, 1, 4, 8, 1] [1, 1, 1, 1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[OUT]] :
// CHECK: %[[DW:.*]] = linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} outs(%[[FILL]] : tensor<1x1x4x8x1xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[DW]] : tensor<1x1x4x8x1xf32>)
// CHECK: tensor.collapse_shape
func.func @depthwise_hwcm(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x1xf32>, %b: tensor<8x1xf32>) -> tensor<1x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x4x4x8x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x4x8x1xf32>) -> tensor<1x4x4x8x1xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x6x8xf32>, tensor<3x3x8x1xf32>) outs(%f : tensor<1x4x4x8x1xf32>) -> tensor<1x4x4x8x1xf32> loc("dw5")
  %e1 = tensor.empty() : tensor<1x4x4x8x1xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into depthwise_conv_2d_nhwc_hwcm: 'dw5'}}
  %r = linalg.generic {indexing_maps = [#id5, #cm5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
         ins(%d, %b : tensor<1x4x4x8x1xf32>, tensor<8x1xf32>) outs(%e1 : tensor<1x4x4x8x1xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x8x1xf32>
  %c = tensor.collapse_shape %r [[0], [1], [2], [3, 4]] : tensor<1x4x4x8x1xf32> into tensor<1x4x4x8xf32>
  return %c : tensor<1x4x4x8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Two matmuls sharing one zero fill and one tensor.empty (as CSE leaves
// them): each fused matmul gets its own fill of its epilogue's destination
// (the shared tensor.empty, which bufferization allocates per use).
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[F1:.*]] = linalg.fill {{.*}} outs(%[[E]] :
// CHECK: %[[M1:.*]] = linalg.matmul {{.*}} outs(%[[F1]] :
// CHECK: %[[R1:.*]] = linalg.generic {{.*}} outs(%[[M1]] :
// CHECK: %[[F2:.*]] = linalg.fill {{.*}} outs(%[[E]] :
// CHECK: %[[M2:.*]] = linalg.matmul {{.*}} outs(%[[F2]] :
// CHECK: %[[R2:.*]] = linalg.generic {{.*}} outs(%[[M2]] :
// CHECK: return %[[R1]], %[[R2]]
func.func @shared_fill(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %v: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm1 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("mm1")
  %mm2 = linalg.matmul ins(%a, %v : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("mm2")
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'mm1'}}
  %r1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm1 : tensor<4x16xf32>) outs(%e0 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into matmul: 'mm2'}}
  %r2 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm2 : tensor<4x16xf32>) outs(%e0 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.minimumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  return %r1, %r2 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>

// Not fused: the product has a second user (it is also returned); the
// epilogue is a reduction; the epilogue broadcasts the product to a larger
// shape; the epilogue reads its output (an accumulation). The remarks say
// why where the consumer is elementwise.
// CHECK-LABEL: func.func @not_fused
// CHECK-NOT: scf.for
// CHECK: %[[MM0:.*]] = linalg.matmul
// CHECK: %[[R0:.*]] = linalg.generic {{.*}} ins(%[[MM0]] :
// CHECK: %[[MM1:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%[[MM1]] :
// CHECK: %[[MM2:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%[[MM2]] :
// CHECK: %[[MM3:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%[[MM3]] : tensor<4x16xf32>) outs(%[[MM0]] :
// CHECK-NOT: scf.for
// CHECK: return %[[MM0]], %[[R0]],
func.func @not_fused(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %v: tensor<4xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<3x4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] epilogue not fused into matmul: the product is also read by func.return}}
  %mm0 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm0 : tensor<4x16xf32>) outs(%e0 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>

  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm1 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %r1 = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
         ins(%mm1 : tensor<4x16xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>

  %f2 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] epilogue not fused into matmul: the consumer's result has another type}}
  %mm2 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e3 = tensor.empty() : tensor<3x4x16xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%mm2 : tensor<4x16xf32>) outs(%e3 : tensor<3x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<3x4x16xf32>

  %f3 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm3 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f3 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r3 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%mm3 : tensor<4x16xf32>) outs(%mm0 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %mm0, %r0, %r1, %r2, %r3 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<3x4x16xf32>, tensor<4x16xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests that a large convolution with few output rows (7, as in ResNet-50's
// last stage; 8.3M multiply-adds per row) is also tiled over output
// channels: 512 channels in 8 blocks of 64 make 56 tiles (at least 32, so
// that 16 threads all get work); the filter is sliced to the block's
// channels, the input row is not. The channel blocks are the outer loop and
// the rows the inner one, so the block's weights (3x3x256x64 floats, 576
// KiB) are read by all 7 rows in turn while they are in cache. (The small
// convolutions above, and depthwise ones, keep whole rows.)
// CHECK-LABEL: func.func @few_rows
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[C64]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x7x7x512xf32>)
// CHECK: scf.for %[[H:.*]] = %{{.*}} to %[[C7]] step %{{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (tensor<1x7x7x512xf32>)
// CHECK: %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, %[[H]], 0, 0] [1, 3, 9, 256] [1, 1, 1, 1]
// CHECK: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %[[C]]] [3, 3, 256, 64] [1, 1, 1, 1]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %[[ACC2]][0, %[[H]], 0, %[[C]]] [1, 1, 7, 64] [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[IN]], %[[W]] : tensor<1x3x9x256xf32>, tensor<3x3x256x64xf32>)
// CHECK: linalg.generic
// CHECK: tensor.insert_slice %{{.*}} into %[[ACC2]][0, %[[H]], 0, %[[C]]] [1, 1, 7, 64]
func.func @few_rows(%x: tensor<1x9x9x256xf32>, %w: tensor<3x3x256x512xf32>, %b: tensor<512xf32>) -> tensor<1x7x7x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x7x7x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x256xf32>, tensor<3x3x256x512xf32>) outs(%f : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32> loc("conv5")
  %e1 = tensor.empty() : tensor<1x7x7x512xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'conv5'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<1x7x7x512xf32>, tensor<512xf32>) outs(%e1 : tensor<1x7x7x512xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x512xf32>
  return %r : tensor<1x7x7x512xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests that a 7x7 image with 960 output channels (MobileNetV2's
// block_14..16_expand) is split into packed panels although its constant
// filter (600 KiB) fits the panel budget: 64 channels per panel (a
// unit-stride reduction of 160 values), 15 of them, outside the rows. The
// PACK run shows the packed constant.
// CHECK-LABEL: func.func @small_image_many_channels
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C960:.*]] = arith.constant 960 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C960]] step %[[C64]]
// CHECK: scf.for
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}tfaot.panel_columns = 64 : i64{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x7x160xf32>, tensor<1x1x160x64xf32>)
// PACK-LABEL: func.func @small_image_many_channels
// PACK: arith.constant dense<2.500000e-01> : tensor<15x1x1x160x64xf32>
func.func @small_image_many_channels(%x: tensor<1x7x7x160xf32>, %b: tensor<960xf32>) -> tensor<1x7x7x960xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x1x160x960xf32>
  %e0 = tensor.empty() : tensor<1x7x7x960xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x960xf32>) -> tensor<1x7x7x960xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x7x160xf32>, tensor<1x1x160x960xf32>) outs(%f : tensor<1x7x7x960xf32>) -> tensor<1x7x7x960xf32> loc("expand7x7")
  %e1 = tensor.empty() : tensor<1x7x7x960xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'expand7x7'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<1x7x7x960xf32>, tensor<960xf32>) outs(%e1 : tensor<1x7x7x960xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x960xf32>
  return %r : tensor<1x7x7x960xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests that a 7x7 projection to 160 channels (MobileNetV2's
// block_13..15_project) is packed too: from 128 output channels on, the
// filter's rows are 512 bytes or more apart in its original layout. Two
// panels of 80 channels, outside the rows.
// CHECK-LABEL: func.func @small_image_projection
// CHECK-DAG: %[[C80:.*]] = arith.constant 80 : index
// CHECK-DAG: %[[C160:.*]] = arith.constant 160 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C160]] step %[[C80]]
// CHECK: scf.for
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}tfaot.panel_columns = 80 : i64{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x7x960xf32>, tensor<1x1x960x80xf32>)
// PACK-LABEL: func.func @small_image_projection
// PACK: arith.constant dense<2.500000e-01> : tensor<2x1x1x960x80xf32>
func.func @small_image_projection(%x: tensor<1x7x7x960xf32>, %b: tensor<160xf32>) -> tensor<1x7x7x160xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x1x960x160xf32>
  %e0 = tensor.empty() : tensor<1x7x7x160xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x160xf32>) -> tensor<1x7x7x160xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x7x960xf32>, tensor<1x1x960x160xf32>) outs(%f : tensor<1x7x7x160xf32>) -> tensor<1x7x7x160xf32> loc("project7x7")
  %e1 = tensor.empty() : tensor<1x7x7x160xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'project7x7'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<1x7x7x160xf32>, tensor<160xf32>) outs(%e1 : tensor<1x7x7x160xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x7x7x160xf32>
  return %r : tensor<1x7x7x160xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests that the channel blocks of such a convolution are narrowed until
// one block's weights fit the 768 KiB panel budget: with 512 input
// channels (ResNet-50's conv5_blockN_2, 9.4 MB of weights) a block of 64
// output channels is 1.2 MB, so the blocks are 32 channels (576 KiB, two
// AVX-512 vectors), 16 of them, each read by the 7 rows in turn.
// CHECK-LABEL: func.func @few_rows_wide
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[C32]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x7x7x512xf32>)
// CHECK: scf.for %[[H:.*]] = %{{.*}} to %[[C7]] step %{{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (tensor<1x7x7x512xf32>)
// CHECK: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %[[C]]] [3, 3, 512, 32] [1, 1, 1, 1]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %[[ACC2]][0, %[[H]], 0, %[[C]]] [1, 1, 7, 32] [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x3x9x512xf32>, tensor<3x3x512x32xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %[[ACC2]][0, %[[H]], 0, %[[C]]] [1, 1, 7, 32]
func.func @few_rows_wide(%x: tensor<1x9x9x512xf32>, %w: tensor<3x3x512x512xf32>, %b: tensor<512xf32>) -> tensor<1x7x7x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x7x7x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%f : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32> loc("conv5_wide")
  %e1 = tensor.empty() : tensor<1x7x7x512xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'conv5_wide'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<1x7x7x512xf32>, tensor<512xf32>) outs(%e1 : tensor<1x7x7x512xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x512xf32>
  return %r : tensor<1x7x7x512xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests that the constant filter of a convolution split over channel
// blocks is packed block-major, so each block's weights are contiguous:
// 1x1x8x128 in blocks of 64 becomes 2x1x1x8x64, and each tile reads the
// rank-reduced slice of its block (the block's offset divided by 64). The
// packed constant starts with input channel 0's first 64 filter values,
// then input channel 1's (element 128 of the original).
// (One output row of 4096 pixels, 4.2M multiply-adds: split in 2 blocks.)
// CHECK-LABEL: func.func @packed_filter
// CHECK-NOT: tensor<1x1x8x128xf32>
// CHECK: %[[P:.*]] = arith.constant dense<"0x000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7A33F{{[0-9A-F]+}}"> : tensor<2x1x1x8x64xf32>
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[B:.*]] = affine.apply #{{.*}}(%[[C]])
// CHECK: %[[W:.*]] = tensor.extract_slice %[[P]][%[[B]], 0, 0, 0, 0] [1, 1, 1, 8, 64] [1, 1, 1, 1, 1] : tensor<2x1x1x8x64xf32> to tensor<1x1x8x64xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x1x4096x8xf32>, tensor<1x1x8x64xf32>)
func.func @packed_filter(%x: tensor<1x1x4096x8xf32>, %b: tensor<128xf32>) -> tensor<1x1x4096x128xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<"0x000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423E"> : tensor<1x1x8x128xf32>
  %e0 = tensor.empty() : tensor<1x1x4096x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x1x4096x128xf32>) -> tensor<1x1x4096x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x4096x8xf32>, tensor<1x1x8x128xf32>) outs(%f : tensor<1x1x4096x128xf32>) -> tensor<1x1x4096x128xf32> loc("packed")
  %e1 = tensor.empty() : tensor<1x1x4096x128xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'packed'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<1x1x4096x128xf32>, tensor<128xf32>) outs(%e1 : tensor<1x1x4096x128xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x1x4096x128xf32>
  return %r : tensor<1x1x4096x128xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests that a convolution whose filter exceeds the 768 KiB panel budget is
// split over channel blocks even when its rows are few but light (14 rows
// of 3.7M multiply-adds, under the 4M that splits for threads alone):
// ResNet-50's stage-4 1x1 expand (256 -> 1024 channels, 1 MiB of weights).
// Two blocks of 512 channels (512 KiB) fit; with the batch of 2 that makes
// 56 pieces. The blocks are the outermost loop, then the images, then the
// rows, so all 28 rows read one block's weights in turn.
// CHECK-LABEL: func.func @large_filter_batch
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C14:.*]] = arith.constant 14 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[C512]] iter_args(%[[A0:.*]] = %{{.*}}) -> (tensor<2x14x14x1024xf32>)
// CHECK-NEXT: scf.for %[[N:.*]] = %{{.*}} to %[[C2]] step %{{.*}} iter_args(%[[A1:.*]] = %[[A0]])
// CHECK-NEXT: scf.for %[[H:.*]] = %{{.*}} to %[[C14]] step %{{.*}} iter_args(%[[A2:.*]] = %[[A1]])
// CHECK: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %[[C]]] [1, 1, 256, 512] [1, 1, 1, 1]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %[[A2]][%[[N]], %[[H]], 0, %[[C]]] [1, 1, 14, 512] [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x1x14x256xf32>, tensor<1x1x256x512xf32>)
// CHECK: linalg.generic
// CHECK: tensor.insert_slice %{{.*}} into %[[A2]][%[[N]], %[[H]], 0, %[[C]]] [1, 1, 14, 512]
func.func @large_filter_batch(%x: tensor<2x14x14x256xf32>, %w: tensor<1x1x256x1024xf32>, %b: tensor<1024xf32>) -> tensor<2x14x14x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x14x14x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x14x14x1024xf32>) -> tensor<2x14x14x1024xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x14x14x256xf32>, tensor<1x1x256x1024xf32>) outs(%f : tensor<2x14x14x1024xf32>) -> tensor<2x14x14x1024xf32> loc("expand")
  %e1 = tensor.empty() : tensor<2x14x14x1024xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'expand'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<2x14x14x1024xf32>, tensor<1024xf32>) outs(%e1 : tensor<2x14x14x1024xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x14x14x1024xf32>
  return %r : tensor<2x14x14x1024xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mean = affine_map<(d0, d1, d2, d3) -> (d0, d3)>

// Tests that a convolution with no epilogue of its own (here its result
// goes to a reduction, as ResNet-50's last 1x1 convolution feeds the mean)
// gets the same channel blocks: 1024 channels of 256 input channels (1 MiB
// of weights, 14 rows) in 4 blocks of 256 (256 KiB; 2 blocks would make 28
// pieces, under 32), outside the rows, with its zero fill in the loop on
// the loop's destination slice. The reduction reads the loop's result. The
// small convolution beside it (a 3x3x16x16 filter, 9 KiB) keeps its one op.
// CHECK-LABEL: func.func @alone
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C14:.*]] = arith.constant 14 : index
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x14x14x1024xf32>
// CHECK: %[[LOOP:.*]] = scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[C256]] iter_args(%[[A0:.*]] = %[[E]]) -> (tensor<1x14x14x1024xf32>)
// CHECK-NEXT: scf.for %[[H:.*]] = %{{.*}} to %[[C14]] step %{{.*}} iter_args(%[[A1:.*]] = %[[A0]])
// CHECK-NEXT: %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, %[[H]], 0, 0] [1, 1, 14, 256] [1, 1, 1, 1]
// CHECK-NEXT: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %[[C]]] [1, 1, 256, 256] [1, 1, 1, 1]
// CHECK-NEXT: %[[OUT:.*]] = tensor.extract_slice %[[A1]][0, %[[H]], 0, %[[C]]] [1, 1, 14, 256] [1, 1, 1, 1]
// CHECK-NEXT: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : tensor<1x1x14x256xf32>)
// CHECK-NEXT: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[IN]], %[[W]] : tensor<1x1x14x256xf32>, tensor<1x1x256x256xf32>) outs(%[[FILL]] : tensor<1x1x14x256xf32>)
// CHECK-NEXT: tensor.insert_slice %[[CONV]] into %[[A1]][0, %[[H]], 0, %[[C]]] [1, 1, 14, 256]
// CHECK: linalg.generic {{.*}} ins(%[[LOOP]] : tensor<1x14x14x1024xf32>)
// CHECK-NOT: scf.for
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x6x6x16xf32>
// CHECK-NOT: scf.for
// CHECK: return
func.func @alone(%x: tensor<1x14x14x256xf32>, %w: tensor<1x1x256x1024xf32>, %y: tensor<1x8x8x16xf32>, %v: tensor<3x3x16x16xf32>)
    -> (tensor<1x1024xf32>, tensor<1x6x6x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x14x14x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32>
  // expected-remark @unknown {{[tfaot-fuse-epilogues] split conv_2d_nhwc_hwcf over output-channel blocks: 'last', 256 channels per block}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x14x14x256xf32>, tensor<1x1x256x1024xf32>) outs(%f : tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32> loc("last")
  %e1 = tensor.empty() : tensor<1x1024xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #mean], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
         ins(%c : tensor<1x14x14x1024xf32>) outs(%f1 : tensor<1x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<1x1024xf32>
  %e2 = tensor.empty() : tensor<1x6x6x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %small = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%y, %v : tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) outs(%f2 : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %sum, %small : tensor<1x1024xf32>, tensor<1x6x6x16xf32>
}

// -----

// Tests that such a convolution's constant filter is packed block-major as
// in @packed_filter (the same 1x1x8x128 values, one row of 4096 pixels:
// 4.2M multiply-adds, split in 2 blocks of 64), with no epilogue.
// CHECK-LABEL: func.func @packed_alone
// CHECK-NOT: tensor<1x1x8x128xf32>
// CHECK: %[[P:.*]] = arith.constant dense<"0x000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7A33F{{[0-9A-F]+}}"> : tensor<2x1x1x8x64xf32>
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[B:.*]] = affine.apply #{{.*}}(%[[C]])
// CHECK: %[[W:.*]] = tensor.extract_slice %[[P]][%[[B]], 0, 0, 0, 0] [1, 1, 1, 8, 64] [1, 1, 1, 1, 1] : tensor<2x1x1x8x64xf32> to tensor<1x1x8x64xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x1x4096x8xf32>, tensor<1x1x8x64xf32>)
func.func @packed_alone(%x: tensor<1x1x4096x8xf32>) -> tensor<1x1x4096x128xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<"0x000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423ECDCC4C3E3D0A573EAE47613E1F856B3E8FC2753E0000803EB81E853E713D8A3E295C8F3EE17A943E9A99993E52B89E3E0AD7A33EC3F5A83E7B14AE3E3333B33EEC51B83EA470BD3E5C8FC23E14AEC73ECDCCCC3E85EBD13E3D0AD73EF628DC3EAE47E13E6666E63E1F85EB3ED7A3F03E8FC2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F713D0A3FCDCC0C3F295C0F3F85EB113FE17A143F3D0A173F9A99193FF6281C3F52B81E3FAE47213F0AD7233F6666263FC3F5283F1F852B3F7B142E3FD7A3303F3333333F8FC2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F713D4A3FCDCC4C3F295C4F3F85EB513FE17A543F3D0A573F9A99593FF6285C3F52B85E3FAE47613F0AD7633F6666663FC3F5683F1F856B3F7B146E3FD7A3703F3333733F8FC2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC3F5883F713D8A3F1F858B3FCDCC8C3F7B148E3F295C8F3FD7A3903F85EB913F3333933FE17A943F8FC2953F3D0A973FEC51983F9A99993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC3F5A83F713DAA3F1F85AB3FCDCCAC3F7B14AE3F295CAF3FD7A3B03F85EBB13F3333B33FE17AB43F8FC2B53F3D0AB73FEC51B83F9A99B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC3F5C83F713DCA3F1F85CB3FCDCCCC3F7B14CE3F295CCF3FD7A3D03F85EBD13F3333D33FE17AD43F8FC2D53F3D0AD73FEC51D83F9A99D93F48E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC3F5E83F713DEA3F1F85EB3FCDCCEC3F7B14EE3F295CEF3FD7A3F03F85EBF13F3333F33FE17AF43F8FC2F53F3D0AF73FEC51F83F9A99F93F48E1FA3FF628FC3FA470FD3F52B8FE3F00000040D7A30040AE47014085EB01405C8F0240333303400AD70340E17A0440B81E05408FC20540666606403D0A074014AE0740EC510840C3F508409A990940713D0A4048E10A401F850B40F6280C40CDCC0C40A4700D407B140E4052B80E40295C0F4000001040D7A31040AE47114085EB11405C8F1240333313400AD71340E17A1440B81E15408FC21540666616403D0A174014AE1740EC511840C3F518409A991940713D1A4048E11A401F851B40F6281C40CDCC1C40A4701D407B141E4052B81E40295C1F4000002040000000000AD7233C0AD7A33C8FC2F53C0AD7233DCDCC4C3D8FC2753D295C8F3D0AD7A33DEC51B83DCDCCCC3DAE47E13D8FC2F53DB81E053E295C0F3E9A99193E0AD7233E7B142E3EEC51383E5C8F423E"> : tensor<1x1x8x128xf32>
  %e0 = tensor.empty() : tensor<1x1x4096x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x1x4096x128xf32>) -> tensor<1x1x4096x128xf32>
  // expected-remark @unknown {{[tfaot-fuse-epilogues] split conv_2d_nhwc_hwcf over output-channel blocks: 'packed_alone', 64 channels per block}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x4096x8xf32>, tensor<1x1x8x128xf32>) outs(%f : tensor<1x1x4096x128xf32>) -> tensor<1x1x4096x128xf32> loc("packed_alone")
  return %c : tensor<1x1x4096x128xf32>
}

// -----

// Contractions left outside loops (no epilogue, not split) each get a zero
// fill of their own right before them, not the one fill CSE shared between
// them further up, so that tfaot-vectorize-contractions can start their
// accumulators from the fill's value and drop it.
// CHECK-LABEL: func.func @own_fills
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.negf
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<2x32xf32>
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E1]] : tensor<2x32xf32>)
// CHECK-NEXT: linalg.matmul ins(%arg0, %arg1 : {{.*}}) outs(%[[F1]] : tensor<2x32xf32>)
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x32xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<2x32xf32>)
// CHECK-NEXT: linalg.matmul ins(%[[NEG]], %arg1 : {{.*}}) outs(%[[F2]] : tensor<2x32xf32>)
func.func @own_fills(%a: tensor<2x16xf32>, %b: tensor<16x32xf32>) -> (tensor<2x32xf32>, tensor<2x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32xf32>) -> tensor<2x32xf32>
  %neg = arith.negf %a : tensor<2x16xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<2x16xf32>, tensor<16x32xf32>) outs(%f : tensor<2x32xf32>) -> tensor<2x32xf32>
  %m2 = linalg.matmul ins(%neg, %b : tensor<2x16xf32>, tensor<16x32xf32>) outs(%f : tensor<2x32xf32>) -> tensor<2x32xf32>
  return %m1, %m2 : tensor<2x32xf32>, tensor<2x32xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests that a constant filter split over channel blocks is packed in
// blocks of one register tile's width: 1024 input channels (4 KiB per
// output channel; 256 channels are 1 MiB, over the 768 KiB budget) would
// have made blocks of 128, and are blocks of 32 (two AVX-512 vectors),
// each a contiguous panel; the convolution says so (tfaot.panel_columns)
// for tfaot-vectorize-contractions. (The splat filter, which keeps the
// test short, folds with its slices into a splat of the block's shape;
// @packed_filter checks the packed order of real values.)
// CHECK-LABEL: func.func @panels_long_reduction
// CHECK-DAG: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<1x1x1024x32xf32>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[C32]] iter_args
// CHECK: scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: linalg.conv_2d_nhwc_hwcf {{{.*}}tfaot.panel_columns = 32 : i64} ins(%{{.*}}, %[[W]] : tensor<1x1x7x1024xf32>, tensor<1x1x1024x32xf32>) outs(%{{.*}} : tensor<1x1x7x32xf32>)
func.func @panels_long_reduction(%x: tensor<1x7x7x1024xf32>, %b: tensor<256xf32>) -> tensor<1x7x7x256xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<1x1x1024x256xf32>
  %e0 = tensor.empty() : tensor<1x7x7x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x256xf32>) -> tensor<1x7x7x256xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x7x1024xf32>, tensor<1x1x1024x256xf32>) outs(%f : tensor<1x7x7x256xf32>) -> tensor<1x7x7x256xf32> loc("reduce")
  %e1 = tensor.empty() : tensor<1x7x7x256xf32>
  // expected-remark @+1 {{[tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'reduce'}}
  %r = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %b : tensor<1x7x7x256xf32>, tensor<256xf32>) outs(%e1 : tensor<1x7x7x256xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x256xf32>
  return %r : tensor<1x7x7x256xf32>
}

// -----

// Tests that a short reduction (512 input channels, 2 KiB per output
// channel) gets panels of 64 channels, for the four-vector register tile,
// when the convolution has unit strides; the same filter at stride 2 keeps
// panels of 32 (its tile's seven inputs lie 4 KiB apart).
// CHECK-LABEL: func.func @panels_short_reduction
// CHECK-DAG: %[[W32:.*]] = arith.constant dense<2.500000e-01> : tensor<1x1x512x32xf32>
// CHECK-DAG: %[[W64:.*]] = arith.constant dense<2.500000e-01> : tensor<1x1x512x64xf32>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C64]] iter_args
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.panel_columns = 64 : i64} ins(%{{.*}}, %[[W64]] : tensor<1x1x7x512xf32>, tensor<1x1x512x64xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C32]] iter_args
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, tfaot.panel_columns = 32 : i64} ins(%{{.*}}, %[[W32]] : tensor<1x1x13x512xf32>, tensor<1x1x512x32xf32>)
func.func @panels_short_reduction(%x: tensor<1x7x7x512xf32>, %y: tensor<1x14x14x512xf32>)
    -> (tensor<1x7x7x2048xf32>, tensor<1x7x7x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x1x512x2048xf32>
  %e0 = tensor.empty() : tensor<1x7x7x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x2048xf32>) -> tensor<1x7x7x2048xf32>
  // expected-remark @unknown {{[tfaot-fuse-epilogues] split conv_2d_nhwc_hwcf over output-channel blocks: 'expand', 64 channels per block}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x7x512xf32>, tensor<1x1x512x2048xf32>) outs(%f : tensor<1x7x7x2048xf32>) -> tensor<1x7x7x2048xf32> loc("expand")
  // expected-remark @unknown {{[tfaot-fuse-epilogues] split conv_2d_nhwc_hwcf over output-channel blocks: 'strided', 32 channels per block}}
  %s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%y, %w : tensor<1x14x14x512xf32>, tensor<1x1x512x2048xf32>) outs(%f : tensor<1x7x7x2048xf32>) -> tensor<1x7x7x2048xf32> loc("strided")
  return %c, %s : tensor<1x7x7x2048xf32>, tensor<1x7x7x2048xf32>
}

// -----

// Tests that a batched product alone (Winograd's 36 products, here stage
// 4's 36 x 256 x 256 transformed filter, 9.4 MB) whose constant weights
// exceed the panel budget is split into panels of 32 output columns, its
// fill fused, and its weights packed panel-major (36x256x256 becomes
// 8x36x256x32; the PACK run shows the packed constant).
// CHECK-LABEL: func.func @batched_panels
// CHECK-DAG: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<36x256x32xf32>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C32]]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %{{.*}}[0, 0, %[[J]]] [36, 16, 32] [1, 1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[OUT]] :
// CHECK: linalg.batch_matmul ins(%arg0, %[[W]] : tensor<36x16x256xf32>, tensor<36x256x32xf32>) outs(%[[FILL]] : tensor<36x16x32xf32>)
// CHECK: } {tfaot.parallel}
// PACK-LABEL: func.func @batched_panels
// PACK: %[[P:.*]] = arith.constant dense<5.000000e-01> : tensor<8x36x256x32xf32>
// PACK: tensor.extract_slice %[[P]][%{{.*}}, 0, 0, 0] [1, 36, 256, 32] [1, 1, 1, 1] : tensor<8x36x256x32xf32> to tensor<36x256x32xf32>
func.func @batched_panels(%a: tensor<36x16x256xf32>) -> tensor<36x16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<36x256x256xf32>
  %e = tensor.empty() : tensor<36x16x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<36x16x256xf32>) -> tensor<36x16x256xf32>
  // expected-remark @unknown {{[tfaot-fuse-epilogues] split batch_matmul over output-channel blocks: 'wino', 32 channels per block}}
  %p = linalg.batch_matmul ins(%a, %w : tensor<36x16x256xf32>, tensor<36x256x256xf32>) outs(%f : tensor<36x16x256xf32>) -> tensor<36x16x256xf32> loc("wino")
  return %p : tensor<36x16x256xf32>
}

// -----

// A batched product whose weights fit the budget (36 x 64 x 64, 576 KiB:
// stage 2) stays whole.
// CHECK-LABEL: func.func @batched_small
// CHECK-NOT: scf.for
// CHECK: linalg.batch_matmul ins(%arg0, %{{.*}} : tensor<36x196x64xf32>, tensor<36x64x64xf32>)
func.func @batched_small(%a: tensor<36x196x64xf32>) -> tensor<36x196x64xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<36x64x64xf32>
  %e = tensor.empty() : tensor<36x196x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<36x196x64xf32>) -> tensor<36x196x64xf32>
  %p = linalg.batch_matmul ins(%a, %w : tensor<36x196x64xf32>, tensor<36x64x64xf32>) outs(%f : tensor<36x196x64xf32>) -> tensor<36x196x64xf32>
  return %p : tensor<36x196x64xf32>
}
