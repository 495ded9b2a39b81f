// RUN: tfaot-opt %s --tfaot-gpu-merge-kernel-modules -split-input-file -verify-diagnostics | FileCheck %s

// Tests that the kernels of the gpu.modules outlining made (one per kernel,
// each kernel named after its function) move into one gpu.module,
// @tfaot_kernels, each renamed after the module it came from, and that
// every launch calls its kernel by the new name.
// CHECK-LABEL: func.func @entry
// CHECK: gpu.launch_func @tfaot_kernels::@entry_kernel blocks
// CHECK: gpu.launch_func @tfaot_kernels::@entry_kernel_0 blocks
// CHECK-NOT: gpu.module @entry_kernel
// CHECK: gpu.module @tfaot_kernels {
// CHECK-NEXT: gpu.func @entry_kernel(%{{.*}}: memref<8xf32>) kernel {
// CHECK-NEXT: %{{.*}} = arith.constant 1.0
// CHECK: gpu.func @entry_kernel_0(%{{.*}}: memref<8xf32>) kernel {
// CHECK-NEXT: %{{.*}} = arith.constant 2.0
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @entry(%x: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @entry_kernel::@entry_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%x : memref<8xf32>)
    gpu.launch_func @entry_kernel_0::@entry_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%x : memref<8xf32>)
    return
  }
  gpu.module @entry_kernel {
    gpu.func @entry_kernel(%x: memref<8xf32>) kernel {
      %one = arith.constant 1.0 : f32
      %i = gpu.thread_id x
      memref.store %one, %x[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @entry_kernel_0 {
    gpu.func @entry_kernel(%x: memref<8xf32>) kernel {
      %two = arith.constant 2.0 : f32
      %i = gpu.thread_id x
      memref.store %two, %x[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// Tests that a kernel module holding anything but kernels is an error.
module attributes {gpu.container_module} {
  // expected-error @+1 {{kernel module holds more than kernels; cannot merge}}
  gpu.module @helpers {
    func.func @f() {
      return
    }
  }
}
