//===- cudnn.h - cuDNN convolutions, loaded at run time ----------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to tfaot_cuda_runtime. Models compiled with --gpu_conv=cudnn
// hand their convolutions, with a bias, residual add and ReLU after them,
// to cuDNN (tfaot_rt_cuda_conv, backends/gpu/HostLaunch.h). Like cuBLAS,
// libcudnn is opened with dlopen on first use, so that programs build,
// link and start without it and a missing library is an error_msg(). The
// entry points used are cuDNN 9's legacy C API (present from 9.0 on; the
// declarations below follow cudnn_graph.h, cudnn_ops.h and cudnn_cnn.h).
//
// CudnnConvs is one instance's cuDNN state: the handle, and per
// convolution (by its site number) the descriptors and the algorithm,
// made on the instance's first Run(), which launches directly; the second
// Run() captures the calls into a CUDA graph, and nothing is created or
// allocated during a capture. One workspace, the largest any convolution
// asks for, serves them all (they run in order on one stream).
//
// cuDNN refuses some fused configurations (CUDNN_STATUS_NOT_SUPPORTED from
// cudnnConvolutionBiasActivationForward for every algorithm: on the H200,
// TF32 1x1 f32 convolutions of ResNet-50). Such a convolution falls back,
// on that first Run() and for good, to cudnnConvolutionForward and its
// epilogue as cudnnAddTensor (residual, bias) and cudnnActivationForward;
// if cuDNN refuses that too, Run() fails naming the layer.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_CUDA_CUDNN_H
#define TFAOT_RUNTIME_CUDA_CUDNN_H

#include "cuda_driver.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace tfaot::cuda {

using CudnnStatus = int;
using CudnnHandle = struct cudnnContext *;
using CudnnTensorDesc = struct cudnnTensorStruct *;
using CudnnFilterDesc = struct cudnnFilterStruct *;
using CudnnConvDesc = struct cudnnConvolutionStruct *;
using CudnnActivationDesc = struct cudnnActivationStruct *;

constexpr CudnnStatus kCudnnSuccess = 0;
constexpr CudnnStatus kCudnnNotSupported = 3000;
// cudnnDataType_t, cudnnTensorFormat_t, cudnnMathType_t,
// cudnnConvolutionMode_t, cudnnActivationMode_t, cudnnNanPropagation_t
// and cudnnConvolutionFwdAlgo_t values (cudnn_graph.h, cudnn_ops.h).
constexpr int kCudnnDataFloat = 0;
constexpr int kCudnnDataHalf = 2;
constexpr int kCudnnDataBfloat16 = 9;
constexpr int kCudnnTensorNhwc = 1;
constexpr int kCudnnDefaultMath = 0;
constexpr int kCudnnTensorOpMath = 1;
constexpr int kCudnnFmaMath = 3;
constexpr int kCudnnCrossCorrelation = 1;
constexpr int kCudnnActivationRelu = 1;
constexpr int kCudnnActivationClippedRelu = 3;
constexpr int kCudnnActivationIdentity = 5;
constexpr int kCudnnNotPropagateNan = 0;
constexpr int kCudnnFwdAlgoImplicitPrecompGemm = 1;

/// cudnnConvolutionFwdAlgoPerf_t (cudnn_cnn.h).
struct CudnnAlgoPerf {
  int algo;
  CudnnStatus status;
  float time;
  size_t memory;
  int determinism;
  int math_type;
  int reserved[3];
};

struct Cudnn {
  size_t (*cudnnGetVersion)();
  const char *(*cudnnGetErrorString)(CudnnStatus);
  CudnnStatus (*cudnnCreate)(CudnnHandle *);
  CudnnStatus (*cudnnDestroy)(CudnnHandle);
  CudnnStatus (*cudnnSetStream)(CudnnHandle, CUstream);
  CudnnStatus (*cudnnCreateTensorDescriptor)(CudnnTensorDesc *);
  CudnnStatus (*cudnnDestroyTensorDescriptor)(CudnnTensorDesc);
  CudnnStatus (*cudnnSetTensor4dDescriptor)(CudnnTensorDesc, int format,
                                            int type, int n, int c, int h,
                                            int w);
  CudnnStatus (*cudnnCreateFilterDescriptor)(CudnnFilterDesc *);
  CudnnStatus (*cudnnDestroyFilterDescriptor)(CudnnFilterDesc);
  CudnnStatus (*cudnnSetFilter4dDescriptor)(CudnnFilterDesc, int type,
                                            int format, int k, int c, int h,
                                            int w);
  CudnnStatus (*cudnnCreateConvolutionDescriptor)(CudnnConvDesc *);
  CudnnStatus (*cudnnDestroyConvolutionDescriptor)(CudnnConvDesc);
  CudnnStatus (*cudnnSetConvolution2dDescriptor)(CudnnConvDesc, int pad_h,
                                                 int pad_w, int u, int v,
                                                 int dilation_h,
                                                 int dilation_w, int mode,
                                                 int compute_type);
  CudnnStatus (*cudnnSetConvolutionMathType)(CudnnConvDesc, int);
  CudnnStatus (*cudnnCreateActivationDescriptor)(CudnnActivationDesc *);
  CudnnStatus (*cudnnDestroyActivationDescriptor)(CudnnActivationDesc);
  CudnnStatus (*cudnnSetActivationDescriptor)(CudnnActivationDesc, int mode,
                                              int nan_opt, double coef);
  CudnnStatus (*cudnnGetConvolutionForwardAlgorithm_v7)(
      CudnnHandle, CudnnTensorDesc, CudnnFilterDesc, CudnnConvDesc,
      CudnnTensorDesc, int requested, int *returned, CudnnAlgoPerf *results);
  CudnnStatus (*cudnnGetConvolutionForwardWorkspaceSize)(
      CudnnHandle, CudnnTensorDesc, CudnnFilterDesc, CudnnConvDesc,
      CudnnTensorDesc, int algo, size_t *bytes);
  CudnnStatus (*cudnnConvolutionForward)(
      CudnnHandle, const void *alpha, CudnnTensorDesc, const void *x,
      CudnnFilterDesc, const void *w, CudnnConvDesc, int algo,
      void *workspace, size_t workspace_bytes, const void *beta,
      CudnnTensorDesc, void *y);
  CudnnStatus (*cudnnConvolutionBiasActivationForward)(
      CudnnHandle, const void *alpha1, CudnnTensorDesc, const void *x,
      CudnnFilterDesc, const void *w, CudnnConvDesc, int algo,
      void *workspace, size_t workspace_bytes, const void *alpha2,
      CudnnTensorDesc, const void *z, CudnnTensorDesc, const void *bias,
      CudnnActivationDesc, CudnnTensorDesc, void *y);
  CudnnStatus (*cudnnAddTensor)(CudnnHandle, const void *alpha,
                                CudnnTensorDesc, const void *a,
                                const void *beta, CudnnTensorDesc, void *c);
  CudnnStatus (*cudnnActivationForward)(CudnnHandle, CudnnActivationDesc,
                                        const void *alpha, CudnnTensorDesc,
                                        const void *x, const void *beta,
                                        CudnnTensorDesc, void *y);
};

/// cuDNN, loaded once per process; null, with `why` set, if it cannot be.
/// Tries $TFAOT_LIBCUDNN if set, else libcudnn.so.9 from the library path,
/// then from $CUDA_HOME/lib64, /usr/local/cuda/lib64 and
/// /usr/lib/x86_64-linux-gnu.
const Cudnn *LoadCudnn(std::string *why);

/// One convolution as tfaot_rt_cuda_conv describes it (HostLaunch.h).
struct ConvShape {
  int64_t n, h, w, c, k, r, s, oh, ow, stride_h, stride_w, dilation_h,
      dilation_w;
  int64_t pad_h, pad_w;  ///< Zeros on each side of x's H and W.
  int32_t flags;         ///< cuda_image::kConv* bits.
  bool operator==(const ConvShape &o) const {
    return std::tie(n, h, w, c, k, r, s, oh, ow, stride_h, stride_w,
                    dilation_h, dilation_w, pad_h, pad_w, flags) ==
           std::tie(o.n, o.h, o.w, o.c, o.k, o.r, o.s, o.oh, o.ow, o.stride_h,
                    o.stride_w, o.dilation_h, o.dilation_w, o.pad_h, o.pad_w,
                    o.flags);
  }
};

/// The device addresses of one call's operands (bias and z: 0 if none).
struct ConvOperands {
  CUdeviceptr x, w, bias, z, y;
};

class CudnnConvs {
public:
  /// Runs convolution `site` (the TF node `layer`) on `stream`: its
  /// descriptors are made on its first call. "" on success, else the
  /// error for error_msg().
  std::string Run(const Driver &driver, CUstream stream, int64_t site,
                  const char *layer, const ConvShape &shape,
                  const ConvOperands &operands);
  /// Destroys the descriptors and the handle and frees the workspace (the
  /// stream must be idle and the instance's context current).
  void Release(const Driver &driver);

private:
  struct Plan {
    ConvShape shape{};
    CudnnTensorDesc x = nullptr, y = nullptr, bias = nullptr;
    CudnnFilterDesc w = nullptr;
    CudnnConvDesc conv = nullptr;
    CudnnActivationDesc activation = nullptr;
    /// Candidate algorithms, best first; once one has run (`verified`),
    /// the first is the one used.
    std::vector<int> algos;
    bool verified = false;
    /// cuDNN refused the fused call: cudnnConvolutionForward, then the
    /// epilogue as separate cuDNN calls.
    bool unfused = false;
  };
  std::string MakePlan(const Driver &driver, CUstream stream,
                       const ConvShape &shape, Plan &plan);
  /// The algorithms cudnnGetConvolutionForwardAlgorithm_v7 ranks, best
  /// first, into plan.algos, and the workspace grown for them.
  std::string RankAlgorithms(const Driver &driver, CUstream stream,
                             Plan &plan, const std::string &what);
  std::string GrowWorkspace(const Driver &driver, CUstream stream,
                            const Plan &plan);
  /// Tries plan.algos until one runs (only before one has: then a refusal
  /// is an error); returns the last status.
  template <typename Call> CudnnStatus TryAlgorithms(Plan &plan, Call call);
  /// Runs a planned convolution: fused, or unfused once cuDNN refused the
  /// fused call. `name` names the layer for errors.
  std::string RunPlan(const Driver &driver, CUstream stream, Plan &plan,
                      const std::string &name, const ConvOperands &operands);
  CudnnStatus RunFused(Plan &plan, const ConvOperands &operands);
  CudnnStatus RunUnfused(Plan &plan, const ConvOperands &operands,
                         std::string &failed);
  void DestroyPlan(Plan &plan);
  std::string StatusName(CudnnStatus status) const;
  std::string Error(const std::string &what, CudnnStatus status) const;

  const Cudnn *cudnn_ = nullptr;
  CudnnHandle handle_ = nullptr;
  std::unordered_map<int64_t, Plan> plans_;
  CUdeviceptr workspace_ = 0;
  size_t workspace_bytes_ = 0;
};

} // namespace tfaot::cuda

#endif // TFAOT_RUNTIME_CUDA_CUDNN_H
