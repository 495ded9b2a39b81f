// RUN: tfaot-opt %s -tfaot-lower-to-linalg -split-input-file | FileCheck %s
// Lowerings of the ops in passes/LowerDataMovementOps.cpp and LowerMathOps.cpp.

// Tests that SpaceToBatchND zero-pads, splits each spatial dimension into
// (blocks, block), moves the block offsets in front of the batch and merges
// them into it.
// CHECK-LABEL: func.func @s2b
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 1, 0] high[0, 1, 0]
// CHECK: } : tensor<1x4x1xf32> to tensor<1x6x1xf32>
// CHECK: %[[R:.*]] = tensor.reshape %[[P]](%{{.*}}) : (tensor<1x6x1xf32>, tensor<4xi64>) -> tensor<1x3x2x1xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[R]] : tensor<1x3x2x1xf32>) outs(%{{.*}} : tensor<2x1x3x1xf32>) permutation = [2, 0, 1, 3]
// CHECK: tensor.reshape %[[T]](%{{.*}}) : (tensor<2x1x3x1xf32>, tensor<3xi64>) -> tensor<2x3x1xf32>
func.func @s2b(%x: tensor<1x4x1xf32>) -> tensor<2x3x1xf32> {
  %b = tfaot.Const dense<2> : tensor<1xi32>
  %p = tfaot.Const dense<[[1, 1]]> : tensor<1x2xi32>
  %0 = tfaot.SpaceToBatchND %x, %b, %p : (tensor<1x4x1xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<2x3x1xf32>
  return %0 : tensor<2x3x1xf32>
}

// -----

// Tests that BatchToSpaceND splits the batch into (blocks..., batch),
// interleaves the blocks with the spatial dimensions, merges and crops.
// CHECK-LABEL: func.func @b2s
// CHECK-NOT: tensor.pad
// CHECK: tensor.reshape %{{.*}} : (tensor<4x2x2x1xf32>, tensor<6xi64>) -> tensor<2x2x1x2x2x1xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x2x1x2x2x1xf32>) outs(%{{.*}} : tensor<1x2x2x2x2x1xf32>) permutation = [2, 3, 0, 4, 1, 5]
// CHECK: tensor.reshape %{{.*}} -> tensor<1x4x4x1xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 4, 3, 1] [1, 1, 1, 1] : tensor<1x4x4x1xf32> to tensor<1x4x3x1xf32>
func.func @b2s(%x: tensor<4x2x2x1xf32>) -> tensor<1x4x3x1xf32> {
  %b = tfaot.Const dense<2> : tensor<2xi32>
  %c = tfaot.Const dense<[[0, 0], [0, 1]]> : tensor<2x2xi32>
  %0 = tfaot.BatchToSpaceND %x, %b, %c : (tensor<4x2x2x1xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<1x4x3x1xf32>
  return %0 : tensor<1x4x3x1xf32>
}

// -----

// Tests that Slice resolves size -1 to the rest of the dimension.
// CHECK-LABEL: func.func @slice
// CHECK: tensor.extract_slice %{{.*}}[1, 0, 1] [1, 3, 2] [1, 1, 1] : tensor<2x3x4xf32> to tensor<1x3x2xf32>
func.func @slice(%x: tensor<2x3x4xf32>) -> tensor<1x3x2xf32> {
  %b = tfaot.Const dense<[1, 0, 1]> : tensor<3xi32>
  %s = tfaot.Const dense<[1, -1, 2]> : tensor<3xi32>
  %0 = tfaot.Slice %x, %b, %s : (tensor<2x3x4xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x3x2xf32>
  return %0 : tensor<1x3x2xf32>
}

// -----

// Tests that MirrorPad reads the input at a reflected index: SYMMETRIC maps
// p < 0 to -1 - p and p >= 3 to 5 - p.
// CHECK-LABEL: func.func @mirror
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<7xf32>)
// CHECK: %[[O:.*]] = linalg.index 0 : index
// CHECK: %[[P:.*]] = arith.subi %[[O]], %{{.*}} : index
// CHECK: %[[M1:.*]] = arith.constant -1 : index
// CHECK: %[[LOW:.*]] = arith.subi %[[M1]], %[[P]] : index
// CHECK: %[[FIVE:.*]] = arith.constant 5 : index
// CHECK: %[[HIGH:.*]] = arith.subi %[[FIVE]], %[[P]] : index
// CHECK: %[[Q:.*]] = arith.select %{{.*}}, %[[HIGH]], %[[P]] : index
// CHECK: %[[I:.*]] = arith.select %{{.*}}, %[[LOW]], %[[Q]] : index
// CHECK: tensor.extract %{{.*}}[%[[I]]] : tensor<3xf32>
func.func @mirror(%x: tensor<3xf32>) -> tensor<7xf32> {
  %p = tfaot.Const dense<[[2, 2]]> : tensor<1x2xi32>
  %0 = tfaot.MirrorPad %x, %p {mode = "SYMMETRIC"} : (tensor<3xf32>, tensor<1x2xi32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// Tests that NCHW batch norm reads its parameters along dimension 1.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bn
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[C]], #[[C]], #[[C]], #[[C]], #[[X]]]
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[SCALE:.*]]: f32, %[[OFFSET:.*]]: f32, %[[MEAN:.*]]: f32, %[[VAR:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK: %[[VE:.*]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK: %[[INV:.*]] = math.rsqrt %[[VE]] : f32
// CHECK: %[[F:.*]] = arith.mulf %[[INV]], %[[SCALE]] : f32
// CHECK: %[[D:.*]] = arith.subf %[[IN]], %[[MEAN]] : f32
// CHECK: %[[S:.*]] = arith.mulf %[[D]], %[[F]] : f32
// CHECK: %[[Y:.*]] = arith.addf %[[S]], %[[OFFSET]] : f32
// CHECK: linalg.yield %[[Y]] : f32
func.func @bn(%x: tensor<1x3x2x2xf32>, %p: tensor<3xf32>) -> tensor<1x3x2x2xf32> {
  %0 = tfaot.FusedBatchNorm %x, %p, %p, %p, %p {epsilon = 1.0e-3 : f32, data_format = "NCHW"} : (tensor<1x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

// Tests that Any is an or-reduction starting at false; keep_dims reshapes.
// CHECK-LABEL: func.func @any
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: linalg.fill ins(%[[FALSE]] : i1) outs(%{{.*}} : tensor<2xi1>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.ori
// CHECK: tensor.reshape %{{.*}} : (tensor<2xi1>, tensor<2xi64>) -> tensor<2x1xi1>
func.func @any(%x: tensor<2x3xi1>) -> tensor<2x1xi1> {
  %a = tfaot.Const dense<1> : tensor<1xi32>
  %0 = tfaot.Any %x, %a {keep_dims = true} : (tensor<2x3xi1>, tensor<1xi32>) -> tensor<2x1xi1>
  return %0 : tensor<2x1xi1>
}

// -----

// Tests that RandomUniform hashes the linear index with SplitMix64's mixer
// and scales the top 24 bits by 2^-24.
// CHECK-LABEL: func.func @random
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: arith.index_castui %{{.*}} : index to i64
// CHECK: arith.muli
// CHECK: arith.shrui
// CHECK: %[[TOP:.*]] = arith.shrui %{{.*}}, %c40_i64 : i64
// CHECK: %[[F:.*]] = arith.uitofp %[[TOP]] : i64 to f32
// CHECK: %[[UNIT:.*]] = arith.constant 5.96046448E-8 : f32
// CHECK: arith.mulf %[[F]], %[[UNIT]] : f32
func.func @random() -> tensor<2x3xf32> {
  %s = tfaot.Const dense<[2, 3]> : tensor<2xi32>
  %0 = tfaot.RandomUniform %s {seed = 1, seed2 = 2} : (tensor<2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that TopKV2 selects by radix, row by row: each pass clears a
// histogram (256 bins: the row is short) and counts the keys' next 8 bits
// (keys: the float's bits, the sign flipped, all bits for negatives), then
// walks the bins down from the top to the one holding the k-th best; four
// passes for 32-bit keys. One scan takes the elements whose key beats the
// k-th, and the first ones equal to it, into a heap (worse = smaller key,
// or equal at a later index); k times its top goes to the last free slot.
// CHECK-LABEL: func.func @topk
// CHECK: bufferization.alloc_tensor() : tensor<3xf32>
// CHECK: bufferization.alloc_tensor() : tensor<3xi64>
// CHECK: bufferization.alloc_tensor() : tensor<256xi32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2 step %{{.*}} iter_args({{.*}}) -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<3xf32>, tensor<3xi64>, tensor<256xi32>)
// CHECK-COUNT-4: linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<256xi32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5{{.*}} step {{.*}} -> (tensor<3xf32>, tensor<3xi64>, index, i32)
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: scf.if
// CHECK: scf.while
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %c3{{.*}} step {{.*}} -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<3xf32>, tensor<3xi64>)
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: scf.while
func.func @topk(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %k = tfaot.Const dense<3> : tensor<i32>
  %v, %i = tfaot.TopKV2 %x, %k : (tensor<2x5xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// Tests that OneHot with axis 0 compares the index (read along dimension 1)
// with the position along dimension 0.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @onehot
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[SCALAR]], #[[SCALAR]], #{{.*}}]
// CHECK: ^bb0(%[[I:.*]]: i32, %[[ON:.*]]: f32, %[[OFF:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[IX:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[POS:.*]] = linalg.index 0 : index
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[IX]], %[[POS]] : index
// CHECK: arith.select %[[HIT]], %[[ON]], %[[OFF]] : f32
func.func @onehot(%x: tensor<4xi32>, %on: tensor<f32>, %off: tensor<f32>) -> tensor<3x4xf32> {
  %d = tfaot.Const dense<3> : tensor<i32>
  %0 = tfaot.OneHot %x, %d, %on, %off {axis = 0} : (tensor<4xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Tests that BroadcastTo is a broadcasting copy and Ceil is math.ceil.
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @bcast
// CHECK: linalg.generic {indexing_maps = [#[[B]], #{{.*}}]{{.*}} ins(%{{.*}} : tensor<2x1xf32>) outs(%{{.*}} : tensor<3x2x2xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: math.ceil
func.func @bcast(%x: tensor<2x1xf32>) -> tensor<3x2x2xf32> {
  %s = tfaot.Const dense<[3, 2, 2]> : tensor<3xi32>
  %0 = tfaot.BroadcastTo %x, %s : (tensor<2x1xf32>, tensor<3xi32>) -> tensor<3x2x2xf32>
  %1 = tfaot.Ceil %0 : tensor<3x2x2xf32>
  return %1 : tensor<3x2x2xf32>
}

// -----

// Tests that BatchMatMulV2 with the same batch dimensions on both sides
// becomes linalg.batch_matmul over the collapsed batch (12 heads), with the
// adj_y operand copied transposed first (BERT's attention scores).
// CHECK-LABEL: func.func @batch_matmul_adj_y
// CHECK: %[[KT:.*]] = linalg.transpose ins(%arg1 : tensor<1x12x128x64xf32>) outs(%{{.*}} : tensor<1x12x64x128xf32>) permutation = [0, 1, 3, 2]
// CHECK: %[[Q3:.*]] = tensor.reshape %arg0(%{{.*}}) : (tensor<1x12x128x64xf32>, tensor<3xi64>) -> tensor<12x128x64xf32>
// CHECK: %[[K3:.*]] = tensor.reshape %[[KT]](%{{.*}}) : (tensor<1x12x64x128xf32>, tensor<3xi64>) -> tensor<12x64x128xf32>
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[S:.*]] = linalg.batch_matmul ins(%[[Q3]], %[[K3]] : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%[[FILL]] : tensor<12x128x128xf32>)
// CHECK: tensor.reshape %[[S]](%{{.*}}) : (tensor<12x128x128xf32>, tensor<4xi64>) -> tensor<1x12x128x128xf32>
func.func @batch_matmul_adj_y(%q: tensor<1x12x128x64xf32>, %k: tensor<1x12x128x64xf32>) -> tensor<1x12x128x128xf32> {
  %s = tfaot.BatchMatMulV2 %q, %k {adj_y = true} : (tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>) -> tensor<1x12x128x128xf32>
  return %s : tensor<1x12x128x128xf32>
}

// -----

// Tests that a stack of matrices times one matrix is one linalg.matmul of
// all their rows, and that two matrices are a plain linalg.matmul.
// CHECK-LABEL: func.func @batch_matmul_one_matrix
// CHECK: %[[X:.*]] = tensor.reshape %arg0(%{{.*}}) : (tensor<2x5x3xf32>, tensor<2xi64>) -> tensor<10x3xf32>
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[X]], %arg1 : tensor<10x3xf32>, tensor<3x4xf32>) outs(%{{.*}} : tensor<10x4xf32>)
// CHECK: tensor.reshape %[[P]](%{{.*}}) : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<2x5x4xf32>
// CHECK-LABEL: func.func @batch_matmul_2d
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>)
func.func @batch_matmul_one_matrix(%a: tensor<2x5x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x5x4xf32> {
  %s = tfaot.BatchMatMulV2 %a, %b : (tensor<2x5x3xf32>, tensor<3x4xf32>) -> tensor<2x5x4xf32>
  return %s : tensor<2x5x4xf32>
}
func.func @batch_matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %s = tfaot.BatchMatMulV2 %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// Tests that a broadcast batch (1 against 2) and integer products keep the
// contraction generic, its maps broadcasting the batch dimension.
// CHECK-LABEL: func.func @batch_matmul_generic
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<1x5x3xf32>, tensor<2x3x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%arg2, %arg3 : tensor<2x5x3xi32>, tensor<2x3x4xi32>)
// An empty product (no columns) too.
// CHECK: linalg.generic {{.*}} ins(%arg4, %arg5 : tensor<2x5x3xf32>, tensor<3x0xf32>)
// CHECK-NOT: batch_matmul
func.func @batch_matmul_generic(%a: tensor<1x5x3xf32>, %b: tensor<2x3x4xf32>, %c: tensor<2x5x3xi32>, %d: tensor<2x3x4xi32>, %e: tensor<2x5x3xf32>, %f: tensor<3x0xf32>) -> (tensor<2x5x4xf32>, tensor<2x5x4xi32>, tensor<2x5x0xf32>) {
  %s = tfaot.BatchMatMulV2 %a, %b : (tensor<1x5x3xf32>, tensor<2x3x4xf32>) -> tensor<2x5x4xf32>
  %t = tfaot.BatchMatMulV2 %c, %d : (tensor<2x5x3xi32>, tensor<2x3x4xi32>) -> tensor<2x5x4xi32>
  %u = tfaot.BatchMatMulV2 %e, %f : (tensor<2x5x3xf32>, tensor<3x0xf32>) -> tensor<2x5x0xf32>
  return %s, %t, %u : tensor<2x5x4xf32>, tensor<2x5x4xi32>, tensor<2x5x0xf32>
}
