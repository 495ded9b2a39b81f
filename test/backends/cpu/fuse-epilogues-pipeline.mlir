// RUN: tfaot-opt %s --tfaot-cpu-bufferize 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tfaot-opt %s --tfaot-cpu-bufferize 2>/dev/null | FileCheck %s
// RUN: tfaot-opt %s --tfaot-cpu-bufferize 2>/dev/null | FileCheck %s --check-prefix=NOALLOC

// Tests that the CPU pipeline fuses conv/depthwise/matmul with their
// epilogues (tfaot-fuse-epilogues) into loops that bufferize without
// allocating: each tile is computed in a subview of its destination (an
// arena buffer or the out-parameter), and the only other temporaries are
// the padded inputs, planned into the arena before the loops.

// REMARK: remark: loc("conv/relu"): [tfaot-fuse-epilogues] fused epilogue into conv_2d_nhwc_hwcf: 'conv'
// REMARK: remark: loc("residual"): [tfaot-fuse-epilogues] fused epilogue into depthwise_conv_2d_nhwc_hwcm: 'dw'
// REMARK: remark: loc("dense/bias"): [tfaot-fuse-epilogues] fused epilogue into matmul: 'dense'

// NOALLOC-NOT: memref.alloc
// CHECK-LABEL: func.func @cnn
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x3xf32>, %[[OUT:.*]]: memref<64x4xf32>, %[[ARENA:.*]]: memref<{{[0-9]+}}xi8> {{.*}}tfaot.arena})
// Conv2D + BiasAdd + Relu: the padded input is planned before the loop;
// each row of the result is zeroed, accumulated and finished in a subview
// of its arena buffer.
// CHECK: %[[PAD:.*]] = memref.view %[[ARENA]]{{.*}} to memref<1x10x10x3xf32>
// CHECK: %[[CONV:.*]] = memref.view %[[ARENA]]{{.*}} to memref<1x8x8x4xf32>
// CHECK-NEXT: scf.for %[[H:[a-z0-9_]+]] =
// CHECK-NEXT: %[[IN:.*]] = memref.subview %[[PAD]][0, %[[H]], 0, 0] [1, 3, 10, 3]
// CHECK-NEXT: %[[ROW:.*]] = memref.subview %[[CONV]][0, %[[H]], 0, 0] [1, 1, 8, 4]
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[ROW]] :
// CHECK-NEXT: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[IN]], %{{.*}}) outs(%[[ROW]] :
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[ROW]] :
// Depthwise + BiasAdd + Relu6 + the residual AddV2, on the 5-D HWCM form.
// CHECK: %[[DW:.*]] = memref.view %[[ARENA]]{{.*}} to memref<1x8x8x4x1xf32>
// CHECK: scf.for %[[H2:[a-z0-9_]+]] =
// CHECK: %[[ROW2:.*]] = memref.subview %[[DW]][0, %[[H2]], 0, 0, 0] [1, 1, 8, 4, 1]
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[ROW2]] :
// CHECK-NEXT: linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} outs(%[[ROW2]] :
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[ROW2]] :
// MatMul + BiasAdd: 64 x 4 is one tile (the loop folds away), computed in
// place in the out-parameter.
// CHECK: linalg.fill {{.*}} outs(%[[OUT]] :
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[OUT]] :
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[OUT]] :
// CHECK: return
func.func @cnn(%x: tensor<1x8x8x3xf32>) -> tensor<64x4xf32> {
  %w = tfaot.Const dense<0.25> : tensor<3x3x3x4xf32> loc("conv/w")
  %b = tfaot.Const dense<[0.5, -0.5, 1.0, -1.0]> : tensor<4xf32> loc("conv/b")
  %c = tfaot.Conv2D %x, %w {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> loc("conv")
  %cb = tfaot.BiasAdd %c, %b : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32> loc("conv/bias")
  %r = tfaot.Relu %cb : tensor<1x8x8x4xf32> loc("conv/relu")
  %dw = tfaot.Const dense<0.125> : tensor<3x3x4x1xf32> loc("dw/w")
  %d = tfaot.DepthwiseConv2dNative %r, %dw {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>) -> tensor<1x8x8x4xf32> loc("dw")
  %db = tfaot.BiasAdd %d, %b : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32> loc("dw/bias")
  %d6 = tfaot.Relu6 %db : tensor<1x8x8x4xf32> loc("dw/relu6")
  %res = tfaot.AddV2 %d6, %r : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> loc("residual")
  %shape = tfaot.Const dense<[64, 4]> : tensor<2xi32>
  %flat = tfaot.Reshape %res, %shape : (tensor<1x8x8x4xf32>, tensor<2xi32>) -> tensor<64x4xf32>
  %mw = tfaot.Const dense<0.5> : tensor<4x4xf32>
  %m = tfaot.MatMul %flat, %mw : (tensor<64x4xf32>, tensor<4x4xf32>) -> tensor<64x4xf32> loc("dense")
  %mb = tfaot.BiasAdd %m, %b : (tensor<64x4xf32>, tensor<4xf32>) -> tensor<64x4xf32> loc("dense/bias")
  return %mb : tensor<64x4xf32>
}
