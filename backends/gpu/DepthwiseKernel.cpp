//===- DepthwiseKernel.cpp - A depthwise conv's GPU kernel ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Tile sizes (MobileNetV2: 112x112x32 ... 7x7x960, stride 1 and 2, 3x3):
//  - CB = 32 channels where C allows (a warp = 32 consecutive channels:
//    128-byte rows in f32, and the 32 threads hit 32 distinct shared-memory
//    banks in phase 2), else 16 or 8 (C = 144 is 9 x 16); fewer than 8
//    channels keep the direct kernel. A 16-channel tile is padded to 20
//    elements a position, so that the two halves of a warp (two column
//    groups) read distinct banks.
//  - V = 4 outputs per thread at stride 1 (the 4 windows cover 6 columns,
//    not 12), 2 at stride 2 (5 columns, not 6); two threads across, so TW
//    = 2V (8 or 4), and TH = 4 rows: 256 threads a block at CB = 32.
//  - The tile is then (TH-1)*sh + (kh-1)*dh + 1 rows by (TW-1)*sw +
//    (kw-1)*dw + 1 columns: at stride 1 6x10 for 4x8 outputs (1.9 reads
//    per output, against 9), at stride 2 9x9 for 4x4 (5.1 against 9);
//    7.5 and 10.1 KiB in f32, little enough for several blocks per SM. A
//    tile over 32 KiB (large or dilated windows) keeps the direct kernel.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/DepthwiseKernel.h"

using namespace tfaot::gpu;

namespace {
/// The largest tile staged in workgroup memory (of the 48 KiB a block may
/// have statically), so that several blocks fit an SM.
constexpr int64_t kMaxTileBytes = 32 * 1024;
/// Output rows a block computes.
constexpr int64_t kTileRows = 4;
/// Threads across a block's output row.
constexpr int64_t kThreadsAcross = 2;
/// CUDA's largest grid along z, where images x channel blocks go.
constexpr int64_t kMaxGridZ = 65535;

std::string times(int64_t a, int64_t b) {
  return std::to_string(a) + "x" + std::to_string(b);
}
} // namespace

DepthwiseKernel tfaot::gpu::chooseDepthwiseKernel(
    const DepthwiseConvShape &shape, bool tiledFlag) {
  DepthwiseKernel kernel;
  if (!tiledFlag) {
    kernel.directBecause = "--gpu_depthwise=direct";
    return kernel;
  }
  for (int64_t block : {32, 16, 8})
    if (shape.channels % block == 0) {
      kernel.channelBlock = block;
      break;
    }
  if (!kernel.channelBlock) {
    kernel.directBecause =
        std::to_string(shape.channels) + " channels, not a multiple of 8";
    return kernel;
  }
  kernel.perThread = shape.strides[1] == 1 ? 4 : 2;
  kernel.tileRows = kTileRows;
  kernel.tileCols = kThreadsAcross * kernel.perThread;
  kernel.inputRows = (kernel.tileRows - 1) * shape.strides[0] +
                     (shape.taps[0] - 1) * shape.dilations[0] + 1;
  kernel.inputCols = (kernel.tileCols - 1) * shape.strides[1] +
                     (shape.taps[1] - 1) * shape.dilations[1] + 1;
  // A warp of 16-channel blocks is two column groups, 4 tile columns
  // apart: at 16 elements a position their reads would hit the same banks
  // (64 words apart in f32, 32 in f16); 20 puts them 16 (8) banks apart.
  kernel.tileChannels = kernel.channelBlock == 16 ? 20 : kernel.channelBlock;
  kernel.tileBytes = kernel.inputRows * kernel.inputCols *
                     kernel.tileChannels * shape.elementBits / 8;
  if (kernel.tileBytes > kMaxTileBytes) {
    kernel.directBecause =
        "its input tile " + times(kernel.inputRows, kernel.inputCols) + "x" +
        std::to_string(kernel.tileChannels) + " (" +
        std::to_string(kernel.tileBytes) + " bytes) exceeds " +
        std::to_string(kMaxTileBytes) + " (window " +
        times(shape.taps[0], shape.taps[1]) + ", stride " +
        times(shape.strides[0], shape.strides[1]) + ", dilation " +
        times(shape.dilations[0], shape.dilations[1]) + ")";
    return kernel;
  }
  int64_t gridZ = shape.batch * (shape.channels / kernel.channelBlock);
  if (gridZ > kMaxGridZ)
    kernel.directBecause =
        std::to_string(gridZ) + " images x channel blocks, more than the " +
        std::to_string(kMaxGridZ) + " of the grid's z";
  return kernel;
}

std::string DepthwiseKernel::describe() const {
  if (!tiled())
    return directBecause;
  return "V=" + std::to_string(perThread) + " outputs a thread, " +
         times(tileRows, tileCols) + " outputs x CB=" +
         std::to_string(channelBlock) + " channels a block of " +
         std::to_string(threads()) + " threads, input tile " +
         times(inputRows, inputCols) + "x" + std::to_string(tileChannels) +
         " (" + std::to_string(tileBytes) + " bytes) in shared memory";
}
