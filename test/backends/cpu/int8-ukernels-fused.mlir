// RUN: tfaot-opt %s --tfaot-cpu-int8-ukernels --split-input-file | FileCheck %s

// The rescale, bias, ReLU6 and requantize after an int8 product go into the
// kernel call: sums [6][2][1][16] viewed as 6 x 24 (N = 24 of 32 columns)
// then as the layer's [1, 2, 3, 24]. The call is
// (lhs, rhs, m, n1, k1, flags, column_init, out, n, scale, bias, residual,
//  lo, hi, int8_result, q_mul, q_zp, q_lo, q_hi, row_pixels, row_stride,
//  int8_copy, residual_int8, residual_scale, residual_zp); the int32
// buffer, its
// views, the init and the generic are gone.
// CHECK-LABEL: func.func @int8_result
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.
// CHECK-DAG: %[[M:.*]] = arith.constant 6 : i64
// CHECK-DAG: %[[N1:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[K1:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[N:.*]] = arith.constant 24 : i64
// CHECK-DAG: %[[NONE:.*]] = arith.constant 0 : i64
// CHECK: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %[[INT8:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QMUL:.*]] = arith.constant 2.500000e+00 : f32
// CHECK-NEXT: %[[QZP:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-NEXT: %[[QLO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT: %[[QHI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK-NEXT: %[[DENSE1:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[DENSE2:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[NOCOPY:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[NORES8:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[RSCALE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RZP:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: call @tfaot_rt_mmt4d_s8s8_fused(%{{.*}}, %{{.*}}, %[[M]], %[[N1]], %[[K1]], %[[FLAGS]], %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %{{.*}}, %[[NONE]], %[[LO]], %[[HI]], %[[INT8]], %[[QMUL]], %[[QZP]], %[[QLO]], %[[QHI]], %[[DENSE1]], %[[DENSE2]], %[[NOCOPY]], %[[NORES8]], %[[RSCALE]], %[[RZP]])
// CHECK-NOT: linalg.
// CHECK: return
// CHECK: func.func private @tfaot_rt_mmt4d_s8s8_fused(i64, i64, i64, i64, i64, i32, i64, i64, i64, i64, i64, i64, f32, f32, i32, f32, f32, f32, f32, i64, i64, i64, i64, f32, f32)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#col = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @int8_result(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %row: memref<2x16xi32>,
                       %scale: memref<24xf32>, %bias: memref<24xf32>, %result: memref<1x2x3x24xi8>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %qmul = arith.constant 2.5 : f32
  %qzp = arith.constant -3.0 : f32
  %qlo = arith.constant -128.0 : f32
  %qhi = arith.constant 127.0 : f32
  %out = memref.alloc() : memref<6x2x1x16xi32>
  linalg.broadcast ins(%row : memref<2x16xi32>) outs(%out : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  %cols = memref.subview %flat[0, 0] [6, 24] [1, 1] : memref<6x32xi32> to memref<6x24xi32, strided<[32, 1]>>
  %nhwc = memref.expand_shape %cols [[0, 1, 2], [3]] output_shape [1, 2, 3, 24] : memref<6x24xi32, strided<[32, 1]>> into memref<1x2x3x24xi32, strided<[192, 96, 32, 1]>>
  linalg.generic {indexing_maps = [#id, #col, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%nhwc, %scale, %bias : memref<1x2x3x24xi32, strided<[192, 96, 32, 1]>>, memref<24xf32>, memref<24xf32>)
      outs(%result : memref<1x2x3x24xi8>) {
  ^bb0(%acc: i32, %s: f32, %b: f32, %o: i8):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    %biased = arith.addf %b, %scaled : f32
    %relu = arith.maximumf %biased, %zero : f32
    %relu6 = arith.minimumf %relu, %six : f32
    %q = arith.mulf %relu6, %qmul : f32
    %rounded = math.roundeven %q : f32
    %shifted = arith.addf %rounded, %qzp : f32
    %low = arith.maximumf %shifted, %qlo : f32
    %high = arith.minimumf %low, %qhi : f32
    %i = arith.fptosi %high : f32 to i8
    linalg.yield %i : i8
  }
  memref.dealloc %out : memref<6x2x1x16xi32>
  return
}

// -----

// The form tfaot-fold-requantize leaves: the requantization's multiply and
// zero point are in the scale and bias, the int8 range in the clamp, and
// roundeven follows the clamp directly. It is an int8 result with
// q_mul = 1, q_zp = 0 and the whole int8 range (the kernels' round-only
// path, runtime/lib/int8_epilogue.h).
// CHECK-LABEL: func.func @int8_result_folded
// CHECK: extract_strided_metadata
// CHECK: %[[LO:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 1.200000e+02 : f32
// CHECK-NEXT: %[[INT8:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QMUL:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[QZP:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[QLO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT: %[[QHI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused(%{{.*}}, %[[LO]], %[[HI]], %[[INT8]], %[[QMUL]], %[[QZP]], %[[QLO]], %[[QHI]], %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.
func.func @int8_result_folded(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %row: memref<2x16xi32>,
                              %scale: memref<32xf32>, %bias: memref<32xf32>, %result: memref<6x32xi8>) {
  %lo = arith.constant -3.0 : f32
  %hi = arith.constant 120.0 : f32
  %out = memref.alloc() : memref<6x2x1x16xi32>
  linalg.broadcast ins(%row : memref<2x16xi32>) outs(%out : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%flat, %scale, %bias : memref<6x32xi32>, memref<32xf32>, memref<32xf32>)
      outs(%result : memref<6x32xi8>) {
  ^bb0(%acc: i32, %s: f32, %b: f32, %o: i8):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    %biased = arith.addf %scaled, %b : f32
    %low = arith.maximumf %biased, %lo : f32
    %high = arith.minimumf %low, %hi : f32
    %rounded = math.roundeven %high : f32
    %i = arith.fptosi %rounded : f32 to i8
    linalg.yield %i : i8
  }
  memref.dealloc %out : memref<6x2x1x16xi32>
  return
}

// -----

// A float result with a residual input (the identity-mapped f32 operand,
// listed before the sums) and only a ReLU (hi = +inf); the zero fill
// gives flags 1 (the fused call always overwrites) and there is no bias.
// CHECK-LABEL: func.func @float_residual
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[N:.*]] = arith.constant 32 : i64
// CHECK: memref.extract_aligned_pointer_as_index %arg4
// CHECK: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %[[FLOAT:.*]] = arith.constant 0 : i32
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FLAGS]], %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %c0_i64{{[_0-9]*}}, %{{.*}}, %[[LO]], %[[INF]], %[[FLOAT]],
// CHECK-NOT: linalg.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>
func.func @float_residual(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>,
                          %scale: memref<32xf32>, %residual: memref<6x32xf32>, %result: memref<6x32xf32>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id2, #id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%residual, %flat, %scale : memref<6x32xf32>, memref<6x32xi32>, memref<32xf32>)
      outs(%result : memref<6x32xf32>) {
  ^bb0(%r: f32, %acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %s, %f : f32
    %sum = arith.addf %scaled, %r : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }
  return
}

// -----

// An int8 residual (--quantize_residuals), dequantized in the body as
// (sitofp(r) - (-7)) * 0.0625, written over by its own int8 result (in
// place, as bufferization leaves the residual stream): the call gets its
// address after int8_copy, with the scale and zero point; residual stays 0.
// CHECK-LABEL: func.func @int8_residual_in_place
// CHECK: memref.extract_aligned_pointer_as_index %arg4
// CHECK: %[[OUT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: memref.extract_aligned_pointer_as_index %arg4
// CHECK: %[[RES8:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[RSCALE:.*]] = arith.constant 6.250000e-02 : f32
// CHECK-NEXT: %[[RZP:.*]] = arith.constant -7.000000e+00 : f32
// CHECK-NEXT: call @tfaot_rt_mmt4d_s8s8_fused({{.*}}, %[[OUT]], {{.*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %[[RES8]], %[[RSCALE]], %[[RZP]])
// CHECK-NOT: linalg.
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#col3 = affine_map<(d0, d1) -> (d1)>
func.func @int8_residual_in_place(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>,
                                  %scale: memref<32xf32>, %stream: memref<6x32xi8>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 127.0 : f32
  %rzp = arith.constant -7.0 : f32
  %rscale = arith.constant 0.0625 : f32
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id3, #id3, #col3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%stream, %flat, %scale : memref<6x32xi8>, memref<6x32xi32>, memref<32xf32>)
      outs(%stream : memref<6x32xi8>) {
  ^bb0(%r: i8, %acc: i32, %s: f32, %o: i8):
    %rf = arith.sitofp %r : i8 to f32
    %rc = arith.subf %rf, %rzp : f32
    %rd = arith.mulf %rc, %rscale : f32
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    %sum = arith.addf %rd, %scaled : f32
    %relu = arith.maximumf %sum, %zero : f32
    %top_clamped = arith.minimumf %relu, %top : f32
    %rounded = math.roundeven %top_clamped : f32
    %q = arith.fptosi %rounded : f32 to i8
    linalg.yield %q : i8
  }
  return
}

// -----

// An int8 residual whose scale is not a constant is not the kernel's
// epilogue: the generic stays.
// CHECK-LABEL: func.func @int8_residual_variable_scale
// CHECK-NOT: tfaot_rt_mmt4d_s8s8_fused
// CHECK: linalg.generic
#id4 = affine_map<(d0, d1) -> (d0, d1)>
#col4 = affine_map<(d0, d1) -> (d1)>
func.func @int8_residual_variable_scale(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>,
                                        %scale: memref<32xf32>, %stream: memref<6x32xi8>, %result: memref<6x32xi8>,
                                        %rscale: f32) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id4, #id4, #col4, #id4], iterator_types = ["parallel", "parallel"]}
      ins(%stream, %flat, %scale : memref<6x32xi8>, memref<6x32xi32>, memref<32xf32>)
      outs(%result : memref<6x32xi8>) {
  ^bb0(%r: i8, %acc: i32, %s: f32, %o: i8):
    %rf = arith.sitofp %r : i8 to f32
    %rd = arith.mulf %rf, %rscale : f32
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    %sum = arith.addf %rd, %scaled : f32
    %rounded = math.roundeven %sum : f32
    %q = arith.fptosi %rounded : f32 to i8
    linalg.yield %q : i8
  }
  return
}

// -----

// A ResNet block's output: the float result (the residual added in place)
// is quantized whole by the next generic for the next block's first
// product. The kernel stores both: the call moves to the quantizing
// generic's place, after its output's allocation, takes that output as
// int8_copy and the requantization as q_mul, q_zp, q_lo, q_hi (the float
// result's int8_result stays 0); both generics are gone.
// CHECK-LABEL: func.func @float_result_with_int8_copy
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<6x32xi8>
// CHECK: %[[FLOAT:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[QMUL:.*]] = arith.constant 1.600000e+01 : f32
// CHECK-NEXT: %[[QZP:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT: %[[QLO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT: %[[QHI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: memref.extract_aligned_pointer_as_index %[[COPY]]
// CHECK: %[[COPYADDR:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused(%{{.*}}, %[[FLOAT]], %[[QMUL]], %[[QZP]], %[[QLO]], %[[QHI]], %{{.*}}, %{{.*}}, %[[COPYADDR]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>
func.func @float_result_with_int8_copy(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>,
                                       %scale: memref<32xf32>, %stream: memref<6x32xf32>) -> memref<6x32xi8> {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %qmul = arith.constant 16.0 : f32
  %zp = arith.constant -128.0 : f32
  %qhi = arith.constant 127.0 : f32
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id2, #id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream, %flat, %scale : memref<6x32xf32>, memref<6x32xi32>, memref<32xf32>)
      outs(%stream : memref<6x32xf32>) {
  ^bb0(%r: f32, %acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %s, %f : f32
    %sum = arith.addf %scaled, %r : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }
  %q = memref.alloc() {alignment = 64 : i64} : memref<6x32xi8>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream : memref<6x32xf32>) outs(%q : memref<6x32xi8>) {
  ^bb0(%in: f32, %o: i8):
    %m = arith.mulf %in, %qmul : f32
    %r = math.roundeven %m : f32
    %a = arith.addf %r, %zp : f32
    %lo = arith.maximumf %a, %zp : f32
    %hi = arith.minimumf %lo, %qhi : f32
    %i = arith.fptosi %hi : f32 to i8
    linalg.yield %i : i8
  }
  return %q : memref<6x32xi8>
}

// -----

// No int8 copy: the quantizing generic writes into the product's own
// input (the kernel would overwrite rows of A it still reads); a copy
// between the two generics touches memory; the quantizing generic also
// adds a bias (more than a requantization). Each float result is fused,
// with int8_copy 0, and the quantizing generic stays.
// CHECK-LABEL: func.func @no_int8_copy
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused({{.*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %cst{{[_0-9]*}}, %cst{{[_0-9]*}}) {tfaot.flop = {{[0-9]+}} : i64} :
// CHECK: linalg.generic
// CHECK-SAME: outs(%collapse_shape
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused({{.*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %cst{{[_0-9]*}}, %cst{{[_0-9]*}}) {tfaot.flop = {{[0-9]+}} : i64} :
// CHECK-NEXT: memref.copy
// CHECK-NEXT: linalg.generic
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused({{.*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %cst{{[_0-9]*}}, %cst{{[_0-9]*}}) {tfaot.flop = {{[0-9]+}} : i64} :
// CHECK-NEXT: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>
func.func @no_int8_copy(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>,
                        %scale: memref<32xf32>, %stream: memref<6x32xf32>, %other: memref<6x32xf32>,
                        %q: memref<6x32xi8>, %lhs8: memref<6x8x1x4xi8>, %rhs8: memref<2x8x16x4xi8>) {
  %c0 = arith.constant 0 : i32
  %qmul = arith.constant 16.0 : f32
  %zp = arith.constant -128.0 : f32
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  // 1: the quantizing generic writes over the product's input.
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs8, %rhs8 : memref<6x8x1x4xi8>, memref<2x8x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  linalg.generic {indexing_maps = [#id2, #id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream, %flat, %scale : memref<6x32xf32>, memref<6x32xi32>, memref<32xf32>)
      outs(%stream : memref<6x32xf32>) {
  ^bb0(%r: f32, %acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %s, %f : f32
    %sum = arith.addf %scaled, %r : f32
    linalg.yield %sum : f32
  }
  %lhs_q = memref.collapse_shape %lhs8 [[0], [1, 2, 3]] : memref<6x8x1x4xi8> into memref<6x32xi8>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream : memref<6x32xf32>) outs(%lhs_q : memref<6x32xi8>) {
  ^bb0(%in: f32, %o: i8):
    %m = arith.mulf %in, %qmul : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i8
    linalg.yield %i : i8
  }
  // 2: a copy between the generics.
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  linalg.generic {indexing_maps = [#id2, #id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream, %flat, %scale : memref<6x32xf32>, memref<6x32xi32>, memref<32xf32>)
      outs(%stream : memref<6x32xf32>) {
  ^bb0(%r: f32, %acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %s, %f : f32
    %sum = arith.addf %scaled, %r : f32
    linalg.yield %sum : f32
  }
  memref.copy %stream, %other : memref<6x32xf32> to memref<6x32xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream : memref<6x32xf32>) outs(%q : memref<6x32xi8>) {
  ^bb0(%in: f32, %o: i8):
    %m = arith.mulf %in, %qmul : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i8
    linalg.yield %i : i8
  }
  // 3: more than a requantization.
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  linalg.generic {indexing_maps = [#id2, #id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream, %flat, %scale : memref<6x32xf32>, memref<6x32xi32>, memref<32xf32>)
      outs(%stream : memref<6x32xf32>) {
  ^bb0(%r: f32, %acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %s, %f : f32
    %sum = arith.addf %scaled, %r : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stream : memref<6x32xf32>) outs(%q : memref<6x32xi8>) {
  ^bb0(%in: f32, %o: i8):
    %m = arith.mulf %in, %qmul : f32
    %b = arith.addf %m, %zp : f32
    %r = math.roundeven %b : f32
    %i = arith.fptosi %r : f32 to i8
    linalg.yield %i : i8
  }
  return
}

// -----

// Not fused: something reads the sums between the product and the
// generic; the generic computes what the kernel does not (exp); the
// generic's result overlaps the residual it reads (views of one arena);
// something fills a buffer the product may read (only buffers allocated
// between the two may be filled there). Each stays a plain kernel call
// followed by its generic.
// CHECK-LABEL: func.func @not_fused
// CHECK-NOT: tfaot_rt_mmt4d_s8s8_fused
// CHECK: call @tfaot_rt_mmt4d_s8s8s32
// CHECK: memref.copy
// CHECK: linalg.generic
// CHECK: call @tfaot_rt_mmt4d_s8s8s32
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: call @tfaot_rt_mmt4d_s8s8s32
// CHECK: linalg.generic
// CHECK: call @tfaot_rt_mmt4d_s8s8s32
// CHECK: linalg.fill
// CHECK: linalg.generic
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#col3 = affine_map<(d0, d1) -> (d1)>
func.func @not_fused(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>,
                     %scale: memref<32xf32>, %spy: memref<6x2x1x16xi32>, %result: memref<6x32xf32>,
                     %arena: memref<4096xi8>) {
  %c0 = arith.constant 0 : i32
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  memref.copy %out, %spy : memref<6x2x1x16xi32> to memref<6x2x1x16xi32>
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id3, #col3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%flat, %scale : memref<6x32xi32>, memref<32xf32>) outs(%result : memref<6x32xf32>) {
  ^bb0(%acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    linalg.yield %scaled : f32
  }
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat2 = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id3, #col3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%flat2, %scale : memref<6x32xi32>, memref<32xf32>) outs(%result : memref<6x32xf32>) {
  ^bb0(%acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    %e = math.exp %scaled : f32
    linalg.yield %e : f32
  }
  %c0i = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %res = memref.view %arena[%c0i][] : memref<4096xi8> to memref<6x32xf32>
  %res8 = memref.view %arena[%c256][] : memref<4096xi8> to memref<6x32xi8>
  %q = arith.constant 3.0 : f32
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat3 = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id3, #id3, #col3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%flat3, %res, %scale : memref<6x32xi32>, memref<6x32xf32>, memref<32xf32>) outs(%res8 : memref<6x32xi8>) {
  ^bb0(%acc: i32, %r: f32, %s: f32, %o: i8):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    %sum = arith.addf %scaled, %r : f32
    %m = arith.mulf %sum, %q : f32
    %rounded = math.roundeven %m : f32
    %i = arith.fptosi %rounded : f32 to i8
    linalg.yield %i : i8
  }
  linalg.fill ins(%c0 : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %zero8 = arith.constant 0 : i8
  linalg.fill ins(%zero8 : i8) outs(%arena : memref<4096xi8>)
  %flat4 = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id3, #col3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%flat4, %scale : memref<6x32xi32>, memref<32xf32>) outs(%result : memref<6x32xf32>) {
  ^bb0(%acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    linalg.yield %scaled : f32
  }
  return
}

// -----

// An int8 depthwise convolution with an epilogue becomes the depthwise
// kernel: (input, filter, column_init, n, h, w, c, kh, kw, sh, sw, dh, dw,
// ho, wo, out, scale, bias, residual, lo, hi, int8_result, q_mul, q_zp,
// q_lo, q_hi). Stride 2 over a 7x7 padded input gives 3x3.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: linalg.
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[SEVEN:.*]] = arith.constant 7 : i64
// CHECK-DAG: %[[C:.*]] = arith.constant 20 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: call @tfaot_rt_depthwise_s8s8_fused(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %[[SEVEN]], %{{.*}}, %[[C]], %[[K]], %{{.*}}, %[[TWO]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.
// CHECK: func.func private @tfaot_rt_depthwise_s8s8_fused(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, f32, i32, f32, f32, f32, f32, i64, i64)
#nhwc = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @depthwise(%in: memref<1x7x7x20xi8>, %filter: memref<3x3x20xi8>, %row: memref<20xi32>,
                     %scale: memref<20xf32>, %result: memref<1x3x3x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<1x3x3x20xi32>
  linalg.broadcast ins(%row : memref<20xi32>) outs(%out : memref<1x3x3x20xi32>) dimensions = [0, 1, 2]
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %filter : memref<1x7x7x20xi8>, memref<3x3x20xi8>) outs(%out : memref<1x3x3x20xi32>)
  linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %scale : memref<1x3x3x20xi32>, memref<20xf32>) outs(%result : memref<1x3x3x20xf32>) {
  ^bb0(%acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %y = arith.mulf %f, %s : f32
    %r = arith.maximumf %y, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %out : memref<1x3x3x20xi32>
  return
}

// -----

// Without an epilogue the kernel applies, a depthwise convolution stays
// linalg (a loop nest later).
// CHECK-LABEL: func.func @depthwise_not_fused
// CHECK: linalg.broadcast
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK: math.tanh
// CHECK-NOT: call
#nhwc2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan2 = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @depthwise_not_fused(%in: memref<1x7x7x20xi8>, %filter: memref<3x3x20xi8>, %row: memref<20xi32>,
                               %scale: memref<20xf32>, %result: memref<1x3x3x20xf32>) {
  %out = memref.alloc() : memref<1x3x3x20xi32>
  linalg.broadcast ins(%row : memref<20xi32>) outs(%out : memref<1x3x3x20xi32>) dimensions = [0, 1, 2]
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %filter : memref<1x7x7x20xi8>, memref<3x3x20xi8>) outs(%out : memref<1x3x3x20xi32>)
  linalg.generic {indexing_maps = [#nhwc2, #chan2, #nhwc2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %scale : memref<1x3x3x20xi32>, memref<20xf32>) outs(%result : memref<1x3x3x20xf32>) {
  ^bb0(%acc: i32, %s: f32, %o: f32):
    %f = arith.sitofp %acc : i32 to f32
    %y = arith.mulf %f, %s : f32
    %t = math.tanh %y : f32
    linalg.yield %t : f32
  }
  memref.dealloc %out : memref<1x3x3x20xi32>
  return
}

// -----

// The result is the interior of a buffer padded for the next convolution
// (tfaot-write-into-padded-buffers made the generic write there instead of
// a buffer copied into it): the kernel writes there, rows of 3 pixels
// 5 x 16 elements apart.
// CHECK-LABEL: func.func @into_padded_buffer
// CHECK: %[[PADDED:.*]] = memref.alloc() : memref<1x5x5x16xi8>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : i8) outs(%[[PADDED]]
// CHECK-NEXT: %[[INTERIOR:.*]] = memref.subview %[[PADDED]][0, 1, 1, 0] [1, 3, 3, 16] [1, 1, 1, 1]
// CHECK: memref.extract_aligned_pointer_as_index %[[INTERIOR]]
// CHECK-DAG: %[[PIXELS:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[STRIDE:.*]] = arith.constant 80 : i64
// CHECK: call @tfaot_rt_mmt4d_s8s8_fused({{.*}}, %[[PIXELS]], %[[STRIDE]], %{{.*}})
// CHECK-NOT: linalg.generic
// CHECK: return
#id5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#col5 = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @into_padded_buffer(%lhs: memref<9x3x1x4xi8>, %rhs: memref<1x3x16x4xi8>, %scale: memref<16xf32>) -> memref<1x5x5x16xi8> {
  %c0 = arith.constant 0 : i32
  %q = arith.constant 3.0 : f32
  %zp = arith.constant -128 : i8
  %out = memref.alloc() : memref<9x1x1x16xi32>
  linalg.fill ins(%c0 : i32) outs(%out : memref<9x1x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<9x3x1x4xi8>, memref<1x3x16x4xi8>) outs(%out : memref<9x1x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<9x1x1x16xi32> into memref<9x16xi32>
  %nhwc = memref.expand_shape %flat [[0, 1, 2], [3]] output_shape [1, 3, 3, 16] : memref<9x16xi32> into memref<1x3x3x16xi32>
  %padded = memref.alloc() : memref<1x5x5x16xi8>
  linalg.fill ins(%zp : i8) outs(%padded : memref<1x5x5x16xi8>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 3, 3, 16] [1, 1, 1, 1] : memref<1x5x5x16xi8> to memref<1x3x3x16xi8, strided<[400, 80, 16, 1], offset: 96>>
  linalg.generic {indexing_maps = [#id5, #col5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%nhwc, %scale : memref<1x3x3x16xi32>, memref<16xf32>) outs(%interior : memref<1x3x3x16xi8, strided<[400, 80, 16, 1], offset: 96>>) {
  ^bb0(%acc: i32, %s: f32, %o: i8):
    %f = arith.sitofp %acc : i32 to f32
    %y = arith.mulf %f, %s : f32
    %m = arith.mulf %y, %q : f32
    %r = math.roundeven %m : f32
    %i = arith.fptosi %r : f32 to i8
    linalg.yield %i : i8
  }
  return %padded : memref<1x5x5x16xi8>
}

// -----

// The epilogue writes its int8 result into the buffer the product reads as
// A (bufferization put an elementwise op in place into its dead operand:
// equal-width layers, 6 x 32 in and out). Fused, the kernel would overwrite
// rows of A while later column blocks still read them; the product stays a
// plain call and the generic stays (it is elementwise, in place is fine).
// CHECK-LABEL: func.func @result_is_the_lhs
// CHECK-NOT: call @tfaot_rt_mmt4d_s8s8_fused
// CHECK: call @tfaot_rt_mmt4d_s8s8s32
// CHECK: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col2 = affine_map<(d0, d1) -> (d1)>
func.func @result_is_the_lhs(%act: memref<6x32xi8>, %rhs: memref<2x8x16x4xi8>, %row: memref<2x16xi32>,
                             %scale: memref<32xf32>) {
  %qmul = arith.constant 2.5 : f32
  %qzp = arith.constant -3.0 : f32
  %qlo = arith.constant -128.0 : f32
  %qhi = arith.constant 127.0 : f32
  %lhs = memref.expand_shape %act [[0], [1, 2, 3]] output_shape [6, 8, 1, 4] : memref<6x32xi8> into memref<6x8x1x4xi8>
  %out = memref.alloc() : memref<6x2x1x16xi32>
  linalg.broadcast ins(%row : memref<2x16xi32>) outs(%out : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs, %rhs : memref<6x8x1x4xi8>, memref<2x8x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  %flat = memref.collapse_shape %out [[0], [1, 2, 3]] : memref<6x2x1x16xi32> into memref<6x32xi32>
  linalg.generic {indexing_maps = [#id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%flat, %scale : memref<6x32xi32>, memref<32xf32>)
      outs(%act : memref<6x32xi8>) {
  ^bb0(%acc: i32, %s: f32, %o: i8):
    %f = arith.sitofp %acc : i32 to f32
    %scaled = arith.mulf %f, %s : f32
    %q = arith.mulf %scaled, %qmul : f32
    %rounded = math.roundeven %q : f32
    %shifted = arith.addf %rounded, %qzp : f32
    %low = arith.maximumf %shifted, %qlo : f32
    %high = arith.minimumf %low, %qhi : f32
    %i = arith.fptosi %high : f32 to i8
    linalg.yield %i : i8
  }
  memref.dealloc %out : memref<6x2x1x16xi32>
  return
}
