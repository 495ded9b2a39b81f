//===- fake_cuda_driver.cpp - A CUDA driver double for runtime tests ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Loaded by tfaot_cuda_runtime in place of libcuda.so.1 (TFAOT_LIBCUDA) so
// that the runtime's use of the driver can be tested on machines without a
// GPU. It implements the entry points the runtime resolves over host
// memory: allocations are malloc'ed and tracked, copies are memcpy, and a
// "launch" runs nothing but checks its arguments against the kernel's
// parameter list read from the PTX (every pointer parameter must point into
// a live allocation). Kernels do not execute, so results are not computed:
// this tests the protocol (setup, copies, weights uploaded once, image
// selection, errors, cleanup), not values. fake_cuda_stats() lets the test
// read what happened.
//
// It also stands in for cuDNN (TFAOT_LIBCUDNN; fake_cudnn.cpp) and for
// cuBLAS (TFAOT_LIBCUBLAS): a product (f32, or the
// int8 GEMM) checks its handle, stream, form and that every matrix it
// would touch (sizes, leading dimensions, batch strides) lies inside live
// allocations, and is counted.
// And for CUDA graphs: between cuStreamBeginCapture and cuStreamEndCapture
// launches and products are checked and recorded, not counted; launching
// the graph counts them; allocations and copies are refused meanwhile.
//
// Devices: each has its own primary context; an allocation belongs to the
// device whose context is current, and a launch, product or convolution
// must only touch memory of the current device. fake_cuda_uses(address)
// counts the kernel parameters, cuBLAS matrices and cuDNN tensors that
// pointed into the allocation holding `address` (so a test can see that a
// caller's device buffer is the one the work used).
//
// Knobs (environment): FAKE_CUDA_CC compute capability as major*10+minor
// (default 90); FAKE_CUDA_DEVICES device count (default 1);
// FAKE_CUDA_MEM_LIMIT bytes after which cuMemAlloc fails with
// CUDA_ERROR_OUT_OF_MEMORY; FAKE_CUDNN_REFUSE "fused" (cuDNN refuses every
// fused convolution with CUDNN_STATUS_NOT_SUPPORTED, as it does ResNet-50's
// TF32 1x1 ones on an H200) or "all" (every convolution, fused or not).
//
//===----------------------------------------------------------------------===//
#include "fake_cuda_stats.h"
#include "runtime/lib/cuda/cublas.h"
#include "runtime/lib/cuda/cudnn.h"
#include "runtime/lib/cuda/cuda_driver.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

// The entry points take the handle types the runtime calls them through:
// in a sanitizer build, -fsanitize=function checks that a function is
// called through a pointer of its own type, and void * is not CUcontext.
using tfaot::cuda::CUcontext;
using tfaot::cuda::CUdeviceptr;
using tfaot::cuda::CUfunction;
using tfaot::cuda::CUmodule;
using tfaot::cuda::CUresult;
using tfaot::cuda::CUstream;
constexpr CUresult kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2,
                   kInvalidImage = 200, kNotFound = 500;

FakeCudaStats stats;
struct Allocation {
  size_t bytes;
  int device;
  int uses = 0;  ///< Operands of launches, products and convolutions.
};
std::map<unsigned long long, Allocation> live;  // by device address
size_t live_bytes = 0;
constexpr int kMaxDevices = 8;
int ctx_tokens[kMaxDevices];
/// The devices of the contexts pushed, innermost last.
std::vector<int> context_stack;
int CurrentDevice() { return context_stack.empty() ? -1 : context_stack.back(); }

struct Function;

/// A loaded module: kernel name -> parameter kinds ('p' pointer, else the
/// size in bytes as a digit), empty for a cubin (not parsed).
struct Module {
  bool ptx = false;
  std::map<std::string, std::string> kernels;
  /// The handles cuModuleGetFunction gave out: as with the real driver,
  /// they live as long as their module (and LeakSanitizer stays quiet).
  std::vector<std::unique_ptr<Function>> functions;
};
struct Function {
  const Module *module;
  std::string name;
};
std::vector<Module *> modules;
int stream_token;

/// What a capture recorded (also the "executable graph": same contents).
struct Graph {
  int launches = 0, gemms = 0, int8_gemms = 0, half_gemms = 0, convs = 0,
      fused_convs = 0, fused_relu6s = 0, tensor_adds = 0, activations = 0,
      relu6_activations = 0;
};
Graph *capturing = nullptr;  ///< Non-null between begin and end capture.
void *capturing_stream = nullptr;

/// Counts a launch or product now, or into the graph being captured.
void Count(int Graph::*what, int FakeCudaStats::*counter) {
  if (capturing)
    ++(capturing->*what);
  else
    ++(stats.*counter);
}

int EnvInt(const char *name, int fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::atoi(value) : fallback;
}

void Bad(const std::string &what) {
  ++stats.bad_calls;
  std::snprintf(stats.last_problem, sizeof(stats.last_problem), "%s",
                what.c_str());
}

/// The allocation holding `address`, or null.
std::pair<const unsigned long long, Allocation> *
FindAllocation(unsigned long long address) {
  auto it = live.upper_bound(address);
  if (it == live.begin())
    return nullptr;
  --it;
  return address < it->first + it->second.bytes ? &*it : nullptr;
}

bool InsideAllocation(unsigned long long address) {
  return FindAllocation(address) != nullptr;
}

/// InsideAllocation for an operand of work on the device: it must also be
/// memory of the current device, and the use is counted.
bool UsedOperand(unsigned long long address) {
  auto *allocation = FindAllocation(address);
  if (!allocation)
    return false;
  if (allocation->second.device != CurrentDevice())
    Bad("an operand in memory of device " +
        std::to_string(allocation->second.device) + " used on device " +
        std::to_string(CurrentDevice()));
  ++allocation->second.uses;
  return true;
}

/// Reads ".visible .entry name(\n .param .u64 .ptr .align 1 x,\n ...)".
void ParsePtx(const char *ptx, Module &module) {
  std::string text(ptx);
  size_t pos = 0;
  while ((pos = text.find(".entry ", pos)) != std::string::npos) {
    pos += 7;
    size_t open = text.find('(', pos);
    size_t close = text.find(')', open);
    std::string name = text.substr(pos, open - pos);
    std::string params = text.substr(open, close - open), kinds;
    size_t p = 0;
    while ((p = params.find(".param", p)) != std::string::npos) {
      size_t end = params.find_first_of(",)", p);
      std::string param = params.substr(p, end - p);
      if (param.find(".ptr") != std::string::npos)
        kinds += 'p';
      else if (param.find("64") != std::string::npos)
        kinds += '8';
      else
        kinds += '4';
      p += 6;
    }
    module.kernels[name] = kinds;
  }
}

} // namespace

extern "C" {

const FakeCudaStats *fake_cuda_stats() { return &stats; }
int fake_cuda_uses(unsigned long long address) {
  auto *allocation = FindAllocation(address);
  return allocation ? allocation->second.uses : -1;
}

CUresult cuInit(unsigned) {
  ++stats.inits;
  return kSuccess;
}
CUresult cuDeviceGetCount(int *count) {
  *count = EnvInt("FAKE_CUDA_DEVICES", 1);
  return kSuccess;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return ordinal >= 0 && ordinal < EnvInt("FAKE_CUDA_DEVICES", 1) &&
                 ordinal < kMaxDevices
             ? kSuccess
             : kInvalidValue;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  int cc = EnvInt("FAKE_CUDA_CC", 90);
  if (attribute == 75)
    *value = cc / 10;
  else if (attribute == 76)
    *value = cc % 10;
  else
    return kInvalidValue;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, int device) {
  if (device < 0 || device >= EnvInt("FAKE_CUDA_DEVICES", 1) ||
      device >= kMaxDevices) {
    Bad("retained the context of a device the driver did not give");
    return kInvalidValue;
  }
  ++stats.retained;
  stats.last_device = device;
  *context = reinterpret_cast<CUcontext>(&ctx_tokens[device]);
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) {
  --stats.retained;
  return kSuccess;
}
CUresult cuCtxPushCurrent_v2(CUcontext context) {
  auto *token = reinterpret_cast<int *>(context);
  if (token < ctx_tokens || token >= ctx_tokens + kMaxDevices) {
    Bad("pushed a context the driver did not give");
    return kInvalidValue;
  }
  ++stats.context_depth;
  context_stack.push_back(static_cast<int>(token - ctx_tokens));
  return kSuccess;
}
CUresult cuCtxPopCurrent_v2(CUcontext *context) {
  if (context_stack.empty()) {
    Bad("popped an empty context stack");
    return kInvalidValue;
  }
  --stats.context_depth;
  *context = reinterpret_cast<CUcontext>(&ctx_tokens[context_stack.back()]);
  context_stack.pop_back();
  return kSuccess;
}
CUresult cuStreamCreate(CUstream *stream, unsigned) {
  ++stats.streams;
  *stream = reinterpret_cast<CUstream>(&stream_token);
  return kSuccess;
}
CUresult cuStreamDestroy_v2(CUstream) {
  --stats.streams;
  return kSuccess;
}
CUresult cuStreamSynchronize(CUstream) {
  ++stats.syncs;
  return kSuccess;
}
CUresult cuMemAlloc_v2(CUdeviceptr *address, size_t bytes) {
  if (capturing)
    Bad("allocation while capturing a graph");
  size_t limit = static_cast<size_t>(EnvInt("FAKE_CUDA_MEM_LIMIT", 0));
  if (limit && live_bytes + bytes > limit)
    return kOutOfMemory;
  // Aligned as the real driver's allocations are (the runtime's buffers
  // and its checks of a caller's rely on it).
  size_t rounded = (bytes + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded ? rounded : 256);
  std::memset(memory, 0, rounded ? rounded : 256);
  *address = reinterpret_cast<unsigned long long>(memory);
  // A test allocating its "caller buffers" has no context: device 0's.
  live[*address] = {bytes, std::max(CurrentDevice(), 0)};
  live_bytes += bytes;
  ++stats.allocs;
  stats.live_allocs = static_cast<int>(live.size());
  return kSuccess;
}
CUresult cuMemFree_v2(CUdeviceptr address) {
  auto it = live.find(address);
  if (it == live.end()) {
    Bad("freed memory the driver did not allocate");
    return kInvalidValue;
  }
  live_bytes -= it->second.bytes;
  live.erase(it);
  std::free(reinterpret_cast<void *>(address));
  stats.live_allocs = static_cast<int>(live.size());
  return kSuccess;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void *from, size_t bytes,
                              CUstream stream) {
  if (capturing)
    Bad("copy to the device while capturing a graph");
  if (!InsideAllocation(to) || (bytes && !InsideAllocation(to + bytes - 1)))
    Bad("copy to the device outside an allocation");
  std::memcpy(reinterpret_cast<void *>(to), from, bytes);
  stats.htod_bytes += bytes;
  ++stats.htod_copies;
  stats.last_stream = stream;
  return kSuccess;
}
CUresult cuMemcpyDtoHAsync_v2(void *to, CUdeviceptr from, size_t bytes,
                              CUstream stream) {
  if (!InsideAllocation(from) || (bytes && !InsideAllocation(from + bytes - 1)))
    Bad("copy from the device outside an allocation");
  std::memcpy(to, reinterpret_cast<void *>(from), bytes);
  stats.dtoh_bytes += bytes;
  ++stats.dtoh_copies;
  stats.last_stream = stream;
  return kSuccess;
}
CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size,
                                 CUdeviceptr address) {
  auto *allocation = FindAllocation(address);
  if (!allocation)
    return kInvalidValue;  // What the driver says of host memory.
  if (base)
    *base = allocation->first;
  if (size)
    *size = allocation->second.bytes;
  return kSuccess;
}
CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  auto *loaded = new Module;
  const char *bytes = static_cast<const char *>(image);
  if (std::memcmp(bytes, "\x7f" "ELF", 4) == 0) {
    ++stats.cubin_loads;
  } else if (std::strstr(bytes, ".version") && std::strstr(bytes, ".entry")) {
    loaded->ptx = true;
    ParsePtx(bytes, *loaded);
    ++stats.ptx_loads;
  } else {
    delete loaded;
    return kInvalidImage;
  }
  modules.push_back(loaded);
  *module = reinterpret_cast<CUmodule>(loaded);
  return kSuccess;
}
CUresult cuModuleUnload(CUmodule module) {
  ++stats.unloads;
  delete reinterpret_cast<Module *>(module);
  return kSuccess;
}
CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  auto *m = reinterpret_cast<Module *>(module);
  if (m->ptx && !m->kernels.count(name))
    return kNotFound;
  m->functions.push_back(std::make_unique<Function>(Function{m, name}));
  *function = reinterpret_cast<CUfunction>(m->functions.back().get());
  return kSuccess;
}
CUresult cuLaunchKernel(CUfunction function, unsigned gx, unsigned gy,
                        unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned, CUstream stream, void **params,
                        void **extra) {
  Count(&Graph::launches, &FakeCudaStats::launches);
  stats.last_stream = stream;
  auto *f = reinterpret_cast<Function *>(function);
  if (capturing && stream != capturing_stream)
    Bad("launch of " + f->name + " on another stream than the captured one");
  // Blocks of 256 threads, or a tiled depthwise kernel's CB x 2 x 4 (CB =
  // 32, 16 or 8 channels); never more than CUDA's 1024.
  unsigned threads = bx * by * bz;
  bool tiled = by == 2 && bz == 4 && (bx == 32 || bx == 16 || bx == 8);
  if (!gx || !gy || !gz || (threads != 256 && !tiled) || threads > 1024)
    Bad("launch of " + f->name + " with an unexpected shape");
  if (!params || extra)
    Bad("launch of " + f->name + " without kernel parameters");
  if (!f->module->ptx)
    return kSuccess; // A cubin's parameters are not parsed.
  const std::string &kinds = f->module->kernels.at(f->name);
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (!params[i]) {
      Bad("launch of " + f->name + ": parameter " + std::to_string(i) +
          " is null");
      continue;
    }
    if (kinds[i] != 'p')
      continue;
    unsigned long long address;
    std::memcpy(&address, params[i], sizeof(address));
    if (!UsedOperand(address))
      Bad("launch of " + f->name + ": pointer parameter " + std::to_string(i) +
          " is not device memory");
    ++stats.pointer_params_checked;
  }
  return kSuccess;
}
CUresult cuStreamBeginCapture_v2(CUstream stream, int mode) {
  if (capturing)
    Bad("nested graph capture");
  if (mode != tfaot::cuda::kStreamCaptureModeRelaxed)
    Bad("capture mode is not relaxed");
  capturing = new Graph;
  capturing_stream = stream;
  return kSuccess;
}
CUresult cuStreamEndCapture(CUstream stream, tfaot::cuda::CUgraph *graph) {
  if (!capturing || stream != capturing_stream) {
    Bad("ended a capture that was not begun on this stream");
    return kInvalidValue;
  }
  *graph = reinterpret_cast<tfaot::cuda::CUgraph>(capturing);
  capturing = nullptr;
  ++stats.captures;
  return kSuccess;
}
CUresult cuGraphInstantiateWithFlags(tfaot::cuda::CUgraphExec *exec,
                                     tfaot::cuda::CUgraph graph,
                                     unsigned long long) {
  const Graph &recorded = *reinterpret_cast<Graph *>(graph);
  *exec = reinterpret_cast<tfaot::cuda::CUgraphExec>(new Graph(recorded));
  ++stats.live_graphs;
  return kSuccess;
}
CUresult cuGraphDestroy(tfaot::cuda::CUgraph graph) {
  delete reinterpret_cast<Graph *>(graph);
  return kSuccess;
}
CUresult cuGraphExecDestroy(tfaot::cuda::CUgraphExec exec) {
  delete reinterpret_cast<Graph *>(exec);
  --stats.live_graphs;
  return kSuccess;
}
CUresult cuGraphLaunch(tfaot::cuda::CUgraphExec exec, CUstream stream) {
  const Graph &graph = *reinterpret_cast<Graph *>(exec);
  stats.launches += graph.launches;
  stats.gemms += graph.gemms;
  stats.int8_gemms += graph.int8_gemms;
  stats.half_gemms += graph.half_gemms;
  stats.convs += graph.convs;
  stats.fused_convs += graph.fused_convs;
  stats.fused_relu6s += graph.fused_relu6s;
  stats.tensor_adds += graph.tensor_adds;
  stats.activations += graph.activations;
  stats.relu6_activations += graph.relu6_activations;
  ++stats.graph_launches;
  stats.last_stream = stream;
  return kSuccess;
}

// cuBLAS.
using tfaot::cuda::CublasHandle;
constexpr int kCublasInvalidValue = 7;
int cublas_token;
CUstream cublas_stream = nullptr;

int cublasCreate_v2(CublasHandle *handle) {
  ++stats.cublas_handles;
  *handle = reinterpret_cast<CublasHandle>(&cublas_token);
  return 0;
}
int cublasDestroy_v2(CublasHandle) {
  --stats.cublas_handles;
  return 0;
}
int cublasSetStream_v2(CublasHandle, CUstream stream) {
  cublas_stream = stream;
  return 0;
}
int cublasSetMathMode(CublasHandle, int mode) {
  return mode == tfaot::cuda::kCublasDefaultMath ||
                 mode == tfaot::cuda::kCublasTf32TensorOpMath
             ? 0
             : kCublasInvalidValue;
}
const char *cublasGetStatusName(int status) {
  return status == kCublasInvalidValue ? "CUBLAS_STATUS_INVALID_VALUE"
                                       : "CUBLAS_STATUS_FAKE";
}

} // extern "C"

namespace {

/// Whether the column-major rows x cols matrix at `base` (leading
/// dimension ld, `batch` of them `stride` apart, `bytes` per element) is
/// inside an allocation.
bool MatrixInside(const void *base, int rows, int cols, int ld,
                  long long stride, int batch, int bytes = 4) {
  auto address = reinterpret_cast<unsigned long long>(base);
  long long last = (static_cast<long long>(cols) - 1) * ld + rows - 1 +
                   (batch - 1) * stride;
  return ld >= rows && UsedOperand(address) &&
         InsideAllocation(address + bytes * last + bytes - 1);
}

/// The checks every product makes first; returns its description.
std::string CheckGemmCall(CublasHandle handle, int m, int n, int k,
                          int batch) {
  std::string what = "cuBLAS product " + std::to_string(m) + "x" +
                     std::to_string(n) + "x" + std::to_string(k);
  if (handle != reinterpret_cast<CublasHandle>(&cublas_token))
    Bad(what + " on a handle cuBLAS did not give");
  if (capturing && cublas_stream != capturing_stream)
    Bad(what + " on another stream than the captured one");
  stats.last_stream = cublas_stream;
  if (m <= 0 || n <= 0 || k <= 0 || batch <= 0)
    Bad(what + ": empty");
  return what;
}

} // namespace

extern "C" {

int cublasSgemmStridedBatched(CublasHandle handle, int transa, int transb,
                              int m, int n, int k, const float *alpha,
                              const float *a, int lda, long long stride_a,
                              const float *b, int ldb, long long stride_b,
                              const float *beta, float *c, int ldc,
                              long long stride_c, int batch) {
  Count(&Graph::gemms, &FakeCudaStats::gemms);
  std::string what = CheckGemmCall(handle, m, n, k, batch);
  if (transa != 0 || transb != 0 || *alpha != 1.0f ||
      (*beta != 0.0f && *beta != 1.0f))
    Bad(what + ": unexpected transposes or scalars");
  if (!MatrixInside(a, m, k, lda, stride_a, batch) ||
      !MatrixInside(b, k, n, ldb, stride_b, batch) ||
      !MatrixInside(c, m, n, ldc, stride_c, batch)) {
    Bad(what + ": a matrix is outside device memory");
    return kCublasInvalidValue;
  }
  return 0;
}

/// The int8 GEMM (what tfaot_rt_cuda_gemm_s8 calls): int8 A and B, int32 C
/// and arithmetic, A transposed ("TN"), alpha 1 and beta 0 or 1, and the
/// alignment cuBLAS documents for it: A and B 4-byte aligned, lda and ldb
/// multiples of 4. Or the 16-bit one (tfaot_rt_cuda_gemm_f16 / _bf16): f16
/// or bf16 A and B of one type, f32 C and arithmetic, no transposes, alpha
/// 1.0f and beta 0.0f or 1.0f.
int cublasGemmStridedBatchedEx(CublasHandle handle, int transa, int transb,
                               int m, int n, int k, const void *alpha,
                               const void *a, int a_type, int lda,
                               long long stride_a, const void *b, int b_type,
                               int ldb, long long stride_b, const void *beta,
                               void *c, int c_type, int ldc,
                               long long stride_c, int batch,
                               int compute_type, int algo) {
  using namespace tfaot::cuda;
  Count(&Graph::gemms, &FakeCudaStats::gemms);
  bool half = a_type == kCudaR16F || a_type == kCudaR16BF;
  if (half) {
    Count(&Graph::half_gemms, &FakeCudaStats::half_gemms);
    std::string what = CheckGemmCall(handle, m, n, k, batch) + " (16-bit)";
    if (b_type != a_type || c_type != kCudaR32F ||
        compute_type != kCublasCompute32F || algo != kCublasGemmDefault)
      Bad(what + ": not f16 x f16 or bf16 x bf16 -> f32 summed in f32");
    if (transa != kCublasOpN || transb != kCublasOpN ||
        *static_cast<const float *>(alpha) != 1.0f ||
        (*static_cast<const float *>(beta) != 0.0f &&
         *static_cast<const float *>(beta) != 1.0f))
      Bad(what + ": unexpected transposes or scalars");
    if (!MatrixInside(a, m, k, lda, stride_a, batch, 2) ||
        !MatrixInside(b, k, n, ldb, stride_b, batch, 2) ||
        !MatrixInside(c, m, n, ldc, stride_c, batch, 4)) {
      Bad(what + ": a matrix is outside device memory");
      return kCublasInvalidValue;
    }
    return 0;
  }
  Count(&Graph::int8_gemms, &FakeCudaStats::int8_gemms);
  std::string what = CheckGemmCall(handle, m, n, k, batch) + " (int8)";
  if (a_type != kCudaR8I || b_type != kCudaR8I || c_type != kCudaR32I ||
      compute_type != kCublasCompute32I || algo != kCublasGemmDefault)
    Bad(what + ": not int8 x int8 -> int32");
  int32_t alpha_value = *static_cast<const int32_t *>(alpha);
  int32_t beta_value = *static_cast<const int32_t *>(beta);
  if (transa != kCublasOpT || transb != kCublasOpN || alpha_value != 1 ||
      (beta_value != 0 && beta_value != 1))
    Bad(what + ": not the TN form, or scalars other than 0 and 1");
  auto aligned4 = [](const void *p) {
    return reinterpret_cast<unsigned long long>(p) % 4 == 0;
  };
  if (!aligned4(a) || !aligned4(b) || lda % 4 != 0 || ldb % 4 != 0)
    Bad(what + ": A, B or their leading dimensions not aligned to 4");
  // op(A) = A^T is m x k: A is stored k x m.
  if (!MatrixInside(a, k, m, lda, stride_a, batch, 1) ||
      !MatrixInside(b, k, n, ldb, stride_b, batch, 1) ||
      !MatrixInside(c, m, n, ldc, stride_c, batch, 4)) {
    Bad(what + ": a matrix is outside device memory");
    return kCublasInvalidValue;
  }
  return 0;
}

CUresult cuGetErrorName(CUresult result, const char **name) {
  *name = result == kOutOfMemory    ? "CUDA_ERROR_OUT_OF_MEMORY"
          : result == kInvalidImage  ? "CUDA_ERROR_INVALID_IMAGE"
          : result == kInvalidValue  ? "CUDA_ERROR_INVALID_VALUE"
          : result == kNotFound      ? "CUDA_ERROR_NOT_FOUND"
                                     : "CUDA_ERROR_FAKE";
  return kSuccess;
}
CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "reported by the fake driver";
  return kSuccess;
}

} // extern "C"

// cuDNN: descriptors remember what they were set to; a convolution checks
// its handle, stream, that its descriptors agree (x, w and y of one data
// type, y the size the convolution makes with its padding, a bias of K of
// y's type, NHWC, f32 arithmetic), the algorithm rules (an identity activation
// only with IMPLICIT_PRECOMP_GEMM), that every tensor and the workspace it
// would touch lie inside live allocations, and is counted.
namespace {

using namespace tfaot::cuda;
constexpr int kCudnnBadParam = 2000;  // kCudnnNotSupported: cudnn.h
int cudnn_token;
CUstream cudnn_stream = nullptr;

struct FakeTensor {
  int format = -1, type = -1, n = 0, c = 0, h = 0, w = 0;
  size_t Bytes() const {
    return size_t(n) * c * h * w * (type == kCudnnDataFloat ? 4 : 2);
  }
};
struct FakeConv {
  int pad_h = -1, pad_w = -1, u = 0, v = 0, dh = 0, dw = 0, mode = -1,
      compute = -1, math = -1;
};
struct FakeActivation {
  int mode = -1;
  double coef = 0;
};

/// FAKE_CUDNN_REFUSE: which convolutions cuDNN refuses.
bool Refuses(bool fused) {
  const char *refuse = std::getenv("FAKE_CUDNN_REFUSE");
  std::string what = refuse ? refuse : "";
  return what == "all" || (fused && what == "fused");
}

template <typename T> T *Get(void *desc) { return static_cast<T *>(desc); }

bool TensorInside(const void *base, size_t bytes) {
  auto address = reinterpret_cast<unsigned long long>(base);
  return bytes && UsedOperand(address) &&
         InsideAllocation(address + bytes - 1);
}

/// The checks both convolutions make; returns their description.
std::string CheckConvCall(CudnnHandle handle, const FakeTensor &x,
                          const FakeTensor &w, const FakeConv &conv,
                          const FakeTensor &y, const void *xp, const void *wp,
                          const void *yp, size_t workspace_bytes,
                          const void *workspace) {
  std::string what = "cuDNN convolution " + std::to_string(x.n) + "x" +
                     std::to_string(x.h) + "x" + std::to_string(x.w) + "x" +
                     std::to_string(x.c);
  if (handle != reinterpret_cast<CudnnHandle>(&cudnn_token))
    Bad(what + " on a handle cuDNN did not give");
  if (capturing && cudnn_stream != capturing_stream)
    Bad(what + " on another stream than the captured one");
  stats.last_stream = cudnn_stream;
  if (x.format != kCudnnTensorNhwc || w.format != kCudnnTensorNhwc ||
      y.format != kCudnnTensorNhwc || x.type != w.type || y.type != x.type)
    Bad(what + ": not NHWC/KRSC of one data type");
  if (conv.pad_h < 0 || conv.pad_w < 0 ||
      conv.mode != kCudnnCrossCorrelation || conv.compute != kCudnnDataFloat)
    Bad(what + ": a negative padding, not a cross-correlation, or not f32 "
               "arithmetic");
  // f32: FMA math (strict fp32) or tensor ops (TF32); 16-bit: tensor ops.
  if (conv.math != kCudnnTensorOpMath &&
      (conv.math != kCudnnFmaMath || x.type != kCudnnDataFloat))
    Bad(what + ": unexpected math type");
  // w is K x C x R x S as cuDNN counts (n, c, h, w of the filter).
  int oh = (x.h + 2 * conv.pad_h - ((w.h - 1) * conv.dh + 1)) / conv.u + 1;
  int ow = (x.w + 2 * conv.pad_w - ((w.w - 1) * conv.dw + 1)) / conv.v + 1;
  if (w.c != x.c || y.c != w.n || y.n != x.n || y.h != oh || y.w != ow)
    Bad(what + ": y is not the size the convolution makes");
  if (!TensorInside(xp, x.Bytes()) || !TensorInside(wp, w.Bytes()) ||
      !TensorInside(yp, y.Bytes()))
    Bad(what + ": a tensor is outside device memory");
  if (workspace_bytes && !TensorInside(workspace, workspace_bytes))
    Bad(what + ": the workspace is outside device memory");
  return what;
}

} // namespace

extern "C" {

size_t cudnnGetVersion() { return 91400; }
const char *cudnnGetErrorString(int status) {
  return status == kCudnnBadParam      ? "CUDNN_STATUS_BAD_PARAM"
         : status == kCudnnNotSupported ? "CUDNN_STATUS_NOT_SUPPORTED"
                                        : "CUDNN_STATUS_FAKE";
}
int cudnnCreate(CudnnHandle *handle) {
  ++stats.cudnn_handles;
  *handle = reinterpret_cast<CudnnHandle>(&cudnn_token);
  return 0;
}
int cudnnDestroy(CudnnHandle) {
  --stats.cudnn_handles;
  return 0;
}
int cudnnSetStream(CudnnHandle, CUstream stream) {
  cudnn_stream = stream;
  return 0;
}

#define FAKE_DESCRIPTOR(Handle, Type, Create, Destroy)                        \
  int Create(Handle *desc) {                                                   \
    if (capturing)                                                             \
      Bad("a cuDNN descriptor created during a capture");                      \
    ++stats.cudnn_descriptors;                                                 \
    *desc = reinterpret_cast<Handle>(new Type);                                \
    return 0;                                                                  \
  }                                                                            \
  int Destroy(Handle desc) {                                                   \
    --stats.cudnn_descriptors;                                                 \
    delete reinterpret_cast<Type *>(desc);                                     \
    return 0;                                                                  \
  }
FAKE_DESCRIPTOR(CudnnTensorDesc, FakeTensor, cudnnCreateTensorDescriptor,
                cudnnDestroyTensorDescriptor)
FAKE_DESCRIPTOR(CudnnFilterDesc, FakeTensor, cudnnCreateFilterDescriptor,
                cudnnDestroyFilterDescriptor)
FAKE_DESCRIPTOR(CudnnConvDesc, FakeConv, cudnnCreateConvolutionDescriptor,
                cudnnDestroyConvolutionDescriptor)
FAKE_DESCRIPTOR(CudnnActivationDesc, FakeActivation,
                cudnnCreateActivationDescriptor,
                cudnnDestroyActivationDescriptor)
#undef FAKE_DESCRIPTOR

int cudnnSetTensor4dDescriptor(CudnnTensorDesc desc, int format, int type,
                               int n, int c, int h, int w) {
  *Get<FakeTensor>(desc) = {format, type, n, c, h, w};
  return n > 0 && c > 0 && h > 0 && w > 0 ? 0 : kCudnnBadParam;
}
int cudnnSetFilter4dDescriptor(CudnnFilterDesc desc, int type, int format,
                               int k, int c, int h, int w) {
  *Get<FakeTensor>(desc) = {format, type, k, c, h, w};
  return k > 0 && c > 0 && h > 0 && w > 0 ? 0 : kCudnnBadParam;
}
int cudnnSetConvolution2dDescriptor(CudnnConvDesc desc, int pad_h, int pad_w,
                                    int u, int v, int dh, int dw, int mode,
                                    int compute) {
  FakeConv &conv = *Get<FakeConv>(desc);
  conv = {pad_h, pad_w, u, v, dh, dw, mode, compute, conv.math};
  return u > 0 && v > 0 && dh > 0 && dw > 0 ? 0 : kCudnnBadParam;
}
int cudnnSetConvolutionMathType(CudnnConvDesc desc, int math) {
  Get<FakeConv>(desc)->math = math;
  return 0;
}
int cudnnSetActivationDescriptor(CudnnActivationDesc desc, int mode, int,
                                 double coef) {
  *Get<FakeActivation>(desc) = {mode, coef};
  bool clipped = mode == kCudnnActivationClippedRelu && coef == 6.0;
  return mode == kCudnnActivationRelu || mode == kCudnnActivationIdentity ||
                 clipped
             ? 0
             : kCudnnBadParam;
}
/// Ranks an algorithm the fused call refuses with a ReLU first (FFT, 4:
/// the runtime must try the next), then IMPLICIT_PRECOMP_GEMM with 4 KiB
/// of workspace.
int cudnnGetConvolutionForwardAlgorithm_v7(CudnnHandle, CudnnTensorDesc,
                                           CudnnFilterDesc, CudnnConvDesc,
                                           CudnnTensorDesc, int requested,
                                           int *returned,
                                           CudnnAlgoPerf *results) {
  if (capturing)
    Bad("cuDNN's heuristics asked during a capture");
  *returned = std::min(requested, 2);
  results[0] = CudnnAlgoPerf{4, 0, 0.1f, 0, 0, 0, {}};
  if (requested > 1)
    results[1] = CudnnAlgoPerf{kCudnnFwdAlgoImplicitPrecompGemm, 0, 0.2f,
                               4096, 0, 0, {}};
  return 0;
}
int cudnnGetConvolutionForwardWorkspaceSize(CudnnHandle, CudnnTensorDesc,
                                            CudnnFilterDesc, CudnnConvDesc,
                                            CudnnTensorDesc, int algo,
                                            size_t *bytes) {
  *bytes = algo == kCudnnFwdAlgoImplicitPrecompGemm ? 4096 : 0;
  return 0;
}
int cudnnConvolutionForward(CudnnHandle handle, const void *alpha,
                            CudnnTensorDesc x_desc, const void *x,
                            CudnnFilterDesc w_desc, const void *w,
                            CudnnConvDesc conv_desc, int algo,
                            void *workspace, size_t workspace_bytes,
                            const void *beta, CudnnTensorDesc y_desc,
                            void *y) {
  if (Refuses(/*fused=*/false))
    return kCudnnNotSupported;
  Count(&Graph::convs, &FakeCudaStats::convs);
  std::string what = CheckConvCall(
      handle, *Get<FakeTensor>(x_desc), *Get<FakeTensor>(w_desc),
      *Get<FakeConv>(conv_desc), *Get<FakeTensor>(y_desc), x, w, y,
      workspace_bytes, workspace);
  // beta 1: a residual already in y (the unfused fallback's z = y).
  float b = *static_cast<const float *>(beta);
  if (*static_cast<const float *>(alpha) != 1.0f || (b != 0.0f && b != 1.0f))
    Bad(what + ": alpha is not 1 or beta not 0 or 1");
  size_t needed = 0;
  cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w_desc, conv_desc,
                                          y_desc, algo, &needed);
  if (workspace_bytes < needed)
    Bad(what + ": workspace too small for its algorithm");
  return 0;
}
int cudnnConvolutionBiasActivationForward(
    CudnnHandle handle, const void *alpha1, CudnnTensorDesc x_desc,
    const void *x, CudnnFilterDesc w_desc, const void *w,
    CudnnConvDesc conv_desc, int algo, void *workspace,
    size_t workspace_bytes, const void *alpha2, CudnnTensorDesc z_desc,
    const void *z, CudnnTensorDesc bias_desc, const void *bias,
    CudnnActivationDesc activation_desc, CudnnTensorDesc y_desc, void *y) {
  const FakeActivation &activation = *Get<FakeActivation>(activation_desc);
  // The FFT algorithm the heuristics rank first: refused, not counted;
  // a clipped ReLU only with IMPLICIT_PRECOMP_GEMM (a pessimistic model:
  // cuDNN documents the fused call with RELU and IDENTITY).
  if (Refuses(/*fused=*/true) ||
      (algo == 4 && activation.mode == kCudnnActivationRelu) ||
      (activation.mode == kCudnnActivationClippedRelu &&
       algo != kCudnnFwdAlgoImplicitPrecompGemm))
    return kCudnnNotSupported;
  Count(&Graph::convs, &FakeCudaStats::convs);
  Count(&Graph::fused_convs, &FakeCudaStats::fused_convs);
  if (activation.mode == kCudnnActivationClippedRelu)
    Count(&Graph::fused_relu6s, &FakeCudaStats::fused_relu6s);
  const FakeTensor &yt = *Get<FakeTensor>(y_desc);
  std::string what =
      CheckConvCall(handle, *Get<FakeTensor>(x_desc), *Get<FakeTensor>(w_desc),
                    *Get<FakeConv>(conv_desc), yt, x, w, y, workspace_bytes,
                    workspace) +
      " (fused)";
  if (activation.mode == kCudnnActivationIdentity &&
      algo != kCudnnFwdAlgoImplicitPrecompGemm)
    Bad(what + ": identity activation without IMPLICIT_PRECOMP_GEMM");
  const FakeTensor &bt = *Get<FakeTensor>(bias_desc);
  if (bt.type != yt.type || bt.n != 1 || bt.c != yt.c || bt.h != 1 ||
      bt.w != 1 || !TensorInside(bias, bt.Bytes()))
    Bad(what + ": the bias is not K of y's type in device memory");
  float a2 = *static_cast<const float *>(alpha2);
  const FakeTensor &zt = *Get<FakeTensor>(z_desc);
  if (*static_cast<const float *>(alpha1) != 1.0f || (a2 != 0 && a2 != 1) ||
      (a2 == 0 && z != y) || zt.type != yt.type || zt.c != yt.c ||
      zt.h != yt.h || zt.w != yt.w || !TensorInside(z, zt.Bytes()))
    Bad(what + ": unexpected alpha1, alpha2 or z");
  return 0;
}
/// The unfused epilogue: c += a, where a is c's shape (a residual) or
/// 1 x C x 1 x 1 (a bias), of c's type, both in device memory.
int cudnnAddTensor(CudnnHandle handle, const void *alpha,
                   CudnnTensorDesc a_desc, const void *a, const void *beta,
                   CudnnTensorDesc c_desc, void *c) {
  Count(&Graph::tensor_adds, &FakeCudaStats::tensor_adds);
  const FakeTensor &at = *Get<FakeTensor>(a_desc);
  const FakeTensor &ct = *Get<FakeTensor>(c_desc);
  bool same = at.n == ct.n && at.h == ct.h && at.w == ct.w;
  bool bias = at.n == 1 && at.h == 1 && at.w == 1;
  if (handle != reinterpret_cast<CudnnHandle>(&cudnn_token) ||
      (capturing && cudnn_stream != capturing_stream))
    Bad("cudnnAddTensor on another handle or stream");
  if (at.type != ct.type || at.c != ct.c || !(same || bias) ||
      at.format != kCudnnTensorNhwc || ct.format != kCudnnTensorNhwc ||
      *static_cast<const float *>(alpha) != 1.0f ||
      *static_cast<const float *>(beta) != 1.0f)
    Bad("cudnnAddTensor: not c += a of one type, a of c's shape or a bias");
  if (!TensorInside(a, at.Bytes()) || !TensorInside(c, ct.Bytes()))
    Bad("cudnnAddTensor: a tensor is outside device memory");
  return 0;
}
/// The unfused activation, in place: RELU or CLIPPED_RELU at 6.
int cudnnActivationForward(CudnnHandle handle,
                           CudnnActivationDesc activation_desc,
                           const void *alpha, CudnnTensorDesc x_desc,
                           const void *x, const void *beta,
                           CudnnTensorDesc y_desc, void *y) {
  Count(&Graph::activations, &FakeCudaStats::activations);
  const FakeActivation &activation = *Get<FakeActivation>(activation_desc);
  const FakeTensor &xt = *Get<FakeTensor>(x_desc);
  if (handle != reinterpret_cast<CudnnHandle>(&cudnn_token) ||
      (capturing && cudnn_stream != capturing_stream))
    Bad("cudnnActivationForward on another handle or stream");
  if (activation.mode == kCudnnActivationIdentity)
    Bad("cudnnActivationForward with IDENTITY (the fused call's only)");
  if (x != y || x_desc != y_desc || *static_cast<const float *>(alpha) != 1 ||
      *static_cast<const float *>(beta) != 0 ||
      !TensorInside(x, xt.Bytes()))
    Bad("cudnnActivationForward: not in place on device memory");
  if (activation.mode == kCudnnActivationClippedRelu)
    Count(&Graph::relu6_activations, &FakeCudaStats::relu6_activations);
  return 0;
}

} // extern "C"
