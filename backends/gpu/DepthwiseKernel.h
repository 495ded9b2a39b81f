//===- DepthwiseKernel.h - A depthwise conv's GPU kernel ------ -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The choice between the tiled depthwise kernel (an input tile in shared
// memory, V outputs a thread; TiledDepthwise.cpp) and the direct one (one
// thread per output, its window read from global memory), and the tile, as
// a function of the convolution's shape and --gpu_depthwise alone. The
// pass builds what this says, and `tfaot explain`, which stops before the
// kernel mapping, reports what this says (the pass with report-only), so
// the two cannot disagree.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_GPU_DEPTHWISEKERNEL_H
#define TFAOT_BACKENDS_GPU_DEPTHWISEKERNEL_H

#include <cstdint>
#include <string>

namespace tfaot::gpu {

/// What the kernel choice depends on: an NHWC depthwise convolution of
/// channel multiplier 1.
struct DepthwiseConvShape {
  int64_t batch = 0, channels = 0;
  int64_t taps[2] = {0, 0};  ///< The window, rows x columns.
  int64_t strides[2] = {1, 1}, dilations[2] = {1, 1};
  /// The input's element as stored: 32, or 16 with --precision=fp16|bf16.
  unsigned elementBits = 32;
};

/// The tiled kernel's blocks and tile, or why the direct kernel.
struct DepthwiseKernel {
  /// Empty for the tiled kernel; else why the direct one.
  std::string directBecause;
  int64_t channelBlock = 0;   ///< CB: channels a block computes.
  int64_t perThread = 0;      ///< V: adjacent outputs of a row a thread.
  int64_t tileRows = 0;       ///< Output rows a block computes (TH).
  int64_t tileCols = 0;       ///< Output columns a block computes (TW).
  int64_t inputRows = 0, inputCols = 0;  ///< The input tile they read.
  /// The tile's innermost size: CB, padded for shared-memory banks.
  int64_t tileChannels = 0;
  int64_t tileBytes = 0;

  bool tiled() const { return directBecause.empty(); }
  /// Threads a block: CB x (TW / V) x TH.
  int64_t threads() const {
    return channelBlock * (tileCols / perThread) * tileRows;
  }
  /// The remark's detail: the tile, or the reason.
  std::string describe() const;
};

/// The kernel for `shape`; `tiledFlag` is --gpu_depthwise=tiled.
DepthwiseKernel chooseDepthwiseKernel(const DepthwiseConvShape &shape,
                                      bool tiledFlag);

} // namespace tfaot::gpu

#endif // TFAOT_BACKENDS_GPU_DEPTHWISEKERNEL_H
