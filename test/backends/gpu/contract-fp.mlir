// RUN: tfaot-opt %s --pass-pipeline='builtin.module(gpu.module(tfaot-gpu-contract-fp))' | FileCheck %s

// Tests that every floating-point op in a kernel module gets the
// `contract` fast-math flag (so ptxas may fuse a multiply and an add into
// an FMA, as nvcc does by default), keeping the flags it had, and that
// host functions outside the kernel module are left alone.
// CHECK-LABEL: func.func @host
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: gpu.module @tfaot_kernels
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %{{.*}} fastmath<nnan,contract> : f32
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[S]] fastmath<contract> : f32
// CHECK-NEXT: arith.cmpf olt, %[[N]], %{{.*}} fastmath<contract> : f32
module attributes {gpu.container_module} {
  func.func @host(%a: f32, %b: f32) -> f32 {
    %0 = arith.mulf %a, %b : f32
    return %0 : f32
  }
  gpu.module @tfaot_kernels {
    gpu.func @scale_shift(%x: memref<4xf32>, %a: f32, %b: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %p = arith.mulf %v, %a : f32
      %s = arith.addf %p, %b fastmath<nnan> : f32
      %n = arith.negf %s : f32
      %c = arith.cmpf olt, %n, %a : f32
      %r = arith.select %c, %n, %a : f32
      memref.store %r, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
}
