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
// the primary context of its device (0 unless set_device() says another),
// pushed around each Run() so that a caller's current context is left as
// it was. Arguments and results may instead live in the caller's device
// memory (set_arg_device_ptr, set_result_device_ptr): nothing is copied
// for those. With batch buckets (--batch) each Run() copies the rows of
// the bucket it runs, and each bucket gets its own CUDA graph.
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
  /// With batch buckets, host_info's entry for every bucket: the runtime's
  /// (which runs the bucket CudaCompiledFunction::Run() chose).
  std::unique_ptr<EntryFunction[]> host_bucket_entries;
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

  /// The GPU to run on: the CUDA device ordinal (0, the default, to the
  /// driver's device count - 1). Call it before the first Run() or
  /// SetUpDevice(); after them the instance stays on its device (make
  /// another instance for another GPU). Returns false and sets error_msg()
  /// for a negative ordinal, one the driver does not have (checked now
  /// when the driver loads; without a driver Run() says so) or a change
  /// after set-up.
  bool set_device(int ordinal);
  /// The device ordinal set_device() chose (0 by default).
  int device() const;

  /// Runs on `cu_stream` (a CUstream of the device's primary context, or
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
  /// The device address (a CUdeviceptr) of the instance's own buffer for
  /// argument / result `i`, kArgNBytes / kResultNBytes long, 256-byte
  /// aligned, fixed for the instance's life; 0 before the device is set up
  /// or for an index out of range.
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

  // Caller-owned device buffers, for zero-copy pipelines: the kernels,
  // cuBLAS and cuDNN read argument `i` from / write result `i` to the
  // caller's device memory directly, and Run() copies nothing in or out
  // for them (other arguments and results are copied as usual).

  /// Alignment the caller's device buffers need: what cuMemAlloc gives,
  /// and what the instance's own buffers have, so that the kernels and
  /// library calls see the same alignment either way.
  static constexpr size_t kDeviceAlignment = 256;
  /// Makes argument `i` the device buffer at `device_ptr` (a CUdeviceptr
  /// of this instance's device): it must hold arg_size(i) bytes (with
  /// batch buckets, the largest bucket's; a Run() reads the rows of its
  /// bucket), be kDeviceAlignment-aligned, and be written before Run()
  /// (on the instance's stream or before the call); it is read, never
  /// written. arg_data(i) then returns `device_ptr` (not host memory);
  /// set_arg_data(i, ...) goes back to copying host data. Returns false
  /// and sets error_msg() for a bad index, a null or misaligned pointer;
  /// Run() then fails until a valid one is set. Run() checks with the
  /// driver that the buffer is device memory of at least that size.
  /// Changing a pointer after the second Run() costs one CUDA-graph
  /// capture on the next (the graph holds the addresses).
  bool set_arg_device_ptr(int i, void *device_ptr);
  /// Makes result `i` the device buffer at `device_ptr`: as above, holding
  /// result_size(i) bytes, which Run() writes on the device (result_data(i)
  /// is then not written, and CopyResultsToHost() skips it). A result
  /// stays on the caller's device memory for the instance's life.
  bool set_result_device_ptr(int i, void *device_ptr);

private:
  /// Run() with some of its steps (RunOnDevice in cuda_function.cpp).
  bool RunSteps(bool copy_args, bool launch, bool copy_results);
  /// set_arg_device_ptr (result false) and set_result_device_ptr.
  bool SetDevicePtr(bool result, int i, void *device_ptr);
  std::unique_ptr<internal::CudaDeviceState> device_;
};

} // namespace tfaot

#endif // TFAOT_RUNTIME_CUDA_FUNCTION_H
