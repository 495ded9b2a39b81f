// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-convs-to-cudnn | FileCheck %s
// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-store-half=keep-convs=true --tfaot-gpu-convs-to-cudnn --tfaot-gpu-convs-to-matmuls | FileCheck %s --check-prefix=HALF

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests a conv block (zero-filled f32 conv, bias + ReLU epilogue). In f32
// the conv becomes NHWC/FHWC with its HWCF weights transposed at compile
// time: w[0][j][0][f] = 1 + 2j + f (1, 2 | 3, 4) is KRSC [f][0][j][0]:
// filter 0 reads (1, 3), filter 1 (2, 4). The epilogue is left to
// tfaot-gpu-cudnn-calls, the conv marked as having one it can fuse.
// CHECK-LABEL: func.func @conv_block(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[{{\[}}[1.000000e+00], [3.000000e+00]]], {{\[}}[{{\[}}2.000000e+00], [4.000000e+00]]]]> : tensor<2x1x2x1xf32>
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue} ins(%{{.*}}, %[[W]] : tensor<1x3x3x1xf32>, tensor<2x1x2x1xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[CONV]], %{{.*}} : tensor<1x3x2x2xf32>, tensor<2xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
//
// With --precision=fp16 (store-half first, keep-convs): the conv reads f16
// and its epilogue stores f16, so cuDNN takes it, its weights in f16 KRSC
// and its bias rounded to f16 (0.1 is 0.0999755859 in f16) and widened
// where the epilogue reads it; the argument gets a conversion kernel.
// HALF-LABEL: func.func @conv_block(
// HALF-DAG: %[[BIAS:.*]] = arith.constant dense<[9.997550e-02, -2.500000e-01]> : tensor<2xf16>
// HALF-DAG: %[[W:.*]] = arith.constant dense<{{\[}}[{{\[}}[1.000000e+00], [3.000000e+00]]], {{\[}}[{{\[}}2.000000e+00], [4.000000e+00]]]]> : tensor<2x1x2x1xf16>
// HALF-DAG: %[[X:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x3x1xf16>)
// HALF: %[[CONV:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[X]], %[[W]] : tensor<1x3x3x1xf16>, tensor<2x1x2x1xf16>) outs(%{{.*}} : tensor<1x3x2x2xf32>)
// HALF: linalg.generic {{.*}} ins(%[[CONV]], %[[BIAS]] : tensor<1x3x2x2xf32>, tensor<2xf16>) outs(%{{.*}} : tensor<1x3x2x2xf16>)
// HALF-NEXT: ^bb0(%{{.*}}: f32, %[[B:[a-z0-9_]+]]: f16, %{{.*}}: f16):
// HALF-NEXT: arith.extf %[[B]] : f16 to f32
// HALF: arith.truncf
func.func @conv_block(%x: tensor<1x3x3x1xf32>) -> tensor<1x3x2x2xf16> {
  %w = arith.constant dense<[[[[1.0, 2.0]], [[3.0, 4.0]]]]> : tensor<1x2x1x2xf32>
  %bias = arith.constant dense<[0.1, -0.25]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x3x3x1xf32>, tensor<1x2x1x2xf32>) outs(%fill : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %e2 = tensor.empty() : tensor<1x3x2x2xf32>
  %act = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%conv, %bias : tensor<1x3x2x2xf32>, tensor<2xf32>) outs(%e2 : tensor<1x3x2x2xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x3x2x2xf32>
  // A reader that widens, so that store-half stores the epilogue in f16.
  %e3 = tensor.empty() : tensor<1x3x2x2xf16>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%act : tensor<1x3x2x2xf32>) outs(%e3 : tensor<1x3x2x2xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x3x2x2xf16>
  return %out : tensor<1x3x2x2xf16>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests a conv whose epilogue cuDNN cannot fuse (a product, not a sum,
// with the bias) and whose result is the entry's (f32 for store-half). In
// f32 cuDNN still runs the conv alone (the epilogue stays a kernel). In
// 16 bits cuDNN would store f16, so the conv stays im2col + a 16-bit GEMM
// into f32.
// CHECK-LABEL: func.func @unfusable(
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-NOT: tfaot.cudnn_fused_epilogue
// CHECK: arith.mulf
// HALF-LABEL: func.func @unfusable(
// HALF-NOT: linalg.conv_2d_nhwc_fhwc
// HALF: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x2xf16>, tensor<2x2xf16>) outs(%{{.*}} : tensor<6x2xf32>)
// HALF: arith.mulf
func.func @unfusable(%x: tensor<1x3x3x1xf32>) -> tensor<1x3x2x2xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]], [[3.0, 4.0]]]]> : tensor<1x2x1x2xf32>
  %bias = arith.constant dense<[0.1, -0.25]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x3x3x1xf32>, tensor<1x2x1x2xf32>) outs(%fill : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %e2 = tensor.empty() : tensor<1x3x2x2xf32>
  %act = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%conv, %bias : tensor<1x3x2x2xf32>, tensor<2xf32>) outs(%e2 : tensor<1x3x2x2xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.mulf %c, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x3x2x2xf32>
  return %act : tensor<1x3x2x2xf32>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests what stays im2col in f32 too: weights that are not constants
// (cuDNN's KRSC is made at compile time), and a conv into a non-zero
// output (cuDNN overwrites).
// CHECK-LABEL: func.func @not_for_cudnn(
// CHECK-NOT: linalg.conv_2d_nhwc_fhwc
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.conv_2d_nhwc_fhwc
func.func @not_for_cudnn(%x: tensor<1x3x3x1xf32>, %w: tensor<1x2x1x2xf32>) -> (tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w2 = arith.constant dense<[[[[1.0, 2.0]], [[3.0, 4.0]]]]> : tensor<1x2x1x2xf32>
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x3x3x1xf32>, tensor<1x2x1x2xf32>) outs(%fill : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %conv2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w2 : tensor<1x3x3x1xf32>, tensor<1x2x1x2xf32>) outs(%ones : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %conv, %conv2 : tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>
}
