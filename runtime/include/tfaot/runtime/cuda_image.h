//===- cuda_image.h - Layout of the kernel image in a CUDA object -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot compile --target=cuda` embeds one kernel image per entry function in
// the host object; the runtime (tfaot_cuda_runtime) reads it when the first
// kernel of a Run() is launched. Plain constants, shared by the compiler
// (writer) and the runtime (reader), so it must stay free of LLVM and CUDA.
//
// Layout (little endian, offsets from the image's start):
//    0  char[8]  kCudaImageMagic
//    8  uint32   arch: compute capability as major*10+minor (90 = sm_90)
//   12  uint32   0 (reserved)
//   16  uint64   cubin offset   24  uint64 cubin size (0: no cubin)
//   32  uint64   PTX offset     40  uint64 PTX size (without its NUL)
//   48  ...      cubin (64-byte aligned), then the PTX text and a NUL
//
// The cubin runs only on GPUs of the same major version and at least the
// same minor version; the PTX is the fallback for newer GPUs, which the
// driver compiles when the module is loaded.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CUDA_IMAGE_H
#define TFAOT_RUNTIME_CUDA_IMAGE_H

#include <cstddef>
#include <cstdint>

namespace tfaot::cuda_image {

/// The `flags` bits of tfaot_rt_cuda_gemm and tfaot_rt_cuda_gemm_s8, the
/// runtime's cuBLAS entries that host code calls (backends/gpu/HostLaunch.h):
/// both sides use these. (TF32 applies to the f32 GEMM only.)
constexpr int kGemmAllowTf32 = 1;
/// C = A B instead of C += A B (the product's zero fill was dropped).
constexpr int kGemmOverwrite = 2;

/// The `flags` bits of tfaot_rt_cuda_conv, the runtime's cuDNN entry
/// (--gpu_conv=cudnn): the data type of x, w, z and y (f32 unless one of
/// the 16-bit bits is set; the arithmetic is f32 either way), TF32 for the
/// f32 convolution, and which parts of the fused epilogue
/// y = relu?(conv(x, w) + z? + bias?) the call carries; kConvRelu6 (with
/// kConvRelu) caps the ReLU at 6: y = min(max(..., 0), 6).
constexpr int kConvAllowTf32 = 1;
constexpr int kConvF16 = 2;
constexpr int kConvBF16 = 4;
constexpr int kConvBias = 8;
constexpr int kConvResidual = 16;
constexpr int kConvRelu = 32;
constexpr int kConvRelu6 = 64;

constexpr char kMagic[8] = {'T', 'F', 'A', 'O', 'T', 'C', 'U', '1'};
constexpr size_t kHeaderBytes = 48;
constexpr size_t kArchOffset = 8;
constexpr size_t kCubinOffset = 16;
constexpr size_t kCubinSize = 24;
constexpr size_t kPtxOffset = 32;
constexpr size_t kPtxSize = 40;
constexpr size_t kCubinAlignment = 64;

} // namespace tfaot::cuda_image

#endif // TFAOT_RUNTIME_CUDA_IMAGE_H
