// RUN: tfaot-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tfaot-gpu-tiled-depthwise),canonicalize,cse)' 2>/dev/null | FileCheck %s
// RUN: tfaot-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tfaot-gpu-tiled-depthwise))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// report-only (tfaot explain, which stops before the kernel mapping): the
// same remarks, the IR untouched.
// RUN: tfaot-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tfaot-gpu-tiled-depthwise{report-only=true}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tfaot-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tfaot-gpu-tiled-depthwise{report-only=true}))' 2>/dev/null | FileCheck %s --check-prefix=UNTOUCHED
// direct (--gpu_depthwise=direct): every one stays direct, and says so.
// RUN: tfaot-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tfaot-gpu-tiled-depthwise{direct=true}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: tfaot-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tfaot-gpu-tiled-depthwise{direct=true}))' 2>/dev/null | FileCheck %s --check-prefix=UNTOUCHED
// DIRECT-COUNT-4: remark: [tfaot-gpu-tiled-depthwise] direct kernel (depthwise, one thread per output): --gpu_depthwise=direct
// DIRECT-NOT: remark
// UNTOUCHED-NOT: gpu.launch
// UNTOUCHED-COUNT-4: tfaot.depthwise_window
// UNTOUCHED-NOT: gpu.launch

// A 3x3 stride-1 depthwise convolution of 32 f16 channels padded by 1 on
// each side (the generic tfaot-gpu-direct-depthwise makes, bufferized, its
// bias + ReLU6 epilogue fused, narrowed to f16 by tfaot-gpu-store-half)
// becomes one launch: grid 2 x 3 x 2 (10 columns in tiles of 8, 9 rows in
// tiles of 4, 2 images x 1 block of 32 channels), blocks of 32 x 2 x 4
// threads, and a 6x10x32 f16 tile in workgroup memory (4 + 2 rows, 8 + 2
// columns of halo). Phase 1 copies the tile, 256 threads striding over its
// 1920 elements, consecutive threads taking consecutive channels, each
// read at a position clamped into the input and replaced by 0 outside it.
// A barrier. Phase 2: each thread computes 4 adjacent outputs of its
// channel from the tile (the body's f16 read widened as before) and stores
// each where it is inside the 9x10 output.
// CHECK-LABEL: func.func @same_pad_relu6_f16(
// CHECK-SAME: %[[X:.*]]: memref<2x9x10x32xf16>, %[[B:.*]]: memref<32x1xf32>, %[[Y:.*]]: memref<2x9x10x32x1xf16>
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %[[BZ:.*]]) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c3{{.*}}, %{{.*}} = %c2{{.*}}) threads(%[[TX:.*]], %[[TY:.*]], %[[TZ:.*]]) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c4{{.*}}) workgroup(%[[TILE:.*]] : memref<6x10x32xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c1920 step %c256 {
// CHECK: %[[LANE:.*]] = arith.remui %[[I]], %c32
// CHECK: %[[X0:.*]] = memref.load %[[X]][%[[BZ]], %{{.*}}, %{{.*}}, %[[LANE]]]
// CHECK: %[[STAGED:.*]] = arith.select %{{.*}}, %[[X0]], %{{.*}} : f16
// CHECK: memref.store %[[STAGED]], %[[TILE]][%{{.*}}, %{{.*}}, %[[LANE]]]
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: memref.load %[[X]]
// CHECK: memref.load %[[TILE]]
// CHECK: arith.extf
// CHECK: arith.minimumf
// CHECK: arith.truncf
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]][%[[BZ]], %{{.*}}, %{{.*}}, %[[TX]], %c0]
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: memref.store
// CHECK: gpu.terminator
// REMARK: remark: [tfaot-gpu-tiled-depthwise] tiled kernel (depthwise): V=4 outputs a thread, 4x8 outputs x CB=32 channels a block of 256 threads, input tile 6x10x32 (3840 bytes) in shared memory
#bias = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @same_pad_relu6_f16(%x: memref<2x9x10x32xf16>, %b: memref<32x1xf32>, %y: memref<2x9x10x32x1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %six = arith.constant 6.0 : f32
  %w = memref.get_global @weights : memref<3x3x32x1xf16>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%b : memref<32x1xf32>) outs(%y : memref<2x9x10x32x1xf16>) attrs = {tfaot.depthwise_window = {dilations = array<i64: 1, 1>, input = array<i64: 2, 9, 10, 32>, low = array<i64: 1, 1>, strides = array<i64: 1, 1>, taps = array<i64: 3, 3>}} {
  ^bb0(%bias: f32, %out: f16):
    %n = linalg.index 0 : index
    %oh = linalg.index 1 : index
    %ow = linalg.index 2 : index
    %c = linalg.index 3 : index
    // Tap (0, 0): row and column oh - 1, ow - 1, checked against 0.
    %ih = arith.subi %oh, %c1 : index
    %iw = arith.subi %ow, %c1 : index
    %hin = arith.cmpi sge, %ih, %c0 : index
    %win = arith.cmpi sge, %iw, %c0 : index
    %in0 = arith.andi %hin, %win : i1
    %h0 = arith.select %in0, %ih, %c0 : index
    %w0 = arith.select %in0, %iw, %c0 : index
    %x0 = memref.load %x[%n, %h0, %w0, %c] : memref<2x9x10x32xf16>
    %p0 = arith.select %in0, %x0, %zh : f16
    %k0 = memref.load %w[%c0, %c0, %c, %c0] : memref<3x3x32x1xf16>
    %xf0 = arith.extf %p0 : f16 to f32
    %kf0 = arith.extf %k0 : f16 to f32
    %m0 = arith.mulf %xf0, %kf0 : f32
    %s0 = arith.addf %zero, %m0 : f32
    // Tap (1, 1): the output's own position, always inside.
    %x1 = memref.load %x[%n, %oh, %ow, %c] : memref<2x9x10x32xf16>
    %k1 = memref.load %w[%c1, %c1, %c, %c0] : memref<3x3x32x1xf16>
    %xf1 = arith.extf %x1 : f16 to f32
    %kf1 = arith.extf %k1 : f16 to f32
    %m1 = arith.mulf %xf1, %kf1 : f32
    %s1 = arith.addf %s0, %m1 : f32
    // Tap (2, 2): row and column oh + 1, ow + 1, checked against 9 and 10.
    %jh = arith.addi %oh, %c1 : index
    %jw = arith.addi %ow, %c1 : index
    %hlt = arith.cmpi slt, %jh, %c9 : index
    %wlt = arith.cmpi slt, %jw, %c10 : index
    %in2 = arith.andi %hlt, %wlt : i1
    %h2 = arith.select %in2, %jh, %c0 : index
    %w2 = arith.select %in2, %jw, %c0 : index
    %x2 = memref.load %x[%n, %h2, %w2, %c] : memref<2x9x10x32xf16>
    %p2 = arith.select %in2, %x2, %zh : f16
    %k2 = memref.load %w[%c2, %c2, %c, %c0] : memref<3x3x32x1xf16>
    %xf2 = arith.extf %p2 : f16 to f32
    %kf2 = arith.extf %k2 : f16 to f32
    %m2 = arith.mulf %xf2, %kf2 : f32
    %s2 = arith.addf %s1, %m2 : f32
    %sb = arith.addf %s2, %bias : f32
    %r = arith.maximumf %sb, %zero : f32
    %r6 = arith.minimumf %r, %six : f32
    %h = arith.truncf %r6 : f32 to f16
    linalg.yield %h : f16
  }
  return
}
memref.global "private" constant @weights : memref<3x3x32x1xf16> = dense<1.0>

// -----

// Stride 2 (a 3x3 window over 9 rows and 9 columns of 4 x 4 outputs, 2
// outputs a thread): a 9x9 tile of 16 channels (48 is not a multiple of
// 32), padded to 20 a position (the two halves of a warp, 4 columns apart,
// then read distinct banks); the grid covers 7 columns in tiles of 4 and 7
// rows in tiles of 4.
// CHECK-LABEL: func.func @stride2_48_channels(
// CHECK: gpu.launch {{.*}} in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c3{{.*}}) threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c4{{.*}}) workgroup(%{{.*}} : memref<9x9x20xf32, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK-COUNT-2: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c0] : memref<1x7x7x48x1xf32>
// CHECK-NOT: memref.store
// REMARK: remark: [tfaot-gpu-tiled-depthwise] tiled kernel (depthwise): V=2 outputs a thread, 4x4 outputs x CB=16 channels a block of 128 threads, input tile 9x9x20 (6480 bytes) in shared memory
#id2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @stride2_48_channels(%x: memref<1x14x14x48xf32>, %y: memref<1x7x7x48x1xf32>) {
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%y : memref<1x7x7x48x1xf32>) attrs = {tfaot.depthwise_window = {dilations = array<i64: 1, 1>, input = array<i64: 1, 14, 14, 48>, low = array<i64: 0, 0>, strides = array<i64: 2, 2>, taps = array<i64: 3, 3>}} {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %oh = linalg.index 1 : index
    %ow = linalg.index 2 : index
    %c = linalg.index 3 : index
    %ih = arith.muli %oh, %c2 : index
    %iw = arith.muli %ow, %c2 : index
    %x0 = memref.load %x[%n, %ih, %iw, %c] : memref<1x14x14x48xf32>
    %s = arith.addf %zero, %x0 : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Three channels (fewer than 8) keep the generic, and say why.
// CHECK-LABEL: func.func @few_channels(
// CHECK: linalg.generic
// CHECK-NOT: gpu.launch
// REMARK: remark: [tfaot-gpu-tiled-depthwise] direct kernel (depthwise, one thread per output): 3 channels, not a multiple of 8
#id3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @few_channels(%x: memref<1x4x4x3xf32>, %y: memref<1x4x4x3x1xf32>) {
  linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%y : memref<1x4x4x3x1xf32>) attrs = {tfaot.depthwise_window = {dilations = array<i64: 1, 1>, input = array<i64: 1, 4, 4, 3>, low = array<i64: 0, 0>, strides = array<i64: 1, 1>, taps = array<i64: 1, 1>}} {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %oh = linalg.index 1 : index
    %ow = linalg.index 2 : index
    %c = linalg.index 3 : index
    %x0 = memref.load %x[%n, %oh, %ow, %c] : memref<1x4x4x3xf32>
    linalg.yield %x0 : f32
  }
  return
}

// -----

// An epilogue operand read per position (a residual) would be read past
// the output's edge by the threads outside it: kept, with the reason.
// CHECK-LABEL: func.func @positional_read(
// CHECK: linalg.generic
// REMARK: remark: [tfaot-gpu-tiled-depthwise] direct kernel (depthwise, one thread per output): a read in its body other than of its input and per channel
#id4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @positional_read(%x: memref<1x4x4x8xf32>, %r: memref<4x4x8xf32>, %y: memref<1x4x4x8x1xf32>) {
  linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%y : memref<1x4x4x8x1xf32>) attrs = {tfaot.depthwise_window = {dilations = array<i64: 1, 1>, input = array<i64: 1, 4, 4, 8>, low = array<i64: 0, 0>, strides = array<i64: 1, 1>, taps = array<i64: 1, 1>}} {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %oh = linalg.index 1 : index
    %ow = linalg.index 2 : index
    %c = linalg.index 3 : index
    %x0 = memref.load %x[%n, %oh, %ow, %c] : memref<1x4x4x8xf32>
    %r0 = memref.load %r[%oh, %ow, %c] : memref<4x4x8xf32>
    %s = arith.addf %x0, %r0 : f32
    linalg.yield %s : f32
  }
  return
}
