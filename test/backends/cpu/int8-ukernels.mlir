// RUN: tfaot-opt %s --tfaot-cpu-int8-ukernels | FileCheck %s

// The zero fill right before the product is dropped and the kernel told to
// overwrite (flags = 1, no initial row); M = 6, N1 = 2, K1 = 3 come from the
// shapes; the operands go as i64 addresses (base + offset * element bytes).
// The call carries its operations for the profile: 2 x 6 x 32 x 12.
// CHECK-LABEL: func.func @overwrite
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.mmt4d
// CHECK-DAG: %[[M:.*]] = arith.constant 6 : i64
// CHECK-DAG: %[[N1:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[K1:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[NONE:.*]] = arith.constant 0 : i64
// CHECK: call @tfaot_rt_mmt4d_s8s8s32(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %[[N1]], %[[K1]], %[[FLAGS]], %[[NONE]]) {tfaot.flop = 4608 : i64} : (i64, i64, i64, i64, i64, i64, i32, i64) -> ()
func.func @overwrite(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%out : memref<6x2x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  return
}

// Without the fill the kernel accumulates (flags = 0), like linalg.mmt4d.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[FLAGS:.*]] = arith.constant 0 : i32
// CHECK: call @tfaot_rt_mmt4d_s8s8s32({{.*}}, %[[FLAGS]], %{{.*}})
func.func @accumulate(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>) {
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  return
}

// A broadcast row before the product (the zero-point term) becomes the
// kernel's initial row: flags = 2 and the row's address.
// CHECK-LABEL: func.func @column_init
// CHECK-NOT: linalg.broadcast
// CHECK: %[[FLAGS:.*]] = arith.constant 2 : i32
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg3
// CHECK: %[[ROW:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: call @tfaot_rt_mmt4d_s8s8s32({{.*}}, %[[FLAGS]], %[[ROW]])
func.func @column_init(%lhs: memref<6x3x1x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x1x16xi32>, %row: memref<2x16xi32>) {
  linalg.broadcast ins(%row : memref<2x16xi32>) outs(%out : memref<6x2x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x1x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x1x16xi32>)
  return
}

// Other tiles, element types or strided operands stay as they are (they
// become loops).
// CHECK-LABEL: func.func @not_the_kernel
// CHECK-COUNT-3: linalg.mmt4d
// CHECK-NOT: call
func.func @not_the_kernel(%lhs: memref<6x3x2x4xi8>, %rhs: memref<2x3x16x4xi8>, %out: memref<6x2x2x16xi32>,
                          %flhs: memref<6x3x1x4xf32>, %frhs: memref<2x3x16x4xf32>, %fout: memref<6x2x1x16xf32>,
                          %slhs: memref<6x3x1x4xi8, strided<[24, 4, 4, 1]>>, %rhs2: memref<2x3x16x4xi8>, %out2: memref<6x2x1x16xi32>) {
  linalg.mmt4d ins(%lhs, %rhs : memref<6x3x2x4xi8>, memref<2x3x16x4xi8>) outs(%out : memref<6x2x2x16xi32>)
  linalg.mmt4d ins(%flhs, %frhs : memref<6x3x1x4xf32>, memref<2x3x16x4xf32>) outs(%fout : memref<6x2x1x16xf32>)
  linalg.mmt4d ins(%slhs, %rhs2 : memref<6x3x1x4xi8, strided<[24, 4, 4, 1]>>, memref<2x3x16x4xi8>) outs(%out2 : memref<6x2x1x16xi32>)
  return
}

// A weight-only product (float32 rows times int8 weights, from
// Int8WeightMatMul) after the zero fill of its output becomes
// tfaot_rt_matmul_f32s8(a, b, out, m, n, k), which overwrites out.
// CHECK-LABEL: func.func @weights_only
// CHECK-NOT: linalg.
// CHECK-DAG: %[[M:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 4 : i64
// CHECK: call @tfaot_rt_matmul_f32s8(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %[[N]], %[[K]]) : (i64, i64, i64, i64, i64, i64) -> ()
// CHECK-NOT: linalg.
// CHECK: return
#a_map = affine_map<(m, n, k) -> (m, k)>
#b_map = affine_map<(m, n, k) -> (k, n)>
#c_map = affine_map<(m, n, k) -> (m, n)>
func.func @weights_only(%a: memref<3x4xf32>, %b: memref<4x5xi8>, %out: memref<3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<3x5xf32>)
  linalg.generic {indexing_maps = [#a_map, #b_map, #c_map], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x4xf32>, memref<4x5xi8>) outs(%out : memref<3x5xf32>) {
  ^bb0(%x: f32, %w: i8, %acc: f32):
    %wf = arith.sitofp %w : i8 to f32
    %t = arith.mulf %x, %wf : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }
  return
}

// Without the fill (an accumulation), or with another body (here a * b
// added twice), the generic stays a loop nest.
// CHECK-LABEL: func.func @weights_only_not_the_kernel
// CHECK-NOT: call
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: call
func.func @weights_only_not_the_kernel(%a: memref<3x4xf32>, %b: memref<4x5xi8>, %out: memref<3x5xf32>) {
  linalg.generic {indexing_maps = [#a_map, #b_map, #c_map], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x4xf32>, memref<4x5xi8>) outs(%out : memref<3x5xf32>) {
  ^bb0(%x: f32, %w: i8, %acc: f32):
    %wf = arith.sitofp %w : i8 to f32
    %t = arith.mulf %x, %wf : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<3x5xf32>)
  linalg.generic {indexing_maps = [#a_map, #b_map, #c_map], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x4xf32>, memref<4x5xi8>) outs(%out : memref<3x5xf32>) {
  ^bb0(%x: f32, %w: i8, %acc: f32):
    %wf = arith.sitofp %w : i8 to f32
    %t = arith.mulf %x, %wf : f32
    %s = arith.addf %t, %t : f32
    linalg.yield %s : f32
  }
  return
}

// The runtime functions are declared once, at the end of the module.
// CHECK: func.func private @tfaot_rt_mmt4d_s8s8s32(i64, i64, i64, i64, i64, i64, i32, i64)
// CHECK: func.func private @tfaot_rt_matmul_f32s8(i64, i64, i64, i64, i64, i64)
