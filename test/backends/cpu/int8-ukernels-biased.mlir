// RUN: tfaot-opt %s --tfaot-cpu-int8-ukernels | FileCheck %s

// With constant weights the pass computes what the VNNI kernels start each
// column from, the product's initial row less 128 times the column's sum of
// the weights, as a constant of its own, and says so in the flags
// (kMmt4dColumnInit | kMmt4dBiasedColumnInit = 6): the kernel need not sum
// the weights' columns on every call. Column 0 of @weights sums 1+2+3+4 =
// 10, column 1 sums -4, the others 0; @row starts them from 5, 7 and 0:
// 5 - 1280 = -1275, 7 + 512 = 519. After a zero fill: -1280 and 512.
// CHECK-DAG: memref.global "private" constant @[[ROW_START:__tfaot_vnni_column_init[_0-9]*]] : memref<1x16xi32> = dense<{{\[\[}}-1275, 519, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]>
// CHECK-DAG: memref.global "private" constant @[[ZERO_START:__tfaot_vnni_column_init[_0-9]*]] : memref<1x16xi32> = dense<{{\[\[}}-1280, 512, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]>
memref.global "private" constant @weights : memref<1x1x16x4xi8> = dense<[[[[1, 2, 3, 4], [-1, -1, -1, -1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]]]>
memref.global "private" constant @row : memref<1x16xi32> = dense<[[5, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]>

// CHECK-LABEL: func.func @from_row
// CHECK-NOT: linalg.broadcast
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 6 : i32
// CHECK-DAG: %[[START:.*]] = memref.get_global @[[ROW_START]]
// CHECK: memref.extract_aligned_pointer_as_index %[[START]]
// CHECK: call @tfaot_rt_mmt4d_s8s8s32({{.*}}, %[[FLAGS]], %{{.*}})
func.func @from_row(%lhs: memref<6x1x1x4xi8>, %out: memref<6x1x1x16xi32>) {
  %rhs = memref.get_global @weights : memref<1x1x16x4xi8>
  %row = memref.get_global @row : memref<1x16xi32>
  linalg.broadcast ins(%row : memref<1x16xi32>) outs(%out : memref<6x1x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs, %rhs : memref<6x1x1x4xi8>, memref<1x1x16x4xi8>) outs(%out : memref<6x1x1x16xi32>)
  return
}

// CHECK-LABEL: func.func @from_zero
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 6 : i32
// CHECK-DAG: %[[START:.*]] = memref.get_global @[[ZERO_START]]
// CHECK: memref.extract_aligned_pointer_as_index %[[START]]
// CHECK: call @tfaot_rt_mmt4d_s8s8s32({{.*}}, %[[FLAGS]], %{{.*}})
func.func @from_zero(%lhs: memref<6x1x1x4xi8>, %out: memref<6x1x1x16xi32>) {
  %zero = arith.constant 0 : i32
  %rhs = memref.get_global @weights : memref<1x1x16x4xi8>
  linalg.fill ins(%zero : i32) outs(%out : memref<6x1x1x16xi32>)
  linalg.mmt4d ins(%lhs, %rhs : memref<6x1x1x4xi8>, memref<1x1x16x4xi8>) outs(%out : memref<6x1x1x16xi32>)
  return
}

// Weights that are not a constant (an argument here) leave the sums to the
// kernel: the row as before, flags = 2.
// CHECK-LABEL: func.func @weights_not_constant
// CHECK-NOT: memref.get_global @__tfaot_vnni_column_init
// CHECK: %[[FLAGS:.*]] = arith.constant 2 : i32
// CHECK: call @tfaot_rt_mmt4d_s8s8s32({{.*}}, %[[FLAGS]], %{{.*}})
func.func @weights_not_constant(%lhs: memref<6x1x1x4xi8>, %rhs: memref<1x1x16x4xi8>, %out: memref<6x1x1x16xi32>) {
  %row = memref.get_global @row : memref<1x16xi32>
  linalg.broadcast ins(%row : memref<1x16xi32>) outs(%out : memref<6x1x1x16xi32>) dimensions = [0, 2]
  linalg.mmt4d ins(%lhs, %rhs : memref<6x1x1x4xi8>, memref<1x1x16x4xi8>) outs(%out : memref<6x1x1x16xi32>)
  return
}
