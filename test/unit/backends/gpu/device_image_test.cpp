//===- device_image_test.cpp - The embedded CUDA kernel image -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The image layout the compiler writes and the runtime reads
// (tfaot/runtime/cuda_image.h), the check for PTX with unresolved calls, and
// ptxas's errors reaching the user.
//
//===----------------------------------------------------------------------===//
#include "backends/gpu/DeviceImage.h"
#include "runtime/include/tfaot/runtime/cuda_image.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

uint64_t ReadU64(const std::string &image, size_t offset) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i)
    value = value << 8 | static_cast<unsigned char>(image[offset + i]);
  return value;
}

TEST(GpuDeviceImage, PacksCubinAndPtxAtTheOffsetsTheHeaderGives) {
  namespace layout = tfaot::cuda_image;
  std::string cubin = "\x7f" "ELF-cubin-bytes";
  std::string ptx = ".version 8.0\n.target sm_89\n";
  std::string image = tfaot::gpu::packImage("sm_89", cubin, ptx);
  ASSERT_EQ(0, std::memcmp(image.data(), layout::kMagic, 8));
  EXPECT_EQ(89, static_cast<unsigned char>(image[layout::kArchOffset]));
  uint64_t cubinOffset = ReadU64(image, layout::kCubinOffset);
  EXPECT_EQ(0u, cubinOffset % layout::kCubinAlignment);
  EXPECT_GE(cubinOffset, layout::kHeaderBytes);
  EXPECT_EQ(cubin.size(), ReadU64(image, layout::kCubinSize));
  EXPECT_EQ(cubin, image.substr(cubinOffset, cubin.size()));
  uint64_t ptxOffset = ReadU64(image, layout::kPtxOffset);
  EXPECT_EQ(ptx.size(), ReadU64(image, layout::kPtxSize));
  EXPECT_EQ(ptx, image.substr(ptxOffset, ptx.size()));
  // The driver reads PTX as a C string.
  EXPECT_EQ('\0', image[ptxOffset + ptx.size()]);
  EXPECT_EQ(ptxOffset + ptx.size() + 1, image.size());
}

TEST(GpuDeviceImage, WithoutCubinHasOnlyPtx) {
  std::string image = tfaot::gpu::packImage("sm_90", "", ".version 8.0\n");
  EXPECT_EQ(90, static_cast<unsigned char>(image[tfaot::cuda_image::kArchOffset]));
  EXPECT_EQ(0u, ReadU64(image, tfaot::cuda_image::kCubinOffset));
  EXPECT_EQ(0u, ReadU64(image, tfaot::cuda_image::kCubinSize));
  EXPECT_EQ(".version 8.0\n",
            image.substr(ReadU64(image, tfaot::cuda_image::kPtxOffset), 13));
}

TEST(GpuDeviceImage, PtxCallingUndefinedFunctionsIsRejected) {
  std::string error;
  std::string ptx = ".version 8.0\n"
                    ".extern .func  (.param .b32 func_retval0) __nv_expf\n"
                    "(\n\t.param .b32 __nv_expf_param_0\n);\n"
                    ".extern .func  (.param .b32 func_retval0) __nv_tanhf(.param "
                    ".b32 x);\n"
                    ".extern .func __nv_nothing\n";
  EXPECT_FALSE(tfaot::gpu::checkPtxSelfContained(ptx, error));
  EXPECT_NE(std::string::npos, error.find("__nv_expf, __nv_tanhf, __nv_nothing")) << error;
  EXPECT_NE(std::string::npos, error.find("libdevice")) << error;
  error.clear();
  EXPECT_TRUE(tfaot::gpu::checkPtxSelfContained(
      ".version 8.0\n.visible .entry k()\n{\n\tret;\n}\n", error));
  EXPECT_EQ("", error);
}

TEST(GpuDeviceImage, PtxasErrorsAreReported) {
  std::string ptxas = tfaot::gpu::findPtxas();
  if (ptxas.empty())
    GTEST_SKIP() << "no ptxas installed";
  std::string cubin, error;
  EXPECT_FALSE(tfaot::gpu::assembleCubin(
      ptxas, ".version 8.0\n.target sm_90\n.address_size 64\nnonsense;\n",
      "sm_90", cubin, error));
  EXPECT_NE(std::string::npos, error.find("rejected the generated PTX for sm_90"))
      << error;
  EXPECT_TRUE(tfaot::gpu::assembleCubin(
      ptxas,
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k()\n{\n\tret;\n}\n",
      "sm_90", cubin, error))
      << error;
  ASSERT_GE(cubin.size(), 4u);
  EXPECT_EQ("\x7f" "ELF", cubin.substr(0, 4));
}

} // namespace
