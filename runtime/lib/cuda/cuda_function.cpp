//===- cuda_function.cpp - Run generated CUDA code ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// CudaCompiledFunction::Run() makes its instance's device state current on
// the thread and calls CompiledFunction::Run(), which checks the arguments
// and calls the entry in host_info: RunOnDevice below. That copies the
// arguments in, calls the generated entry with device pointers (which calls
// tfaot_rt_cuda_* for every weight and launch), copies the results out and
// synchronizes. Errors go through the runtime's per-thread run status, so
// the base Run() turns them into `false` and error_msg() as for CPU code.
// With batch buckets the base Run() picks a bucket and calls RunOnDevice
// for it too; CudaCompiledFunction::Run() has told the state which one.
//
//===----------------------------------------------------------------------===//
#include "tfaot/runtime/cuda_function.h"

#include "../run_status.h"
#include "cublas.h"
#include "cudnn.h"
#include "cuda_driver.h"
#include "tfaot/runtime/cuda_image.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tfaot {
namespace internal {

using namespace tfaot::cuda;

/// Everything one instance holds on the device.
struct CudaDeviceState {
  const FunctionInfo *generated = nullptr;
  const Driver *driver = nullptr;
  int ordinal = 0;  ///< set_device()'s.
  CUdevice device = 0;
  CUcontext context = nullptr;
  int arch = 0;  ///< Compute capability, major*10+minor.
  CUstream own_stream = nullptr;
  CUstream user_stream = nullptr;
  /// Arguments, results and arena in one allocation, each 256-byte aligned.
  CUdeviceptr block = 0;
  size_t block_bytes = 0;
  std::vector<CUdeviceptr> arg_ptrs, result_ptrs;
  /// The caller's device buffers (set_arg/result_device_ptr), 0 where the
  /// instance's own are used; `pointer_error` is why the last one given
  /// was refused (Run() fails while it is set); `pointers_checked` is
  /// false until a Run() has checked them with the driver.
  std::vector<CUdeviceptr> caller_args, caller_results;
  std::string pointer_error;
  bool pointers_checked = true;
  CUdeviceptr arena = 0;
  /// Device copies of the weights, by their address in the host object.
  std::unordered_map<const void *, CUdeviceptr> constants;
  size_t constant_bytes = 0;
  std::vector<std::pair<const void *, CUmodule>> modules;
  /// Kernels by image and the address of their name in the host object:
  /// batch buckets have one image each, and the linker may merge their
  /// kernels' equal names into one string.
  std::map<std::pair<const void *, const char *>, CUfunction> functions;
  /// cuBLAS, created on the first GEMM (models without one never load it).
  const Cublas *cublas = nullptr;
  CublasHandle cublas_handle = nullptr;
  /// cuDNN's handle, descriptors and workspace (--gpu_conv=cudnn).
  CudnnConvs cudnn_convs;
  std::vector<CUdeviceptr> heap;  ///< Temporaries of the current Run().
  /// Host copies of device buffers that the current Run()'s runtime calls
  /// on host memory use (tfaot_rt_cuda_host_buffer): freed, like `heap`,
  /// once the Run() has synchronized (a copy back may still read them).
  std::vector<std::unique_ptr<unsigned char[]>> host_buffers;
  /// Each bounded result's run-time dims (int64, its rank), which the
  /// entry writes after the results; copied to the host slots
  /// CompiledFunction reads result_dims() from.
  std::vector<CUdeviceptr> dims_ptrs;
  /// Per entry (one, or one per batch bucket): its CUDA graph (see
  /// RunEntry), captured on its second Run(), replayed from then on, and
  /// the addresses it was captured with. `graphs` is false when they
  /// cannot be used.
  struct EntryState {
    EntryFunction entry = nullptr;
    int completed_runs = 0;
    CUgraphExec graph = nullptr;
    std::vector<void *> graph_args, graph_results;
  };
  std::vector<EntryState> entries;
  size_t bucket = 0;         ///< The entry the current Run() runs.
  int64_t bucket_rows = 0;   ///< Its batch (buckets only).
  int64_t batch_rows = 0;    ///< Rows in use (buckets only).
  bool graphs = true;
  bool used_heap = false;   ///< A Run() allocated temporaries.
  /// A Run() read a scalar back to decide a branch or loop on the host
  /// (tfaot_rt_cuda_read_scalar), or ran a runtime call on host copies:
  /// its launches depend on the data, or its work is not all on the
  /// stream, so no graph of them may be replayed.
  bool host_decided = false;
  bool capturing = false;   ///< CaptureGraph is recording the launches.
  /// The steps of the current Run() (all of them but for
  /// SetUpDevice, RunDeviceResident and CopyResultsToHost).
  bool copy_args = true, launch = true, copy_results = true;
  std::string error;              ///< First failure of the current Run().
  bool ready = false;             ///< SetUp() has completed.

  CUstream stream() const { return user_stream ? user_stream : own_stream; }

  /// Records the first failure; later ones usually follow from it.
  void Fail(std::string message) {
    if (error.empty())
      error = std::move(message);
  }
  /// Checks a driver call; false (and records `what` failed) on error.
  bool Check(CUresult result, const std::string &what) {
    if (result == kSuccess)
      return true;
    if (result == kErrorOutOfMemory)
      Fail("out of GPU memory: " + what + " failed");
    else
      Fail("CUDA error: " + what + " failed with " +
           DescribeError(*driver, result));
    return false;
  }
  bool Alloc(CUdeviceptr *ptr, size_t bytes, const char *what) {
    return Check(driver->cuMemAlloc(ptr, bytes ? bytes : 1),
                 "allocating " + std::to_string(bytes) + " bytes of " + what);
  }

  bool SetUp();
  /// Checks the caller's device buffers with the driver (once after each
  /// change); false with the error recorded.
  bool CheckCallerPointers();
  /// Bytes of argument / result `i` a Run() moves: with batch buckets the
  /// rows of the bucket (arguments) or of the batch (results).
  size_t CopyBytes(const BufferInfo &buffer, bool result) const;
  CUmodule Module(const void *image);
  /// The instance's cuBLAS handle, bound to the run's stream; null (with
  /// the error recorded) if cuBLAS cannot be loaded or initialized.
  CublasHandle CublasOnStream();
  void RunEntry(void **args, void **results);
  bool CaptureGraph(EntryState &entry, void **args, void **results);
  void Release();
};

namespace {
thread_local CudaDeviceState *current_state = nullptr;

/// set_device() past the driver's devices.
std::string DescribeMissingDevice(int ordinal, int count) {
  std::string device = "no CUDA device " + std::to_string(ordinal) + ": ";
  if (count == 0)
    return device + "the CUDA driver found no GPU";
  return device + "the CUDA driver found " + std::to_string(count) + " GPU" +
         (count == 1 ? "" : "s") + " (set_device takes 0 to " +
         std::to_string(count - 1) + ")";
}

size_t AlignUp(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// Bytes of result `index`'s run-time dims (one int64 per dim; a scalar's
/// slot has one unused).
size_t DimsBytes(const FunctionInfo &info, int index) {
  return sizeof(int64_t) *
         static_cast<size_t>(std::max(info.results[index].rank, 1));
}

uint64_t ReadU64(const unsigned char *p) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i)
    value = value << 8 | p[i];
  return value;
}

/// Restores the caller's current context when a Run() ends.
class ContextScope {
public:
  ContextScope(const Driver *driver, CUcontext context) : driver_(driver) {
    pushed_ = driver->cuCtxPushCurrent(context) == kSuccess;
  }
  ~ContextScope() {
    CUcontext popped;
    if (pushed_)
      driver_->cuCtxPopCurrent(&popped);
  }
  bool ok() const { return pushed_; }

private:
  const Driver *driver_;
  bool pushed_;
};

/// FunctionInfo::entry of every CUDA class: see the file comment.
void RunOnDevice(void *const *args, void *const *results, void *) {
  CudaDeviceState *state = current_state;
  if (!state) {
    ReportRunError("a CUDA model must be run with CudaCompiledFunction::Run() "
                   "(the generated class's Run()), not CompiledFunction::Run()");
    return;
  }
  state->error.clear();
  if (!state->SetUp()) {
    ReportRunError(state->error);
    return;
  }
  const Driver &d = *state->driver;
  ContextScope scope(state->driver, state->context);
  if (!scope.ok()) {
    ReportRunError("CUDA error: cannot make the device's context current");
    return;
  }
  const FunctionInfo &info = *state->generated;
  CUstream stream = state->stream();
  // An argument whose host slot no longer holds the caller's device
  // pointer was set again with set_arg_data(): back to copying it.
  for (int i = 0; i < info.num_args; ++i)
    if (state->caller_args[i] &&
        args[i] != reinterpret_cast<void *>(state->caller_args[i]))
      state->caller_args[i] = 0;
  if (!state->CheckCallerPointers()) {
    ReportRunError(state->error);
    return;
  }
  for (int i = 0; state->copy_args && i < info.num_args; ++i)
    if (!state->caller_args[i] &&
        !state->Check(d.cuMemcpyHtoDAsync(state->arg_ptrs[i], args[i],
                                          state->CopyBytes(info.args[i], false),
                                          stream),
                      "copying argument '" + std::string(info.args[i].name) +
                          "' to the GPU"))
      break;
  if (state->error.empty() && state->launch) {
    // The bounded results' dims follow the results (FunctionInfo).
    std::vector<void *> device_args(info.num_args + 1),
        device_results(info.num_results + state->dims_ptrs.size() + 1);
    for (int i = 0; i < info.num_args; ++i)
      device_args[i] = reinterpret_cast<void *>(
          state->caller_args[i] ? state->caller_args[i] : state->arg_ptrs[i]);
    for (int i = 0; i < info.num_results; ++i)
      device_results[i] = reinterpret_cast<void *>(
          state->caller_results[i] ? state->caller_results[i]
                                   : state->result_ptrs[i]);
    for (size_t j = 0; j < state->dims_ptrs.size(); ++j)
      device_results[info.num_results + j] =
          reinterpret_cast<void *>(state->dims_ptrs[j]);
    state->RunEntry(device_args.data(), device_results.data());
    // The dims of bounded results, whenever the kernels ran: the caller of
    // RunDeviceResident() needs them to read result_device_ptr() too.
    for (size_t j = 0; state->error.empty() && j < state->dims_ptrs.size();
         ++j)
      state->Check(
          d.cuMemcpyDtoHAsync(results[info.num_results + j],
                              state->dims_ptrs[j],
                              DimsBytes(info, info.bounded_results[j]), stream),
          "copying the dims of result '" +
              std::string(info.results[info.bounded_results[j]].name) +
              "' from the GPU");
  }
  if (state->error.empty() && state->copy_results)
    for (int i = 0; i < info.num_results; ++i)
      if (!state->caller_results[i] &&
          !state->Check(d.cuMemcpyDtoHAsync(
                            results[i], state->result_ptrs[i],
                            state->CopyBytes(info.results[i], true), stream),
                        "copying result '" + std::string(info.results[i].name) +
                            "' from the GPU"))
        break;
  // Kernel faults surface here, at the latest.
  state->Check(d.cuStreamSynchronize(stream), "running the kernels");
  for (CUdeviceptr ptr : state->heap)
    d.cuMemFree(ptr);
  state->used_heap |= !state->heap.empty();
  state->heap.clear();
  state->host_buffers.clear();
  if (!state->error.empty())
    ReportRunError(state->error);
  else if (state->launch)
    ++state->entries[state->bucket].completed_runs;
}

} // namespace

bool CudaDeviceState::SetUp() {
  if (ready)
    return true;
  // Each step is kept once done, so a Run() after a failure (say, out of
  // memory) retries only what is missing.
  if (!context) {
    std::string why;
    driver = LoadDriver(&why);
    if (!driver) {
      Fail(why);
      return false;
    }
    int count = 0;
    if (driver->cuDeviceGetCount(&count) != kSuccess || count == 0) {
      Fail("no CUDA device: the CUDA driver found no GPU");
      return false;
    }
    if (ordinal >= count) {
      Fail(DescribeMissingDevice(ordinal, count));
      return false;
    }
    std::string which = "device " + std::to_string(ordinal);
    int major = 0, minor = 0;
    if (!Check(driver->cuDeviceGet(&device, ordinal), "getting " + which) ||
        !Check(driver->cuDeviceGetAttribute(
                   &major, kAttributeComputeCapabilityMajor, device),
               "reading the compute capability") ||
        !Check(driver->cuDeviceGetAttribute(
                   &minor, kAttributeComputeCapabilityMinor, device),
               "reading the compute capability"))
      return false;
    arch = major * 10 + minor;
    CUcontext primary = nullptr;
    if (!Check(driver->cuDevicePrimaryCtxRetain(&primary, device),
               "retaining " + which + "'s primary context"))
      return false;
    context = primary;
  }
  ContextScope scope(driver, context);
  if (!scope.ok()) {
    Fail("CUDA error: cannot make the device's context current");
    return false;
  }
  if (!own_stream &&
      !Check(driver->cuStreamCreate(&own_stream, kStreamNonBlocking),
             "creating a stream"))
    return false;
  if (!block) {
    // One block for arguments, results and the arena.
    const FunctionInfo &info = *generated;
    constexpr size_t kAlign = 256;
    size_t offset = 0;
    std::vector<size_t> arg_offsets, result_offsets;
    for (int i = 0; i < info.num_args; ++i) {
      arg_offsets.push_back(offset);
      offset = AlignUp(offset + info.args[i].size_bytes, kAlign);
    }
    for (int i = 0; i < info.num_results; ++i) {
      result_offsets.push_back(offset);
      offset = AlignUp(offset + info.results[i].size_bytes, kAlign);
    }
    std::vector<size_t> dims_offsets;
    for (int j = 0; j < info.num_bounded_results; ++j) {
      dims_offsets.push_back(offset);
      offset = AlignUp(offset + DimsBytes(info, info.bounded_results[j]),
                       kAlign);
    }
    size_t arena_offset = offset;
    size_t bytes = offset + info.temp_bytes;
    if (!Alloc(&block, bytes, "arguments, results and temporaries"))
      return false;
    block_bytes = bytes;
    arg_ptrs.clear();
    result_ptrs.clear();
    dims_ptrs.clear();
    for (size_t o : arg_offsets)
      arg_ptrs.push_back(block + o);
    for (size_t o : result_offsets)
      result_ptrs.push_back(block + o);
    for (size_t o : dims_offsets)
      dims_ptrs.push_back(block + o);
    arena = info.temp_bytes ? block + arena_offset : 0;
  }
  ready = true;
  return true;
}

CUmodule CudaDeviceState::Module(const void *image) {
  for (const auto &[key, module] : modules)
    if (key == image)
      return module;
  const auto *bytes = static_cast<const unsigned char *>(image);
  if (std::memcmp(bytes, cuda_image::kMagic, sizeof(cuda_image::kMagic)) != 0) {
    Fail("internal error: the object's kernel image is damaged");
    return nullptr;
  }
  int image_arch = bytes[cuda_image::kArchOffset] |
                   bytes[cuda_image::kArchOffset + 1] << 8;
  uint64_t cubin_offset = ReadU64(bytes + cuda_image::kCubinOffset);
  uint64_t cubin_size = ReadU64(bytes + cuda_image::kCubinSize);
  uint64_t ptx_offset = ReadU64(bytes + cuda_image::kPtxOffset);
  std::string device_arch = "sm_" + std::to_string(arch);
  std::string built_for = "sm_" + std::to_string(image_arch);
  if (arch < image_arch) {
    Fail("kernel image is not for this GPU (" + device_arch +
         "): the model was compiled for " + built_for +
         "; recompile it with --gpu_arch=" + device_arch);
    return nullptr;
  }
  // A cubin runs on its own major version at the same or a newer minor;
  // other GPUs compile the PTX.
  bool use_cubin = cubin_size && arch / 10 == image_arch / 10;
  const void *code = bytes + (use_cubin ? cubin_offset : ptx_offset);
  CUmodule module = nullptr;
  CUresult result = driver->cuModuleLoadData(&module, code);
  if (result == kErrorNoBinaryForGpu || result == kErrorInvalidImage) {
    Fail("kernel image is not for this GPU (" + device_arch + "): loading " +
         (use_cubin ? built_for + " code" : std::string("the PTX")) +
         " failed with " + DescribeError(*driver, result));
    return nullptr;
  }
  if (result == kErrorUnsupportedPtxVersion) {
    Fail("the CUDA driver is too old for the kernels' PTX (ISA 8.0, CUDA "
         "12.0 or newer): " + DescribeError(*driver, result));
    return nullptr;
  }
  if (!Check(result, "loading the kernels"))
    return nullptr;
  modules.emplace_back(image, module);
  return module;
}

/// Calls the generated entry, which launches every kernel and cuBLAS call
/// of the model on the stream. The first Run() does so directly (it also
/// uploads the weights and loads the kernels); the second records those
/// launches into a CUDA graph instead and launches the graph, and later
/// ones launch the graph again: one launch per Run() instead of one per
/// kernel (200 for ResNet-50), which is what batch-1 latency is made of.
/// The buffers' device addresses are fixed per instance, so the graph
/// stays valid, unless the caller gives other device buffers
/// (set_arg_device_ptr): then it is captured again. Each batch bucket has
/// its own entry, and so its own graph. Models that allocate temporaries
/// on every Run() (dynamic sizes), models that branch or loop on the host
/// (tfaot_rt_cuda_read_scalar) or run runtime calls on host copies
/// (tfaot_rt_cuda_host_buffer), drivers without graphs and
/// TFAOT_CUDA_GRAPHS=0 keep launching directly.
void CudaDeviceState::RunEntry(void **args, void **results) {
  EntryState &current = entries[bucket];
  const FunctionInfo &info = *generated;
  if (current.graph &&
      (!std::equal(args, args + info.num_args, current.graph_args.begin()) ||
       !std::equal(results, results + info.num_results,
                   current.graph_results.begin()))) {
    driver->cuGraphExecDestroy(current.graph);
    current.graph = nullptr;
  }
  if (!current.graph && graphs && current.completed_runs >= 1) {
    const char *env = std::getenv("TFAOT_CUDA_GRAPHS");
    graphs = driver->cuStreamBeginCapture && !used_heap && !host_decided &&
             !(env && std::string(env) == "0");
    if (graphs && !CaptureGraph(current, args, results))
      graphs = false;
  }
  if (current.graph) {
    Check(driver->cuGraphLaunch(current.graph, stream()),
          "launching the CUDA graph");
    return;
  }
  current.entry(args, results, reinterpret_cast<void *>(arena));
}

/// Records the entry's launches into its graph. False, with nothing
/// recorded or run, if the driver refuses any step: the caller then
/// launches directly (and for good: failures here are not the model's).
bool CudaDeviceState::CaptureGraph(EntryState &current, void **args,
                                   void **results) {
  if (driver->cuStreamBeginCapture(stream(), kStreamCaptureModeRelaxed) !=
      kSuccess)
    return false;
  capturing = true;
  current.entry(args, results, reinterpret_cast<void *>(arena));
  capturing = false;
  CUgraph captured = nullptr;
  // A host decision met only now (its branch was not taken before) makes
  // the recording one path of several: dropped, and never captured again.
  bool ok = driver->cuStreamEndCapture(stream(), &captured) == kSuccess &&
            captured && error.empty() && !host_decided;
  if (ok)
    ok = driver->cuGraphInstantiateWithFlags(&current.graph, captured, 0) ==
         kSuccess;
  if (captured)
    driver->cuGraphDestroy(captured);
  if (!ok) {
    current.graph = nullptr;
    error.clear();  // Launching directly will say if it was the model's.
    return false;
  }
  const FunctionInfo &info = *generated;
  current.graph_args.assign(args, args + info.num_args);
  current.graph_results.assign(results, results + info.num_results);
  return true;
}

bool CudaDeviceState::CheckCallerPointers() {
  if (!pointer_error.empty()) {
    Fail(pointer_error);
    return false;
  }
  if (pointers_checked)
    return true;
  const FunctionInfo &info = *generated;
  auto check = [&](CUdeviceptr ptr, const BufferInfo &buffer,
                   const char *what, const char *setter, int i) {
    if (!ptr)
      return true;
    std::string name = std::string(what) + " " + std::to_string(i) + " ('" +
                       buffer.name + "')";
    char address[32];
    std::snprintf(address, sizeof(address), "0x%llx", ptr);
    CUdeviceptr base = 0;
    size_t size = 0;
    CUresult result = driver->cuMemGetAddressRange(&base, &size, ptr);
    if (result != kSuccess) {
      Fail("the device buffer given to " + std::string(setter) + "(" +
           std::to_string(i) + ", " + address + ") for " + name +
           " is not device memory of device " + std::to_string(ordinal) +
           " (cuMemGetAddressRange: " + DescribeError(*driver, result) + ")");
      return false;
    }
    size_t available = static_cast<size_t>(base + size - ptr);
    if (available < buffer.size_bytes) {
      Fail("the device buffer given to " + std::string(setter) + "(" +
           std::to_string(i) + ", " + address + ") for " + name +
           " has " + std::to_string(available) +
           " bytes from there to the end of its allocation but needs " +
           std::to_string(buffer.size_bytes));
      return false;
    }
    return true;
  };
  for (int i = 0; i < info.num_args; ++i)
    if (!check(caller_args[i], info.args[i], "argument", "set_arg_device_ptr",
               i))
      return false;
  for (int i = 0; i < info.num_results; ++i)
    if (!check(caller_results[i], info.results[i], "result",
               "set_result_device_ptr", i))
      return false;
  pointers_checked = true;
  return true;
}

size_t CudaDeviceState::CopyBytes(const BufferInfo &buffer,
                                  bool result) const {
  const FunctionInfo &info = *generated;
  if (info.num_buckets == 0)
    return buffer.size_bytes;
  auto max = static_cast<size_t>(info.bucket_batches[info.num_buckets - 1]);
  return buffer.size_bytes / max *
         static_cast<size_t>(result ? batch_rows : bucket_rows);
}

CublasHandle CudaDeviceState::CublasOnStream() {
  if (!cublas_handle) {
    std::string why;
    cublas = LoadCublas(&why);
    if (!cublas) {
      Fail(why);
      return nullptr;
    }
    CublasStatus status = cublas->cublasCreate(&cublas_handle);
    if (status != kCublasSuccess) {
      cublas_handle = nullptr;
      Fail("cuBLAS error: cublasCreate failed with " +
           DescribeCublasStatus(*cublas, status));
      return nullptr;
    }
  }
  CublasStatus status = cublas->cublasSetStream(cublas_handle, stream());
  if (status != kCublasSuccess) {
    Fail("cuBLAS error: cublasSetStream failed with " +
         DescribeCublasStatus(*cublas, status));
    return nullptr;
  }
  return cublas_handle;
}

void CudaDeviceState::Release() {
  if (!context)
    return;
  {
    ContextScope scope(driver, context);
    if (scope.ok()) {
      driver->cuStreamSynchronize(stream());
      for (EntryState &entry : entries) {
        if (entry.graph)
          driver->cuGraphExecDestroy(entry.graph);
        entry.graph = nullptr;
      }
      if (cublas_handle)
        cublas->cublasDestroy(cublas_handle);
      cublas_handle = nullptr;
      cudnn_convs.Release(*driver);
      for (const auto &entry : constants)
        driver->cuMemFree(entry.second);
      for (const auto &entry : modules)
        driver->cuModuleUnload(entry.second);
      if (block)
        driver->cuMemFree(block);
      if (own_stream)
        driver->cuStreamDestroy(own_stream);
    }
  }
  driver->cuDevicePrimaryCtxRelease(device);
  context = nullptr;
  ready = false;
}

CudaInfoHolder::CudaInfoHolder(const FunctionInfo &generated)
    : generated_info(generated), host_info(generated) {
  host_info.entry = &RunOnDevice;
  host_info.temp_bytes = 0;  // The arena is on the device.
  if (generated.num_buckets > 0) {
    host_bucket_entries.reset(new EntryFunction[generated.num_buckets]);
    std::fill_n(host_bucket_entries.get(), generated.num_buckets,
                &RunOnDevice);
    host_info.bucket_entries = host_bucket_entries.get();
  }
}

} // namespace internal

CudaCompiledFunction::CudaCompiledFunction(const FunctionInfo &info,
                                           AllocMode mode)
    : internal::CudaInfoHolder(info), CompiledFunction(host_info, mode),
      device_(new internal::CudaDeviceState) {
  device_->generated = &generated_info;
  device_->caller_args.assign(info.num_args, 0);
  device_->caller_results.assign(info.num_results, 0);
  if (info.num_buckets == 0) {
    device_->entries.resize(1);
    device_->entries[0].entry = info.entry;
  } else {
    device_->entries.resize(info.num_buckets);
    for (int i = 0; i < info.num_buckets; ++i)
      device_->entries[i].entry = info.bucket_entries[i];
  }
}

CudaCompiledFunction::~CudaCompiledFunction() { device_->Release(); }

bool CudaCompiledFunction::RunSteps(bool copy_args, bool launch,
                                    bool copy_results) {
  internal::CudaDeviceState *previous = internal::current_state;
  internal::current_state = device_.get();
  // The bucket the base Run() picks (the smallest holding the batch).
  const FunctionInfo &info = generated_info;
  device_->bucket = 0;
  for (int i = 0; i < info.num_buckets; ++i)
    if (info.bucket_batches[i] == bucket_for_batch())
      device_->bucket = static_cast<size_t>(i);
  device_->bucket_rows = bucket_for_batch();
  device_->batch_rows = batch_size();
  device_->copy_args = copy_args;
  device_->launch = launch;
  device_->copy_results = copy_results;
  bool ok = CompiledFunction::Run();
  device_->copy_args = device_->launch = device_->copy_results = true;
  internal::current_state = previous;
  return ok;
}

bool CudaCompiledFunction::Run() { return RunSteps(true, true, true); }

bool CudaCompiledFunction::SetUpDevice() {
  return RunSteps(false, false, false);
}

bool CudaCompiledFunction::RunDeviceResident() {
  return RunSteps(false, true, false);
}

bool CudaCompiledFunction::CopyResultsToHost() {
  return RunSteps(false, false, true);
}

unsigned long long CudaCompiledFunction::arg_device_ptr(size_t i) const {
  return device_->ready && i < device_->arg_ptrs.size() ? device_->arg_ptrs[i]
                                                        : 0;
}

unsigned long long CudaCompiledFunction::result_device_ptr(size_t i) const {
  return device_->ready && i < device_->result_ptrs.size()
             ? device_->result_ptrs[i]
             : 0;
}

bool CudaCompiledFunction::set_device(int ordinal) {
  internal::CudaDeviceState &state = *device_;
  std::string call = "set_device(" + std::to_string(ordinal) + ")";
  if (ordinal < 0) {
    set_error_msg(call + ": CUDA device ordinals start at 0");
    return false;
  }
  if (state.context && ordinal != state.ordinal) {
    set_error_msg(call + " after the instance set up device " +
                  std::to_string(state.ordinal) +
                  " (its first Run() or SetUpDevice()); an instance stays "
                  "on its device: make another one for device " +
                  std::to_string(ordinal));
    return false;
  }
  // Checked now where the driver loads; without one Run() says why.
  if (const cuda::Driver *driver = cuda::LoadDriver(nullptr)) {
    int count = 0;
    if (driver->cuDeviceGetCount(&count) == cuda::kSuccess &&
        ordinal >= count) {
      set_error_msg(call + ": " +
                    internal::DescribeMissingDevice(ordinal, count));
      return false;
    }
  }
  state.ordinal = ordinal;
  set_error_msg("");
  return true;
}

int CudaCompiledFunction::device() const { return device_->ordinal; }

bool CudaCompiledFunction::SetDevicePtr(bool result, int i, void *device_ptr) {
  internal::CudaDeviceState &state = *device_;
  const char *what = result ? "result" : "argument";
  std::string call = std::string(result ? "set_result_device_ptr("
                                        : "set_arg_device_ptr(") +
                     std::to_string(i) + ", ...)";
  int count = result ? num_results() : num_args();
  std::string error;
  if (i < 0 || i >= count) {
    error = call + ": " + what + " index " + std::to_string(i) +
            " is out of range: " + info().class_name + " has " +
            std::to_string(count) + " " + what + (count == 1 ? "" : "s");
  } else if (!device_ptr) {
    error = call + ": the device pointer for " + what + " '" +
            (result ? result_info(i) : arg_info(i)).name + "' is null";
  } else if (reinterpret_cast<uintptr_t>(device_ptr) % kDeviceAlignment) {
    error = call + ": the device pointer for " + what + " '" +
            (result ? result_info(i) : arg_info(i)).name + "' is not " +
            std::to_string(kDeviceAlignment) + "-byte aligned";
  }
  if (!error.empty()) {
    // As a refused set_temp_buffer(): Run() must not quietly go on with
    // another buffer than the one the caller believes in use.
    state.pointer_error = error;
    set_error_msg(error);
    return false;
  }
  auto address = reinterpret_cast<cuda::CUdeviceptr>(device_ptr);
  if (result) {
    state.caller_results[i] = address;
  } else {
    state.caller_args[i] = address;
    // The base Run() wants every argument set; the host slot holds the
    // device address, which RunOnDevice never reads as host memory.
    set_arg_data(i, device_ptr);
  }
  state.pointer_error.clear();
  state.pointers_checked = false;
  set_error_msg("");
  return true;
}

bool CudaCompiledFunction::set_arg_device_ptr(int i, void *device_ptr) {
  return SetDevicePtr(false, i, device_ptr);
}

bool CudaCompiledFunction::set_result_device_ptr(int i, void *device_ptr) {
  return SetDevicePtr(true, i, device_ptr);
}

void CudaCompiledFunction::set_stream(void *cu_stream) {
  device_->user_stream = static_cast<internal::CUstream>(cu_stream);
}

size_t CudaCompiledFunction::device_bytes() const {
  return device_->context ? device_->block_bytes + device_->constant_bytes : 0;
}

} // namespace tfaot

// The ABI the generated host code calls (backends/gpu/HostLaunch.h). Only
// called from inside RunOnDevice, so current_state is set and its context
// is current.
using tfaot::internal::current_state;

extern "C" void *tfaot_rt_cuda_constant(const void *host, int64_t bytes) {
  tfaot::internal::CudaDeviceState *state = current_state;
  if (auto it = state->constants.find(host); it != state->constants.end())
    return reinterpret_cast<void *>(it->second);
  if (!state->error.empty())
    return nullptr;
  tfaot::cuda::CUdeviceptr ptr = 0;
  if (!state->Alloc(&ptr, bytes, "weights"))
    return nullptr;
  // On the run's stream, so that the kernels after it see the data (a
  // synchronous copy to a non-blocking stream's kernels is not ordered);
  // `host` is a constant in the object, alive for the whole program.
  if (!state->Check(state->driver->cuMemcpyHtoDAsync(ptr, host, bytes,
                                                     state->stream()),
                    "uploading " + std::to_string(bytes) + " bytes of weights")) {
    state->driver->cuMemFree(ptr);
    return nullptr;
  }
  state->constants.emplace(host, ptr);
  state->constant_bytes += bytes;
  return reinterpret_cast<void *>(ptr);
}

extern "C" void *tfaot_rt_cuda_alloc(int64_t bytes) {
  tfaot::internal::CudaDeviceState *state = current_state;
  tfaot::cuda::CUdeviceptr ptr = 0;
  if (!state->error.empty() || !state->Alloc(&ptr, bytes, "a temporary"))
    return nullptr;
  state->heap.push_back(ptr);
  return reinterpret_cast<void *>(ptr);
}

extern "C" void tfaot_rt_cuda_free(void *) {
  // Kernels run asynchronously: the temporaries of a Run() are freed when
  // it has synchronized (RunOnDevice), not when the host code is done.
}

extern "C" int64_t tfaot_rt_cuda_read_scalar(int64_t address,
                                             int64_t bytes) {
  tfaot::internal::CudaDeviceState *state = current_state;
  state->host_decided = true;
  // A failed run, or one being captured (CaptureGraph then drops the
  // recording, and the entry runs again directly): 0 takes the else
  // branch, ends the loop, picks the default case, so the host code runs
  // to its end and the error is reported.
  if (!state->error.empty() || state->capturing)
    return 0;
  uint64_t value = 0;
  if (bytes < 1 || bytes > static_cast<int64_t>(sizeof(value))) {
    state->Fail("internal error: a branch or loop decides on a " +
                std::to_string(bytes) + "-byte value");
    return 0;
  }
  // On the run's stream, after the kernels that computed it; the host
  // waits for it (the decision is needed now). Little-endian, as x86-64
  // and AArch64 hosts are.
  if (!state->Check(state->driver->cuMemcpyDtoHAsync(
                        &value, static_cast<tfaot::cuda::CUdeviceptr>(address),
                        static_cast<size_t>(bytes), state->stream()),
                    "copying a branch or loop condition from the GPU") ||
      !state->Check(state->driver->cuStreamSynchronize(state->stream()),
                    "running the kernels before a branch or loop"))
    return 0;
  return static_cast<int64_t>(value);
}

extern "C" int64_t tfaot_rt_cuda_host_buffer(int64_t bytes) {
  tfaot::internal::CudaDeviceState *state = current_state;
  state->host_decided = true;
  // Zeroed: on a failed run or during a capture (below) the host call
  // runs on zeros, harmlessly, and the run reports its error.
  state->host_buffers.emplace_back(
      new unsigned char[static_cast<size_t>(std::max<int64_t>(bytes, 1))]());
  return static_cast<int64_t>(
      reinterpret_cast<uintptr_t>(state->host_buffers.back().get()));
}

extern "C" void tfaot_rt_cuda_copy_to_host(int64_t host, int64_t device,
                                           int64_t bytes) {
  tfaot::internal::CudaDeviceState *state = current_state;
  state->host_decided = true;
  // As read_scalar: nothing during a capture (CaptureGraph drops it, and
  // the entry runs again directly) or after a failure.
  if (!state->error.empty() || state->capturing || bytes <= 0)
    return;
  // On the run's stream, after the kernels that wrote it; the host call
  // reads it next, so wait.
  if (state->Check(state->driver->cuMemcpyDtoHAsync(
                       reinterpret_cast<void *>(static_cast<uintptr_t>(host)),
                       static_cast<tfaot::cuda::CUdeviceptr>(device),
                       static_cast<size_t>(bytes), state->stream()),
                   "copying " + std::to_string(bytes) +
                       " bytes from the GPU for a runtime call on the host"))
    state->Check(state->driver->cuStreamSynchronize(state->stream()),
                 "running the kernels before a runtime call on the host");
}

extern "C" void tfaot_rt_cuda_copy_to_device(int64_t device, int64_t host,
                                             int64_t bytes) {
  tfaot::internal::CudaDeviceState *state = current_state;
  state->host_decided = true;
  if (!state->error.empty() || state->capturing || bytes <= 0)
    return;
  // Queued before the kernels that read it; the host buffer lives until
  // the Run() has synchronized.
  state->Check(state->driver->cuMemcpyHtoDAsync(
                   static_cast<tfaot::cuda::CUdeviceptr>(device),
                   reinterpret_cast<const void *>(static_cast<uintptr_t>(host)),
                   static_cast<size_t>(bytes), state->stream()),
               "copying " + std::to_string(bytes) +
                   " bytes of a runtime call's results to the GPU");
}

extern "C" void tfaot_rt_cuda_launch(const void *image, const char *kernel,
                                     int64_t grid_x, int64_t grid_y,
                                     int64_t grid_z, int64_t block_x,
                                     int64_t block_y, int64_t block_z,
                                     int32_t shared_bytes, void **params) {
  tfaot::internal::CudaDeviceState *state = current_state;
  if (!state->error.empty())
    return;
  if (grid_x <= 0 || grid_y <= 0 || grid_z <= 0)
    return; // An empty tensor: nothing to compute.
  if (grid_x > 0x7fffffff || grid_y > 65535 || grid_z > 65535) {
    state->Fail("kernel '" + std::string(kernel) + "' needs a grid of " +
                std::to_string(grid_x) + "x" + std::to_string(grid_y) + "x" +
                std::to_string(grid_z) + " blocks, more than CUDA allows");
    return;
  }
  tfaot::cuda::CUmodule module = state->Module(image);
  if (!module)
    return;
  tfaot::cuda::CUfunction function = nullptr;
  auto key = std::make_pair(image, kernel);
  if (auto it = state->functions.find(key); it != state->functions.end())
    function = it->second;
  if (!function) {
    if (!state->Check(
            state->driver->cuModuleGetFunction(&function, module, kernel),
            "finding kernel '" + std::string(kernel) + "'"))
      return;
    state->functions.emplace(key, function);
  }
  state->Check(state->driver->cuLaunchKernel(
                   function, grid_x, grid_y, grid_z, block_x, block_y, block_z,
                   shared_bytes, state->stream(), params, nullptr),
               "launching kernel '" + std::string(kernel) + "'");
}

namespace {

/// What the GEMM entries share: the checks before cuBLAS runs. Returns the
/// handle on the run's stream, or null when there is nothing to do or the
/// run failed (then with the error set). `kind` names the product in
/// errors ("a 12x64 by 64x32 int8 product (batch 1)"); `needs_gemm_ex`:
/// it runs through cublasGemmStridedBatchedEx (int8, f16, bf16), which the
/// loaded library may lack.
tfaot::cuda::CublasHandle PrepareGemm(const char *kind, int64_t batch,
                                      int64_t m, int64_t n, int64_t k,
                                      int64_t &lda, int64_t &ldb,
                                      int64_t &ldc, bool b_transposed,
                                      bool needs_gemm_ex, std::string &what) {
  tfaot::internal::CudaDeviceState *state = current_state;
  if (!state->error.empty())
    return nullptr;
  if (batch <= 0 || m <= 0 || n <= 0 || k <= 0)
    return nullptr; // Nothing to add to C.
  what = "a " + std::to_string(m) + "x" + std::to_string(k) + " by " +
         std::to_string(k) + "x" + std::to_string(n) + " " + kind +
         " product (batch " + std::to_string(batch) + ")";
  if (std::max({batch, m, n, k, lda, ldb, ldc}) > INT_MAX) {
    state->Fail(what + " is too large for cuBLAS (32-bit sizes)");
    return nullptr;
  }
  // A one-row matrix's row stride is arbitrary (it is never stepped);
  // cuBLAS still wants at least the row length.
  if (m == 1) {
    lda = std::max(lda, k);
    ldc = std::max(ldc, n);
  }
  if (b_transposed ? n == 1 : k == 1)
    ldb = std::max(ldb, b_transposed ? k : n);
  tfaot::cuda::CublasHandle handle = state->CublasOnStream();
  if (handle && needs_gemm_ex && !state->cublas->cublasGemmStridedBatchedEx) {
    state->Fail(std::string("cuBLAS too old: the loaded library lacks "
                            "cublasGemmStridedBatchedEx, which ") +
                kind + " products need (cuBLAS 11 or newer)");
    return nullptr;
  }
  return handle;
}

/// Fails the run if a cuBLAS call on `product` did not succeed.
void FailOnCublasError(const std::string &product,
                       tfaot::cuda::CublasStatus status) {
  if (status == tfaot::cuda::kCublasSuccess)
    return;
  tfaot::internal::CudaDeviceState *state = current_state;
  state->Fail("cuBLAS error: " + product + " failed with " +
              tfaot::cuda::DescribeCublasStatus(*state->cublas, status));
}

} // namespace

extern "C" void tfaot_rt_cuda_gemm(int64_t a, int64_t b, int64_t c,
                                   int64_t batch, int64_t m, int64_t n,
                                   int64_t k, int64_t lda, int64_t ldb,
                                   int64_t ldc, int64_t stride_a,
                                   int64_t stride_b, int64_t stride_c,
                                   int32_t flags) {
  std::string product;
  tfaot::cuda::CublasHandle handle = PrepareGemm(
      "f32", batch, m, n, k, lda, ldb, ldc, /*b_transposed=*/false,
      /*needs_gemm_ex=*/false, product);
  if (!handle)
    return;
  tfaot::internal::CudaDeviceState *state = current_state;
  const tfaot::cuda::Cublas &cublas = *state->cublas;
  int math = flags & tfaot::cuda_image::kGemmAllowTf32
                 ? tfaot::cuda::kCublasTf32TensorOpMath
                 : tfaot::cuda::kCublasDefaultMath;
  tfaot::cuda::CublasStatus status = cublas.cublasSetMathMode(handle, math);
  // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS multiplies the
  // column-major views (B^T is n x k with leading dimension ldb) in the
  // other order, nothing is transposed in memory.
  const float one = 1.0f;
  const float beta = flags & tfaot::cuda_image::kGemmOverwrite ? 0.0f : 1.0f;
  if (status == tfaot::cuda::kCublasSuccess)
    status = cublas.cublasSgemmStridedBatched(
        handle, tfaot::cuda::kCublasOpN, tfaot::cuda::kCublasOpN,
        static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &one,
        reinterpret_cast<const float *>(b), static_cast<int>(ldb), stride_b,
        reinterpret_cast<const float *>(a), static_cast<int>(lda), stride_a,
        &beta, reinterpret_cast<float *>(c), static_cast<int>(ldc), stride_c,
        static_cast<int>(batch));
  FailOnCublasError(product, status);
}

namespace {

/// C[m,n] (f32) = A[m,k] B[k,n] (+ C) with 16-bit A and B of cuBLAS type
/// `data_type` (f16 or bf16), summed in fp32: tensor cores.
void HalfGemm(const char *kind, int data_type, int64_t a, int64_t b,
              int64_t c, int64_t batch, int64_t m, int64_t n, int64_t k,
              int64_t lda, int64_t ldb, int64_t ldc, int64_t stride_a,
              int64_t stride_b, int64_t stride_c, int32_t flags) {
  std::string product;
  tfaot::cuda::CublasHandle handle = PrepareGemm(
      kind, batch, m, n, k, lda, ldb, ldc, /*b_transposed=*/false,
      /*needs_gemm_ex=*/true, product);
  if (!handle)
    return;
  const tfaot::cuda::Cublas &cublas = *current_state->cublas;
  // As tfaot_rt_cuda_gemm: the column-major views in the other order.
  const float one = 1.0f;
  const float beta = flags & tfaot::cuda_image::kGemmOverwrite ? 0.0f : 1.0f;
  tfaot::cuda::CublasStatus status = cublas.cublasSetMathMode(
      handle, tfaot::cuda::kCublasDefaultMath);
  if (status == tfaot::cuda::kCublasSuccess)
    status = cublas.cublasGemmStridedBatchedEx(
        handle, tfaot::cuda::kCublasOpN, tfaot::cuda::kCublasOpN,
        static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &one,
        reinterpret_cast<const void *>(b), data_type, static_cast<int>(ldb),
        stride_b, reinterpret_cast<const void *>(a), data_type,
        static_cast<int>(lda), stride_a, &beta, reinterpret_cast<void *>(c),
        tfaot::cuda::kCudaR32F, static_cast<int>(ldc), stride_c,
        static_cast<int>(batch), tfaot::cuda::kCublasCompute32F,
        tfaot::cuda::kCublasGemmDefault);
  FailOnCublasError(product, status);
}

} // namespace

extern "C" void tfaot_rt_cuda_gemm_f16(int64_t a, int64_t b, int64_t c,
                                       int64_t batch, int64_t m, int64_t n,
                                       int64_t k, int64_t lda, int64_t ldb,
                                       int64_t ldc, int64_t stride_a,
                                       int64_t stride_b, int64_t stride_c,
                                       int32_t flags) {
  HalfGemm("f16", tfaot::cuda::kCudaR16F, a, b, c, batch, m, n, k, lda, ldb,
           ldc, stride_a, stride_b, stride_c, flags);
}

extern "C" void tfaot_rt_cuda_gemm_bf16(int64_t a, int64_t b, int64_t c,
                                        int64_t batch, int64_t m, int64_t n,
                                        int64_t k, int64_t lda, int64_t ldb,
                                        int64_t ldc, int64_t stride_a,
                                        int64_t stride_b, int64_t stride_c,
                                        int32_t flags) {
  HalfGemm("bf16", tfaot::cuda::kCudaR16BF, a, b, c, batch, m, n, k, lda, ldb,
           ldc, stride_a, stride_b, stride_c, flags);
}

extern "C" void tfaot_rt_cuda_gemm_s8(int64_t a, int64_t b, int64_t c,
                                      int64_t batch, int64_t m, int64_t n,
                                      int64_t k, int64_t lda, int64_t ldb,
                                      int64_t ldc, int64_t stride_a,
                                      int64_t stride_b, int64_t stride_c,
                                      int32_t flags) {
  std::string product;
  tfaot::cuda::CublasHandle handle = PrepareGemm(
      "int8", batch, m, n, k, lda, ldb, ldc, /*b_transposed=*/true,
      /*needs_gemm_ex=*/true, product);
  if (!handle)
    return;
  tfaot::internal::CudaDeviceState *state = current_state;
  const tfaot::cuda::Cublas &cublas = *state->cublas;
  // cuBLAS's int8 GEMM takes 4-byte aligned A and B with leading
  // dimensions that are multiples of 4 (tfaot-lower-int8-contractions pads
  // K to 4 and the buffers are 64-byte aligned, so this is an internal
  // check), and alpha and beta of 0 or 1.
  auto misaligned = [](int64_t value) { return value % 4 != 0; };
  if (misaligned(a) || misaligned(b) || misaligned(lda) || misaligned(ldb) ||
      misaligned(stride_a) || misaligned(stride_b)) {
    state->Fail("internal error: " + product +
                " has operands cuBLAS's int8 GEMM does not take (addresses, "
                "leading dimensions and batch strides must be multiples of "
                "4; lda " + std::to_string(lda) + ", ldb " +
                std::to_string(ldb) + ")");
    return;
  }
  // Row-major C[m,n] = A[m,k] B[n,k]^T is column-major C^T = B A^T: B seen
  // column-major is k x n (leading dimension ldb), transposed; A seen
  // column-major is k x m, as it is: the "TN" form cuBLAS runs on int8
  // tensor cores.
  const int32_t one = 1;
  const int32_t beta = flags & tfaot::cuda_image::kGemmOverwrite ? 0 : 1;
  tfaot::cuda::CublasStatus status = cublas.cublasSetMathMode(
      handle, tfaot::cuda::kCublasDefaultMath);
  if (status == tfaot::cuda::kCublasSuccess)
    status = cublas.cublasGemmStridedBatchedEx(
        handle, tfaot::cuda::kCublasOpT, tfaot::cuda::kCublasOpN,
        static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &one,
        reinterpret_cast<const void *>(b), tfaot::cuda::kCudaR8I,
        static_cast<int>(ldb), stride_b, reinterpret_cast<const void *>(a),
        tfaot::cuda::kCudaR8I, static_cast<int>(lda), stride_a, &beta,
        reinterpret_cast<void *>(c), tfaot::cuda::kCudaR32I,
        static_cast<int>(ldc), stride_c, static_cast<int>(batch),
        tfaot::cuda::kCublasCompute32I, tfaot::cuda::kCublasGemmDefault);
  FailOnCublasError(product, status);
}

extern "C" void tfaot_rt_cuda_conv(int64_t site, int64_t x, int64_t w,
                                   int64_t bias, int64_t z, int64_t y,
                                   int64_t n, int64_t h, int64_t w_in,
                                   int64_t c, int64_t k, int64_t r, int64_t s,
                                   int64_t oh, int64_t ow, int64_t stride_h,
                                   int64_t stride_w, int64_t dilation_h,
                                   int64_t dilation_w, int64_t pad_h,
                                   int64_t pad_w, int32_t flags,
                                   const char *layer) {
  tfaot::internal::CudaDeviceState *state = current_state;
  if (!state->error.empty() || n <= 0 || oh <= 0 || ow <= 0 || k <= 0)
    return;
  using namespace tfaot::cuda;
  // Sites are numbered per entry: a batch bucket's are its own.
  int64_t bucket_site = static_cast<int64_t>(state->bucket) << 32 | site;
  std::string error = state->cudnn_convs.Run(
      *state->driver, state->stream(), bucket_site, layer,
      ConvShape{n, h, w_in, c, k, r, s, oh, ow, stride_h, stride_w,
                dilation_h, dilation_w, pad_h, pad_w, flags},
      ConvOperands{static_cast<CUdeviceptr>(x), static_cast<CUdeviceptr>(w),
                   static_cast<CUdeviceptr>(bias), static_cast<CUdeviceptr>(z),
                   static_cast<CUdeviceptr>(y)});
  if (!error.empty())
    state->Fail(error);
}
