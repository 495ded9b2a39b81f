//===- jpeg_fuzzer.cpp - Fuzz the JPEG decoder generated code calls --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Input format: the JPEG bytes, then two trailing bytes choosing how a
// compiled model would decode them (so the fuzzer explores the decode
// variants without mutating the image to do it):
//   byte -2: bit 0 crop window, bit 1 fancy upscaling, bit 2 ISLOW,
//            bit 3 one channel (else three), bits 4-5 ratio 1/2/4/8,
//            bit 6 check the whole image's size;
//   byte -1: the crop window's offset, y in the high nibble, x in the low.
// Without a crop the model was compiled for the 37x53 test images
// (test/e2e/jpeg), so every other size must be rejected; a crop decodes a
// 16x20 window at the offset, from an image of any size.
//
// Checks beyond "no crash, leak, UB or hang": a decode that fails says why,
// and a failed decode leaves zeros in the output (generated code goes on
// running on it).
//
//===----------------------------------------------------------------------===//
#include "run_status.h"
#include "tfaot/runtime/compiled_function.h"
#include "tfaot/runtime/jpeg.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  const uint8_t mode = data[size - 2], offset = data[size - 1];
  tfaot::Bytes bytes{data, int64_t(size - 2)};
  const bool crop = mode & 1;
  int64_t flags = 0;
  if (crop)
    flags |= tfaot::kJpegCrop;
  if (mode & 2)
    flags |= tfaot::kJpegFancyUpscaling;
  if (mode & 4)
    flags |= tfaot::kJpegDctAccurate;
  const int64_t channels = (mode & 8) ? 1 : 3;
  const int64_t ratio = int64_t(1) << ((mode >> 4) & 3);
  const bool checkImageSize = mode & 64;
  if (checkImageSize)
    flags |= tfaot::kJpegCheckImageSize;
  int64_t image_h = (37 + ratio - 1) / ratio, image_w = (53 + ratio - 1) / ratio;
  const int32_t window[4] = {offset >> 4, offset & 15, 16, 20};
  const int64_t height = crop ? window[2] : image_h;
  const int64_t width = crop ? window[3] : image_w;
  std::vector<uint8_t> out(size_t(height * width * channels), 0xAB);

  tfaot::internal::ClearRunError();
  tfaot_rt_decode_jpeg(&bytes, crop ? window : nullptr, out.data(), "fuzz",
                       height, width, channels, ratio, flags,
                       checkImageSize ? image_h : 0,
                       checkImageSize ? image_w : 0);
  if (tfaot::internal::RunError().empty())
    return 0;
  for (uint8_t v : out)
    if (v != 0) {
      std::fprintf(stderr, "tfaot fuzz: failed decode (%s) left a nonzero "
                           "output byte\n",
                   tfaot::internal::RunError().c_str());
      std::abort();
    }
  return 0;
}
