//===- cudnn.cpp - cuDNN convolutions, loaded at run time -----------------===//
// SPDX-License-Identifier: Apache-2.0
#include "cudnn.h"
#include "dynamic_library.h"

#include "tfaot/runtime/cuda_image.h"

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

namespace tfaot::cuda {
namespace {

struct LoadResult {
  Cudnn cudnn{};
  bool ok = false;
  std::string why;
};


/// An explicit choice, or the soname (the loader's search path), then the
/// toolkit's directory and the distribution's, often not in that path.
std::vector<std::string> Candidates() {
  if (const char *path = std::getenv("TFAOT_LIBCUDNN"); path && *path)
    return {path};
  std::vector<std::string> paths = {"libcudnn.so.9"};
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    paths.push_back(std::string(home) + "/lib64/libcudnn.so.9");
  paths.push_back("/usr/local/cuda/lib64/libcudnn.so.9");
  paths.push_back("/usr/lib/x86_64-linux-gnu/libcudnn.so.9");
  return paths;
}

LoadResult Load() {
  LoadResult result;
  std::string tried;
  void *library = OpenFirstLibrary(Candidates(), tried);
  if (!library) {
    result.why = "cuDNN not found: cannot load " + tried +
                 "; install cuDNN 9 or set TFAOT_LIBCUDNN, or compile with "
                 "--gpu_conv=im2col to run without it";
    return result;
  }
  Cudnn &c = result.cudnn;
  std::string missing;
  Resolve(library, "cudnnGetVersion", c.cudnnGetVersion, missing);
  Resolve(library, "cudnnGetErrorString", c.cudnnGetErrorString, missing);
  Resolve(library, "cudnnCreate", c.cudnnCreate, missing);
  Resolve(library, "cudnnDestroy", c.cudnnDestroy, missing);
  Resolve(library, "cudnnSetStream", c.cudnnSetStream, missing);
  Resolve(library, "cudnnCreateTensorDescriptor", c.cudnnCreateTensorDescriptor,
         missing);
  Resolve(library, "cudnnDestroyTensorDescriptor",
         c.cudnnDestroyTensorDescriptor, missing);
  Resolve(library, "cudnnSetTensor4dDescriptor", c.cudnnSetTensor4dDescriptor,
         missing);
  Resolve(library, "cudnnCreateFilterDescriptor", c.cudnnCreateFilterDescriptor,
         missing);
  Resolve(library, "cudnnDestroyFilterDescriptor",
         c.cudnnDestroyFilterDescriptor, missing);
  Resolve(library, "cudnnSetFilter4dDescriptor", c.cudnnSetFilter4dDescriptor,
         missing);
  Resolve(library, "cudnnCreateConvolutionDescriptor",
         c.cudnnCreateConvolutionDescriptor, missing);
  Resolve(library, "cudnnDestroyConvolutionDescriptor",
         c.cudnnDestroyConvolutionDescriptor, missing);
  Resolve(library, "cudnnSetConvolution2dDescriptor",
         c.cudnnSetConvolution2dDescriptor, missing);
  Resolve(library, "cudnnSetConvolutionMathType", c.cudnnSetConvolutionMathType,
         missing);
  Resolve(library, "cudnnCreateActivationDescriptor",
         c.cudnnCreateActivationDescriptor, missing);
  Resolve(library, "cudnnDestroyActivationDescriptor",
         c.cudnnDestroyActivationDescriptor, missing);
  Resolve(library, "cudnnSetActivationDescriptor",
         c.cudnnSetActivationDescriptor, missing);
  Resolve(library, "cudnnGetConvolutionForwardAlgorithm_v7",
         c.cudnnGetConvolutionForwardAlgorithm_v7, missing);
  Resolve(library, "cudnnGetConvolutionForwardWorkspaceSize",
         c.cudnnGetConvolutionForwardWorkspaceSize, missing);
  Resolve(library, "cudnnConvolutionForward", c.cudnnConvolutionForward,
         missing);
  Resolve(library, "cudnnConvolutionBiasActivationForward",
         c.cudnnConvolutionBiasActivationForward, missing);
  Resolve(library, "cudnnAddTensor", c.cudnnAddTensor, missing);
  Resolve(library, "cudnnActivationForward", c.cudnnActivationForward,
          missing);
  if (!missing.empty()) {
    result.why = "cuDNN too old or incomplete: the loaded library lacks " +
                 missing + " (cuDNN 9 is needed)";
    return result;
  }
  if (c.cudnnGetVersion() < 90000) {
    result.why = "cuDNN too old: version " +
                 std::to_string(c.cudnnGetVersion()) +
                 " loaded, 9.0 or newer is needed";
    return result;
  }
  result.ok = true;
  return result;
}

int DataType(int32_t flags) {
  if (flags & cuda_image::kConvF16)
    return kCudnnDataHalf;
  if (flags & cuda_image::kConvBF16)
    return kCudnnDataBfloat16;
  return kCudnnDataFloat;
}

/// "a 3x3 f16 convolution of 32x56x56x64 into 32x56x56x64", for errors.
std::string Describe(const ConvShape &s) {
  const char *type = s.flags & cuda_image::kConvF16    ? "f16"
                     : s.flags & cuda_image::kConvBF16 ? "bf16"
                                                       : "f32";
  auto dims = [](int64_t a, int64_t b, int64_t c, int64_t d) {
    return std::to_string(a) + "x" + std::to_string(b) + "x" +
           std::to_string(c) + "x" + std::to_string(d);
  };
  std::string padded =
      s.pad_h || s.pad_w ? " padded by " + std::to_string(s.pad_h) + "x" +
                               std::to_string(s.pad_w)
                         : "";
  return "a " + std::to_string(s.r) + "x" + std::to_string(s.s) + " " + type +
         " convolution of " + dims(s.n, s.h, s.w, s.c) + padded + " into " +
         dims(s.n, s.oh, s.ow, s.k);
}

} // namespace

const Cudnn *LoadCudnn(std::string *why) {
  static const LoadResult loaded = Load();
  if (!loaded.ok && why)
    *why = loaded.why;
  return loaded.ok ? &loaded.cudnn : nullptr;
}

std::string CudnnConvs::StatusName(CudnnStatus status) const {
  const char *name = cudnn_->cudnnGetErrorString(status);
  return name ? name : "cuDNN status " + std::to_string(status);
}

std::string CudnnConvs::Error(const std::string &what,
                              CudnnStatus status) const {
  return "cuDNN error: " + what + " failed with " + StatusName(status);
}

std::string CudnnConvs::MakePlan(const Driver &driver, CUstream stream,
                                 const ConvShape &s, Plan &plan) {
  const Cudnn &c = *cudnn_;
  plan.shape = s;
  int type = DataType(s.flags);
  bool fused = s.flags & cuda_image::kConvBias;
  std::string what = Describe(s);
  CudnnStatus status = c.cudnnCreateTensorDescriptor(&plan.x);
  if (status == kCudnnSuccess)
    status = c.cudnnCreateTensorDescriptor(&plan.y);
  if (status == kCudnnSuccess)
    status = c.cudnnCreateFilterDescriptor(&plan.w);
  if (status == kCudnnSuccess)
    status = c.cudnnCreateConvolutionDescriptor(&plan.conv);
  if (status == kCudnnSuccess && fused)
    status = c.cudnnCreateTensorDescriptor(&plan.bias);
  if (status == kCudnnSuccess && fused)
    status = c.cudnnCreateActivationDescriptor(&plan.activation);
  if (status != kCudnnSuccess)
    return Error("creating the descriptors of " + what, status);
  status = c.cudnnSetTensor4dDescriptor(plan.x, kCudnnTensorNhwc, type, s.n,
                                        s.c, s.h, s.w);
  if (status == kCudnnSuccess)
    status = c.cudnnSetTensor4dDescriptor(plan.y, kCudnnTensorNhwc, type, s.n,
                                          s.k, s.oh, s.ow);
  // KRSC is the NHWC filter format.
  if (status == kCudnnSuccess)
    status = c.cudnnSetFilter4dDescriptor(plan.w, type, kCudnnTensorNhwc, s.k,
                                          s.c, s.r, s.s);
  // Zero padding on both sides (an asymmetric one is a copy before the
  // call); f32 arithmetic for every data type. Strict fp32 needs FMA math:
  // the default lets cuDNN use TF32 on Ampere and newer.
  if (status == kCudnnSuccess)
    status = c.cudnnSetConvolution2dDescriptor(
        plan.conv, static_cast<int>(s.pad_h), static_cast<int>(s.pad_w),
        s.stride_h, s.stride_w, s.dilation_h, s.dilation_w,
        kCudnnCrossCorrelation, kCudnnDataFloat);
  int math = type != kCudnnDataFloat ||
                     (s.flags & cuda_image::kConvAllowTf32)
                 ? kCudnnTensorOpMath
                 : kCudnnFmaMath;
  if (status == kCudnnSuccess)
    status = c.cudnnSetConvolutionMathType(plan.conv, math);
  // The bias of the 16-bit configurations is 16-bit (as y).
  if (status == kCudnnSuccess && fused)
    status = c.cudnnSetTensor4dDescriptor(plan.bias, kCudnnTensorNhwc, type, 1,
                                          s.k, 1, 1);
  // ReLU6 is CLIPPED_RELU with a ceiling of 6.
  bool relu = s.flags & cuda_image::kConvRelu;
  bool relu6 = s.flags & cuda_image::kConvRelu6;
  int mode = relu6  ? kCudnnActivationClippedRelu
             : relu ? kCudnnActivationRelu
                    : kCudnnActivationIdentity;
  if (status == kCudnnSuccess && fused)
    status = c.cudnnSetActivationDescriptor(
        plan.activation, mode, kCudnnNotPropagateNan, relu6 ? 6.0 : 0.0);
  if (status != kCudnnSuccess)
    return Error("describing " + what, status);
  // The fused call takes an identity activation only with
  // IMPLICIT_PRECOMP_GEMM; otherwise cuDNN's heuristics rank the
  // algorithms (for cudnnConvolutionForward: not all of them take the
  // fused call's activations), IMPLICIT_PRECOMP_GEMM added last if they
  // leave it out, and the first that runs is kept (Run).
  if (fused && mode == kCudnnActivationIdentity) {
    plan.algos = {kCudnnFwdAlgoImplicitPrecompGemm};
    return GrowWorkspace(driver, stream, plan);
  }
  std::string error = RankAlgorithms(driver, stream, plan, what);
  if (error.empty() && fused &&
      std::find(plan.algos.begin(), plan.algos.end(),
                kCudnnFwdAlgoImplicitPrecompGemm) == plan.algos.end()) {
    plan.algos.push_back(kCudnnFwdAlgoImplicitPrecompGemm);
    error = GrowWorkspace(driver, stream, plan);
  }
  return error;
}

std::string CudnnConvs::RankAlgorithms(const Driver &driver, CUstream stream,
                                       Plan &plan, const std::string &what) {
  CudnnAlgoPerf perf[8];
  int returned = 0;
  CudnnStatus status = cudnn_->cudnnGetConvolutionForwardAlgorithm_v7(
      handle_, plan.x, plan.w, plan.conv, plan.y, 8, &returned, perf);
  if (status != kCudnnSuccess)
    return Error("choosing an algorithm for " + what, status);
  plan.algos.clear();
  for (int i = 0; i < returned; ++i)
    if (perf[i].status == kCudnnSuccess)
      plan.algos.push_back(perf[i].algo);
  if (plan.algos.empty())
    return "cuDNN error: no algorithm for " + what;
  return GrowWorkspace(driver, stream, plan);
}

std::string CudnnConvs::GrowWorkspace(const Driver &driver, CUstream stream,
                                      const Plan &plan) {
  // One workspace for all: grown, before any capture, to the largest.
  const Cudnn &c = *cudnn_;
  size_t largest = 0;
  for (int algo : plan.algos) {
    size_t bytes = 0;
    if (c.cudnnGetConvolutionForwardWorkspaceSize(
            handle_, plan.x, plan.w, plan.conv, plan.y, algo, &bytes) ==
        kCudnnSuccess)
      largest = std::max(largest, bytes);
  }
  if (largest > workspace_bytes_) {
    // Convolutions queued before may still use the old one.
    driver.cuStreamSynchronize(stream);
    if (workspace_)
      driver.cuMemFree(workspace_);
    workspace_ = 0;
    workspace_bytes_ = 0;
    if (driver.cuMemAlloc(&workspace_, largest) != kSuccess) {
      workspace_ = 0;
      return "out of GPU memory: allocating " + std::to_string(largest) +
             " bytes of cuDNN workspace failed";
    }
    workspace_bytes_ = largest;
  }
  return "";
}

void CudnnConvs::DestroyPlan(Plan &plan) {
  const Cudnn &c = *cudnn_;
  if (plan.x)
    c.cudnnDestroyTensorDescriptor(plan.x);
  if (plan.y)
    c.cudnnDestroyTensorDescriptor(plan.y);
  if (plan.bias)
    c.cudnnDestroyTensorDescriptor(plan.bias);
  if (plan.w)
    c.cudnnDestroyFilterDescriptor(plan.w);
  if (plan.conv)
    c.cudnnDestroyConvolutionDescriptor(plan.conv);
  if (plan.activation)
    c.cudnnDestroyActivationDescriptor(plan.activation);
  plan = Plan();
}

template <typename Call>
CudnnStatus CudnnConvs::TryAlgorithms(Plan &plan, Call call) {
  // Until one algorithm has run, the next candidate is tried when cuDNN
  // refuses one (its checks are synchronous): the heuristics rank
  // cudnnConvolutionForward's algorithms, not all of which the fused call
  // takes.
  CudnnStatus status = kCudnnNotSupported;
  while (!plan.algos.empty()) {
    status = call(plan.algos.front());
    if (status == kCudnnSuccess) {
      plan.verified = true;
      break;
    }
    if (plan.verified)
      break;
    plan.algos.erase(plan.algos.begin());
  }
  return status;
}

CudnnStatus CudnnConvs::RunFused(Plan &plan, const ConvOperands &operands) {
  const float one = 1.0f;
  bool residual = plan.shape.flags & cuda_image::kConvResidual;
  // Without a residual, z is y with alpha2 = 0 (what cuDNN documents).
  const float alpha2 = residual ? 1.0f : 0.0f;
  auto *z = reinterpret_cast<const void *>(residual ? operands.z : operands.y);
  return TryAlgorithms(plan, [&](int algo) {
    return cudnn_->cudnnConvolutionBiasActivationForward(
        handle_, &one, plan.x, reinterpret_cast<const void *>(operands.x),
        plan.w, reinterpret_cast<const void *>(operands.w), plan.conv, algo,
        reinterpret_cast<void *>(workspace_), workspace_bytes_, &alpha2,
        plan.y, z, plan.bias, reinterpret_cast<const void *>(operands.bias),
        plan.activation, plan.y, reinterpret_cast<void *>(operands.y));
  });
}

CudnnStatus CudnnConvs::RunUnfused(Plan &plan, const ConvOperands &operands,
                                   std::string &failed) {
  const Cudnn &c = *cudnn_;
  const float one = 1.0f, zero = 0.0f;
  int32_t flags = plan.shape.flags;
  bool fused = flags & cuda_image::kConvBias;
  bool residual = flags & cuda_image::kConvResidual;
  auto *y = reinterpret_cast<void *>(operands.y);
  // A residual read in place (z is y) is the convolution's beta = 1; else
  // y is overwritten and z added after.
  bool zIsY = residual && operands.z == operands.y;
  failed = "cudnnConvolutionForward";
  CudnnStatus status = TryAlgorithms(plan, [&](int algo) {
    return c.cudnnConvolutionForward(
        handle_, &one, plan.x, reinterpret_cast<const void *>(operands.x),
        plan.w, reinterpret_cast<const void *>(operands.w), plan.conv, algo,
        reinterpret_cast<void *>(workspace_), workspace_bytes_,
        zIsY ? &one : &zero, plan.y, y);
  });
  if (status != kCudnnSuccess || !fused)
    return status;
  failed = "cudnnAddTensor";
  if (residual && !zIsY)
    status = c.cudnnAddTensor(handle_, &one, plan.y,
                              reinterpret_cast<const void *>(operands.z),
                              &one, plan.y, y);
  if (status == kCudnnSuccess)
    status = c.cudnnAddTensor(handle_, &one, plan.bias,
                              reinterpret_cast<const void *>(operands.bias),
                              &one, plan.y, y);
  // cudnnActivationForward takes no IDENTITY (and needs none).
  failed = "cudnnActivationForward";
  if (status == kCudnnSuccess && (flags & cuda_image::kConvRelu))
    status = c.cudnnActivationForward(handle_, plan.activation, &one, plan.y,
                                      y, &zero, plan.y, y);
  return status;
}

std::string CudnnConvs::Run(const Driver &driver, CUstream stream,
                            int64_t site, const char *layer,
                            const ConvShape &shape,
                            const ConvOperands &operands) {
  if (!handle_) {
    std::string why;
    cudnn_ = LoadCudnn(&why);
    if (!cudnn_)
      return why;
    CudnnStatus status = cudnn_->cudnnCreate(&handle_);
    if (status != kCudnnSuccess) {
      handle_ = nullptr;
      return Error("cudnnCreate", status);
    }
  }
  const Cudnn &c = *cudnn_;
  std::string layerName = layer && *layer ? layer : "?";
  std::string name = "layer '" + layerName + "' (" + Describe(shape) + ")";
  if (std::max({shape.n, shape.h, shape.w, shape.c, shape.k, shape.oh,
                shape.ow}) > INT_MAX)
    return name + " is too large for cuDNN (32-bit sizes)";
  CudnnStatus status = c.cudnnSetStream(handle_, stream);
  if (status != kCudnnSuccess)
    return Error("cudnnSetStream", status);
  Plan &plan = plans_[site];
  if (plan.x && !(plan.shape == shape))
    DestroyPlan(plan);  // The same site with other sizes: not generated.
  if (!plan.x) {
    std::string error = MakePlan(driver, stream, shape, plan);
    if (!error.empty()) {
      DestroyPlan(plan);
      plans_.erase(site);
      return error + " (layer '" + layerName + "')";
    }
  }
  std::string error = RunPlan(driver, stream, plan, name, operands);
  if (!error.empty()) {
    // The instance has failed; a later Run() starts this one afresh.
    DestroyPlan(plan);
    plans_.erase(site);
  }
  return error;
}

std::string CudnnConvs::RunPlan(const Driver &driver, CUstream stream,
                                Plan &plan, const std::string &name,
                                const ConvOperands &operands) {
  const ConvShape &shape = plan.shape;
  CudnnStatus status;
  bool fused = shape.flags & cuda_image::kConvBias;
  // Set when this call found the fused call refused.
  std::string refused;
  if (fused && !plan.unfused) {
    bool wasVerified = plan.verified;
    status = RunFused(plan, operands);
    if (status == kCudnnSuccess)
      return "";
    if (wasVerified)
      return Error("cudnnConvolutionBiasActivationForward of " + name, status);
    // Refused with every algorithm: from now on unfused, its algorithms
    // ranked anew for cudnnConvolutionForward.
    refused = "cuDNN refused " + name +
              ": the fused call (cudnnConvolutionBiasActivationForward) "
              "with " +
              StatusName(status) + ", and unfused, ";
    plan.unfused = true;
    std::string error = RankAlgorithms(driver, stream, plan, Describe(shape));
    if (!error.empty())
      return refused + error;
  }
  std::string failed;
  bool wasVerified = plan.verified;
  status = RunUnfused(plan, operands, failed);
  if (status == kCudnnSuccess)
    return "";
  if (refused.empty() || wasVerified)
    return Error(failed + " of " + name, status);
  return refused + failed + " with " + StatusName(status) +
         "; compile with --gpu_conv=im2col to run it without cuDNN";
}

void CudnnConvs::Release(const Driver &driver) {
  if (!cudnn_)
    return;
  for (auto &entry : plans_)
    DestroyPlan(entry.second);
  plans_.clear();
  if (handle_)
    cudnn_->cudnnDestroy(handle_);
  handle_ = nullptr;
  if (workspace_)
    driver.cuMemFree(workspace_);
  workspace_ = 0;
  workspace_bytes_ = 0;
}

} // namespace tfaot::cuda
