// RUN: tfaot-opt %s --tfaot-cpu-bufferize | FileCheck %s --check-prefix=BUF
// RUN: tfaot-opt %s --tfaot-cpu-bufferize --tfaot-cpu-to-llvm | FileCheck %s --check-prefix=LLVM

// Tests the two CPU pipelines: weights become a constant global, the result
// an out-parameter written in place (no copy), Relu fuses into ArgMax's
// reduction, and the LLVM form takes plain pointers.

// BUF: memref.global "private" constant @[[W:.*]] : memref<3x4xf32> = dense<5.000000e-01>
// BUF-LABEL: func.func @mlp
// BUF-SAME: (%[[X:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<2xi64>)
// BUF: memref.get_global @[[W]]
// BUF: linalg.matmul
// BUF: linalg.generic {{.*}} outs(%{{.*}}, %[[OUT]] : memref<2xf32>, memref<2xi64>)
// BUF: arith.maximumf
// BUF: arith.cmpf ogt
// BUF-NOT: memref.copy
// BUF: return{{$}}

// LLVM: llvm.func @free(!llvm.ptr)
// LLVM: llvm.func @malloc(i64) -> !llvm.ptr
// LLVM: llvm.func @mlp(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
func.func @mlp(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %w = tfaot.Const dense<0.5> : tensor<3x4xf32>
  %mm = tfaot.MatMul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %r = tfaot.Relu %mm : tensor<2x4xf32>
  %d = tfaot.Const dense<1> : tensor<i32>
  %a = tfaot.ArgMax %r, %d : (tensor<2x4xf32>, tensor<i32>) -> tensor<2xi64>
  return %a : tensor<2xi64>
}
