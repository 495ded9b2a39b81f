// RUN: tfaot-opt %s -tfaot-lower-to-linalg -split-input-file -verify-diagnostics

// Tests that a dynamic shape is reported on the op, not silently miscompiled.
func.func @dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error@+1 {{has a dynamic shape 'tensor<?x3xf32>'; code generation needs static shapes}}
  %0 = tfaot.Relu %x : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
