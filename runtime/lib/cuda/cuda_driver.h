//===- cuda_driver.h - The CUDA driver API, loaded at run time --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to tfaot_cuda_runtime. The driver (libcuda.so.1) is opened with
// dlopen the first time a CUDA model runs, not linked: programs that link a
// CUDA model build and start on machines without CUDA, and Run() says why it
// cannot run there. Only the handful of entry points the runtime calls are
// resolved; their types are declared here (ABI-stable since CUDA 4, the _v2
// names since 3.2), so building needs no CUDA headers either.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CUDA_CUDA_DRIVER_H
#define TFAOT_RUNTIME_CUDA_CUDA_DRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tfaot::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;

constexpr CUresult kSuccess = 0;
constexpr CUresult kErrorOutOfMemory = 2;
constexpr CUresult kErrorStubLibrary = 34;
constexpr CUresult kErrorNoDevice = 100;
constexpr CUresult kErrorInvalidImage = 200;
constexpr CUresult kErrorNoBinaryForGpu = 209;
constexpr CUresult kErrorUnsupportedPtxVersion = 222;
constexpr int kAttributeComputeCapabilityMajor = 75;
constexpr int kAttributeComputeCapabilityMinor = 76;
constexpr unsigned kStreamNonBlocking = 1;
/// CU_STREAM_CAPTURE_MODE_RELAXED: other threads' CUDA calls are not
/// restricted while an instance captures its Run().
constexpr int kStreamCaptureModeRelaxed = 2;

/// The resolved driver entry points.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxPushCurrent)(CUcontext);
  CUresult (*cuCtxPopCurrent)(CUcontext *);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  /// The allocation holding a device address (base and size): how a
  /// caller's device buffer (set_arg_device_ptr) is checked.
  CUresult (*cuMemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  /// CUDA graphs (CUDA 11.4+ drivers); all null if any is missing, and
  /// Run() then launches kernel by kernel.
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph,
                                          unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
};

/// The driver, loaded and initialized (cuInit) once per process; null, with
/// `why` set ("no CUDA driver: ..."), if that failed. $TFAOT_LIBCUDA names
/// another library to open instead of libcuda.so.1 (tests use the toolkit's
/// stub).
const Driver *LoadDriver(std::string *why);

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for `result`.
std::string DescribeError(const Driver &driver, CUresult result);

} // namespace tfaot::cuda

#endif // TFAOT_RUNTIME_CUDA_CUDA_DRIVER_H
