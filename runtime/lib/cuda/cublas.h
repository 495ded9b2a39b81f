//===- cublas.h - cuBLAS, loaded at run time ---------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to tfaot_cuda_runtime. Models compiled with --gpu_gemm=cublas
// (the default) hand their f32 and int8 matrix products and convolutions
// (as im2col + GEMM) to cuBLAS, and with --precision=fp16|bf16 their
// 16-bit ones. Like the driver, libcublas is opened with dlopen on
// first use, so that programs build, link and start without it, and a
// missing library is an error_msg(), not a loader failure. The few entry
// points used are declared here (their C ABI is stable across CUDA 11-13).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CUDA_CUBLAS_H
#define TFAOT_RUNTIME_CUDA_CUBLAS_H

#include "cuda_driver.h"

#include <string>

namespace tfaot::cuda {

using CublasStatus = int;
using CublasHandle = struct cublasContext *;

constexpr CublasStatus kCublasSuccess = 0;
constexpr int kCublasOpN = 0;
constexpr int kCublasOpT = 1;
constexpr int kCublasDefaultMath = 0;
constexpr int kCublasTf32TensorOpMath = 3;
// cudaDataType, cublasComputeType_t and cublasGemmAlgo_t values
// (library_types.h, cublas_api.h).
constexpr int kCudaR32F = 0;
constexpr int kCudaR16F = 2;
constexpr int kCudaR8I = 3;
constexpr int kCudaR32I = 10;
constexpr int kCudaR16BF = 14;
constexpr int kCublasCompute32F = 68;
constexpr int kCublasCompute32I = 72;
constexpr int kCublasGemmDefault = -1;

struct Cublas {
  CublasStatus (*cublasCreate)(CublasHandle *);
  CublasStatus (*cublasDestroy)(CublasHandle);
  CublasStatus (*cublasSetStream)(CublasHandle, CUstream);
  CublasStatus (*cublasSetMathMode)(CublasHandle, int);
  CublasStatus (*cublasSgemmStridedBatched)(
      CublasHandle, int transa, int transb, int m, int n, int k,
      const float *alpha, const float *a, int lda, long long stride_a,
      const float *b, int ldb, long long stride_b, const float *beta,
      float *c, int ldc, long long stride_c, int batch);
  /// For the int8 and 16-bit GEMMs (cuBLAS 11+); looked up but not
  /// required, so that f32 models run with a library that lacks it.
  CublasStatus (*cublasGemmStridedBatchedEx)(
      CublasHandle, int transa, int transb, int m, int n, int k,
      const void *alpha, const void *a, int a_type, int lda,
      long long stride_a, const void *b, int b_type, int ldb,
      long long stride_b, const void *beta, void *c, int c_type, int ldc,
      long long stride_c, int batch, int compute_type, int algo);
  /// Optional (cuBLAS 11.4.2+): the status's name.
  const char *(*cublasGetStatusName)(CublasStatus);
};

/// cuBLAS, loaded once per process; null, with `why` set, if it cannot
/// be. Tries $TFAOT_LIBCUBLAS if set, else libcublas.so.13 and .12 from
/// the library path, then from $CUDA_HOME/lib64 and /usr/local/cuda/lib64.
const Cublas *LoadCublas(std::string *why);

/// "CUBLAS_STATUS_NOT_INITIALIZED" (or "cuBLAS status 1").
std::string DescribeCublasStatus(const Cublas &cublas, CublasStatus status);

} // namespace tfaot::cuda

#endif // TFAOT_RUNTIME_CUDA_CUBLAS_H
