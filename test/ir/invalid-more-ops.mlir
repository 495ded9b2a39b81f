// RUN: tfaot-opt %s -split-input-file -verify-diagnostics
// Verifier messages of Slice, MirrorPad, BroadcastTo, OneHot,
// SpaceToBatchND, BatchToSpaceND, TopKV2, FusedBatchNorm and RandomUniform.

func.func @slice_oob(%x: tensor<2x3xf32>) -> tensor<1x2xf32> {
  %b = tfaot.Const dense<[1, 2]> : tensor<2xi32>
  %s = tfaot.Const dense<[1, 2]> : tensor<2xi32>
  // expected-error@+1 {{size 2 from begin 2 does not fit dimension 1 of size 3}}
  %0 = tfaot.Slice %x, %b, %s : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

func.func @slice_result(%x: tensor<2x3xf32>) -> tensor<1x2xf32> {
  %b = tfaot.Const dense<[1, 0]> : tensor<2xi32>
  %s = tfaot.Const dense<[1, -1]> : tensor<2xi32>
  // expected-error@+1 {{result type 'tensor<1x2xf32>' does not match the computed shape [1x3]}}
  %0 = tfaot.Slice %x, %b, %s : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

func.func @mirror_mode(%x: tensor<3xf32>) -> tensor<5xf32> {
  %p = tfaot.Const dense<[[1, 1]]> : tensor<1x2xi32>
  // expected-error@+1 {{mode must be "REFLECT" or "SYMMETRIC", got "EDGE"}}
  %0 = tfaot.MirrorPad %x, %p {mode = "EDGE"} : (tensor<3xf32>, tensor<1x2xi32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @mirror_reflect_too_far(%x: tensor<3xf32>) -> tensor<6xf32> {
  %p = tfaot.Const dense<[[3, 0]]> : tensor<1x2xi32>
  // expected-error@+1 {{paddings of dimension 0 (3, 0) must be in [0, 2] in REFLECT mode for a dimension of size 3}}
  %0 = tfaot.MirrorPad %x, %p {mode = "REFLECT"} : (tensor<3xf32>, tensor<1x2xi32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @broadcast_to(%x: tensor<2xf32>) -> tensor<3x3xf32> {
  %s = tfaot.Const dense<[3, 3]> : tensor<2xi32>
  // expected-error@+1 {{cannot broadcast 'tensor<2xf32>' to 'tensor<3x3xf32>'}}
  %0 = tfaot.BroadcastTo %x, %s : (tensor<2xf32>, tensor<2xi32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @one_hot_axis(%i: tensor<4xi32>, %on: tensor<f32>, %off: tensor<f32>) -> tensor<4x3xf32> {
  %d = tfaot.Const dense<3> : tensor<i32>
  // expected-error@+1 {{axis 2 must be in [-1, 1]}}
  %0 = tfaot.OneHot %i, %d, %on, %off {axis = 2} : (tensor<4xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @one_hot_depth(%i: tensor<4xi32>, %on: tensor<f32>, %off: tensor<f32>) -> tensor<4x3xf32> {
  %d = tfaot.Const dense<5> : tensor<i32>
  // expected-error@+1 {{does not match the computed shape [4x5]}}
  %0 = tfaot.OneHot %i, %d, %on, %off : (tensor<4xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @space_to_batch(%x: tensor<1x5x1xf32>) -> tensor<2x3x1xf32> {
  %b = tfaot.Const dense<2> : tensor<1xi32>
  %p = tfaot.Const dense<[[0, 0]]> : tensor<1x2xi32>
  // expected-error@+1 {{padded spatial dimension 1 (5) is not a multiple of block size 2}}
  %0 = tfaot.SpaceToBatchND %x, %b, %p : (tensor<1x5x1xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<2x3x1xf32>
  return %0 : tensor<2x3x1xf32>
}

// -----

func.func @space_to_batch_rank(%x: tensor<1x4xf32>) -> tensor<4x1xf32> {
  %b = tfaot.Const dense<2> : tensor<2xi32>
  %p = tfaot.Const dense<0> : tensor<2x2xi32>
  // expected-error@+1 {{block_shape must have between 1 and rank - 1 = 1 entries, got 2}}
  %0 = tfaot.SpaceToBatchND %x, %b, %p : (tensor<1x4xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @batch_to_space(%x: tensor<3x2x1xf32>) -> tensor<1x4x1xf32> {
  %b = tfaot.Const dense<2> : tensor<1xi32>
  %c = tfaot.Const dense<[[0, 0]]> : tensor<1x2xi32>
  // expected-error@+1 {{batch 3 is not a multiple of the block count 2}}
  %0 = tfaot.BatchToSpaceND %x, %b, %c : (tensor<3x2x1xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// -----

func.func @batch_to_space_crops(%x: tensor<2x2x1xf32>) -> tensor<1x0x1xf32> {
  %b = tfaot.Const dense<2> : tensor<1xi32>
  %c = tfaot.Const dense<[[3, 2]]> : tensor<1x2xi32>
  // expected-error@+1 {{crops of spatial dimension 1 remove more than its 4 elements}}
  %0 = tfaot.BatchToSpaceND %x, %b, %c : (tensor<2x2x1xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<1x0x1xf32>
  return %0 : tensor<1x0x1xf32>
}

// -----

func.func @top_k(%x: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %k = tfaot.Const dense<4> : tensor<i32>
  // expected-error@+1 {{k must be a scalar in [0, 3], the size of the last dimension}}
  %v, %i = tfaot.TopKV2 %x, %k : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
  return %v, %i : tensor<2x4xf32>, tensor<2x4xi32>
}

// -----

func.func @top_k_unsorted(%x: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %k = tfaot.Const dense<2> : tensor<i32>
  // expected-error@+1 {{sorted = false is not supported}}
  %v, %i = tfaot.TopKV2 %x, %k {sorted = false} : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
  return %v, %i : tensor<2x2xf32>, tensor<2x2xi32>
}

// -----

func.func @batch_norm_training(%x: tensor<1x2x2x3xf32>, %p: tensor<3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error@+1 {{is_training = true is not supported}}
  %0 = tfaot.FusedBatchNorm %x, %p, %p, %p, %p {is_training = true} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @batch_norm_channels(%x: tensor<1x2x2x3xf32>, %p: tensor<3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error@+1 {{scale, offset, mean and variance must be 1-D with 2 elements (the channels of x in NCHW), got 'tensor<3xf32>'}}
  %0 = tfaot.FusedBatchNorm %x, %p, %p, %p, %p {data_format = "NCHW"} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @random_shape() -> tensor<2x2xf32> {
  %s = tfaot.Const dense<[2, 3]> : tensor<2xi32>
  // expected-error@+1 {{result type 'tensor<2x2xf32>' does not match the computed shape [2x3]}}
  %0 = tfaot.RandomUniform %s : (tensor<2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
