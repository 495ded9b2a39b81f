// RUN: tfaot-opt %s --tfaot-cpu-bufferize -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tfaot-opt %s --tfaot-cpu-bufferize -split-input-file 2>/dev/null | FileCheck %s

// Tests that the activations real graphs put after their convolutions are
// fused into the convolution's loop nest like Relu is: PReLU with a
// per-channel slope (MediaPipe's face models) and the hard-swish pattern
// x * Relu6(x + 3) * (1/6) (MobileNetV3, Meet), which reads the product
// twice.

// REMARK: remark: loc("conv/prelu"): [tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'conv'
// CHECK-LABEL: func.func @conv_prelu
// CHECK: %[[CONV:.*]] = memref.view {{.*}} to memref<1x6x6x4xf32>
// CHECK-NEXT: scf.for
// CHECK: linalg.fill {{.*}} outs(%[[ROW:.*]] :
// CHECK-NEXT: linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[ROW]] :
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[ROW]] :
// The slope is selected for negative values, in the same loop body.
// CHECK: arith.cmpf
// CHECK: arith.select
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @conv_prelu(%x: tensor<1x6x6x3xf32>) -> tensor<1x6x6x4xf32> {
  %w = tfaot.Const dense<0.25> : tensor<3x3x3x4xf32>
  %b = tfaot.Const dense<[0.5, -0.5, 1.0, -1.0]> : tensor<4xf32>
  %alpha = tfaot.Const dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %c = tfaot.Conv2D %x, %w {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> loc("conv")
  %cb = tfaot.BiasAdd %c, %b : (tensor<1x6x6x4xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32> loc("conv/bias")
  %p = tfaot.Prelu %cb, %alpha : (tensor<1x6x6x4xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32> loc("conv/prelu")
  return %p : tensor<1x6x6x4xf32>
}

// -----

// REMARK: remark: loc(fused["hswish/scale", "hswish/mul"]): [tfaot-fuse-epilogues] fused epilogue into depthwise_conv_2d_nhwc_hwcm: 'dw'
// CHECK-LABEL: func.func @depthwise_hard_swish
// CHECK: scf.for
// CHECK: linalg.fill {{.*}} outs(%[[ROW:.*]] :
// CHECK-NEXT: linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} outs(%[[ROW]] :
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[ROW]] :
// x + 3, clamped to [0, 6], times x, times 1/6: one loop body.
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: linalg.yield
func.func @depthwise_hard_swish(%x: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %w = tfaot.Const dense<0.125> : tensor<3x3x4x1xf32>
  %three = tfaot.Const dense<3.0> : tensor<f32>
  %sixth = tfaot.Const dense<0.166666672> : tensor<f32>
  %d = tfaot.DepthwiseConv2dNative %x, %w {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x6x6x4xf32>, tensor<3x3x4x1xf32>) -> tensor<1x6x6x4xf32> loc("dw")
  %a = tfaot.AddV2 %d, %three : (tensor<1x6x6x4xf32>, tensor<f32>) -> tensor<1x6x6x4xf32> loc("hswish/add")
  %r = tfaot.Relu6 %a : tensor<1x6x6x4xf32> loc("hswish/relu6")
  %m = tfaot.Mul %d, %r : (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> loc("hswish/mul")
  %s = tfaot.Mul %m, %sixth : (tensor<1x6x6x4xf32>, tensor<f32>) -> tensor<1x6x6x4xf32> loc("hswish/scale")
  return %s : tensor<1x6x6x4xf32>
}

// -----

// Tests the remark for a product that another op reads too (here a
// MaxPool, a linalg.generic that skips NaN): the Relu cannot finish it in
// place, and the report says why.
// REMARK: remark: loc("conv"): [tfaot-fuse-epilogues] epilogue not fused into conv_2d_nhwc_hwcf: the product is also read by linalg.generic
func.func @shared_product(%x: tensor<1x6x6x3xf32>) -> (tensor<1x6x6x4xf32>, tensor<1x3x3x4xf32>) {
  %w = tfaot.Const dense<0.25> : tensor<3x3x3x4xf32>
  %c = tfaot.Conv2D %x, %w {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> loc("conv")
  %r = tfaot.Relu %c : tensor<1x6x6x4xf32> loc("relu")
  %p = tfaot.MaxPool %c {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x6x6x4xf32>) -> tensor<1x3x3x4xf32> loc("pool")
  return %r, %p : tensor<1x6x6x4xf32>, tensor<1x3x3x4xf32>
}
