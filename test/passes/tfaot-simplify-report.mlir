// RUN: tfaot-opt %s --tfaot-simplify="max-fold-elements=3" -verify-diagnostics -o /dev/null

// Tests the remarks that say what was rewritten (what `tfaot compile
// --report` shows; the pass statistics are compiled out of NDEBUG builds):
// one rewrite of each kind, two constant folds (Neg and Add), and one Add
// of 4 elements over the limit of 3, which is left alone (no remark).
// Identity is removed by its folder, which says nothing.
func.func @report(%x: tensor<2x6xf32>, %img: tensor<1x3x3x1xf32>, %w: tensor<3x3x1x1xf32>)
    -> (tensor<12xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<1x3x3x1xf32>, tensor<1xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2x6xf32>, tensor<2x6xf32>) {
  %s34 = tfaot.Const dense<[3, 4]> : tensor<2xi32>
  %s12 = tfaot.Const dense<[12]> : tensor<1xi32>
  %s26 = tfaot.Const dense<[2, 6]> : tensor<2xi32>
  %s22 = tfaot.Const dense<[2, 2]> : tensor<2xi32>
  %r1 = tfaot.Reshape %x, %s34 : (tensor<2x6xf32>, tensor<2xi32>) -> tensor<3x4xf32>
  // expected-remark @+1 {{[tfaot-simplify] collapsed Reshape chain}}
  %r2 = tfaot.Reshape %r1, %s12 : (tensor<3x4xf32>, tensor<1xi32>) -> tensor<12xf32>
  // expected-remark @+1 {{[tfaot-simplify] removed no-op Reshape}}
  %r3 = tfaot.Reshape %x, %s26 : (tensor<2x6xf32>, tensor<2xi32>) -> tensor<2x6xf32>
  %one = tfaot.Const dense<1.0> : tensor<f32>
  // expected-remark @+1 {{[tfaot-simplify] removed Mul by a neutral constant}}
  %m = tfaot.Mul %x, %one : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %pads = tfaot.Const dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>
  %zero = tfaot.Const dense<0.0> : tensor<f32>
  // expected-remark @+1 {{[tfaot-simplify] folded Pad into Conv2D padding}}
  %p = tfaot.Pad %img, %pads, %zero : (tensor<1x3x3x1xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x5x5x1xf32>
  %conv = tfaot.Conv2D %p, %w {strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x5x5x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  %c1 = tfaot.Const dense<[2.0]> : tensor<1xf32>
  // expected-remark @+1 {{[tfaot-simplify] folded Neg of constants}}
  %neg = tfaot.Neg %c1 : tensor<1xf32>
  %c2 = tfaot.Const dense<[1.0, 2.0]> : tensor<2xf32>
  // expected-remark @+1 {{[tfaot-simplify] folded Add of constants}}
  %add = tfaot.Add %c2, %c2 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c4 = tfaot.Const dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // expected-remark @+1 {{[tfaot-simplify] folded Reshape of constants}}
  %rc = tfaot.Reshape %c4, %s22 : (tensor<4xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  %big = tfaot.Add %c4, %c4 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %id = tfaot.Identity %x : tensor<2x6xf32>
  // expected-remark @+1 {{[tfaot-simplify] removed no-op Cast}}
  %cast = tfaot.Cast %x : (tensor<2x6xf32>) -> tensor<2x6xf32>
  return %r2, %r3, %m, %conv, %neg, %add, %rc, %big, %id, %cast : tensor<12xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<1x3x3x1xf32>, tensor<1xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2x6xf32>, tensor<2x6xf32>
}
