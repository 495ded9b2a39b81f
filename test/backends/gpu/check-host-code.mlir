// RUN: tfaot-opt %s --tfaot-gpu-check-host-code -split-input-file -verify-diagnostics | FileCheck %s

// Tests that host code that only computes addresses and launches kernels
// passes unchanged: constants, index arithmetic, allocations, views,
// launches and the runtime's cuBLAS entry (which takes device addresses by
// value).
// CHECK-LABEL: func.func @launch_only
// CHECK: memref.alloc
// CHECK: memref.subview
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: gpu.launch_func @tfaot_kernels::@k
// CHECK: call @tfaot_rt_cuda_gemm
// CHECK: memref.dealloc
module attributes {gpu.container_module} {
  func.func private @tfaot_rt_cuda_gemm(index)
  func.func @launch_only(%x: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<8xf32>
    %v = memref.subview %t[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    %p = memref.extract_aligned_pointer_as_index %x : memref<8xf32> -> index
    gpu.launch_func @tfaot_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%v : memref<4xf32, strided<[1], offset: 4>>)
    func.call @tfaot_rt_cuda_gemm(%p) : (index) -> ()
    memref.dealloc %t : memref<8xf32>
    return
  }
  gpu.module @tfaot_kernels {
    gpu.func @k(%v: memref<4xf32, strided<[1], offset: 4>>) kernel {
      gpu.return
    }
  }
}

// -----

// Tests that a load, a store and a loop left in host code are each
// reported (they would touch device memory from the CPU), and so is a call
// to any other function, which runs on the CPU only.
func.func private @cpu_only(memref<4xf32>)
func.func @host_work(%x: memref<4xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{cannot run on the GPU: 'memref.load' is left in host code, where it would access device memory}}
  %v = memref.load %x[%c0] : memref<4xf32>
  // expected-error @+1 {{cannot run on the GPU: 'memref.store' is left in host code, where it would access device memory}}
  memref.store %v, %s[] : memref<f32>
  // expected-error @+1 {{cannot run on the GPU: 'scf.for' is left in host code, where it would access device memory}}
  scf.for %i = %c0 to %c4 step %c1 {
  }
  // expected-error @+1 {{cannot run on the GPU: it calls 'cpu_only', which runs on the CPU only}}
  func.call @cpu_only(%x) : (memref<4xf32>) -> ()
  return
}

// -----

// Tests that declarations are not checked.
// CHECK-LABEL: func.func private @external
func.func private @external(memref<4xf32>)
