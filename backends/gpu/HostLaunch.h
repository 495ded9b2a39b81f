//===- HostLaunch.h - Kernel launches as calls into the runtime -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The host half of a CUDA entry, after --tfaot-gpu-to-nvvm, is an LLVM
// dialect function that computes addresses and holds gpu.launch_func ops.
// Upstream (LLVM 22's #gpu.select_object translation) would emit, per
// kernel module, a global constructor calling mgpuModuleLoad (cubin) or
// mgpuModuleLoadJIT (PTX) at program start and a destructor calling
// mgpuModuleUnload, and per launch mgpuModuleGetFunction, mgpuStreamCreate,
// mgpuLaunchKernel, mgpuStreamSynchronize and mgpuStreamDestroy (gpu.alloc,
// gpu.memcpy and friends would add mgpuMemAlloc, mgpuMemFree, mgpuMemcpy).
// tfaot instead calls its own small ABI, implemented in runtime/lib/cuda:
//
//   void  tfaot_rt_cuda_launch(const void *image, const char *kernel,
//                              i64 grid_x, grid_y, grid_z,
//                              i64 block_x, block_y, block_z,
//                              i32 shared_bytes, void **params);
//   void *tfaot_rt_cuda_constant(const void *host, i64 bytes);
//   void *tfaot_rt_cuda_alloc(i64 bytes);   void tfaot_rt_cuda_free(void *);
//   void  tfaot_rt_cuda_gemm(i64 a, i64 b, i64 c, i64 batch, i64 m, i64 n,
//                            i64 k, i64 lda, i64 ldb, i64 ldc, i64 stride_a,
//                            i64 stride_b, i64 stride_c, i32 flags);
//
//   void  tfaot_rt_cuda_gemm_s8(...the same arguments...);
//   void  tfaot_rt_cuda_gemm_f16(...);   void tfaot_rt_cuda_gemm_bf16(...);
//   i64   tfaot_rt_cuda_read_scalar(i64 address, i64 bytes);
//   void  tfaot_rt_cuda_conv(i64 site, i64 x, i64 w, i64 bias, i64 z,
//                            i64 y, i64 n, i64 h, i64 w_in, i64 c, i64 k,
//                            i64 r, i64 s, i64 oh, i64 ow, i64 stride_h,
//                            i64 stride_w, i64 dilation_h, i64 dilation_w,
//                            i64 pad_h, i64 pad_w, i32 flags,
//                            const char *layer);
//
// The GEMMs (from tfaot-gpu-matmuls-to-cublas, MatmulsToCublas.cpp) are a
// row-major f32 C[m,n] += A[m,k] B[k,n], `batch` times, the addresses as
// integers and the leading dimensions and batch strides in elements, and
// its int8 form, int32 C[m,n] += A[m,k] B[n,k]^T with int8 A and B (B is
// stored transposed, ldb its row stride), and its 16-bit forms, f32 C[m,n]
// += A[m,k] B[k,n] with f16 or bf16 A and B (--precision=fp16|bf16) summed
// in fp32; the runtime runs them with cuBLAS on the run's stream.
// The convolution (from tfaot-gpu-cudnn-calls, CudnnCalls.cpp, with
// --gpu_conv=cudnn) is y[n,oh,ow,k] = relu?(sum over r,s,c of
// x[n, oh*stride_h + r*dilation_h - pad_h, ow*stride_w + s*dilation_w -
// pad_w, c] * w[k,r,s,c] + z[n,oh,ow,k]? + bias[k]?), x read as zero
// outside its H x W (pad_h and pad_w zeros on each side), NHWC x, z and y
// and KRSC w, dense, in the element type of its flags (cuda_image.h), f32
// sums; `site` numbers the model's convolutions, so that the runtime makes
// each one's cuDNN descriptors once per instance, and `layer` is its TF
// node's name, for errors (added by lowerHostLaunches: tfaot-gpu-cudnn-calls
// declares the call without it). cuDNN runs it.
//
// tfaot_rt_cuda_read_scalar copies `bytes` (1 to 8) at a device address to
// the host once the kernels before it have run, and returns them
// zero-extended: the predicate, loop condition or switch index of a host
// branch, loop or switch (tfaot-gpu-read-decisions). A model that calls it
// decides on the host between launches, so the runtime never captures it
// into a CUDA graph (a replay would repeat the first run's decisions).
//
// The runtime functions that work on host memory (NonMaxSuppression and
// Where, data_dependent.h) run on host copies of their device buffers
// (tfaot-gpu-stage-host-calls, StageHostCalls.cpp):
//
//   i64   tfaot_rt_cuda_host_buffer(i64 bytes);
//   void  tfaot_rt_cuda_copy_to_host(i64 host, i64 device, i64 bytes);
//   void  tfaot_rt_cuda_copy_to_device(i64 device, i64 host, i64 bytes);
//
// host_buffer returns a zeroed host buffer that lives until the Run() has
// synchronized; copy_to_host copies once the kernels before it have run
// and waits for it; copy_to_device queues the copy on the run's stream,
// before the kernels after it. Like read_scalar they make the model one
// the runtime never captures into a CUDA graph.
//
// Why our own: nothing runs at load time (a program linking a CUDA model
// starts, and reports "no CUDA driver" from Run(), on machines without
// one); the image is loaded lazily into the context of the instance that
// runs it, with its cubin or PTX picked for the device; every failure
// lands in that instance's error_msg() instead of aborting; and the calls
// carry no CUDA types, so the object links against nothing CUDA-specific.
// The runtime knows which instance is running from Run() (thread-local).
//
// Weights (constant globals the kernels read) stay in the host object; each
// use goes through tfaot_rt_cuda_constant, which uploads it on the instance's
// first Run() and returns the device copy afterwards. Heap temporaries the
// buffer plan did not place in the arena use tfaot_rt_cuda_alloc/free.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_HOSTLAUNCH_H
#define TFAOT_BACKENDS_GPU_HOSTLAUNCH_H

#include "tfaot/runtime/symbols.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>

namespace tfaot::gpu {

/// The runtime's GEMM entry points are above (tfaot/runtime/symbols.h names
/// them); their `flags` bits are in runtime/include/tfaot/runtime/cuda_image.h.
/// What --gpu_emulate builds call instead: the same contracts, defined in
/// the object by tfaot-gpu-define-emulated-gemm (DefineEmulatedGemm.cpp).
constexpr char kEmulatedGemmFunction[] = "tfaot_emulated_gemm";
constexpr char kEmulatedGemmF16Function[] = "tfaot_emulated_gemm_f16";
constexpr char kEmulatedGemmBF16Function[] = "tfaot_emulated_gemm_bf16";
constexpr char kEmulatedGemmS8Function[] = "tfaot_emulated_gemm_s8";
/// tfaot_rt_cuda_conv's twins (DefineEmulatedConv.cpp), one per element
/// type of x, w, z and y (the real entry reads it from its flags).
constexpr char kEmulatedConvF32Function[] = "tfaot_emulated_conv_f32";
constexpr char kEmulatedConvF16Function[] = "tfaot_emulated_conv_f16";
constexpr char kEmulatedConvBF16Function[] = "tfaot_emulated_conv_bf16";

/// The runtime GEMMs, by their inputs: f32, f16 or bf16 into f32 C, or
/// int8 with B transposed into int32 C.
enum class GemmKind { F32, F16, BF16, S8 };
inline constexpr GemmKind kGemmKinds[] = {GemmKind::F32, GemmKind::F16,
                                          GemmKind::BF16, GemmKind::S8};

/// The GEMM entry for a product of `kind`, real or emulated.
inline const char *gemmFunction(GemmKind kind, bool emulated) {
  switch (kind) {
  case GemmKind::F32:
    return emulated ? kEmulatedGemmFunction : tfaot_rt::kCudaGemm;
  case GemmKind::F16:
    return emulated ? kEmulatedGemmF16Function : tfaot_rt::kCudaGemmF16;
  case GemmKind::BF16:
    return emulated ? kEmulatedGemmBF16Function : tfaot_rt::kCudaGemmBF16;
  case GemmKind::S8:
    return emulated ? kEmulatedGemmS8Function : tfaot_rt::kCudaGemmS8;
  }
  return nullptr;
}

/// Whether `name` is one of the runtime's GEMM entries (host code may call
/// them with device addresses).
inline bool isRuntimeGemm(llvm::StringRef name) {
  return llvm::any_of(kGemmKinds, [&](GemmKind kind) {
    return name == gemmFunction(kind, /*emulated=*/false);
  });
}

/// Whether `name` is a runtime entry that runs a library on device
/// addresses: a GEMM (cuBLAS) or the convolution (cuDNN).
inline bool isRuntimeLibraryCall(llvm::StringRef name) {
  return isRuntimeGemm(name) || name == tfaot_rt::kCudaConv;
}

/// Whether host code may call `name`: a library entry above,
/// tfaot_rt_cuda_read_scalar (the scalar a host branch or loop decides on,
/// tfaot-gpu-read-decisions) or the host copies around a runtime call on
/// host memory (tfaot-gpu-stage-host-calls).
inline bool isRuntimeHostCall(llvm::StringRef name) {
  return isRuntimeLibraryCall(name) || name == tfaot_rt::kCudaReadScalar ||
         name == tfaot_rt::kCudaHostBuffer ||
         name == tfaot_rt::kCudaCopyToHost ||
         name == tfaot_rt::kCudaCopyToDevice;
}

/// A runtime function that reads and writes host memory through its first
/// `addresses` operands (data_dependent.h), and which of them it writes
/// (bit i of `written`).
struct HostMemoryCall {
  const char *name;
  unsigned addresses;
  uint32_t written;
  bool writes(unsigned i) const { return written >> i & 1; }
};

/// NonMaxSuppression writes its indices, scores and count (operands 6-8);
/// Where its index and count (2-3).
inline constexpr HostMemoryCall kHostMemoryCalls[] = {
    {tfaot_rt::kNonMaxSuppression, 10, 0b111 << 6},
    {tfaot_rt::kWhere, 4, 0b11 << 2},
};

/// The description of `name` if it is such a function, else null.
inline const HostMemoryCall *hostMemoryCall(llvm::StringRef name) {
  for (const HostMemoryCall &call : kHostMemoryCalls)
    if (name == call.name)
      return &call;
  return nullptr;
}

/// The mark tfaot-gpu-stage-host-calls leaves on a call of such a function
/// once its device buffers are host copies: host code may then make it.
constexpr char kOnHostCopiesAttr[] = "tfaot.on_host_copies";

/// Constant globals host code reads itself (a node's name, Where's dims)
/// are named with this prefix: lowerHostLaunches leaves them in host memory
/// instead of redirecting them to a device copy.
constexpr llvm::StringLiteral kHostOnlyGlobalPrefix = "__tfaot_host_";

/// Rewrites `module` (host code in the LLVM dialect plus its gpu.binary) into
/// plain LLVM dialect: embeds `image` (packImage's bytes), turns launches,
/// weight references and heap allocations into the runtime calls above and
/// drops the gpu.binary. False, with `error` set, if host code does anything
/// else with memory (an internal error: tfaot-gpu-check-host-code should
/// have caught it).
bool lowerHostLaunches(mlir::ModuleOp module, const std::string &image,
                       std::string &error);

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_HOSTLAUNCH_H
