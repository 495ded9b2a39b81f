//===- jpeg_test.cpp - DecodeJpeg / DecodeAndCropJpeg end to end ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// The models of decode.pbtxt run on JPEGs that cjpeg wrote
// (make_jpegs.py) and are checked byte for byte against
// djpeg's decodes of the same files, with the matching DCT method and
// upsampling: whole images, windows (crop = the same window of djpeg's full
// decode, for constant and computed offsets), ratio=2, and a resize /
// normalize / Mean pipeline against a reference computed here from djpeg's
// pixels. Bad inputs must make Run() return false with a message saying
// what is wrong, and thousands of mutated files must never crash it.
//
//===----------------------------------------------------------------------===//

#include "jpeg_crop.h"
#include "jpeg_decode.h"
#include "jpeg_half.h"
#include "jpeg_pipeline.h"
#include "jpeg_pipeline_dct.h"
#include "jpeg_sliced.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <jpeglib.h>

namespace {

using ::testing::HasSubstr;

std::string Path(const std::string &name) {
  return std::string(TFAOT_JPEG_IMAGES) + "/" + name;
}

std::string ReadFile(const std::string &name) {
  std::ifstream in(Path(name), std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << Path(name);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A binary PGM/PPM as djpeg writes it.
struct Image {
  int height = 0, width = 0, channels = 0;
  std::vector<uint8_t> pixels;
  const uint8_t *at(int y, int x) const {
    return &pixels[(size_t(y) * width + x) * channels];
  }
};

Image ReadPnm(const std::string &name) {
  std::string data = ReadFile(name);
  Image image;
  char magic[3] = {};
  int maxval = 0, consumed = 0;
  if (std::sscanf(data.c_str(), "%2s %d %d %d%n", magic, &image.width,
                  &image.height, &maxval, &consumed) != 4) {
    ADD_FAILURE() << name << " is not a PNM file";
    return image;
  }
  image.channels = std::string(magic) == "P6" ? 3 : 1;
  const char *start = data.c_str() + consumed + 1; // One whitespace byte.
  image.pixels.assign(start, start + size_t(image.height) * image.width *
                                         image.channels);
  return image;
}

Image Window(const Image &image, int y, int x, int h, int w) {
  Image out{h, w, image.channels, {}};
  for (int r = 0; r < h; ++r)
    out.pixels.insert(out.pixels.end(), image.at(y + r, x),
                      image.at(y + r, x) + size_t(w) * image.channels);
  return out;
}

/// libjpeg turns gray into RGB by repeating the value.
Image ToRgb(const Image &image) {
  if (image.channels == 3)
    return image;
  Image out{image.height, image.width, 3, {}};
  for (uint8_t v : image.pixels)
    out.pixels.insert(out.pixels.end(), {v, v, v});
  return out;
}

/// Byte-for-byte comparison, reporting the first differing pixel.
void ExpectPixels(const uint8_t *actual, const Image &expected,
                  const std::string &what) {
  ASSERT_FALSE(expected.pixels.empty()) << what;
  for (size_t i = 0; i < expected.pixels.size(); ++i)
    if (actual[i] != expected.pixels[i]) {
      size_t pixel = i / expected.channels;
      ADD_FAILURE() << what << ": first difference at (y " <<
          pixel / expected.width << ", x " << pixel % expected.width
                    << ", channel " << i % expected.channels << "): "
                    << int(actual[i]) << " vs djpeg's "
                    << int(expected.pixels[i]);
      return;
    }
}

// The 37x53 images (the size jpeg_decode and jpeg_pipeline are compiled
// for) and the 97x120 ones (only windows are decoded from those).
const char *const kSmall[] = {"c420", "c444", "prog", "rst", "gray"};
const char *const kAll[] = {"c420", "c444",   "prog",       "rst",
                            "gray", "big420", "big444prog", "bigrst"};

TEST(Jpeg, WholeImagesMatchDjpeg) {
  for (const char *name : kSmall) {
    SCOPED_TRACE(name);
    std::string jpeg = ReadFile(std::string(name) + ".jpg");
    e2e::jpeg::Decode fn;
    ASSERT_TRUE(fn.set_arg_contents_data(jpeg.data(), jpeg.size()));
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    std::string base = name;
    Image islow = ToRgb(ReadPnm(base + ".islow.pnm"));
    ExpectPixels(fn.result_decode_data(), islow, "INTEGER_ACCURATE");
    ExpectPixels(fn.result_decode_fast_data(),
                 ToRgb(ReadPnm(base + ".ifast.pnm")), "dct_method \"\"");
    ExpectPixels(fn.result_decode_gray_data(), ReadPnm(base + ".gray.pnm"),
                 "channels=1");
    ExpectPixels(fn.result_decode_nofancy_data(),
                 ToRgb(ReadPnm(base + ".nosmooth.pnm")),
                 "fancy_upscaling=false");
    // Decode then Slice, and the fused DecodeAndCropJpeg: same window.
    Image window = Window(islow, 5, 7, 16, 20);
    ExpectPixels(fn.result_slice_data(), window, "Slice");
    ExpectPixels(fn.result_crop_data(), window, "DecodeAndCropJpeg");
    EXPECT_EQ(0, std::memcmp(fn.result_slice_data(), fn.result_crop_data(),
                             fn.kResult4Bytes));
  }
}

// jpeg_sliced fetches only the Slice, so tfaot-fuse-decode-crop turns its
// decode into a decode of the window: same pixels as decoding everything,
// and a wrongly sized image still fails.
TEST(Jpeg, FusedDecodeCropMatchesUnfused) {
  for (const char *name : kSmall) {
    SCOPED_TRACE(name);
    std::string jpeg = ReadFile(std::string(name) + ".jpg");
    e2e::jpeg::Sliced fused;
    e2e::jpeg::Decode unfused;
    ASSERT_TRUE(fused.set_arg_contents_data(jpeg.data(), jpeg.size()));
    ASSERT_TRUE(unfused.set_arg_contents_data(jpeg.data(), jpeg.size()));
    ASSERT_TRUE(fused.Run()) << fused.error_msg();
    ASSERT_TRUE(unfused.Run()) << unfused.error_msg();
    EXPECT_EQ(0, std::memcmp(fused.result_slice_data(),
                             unfused.result_slice_data(), fused.kResult0Bytes));
  }
  std::string big = ReadFile("big420.jpg");
  e2e::jpeg::Sliced fused;
  ASSERT_TRUE(fused.set_arg_contents_data(big.data(), big.size()));
  EXPECT_FALSE(fused.Run());
  EXPECT_EQ(fused.error_msg(),
            "DecodeJpeg 'decode' (argument 'contents'): the image is 97x120 "
            "(height x width) but the model was compiled for 37x53");
}

TEST(Jpeg, ComputedCropWindowsMatchDjpeg) {
  e2e::jpeg::Crop fn;
  for (const char *name : kAll) {
    SCOPED_TRACE(name);
    std::string jpeg = ReadFile(std::string(name) + ".jpg");
    Image islow = ToRgb(ReadPnm(std::string(name) + ".islow.pnm"));
    const int h = islow.height, w = islow.width;
    // iMCU-aligned and unaligned offsets, and the corners.
    const int offsets[][2] = {{0, 0},  {5, 7},          {16, 16},
                              {8, 24}, {h - 16, w - 20}, {21, 33},
                              {1, 31}, {h - 16, 0},      {0, w - 20}};
    for (const auto &offset : offsets) {
      SCOPED_TRACE(testing::Message() << "window at y " << offset[0] << ", x "
                                      << offset[1]);
      ASSERT_TRUE(fn.set_arg_contents_data(jpeg.data(), jpeg.size()));
      *fn.arg_y_data() = offset[0];
      *fn.arg_x_data() = offset[1];
      ASSERT_TRUE(fn.Run()) << fn.error_msg();
      ExpectPixels(fn.result_crop_dyn_data(),
                   Window(islow, offset[0], offset[1], 16, 20), "crop_dyn");
    }
  }
}

TEST(Jpeg, RatioTwoMatchesDjpegScale) {
  for (const char *name : kSmall) {
    SCOPED_TRACE(name);
    std::string jpeg = ReadFile(std::string(name) + ".jpg");
    e2e::jpeg::Half fn;
    ASSERT_TRUE(fn.set_arg_contents_data(jpeg.data(), jpeg.size()));
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    ExpectPixels(fn.result_decode_half_data(),
                 ToRgb(ReadPnm(std::string(name) + ".half.pnm")), "ratio=2");
  }
}

/// TF's ResizeBilinear with half_pixel_centers (resize_bilinear_op.cc):
/// source coordinate (i + 0.5) * in / out - 0.5, neighbours clamped.
float Bilinear(const Image &image, int oy, int ox, int c, int out_h,
               int out_w) {
  auto source = [](int o, int in, int out, int &lo, int &hi) {
    float s = (o + 0.5f) * (float(in) / float(out)) - 0.5f;
    float f = std::floor(s);
    lo = std::max(int(f), 0);
    hi = std::min(int(std::ceil(s)), in - 1);
    return s - f;
  };
  int y0, y1, x0, x1;
  float dy = source(oy, image.height, out_h, y0, y1);
  float dx = source(ox, image.width, out_w, x0, x1);
  auto px = [&](int y, int x) { return float(image.at(y, x)[c]); };
  float top = px(y0, x0) + (px(y0, x1) - px(y0, x0)) * dx;
  float bottom = px(y1, x0) + (px(y1, x1) - px(y1, x0)) * dx;
  return top + (bottom - top) * dy;
}

TEST(Jpeg, ResizeNormalizeMeanPipeline) {
  for (const char *name : kSmall) {
    SCOPED_TRACE(name);
    std::string jpeg = ReadFile(std::string(name) + ".jpg");
    Image islow = ToRgb(ReadPnm(std::string(name) + ".islow.pnm"));
    e2e::jpeg::Pipeline fn;
    ASSERT_TRUE(fn.set_arg_contents_data(jpeg.data(), jpeg.size()));
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    const float *resized = fn.result_resized_data();
    double sums[3] = {};
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x)
        for (int c = 0; c < 3; ++c) {
          float expected = Bilinear(islow, y, x, c, 8, 8);
          EXPECT_NEAR(resized[(y * 8 + x) * 3 + c], expected, 1e-3)
              << "resized (" << y << ", " << x << ", " << c << ")";
          sums[c] += (expected - 127.5f) * 0.0078125f;
        }
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(fn.result_head_data()[c], sums[c] / 64, 1e-5)
          << "head channel " << c;
  }
}

// With --jpeg_dct_scaling the 37x53 image is decoded at 1/4 (10x14, the
// smallest scale still at least 8x8): the resize must then read exactly
// djpeg's 1/4-scale decode, and the normalization and Mean after it see
// that resize. (The values differ from the full-size pipeline's by tens of
// levels on these test pictures, whose pixel-level pattern a bilinear
// 8x8 sample aliases while the scaled IDCT averages it; hence no closeness
// check between the two.)
TEST(Jpeg, DctScaledPipelineResizesDjpegQuarterScale) {
  for (const char *name : kSmall) {
    SCOPED_TRACE(name);
    std::string jpeg = ReadFile(std::string(name) + ".jpg");
    Image quarter = ToRgb(ReadPnm(std::string(name) + ".quarter.pnm"));
    ASSERT_EQ(quarter.height, 10);
    ASSERT_EQ(quarter.width, 14);
    e2e::jpeg::PipelineDct fn;
    ASSERT_TRUE(fn.set_arg_contents_data(jpeg.data(), jpeg.size()));
    ASSERT_TRUE(fn.Run()) << fn.error_msg();
    double sums[3] = {};
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x)
        for (int c = 0; c < 3; ++c) {
          float expected = Bilinear(quarter, y, x, c, 8, 8);
          EXPECT_NEAR(fn.result_resized_data()[(y * 8 + x) * 3 + c], expected,
                      1e-3)
              << "resized (" << y << ", " << x << ", " << c << ")";
          sums[c] += (expected - 127.5f) * 0.0078125f;
        }
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(fn.result_head_data()[c], sums[c] / 64, 1e-5)
          << "head channel " << c;
  }
}

/// A CMYK JPEG, which cjpeg cannot write: libjpeg compresses one.
std::string CmykJpeg() {
  jpeg_compress_struct cinfo;
  jpeg_error_mgr err;
  cinfo.err = jpeg_std_error(&err);
  jpeg_create_compress(&cinfo);
  unsigned char *buffer = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&cinfo, &buffer, &size);
  cinfo.image_width = 53;
  cinfo.image_height = 37;
  cinfo.input_components = 4;
  cinfo.in_color_space = JCS_CMYK;
  jpeg_set_defaults(&cinfo);
  jpeg_start_compress(&cinfo, TRUE);
  std::vector<unsigned char> row(53 * 4, 100);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&cinfo, &r, 1);
  }
  jpeg_finish_compress(&cinfo);
  std::string jpeg(reinterpret_cast<char *>(buffer), size);
  std::free(buffer);
  jpeg_destroy_compress(&cinfo);
  return jpeg;
}

/// Runs the Decode model on `bytes` and returns error_msg() ("" on success).
std::string DecodeError(const std::string &bytes) {
  e2e::jpeg::Decode fn;
  EXPECT_TRUE(fn.set_arg_contents_data(bytes.data(), bytes.size()));
  bool ok = fn.Run();
  EXPECT_EQ(ok, fn.error_msg().empty());
  return fn.error_msg();
}

TEST(Jpeg, BadInputsFailRunWithAReason) {
  const std::string prefix = "DecodeJpeg 'decode' (argument 'contents'): ";
  EXPECT_EQ(DecodeError(""), prefix + "JPEG is empty (0 bytes)");
  std::string jpeg = ReadFile("c420.jpg");
  EXPECT_THAT(DecodeError(jpeg.substr(0, jpeg.size() / 2)),
              HasSubstr(prefix + "JPEG is truncated"));
  EXPECT_EQ(DecodeError("this is not a JPEG file"),
            prefix + "JPEG is corrupt: Not a JPEG file: starts with 0x74 0x68");
  EXPECT_EQ(DecodeError(CmykJpeg()),
            prefix + "JPEG is CMYK (4 channels); tfaot decodes grayscale and "
                     "colour (YCbCr/RGB) JPEGs only");
  EXPECT_EQ(DecodeError(ReadFile("big420.jpg")),
            prefix + "the image is 97x120 (height x width) but the model was "
                     "compiled for 37x53");

  e2e::jpeg::Decode unset;
  EXPECT_FALSE(unset.Run());
  EXPECT_THAT(unset.error_msg(),
              HasSubstr("('contents') is not set: call set_arg0_data(data, "
                        "size) before Run()"));
  EXPECT_FALSE(unset.set_arg_bytes(5, "x", 1));
}

TEST(Jpeg, CropWindowOutsideTheImageFails) {
  std::string jpeg = ReadFile("c444.jpg");
  e2e::jpeg::Crop fn;
  ASSERT_TRUE(fn.set_arg_contents_data(jpeg.data(), jpeg.size()));
  const std::string prefix =
      "DecodeAndCropJpeg 'crop_dyn' (argument 'contents'): crop window ";
  *fn.arg_y_data() = 22;
  *fn.arg_x_data() = 7;
  EXPECT_FALSE(fn.Run());
  EXPECT_EQ(fn.error_msg(), prefix + "[22, 7, 16, 20] ([y, x, height, "
                                     "width]) is outside the 37x53 image");
  *fn.arg_y_data() = 0;
  *fn.arg_x_data() = -1;
  EXPECT_FALSE(fn.Run());
  EXPECT_THAT(fn.error_msg(), HasSubstr("[0, -1, 16, 20]"));
  // The same instance recovers on a good window: the error is per Run().
  *fn.arg_x_data() = 33;
  EXPECT_TRUE(fn.Run()) << fn.error_msg();
  EXPECT_FALSE(fn.set_arg_bytes(1, "x", 1)); // y is int32, not a string.
  EXPECT_THAT(fn.error_msg(), HasSubstr("is int32, not a string"));
}

/// `jpeg` with the size in its start-of-frame header replaced, the rest (and
/// so the scans, sized for the real image) left as they are.
std::string WithDeclaredSize(std::string jpeg, int height, int width) {
  for (size_t at = 2; at + 9 < jpeg.size();) {
    const uint8_t marker = jpeg[at + 1];
    const size_t length = uint8_t(jpeg[at + 2]) << 8 | uint8_t(jpeg[at + 3]);
    if (marker >= 0xC0 && marker <= 0xC2) {
      jpeg[at + 5] = char(height >> 8);
      jpeg[at + 6] = char(height);
      jpeg[at + 7] = char(width >> 8);
      jpeg[at + 8] = char(width);
      return jpeg;
    }
    at += 2 + length;
  }
  ADD_FAILURE() << "no start-of-frame header";
  return jpeg;
}

// A progressive JPEG is decoded into a buffer of all its DCT coefficients
// before its first row, whatever the window: 642 bytes declaring 65350x10293
// pixels made libjpeg allocate and clear 2 GB (found by tfaot-fuzz-jpeg).
// Sizes are now checked before libjpeg allocates anything.
TEST(Jpeg, HugeProgressiveHeadersFailBeforeDecoding) {
  const std::string huge =
      WithDeclaredSize(ReadFile("prog.jpg"), 14000, 14000);
  EXPECT_EQ(DecodeError(huge),
            "DecodeJpeg 'decode' (argument 'contents'): the image is "
            "14000x14000 (height x width) but the model was compiled for "
            "37x53");
  // Any size may be cropped, but 14000x14000 in 4:2:0 is 588,000,000 bytes
  // of coefficients.
  e2e::jpeg::Crop crop;
  ASSERT_TRUE(crop.set_arg_contents_data(huge.data(), huge.size()));
  *crop.arg_y_data() = 3;
  *crop.arg_x_data() = 5;
  EXPECT_FALSE(crop.Run());
  EXPECT_EQ(crop.error_msg(),
            "DecodeAndCropJpeg 'crop_dyn' (argument 'contents'): the image is "
            "14000x14000 (height x width) in several scans (progressive): "
            "decoding it needs 561 MiB of DCT coefficients, more than the 512 "
            "MiB tfaot allows");
}

TEST(Jpeg, MutatedJpegsFailCleanlyOrDecode) {
  std::mt19937 rng(20261123);
  e2e::jpeg::Decode decode;
  e2e::jpeg::Crop crop;
  int failures = 0, runs = 0;
  for (const char *name : {"c420", "prog", "rst", "gray", "big444prog"}) {
    const std::string original = ReadFile(std::string(name) + ".jpg");
    for (int i = 0; i < 600; ++i, ++runs) {
      std::string bytes = original;
      switch (rng() % 3) {
      case 0: // Flip a few bytes, often in the headers.
        for (int k = 1 + rng() % 8; k > 0; --k)
          bytes[rng() % (rng() % 2 ? 400 : bytes.size()) % bytes.size()] ^=
              char(1 + rng() % 255);
        break;
      case 1: // Truncate.
        bytes.resize(rng() % bytes.size());
        break;
      default: // Insert garbage.
        bytes.insert(rng() % bytes.size(), std::string(1 + rng() % 16,
                                                       char(rng())));
      }
      tfaot::CompiledFunction &fn =
          i % 2 ? static_cast<tfaot::CompiledFunction &>(decode) : crop;
      ASSERT_TRUE(fn.set_arg_bytes(0, bytes.data(), bytes.size()));
      *crop.arg_y_data() = 3;
      *crop.arg_x_data() = 5;
      if (!fn.Run()) {
        ++failures;
        EXPECT_THAT(fn.error_msg(), HasSubstr("(argument 'contents'): "))
            << "mutation " << i;
      }
    }
  }
  // Most mutations break something, and the rest decode: both happen.
  EXPECT_GT(failures, runs / 4);
  EXPECT_LT(failures, runs);
}

} // namespace
