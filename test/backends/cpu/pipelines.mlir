// RUN: tfaot-opt %s --tfaot-cpu-bufferize | FileCheck %s --check-prefix=BUF
// RUN: tfaot-opt %s --tfaot-cpu-bufferize --tfaot-cpu-to-llvm | FileCheck %s --check-prefix=LLVM

// Tests the two CPU pipelines: weights become a constant global, the result
// an out-parameter written in place (no copy), Relu fuses into ArgMax's
// reduction, the two temporaries (32 + 8 bytes) are views of the arena
// argument at 64-byte aligned offsets instead of heap allocations, and the
// LLVM form takes plain pointers and never calls malloc or free.

// BUF: module attributes {tfaot.arena_bytes = 72 : i64, tfaot.naive_temp_bytes = 40 : i64, tfaot.peak_live_bytes = 40 : i64}
// BUF: memref.global "private" constant @[[W:.*]] : memref<3x4xf32> = dense<5.000000e-01>
// BUF-LABEL: func.func @mlp
// BUF-SAME: (%[[X:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<2xi64>, %[[ARENA:.*]]: memref<72xi8> {llvm.align = 64 : i64, llvm.noalias, tfaot.arena})
// BUF-NOT: memref.alloc
// BUF: memref.get_global @[[W]]
// BUF: memref.view %[[ARENA]][%{{.*}}][] : memref<72xi8> to memref<2x4xf32>
// BUF: linalg.matmul
// BUF: memref.view %[[ARENA]][%{{.*}}][] : memref<72xi8> to memref<2xf32>
// BUF: linalg.generic {{.*}} outs(%{{.*}}, %[[OUT]] : memref<2xf32>, memref<2xi64>)
// BUF: arith.maximumf
// BUF: arith.cmpf ogt
// BUF-NOT: memref.copy
// BUF-NOT: memref.dealloc
// BUF: return{{$}}

// LLVM-NOT: @malloc
// LLVM-NOT: @free
// LLVM: llvm.func @mlp(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias, tfaot.arena}) {
// LLVM-NOT: @malloc
// LLVM-NOT: @free
func.func @mlp(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %w = tfaot.Const dense<0.5> : tensor<3x4xf32>
  %mm = tfaot.MatMul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %r = tfaot.Relu %mm : tensor<2x4xf32>
  %d = tfaot.Const dense<1> : tensor<i32>
  %a = tfaot.ArgMax %r, %d : (tensor<2x4xf32>, tensor<i32>) -> tensor<2xi64>
  return %a : tensor<2xi64>
}
