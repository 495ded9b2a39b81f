// RUN: not tfaot-opt %s --tfaot-gpu-cudnn-calls 2>&1 | FileCheck %s

// Tests that a 16-bit conv with no epilogue storing 16 bits (which
// tfaot-gpu-convs-to-cudnn never hands on: cuDNN's 16-bit convolutions
// store 16 bits) is an error, not a call with wrong types.
// CHECK: error: internal error: a 16-bit convolution for cuDNN has no epilogue that stores 16 bits right after it
func.func @half_alone(%x: memref<1x3x3x1xf16>, %w: memref<2x1x2x1xf16>, %y: memref<1x3x2x2xf32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : memref<1x3x3x1xf16>, memref<2x1x2x1xf16>) outs(%y : memref<1x3x2x2xf32>)
  return
}
