// RUN: tfaot-opt %s --tfaot-assign-layout=layout=nhcw -verify-diagnostics

// Tests that a layout other than nhwc or nchw is an error, not a silent
// no-op.
// expected-error@+1 {{tfaot-assign-layout: layout must be 'nhwc' or 'nchw', not 'nhcw'}}
module {
  func.func @f(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
    %0 = tfaot.Relu %x : tensor<1x3x4x4xf32>
    return %0 : tensor<1x3x4x4xf32>
  }
}
