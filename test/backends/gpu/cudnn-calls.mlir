// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-cudnn-calls=allow-tf32=true --canonicalize | FileCheck %s
// RUN: tfaot-opt %s --split-input-file --tfaot-gpu-cudnn-calls --tfaot-gpu-define-emulated-conv | FileCheck %s --check-prefix=EMU

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests a conv with a bias + residual + ReLU epilogue (in the order z +
// (conv + bias)): one call writes the epilogue's output %y with x, w, bias
// and z, and the conv's zero-filled buffer is gone. Arguments: site 0,
// the addresses, N H W C = 1 3 3 1, K R S = 2 1 2, OH OW = 3 2, strides
// and dilations 1, no padding, flags 57 = TF32 (1) | bias (8) | residual (16) | ReLU (32).
// CHECK-LABEL: func.func @fused(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<1x3x3x1xf32>, %[[W:[a-z0-9]+]]: memref<2x1x2x1xf32>, %[[BIAS:[a-z0-9]+]]: memref<2xf32>, %[[Z:[a-z0-9]+]]: memref<1x3x2x2xf32>, %[[Y:[a-z0-9]+]]: memref<1x3x2x2xf32>)
// CHECK-DAG: %[[BP:.*]] = memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK-DAG: %[[B:.*]] = arith.index_cast %[[BP]]
// CHECK-DAG: %[[ZP:.*]] = memref.extract_aligned_pointer_as_index %[[Z]]
// CHECK-DAG: %[[ZA:.*]] = arith.index_cast %[[ZP]]
// CHECK-DAG: %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK-DAG: %[[XA:.*]] = arith.index_cast %[[XP]]
// CHECK-DAG: %[[WP:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK-DAG: %[[WA:.*]] = arith.index_cast %[[WP]]
// CHECK-DAG: %[[YP:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK-DAG: %[[YA:.*]] = arith.index_cast %[[YP]]
// CHECK: call @tfaot_rt_cuda_conv(%c0_i64, %[[XA]], %[[WA]], %[[B]], %[[ZA]], %[[YA]], %c1_i64, %c3_i64, %c3_i64, %c1_i64, %c2_i64, %c1_i64, %c2_i64, %c3_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %c57_i32)
// CHECK-NOT: linalg.
// CHECK: return
// CHECK: func.func private @tfaot_rt_cuda_conv(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
// EMU-LABEL: func.func @fused(
// EMU: call @tfaot_emulated_conv_f32(
// EMU: func.func private @tfaot_emulated_conv_f32({{.*}}) attributes {llvm.linkage = #llvm.linkage<internal>}
// EMU-COUNT-7: scf.for
// EMU: scf.if
// EMU: arith.addf
// EMU: scf.if
// EMU: arith.maximumf
// EMU: arith.select
// EMU: llvm.store
func.func @fused(%x: memref<1x3x3x1xf32>, %w: memref<2x1x2x1xf32>, %bias: memref<2xf32>, %z: memref<1x3x2x2xf32>, %y: memref<1x3x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1x3x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x3x2x2xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue}
       ins(%x, %w : memref<1x3x3x1xf32>, memref<2x1x2x1xf32>) outs(%buf : memref<1x3x2x2xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias, %z : memref<1x3x2x2xf32>, memref<2xf32>, memref<1x3x2x2xf32>) outs(%y : memref<1x3x2x2xf32>) {
  ^bb0(%c: f32, %b: f32, %r: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    %t = arith.addf %r, %s : f32
    %u = arith.maximumf %t, %zero : f32
    linalg.yield %u : f32
  }
  memref.dealloc %buf : memref<1x3x2x2xf32>
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests a 3x3 stride-2 conv whose epilogue cannot be cuDNN's (it
// multiplies): the call writes the conv's own buffer (flags 1: TF32 only,
// no bias, z or ReLU; null bias and z), its zero fill goes, and the
// epilogue stays to read it.
// CHECK-LABEL: func.func @plain(
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<1x2x2x4xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[YP:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[YA:.*]] = arith.index_cast %[[YP]]
// CHECK: call @tfaot_rt_cuda_conv(%c0_i64, %{{.*}}, %{{.*}}, %c0_i64, %c0_i64, %[[YA]], %c1_i64, %c5_i64, %c5_i64, %c2_i64, %c4_i64, %c3_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %c1_i32)
// CHECK: linalg.generic {{.*}} ins(%[[BUF]], %{{.*}} : memref<1x2x2x4xf32>, memref<4xf32>)
// CHECK: arith.mulf
func.func @plain(%x: memref<1x5x5x2xf32>, %w: memref<4x3x3x2xf32>, %bias: memref<4xf32>, %y: memref<1x2x2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1x2x2x4xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x2x4xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : memref<1x5x5x2xf32>, memref<4x3x3x2xf32>) outs(%buf : memref<1x2x2x4xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias : memref<1x2x2x4xf32>, memref<4xf32>) outs(%y : memref<1x2x2x4xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.mulf %c, %b : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<1x2x2x4xf32>
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests the fp16 form: f16 x and w, an f16 bias widened as it is read,
// the result rounded to f16 once at the store: flags 42 = f16 (2) | bias
// (8) | ReLU (32), no TF32; the emulation calls the f16 twin, which widens
// what it loads and rounds at the store.
// CHECK-LABEL: func.func @half(
// CHECK: call @tfaot_rt_cuda_conv({{.*}}, %c42_i32)
// CHECK-NOT: linalg.generic
// EMU-LABEL: func.func @half(
// EMU: call @tfaot_emulated_conv_f16(
// EMU: func.func private @tfaot_emulated_conv_f16(
// EMU: llvm.load %{{.*}} : !llvm.ptr -> f16
// EMU: arith.extf
// EMU: arith.truncf %{{.*}} : f32 to f16
// EMU: llvm.store %{{.*}} : f16, !llvm.ptr
func.func @half(%x: memref<1x3x3x1xf16>, %w: memref<2x1x2x1xf16>, %bias: memref<2xf16>, %y: memref<1x3x2x2xf16>) {
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1x3x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x3x2x2xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue}
       ins(%x, %w : memref<1x3x3x1xf16>, memref<2x1x2x1xf16>) outs(%buf : memref<1x3x2x2xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias : memref<1x3x2x2xf32>, memref<2xf16>) outs(%y : memref<1x3x2x2xf16>) {
  ^bb0(%c: f32, %b: f16, %o: f16):
    %bw = arith.extf %b : f16 to f32
    %s = arith.addf %c, %bw : f32
    %u = arith.maximumf %s, %zero : f32
    %h = arith.truncf %u : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %buf : memref<1x3x2x2xf32>
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Tests that an epilogue is not fused when something touching memory runs
// between it and the conv (the call in its place would read x later than
// the conv did): the conv alone becomes a call, and a 16-bit conv
// without its epilogue is an internal error (cuDNN would store 16 bits).
// CHECK-LABEL: func.func @apart(
// CHECK: call @tfaot_rt_cuda_conv({{.*}}, %c1_i32)
// CHECK: memref.copy
// CHECK: linalg.generic
func.func @apart(%x: memref<1x3x3x1xf32>, %w: memref<2x1x2x1xf32>, %y: memref<1x3x2x2xf32>, %other: memref<1x3x3x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1x3x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x3x2x2xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue}
       ins(%x, %w : memref<1x3x3x1xf32>, memref<2x1x2x1xf32>) outs(%buf : memref<1x3x2x2xf32>)
  memref.copy %other, %x : memref<1x3x3x1xf32> to memref<1x3x3x1xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf : memref<1x3x2x2xf32>) outs(%y : memref<1x3x2x2xf32>) {
  ^bb0(%c: f32, %o: f32):
    %u = arith.maximumf %c, %zero : f32
    linalg.yield %u : f32
  }
  memref.dealloc %buf : memref<1x3x2x2xf32>
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests a conv + bias + ReLU6 epilogue (MobileNetV2's block): one call,
// flags 105 = TF32 (1) | bias (8) | ReLU (32) | ReLU6 (64), which the
// runtime gives cuDNN as CLIPPED_RELU with a ceiling of 6. Emulated, the
// ReLU's max is followed by a min with 6 under the ReLU6 bit.
// CHECK-LABEL: func.func @relu6(
// CHECK: call @tfaot_rt_cuda_conv({{.*}}, %c105_i32)
// CHECK-NOT: linalg.
// CHECK: return
// EMU-LABEL: func.func @relu6(
// EMU: func.func private @tfaot_emulated_conv_f32(
// EMU: arith.maximumf
// EMU: arith.select
// EMU: arith.minimumf %{{.*}}, %cst_{{[0-9]*}}
// EMU: arith.select
// EMU: llvm.store
func.func @relu6(%x: memref<1x3x3x1xf32>, %w: memref<2x1x2x1xf32>, %bias: memref<2xf32>, %y: memref<1x3x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %buf = memref.alloc() : memref<1x3x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x3x2x2xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue}
       ins(%x, %w : memref<1x3x3x1xf32>, memref<2x1x2x1xf32>) outs(%buf : memref<1x3x2x2xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias : memref<1x3x2x2xf32>, memref<2xf32>) outs(%y : memref<1x3x2x2xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    %r = arith.maximumf %s, %zero : f32
    %u = arith.minimumf %r, %six : f32
    linalg.yield %u : f32
  }
  memref.dealloc %buf : memref<1x3x2x2xf32>
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests a ReLU capped at 5, which cuDNN's call cannot take: the conv is
// called alone (flags 1 = TF32) and the epilogue stays a generic.
// CHECK-LABEL: func.func @relu5(
// CHECK: call @tfaot_rt_cuda_conv({{.*}}, %c1_i32)
// CHECK: linalg.generic
// CHECK: arith.minimumf
func.func @relu5(%x: memref<1x3x3x1xf32>, %w: memref<2x1x2x1xf32>, %bias: memref<2xf32>, %y: memref<1x3x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %five = arith.constant 5.0 : f32
  %buf = memref.alloc() : memref<1x3x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x3x2x2xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue}
       ins(%x, %w : memref<1x3x3x1xf32>, memref<2x1x2x1xf32>) outs(%buf : memref<1x3x2x2xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias : memref<1x3x2x2xf32>, memref<2xf32>) outs(%y : memref<1x3x2x2xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    %r = arith.maximumf %s, %zero : f32
    %u = arith.minimumf %r, %five : f32
    linalg.yield %u : f32
  }
  memref.dealloc %buf : memref<1x3x2x2xf32>
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests an epilogue that bufferization wrote in place over the 1x1 conv's
// input %x (dead after the conv): one call cannot read x while writing it,
// so the call writes a temporary (1x2x2x2, flags 9 = TF32 | bias) that is
// copied into %x after it.
// CHECK-LABEL: func.func @in_place(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<1x2x2x2xf32>
// CHECK: %[[T:.*]] = memref.alloc() : memref<1x2x2x2xf32>
// CHECK: %[[TP:.*]] = memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: %[[TA:.*]] = arith.index_cast %[[TP]]
// CHECK: call @tfaot_rt_cuda_conv(%c0_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %[[TA]], {{.*}}, %c9_i32)
// CHECK-NEXT: memref.copy %[[T]], %[[X]]
// CHECK-NEXT: memref.dealloc %[[T]]
func.func @in_place(%x: memref<1x2x2x2xf32>, %w: memref<2x1x1x2xf32>, %bias: memref<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1x2x2x2xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x2x2xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue}
       ins(%x, %w : memref<1x2x2x2xf32>, memref<2x1x1x2xf32>) outs(%buf : memref<1x2x2x2xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias : memref<1x2x2x2xf32>, memref<2xf32>) outs(%x : memref<1x2x2x2xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<1x2x2x2xf32>
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests a 3x3 conv of an input padded by 1 on every side of H and W (as
// bufferization writes a tensor.pad: an alloc, a map yielding zero, a copy
// into its interior): the call reads the unpadded %x (N H W C = 1 4 4 2)
// and pads 1 x 1 itself; the alloc, map, subview and copy go. The
// emulation then checks each tap's row and column against H and W.
// CHECK-LABEL: func.func @symmetric_pad(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<1x4x4x2xf32>
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.map
// CHECK-NOT: memref.subview
// CHECK-DAG: %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK-DAG: %[[XA:.*]] = arith.index_cast %[[XP]]
// CHECK: call @tfaot_rt_cuda_conv(%c0_i64, %[[XA]], %{{.*}}, %{{.*}}, %c0_i64, %{{.*}}, %c1_i64, %c4_i64, %c4_i64, %c2_i64, %c3_i64, %c3_i64, %c3_i64, %c4_i64, %c4_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c41_i32)
// CHECK-NOT: memref.alloc
// CHECK: return
// EMU-LABEL: func.func @symmetric_pad(
// EMU: func.func private @tfaot_emulated_conv_f32(
// EMU: arith.subi
// EMU: arith.subi
// EMU: arith.cmpi sge
// EMU: arith.cmpi slt
// EMU: scf.if
// EMU: llvm.load
// EMU: } else {
// EMU: scf.yield %cst
func.func @symmetric_pad(%x: memref<1x4x4x2xf32>, %w: memref<3x3x3x2xf32>, %bias: memref<3xf32>, %y: memref<1x4x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x6x6x2xf32>
  linalg.map outs(%padded : memref<1x6x6x2xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %inner = memref.subview %padded[0, 1, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1] : memref<1x6x6x2xf32> to memref<1x4x4x2xf32, strided<[72, 12, 2, 1], offset: 14>>
  memref.copy %x, %inner : memref<1x4x4x2xf32> to memref<1x4x4x2xf32, strided<[72, 12, 2, 1], offset: 14>>
  %buf = memref.alloc() : memref<1x4x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x4x4x3xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tfaot.cudnn_fused_epilogue, tfaot.cudnn_padded_input}
       ins(%padded, %w : memref<1x6x6x2xf32>, memref<3x3x3x2xf32>) outs(%buf : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias : memref<1x4x4x3xf32>, memref<3xf32>) outs(%y : memref<1x4x4x3xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    %u = arith.maximumf %s, %zero : f32
    linalg.yield %u : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>

// Tests TF's SAME padding of a stride-2 conv of an even input: 0 before,
// 1 after, which cuDNN's legacy call cannot take: the padded buffer stays,
// the call reads it unpadded (pads 0 0).
// CHECK-LABEL: func.func @asymmetric_pad(
// CHECK: %[[PADDED:.*]] = memref.alloc() : memref<1x5x5x2xf32>
// CHECK: memref.copy
// CHECK: %[[PP:.*]] = memref.extract_aligned_pointer_as_index %[[PADDED]]
// CHECK: %[[PA:.*]] = arith.index_cast %[[PP]]
// CHECK: call @tfaot_rt_cuda_conv(%c0_i64, %[[PA]], {{.*}}, %c1_i64, %c5_i64, %c5_i64, %c2_i64, %c3_i64, %c3_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %c41_i32)
func.func @asymmetric_pad(%x: memref<1x4x4x2xf32>, %w: memref<3x3x3x2xf32>, %bias: memref<3xf32>, %y: memref<1x2x2x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x5x5x2xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x5x5x2xf32>)
  %inner = memref.subview %padded[0, 0, 0, 0] [1, 4, 4, 2] [1, 1, 1, 1] : memref<1x5x5x2xf32> to memref<1x4x4x2xf32, strided<[50, 10, 2, 1]>>
  memref.copy %x, %inner : memref<1x4x4x2xf32> to memref<1x4x4x2xf32, strided<[50, 10, 2, 1]>>
  %buf = memref.alloc() : memref<1x2x2x3xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x2x3xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, tfaot.cudnn_fused_epilogue, tfaot.cudnn_padded_input}
       ins(%padded, %w : memref<1x5x5x2xf32>, memref<3x3x3x2xf32>) outs(%buf : memref<1x2x2x3xf32>)
  linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%buf, %bias : memref<1x2x2x3xf32>, memref<3xf32>) outs(%y : memref<1x2x2x3xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    %u = arith.maximumf %s, %zero : f32
    linalg.yield %u : f32
  }
  return
}

// -----

// Tests two convolutions whose zero outputs bufferization copied from one
// shared zero-filled buffer (CSE merged their fills): both copies go with
// the calls, and the shared buffer and its fill with the last of them.
// CHECK-LABEL: func.func @shared_zeros(
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: call @tfaot_rt_cuda_conv(
// CHECK-NOT: memref.copy
// CHECK: call @tfaot_rt_cuda_conv(
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @shared_zeros(%x: memref<1x3x3x1xf32>, %w: memref<2x1x1x1xf32>, %y1: memref<1x3x3x2xf32>, %y2: memref<1x3x3x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %zeros = memref.alloc() : memref<1x3x3x2xf32>
  linalg.fill ins(%zero : f32) outs(%zeros : memref<1x3x3x2xf32>)
  memref.copy %zeros, %y1 : memref<1x3x3x2xf32> to memref<1x3x3x2xf32>
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : memref<1x3x3x1xf32>, memref<2x1x1x1xf32>) outs(%y1 : memref<1x3x3x2xf32>)
  memref.copy %zeros, %y2 : memref<1x3x3x2xf32> to memref<1x3x3x2xf32>
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : memref<1x3x3x1xf32>, memref<2x1x1x1xf32>) outs(%y2 : memref<1x3x3x2xf32>)
  return
}
