// RUN: tfaot-opt %s --tfaot-gpu-bufferize=cublas=false --tfaot-gpu-kernels=cublas=false --tfaot-gpu-to-nvvm | FileCheck %s
// RUN: tfaot-opt %s --tfaot-gpu-bufferize=cublas=false --tfaot-gpu-kernels=cublas=false --tfaot-gpu-to-nvvm=arch=sm_80 | FileCheck %s --check-prefix=SM80

// Tests the last GPU stage: the host function takes one bare pointer per
// buffer and launches with LLVM-typed operands (what HostLaunch.cpp turns
// into runtime calls); the kernels are one gpu.binary of PTX for sm_90 with
// PTX ISA 8.0 (LLVM's default is older than ptxas accepts for sm_90), whose
// matmul loads from global memory and accumulates with FMAs.
// CHECK: llvm.func @matmul_relu(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: gpu.launch_func @tfaot_kernels::@matmul_relu_kernel blocks in ({{.*}}) threads in ({{.*}}) : i64 args({{.*}}: !llvm.ptr)
// CHECK: gpu.launch_func @tfaot_kernels::@matmul_relu_kernel_0 {{.*}} : i64 args({{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr)
// CHECK: gpu.launch_func @tfaot_kernels::@matmul_relu_kernel_1
// CHECK-NEXT: llvm.return
// CHECK: gpu.binary @tfaot_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME: assembly = "
// CHECK-SAME: .version 8.0
// CHECK-SAME: .target sm_90
// CHECK-SAME: .visible .entry matmul_relu_kernel(
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-SAME: .visible .entry matmul_relu_kernel_0(
// CHECK-SAME: ld.global.b32
// CHECK-SAME: fma.rn.f32
// CHECK-SAME: .visible .entry matmul_relu_kernel_1(
// CHECK-SAME: max.NaN.f32
// SM80: .target sm_80
func.func @matmul_relu(%x: tensor<3x4xf32>, %w: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = tfaot.MatMul %x, %w : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %1 = tfaot.Relu %0 : tensor<3x5xf32>
  return %1 : tensor<3x5xf32>
}
