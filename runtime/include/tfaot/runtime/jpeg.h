//===- jpeg.h - JPEG decoding called from generated code --------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The runtime half of tfaot's DecodeJpeg / DecodeAndCropJpeg: generated code
// calls tfaot_rt_decode_jpeg() with the bytes argument's descriptor and the
// planned output buffer. Declared here so that the ABI is written down once;
// users never call it themselves. Uses libjpeg(-turbo): a program whose model
// decodes JPEGs links libjpeg too (the installed CMake package says so).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_JPEG_H
#define TFAOT_RUNTIME_JPEG_H

#include "tfaot/runtime/symbols.h"

#include <cstdint>

namespace tfaot {

/// Bits of tfaot_rt_decode_jpeg's `flags`. The compiler's lowering
/// (passes/LowerImageOps.cpp) writes the same values.
enum JpegFlags : int64_t {
  kJpegCrop = 1,            ///< `crop` points at [y, x, height, width].
  kJpegFancyUpscaling = 2,  ///< Smooth chroma upsampling (TF's default).
  kJpegDctAccurate = 4,     ///< JDCT_ISLOW ("INTEGER_ACCURATE"), else IFAST.
  kJpegCheckImageSize = 8,  ///< The decoded image must be image_h x image_w.
};

} // namespace tfaot

extern "C" {

/// Decodes the JPEG described by `contents` (a tfaot::Bytes) into `out`, a
/// height x width x channels uint8 buffer (channels 1 or 3). Without
/// kJpegCrop the whole image is decoded and must be height x width; with it
/// the window crop[0..3] = [y, x, h, w] (h, w equal to height, width) of the
/// image scaled by 1/ratio is decoded, and only that window's rows and
/// iMCU columns are decompressed. On any failure it writes zeros to `out`
/// and records "<what>: <reason>" as the error of the current Run().
void tfaot_rt_decode_jpeg(const void *contents, const int32_t *crop,
                          uint8_t *out, const char *what, int64_t height,
                          int64_t width, int64_t channels, int64_t ratio,
                          int64_t flags, int64_t image_height,
                          int64_t image_width);

} // extern "C"

// Codegen calls it by the name in symbols.h.
static_assert(tfaot_rt::sameName(tfaot_rt::kDecodeJpeg,
                                 TFAOT_RT_NAME_OF(tfaot_rt_decode_jpeg)));

#endif // TFAOT_RUNTIME_JPEG_H
