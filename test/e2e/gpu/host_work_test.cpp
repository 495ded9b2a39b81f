//===- host_work_test.cpp - CUDA models that work on the host between kernels //
// SPDX-License-Identifier: Apache-2.0
//
// Models whose host code decides between launches (If, Case, While: a
// scalar read back from the GPU) or runs a runtime call on host copies of
// device buffers (NonMaxSuppression, Where), and faceboxes and handtrack,
// which do both (a map loop around NMS and Where; NMS per class, then
// TopKV2 with k a count, whose selection loops run in one GPU thread).
// Modes:
//
//   --fake-driver LIB  with TFAOT_LIBCUDA=LIB (fake_cuda_driver.cpp, which
//                      runs no kernel): the protocol. Every Run() succeeds,
//                      none is captured into a CUDA graph (a replay would
//                      repeat the first run's decisions and skip the host
//                      calls), the copies are exactly the arguments, the
//                      staged inputs, the results and the bounded results'
//                      dims, and a value that reaches the host call only
//                      through the copies (NMS's iou_threshold) arrives;
//   --emulated         faceboxes and handtrack built with --gpu_emulate
//                      (kernels run as loops on the CPU) against their CPU
//                      builds.
//
//===----------------------------------------------------------------------===//
#include "control_flow_cuda.h"
#include "data_dependent_cuda.h"
#include "faceboxes_cpu.h"
#include "faceboxes_cuda.h"
#include "faceboxes_emulated.h"
#include "handtrack_cpu.h"
#include "handtrack_cuda.h"
#include "handtrack_emulated.h"

#include "fake_cuda_stats.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

bool ok = true;

void Expect(bool condition, const std::string &what) {
  std::printf("%s %s\n", condition ? "ok  " : "FAIL", what.c_str());
  ok &= condition;
}

/// The control-flow model (../../backends/cpu/Inputs/control_flow.pbtxt:
/// If, While, nested While, While in If, Case) three times. The fake runs
/// no kernel, so every scalar read back is 0 (else branches, loops that end
/// at once, the default case); what is checked is that each run reads its
/// decisions back on top of copying its results, the same number each
/// time, and is never captured.
void ControlFlow(const FakeCudaStats &stats) {
  gpu_test::cuda::ControlFlow model;
  *static_cast<float *>(model.arg_data(0)) = 1.5f;
  *static_cast<int32_t *>(model.arg_data(1)) = 3;
  int copies[3];
  bool ran = true;
  FakeCudaStats before = stats;
  for (int run = 0; run < 3; ++run) {
    int start = stats.dtoh_copies;
    ran &= model.Run();
    copies[run] = stats.dtoh_copies - start;
  }
  Expect(ran && stats.bad_calls == before.bad_calls,
         "control flow: three runs, no bad driver call " + model.error_msg());
  Expect(copies[0] > model.num_results() && copies[1] == copies[0] &&
             copies[2] == copies[0],
         "control flow: each run reads its decisions back (" +
             std::to_string(copies[0] - model.num_results()) +
             " scalars) besides its " + std::to_string(model.num_results()) +
             " results");
  Expect(stats.captures == before.captures &&
             stats.graph_launches == before.graph_launches,
         "control flow: never captured into a CUDA graph");
}

/// NonMaxSuppressionV3 and Where (data_dependent.pbtxt, fetching nms3 and
/// where): each run after the first (which also uploads weights) copies the four arguments in (boxes 96 bytes, scores
/// 24, iou 4, mask 24), the three buffers the host calls read out (boxes,
/// scores, iou for NMS, whose max_output_size and score_threshold are
/// constants read in place on the host; the mask for Where), the host
/// calls' five outputs back in (NMS's 4 indices, 4 scores and count,
/// Where's [6, 2] int64 coordinates and count), and the two results (16
/// and 96 bytes) and their run-time dims (8 and 16 bytes) out.
void DataDependent(const FakeCudaStats &stats) {
  gpu_test::cuda::DataDependent model;
  const float boxes[24] = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11,
                           0, 20, 1, 21, 1, 21, 0, 20, 0, 30, 1, 31};
  const float scores[6] = {0.9f, 0.75f, 0.6f, 0.6f, 0.3f, -0.1f};
  std::memcpy(model.arg_data(0), boxes, sizeof boxes);
  std::memcpy(model.arg_data(1), scores, sizeof scores);
  *static_cast<float *>(model.arg_data(2)) = 0.5f;
  FakeCudaStats start = stats;
  bool ran = model.Run();
  Expect(ran && stats.bad_calls == start.bad_calls,
         "NMS and Where: the first run succeeds " + model.error_msg());
  // The second run: the first also uploads the weights.
  FakeCudaStats before = stats;
  ran = model.Run();
  size_t args = 96 + 24 + 4 + 24, staged_in = 96 + 24 + 4 + 24;
  size_t staged_out = 16 + 16 + 4 + 96 + 4, results = 16 + 96, dims = 8 + 16;
  Expect(stats.htod_bytes - before.htod_bytes == args + staged_out &&
             stats.htod_copies - before.htod_copies == 4 + 5,
         "NMS and Where: copied in, the arguments and the host calls' "
         "outputs (" + std::to_string(stats.htod_bytes - before.htod_bytes) +
             " bytes)");
  Expect(stats.dtoh_bytes - before.dtoh_bytes == staged_in + results + dims &&
             stats.dtoh_copies - before.dtoh_copies == 4 + 2 + 2,
         "NMS and Where: copied out, the host calls' inputs, the results "
         "and their dims (" +
             std::to_string(stats.dtoh_bytes - before.dtoh_bytes) + " bytes)");
  // The fake runs no kernel: the dims the entry would write stay the
  // device buffer's zeros, which replace the bounds the class starts with.
  Expect(model.result_is_bounded(0) && model.result_dims(0)[0] == 0 &&
             model.result_dims(1)[0] == 0 && model.result_dims(1)[1] == 0,
         "NMS and Where: result_dims() are the device's, copied back");
  // iou_threshold reaches the host NMS only through the device buffer of
  // the argument and the host copy: 1.5 fails the run with TF's message.
  *static_cast<float *>(model.arg_data(2)) = 1.5f;
  bool failed = !model.Run();
  Expect(failed && model.error_msg() ==
                       "node 'nms3': iou_threshold must be in [0, 1], got "
                       "1.500000",
         "NMS: an iou_threshold of 1.5 copied to the host call fails the "
         "run: " + model.error_msg());
  *static_cast<float *>(model.arg_data(2)) = 0.5f;
  ran = model.Run() && model.Run();
  Expect(ran && stats.captures == start.captures &&
             stats.graph_launches == start.graph_launches,
         "NMS and Where: later runs succeed, never captured");
}

/// A detector (faceboxes: a map loop over the image around NMS and Where;
/// handtrack: NMS per class, TopKV2 with k a count) three times.
template <typename Model>
void Detector(const char *name, const FakeCudaStats &stats) {
  Model model;
  std::memset(model.arg_data(0), 120, model.arg_info(0).size_bytes);
  FakeCudaStats before = stats;
  bool ran = model.Run() && model.Run() && model.Run();
  Expect(ran && stats.bad_calls == before.bad_calls,
         std::string(name) + ": three runs, no bad driver call " +
             model.error_msg());
  Expect(stats.captures == before.captures &&
             stats.graph_launches == before.graph_launches,
         std::string(name) + ": never captured into a CUDA graph");
}

int FakeDriver(const char *library) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  auto *stats_fn = handle ? reinterpret_cast<const FakeCudaStats *(*)()>(
                                dlsym(handle, "fake_cuda_stats"))
                          : nullptr;
  if (!stats_fn) {
    std::printf("FAIL cannot load the fake driver %s\n", library);
    return 1;
  }
  const FakeCudaStats &stats = *stats_fn();
  ControlFlow(stats);
  DataDependent(stats);
  Detector<gpu_test::cuda::Faceboxes>("faceboxes", stats);
  Detector<gpu_test::cuda::Handtrack>("handtrack", stats);
  Expect(stats.live_allocs == 0 && stats.live_graphs == 0,
         "the destructors free all device memory");
  if (stats.bad_calls)
    std::printf("     last problem: %s\n", stats.last_problem);
  return ok ? 0 : 1;
}

/// A model built with --gpu_emulate against its CPU build on the same
/// uint8 pixels, `low` + (a scramble of the index) % `range`: floats within
/// 1e-4 + 1e-4 |cpu|, integers exactly.
template <typename Emulated, typename Cpu>
void CompareEmulated(const char *name, int low, int range) {
  Emulated emulated;
  Cpu cpu;
  auto *pixels = static_cast<uint8_t *>(cpu.arg_data(0));
  for (size_t i = 0; i < cpu.arg_info(0).size_bytes; ++i)
    pixels[i] = static_cast<uint8_t>(low + (i * 7919 % range));
  std::memcpy(emulated.arg_data(0), pixels, cpu.arg_info(0).size_bytes);
  if (!emulated.Run() || !cpu.Run()) {
    Expect(false, std::string(name) + ": " + emulated.error_msg() + " " +
                      cpu.error_msg());
    return;
  }
  for (int r = 0; r < cpu.num_results(); ++r) {
    const tfaot::BufferInfo &info = cpu.result_info(r);
    std::string what = std::string(name) + " " + info.name;
    if (info.dtype != tfaot::DType::kFloat32) {
      Expect(std::memcmp(emulated.result_data(r), cpu.result_data(r),
                         info.size_bytes) == 0,
             what + ": equal to the CPU build");
      continue;
    }
    auto *a = static_cast<const float *>(emulated.result_data(r));
    auto *b = static_cast<const float *>(cpu.result_data(r));
    int64_t bad = -1;
    for (int64_t i = 0; i < info.num_elements && bad < 0; ++i)
      if (!(std::fabs(a[i] - b[i]) <= 1e-4f + 1e-4f * std::fabs(b[i])))
        bad = i;
    Expect(bad < 0, what + ": " + std::to_string(info.num_elements) +
                        (bad < 0 ? " values match the CPU build"
                                 : " values, [" + std::to_string(bad) +
                                       "] differs: " +
                                       std::to_string(a[bad]) + " vs " +
                                       std::to_string(b[bad])));
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--emulated") == 0) {
    // e2e.tfjs's ranges: faceboxes finds some boxes and pads the rest on
    // [100, 140); handtrack keeps 100 detections on [0, 10).
    CompareEmulated<gpu_test::emulated::Faceboxes, gpu_test::cpu::Faceboxes>(
        "faceboxes", 100, 40);
    CompareEmulated<gpu_test::emulated::Handtrack, gpu_test::cpu::Handtrack>(
        "handtrack", 0, 10);
    return ok ? 0 : 1;
  }
  if (argc == 3 && std::strcmp(argv[1], "--fake-driver") == 0)
    return FakeDriver(argv[2]);
  std::fprintf(stderr, "usage: %s --emulated | --fake-driver LIB\n", argv[0]);
  return 2;
}
