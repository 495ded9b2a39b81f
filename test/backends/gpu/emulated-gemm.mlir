// RUN: tfaot-opt %s --tfaot-gpu-define-emulated-gemm --canonicalize | FileCheck %s

// Tests the int8 GEMM of --gpu_emulate builds (tfaot_rt_cuda_gemm_s8's
// contract): C (i32, 4-byte elements) starts from 0 when flags has the
// overwrite bit (2), else from its old value; A[i][p] and B[j][p] (B is
// stored transposed) are bytes at base + batch * stride + row * ld + col,
// sign-extended and summed in i32. The f32 GEMM, declared beside it, gets
// its own body with f32 loads; both are local to the object.
// CHECK-LABEL: func.func private @tfaot_emulated_gemm_s8(
// CHECK-SAME: %[[A:[a-z0-9]+]]: i64, %[[B:[a-z0-9]+]]: i64, %[[C:[a-z0-9]+]]: i64, %[[BATCH:[a-z0-9]+]]: i64, %[[M:[a-z0-9]+]]: i64, %[[N:[a-z0-9]+]]: i64, %[[K:[a-z0-9]+]]: i64, %[[LDA:[a-z0-9]+]]: i64, %[[LDB:[a-z0-9]+]]: i64, %[[LDC:[a-z0-9]+]]: i64, %[[SA:[a-z0-9]+]]: i64, %[[SB:[a-z0-9]+]]: i64, %[[SC:[a-z0-9]+]]: i64, %[[FLAGS:[a-z0-9]+]]: i32)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK-DAG: %[[LDB_I:.*]] = arith.index_cast %[[LDB]] : i64 to index
// CHECK-DAG: %[[BIT:.*]] = arith.andi %[[FLAGS]], %c2_i32
// CHECK: scf.for %[[BI:.*]] = %c0 to
// CHECK: scf.for %[[I:.*]] = %c0 to
// CHECK: scf.for %[[J:.*]] = %c0 to
// CHECK: %[[CBYTES:.*]] = arith.muli %{{.*}}, %c4_i64 : i64
// CHECK: %[[CADDR:.*]] = arith.addi %[[C]], %[[CBYTES]]
// CHECK: %[[CPTR:.*]] = llvm.inttoptr %[[CADDR]]
// CHECK: %[[OLD:.*]] = llvm.load %[[CPTR]] : !llvm.ptr -> i32
// CHECK: %[[INIT:.*]] = arith.select %{{.*}}, %c0_i32, %[[OLD]] : i32
// CHECK: %[[SUM:.*]] = scf.for %[[P:.*]] = %c0 to %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (i32)
// CHECK: %[[AADDR:.*]] = arith.addi %[[A]], %{{.*}} : i64
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: %[[BROW:.*]] = arith.muli %[[LDB_I]], %[[J]] : index
// CHECK: %[[BOFF:.*]] = arith.addi %{{.*}}, %[[BROW]] : index
// CHECK: arith.addi %[[BOFF]], %[[P]] : index
// CHECK: %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: %[[XS:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK: %[[YS:.*]] = arith.extsi %[[Y]] : i8 to i32
// CHECK: %[[PROD:.*]] = arith.muli %[[XS]], %[[YS]] : i32
// CHECK: %[[NEXT:.*]] = arith.addi %[[ACC]], %[[PROD]] : i32
// CHECK: scf.yield %[[NEXT]]
// CHECK: llvm.store %[[SUM]], %[[CPTR]] : i32, !llvm.ptr
// CHECK-LABEL: func.func private @tfaot_emulated_gemm(
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: arith.mulf
// CHECK: arith.addf
// The 16-bit GEMMs (--precision=fp16|bf16): 2-byte A and B elements,
// widened exactly to f32 and summed in f32 into f32 C (4-byte elements).
// CHECK-LABEL: func.func private @tfaot_emulated_gemm_f16(
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK: %[[HC:.*]] = arith.muli %{{.*}}, %c4_i64 : i64
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[HA:.*]] = arith.muli %{{.*}}, %c2_i64 : i64
// CHECK: %[[HX:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f16
// CHECK: %[[HY:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f16
// CHECK: %[[WX:.*]] = arith.extf %[[HX]] : f16 to f32
// CHECK: %[[WY:.*]] = arith.extf %[[HY]] : f16 to f32
// CHECK: arith.mulf %[[WX]], %[[WY]] : f32
// CHECK: arith.addf
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr
// CHECK-LABEL: func.func private @tfaot_emulated_gemm_bf16(
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK: arith.extf %{{.*}} : bf16 to f32
func.func private @tfaot_emulated_gemm_s8(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
func.func private @tfaot_emulated_gemm(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
func.func private @tfaot_emulated_gemm_f16(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
func.func private @tfaot_emulated_gemm_bf16(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32)
