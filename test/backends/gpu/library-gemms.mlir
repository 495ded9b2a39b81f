// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-convs-to-matmuls | FileCheck %s --check-prefix=CONV
// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-matmuls-to-cublas=allow-tf32=true --canonicalize | FileCheck %s --check-prefix=GEMM

// Tests that a 3x3 stride-2 conv becomes an im2col copy (row (n, oh, ow),
// column (kh, kw, c), reading input[n, 2*oh + kh, 2*ow + kw, c]) and a
// (16x18) x (18x4) matmul into the collapsed init, expanded back to NHWC.
// CONV: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3, d2 * 2 + d4, d5)>
// CONV-LABEL: func.func @conv3x3(
// CONV-SAME: %[[X:.*]]: tensor<1x9x9x2xf32>, %[[W:.*]]: tensor<3x3x2x4xf32>, %[[INIT:.*]]: tensor<1x4x4x4xf32>)
// CONV: %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x4x3x3x2xf32>
// CONV: %[[PATCHES:.*]] = linalg.generic {indexing_maps = [#[[WINDOW]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : {{.*}}) outs(%[[EMPTY]] : {{.*}})
// CONV-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CONV-NEXT: linalg.yield %[[IN]]
// CONV: %[[A:.*]] = tensor.collapse_shape %[[PATCHES]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x4x4x3x3x2xf32> into tensor<16x18xf32>
// CONV: %[[B:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1, 2], [3]] : tensor<3x3x2x4xf32> into tensor<18x4xf32>
// CONV: %[[C:.*]] = tensor.collapse_shape %[[INIT]] {{\[}}[0, 1, 2], [3]] : tensor<1x4x4x4xf32> into tensor<16x4xf32>
// CONV: %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : {{.*}})
// CONV: %[[R:.*]] = tensor.expand_shape %[[P]] {{\[}}[0, 1, 2], [3]] output_shape [1, 4, 4, 4]
// CONV: return %[[R]]
func.func @conv3x3(%x: tensor<1x9x9x2xf32>, %w: tensor<3x3x2x4xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : tensor<1x9x9x2xf32>, tensor<3x3x2x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Tests that a 1x1 stride-1 conv needs no copy: the NHWC input is the
// (N*H*W) x C matrix.
// CONV-LABEL: func.func @pointwise(
// CONV-NOT: linalg.generic
// CONV: %[[A:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<2x5x5x8xf32> into tensor<50x8xf32>
// CONV: linalg.matmul ins(%[[A]], %{{.*}} : tensor<50x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<50x16xf32>)
func.func @pointwise(%x: tensor<2x5x5x8xf32>, %w: tensor<1x1x8x16xf32>, %init: tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<2x5x5x8xf32>, tensor<1x1x8x16xf32>) outs(%init : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  return %0 : tensor<2x5x5x16xf32>
}

// -----

// Tests that a zero padding before the conv is folded into the im2col: the
// copy reads the unpadded input at (oh + kh - 1, ow + kw - 1), gives 0
// outside it, and the tensor.pad is gone.
// CONV-LABEL: func.func @padded(
// CONV-SAME: %[[X:[^:]*]]: tensor<1x4x4x2xf32>
// CONV-NOT: tensor.pad
// CONV: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x4x4x3x3x2xf32>)
// CONV: %[[OH:.*]] = linalg.index 1
// CONV: %[[KH:.*]] = linalg.index 3
// CONV: %[[H0:.*]] = arith.addi
// CONV: %[[H:.*]] = arith.subi %[[H0]], %c1
// CONV: arith.cmpi sge, %[[H]], %c0
// CONV: arith.cmpi slt, %[[H]], %c4
// CONV: %[[V:.*]] = tensor.extract %[[X]]
// CONV: %[[R:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : f32
// CONV: linalg.yield %[[R]]
// CONV-NOT: tensor.pad
// CONV: linalg.matmul
func.func @padded(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x4xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x2xf32> to tensor<1x6x6x2xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%p, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Tests that a dilated conv reads input[n, oh + 2*kh, ow + 2*kw, c], and
// that integer convs are left alone (cuBLAS's SGEMM is f32).
// CONV: affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d3 * 2, d2 + d4 * 2, d5)>
// CONV-LABEL: func.func @dilated(
// CONV: linalg.matmul
// CONV-LABEL: func.func @integer(
// CONV: linalg.conv_2d_nhwc_hwcf
func.func @dilated(%x: tensor<1x7x7x1xf32>, %w: tensor<2x2x1x3xf32>, %init: tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x7x7x1xf32>, tensor<2x2x1x3xf32>) outs(%init : tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  return %0 : tensor<1x5x5x3xf32>
}
func.func @integer(%x: tensor<1x3x3x1xi32>, %w: tensor<1x1x1x2xi32>, %init: tensor<1x3x3x2xi32>) -> tensor<1x3x3x2xi32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x3x3x1xi32>, tensor<1x1x1x2xi32>) outs(%init : tensor<1x3x3x2xi32>) -> tensor<1x3x3x2xi32>
  return %0 : tensor<1x3x3x2xi32>
}

// -----

// Tests the call for a matmul whose A is a window of a larger buffer:
// address + 35 elements (140 bytes), batch 1, m n k = 3 5 4, leading
// dimensions 16 5 5, no batch strides, flags 1 (TF32 allowed).
// GEMM-LABEL: func.func @strided(
// GEMM: %[[SUB:.*]] = memref.subview
// GEMM: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[SUB]]
// GEMM: %[[ADDR:.*]] = arith.addi %[[BASE]], %c140 : index
// GEMM: %[[A:.*]] = arith.index_cast %[[ADDR]] : index to i64
// GEMM: call @tfaot_rt_cuda_gemm(%[[A]], %{{.*}}, %{{.*}}, %c1_i64, %c3_i64, %c5_i64, %c4_i64, %c16_i64, %c5_i64, %c5_i64, %c0_i64, %c0_i64, %c0_i64, %c1_i32)
// GEMM-NOT: linalg.matmul
// GEMM: return
func.func @strided(%a: memref<8x16xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf32>) {
  %sa = memref.subview %a[2, 3] [3, 4] [1, 1] : memref<8x16xf32> to memref<3x4xf32, strided<[16, 1], offset: 35>>
  linalg.matmul ins(%sa, %b : memref<3x4xf32, strided<[16, 1], offset: 35>>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
  return
}

// -----

// Tests a batch matmul: batch 2 with strides 12, 20 and 15 elements.
// GEMM-LABEL: func.func @batched(
// GEMM: call @tfaot_rt_cuda_gemm(%{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c3_i64, %c5_i64, %c4_i64, %c4_i64, %c5_i64, %c5_i64, %c12_i64, %c20_i64, %c15_i64, %c1_i32)
func.func @batched(%a: memref<2x3x4xf32>, %b: memref<2x4x5xf32>, %c: memref<2x3x5xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%c : memref<2x3x5xf32>)
  return
}

// -----

// Tests the 16-bit products of --precision=fp16|bf16: f16 or bf16 A and B
// into f32 C go to tfaot_rt_cuda_gemm_f16 / _bf16 (the same arguments; no
// TF32 bit, which only f32 products take); mixed inputs or a 16-bit C stay
// linalg.matmul.
// GEMM-LABEL: func.func @half(
// GEMM: call @tfaot_rt_cuda_gemm_f16(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c3_i64, %c5_i64, %c4_i64, %c4_i64, %c5_i64, %c5_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i32)
// GEMM: call @tfaot_rt_cuda_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c3_i64, %c5_i64, %c4_i64, %c4_i64, %c5_i64, %c5_i64, %c12_i64, %c20_i64, %c15_i64, %c0_i32)
// GEMM: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<3x4xf16>, memref<4x5xf32>)
// GEMM: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<3x4xf16>, memref<4x5xf16>) outs(%{{.*}} : memref<3x5xf16>)
// GEMM: func.func private @tfaot_rt_cuda_gemm_f16(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
// GEMM: func.func private @tfaot_rt_cuda_gemm_bf16(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
func.func @half(%a: memref<3x4xf16>, %b: memref<4x5xf16>, %c: memref<3x5xf32>,
                %ba: memref<2x3x4xbf16>, %bb: memref<2x4x5xbf16>, %bc: memref<2x3x5xf32>,
                %wide: memref<4x5xf32>, %hc: memref<3x5xf16>) {
  linalg.matmul ins(%a, %b : memref<3x4xf16>, memref<4x5xf16>) outs(%c : memref<3x5xf32>)
  linalg.batch_matmul ins(%ba, %bb : memref<2x3x4xbf16>, memref<2x4x5xbf16>) outs(%bc : memref<2x3x5xf32>)
  linalg.matmul ins(%a, %wide : memref<3x4xf16>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
  linalg.matmul ins(%a, %b : memref<3x4xf16>, memref<4x5xf16>) outs(%hc : memref<3x5xf16>)
  return
}

// -----

// Tests that a matrix whose rows are not contiguous (a transposed view)
// stays a linalg.matmul, for the generated kernels.
// GEMM-LABEL: func.func @column_view(
// GEMM-NOT: call
// GEMM: linalg.matmul
func.func @column_view(%a: memref<4x3xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf32>) {
  %t = memref.transpose %a (i, j) -> (j, i) : memref<4x3xf32> to memref<3x4xf32, strided<[1, 3]>>
  linalg.matmul ins(%t, %b : memref<3x4xf32, strided<[1, 3]>>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
  return
}

// -----

// Tests that the zero fill of the product's buffer (through a reshape) is
// dropped for cuBLAS to overwrite C (flags 3: overwrite and TF32), and kept when
// something names that buffer between the fill and the product, or when
// it fills another value.
// GEMM-LABEL: func.func @fill_dropped(
// GEMM-NOT: linalg.fill
// GEMM: call @tfaot_rt_cuda_gemm({{.*}}, %c3_i32)
// GEMM-LABEL: func.func @fill_read_between(
// GEMM: linalg.fill
// GEMM: memref.copy
// GEMM: call @tfaot_rt_cuda_gemm({{.*}}, %c1_i32)
// GEMM-LABEL: func.func @fill_one(
// GEMM: linalg.fill
// GEMM: call @tfaot_rt_cuda_gemm({{.*}}, %c1_i32)
func.func @fill_dropped(%a: memref<6x4xf32>, %b: memref<4x5xf32>, %c: memref<1x2x3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x2x3x5xf32>)
  %c2 = memref.collapse_shape %c [[0, 1, 2], [3]] : memref<1x2x3x5xf32> into memref<6x5xf32>
  linalg.matmul ins(%a, %b : memref<6x4xf32>, memref<4x5xf32>) outs(%c2 : memref<6x5xf32>)
  return
}
func.func @fill_read_between(%a: memref<3x4xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf32>, %d: memref<3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<3x5xf32>)
  memref.copy %c, %d : memref<3x5xf32> to memref<3x5xf32>
  linalg.matmul ins(%a, %b : memref<3x4xf32>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
  return
}
func.func @fill_one(%a: memref<3x4xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<3x5xf32>)
  linalg.matmul ins(%a, %b : memref<3x4xf32>, memref<4x5xf32>) outs(%c : memref<3x5xf32>)
  return
}

// -----

// Tests the int8 product of tfaot-lower-int8-contractions{product=matmul}:
// i8 rows [6, 8] by i8 weights stored [5, 8] (B transposed) into i32 goes
// to tfaot_rt_cuda_gemm_s8 with m n k = 6 5 8 and leading dimensions 8 8 5
// (B's is its row stride). Its zero fill (integer 0) is dropped (flags 2:
// overwrite; TF32 does not apply); a zero-point term broadcast into C
// before the product stays, and cuBLAS adds to it (flags 0).
// GEMM-LABEL: func.func @int8_zero_fill(
// GEMM-NOT: linalg.fill
// GEMM: call @tfaot_rt_cuda_gemm_s8(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c6_i64, %c5_i64, %c8_i64, %c8_i64, %c8_i64, %c5_i64, %c0_i64, %c0_i64, %c0_i64, %c2_i32)
// GEMM-NOT: linalg.matmul
// GEMM-LABEL: func.func @int8_zero_point(
// GEMM: linalg.broadcast
// GEMM: call @tfaot_rt_cuda_gemm_s8({{.*}}, %c0_i32)
// GEMM: func.func private @tfaot_rt_cuda_gemm_s8(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
func.func @int8_zero_fill(%a: memref<6x8xi8>, %b: memref<5x8xi8>, %c: memref<6x5xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<6x5xi32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<6x8xi8>, memref<5x8xi8>) outs(%c : memref<6x5xi32>)
  return
}
func.func @int8_zero_point(%a: memref<6x8xi8>, %b: memref<5x8xi8>, %row: memref<5xi32>, %c: memref<6x5xi32>) {
  linalg.broadcast ins(%row : memref<5xi32>) outs(%c : memref<6x5xi32>) dimensions = [0]
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<6x8xi8>, memref<5x8xi8>) outs(%c : memref<6x5xi32>)
  return
}

// -----

// Tests that products cuBLAS has no entry for stay linalg ops for the
// generated kernels: an int8 matmul with B as [K, N] (not transposed), and
// an i32 one.
// GEMM-LABEL: func.func @int8_untransposed(
// GEMM-NOT: call
// GEMM: linalg.matmul
// GEMM-LABEL: func.func @int32(
// GEMM-NOT: call
// GEMM: linalg.matmul
func.func @int8_untransposed(%a: memref<6x8xi8>, %b: memref<8x5xi8>, %c: memref<6x5xi32>) {
  linalg.matmul ins(%a, %b : memref<6x8xi8>, memref<8x5xi8>) outs(%c : memref<6x5xi32>)
  return
}
func.func @int32(%a: memref<6x8xi32>, %b: memref<5x8xi32>, %c: memref<6x5xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<6x8xi32>, memref<5x8xi32>) outs(%c : memref<6x5xi32>)
  return
}
