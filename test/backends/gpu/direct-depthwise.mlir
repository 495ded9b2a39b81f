// RUN: tfaot-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tfaot-gpu-direct-depthwise),canonicalize,cse)' 2>/dev/null | FileCheck %s
// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-direct-depthwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A stride-2 depthwise convolution of an f16 input padded with an f16 zero
// on the high side only (TF's SAME for an even input), into a zero fill,
// then bias + ReLU6: one generic, no pad, no fill, no second kernel. Only
// the taps that can leave the input check it (kw = 2 or kh = 2, against
// 4), read at index 0 there and take the pad's zero instead; the f16 value
// is widened before the product, as the named op does. The sum starts at
// the fill's value and adds the taps in order; the epilogue follows in the
// same body.
// CHECK-LABEL: func.func @same_pad_relu6(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x3xf16>
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK: %[[OUT:.*]] = linalg.generic
// CHECK: %[[OH:.*]] = linalg.index 1
// CHECK: %[[OW:.*]] = linalg.index 2
// CHECK: %[[IH:.*]] = arith.muli %[[OH]], %c2
// CHECK: %[[IW:.*]] = arith.muli %[[OW]], %c2
// CHECK: %[[X00:.*]] = tensor.extract %[[X]][%c0, %[[IH]], %[[IW]], %{{.*}}]
// CHECK: arith.extf %[[X00]] : f16 to f32
// CHECK: %[[IW2:.*]] = arith.addi %[[IW]], %c2
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[IW2]], %c4
// CHECK: %[[H:.*]] = arith.select %[[IN]], %[[IH]], %c0
// CHECK: %[[W:.*]] = arith.select %[[IN]], %[[IW2]], %c0
// CHECK: %[[X02:.*]] = tensor.extract %[[X]][%c0, %[[H]], %[[W]], %{{.*}}]
// CHECK: arith.select %[[IN]], %[[X02]], %{{.*}} : f16
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[OUT]]
// REMARK: remark: [tfaot-gpu-direct-depthwise] generated kernel (depthwise, padding read in place, epilogue fused)
#id5 = affine_map<(n, h, w, c, m) -> (n, h, w, c, m)>
#bias5 = affine_map<(n, h, w, c, m) -> (c, m)>
func.func @same_pad_relu6(%x: tensor<1x4x4x3xf16>, %b: tensor<3x1xf32>) -> tensor<1x2x2x3x1xf32> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %six = arith.constant 6.0 : f32
  %dw = arith.constant dense<0.25> : tensor<3x3x3x1xf32>
  %padded = tensor.pad %x low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b2: index, %c2: index, %d: index):
    tensor.yield %zh : f16
  } : tensor<1x4x4x3xf16> to tensor<1x5x5x3xf16>
  %dempty = tensor.empty() : tensor<1x2x2x3x1xf32>
  %dinit = linalg.fill ins(%zero : f32) outs(%dempty : tensor<1x2x2x3x1xf32>) -> tensor<1x2x2x3x1xf32>
  %conv = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %dw : tensor<1x5x5x3xf16>, tensor<3x3x3x1xf32>) outs(%dinit : tensor<1x2x2x3x1xf32>) -> tensor<1x2x2x3x1xf32>
  %eempty = tensor.empty() : tensor<1x2x2x3x1xf32>
  %y = linalg.generic {indexing_maps = [#id5, #bias5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%conv, %b : tensor<1x2x2x3x1xf32>, tensor<3x1xf32>) outs(%eempty : tensor<1x2x2x3x1xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    %r6 = arith.minimumf %r, %six : f32
    linalg.yield %r6 : f32
  } -> tensor<1x2x2x3x1xf32>
  return %y : tensor<1x2x2x3x1xf32>
}

// -----

// Without a pad nothing is checked; the sum starts at the fill's 1.0 and
// reads tap (kh, kw) of channel c at weights[kh, kw, c, 0].
// CHECK-LABEL: func.func @valid_no_pad(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x2xf32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[WEIGHTS:.*]] = arith.constant dense<{{.*}}> : tensor<3x3x2x1xf32>
// CHECK: linalg.generic
// CHECK-NOT: arith.select
// CHECK: %[[C:.*]] = linalg.index 3
// CHECK: %[[X0:.*]] = tensor.extract %[[X]]
// CHECK: %[[W0:.*]] = tensor.extract %[[WEIGHTS]][%c0, %c0, %[[C]], %c0]
// CHECK: %[[P0:.*]] = arith.mulf %[[X0]], %[[W0]]
// CHECK: arith.addf %[[P0]], %[[ONE]]
// CHECK-NOT: arith.select
// CHECK: tensor.extract %[[WEIGHTS]][%c2, %c2, %[[C]], %c0]
// CHECK-NOT: arith.select
// CHECK: linalg.yield
func.func @valid_no_pad(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2x1xf32> {
  %one = arith.constant 1.0 : f32
  %dw = arith.constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]], [[5.0], [6.0]]], [[[7.0], [8.0]], [[9.0], [10.0]], [[11.0], [12.0]]], [[[13.0], [14.0]], [[15.0], [16.0]], [[17.0], [18.0]]]]> : tensor<3x3x2x1xf32>
  %e = tensor.empty() : tensor<1x2x2x2x1xf32>
  %init = linalg.fill ins(%one : f32) outs(%e : tensor<1x2x2x2x1xf32>) -> tensor<1x2x2x2x1xf32>
  %conv = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %dw : tensor<1x4x4x2xf32>, tensor<3x3x2x1xf32>) outs(%init : tensor<1x2x2x2x1xf32>) -> tensor<1x2x2x2x1xf32>
  return %conv : tensor<1x2x2x2x1xf32>
}

// -----

// An 8x8 window (64 taps) keeps the named op, and says why.
// CHECK-LABEL: func.func @kept_large_window(
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
// REMARK: remark: [tfaot-gpu-direct-depthwise] generated kernel (depthwise): window of more than 49 taps
func.func @kept_large_window(%x: tensor<1x8x8x1xf32>, %dw: tensor<8x8x1x1xf32>) -> tensor<1x1x1x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x1x1xf32>) -> tensor<1x1x1x1x1xf32>
  %conv = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %dw : tensor<1x8x8x1xf32>, tensor<8x8x1x1xf32>) outs(%init : tensor<1x1x1x1x1xf32>) -> tensor<1x1x1x1x1xf32>
  return %conv : tensor<1x1x1x1x1xf32>
}
