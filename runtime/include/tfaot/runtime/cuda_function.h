//===- cuda_function.h - Base of tfaot-generated CUDA classes ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot compile --target=cuda` writes a class deriving from
// tfaot::CudaCompiledFunction. It keeps CompiledFunction's whole API
// (arguments and results are host buffers, named accessors, set_arg_data,
// error_msg); Run() copies the arguments to the GPU, launches the kernels,
// and copies the results back. Link libtfaot_cuda_runtime.a (and -ldl)
// besides libtfaot_runtime.a; nothing CUDA-specific is needed to link: the
// driver is opened with dlopen("libcuda.so.1") when an instance first runs.
//
// Device memory, per instance, allocated by the first Run() and kept until
// the instance is destroyed: one block holding the device copies of every
// argument and result and the arena of temporaries (kTempBytes, the same
// buffer plan as on CPU), plus the weights, uploaded once. The instance uses
// device 0's primary context, pushed around each Run() so that a caller's
// current context is left as it was.
//
// Failures never abort: Run() returns false and error_msg() starts with
// "no CUDA driver", "no CUDA device", "kernel image is not for this GPU
// (sm_XX)", "out of GPU memory" or "CUDA error" and says more.
//
// This header is part of the runtime: nothing from LLVM, MLIR or CUDA.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CUDA_FUNCTION_H
#define TFAOT_RUNTIME_CUDA_FUNCTION_H

#include "tfaot/runtime/compiled_function.h"

#include <memory>

namespace tfaot {

namespace internal {
/// Holds the FunctionInfo the CompiledFunction base runs: the generated one
/// with its entry replaced by the runtime's, which moves the data to and
/// from the GPU around the generated entry, and no host arena. A base
/// class so that it is constructed before CompiledFunction, which keeps a
/// reference to it.
struct CudaInfoHolder {
  explicit CudaInfoHolder(const FunctionInfo &generated);
  const FunctionInfo &generated_info;
  FunctionInfo host_info;
};
struct CudaDeviceState;
} // namespace internal

class CudaCompiledFunction : private internal::CudaInfoHolder,
                             public CompiledFunction {
public:
  explicit CudaCompiledFunction(const FunctionInfo &info,
                                AllocMode mode = AllocMode::kArgsAndResults);
  ~CudaCompiledFunction() override;

  /// Runs the function on the GPU: as CompiledFunction::Run(), plus the
  /// copies to and from the device. The first call also sets up the
  /// device (context, memory, weights, kernels). Returns false with
  /// error_msg() set on any failure; results are then unspecified.
  /// (Call it on this class or the generated one: CompiledFunction::Run()
  /// on a base reference fails with a message saying so.)
  bool Run();

  /// Runs on `cu_stream` (a CUstream of device 0's primary context, or
  /// one current when Run() is called) instead of the instance's own
  /// stream. Run() still returns after the results are copied back, with
  /// the stream synchronized. Null goes back to the instance's stream.
  void set_stream(void *cu_stream);

  /// Device memory this instance holds after its first Run(): arguments,
  /// results, arena and weights, in bytes (0 before).
  size_t device_bytes() const;

  // Device-resident data: for arguments produced and results consumed on
  // the GPU (by the caller's kernels, say), without going through the host.

  /// Sets the device up (context, stream, memory) without running, so that
  /// the device addresses below exist. False with error_msg() set on
  /// failure. Run() and RunDeviceResident() do it too.
  bool SetUpDevice();
  /// The device address (a CUdeviceptr) of argument / result `i`, kArgNBytes
  /// / kResultNBytes long, 256-byte aligned, fixed for the instance's life;
  /// 0 before the device is set up or for an index out of range.
  unsigned long long arg_device_ptr(size_t i) const;
  unsigned long long result_device_ptr(size_t i) const;
  /// Runs on the device copies as they are: nothing is copied in (write
  /// the arguments at arg_device_ptr(i) first, on the instance's stream or
  /// before the call) and the results stay at result_device_ptr(i). The
  /// host argument buffers must still be set, as for Run(), but are not
  /// read. Returns after the stream is synchronized.
  bool RunDeviceResident();
  /// Copies the device results of the last run to the host result buffers
  /// (result_data()), as Run() does at its end.
  bool CopyResultsToHost();

private:
  /// Run() with some of its steps (RunOnDevice in cuda_function.cpp).
  bool RunSteps(bool copy_args, bool launch, bool copy_results);
  std::unique_ptr<internal::CudaDeviceState> device_;
};

} // namespace tfaot

#endif // TFAOT_RUNTIME_CUDA_FUNCTION_H
