// RUN: tfaot-opt %s -tfaot-lower-to-linalg -split-input-file | FileCheck %s

// Tests that a size-1 dimension broadcasts through a constant-0 index and
// the missing leading dimension of a lower-rank operand is dropped.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW0:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<1x3xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW0]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[Y]] : tensor<2x3xf32>, tensor<1x3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: arith.addf
func.func @add_broadcast(%x: tensor<2x3xf32>, %y: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tfaot.AddV2 %x, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that unsigned element types become signless and pick unsigned ops.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.divui
// CHECK: arith.maxui
func.func @unsigned(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  %0 = tfaot.RealDiv %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = tfaot.Maximum %0, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %1 : tensor<4xui8>
}

// -----

// Tests signed integer and float picks of the same ops.
// CHECK-LABEL: func.func @signed
// CHECK: arith.divsi
// CHECK: arith.minsi
// CHECK: arith.subi
// CHECK: arith.muli
func.func @signed(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tfaot.RealDiv %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = tfaot.Minimum %0, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = tfaot.Sub %1, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = tfaot.Mul %2, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %3 : tensor<4xi32>
}

// -----

// Tests that transpose_a materializes a linalg.transpose in front of a
// zero-initialized linalg.matmul.
// CHECK-LABEL: func.func @matmul_transpose_a
// CHECK-SAME: (%[[A:.*]]: tensor<3x2xf32>, %[[B:.*]]: tensor<3x5xf32>)
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[A]] : tensor<3x2xf32>) outs(%{{.*}} : tensor<2x3xf32>) permutation = [1, 0]
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x5xf32>)
// CHECK: linalg.matmul ins(%[[T]], %[[B]] : tensor<2x3xf32>, tensor<3x5xf32>) outs(%[[INIT]] : tensor<2x5xf32>)
func.func @matmul_transpose_a(%a: tensor<3x2xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  %0 = tfaot.MatMul %a, %b {transpose_a = true} : (tensor<3x2xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Tests that a plain MatMul has no transpose.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  %0 = tfaot.MatMul %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Tests that NCHW BiasAdd reads the bias along dimension 1.
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias_nchw
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[C]], #{{.*}}]
func.func @bias_nchw(%v: tensor<1x3x4x5xf32>, %b: tensor<3xf32>) -> tensor<1x3x4x5xf32> {
  %0 = tfaot.BiasAdd %v, %b {data_format = "NCHW"} : (tensor<1x3x4x5xf32>, tensor<3xf32>) -> tensor<1x3x4x5xf32>
  return %0 : tensor<1x3x4x5xf32>
}

// -----

// Tests the activation bodies.
// CHECK-LABEL: func.func @activations
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.*}}, %[[Z]]
// CHECK: %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: arith.maximumf
// CHECK: arith.minimumf %{{.*}}, %[[SIX]]
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: math.tanh
func.func @activations(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tfaot.Relu %x : tensor<4xf32>
  %1 = tfaot.Relu6 %0 : tensor<4xf32>
  %2 = tfaot.Sigmoid %1 : tensor<4xf32>
  %3 = tfaot.Tanh %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// Tests Softmax: row max, exp(x - max), row sum, divide.
// CHECK-LABEL: func.func @softmax
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tfaot.Softmax %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that ArgMax reduces the chosen axis with a strict comparison (ties
// keep the first index) and returns the index output.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @argmax
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]], #[[OUT]]], iterator_types = ["reduction", "parallel"]}
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 0
// CHECK: arith.index_cast {{.*}} to i32
// CHECK: return %[[R]]#1 : tensor<3xi32>
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<3xi32> {
  %d = tfaot.Const dense<0> : tensor<i32>
  %0 = tfaot.ArgMax %x, %d : (tensor<2x3xf32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Tests that Reshape resolves to a static tensor.reshape.
// CHECK-LABEL: func.func @reshape
// CHECK: %[[S:.*]] = arith.constant dense<[3, 2]> : tensor<2xi64>
// CHECK: tensor.reshape %{{.*}}(%[[S]]) : (tensor<6xf32>, tensor<2xi64>) -> tensor<3x2xf32>
func.func @reshape(%x: tensor<6xf32>) -> tensor<3x2xf32> {
  %s = tfaot.Const dense<[-1, 2]> : tensor<2xi32>
  %0 = tfaot.Reshape %x, %s : (tensor<6xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Tests the Cast flavours: to bool is "!= 0", unsigned sources zero-extend,
// float to int truncates toward zero.
// CHECK-LABEL: func.func @casts
// CHECK: arith.cmpf une
// CHECK: arith.uitofp {{.*}} : i8 to f32
// CHECK: arith.fptosi {{.*}} : f32 to i32
// CHECK: arith.extsi {{.*}} : i32 to i64
func.func @casts(%f: tensor<2xf32>, %u: tensor<2xui8>, %i: tensor<2xi32>) -> (tensor<2xi1>, tensor<2xf32>, tensor<2xi32>, tensor<2xi64>) {
  %0 = tfaot.Cast %f : (tensor<2xf32>) -> tensor<2xi1>
  %1 = tfaot.Cast %u : (tensor<2xui8>) -> tensor<2xf32>
  %2 = tfaot.Cast %f : (tensor<2xf32>) -> tensor<2xi32>
  %3 = tfaot.Cast %i : (tensor<2xi32>) -> tensor<2xi64>
  return %0, %1, %2, %3 : tensor<2xi1>, tensor<2xf32>, tensor<2xi32>, tensor<2xi64>
}

// -----

// Tests that Identity and Const disappear into their uses.
// CHECK-LABEL: func.func @identity
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1, 2]> : tensor<2xi8>
// CHECK-NEXT: return %[[C]] : tensor<2xi8>
func.func @identity() -> tensor<2xui8> {
  %c = tfaot.Const dense<[1, 2]> : tensor<2xui8>
  %0 = tfaot.Identity %c : tensor<2xui8>
  return %0 : tensor<2xui8>
}
