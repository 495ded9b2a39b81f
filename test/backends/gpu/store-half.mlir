// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-store-half | FileCheck %s
// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-store-half=type=bf16 | FileCheck %s --check-prefix=BF16
// RUN: not tfaot-opt %s --split-input-file --tfaot-gpu-store-half=type=f8 2>&1 | FileCheck %s --check-prefix=BADTYPE

// Tests a conv block as tfaot-gpu-convs-to-matmuls leaves it: an im2col
// copy reading the argument with tensor.extract, a product into a zero
// fill, a bias + ReLU epilogue, a zero pad and a depthwise convolution.
// The copy and the epilogue only write their outputs, and every reader can
// widen: both store f16, rounding once before the yield. The product reads
// the copy's f16 rows and f16 weights (converted here: 1.5 and -2.0 are
// exact in f16) into its f32 accumulator. The pad passes f16 on, with an
// f16 zero, and the depthwise convolution, made a generic, widens what it
// loads and keeps its f32 output (its own reduction reads it). The entry's
// argument and result stay f32.
// CHECK-LABEL: func.func @conv_block(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3x1xf32>
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[}}[1.500000e+00, -2.000000e+00, 1.500000e+00], [1.500000e+00, -2.000000e+00, 1.500000e+00]]> : tensor<2x3xf16>
// CHECK: %[[PEMPTY:.*]] = tensor.empty() : tensor<1x4x4x2xf16>
// CHECK: %[[PATCHES:.*]] = linalg.generic {{.*}} outs(%[[PEMPTY]] : tensor<1x4x4x2xf16>)
// CHECK: ^bb0(%{{.*}}: f16):
// CHECK: %[[E:.*]] = tensor.extract %[[X]]
// CHECK: %[[R:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK: linalg.yield %[[R]] : f16
// CHECK: %[[A:.*]] = tensor.collapse_shape %[[PATCHES]] {{.*}} into tensor<16x2xf16>
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[A]], %[[W]] : tensor<16x2xf16>, tensor<2x3xf16>) outs(%{{.*}} : tensor<16x3xf32>)
// CHECK: %[[PX:.*]] = tensor.expand_shape %[[P]] {{.*}} into tensor<1x4x4x3xf32>
// CHECK: %[[EPI:.*]] = linalg.generic {{.*}} ins(%[[PX]], %{{.*}} : tensor<1x4x4x3xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<1x4x4x3xf16>)
// CHECK: %[[RELU:.*]] = arith.maximumf
// CHECK: %[[R2:.*]] = arith.truncf %[[RELU]] : f32 to f16
// CHECK: linalg.yield %[[R2]] : f16
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[PAD:.*]] = tensor.pad %[[EPI]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[ZERO]] : f16
// CHECK: } : tensor<1x4x4x3xf16> to tensor<1x6x6x3xf16>
// CHECK: %[[DW:.*]] = linalg.generic {{.*}} ins(%[[PAD]], %{{.*}} : tensor<1x6x6x3xf16>, tensor<3x3x3x1xf32>) outs(%{{.*}} : tensor<1x4x4x3x1xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: arith.extf %[[IN]] : f16 to f32
// CHECK: return %[[DW]] : tensor<1x4x4x3x1xf32>
// BF16-LABEL: func.func @conv_block(
// BF16: arith.constant dense<{{.*}}> : tensor<2x3xbf16>
// BF16: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x2xbf16>, tensor<2x3xbf16>) outs(%{{.*}} : tensor<16x3xf32>)
// BADTYPE: error: tfaot-gpu-store-half: type must be f16 or bf16, not 'f8'
#patches = affine_map<(n, h, w, c) -> (n, h, w, c)>
#bias = affine_map<(n, h, w, c) -> (c)>
func.func @conv_block(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3x1xf32> {
  %w = arith.constant dense<[[1.5, -2.0, 1.5], [1.5, -2.0, 1.5]]> : tensor<2x3xf32>
  %b = arith.constant dense<[0.5, 0.25, 0.125]> : tensor<3xf32>
  %dw = arith.constant dense<1.0> : tensor<3x3x3x1xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x4x4x2xf32>
  %patches = linalg.generic {indexing_maps = [#patches], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%empty : tensor<1x4x4x2xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %c = linalg.index 3 : index
    %v = tensor.extract %x[%n, %h, %i, %c] : tensor<1x4x4x2xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4x2xf32>
  %rows = tensor.collapse_shape %patches [[0, 1, 2], [3]] : tensor<1x4x4x2xf32> into tensor<16x2xf32>
  %cempty = tensor.empty() : tensor<16x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%cempty : tensor<16x3xf32>) -> tensor<16x3xf32>
  %product = linalg.matmul ins(%rows, %w : tensor<16x2xf32>, tensor<2x3xf32>) outs(%init : tensor<16x3xf32>) -> tensor<16x3xf32>
  %nhwc = tensor.expand_shape %product [[0, 1, 2], [3]] output_shape [1, 4, 4, 3] : tensor<16x3xf32> into tensor<1x4x4x3xf32>
  %eempty = tensor.empty() : tensor<1x4x4x3xf32>
  %relu = linalg.generic {indexing_maps = [#patches, #bias, #patches], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%nhwc, %b : tensor<1x4x4x3xf32>, tensor<3xf32>) outs(%eempty : tensor<1x4x4x3xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x3xf32>
  %padded = tensor.pad %relu low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b2: index, %c2: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x3xf32> to tensor<1x6x6x3xf32>
  %dempty = tensor.empty() : tensor<1x4x4x3x1xf32>
  %dinit = linalg.fill ins(%zero : f32) outs(%dempty : tensor<1x4x4x3x1xf32>) -> tensor<1x4x4x3x1xf32>
  %out = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %dw : tensor<1x6x6x3xf32>, tensor<3x3x3x1xf32>) outs(%dinit : tensor<1x4x4x3x1xf32>) -> tensor<1x4x4x3x1xf32>
  return %out : tensor<1x4x4x3x1xf32>
}

// -----

// Tests what stays f32: a result the entry returns, and a reduction (the
// softmax's sum: its output is read as it accumulates). A product whose
// input is the entry's argument gets a conversion kernel for it.
// CHECK-LABEL: func.func @stays_f32(
// CHECK-SAME: %[[X:.*]]: tensor<2x4xf32>
// CHECK: %[[HALF:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xf16>)
// CHECK: arith.truncf
// CHECK: linalg.matmul ins(%[[HALF]], %{{.*}} : tensor<2x4xf16>, tensor<4x4xf16>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: return %[[EXP]], %[[SUM]] : tensor<2x4xf32>, tensor<2xf32>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @stays_f32(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2xf32>) {
  %w = arith.constant dense<0.5> : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %p = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %se = tensor.empty() : tensor<2xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%se : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<2x4xf32>) outs(%sinit : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<2xf32>
  return %exp, %sum : tensor<2x4xf32>, tensor<2xf32>
}
