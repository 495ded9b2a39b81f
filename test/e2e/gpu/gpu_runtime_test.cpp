//===- gpu_runtime_test.cpp - CUDA-compiled models against CPU ones ------===//
// SPDX-License-Identifier: Apache-2.0
//
// simple_mnist, fc-layers, emotion and blazeface are compiled three times,
// --target=cuda, --target=cpu and --target=cuda --gpu_emulate (the kernel
// mapping run as loops on the CPU), and linked together (the program links
// nothing CUDA-specific). Modes:
//
//   (no arguments)            run the CUDA and CPU builds on the same
//                             inputs and compare the results; without a GPU
//                             (no driver or no device) exit 77, which ctest
//                             reports as a skip, after printing why;
//   --emulated                the same with the emulated build in place of
//                             the CUDA one (runs anywhere);
//   --expect-error PREFIX     Run() must fail, twice, with error_msg()
//                             starting with PREFIX, and so must running the
//                             CUDA class through a CompiledFunction& (which
//                             has to go through CudaCompiledFunction::Run);
//   --expect-cudnn-error PREFIX  the same for a --gpu_conv=cudnn model;
//   --fake-driver LIB         with TFAOT_LIBCUDA=LIB, the fake driver of
//                             fake_cuda_driver.cpp: checks what the runtime
//                             asked of the driver over three runs and the
//                             instance's destruction (FAKE_CUDA_* set the
//                             device it pretends to be);
//   --fake-cudnn-fallback LIB the same with FAKE_CUDNN_REFUSE=fused: the
//                             convolutions' fallback to unfused cuDNN calls.
//
//===----------------------------------------------------------------------===//
#include "blazeface_cpu.h"
#include "blazeface_emulated.h"
#include "emotion_cpu.h"
#include "emotion_bf16_emulated.h"
#include "emotion_cudnn_emulated.h"
#include "emotion_cudnn_fp16_emulated.h"
#include "blazeface_cudnn_emulated.h"
#include "emotion_emulated.h"
#include "emotion_fp16_emulated.h"
#include "emotion_int8_cpu.h"
#include "emotion_int8_emulated.h"
#if TFAOT_GPU_TEST_CUDA_CONV_NETS // Built where CUDA's libdevice is.
#include "blazeface_cuda.h"
#include "blazeface_cudnn_cuda.h"
#include "emotion_bf16_cuda.h"
#include "emotion_cuda.h"
#include "emotion_cudnn_cuda.h"
#include "emotion_cudnn_fp16_cuda.h"
#include "emotion_fp16_cuda.h"
#include "emotion_int8_cuda.h"
#include "meet_cuda.h"
#endif
#include "fc_layers_bf16_cuda.h"
#include "fc_layers_bf16_emulated.h"
#include "fc_layers_buckets_cuda.h"
#include "fc_layers_buckets_emulated.h"
#include "fc_layers_cpu.h"
#include "fc_layers_cuda.h"
#include "fc_layers_emulated.h"
#include "fc_layers_fp16_cuda.h"
#include "fc_layers_fp16_emulated.h"
#include "fc_layers_int8_cpu.h"
#include "fc_layers_int8_cuda.h"
#include "fc_layers_int8_emulated.h"
#include "mnist_cpu.h"
#include "mnist_cuda.h"
#include "mnist_emulated.h"
#include "meet_cpu.h"
#include "meet_emulated.h"
#include "mobilenet_v2_cpu.h"
#include "mobilenet_v2_emulated.h"
#include "mobilenet_v2bf16_emulated.h"
#include "mobilenet_v2direct_emulated.h"
#include "mobilenet_v2fp16_emulated.h"
#include "mobilenet_v2fp16direct_emulated.h"

#include "fake_cuda_stats.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

namespace {

constexpr int kSkip = 77;

/// Deterministic inputs in [0, 1), different for each seed.
void Fill(float *data, int64_t n, int seed) {
  for (int64_t i = 0; i < n; ++i)
    data[i] = 0.5f + 0.5f * std::sin(0.37f * static_cast<float>(i) + seed);
}

bool StartsWith(const std::string &s, const std::string &prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

/// |gpu - cpu| <= 1e-4 + 1e-4 |cpu| elementwise: the GPU kernels sum in the
/// same order but contract a*b+c into FMAs, as the CPU code does in other
/// places, so the last bits may differ.
bool Close(const char *what, const float *gpu, const float *cpu, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    float tolerance = 1e-4f + 1e-4f * std::fabs(cpu[i]);
    if (!(std::fabs(gpu[i] - cpu[i]) <= tolerance)) {
      std::printf("FAIL %s[%lld]: GPU %.7g, CPU %.7g\n", what,
                  static_cast<long long>(i), gpu[i], cpu[i]);
      return false;
    }
  }
  std::printf("ok   %s: %lld values match the CPU build\n", what,
              static_cast<long long>(n));
  return true;
}

/// Runs the CUDA model; false with the reason printed if it fails. `skip`
/// is set when the failure is the absence of a GPU.
template <typename Fn> bool RunGpu(Fn &fn, const char *name, bool &skip) {
  if (fn.Run())
    return true;
  const std::string &error = fn.error_msg();
  skip = StartsWith(error, "no CUDA driver") ||
         StartsWith(error, "no CUDA device");
  std::printf("%s %s on the GPU: %s\n", skip ? "SKIP" : "FAIL", name,
              error.c_str());
  return false;
}

/// Every result of `a` against `b` (the CPU build): floats within the
/// tolerance of Close(), integers exactly.
bool SameResults(const char *model, const tfaot::CompiledFunction &a,
                 const tfaot::CompiledFunction &b) {
  bool ok = true;
  for (int i = 0; i < a.num_results(); ++i) {
    const tfaot::BufferInfo &info = a.result_info(i);
    std::string what = std::string(model) + " " + info.name;
    if (info.dtype == tfaot::DType::kFloat32) {
      ok &= Close(what.c_str(), static_cast<const float *>(a.result_data(i)),
                  static_cast<const float *>(b.result_data(i)),
                  info.num_elements);
    } else if (std::memcmp(a.result_data(i), b.result_data(i),
                           info.size_bytes) != 0) {
      std::printf("FAIL %s differs from the CPU build\n", what.c_str());
      ok = false;
    } else {
      std::printf("ok   %s: equal to the CPU build\n", what.c_str());
    }
  }
  return ok;
}

/// Every (float) result of `a` within `bound` times the largest magnitude
/// of the same result of `b`: for builds that round to another precision
/// between layers. Prints the largest difference.
bool WithinScale(const char *model, const tfaot::CompiledFunction &a,
                 const tfaot::CompiledFunction &b, double bound) {
  bool ok = true;
  for (int i = 0; i < a.num_results(); ++i) {
    const tfaot::BufferInfo &info = a.result_info(i);
    const auto *x = static_cast<const float *>(a.result_data(i));
    const auto *y = static_cast<const float *>(b.result_data(i));
    double largest = 0, difference = 0;
    for (int64_t j = 0; j < info.num_elements; ++j) {
      largest = std::max(largest, std::fabs(double(y[j])));
      double d = std::fabs(double(x[j]) - double(y[j]));
      difference = std::isnan(d) ? INFINITY : std::max(difference, d);
    }
    bool close = difference <= bound * largest;
    std::printf("%s %s %s: largest difference %.3g, %.3g of the largest "
                "magnitude %.4g (bound %.3g)\n",
                close ? "ok  " : "FAIL", model, info.name, difference,
                largest > 0 ? difference / largest : 0.0, largest, bound);
    ok &= close;
  }
  return ok;
}

/// Runs `fn` and `cpu` on the same float input and compares the results:
/// as SameResults(), or with a `bound` as WithinScale().
template <typename Fn, typename Cpu>
bool RunAndCompare(const char *model, Fn &fn, Cpu &cpu, int seed,
                   double bound = 0) {
  Fill(fn.arg0_data(), fn.kArg0Elements, seed);
  std::memcpy(cpu.arg0_data(), fn.arg0_data(), fn.kArg0Bytes);
  if (!fn.Run() || !cpu.Run()) {
    std::printf("FAIL %s: %s%s\n", model, fn.error_msg().c_str(),
                cpu.error_msg().c_str());
    return false;
  }
  return bound > 0 ? WithinScale(model, fn, cpu, bound)
                   : SameResults(model, fn, cpu);
}

/// Runs `a` and `b` on the same float input; their float results must be
/// equal bit for bit (two kernels that compute the same sums in the same
/// order, roundings included).
template <typename A, typename B>
bool RunAndCompareExactly(const char *what, A &a, B &b, int seed) {
  Fill(a.arg0_data(), a.kArg0Elements, seed);
  std::memcpy(b.arg0_data(), a.arg0_data(), a.kArg0Bytes);
  if (!a.Run() || !b.Run()) {
    std::printf("FAIL %s: %s%s\n", what, a.error_msg().c_str(),
                b.error_msg().c_str());
    return false;
  }
  for (int i = 0; i < a.num_results(); ++i) {
    const tfaot::BufferInfo &info = a.result_info(i);
    if (std::memcmp(a.result_data(i), b.result_data(i), info.size_bytes)) {
      std::printf("FAIL %s %s: not equal bit for bit\n", what, info.name);
      return false;
    }
    std::printf("ok   %s %s: %lld values equal bit for bit\n", what,
                info.name, static_cast<long long>(info.num_elements));
  }
  return true;
}

// How far a 16-bit build's results may be from the fp32 build's, as a
// fraction of their largest magnitude: an 11-bit (fp16) or 8-bit (bf16)
// significand at every stored activation and weight, over the few layers
// of these models. A half-precision build on the GPU against its emulation,
// which rounds at the same points and differs only in the order cuBLAS
// sums in, gets kSameRounding.
constexpr double kFp16Bound = 5e-3, kBf16Bound = 3e-2, kSameRounding = 1e-3;

int CompareEmulated() {
  bool ok = true;
  {
    gpu_test::emulated::Mnist fn;
    gpu_test::cpu::Mnist cpu;
    ok &= RunAndCompare("simple_mnist", fn, cpu, 0);
  }
  {
    gpu_test::emulated::FcLayers fn;
    gpu_test::cpu::FcLayers cpu;
    ok &= RunAndCompare("fc-layers", fn, cpu, 7);
  }
  {
    gpu_test::emulated::Emotion fn;
    gpu_test::cpu::Emotion cpu;
    ok &= RunAndCompare("emotion", fn, cpu, 3);
  }
  {
    gpu_test::emulated::BlazeFace fn;
    gpu_test::cpu::BlazeFace cpu;
    ok &= RunAndCompare("blazeface", fn, cpu, 5);
  }
  {
    // Batch buckets: the rows in use of the bucket a batch size picks
    // (3 -> 4, 8 -> 8) against the CPU's fixed batch-8 build.
    gpu_test::emulated::FcLayersBuckets fn;
    gpu_test::cpu::FcLayers cpu;
    Fill(cpu.arg0_data(), cpu.kArg0Elements, 9);
    const int64_t row = fn.kResult0Elements / fn.kMaxBatch;
    bool ran = cpu.Run();
    for (int64_t batch : {3, 8}) {
      // Again each time: a Run() zeroes the rows past the batch size.
      std::memcpy(fn.arg0_data(), cpu.arg0_data(), fn.kArg0Bytes);
      ran = ran && fn.set_batch_size(batch) && fn.Run();
      std::string what = "fc-layers buckets, batch " + std::to_string(batch) +
                         " (bucket " + std::to_string(fn.bucket_for_batch()) +
                         ")";
      ok &= ran && Close(what.c_str(), fn.result0_data(), cpu.result0_data(),
                         batch * row);
    }
    if (!ran) {
      std::printf("FAIL fc-layers buckets: %s%s\n", fn.error_msg().c_str(),
                  cpu.error_msg().c_str());
      ok = false;
    }
  }
  {
    gpu_test::emulated::FcLayersInt8 fn;
    gpu_test::cpu::FcLayersInt8 cpu;
    ok &= RunAndCompare("fc-layers int8", fn, cpu, 7);
  }
  {
    gpu_test::emulated::EmotionInt8 fn;
    gpu_test::cpu::EmotionInt8 cpu;
    ok &= RunAndCompare("emotion int8", fn, cpu, 3);
  }
  {
    gpu_test::emulated::FcLayersFp16 fp16;
    gpu_test::emulated::FcLayersBf16 bf16;
    gpu_test::cpu::FcLayers cpu;
    ok &= RunAndCompare("fc-layers fp16", fp16, cpu, 7, kFp16Bound);
    ok &= RunAndCompare("fc-layers bf16", bf16, cpu, 7, kBf16Bound);
  }
  {
    gpu_test::emulated::EmotionFp16 fp16;
    gpu_test::emulated::EmotionBf16 bf16;
    gpu_test::cpu::Emotion cpu;
    ok &= RunAndCompare("emotion fp16", fp16, cpu, 3, kFp16Bound);
    ok &= RunAndCompare("emotion bf16", bf16, cpu, 3, kBf16Bound);
  }
  {
    // --gpu_conv=cudnn: the convolutions and their epilogues in the cuDNN
    // calls' twins, in fp32 as close to the CPU build as the im2col path,
    // in fp16 within the fp16 bound.
    gpu_test::emulated::EmotionCudnn emotion;
    gpu_test::emulated::EmotionCudnnFp16 fp16;
    gpu_test::emulated::BlazeFaceCudnn blazeface;
    gpu_test::cpu::Emotion cpu;
    gpu_test::cpu::BlazeFace blazefaceCpu;
    ok &= RunAndCompare("emotion cudnn", emotion, cpu, 3);
    ok &= RunAndCompare("emotion cudnn fp16", fp16, cpu, 3, kFp16Bound);
    ok &= RunAndCompare("blazeface cudnn", blazeface, blazefaceCpu, 5);
  }
  {
    // Its conv + bias + ReLU6 blocks in one call each (CLIPPED_RELU at 6).
    gpu_test::emulated::Meet meet;
    gpu_test::cpu::Meet cpu;
    ok &= RunAndCompare("meet cudnn", meet, cpu, 4);
  }
  {
    // MobileNetV2 at batch 2, its depthwise convolutions as tiled kernels
    // (input tiles in workgroup memory, several outputs a thread): as close
    // to the CPU build as the rest of the mapping, the 16-bit builds within
    // their bounds (measured: fp32 equal to the CPU build's logits, fp16
    // 5.5e-4 and bf16 4.4e-3 of the largest), and equal bit for bit to the
    // one-thread-per-output kernels (--gpu_depthwise=direct).
    gpu_test::emulated::MobileNetV2 tiled;
    gpu_test::emulated::MobileNetV2Direct direct;
    gpu_test::emulated::MobileNetV2Fp16 fp16;
    gpu_test::emulated::MobileNetV2Fp16Direct fp16Direct;
    gpu_test::emulated::MobileNetV2Bf16 bf16;
    gpu_test::cpu::MobileNetV2 cpu;
    ok &= RunAndCompare("mobilenet_v2 tiled", tiled, cpu, 6);
    ok &= RunAndCompare("mobilenet_v2 fp16 tiled", fp16, cpu, 6, kFp16Bound);
    ok &= RunAndCompare("mobilenet_v2 bf16 tiled", bf16, cpu, 6, kBf16Bound);
    ok &= RunAndCompareExactly("mobilenet_v2 tiled against direct", tiled,
                               direct, 6);
    ok &= RunAndCompareExactly("mobilenet_v2 fp16 tiled against direct",
                               fp16, fp16Direct, 6);
  }
  return ok ? 0 : 1;
}

int Compare() {
  bool ok = true, skip = false;
  for (int seed = 0; seed < 2; ++seed) {
    // Twice: the second Run() reuses the device memory, weights and kernels.
    gpu_test::cuda::Mnist gpu;
    gpu_test::cpu::Mnist cpu;
    Fill(gpu.arg0_data(), gpu.kArg0Elements, seed);
    std::memcpy(cpu.arg0_data(), gpu.arg0_data(), gpu.kArg0Bytes);
    if (!RunGpu(gpu, "simple_mnist", skip))
      return skip ? kSkip : 1;
    if (!RunGpu(gpu, "simple_mnist (second run)", skip))
      return 1;
    if (!cpu.Run()) {
      std::printf("FAIL simple_mnist on the CPU: %s\n", cpu.error_msg().c_str());
      return 1;
    }
    ok &= Close("simple_mnist logits", gpu.result1_data(), cpu.result1_data(),
                gpu.kResult1Elements);
    for (int64_t i = 0; i < gpu.kResult0Elements; ++i)
      if (gpu.result0_data()[i] != cpu.result0_data()[i]) {
        std::printf("FAIL simple_mnist y_pred[%lld]: GPU %lld, CPU %lld\n",
                    static_cast<long long>(i),
                    static_cast<long long>(gpu.result0_data()[i]),
                    static_cast<long long>(cpu.result0_data()[i]));
        ok = false;
      }
    if (gpu.device_bytes() == 0) {
      std::printf("FAIL device_bytes() is 0 after a Run()\n");
      ok = false;
    }
  }
  {
    gpu_test::cuda::FcLayers gpu;
    gpu_test::cpu::FcLayers cpu;
    Fill(gpu.arg0_data(), gpu.kArg0Elements, 7);
    std::memcpy(cpu.arg0_data(), gpu.arg0_data(), gpu.kArg0Bytes);
    gpu.set_stream(nullptr); // The instance's own stream (the default).
    if (!RunGpu(gpu, "fc-layers", skip) || !cpu.Run())
      return 1;
    ok &= Close("fc-layers output", gpu.result0_data(), cpu.result0_data(),
                gpu.kResult0Elements);
  }
  {
    gpu_test::cuda::FcLayersInt8 gpu;
    gpu_test::cpu::FcLayersInt8 cpu;
    ok &= RunAndCompare("fc-layers int8", gpu, cpu, 7);
  }
  {
    // Caller-owned device buffers: `owner`'s own device copies (its Run()
    // put the input there) stand for the caller's; `gpu` reads and writes
    // them with no copy, and `owner` fetches the results.
    gpu_test::cuda::FcLayers owner, gpu;
    gpu_test::cpu::FcLayers cpu;
    Fill(owner.arg0_data(), owner.kArg0Elements, 8);
    std::memcpy(cpu.arg0_data(), owner.arg0_data(), owner.kArg0Bytes);
    auto device = [](unsigned long long ptr) {
      return reinterpret_cast<void *>(ptr);
    };
    bool ran = owner.Run() && cpu.Run() &&
               gpu.set_arg_device_ptr(0, device(owner.arg_device_ptr(0))) &&
               gpu.set_result_device_ptr(0, device(owner.result_device_ptr(0)));
    std::memset(owner.result0_data(), 0, owner.kResult0Bytes);
    // Twice: the second run is the CUDA graph, with the caller's addresses.
    ran = ran && gpu.Run() && gpu.Run() && owner.CopyResultsToHost();
    if (!ran)
      std::printf("FAIL fc-layers with caller-owned buffers: %s%s\n",
                  owner.error_msg().c_str(), gpu.error_msg().c_str());
    ok &= ran && Close("fc-layers output in the caller's device buffer",
                       owner.result0_data(), cpu.result0_data(),
                       owner.kResult0Elements);
  }
  {
    // Batch buckets: the rows in use at batch 3 (bucket 4) and 8.
    gpu_test::cuda::FcLayersBuckets gpu;
    gpu_test::cpu::FcLayers cpu;
    Fill(cpu.arg0_data(), cpu.kArg0Elements, 9);
    const int64_t row = gpu.kResult0Elements / gpu.kMaxBatch;
    bool ran = cpu.Run();
    for (int64_t batch : {3, 8, 3}) {
      std::memcpy(gpu.arg0_data(), cpu.arg0_data(), gpu.kArg0Bytes);
      ran = ran && gpu.set_batch_size(batch) && gpu.Run() && gpu.Run();
      std::string what = "fc-layers buckets on the GPU, batch " +
                         std::to_string(batch);
      ok &= ran && Close(what.c_str(), gpu.result0_data(), cpu.result0_data(),
                         batch * row);
    }
    if (!ran)
      std::printf("FAIL fc-layers buckets on the GPU: %s\n",
                  gpu.error_msg().c_str());
  }
  {
    gpu_test::cuda::FcLayersFp16 fp16;
    gpu_test::emulated::FcLayersFp16 fp16Emulated;
    gpu_test::cuda::FcLayersBf16 bf16;
    gpu_test::emulated::FcLayersBf16 bf16Emulated;
    ok &= RunAndCompare("fc-layers fp16 (emulated)", fp16, fp16Emulated, 7,
                        kSameRounding);
    ok &= RunAndCompare("fc-layers bf16 (emulated)", bf16, bf16Emulated, 7,
                        kSameRounding);
  }
#if TFAOT_GPU_TEST_CUDA_CONV_NETS
  {
    gpu_test::cuda::EmotionFp16 fp16;
    gpu_test::emulated::EmotionFp16 fp16Emulated;
    gpu_test::cuda::EmotionBf16 bf16;
    gpu_test::emulated::EmotionBf16 bf16Emulated;
    gpu_test::cpu::Emotion cpu;
    ok &= RunAndCompare("emotion fp16 (emulated)", fp16, fp16Emulated, 3,
                        kSameRounding);
    ok &= RunAndCompare("emotion bf16 (emulated)", bf16, bf16Emulated, 3,
                        kSameRounding);
    ok &= RunAndCompare("emotion fp16", fp16, cpu, 3, kFp16Bound);
    ok &= RunAndCompare("emotion bf16", bf16, cpu, 3, kBf16Bound);
  }
  {
    gpu_test::cuda::Emotion gpu;
    gpu_test::cpu::Emotion cpu;
    ok &= RunAndCompare("emotion", gpu, cpu, 3);
  }
  {
    gpu_test::cuda::EmotionInt8 gpu;
    gpu_test::cpu::EmotionInt8 cpu;
    ok &= RunAndCompare("emotion int8", gpu, cpu, 3);
  }
  {
    gpu_test::cuda::BlazeFace gpu;
    gpu_test::cpu::BlazeFace cpu;
    ok &= RunAndCompare("blazeface", gpu, cpu, 5);
  }
  {
    // cuDNN against the CPU build (fp32) and against its twin (fp16:
    // the same roundings, cuDNN's own summation order).
    gpu_test::cuda::EmotionCudnn emotion;
    gpu_test::cuda::EmotionCudnnFp16 fp16;
    gpu_test::emulated::EmotionCudnnFp16 fp16Emulated;
    gpu_test::cuda::BlazeFaceCudnn blazeface;
    gpu_test::cpu::Emotion cpu;
    gpu_test::cpu::BlazeFace blazefaceCpu;
    ok &= RunAndCompare("emotion cudnn", emotion, cpu, 3);
    ok &= RunAndCompare("emotion cudnn fp16 (emulated)", fp16, fp16Emulated,
                        3, kSameRounding);
    ok &= RunAndCompare("blazeface cudnn", blazeface, blazefaceCpu, 5);
  }
#else
  std::printf("note: emotion and blazeface were not compiled for CUDA (no "
              "libdevice when building)\n");
#endif
  return ok ? 0 : 1;
}

int ExpectError(const std::string &prefix) {
  gpu_test::cuda::Mnist fn;
  Fill(fn.arg0_data(), fn.kArg0Elements, 0);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (fn.Run()) {
      std::printf("FAIL Run() succeeded; expected an error starting with "
                  "'%s'\n", prefix.c_str());
      return 1;
    }
    if (!StartsWith(fn.error_msg(), prefix)) {
      std::printf("FAIL error_msg() is '%s'; expected it to start with "
                  "'%s'\n", fn.error_msg().c_str(), prefix.c_str());
      return 1;
    }
    std::printf("ok   Run() failed as expected: %s\n", fn.error_msg().c_str());
  }
  if (StartsWith(prefix, "no CUDA") && fn.device_bytes() != 0) {
    std::printf("FAIL device_bytes() is not 0 without a device\n");
    return 1;
  }
  tfaot::CompiledFunction &base = fn;
  const std::string wrongRun = "a CUDA model must be run with "
                               "CudaCompiledFunction::Run()";
  if (base.Run() || !StartsWith(base.error_msg(), wrongRun)) {
    std::printf("FAIL CompiledFunction::Run() on a CUDA class: '%s'\n",
                base.error_msg().c_str());
    return 1;
  }
  std::printf("ok   CompiledFunction::Run() refused: %s\n",
              base.error_msg().c_str());
  return 0;
}

/// A --gpu_conv=cudnn model's Run() must fail with an error starting with
/// `prefix` (cuDNN missing, or refusing a convolution), twice.
int ExpectCudnnError(const std::string &prefix) {
#if TFAOT_GPU_TEST_CUDA_CONV_NETS
  gpu_test::cuda::EmotionCudnn fn;
  Fill(fn.arg0_data(), fn.kArg0Elements, 0);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (fn.Run() || !StartsWith(fn.error_msg(), prefix)) {
      std::printf("FAIL Run() gave '%s'; expected an error starting with "
                  "'%s'\n", fn.error_msg().c_str(), prefix.c_str());
      return 1;
    }
    std::printf("ok   Run() failed as expected: %s\n", fn.error_msg().c_str());
  }
  return 0;
#else
  std::printf("FAIL %s: the conv nets were not compiled for CUDA\n",
              prefix.c_str());
  return 1;
#endif
}

/// The fake driver's stats, or null (printed) if it cannot be loaded.
const FakeCudaStats *LoadFakeStats(const char *library) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  auto *stats_fn = handle ? reinterpret_cast<const FakeCudaStats *(*)()>(
                                dlsym(handle, "fake_cuda_stats"))
                          : nullptr;
  if (!stats_fn)
    std::printf("FAIL cannot load the fake driver %s\n", library);
  return stats_fn ? stats_fn() : nullptr;
}

/// With FAKE_CUDNN_REFUSE=fused (cuDNN refuses every fused call, as it
/// does ResNet-50's TF32 1x1 convolutions on an H200), each fused
/// convolution falls back on the first Run() to cudnnConvolutionForward,
/// cudnnAddTensor for its residual and bias and cudnnActivationForward for
/// its ReLU (or ReLU6), and later runs (a CUDA graph) go straight there.
int FakeCudnnFallback(const char *library) {
#if TFAOT_GPU_TEST_CUDA_CONV_NETS
  const FakeCudaStats *loaded = LoadFakeStats(library);
  if (!loaded)
    return 1;
  const FakeCudaStats &stats = *loaded;
  bool ok = true;
  auto expect = [&](bool condition, const char *what) {
    std::printf("%s %s\n", condition ? "ok  " : "FAIL", what);
    ok &= condition;
  };
  // emotion fp32: 9 convolutions, 8 with a bias (2 of them with a
  // residual in another buffer than y, 4 with a ReLU); fp16: 6, all with a
  // bias (4 with a ReLU).
  gpu_test::cuda::EmotionCudnn fp32;
  gpu_test::cuda::EmotionCudnnFp16 fp16;
  Fill(fp32.arg0_data(), fp32.kArg0Elements, 2);
  Fill(fp16.arg0_data(), fp16.kArg0Elements, 2);
  bool ran = fp32.Run() && fp16.Run();
  FakeCudaStats first = stats;
  expect(ran && first.bad_calls == 0,
         "the models run, every convolution unfused, with no bad call");
  if (!ran || first.bad_calls)
    std::printf("     %s %s\n", fp32.error_msg().c_str(), first.last_problem);
  std::printf("     cuDNN: %d convolutions, %d fused, %d cudnnAddTensor, "
              "%d cudnnActivationForward\n",
              first.convs, first.fused_convs, first.tensor_adds,
              first.activations);
  expect(first.fused_convs == 0 && first.convs == 9 + 6 &&
             first.tensor_adds == (8 + 2) + 6 && first.activations == 4 + 4,
         "each convolution runs as cudnnConvolutionForward with its "
         "residual, bias and ReLU as separate cuDNN calls");
  ran = fp32.Run() && fp16.Run() && fp32.Run();
  expect(ran && stats.bad_calls == 0 &&
             stats.convs - first.convs == 9 + 6 + 9 &&
             stats.tensor_adds - first.tensor_adds == 10 + 6 + 10 &&
             stats.activations - first.activations == 4 + 4 + 4 &&
             stats.fused_convs == 0 &&
             stats.cudnn_descriptors == first.cudnn_descriptors,
         "later runs go straight to the unfused calls, making no descriptor");
  // meet's ReLU6 blocks: CLIPPED_RELU at 6 in cudnnActivationForward.
  gpu_test::cuda::Meet meet;
  Fill(meet.arg0_data(), meet.kArg0Elements, 4);
  FakeCudaStats before = stats;
  expect(meet.Run() && stats.bad_calls == 0 &&
             stats.relu6_activations - before.relu6_activations == 3,
         "meet's 3 fused ReLU6 epilogues become CLIPPED_RELU activations");
  return ok ? 0 : 1;
#else
  std::printf("FAIL %s: the conv nets were not compiled for CUDA\n", library);
  return 1;
#endif
}

/// The fake driver's own entry points, for the tests that need device
/// memory of their own ("the caller's buffers") and to see which
/// allocations the work used.
struct FakeApi {
  int (*mem_alloc)(unsigned long long *, size_t) = nullptr;
  int (*mem_free)(unsigned long long) = nullptr;
  int (*uses)(unsigned long long) = nullptr;
};

FakeApi LoadFakeApi(const char *library) {
  FakeApi api;
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return api;
  api.mem_alloc = reinterpret_cast<int (*)(unsigned long long *, size_t)>(
      dlsym(handle, "cuMemAlloc_v2"));
  api.mem_free = reinterpret_cast<int (*)(unsigned long long)>(
      dlsym(handle, "cuMemFree_v2"));
  api.uses = reinterpret_cast<int (*)(unsigned long long)>(
      dlsym(handle, "fake_cuda_uses"));
  return api;
}

using Expect = std::function<void(bool, const char *)>;

/// set_arg_device_ptr / set_result_device_ptr on simple_mnist: no copy in
/// or out for the caller's buffers, the work reads and writes them (seen
/// through the fake's use counts: kernel parameters are only read from
/// PTX, so with a cubin (sm_90) only cuBLAS's operands count), a changed
/// pointer captures the CUDA graph again, set_arg_data() goes back to
/// copying, and the errors: bad index, null, misaligned, host memory, a
/// buffer too small. Returns the modules the instances loaded.
int FakeCallerBuffers(const FakeCudaStats &stats, const FakeApi &fake,
                      bool graphs, const Expect &expect) {
  using Mnist = gpu_test::cuda::Mnist;
  auto alloc = [&](size_t bytes) {
    unsigned long long ptr = 0;
    fake.mem_alloc(&ptr, bytes);
    return ptr;
  };
  auto as_ptr = [](unsigned long long ptr) {
    return reinterpret_cast<void *>(ptr);
  };
  unsigned long long x = alloc(Mnist::kArg0Bytes);
  unsigned long long y_pred = alloc(Mnist::kResult0Bytes);
  unsigned long long logits = alloc(Mnist::kResult1Bytes);
  unsigned long long logits2 = alloc(Mnist::kResult1Bytes);
  Fill(static_cast<float *>(as_ptr(x)), Mnist::kArg0Elements, 1);
  int modules = 0;
  {
    // Results only: the argument exists on the device alone.
    Mnist fn(Mnist::AllocMode::kResultsOnly);
    expect(fn.set_arg_device_ptr(0, as_ptr(x)) &&
               fn.set_result_device_ptr(0, as_ptr(y_pred)) &&
               fn.set_result_device_ptr(1, as_ptr(logits)) &&
               fn.arg_data(0) == as_ptr(x),
           "set_arg_device_ptr / set_result_device_ptr take cuMemAlloc'ed "
           "buffers; arg_data() is the device address");
    FakeCudaStats before = stats;
    bool ran = fn.Run();
    FakeCudaStats first = stats;
    ran = ran && fn.Run();
    ++modules;
    FakeCudaStats second = stats;
    expect(ran && second.bad_calls == before.bad_calls,
           "caller-owned buffers: runs with no bad driver call");
    if (!ran || second.bad_calls != before.bad_calls)
      std::printf("     %s %s\n", fn.error_msg().c_str(), stats.last_problem);
    expect(first.dtoh_bytes == before.dtoh_bytes &&
               second.htod_bytes == first.htod_bytes &&
               second.dtoh_bytes == first.dtoh_bytes,
           "nothing copied in or out for them (the first run uploads the "
           "weights only)");
    bool kernels_seen = second.pointer_params_checked > first.pointer_params_checked;
    expect(fake.uses(x) > 0, "the argument is read where the caller put it");
    if (kernels_seen) {
      expect(fake.uses(y_pred) > 0 && fake.uses(logits) > 0,
             "the results are written where the caller put them");
    } else {
      std::printf("note the results' kernels come from a cubin, whose "
                  "parameters the fake does not read (checked with "
                  "FAKE_CUDA_CC=100)\n");
    }
    expect(second.captures == first.captures + (graphs ? 1 : 0),
           graphs ? "the second run captures a CUDA graph with those addresses"
                  : "TFAOT_CUDA_GRAPHS=0: no capture");
    int used = fake.uses(logits2);
    expect(fn.set_result_device_ptr(1, as_ptr(logits2)) && fn.Run() &&
               stats.captures == second.captures + (graphs ? 1 : 0) &&
               stats.dtoh_bytes == second.dtoh_bytes &&
               (!kernels_seen || fake.uses(logits2) > used),
           "another result buffer: used from the next run on (the graph "
           "captured again with it)");
  }
  {
    // Only one result on the device: the other result and the argument
    // are copied as usual; set_arg_data() goes back to copying.
    Mnist fn;
    Fill(fn.arg0_data(), fn.kArg0Elements, 1);
    FakeCudaStats before = stats;
    bool ran = fn.set_result_device_ptr(1, as_ptr(logits)) && fn.Run();
    ++modules;
    expect(ran && stats.dtoh_bytes - before.dtoh_bytes == Mnist::kResult0Bytes,
           "a run copies back only the results left on the host");
    expect(fn.set_arg_device_ptr(0, as_ptr(x)), "the argument on the device");
    before = stats;
    expect(fn.Run() && stats.htod_bytes == before.htod_bytes,
           "then nothing is copied in");
    float host[Mnist::kArg0Elements];
    Fill(host, Mnist::kArg0Elements, 2);
    fn.set_arg_data(0, host);
    before = stats;
    expect(fn.Run() && stats.htod_bytes - before.htod_bytes == Mnist::kArg0Bytes,
           "set_arg_data() after it: the host data is copied again");
  }
  {
    Mnist fn;
    Fill(fn.arg0_data(), fn.kArg0Elements, 1);
    auto refused = [&](bool set, const std::string &message) {
      bool ok = !set && fn.error_msg().find(message) != std::string::npos &&
                !fn.Run() && fn.error_msg().find(message) != std::string::npos;
      if (!ok)
        std::printf("     got '%s'; expected '%s'\n", fn.error_msg().c_str(),
                    message.c_str());
      return ok;
    };
    expect(refused(fn.set_arg_device_ptr(0, nullptr),
                   "set_arg_device_ptr(0, ...): the device pointer for "
                   "argument 'x' is null"),
           "a null device pointer is refused, and Run() fails until a "
           "valid one is set");
    expect(refused(fn.set_result_device_ptr(1, as_ptr(logits + 4)),
                   "the device pointer for result 'OuputLayer/logits' is "
                   "not 256-byte aligned"),
           "a misaligned one too");
    expect(refused(fn.set_result_device_ptr(2, as_ptr(logits)),
                   "result index 2 is out of range: gpu_test::cuda::Mnist "
                   "has 2 results"),
           "and a bad index");
    expect(fn.set_result_device_ptr(1, as_ptr(logits)) && fn.Run(),
           "a valid pointer clears the error");
    ++modules;
    void *host =
        std::aligned_alloc(256, (Mnist::kArg0Bytes + 255) / 256 * 256);
    char address[32];
    std::snprintf(address, sizeof(address), "%p", host);
    expect(fn.set_arg_device_ptr(0, host) && !fn.Run() &&
               StartsWith(fn.error_msg(),
                          "the device buffer given to set_arg_device_ptr(0, " +
                              std::string(address) +
                              ") for argument 0 ('x') is not device memory "
                              "of device 0 (cuMemGetAddressRange: "
                              "CUDA_ERROR_INVALID_VALUE"),
           "host memory given as a device buffer: Run() fails saying so");
    std::printf("     %s\n", fn.error_msg().c_str());
    std::free(host);
    unsigned long long small = alloc(Mnist::kArg0Bytes / 2);
    expect(fn.set_arg_device_ptr(0, as_ptr(small)) && !fn.Run() &&
               fn.error_msg().find("for argument 0 ('x') has 15680 bytes from "
                                   "there to the end of its allocation but "
                                   "needs 31360") != std::string::npos,
           "a device buffer too small: Run() fails saying so");
    fake.mem_free(small);
  }
  for (unsigned long long ptr : {x, y_pred, logits, logits2})
    fake.mem_free(ptr);
  return modules;
}

/// set_device(): with FAKE_CUDA_DEVICES=2 the instance runs on device 1
/// (its context, its memory; the fake checks every operand is on the
/// current device); ordinals the driver lacks and changes after set-up
/// are refused. Returns the modules loaded.
int FakeSetDevice(const FakeCudaStats &stats, const Expect &expect) {
  const char *env = std::getenv("FAKE_CUDA_DEVICES");
  int devices = env ? std::atoi(env) : 1;
  gpu_test::cuda::Mnist fn;
  Fill(fn.arg0_data(), fn.kArg0Elements, 1);
  expect(!fn.set_device(-1) &&
             fn.error_msg() == "set_device(-1): CUDA device ordinals start at 0",
         "set_device(-1) is refused");
  std::string missing = "set_device(" + std::to_string(devices) +
                        "): no CUDA device " + std::to_string(devices) +
                        ": the CUDA driver found " + std::to_string(devices) +
                        " GPU" + (devices == 1 ? "" : "s");
  expect(!fn.set_device(devices) && StartsWith(fn.error_msg(), missing),
         "an ordinal past the driver's devices is refused");
  if (devices < 2) {
    expect(fn.set_device(0) && fn.device() == 0 && fn.Run() &&
               stats.last_device == 0,
           "set_device(0): the default device");
    return 1;
  }
  FakeCudaStats before = stats;
  expect(fn.set_device(1) && fn.device() == 1 && fn.Run() && fn.Run() &&
             stats.last_device == 1 && stats.bad_calls == before.bad_calls,
         "set_device(1): runs on device 1's context and memory");
  if (stats.bad_calls != before.bad_calls)
    std::printf("     last problem: %s\n", stats.last_problem);
  expect(!fn.set_device(0) &&
             StartsWith(fn.error_msg(),
                        "set_device(0) after the instance set up device 1"),
         "a change after set-up is refused");
  expect(fn.set_device(1) && fn.Run(), "the same device again is fine");
  return 1;
}

/// A --batch 1,4,8 build: each Run() copies the rows of its bucket in and
/// the batch's rows out, runs that bucket's products, and each bucket gets
/// its own CUDA graph. Returns the modules loaded.
int FakeBuckets(const FakeCudaStats &stats, bool graphs,
                const Expect &expect) {
  using Buckets = gpu_test::cuda::FcLayersBuckets;
  Buckets fn;
  Fill(fn.arg0_data(), fn.kArg0Elements, 3);
  const size_t in_row = Buckets::kArg0Bytes / Buckets::kMaxBatch;
  const size_t out_row = Buckets::kResult0Bytes / Buckets::kMaxBatch;
  expect(fn.set_batch_size(3) && fn.bucket_for_batch() == 4 && fn.Run(),
         "batch 3 runs the bucket of 4");
  FakeCudaStats first = stats;
  bool ran = fn.Run();
  FakeCudaStats second = stats;
  expect(ran && second.htod_bytes - first.htod_bytes == 4 * in_row &&
             second.dtoh_bytes - first.dtoh_bytes == 3 * out_row,
         "it copies the bucket's 4 rows in and the batch's 3 rows out");
  const int capture = graphs ? 1 : 0;
  expect(second.gemms - first.gemms == 3 &&
             second.captures == first.captures + capture,
         "the bucket's three products (captured into its graph)");
  expect(fn.set_batch_size(8) && fn.Run() && fn.Run() &&
             stats.htod_bytes - second.htod_bytes == 2 * 8 * in_row &&
             stats.captures == second.captures + capture &&
             stats.live_graphs - second.live_graphs == capture,
         "batch 8 runs the bucket of 8 (and captures a graph of its own)");
  FakeCudaStats third = stats;
  expect(fn.set_batch_size(2) && fn.Run() && stats.captures == third.captures &&
             stats.graph_launches == third.graph_launches + capture &&
             stats.gemms == third.gemms + 3 &&
             stats.bad_calls == first.bad_calls,
         "back to the bucket of 4 (its graph launched again)");
  if (stats.bad_calls != first.bad_calls)
    std::printf("     last problem: %s\n", stats.last_problem);
  return 2;  // The images of the buckets of 4 and 8.
}

/// The runtime's use of the (fake) driver: the instance sets up once,
/// uploads the weights once, copies exactly the arguments in and the
/// results out per run, launches kernels whose pointer parameters are all
/// device memory, hands matrix products to (the fake's) cuBLAS with
/// matrices inside device memory, captures the second run into a CUDA
/// graph (unless TFAOT_CUDA_GRAPHS=0) and replays it, uses the caller's
/// stream when given, keeps the caller's context stack balanced and frees
/// everything when destroyed.
int FakeDriver(const char *library) {
  const FakeCudaStats *loaded = LoadFakeStats(library);
  if (!loaded)
    return 1;
  const FakeCudaStats &stats = *loaded;
  const char *graphs_env = std::getenv("TFAOT_CUDA_GRAPHS");
  bool graphs = !(graphs_env && std::strcmp(graphs_env, "0") == 0);
  bool ok = true;
  auto expect = [&](bool condition, const char *what) {
    std::printf("%s %s\n", condition ? "ok  " : "FAIL", what);
    ok &= condition;
  };
  {
    gpu_test::cuda::Mnist fn;
    Fill(fn.arg0_data(), fn.kArg0Elements, 1);
    if (!fn.Run()) {
      std::printf("FAIL first Run(): %s\n", fn.error_msg().c_str());
      return 1;
    }
    FakeCudaStats first = stats;
    expect(first.bad_calls == 0, "the first run made no bad driver call");
    if (first.bad_calls)
      std::printf("     last problem: %s\n", first.last_problem);
    expect(first.retained == 1 && first.streams == 1,
           "one primary context retained and one stream created");
    expect(first.context_depth == 0, "the context stack is balanced");
    expect(first.cubin_loads + first.ptx_loads == 1, "one module loaded");
    expect(first.launches > 0, "kernels launched");
    expect(first.gemms > 0 && first.cublas_handles == 1,
           "matrix products run in cuBLAS, through one handle");
    expect(first.graph_launches == 0, "the first run launches directly");
    expect(first.htod_bytes > fn.kArg0Bytes,
           "argument and weights copied to the device");
    expect(first.dtoh_bytes == fn.kResult0Bytes + fn.kResult1Bytes,
           "exactly the results copied back");
    expect(fn.device_bytes() > 0, "device_bytes() counts the memory held");

    if (!fn.Run()) {
      std::printf("FAIL second Run(): %s\n", fn.error_msg().c_str());
      return 1;
    }
    FakeCudaStats second = stats;
    expect(second.bad_calls == 0, "the second run made no bad driver call");
    expect(second.allocs == first.allocs, "no allocation on the second run");
    expect(second.htod_bytes - first.htod_bytes == fn.kArg0Bytes,
           "only the argument copied in again (weights stay on the device)");
    expect(second.launches == 2 * first.launches &&
               second.gemms == 2 * first.gemms,
           "the same launches and products");
    if (graphs) {
      expect(second.captures == 1 && second.graph_launches == 1 &&
                 second.live_graphs == 1,
             "the second run captures them into a CUDA graph and launches it");
    } else {
      expect(second.captures == 0 && second.graph_launches == 0,
             "TFAOT_CUDA_GRAPHS=0: no CUDA graph");
    }
    expect(second.cubin_loads + second.ptx_loads == 1, "no module reloaded");

    void *caller_stream = reinterpret_cast<void *>(0x5eed);
    fn.set_stream(caller_stream);
    expect(fn.Run() && stats.last_stream == caller_stream,
           "set_stream(): work goes to the caller's stream");
    expect(stats.launches == 3 * first.launches && stats.gemms == 3 * first.gemms &&
               stats.captures == second.captures,
           "a third run replays the same work without capturing again");
    fn.set_stream(nullptr);
    expect(fn.Run() && stats.last_stream != caller_stream,
           "set_stream(nullptr): back to the instance's stream");
  }
  {
    // Device-resident data: addresses after SetUpDevice(), runs that copy
    // nothing, and the results fetched on request.
    gpu_test::cuda::Mnist fn;
    Fill(fn.arg0_data(), fn.kArg0Elements, 1);
    expect(fn.arg_device_ptr(0) == 0, "no device address before set-up");
    FakeCudaStats before = stats;
    expect(fn.SetUpDevice() && fn.arg_device_ptr(0) != 0 &&
               fn.result_device_ptr(0) != 0 && fn.result_device_ptr(1) != 0 &&
               fn.result_device_ptr(2) == 0 &&
               stats.launches == before.launches,
           "SetUpDevice(): device addresses of arguments and results, no "
           "launch");
    expect(fn.RunDeviceResident(), "RunDeviceResident()");  // + weights
    FakeCudaStats first = stats;
    expect(fn.RunDeviceResident(), "RunDeviceResident() again");
    FakeCudaStats resident = stats;
    expect(resident.launches > first.launches &&
               resident.htod_bytes == first.htod_bytes &&
               resident.dtoh_bytes == before.dtoh_bytes,
           "RunDeviceResident(): kernels run, no argument copied in, no "
           "result copied out");
    expect(fn.CopyResultsToHost() &&
               stats.dtoh_bytes - resident.dtoh_bytes ==
                   fn.kResult0Bytes + fn.kResult1Bytes &&
               stats.launches == resident.launches,
           "CopyResultsToHost(): the results copied back, nothing launched");
  }
  {
    // An int8 model: its products go to cuBLAS's int8 GEMM, which the fake
    // checks (TN form, int8 types, alignment, matrices in device memory).
    gpu_test::cuda::FcLayersInt8 fn;
    Fill(fn.arg0_data(), fn.kArg0Elements, 2);
    FakeCudaStats before = stats;
    expect(fn.Run() && stats.bad_calls == before.bad_calls,
           "an int8 model runs with no bad driver or cuBLAS call");
    if (stats.bad_calls != before.bad_calls)
      std::printf("     last problem: %s\n", stats.last_problem);
    expect(stats.int8_gemms - before.int8_gemms == 3,
           "its three layers run as cuBLAS int8 products");
  }
  {
    // fp16 and bf16 builds: their products go to cuBLAS's 16-bit GEMM,
    // which the fake checks (types, f32 sums, matrices in device memory
    // with 2-byte elements).
    gpu_test::cuda::FcLayersFp16 fp16;
    gpu_test::cuda::FcLayersBf16 bf16;
    Fill(fp16.arg0_data(), fp16.kArg0Elements, 2);
    Fill(bf16.arg0_data(), bf16.kArg0Elements, 2);
    FakeCudaStats before = stats;
    expect(fp16.Run() && bf16.Run() && stats.bad_calls == before.bad_calls,
           "fp16 and bf16 models run with no bad driver or cuBLAS call");
    if (stats.bad_calls != before.bad_calls)
      std::printf("     last problem: %s\n", stats.last_problem);
    expect(stats.half_gemms - before.half_gemms == 6,
           "their three layers each run as cuBLAS 16-bit products");
  }
  // Modules the instances loaded (one per instance, one per bucket run).
  int instances = 5;
  {
    FakeApi fake = LoadFakeApi(library);
    if (!fake.mem_alloc || !fake.mem_free || !fake.uses) {
      std::printf("FAIL the fake driver lacks cuMemAlloc_v2, cuMemFree_v2 "
                  "or fake_cuda_uses\n");
      return 1;
    }
    instances += FakeCallerBuffers(stats, fake, graphs, expect);
    instances += FakeSetDevice(stats, expect);
    instances += FakeBuckets(stats, graphs, expect);
  }
#if TFAOT_GPU_TEST_CUDA_CONV_NETS
  {
    // --gpu_conv=cudnn: emotion in (the fake's) cuDNN. fp32: 9 calls, 8
    // fused with their bias (+ ReLU, + residual), 1 alone (its epilogue
    // is not cuDNN's); fp16: 6 calls, all fused (the other 3 convolutions
    // stay im2col); descriptors made on the first run only.
    gpu_test::cuda::EmotionCudnn fp32;
    gpu_test::cuda::EmotionCudnnFp16 fp16;
    Fill(fp32.arg0_data(), fp32.kArg0Elements, 2);
    Fill(fp16.arg0_data(), fp16.kArg0Elements, 2);
    FakeCudaStats before = stats;
    bool ran = fp32.Run() && fp16.Run();
    FakeCudaStats first = stats;
    expect(ran && first.bad_calls == before.bad_calls,
           "cuDNN models run with no bad driver or cuDNN call");
    if (first.bad_calls != before.bad_calls || !ran)
      std::printf("     last problem: %s %s\n", first.last_problem,
                  fp32.error_msg().c_str());
    expect(first.fused_convs - before.fused_convs == 8 + 6 &&
               first.convs - before.convs == 9 + 6 && first.cudnn_handles == 2 &&
               first.tensor_adds == before.tensor_adds,
           "their convolutions run as fused cuDNN calls, one handle each");
    std::printf("     cuDNN: %d calls, %d fused, %d handles\n",
                first.convs - before.convs,
                first.fused_convs - before.fused_convs, first.cudnn_handles);
    ran = fp32.Run() && fp16.Run() && fp32.Run();
    expect(ran && stats.bad_calls == first.bad_calls &&
               stats.cudnn_descriptors == first.cudnn_descriptors &&
               stats.convs - first.convs == 9 + 6 + 9,
           "later runs make no descriptor and run the same convolutions");
    instances += 2;
  }
  {
    // meet: its 3 conv + bias + ReLU6 blocks as fused calls with
    // CLIPPED_RELU at 6 (which the fake takes only with
    // IMPLICIT_PRECOMP_GEMM, after refusing the first-ranked algorithm).
    gpu_test::cuda::Meet meet;
    Fill(meet.arg0_data(), meet.kArg0Elements, 4);
    FakeCudaStats before = stats;
    bool ran = meet.Run();
    expect(ran && stats.bad_calls == before.bad_calls &&
               stats.fused_relu6s - before.fused_relu6s == 3 &&
               stats.activations == before.activations,
           "meet's ReLU6 epilogues run fused as CLIPPED_RELU at 6");
    if (!ran || stats.bad_calls != before.bad_calls)
      std::printf("     %s %s\n", meet.error_msg().c_str(),
                  stats.last_problem);
    instances += 1;
  }
  expect(stats.cudnn_handles == 0 && stats.cudnn_descriptors == 0,
         "the destructor releases cuDNN's handle and descriptors");
#endif
  expect(stats.live_allocs == 0, "the destructor frees all device memory");
  // One module per instance.
  expect(stats.retained == 0 && stats.streams == 0 &&
             stats.unloads == instances &&
             stats.cublas_handles == 0 && stats.live_graphs == 0,
         "the destructor releases context, stream, module, cuBLAS handle "
         "and graph");
  const char *cc = std::getenv("FAKE_CUDA_CC");
  if (cc && std::atoi(cc) > 90) {
    expect(stats.ptx_loads == instances && stats.cubin_loads == 0,
           "a newer GPU gets the PTX");
    expect(stats.pointer_params_checked > 0,
           "kernel pointer parameters checked against the PTX");
  }
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--emulated") == 0)
    return CompareEmulated();
  if (argc == 3 && std::strcmp(argv[1], "--fake-driver") == 0)
    return FakeDriver(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "--fake-cudnn-fallback") == 0)
    return FakeCudnnFallback(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "--expect-cudnn-error") == 0)
    return ExpectCudnnError(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "--expect-error") == 0)
    return ExpectError(argv[2]);
  if (argc != 1) {
    std::fprintf(stderr,
                 "usage: %s [--emulated | --expect-error PREFIX | "
                 "--expect-cudnn-error PREFIX | --fake-driver LIB | "
                 "--fake-cudnn-fallback LIB]\n",
                 argv[0]);
    return 2;
  }
  return Compare();
}
