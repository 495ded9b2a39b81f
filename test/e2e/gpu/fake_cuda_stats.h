//===- fake_cuda_stats.h - What the fake CUDA driver saw --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
#ifndef TFAOT_TEST_GPU_FAKE_CUDA_STATS_H
#define TFAOT_TEST_GPU_FAKE_CUDA_STATS_H

#include <cstddef>

/// Counters of fake_cuda_driver.cpp, read through fake_cuda_stats().
struct FakeCudaStats {
  int inits, retained, context_depth, streams, syncs;
  int last_device;  ///< Of the last primary context retained.
  int allocs, live_allocs;
  size_t htod_bytes, dtoh_bytes;
  int cubin_loads, ptx_loads, unloads;
  int launches, pointer_params_checked;
  /// cuBLAS (the same library stands in for libcublas): live handles and
  /// products run, int8 and 16-bit ones among them (a graph launch counts
  /// its products and launches again).
  int cublas_handles, gemms, int8_gemms, half_gemms;
  /// cuDNN (the same library stands in for libcudnn): live handles and
  /// descriptors, convolutions run and the fused ones among them (with
  /// CLIPPED_RELU at 6 among those), and the unfused epilogues'
  /// cudnnAddTensor and cudnnActivationForward calls (CLIPPED_RELU at 6
  /// among those).
  int cudnn_handles, cudnn_descriptors, convs, fused_convs, fused_relu6s;
  int tensor_adds, activations, relu6_activations;
  /// CUDA graphs: captures ended, live executable graphs, graph launches.
  int captures, live_graphs, graph_launches;
  /// Copies made (the bytes are above): host code's read-backs and host
  /// copies show in the count.
  int htod_copies, dtoh_copies;
  void *last_stream;
  int bad_calls;
  char last_problem[256];
};

#endif // TFAOT_TEST_GPU_FAKE_CUDA_STATS_H
