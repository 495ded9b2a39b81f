// RUN: tfaot-opt %s --tfaot-cpu-int8-ukernels --split-input-file | FileCheck %s

// A 7x7x3 stride-2 convolution's im2col (K = 147, padded to 148 for the
// kernel's 4-byte k-groups): the window gather into [1, 4, 4, 7, 7, 3],
// the zero fill of the padded rows and the copy into their first 147
// columns become one call writing the padded rows directly:
// (input, out, n, h, w, c, kh, kw, sh, sw, dh, dw, oh, ow, row_bytes).
// CHECK-LABEL: func.func @padded_im2col
// CHECK-NOT: linalg.
// CHECK-NOT: memref.copy
// CHECK: call @tfaot_rt_im2col_s8(%{{.*}}, %{{.*}}, %c1_i64{{[_0-9]*}}, %c13_i64{{[_0-9]*}}, %c13_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c7_i64{{[_0-9]*}}, %c7_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c4_i64{{[_0-9]*}}, %c4_i64{{[_0-9]*}}, %c148_i64{{[_0-9]*}})
// CHECK-NOT: linalg.
// CHECK: return
#in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3, d2 * 2 + d4, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
func.func @padded_im2col(%input: memref<1x13x13x3xi8>) -> memref<16x148xi8> {
  %c0 = arith.constant 0 : i8
  %windows = memref.alloc() {alignment = 64 : i64} : memref<1x4x4x7x7x3xi8>
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%input : memref<1x13x13x3xi8>) outs(%windows : memref<1x4x4x7x7x3xi8>) {
  ^bb0(%i: i8, %o: i8):
    linalg.yield %i : i8
  }
  %flat = memref.collapse_shape %windows [[0, 1, 2], [3, 4, 5]] : memref<1x4x4x7x7x3xi8> into memref<16x147xi8>
  %rows = memref.alloc() {alignment = 64 : i64} : memref<16x148xi8>
  linalg.map outs(%rows : memref<16x148xi8>)
    (%init: i8) {
      linalg.yield %c0 : i8
    }
  %first = memref.subview %rows[0, 0] [16, 147] [1, 1] : memref<16x148xi8> to memref<16x147xi8, strided<[148, 1]>>
  memref.copy %flat, %first : memref<16x147xi8> to memref<16x147xi8, strided<[148, 1]>>
  return %rows : memref<16x148xi8>
}

// -----

// Left as it is: the padded rows are filled with 5, not zero (the call
// writes zeros); the windows' map has an offset.
// CHECK-LABEL: func.func @not_rewritten
// CHECK-NOT: tfaot_rt_im2col_s8
// CHECK: memref.copy
// CHECK: memref.copy
#in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3, d2 * 2 + d4, d5)>
#off = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3 + 1, d2 * 2 + d4, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
func.func @not_rewritten(%input: memref<1x13x13x3xi8>, %input14: memref<1x14x13x3xi8>) -> (memref<16x148xi8>, memref<16x148xi8>) {
  %c0 = arith.constant 0 : i8
  %c5 = arith.constant 5 : i8
  %windows = memref.alloc() {alignment = 64 : i64} : memref<1x4x4x7x7x3xi8>
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%input : memref<1x13x13x3xi8>) outs(%windows : memref<1x4x4x7x7x3xi8>) {
  ^bb0(%i: i8, %o: i8):
    linalg.yield %i : i8
  }
  %flat = memref.collapse_shape %windows [[0, 1, 2], [3, 4, 5]] : memref<1x4x4x7x7x3xi8> into memref<16x147xi8>
  %rows = memref.alloc() {alignment = 64 : i64} : memref<16x148xi8>
  linalg.map outs(%rows : memref<16x148xi8>)
    (%init: i8) {
      linalg.yield %c5 : i8
    }
  %first = memref.subview %rows[0, 0] [16, 147] [1, 1] : memref<16x148xi8> to memref<16x147xi8, strided<[148, 1]>>
  memref.copy %flat, %first : memref<16x147xi8> to memref<16x147xi8, strided<[148, 1]>>
  %windows2 = memref.alloc() {alignment = 64 : i64} : memref<1x4x4x7x7x3xi8>
  linalg.generic {indexing_maps = [#off, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%input14 : memref<1x14x13x3xi8>) outs(%windows2 : memref<1x4x4x7x7x3xi8>) {
  ^bb0(%i: i8, %o: i8):
    linalg.yield %i : i8
  }
  %flat2 = memref.collapse_shape %windows2 [[0, 1, 2], [3, 4, 5]] : memref<1x4x4x7x7x3xi8> into memref<16x147xi8>
  %rows2 = memref.alloc() {alignment = 64 : i64} : memref<16x148xi8>
  linalg.map outs(%rows2 : memref<16x148xi8>)
    (%init: i8) {
      linalg.yield %c0 : i8
    }
  %first2 = memref.subview %rows2[0, 0] [16, 147] [1, 1] : memref<16x148xi8> to memref<16x147xi8, strided<[148, 1]>>
  memref.copy %flat2, %first2 : memref<16x147xi8> to memref<16x147xi8, strided<[148, 1]>>
  return %rows, %rows2 : memref<16x148xi8>, memref<16x148xi8>
}
