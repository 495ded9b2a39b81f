//===- jpeg_bench.cpp - Decode-then-crop vs decoding only the crop --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Times the two ways a compiled model can get a random crop of a JPEG, on
// the runtime function both lower to (tfaot_rt_decode_jpeg):
//   decode + crop: the whole image is decoded, then the window copied out
//                  (DecodeJpeg -> Slice, as compiled without fusion);
//   fused:         only the window is decoded (DecodeAndCropJpeg, or the
//                  decode + Slice that tfaot-fuse-decode-crop fuses).
// Images of 1 to 12 megapixels are encoded here with libjpeg (quality 90,
// 4:2:0, a textured synthetic picture); crops are ImageNet-style (Inception
// preprocessing): 8-100% of the area, aspect ratio 3/4 to 4/3, random
// position, from a fixed seed. Prints images/s for both and the speedup.
//
// A second table adds what follows the crop in a classifier's
// preprocessing: Cast to float and a bilinear resize to 224x224, unfused
// (each a pass over its own buffer) against the fused form tfaot compiles
// (only the window decoded, the resize converting the bytes it reads).
//
// A third table times what --jpeg_dct_scaling does for a whole image
// resized to 224x224 (the classifier input): a full-size decode, against a
// decode at the largest of 1/2, 1/4, 1/8 that still has at least 224x224
// pixels; both followed by the same bilinear resize (written here, the
// same loop for both, standing for the model's ResizeBilinear).
//
// Usage: tfaot_jpeg_bench [crops per size, default 30]
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/compiled_function.h"
#include "tfaot/runtime/jpeg.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <jpeglib.h>

namespace {

std::string Encode(int height, int width) {
  jpeg_compress_struct cinfo;
  jpeg_error_mgr err;
  cinfo.err = jpeg_std_error(&err);
  jpeg_create_compress(&cinfo);
  unsigned char *buffer = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&cinfo, &buffer, &size);
  cinfo.image_width = width;
  cinfo.image_height = height;
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, 90, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  std::vector<unsigned char> row(size_t(width) * 3);
  std::mt19937 rng(1);
  while (cinfo.next_scanline < cinfo.image_height) {
    int y = int(cinfo.next_scanline);
    for (int x = 0; x < width; ++x) {
      int noise = int(rng() % 32);
      row[3 * x] = (x * 255 / width + noise) & 255;
      row[3 * x + 1] = (y * 255 / height + (x ^ y) % 17) & 255;
      row[3 * x + 2] = ((x + y) % 256 + noise) & 255;
    }
    JSAMPROW r = row.data();
    jpeg_write_scanlines(&cinfo, &r, 1);
  }
  jpeg_finish_compress(&cinfo);
  std::string jpeg(reinterpret_cast<char *>(buffer), size);
  std::free(buffer);
  jpeg_destroy_compress(&cinfo);
  return jpeg;
}

struct Crop {
  int32_t window[4]; // y, x, h, w
};

/// Inception-style random crops of an height x width image.
std::vector<Crop> RandomCrops(int height, int width, int count,
                              std::mt19937 &rng) {
  std::uniform_real_distribution<double> area(0.08, 1.0);
  std::uniform_real_distribution<double> logRatio(std::log(3.0 / 4),
                                                  std::log(4.0 / 3));
  std::vector<Crop> crops;
  while (int(crops.size()) < count) {
    double a = area(rng) * height * width, r = std::exp(logRatio(rng));
    int w = int(std::lround(std::sqrt(a * r)));
    int h = int(std::lround(std::sqrt(a / r)));
    if (w < 1 || h < 1 || w > width || h > height)
      continue;
    int y = int(rng() % unsigned(height - h + 1));
    int x = int(rng() % unsigned(width - w + 1));
    crops.push_back({{y, x, h, w}});
  }
  return crops;
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

/// Half-pixel-centred bilinear resize of an RGB image to out_h x out_w,
/// reading bytes (converted as read, as tfaot's lowering does once the Cast
/// is folded into the resize) or floats (the Cast's copy, unfused).
template <typename Pixel>
void Resize(const Pixel *in, int in_h, int in_w, float *out, int out_h,
            int out_w) {
  for (int oy = 0; oy < out_h; ++oy) {
    float sy = std::max((oy + 0.5f) * in_h / out_h - 0.5f, 0.0f);
    int y0 = std::min(int(sy), in_h - 1), y1 = std::min(y0 + 1, in_h - 1);
    float dy = sy - y0;
    for (int ox = 0; ox < out_w; ++ox) {
      float sx = std::max((ox + 0.5f) * in_w / out_w - 0.5f, 0.0f);
      int x0 = std::min(int(sx), in_w - 1), x1 = std::min(x0 + 1, in_w - 1);
      float dx = sx - x0;
      for (int c = 0; c < 3; ++c) {
        auto px = [&](int y, int x) { return float(in[(y * in_w + x) * 3 + c]); };
        float top = px(y0, x0) + (px(y0, x1) - px(y0, x0)) * dx;
        float bottom = px(y1, x0) + (px(y1, x1) - px(y1, x0)) * dx;
        out[(oy * out_w + ox) * 3 + c] = top + (bottom - top) * dy;
      }
    }
  }
}

/// What tfaot-scale-jpeg-decode picks for a resize to `target` pixels.
int ScaledRatio(int height, int width, int target) {
  for (int ratio : {8, 4, 2})
    if ((height + ratio - 1) / ratio >= target &&
        (width + ratio - 1) / ratio >= target)
      return ratio;
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  const int count = argc > 1 ? std::max(1, std::atoi(argv[1])) : 30;
  const int sizes[][2] = {{864, 1152}, {1728, 2304}, {2448, 3264},
                          {3000, 4000}};
  const int64_t flags = tfaot::kJpegFancyUpscaling | tfaot::kJpegDctAccurate;
  std::mt19937 rng(42);
  std::printf("tfaot JPEG bench: %d ImageNet-style crops per size "
              "(8-100%% area, aspect 3/4-4/3), quality 90 4:2:0, ISLOW\n",
              count);
  std::printf("%12s %9s %16s %16s %8s\n", "image", "MP", "decode+crop/s",
              "fused/s", "speedup");
  for (const auto &size : sizes) {
    const int height = size[0], width = size[1];
    std::string jpeg = Encode(height, width);
    tfaot::Bytes bytes{jpeg.data(), int64_t(jpeg.size())};
    std::vector<Crop> crops = RandomCrops(height, width, count, rng);
    std::vector<uint8_t> image(size_t(height) * width * 3);
    std::vector<uint8_t> window(image.size());

    auto start = std::chrono::steady_clock::now();
    for (const Crop &c : crops) {
      tfaot_rt_decode_jpeg(&bytes, nullptr, image.data(), "bench", height,
                           width, 3, 1, flags, 0, 0);
      const size_t row = size_t(c.window[3]) * 3;
      for (int r = 0; r < c.window[2]; ++r)
        std::memcpy(window.data() + r * row,
                    image.data() +
                        ((size_t(c.window[0]) + r) * width + c.window[1]) * 3,
                    row);
    }
    double unfused = Seconds(std::chrono::steady_clock::now() - start);

    start = std::chrono::steady_clock::now();
    for (const Crop &c : crops)
      tfaot_rt_decode_jpeg(&bytes, c.window, window.data(), "bench",
                           c.window[2], c.window[3], 3, 1,
                           flags | tfaot::kJpegCrop, 0, 0);
    double fused = Seconds(std::chrono::steady_clock::now() - start);

    std::printf("%5dx%-6d %9.1f %16.2f %16.2f %7.2fx\n", width, height,
                height * double(width) / 1e6, count / unfused, count / fused,
                unfused / fused);
  }

  // The whole preprocessing as a model compiled without and with the
  // fusions runs it: decode, crop, Cast to float, resize to 224x224 (each
  // a pass over its own buffer), against the crop decoded alone and the
  // resize reading its bytes (tfaot-fuse-decode-crop and tfaot-simplify's
  // Cast into ResizeBilinear).
  std::printf("\nrandom crop -> 224x224 bilinear resize, %d crops per size\n",
              count);
  std::printf("%12s %9s %22s %16s %8s\n", "image", "MP",
              "decode+crop+cast+resize/s", "fused/s", "speedup");
  const int target = 224;
  std::vector<float> resized(size_t(target) * target * 3);
  for (const auto &size : sizes) {
    const int height = size[0], width = size[1];
    std::string jpeg = Encode(height, width);
    tfaot::Bytes bytes{jpeg.data(), int64_t(jpeg.size())};
    std::vector<Crop> crops = RandomCrops(height, width, count, rng);
    std::vector<uint8_t> image(size_t(height) * width * 3);
    std::vector<uint8_t> window(image.size());
    std::vector<float> floats(image.size());

    auto start = std::chrono::steady_clock::now();
    for (const Crop &c : crops) {
      tfaot_rt_decode_jpeg(&bytes, nullptr, image.data(), "bench", height,
                           width, 3, 1, flags, 0, 0);
      const size_t row = size_t(c.window[3]) * 3;
      for (int r = 0; r < c.window[2]; ++r)
        std::memcpy(window.data() + r * row,
                    image.data() +
                        ((size_t(c.window[0]) + r) * width + c.window[1]) * 3,
                    row);
      const size_t pixels = row * c.window[2];
      for (size_t i = 0; i < pixels; ++i)
        floats[i] = float(window[i]);
      Resize(floats.data(), c.window[2], c.window[3], resized.data(), target,
             target);
    }
    double unfused = Seconds(std::chrono::steady_clock::now() - start);

    start = std::chrono::steady_clock::now();
    for (const Crop &c : crops) {
      tfaot_rt_decode_jpeg(&bytes, c.window, window.data(), "bench",
                           c.window[2], c.window[3], 3, 1,
                           flags | tfaot::kJpegCrop, 0, 0);
      Resize(window.data(), c.window[2], c.window[3], resized.data(), target,
             target);
    }
    double fused = Seconds(std::chrono::steady_clock::now() - start);

    std::printf("%5dx%-6d %9.1f %22.2f %16.2f %7.2fx\n", width, height,
                height * double(width) / 1e6, count / unfused, count / fused,
                unfused / fused);
  }

  std::printf("\nwhole image -> 224x224 bilinear resize, %d runs per size\n",
              count);
  std::printf("%12s %9s %6s %16s %16s %8s\n", "image", "MP", "scale",
              "full decode/s", "scaled decode/s", "speedup");
  for (const auto &size : sizes) {
    const int height = size[0], width = size[1];
    std::string jpeg = Encode(height, width);
    tfaot::Bytes bytes{jpeg.data(), int64_t(jpeg.size())};
    std::vector<uint8_t> image(size_t(height) * width * 3);
    const int ratio = ScaledRatio(height, width, target);
    const int scaled_h = (height + ratio - 1) / ratio;
    const int scaled_w = (width + ratio - 1) / ratio;

    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
      tfaot_rt_decode_jpeg(&bytes, nullptr, image.data(), "bench", height,
                           width, 3, 1, flags, 0, 0);
      Resize(image.data(), height, width, resized.data(), target, target);
    }
    double full = Seconds(std::chrono::steady_clock::now() - start);

    start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
      tfaot_rt_decode_jpeg(&bytes, nullptr, image.data(), "bench", scaled_h,
                           scaled_w, 3, ratio, flags, 0, 0);
      Resize(image.data(), scaled_h, scaled_w, resized.data(), target, target);
    }
    double scaled = Seconds(std::chrono::steady_clock::now() - start);

    std::printf("%5dx%-6d %9.1f %6s %16.2f %16.2f %7.2fx\n", width, height,
                height * double(width) / 1e6,
                ("1/" + std::to_string(ratio)).c_str(), count / full,
                count / scaled, full / scaled);
  }
  return 0;
}
