//===- depthwise_kernel_test.cpp - The depthwise GPU kernel's choice ------===//
// SPDX-License-Identifier: Apache-2.0
//
// chooseDepthwiseKernel against tiles worked out by hand from the rule in
// DepthwiseKernel.cpp: TH = 4 output rows, V = 4 outputs a thread at
// column stride 1 and 2 otherwise, TW = 2V, the input tile
// (TH-1)*sh + (kh-1)*dh + 1 by (TW-1)*sw + (kw-1)*dw + 1, CB the largest of
// 32, 16, 8 dividing C (16 padded to 20 a position), at most 32 KiB.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/DepthwiseKernel.h"

#include <gtest/gtest.h>

using tfaot::gpu::chooseDepthwiseKernel;
using tfaot::gpu::DepthwiseConvShape;
using tfaot::gpu::DepthwiseKernel;

namespace {

DepthwiseConvShape conv(int64_t channels, int64_t taps, int64_t stride,
                        int64_t dilation = 1, unsigned bits = 32) {
  DepthwiseConvShape shape;
  shape.batch = 1;
  shape.channels = channels;
  shape.taps[0] = shape.taps[1] = taps;
  shape.strides[0] = shape.strides[1] = stride;
  shape.dilations[0] = shape.dilations[1] = dilation;
  shape.elementBits = bits;
  return shape;
}

TEST(DepthwiseKernelTest, Stride1Of32ChannelsIsTiled) {
  DepthwiseKernel k = chooseDepthwiseKernel(conv(32, 3, 1), true);
  ASSERT_TRUE(k.tiled()) << k.directBecause;
  EXPECT_EQ(k.perThread, 4);
  EXPECT_EQ(k.tileRows, 4);
  EXPECT_EQ(k.tileCols, 8);
  EXPECT_EQ(k.channelBlock, 32);
  EXPECT_EQ(k.threads(), 256);  // 32 channels x 2 across x 4 rows.
  EXPECT_EQ(k.inputRows, 6);    // 3 + 2 + 1.
  EXPECT_EQ(k.inputCols, 10);   // 7 + 2 + 1.
  EXPECT_EQ(k.tileBytes, 6 * 10 * 32 * 4);
  EXPECT_EQ(k.describe(),
            "V=4 outputs a thread, 4x8 outputs x CB=32 channels a block of "
            "256 threads, input tile 6x10x32 (7680 bytes) in shared memory");
}

TEST(DepthwiseKernelTest, Stride2Of144ChannelsTakesBlocksOf16) {
  DepthwiseKernel k = chooseDepthwiseKernel(conv(144, 3, 2), true);
  ASSERT_TRUE(k.tiled()) << k.directBecause;
  EXPECT_EQ(k.perThread, 2);
  EXPECT_EQ(k.tileCols, 4);
  EXPECT_EQ(k.channelBlock, 16);
  EXPECT_EQ(k.tileChannels, 20);
  EXPECT_EQ(k.threads(), 128);
  EXPECT_EQ(k.inputRows, 9);  // 3*2 + 2 + 1.
  EXPECT_EQ(k.inputCols, 9);
  EXPECT_EQ(k.tileBytes, 9 * 9 * 20 * 4);
}

TEST(DepthwiseKernelTest, SixteenBitElementsHalveTheTile) {
  EXPECT_EQ(chooseDepthwiseKernel(conv(32, 3, 1, 1, 16), true).tileBytes,
            6 * 10 * 32 * 2);
}

TEST(DepthwiseKernelTest, FlagDirectWins) {
  DepthwiseKernel k = chooseDepthwiseKernel(conv(32, 3, 1), false);
  EXPECT_FALSE(k.tiled());
  EXPECT_EQ(k.describe(), "--gpu_depthwise=direct");
}

TEST(DepthwiseKernelTest, ChannelsNotAMultipleOf8StayDirect) {
  DepthwiseKernel k = chooseDepthwiseKernel(conv(12, 3, 1), true);
  EXPECT_EQ(k.directBecause, "12 channels, not a multiple of 8");
  EXPECT_TRUE(chooseDepthwiseKernel(conv(24, 3, 1), true).tiled());
}

// 7x7 dilated by 2: (4-1) + 6*2 + 1 = 16 rows by (8-1) + 6*2 + 1 = 20
// columns of 32 channels: 40960 bytes in f32, over 32 KiB; 20480 in 16 bits.
TEST(DepthwiseKernelTest, LargeTilesStayDirectUnlessHalved) {
  DepthwiseKernel k = chooseDepthwiseKernel(conv(32, 7, 1, 2), true);
  EXPECT_EQ(k.directBecause,
            "its input tile 16x20x32 (40960 bytes) exceeds 32768 (window "
            "7x7, stride 1x1, dilation 2x2)");
  DepthwiseKernel half = chooseDepthwiseKernel(conv(32, 7, 1, 2, 16), true);
  ASSERT_TRUE(half.tiled()) << half.directBecause;
  EXPECT_EQ(half.tileBytes, 20480);
}

// The grid's z holds images x channel blocks: 65536 images of 32 channels
// are one too many.
TEST(DepthwiseKernelTest, GridZLimit) {
  DepthwiseConvShape shape = conv(32, 3, 1);
  shape.batch = 65535;
  EXPECT_TRUE(chooseDepthwiseKernel(shape, true).tiled());
  shape.batch = 65536;
  EXPECT_EQ(chooseDepthwiseKernel(shape, true).directBecause,
            "65536 images x channel blocks, more than the 65535 of the "
            "grid's z");
}

} // namespace
