//===- jpeg.cpp - JPEG decoding for generated code ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot_rt_decode_jpeg() on top of libjpeg(-turbo)'s classic API, which has
// what a cropped decode needs (jpeg_crop_scanline, jpeg_skip_scanlines) in
// every libjpeg-turbo since 1.5. libjpeg reports fatal errors by calling
// error_exit(), whose default ends the process; here it longjmps back so a
// bad image becomes an error of Run(). Nothing that needs a destructor lives
// between setjmp and the longjmp: buffers come from libjpeg's own pools.
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/jpeg.h"

#include "run_status.h"
#include "tfaot/runtime/compiled_function.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio> // jpeglib.h needs FILE and size_t declared first.
#include <cstring>
#include <string>

#include <jerror.h>
#include <jpeglib.h>

namespace {

struct ErrorManager {
  jpeg_error_mgr pub;  // First member: libjpeg sees only this part.
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  bool truncated;
};

[[noreturn]] void OnError(j_common_ptr cinfo) {
  auto *err = reinterpret_cast<ErrorManager *>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// Warnings are recoverable corruption (libjpeg fills in what is missing).
// The one that matters is "data ended early": jpeg_mem_src then feeds fake
// end-of-image markers and the rest of the image would silently come out
// grey, which TensorFlow rejects unless try_recover_truncated is set.
void OnMessage(j_common_ptr cinfo, int level) {
  auto *err = reinterpret_cast<ErrorManager *>(cinfo->err);
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
    err->truncated = true;
    std::snprintf(err->message, sizeof(err->message),
                  "the data ends before the image does");
    std::longjmp(err->jump, 1);
  }
}

std::string Dims(int64_t h, int64_t w) {
  return std::to_string(h) + "x" + std::to_string(w);
}

// The checks that need only the header: colour space and sizes. Returns an
// empty string when decoding may go on.
std::string CheckImage(const jpeg_decompress_struct &cinfo, int64_t height,
                       int64_t width, int64_t flags, int64_t image_h,
                       int64_t image_w, const int32_t *crop) {
  const int64_t h = cinfo.output_height, w = cinfo.output_width;
  if ((flags & tfaot::kJpegCheckImageSize) && (h != image_h || w != image_w))
    return "the image is " + Dims(h, w) +
           " (height x width) but the model was compiled for " +
           Dims(image_h, image_w);
  if (!(flags & tfaot::kJpegCrop)) {
    if (h != height || w != width)
      return "the image is " + Dims(h, w) +
             " (height x width) but the model was compiled for " +
             Dims(height, width);
    return "";
  }
  const std::string window = "[" + std::to_string(crop[0]) + ", " +
                             std::to_string(crop[1]) + ", " +
                             std::to_string(crop[2]) + ", " +
                             std::to_string(crop[3]) + "]";
  if (crop[2] != height || crop[3] != width)
    return "crop window " + window + " is not " + Dims(height, width) +
           ", the size the model was compiled for";
  if (crop[0] < 0 || crop[1] < 0 || crop[0] + int64_t(crop[2]) > h ||
      crop[1] + int64_t(crop[3]) > w)
    return "crop window " + window + " ([y, x, height, width]) is outside " +
           "the " + Dims(h, w) + " image";
  return "";
}

// A progressive (or other multi-scan) JPEG is decoded into a buffer of all
// its DCT coefficients, 128 bytes per 8x8 block of each component, before
// the first row comes out, whatever the crop window or the ratio. A 642-byte
// progressive header declaring 65350x10293 pixels made libjpeg allocate and
// clear 2 GB (tfaot-fuzz-jpeg). The limit takes 4:2:0 images up to about
// 180 megapixels, 4:4:4 ones up to about 90.
constexpr uint64_t kMaxCoefficientBytes = uint64_t(512) << 20;

std::string CheckCoefficientBuffer(jpeg_decompress_struct &cinfo) {
  if (!jpeg_has_multiple_scans(&cinfo))
    return "";
  uint64_t bytes = 0;
  for (int c = 0; c < cinfo.num_components; ++c) {
    // libjpeg pads each component to whole MCUs.
    const jpeg_component_info &comp = cinfo.comp_info[c];
    const uint64_t h = comp.h_samp_factor, v = comp.v_samp_factor;
    bytes += (comp.width_in_blocks + h - 1) / h * h *
             ((comp.height_in_blocks + v - 1) / v * v) * DCTSIZE2 *
             sizeof(JCOEF);
  }
  if (bytes <= kMaxCoefficientBytes)
    return "";
  return "the image is " + Dims(cinfo.image_height, cinfo.image_width) +
         " (height x width) in several scans (progressive): decoding it "
         "needs " +
         std::to_string((bytes + (1 << 20) - 1) >> 20) +
         " MiB of DCT coefficients, more than the " +
         std::to_string(kMaxCoefficientBytes >> 20) + " MiB tfaot allows";
}

// Decodes into `out`; returns an error message or "". All libjpeg calls are
// in here, under the setjmp.
std::string Decode(jpeg_decompress_struct &cinfo, ErrorManager &err,
                   const tfaot::Bytes &bytes, const int32_t *crop,
                   uint8_t *out, int64_t height, int64_t width,
                   int64_t channels, int64_t ratio, int64_t flags,
                   int64_t image_h, int64_t image_w) {
  if (setjmp(err.jump))
    return err.truncated ? std::string("JPEG is truncated: ") + err.message
                         : std::string("JPEG is corrupt: ") + err.message;
  jpeg_mem_src(&cinfo, static_cast<const unsigned char *>(bytes.data),
               static_cast<unsigned long>(bytes.size));
  jpeg_read_header(&cinfo, TRUE);
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK)
    return "JPEG is CMYK (4 channels); tfaot decodes grayscale and colour "
           "(YCbCr/RGB) JPEGs only";
  cinfo.out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  cinfo.dct_method = (flags & tfaot::kJpegDctAccurate) ? JDCT_ISLOW : JDCT_IFAST;
  cinfo.do_fancy_upsampling = (flags & tfaot::kJpegFancyUpscaling) ? TRUE : FALSE;
  cinfo.scale_num = 1;
  cinfo.scale_denom = static_cast<unsigned>(ratio);
  // Everything is checked before jpeg_start_decompress, which allocates
  // for the size the header declares (a few bytes can declare 65500x65500).
  jpeg_calc_output_dimensions(&cinfo);
  {
    // Scoped: no object with a destructor may be alive when a later libjpeg
    // call longjmps back to the setjmp above.
    std::string why =
        CheckImage(cinfo, height, width, flags, image_h, image_w, crop);
    if (why.empty())
      why = CheckCoefficientBuffer(cinfo);
    if (!why.empty())
      return why;
  }
  jpeg_start_decompress(&cinfo);

  const size_t out_row = size_t(width) * size_t(channels);
  if (!(flags & tfaot::kJpegCrop)) {
    // Whole image: rows go straight into the output.
    while (cinfo.output_scanline < cinfo.output_height) {
      JSAMPROW row = out + size_t(cinfo.output_scanline) * out_row;
      jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    return "";
  }
  // Only the window's columns, plus one iMCU column on each side where the
  // image has one: smooth (fancy) chroma upsampling reads the neighbouring
  // chroma samples, and at the edge of a cropped region libjpeg repeats the
  // edge sample instead, which would make the window's border pixels differ
  // from a full decode. libjpeg widens the start further to an iMCU
  // boundary, so rows are read into a scratch row and the exact window
  // copied out.
  const int64_t imcu = int64_t(cinfo.max_h_samp_factor) *
                       int64_t(cinfo.min_DCT_scaled_size);
  const int64_t left = std::max<int64_t>(0, crop[1] - imcu);
  const int64_t right = std::min<int64_t>(cinfo.output_width,
                                          int64_t(crop[1]) + crop[3] + imcu);
  JDIMENSION x = JDIMENSION(left), w = JDIMENSION(right - left);
  if (w != cinfo.output_width)
    jpeg_crop_scanline(&cinfo, &x, &w);
  const size_t skip = size_t(crop[1] - int64_t(x)) * size_t(channels);
  JSAMPARRAY row = (*cinfo.mem->alloc_sarray)(
      reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_IMAGE,
      cinfo.output_width * JDIMENSION(channels), 1);
  if (crop[0] > 0)
    jpeg_skip_scanlines(&cinfo, JDIMENSION(crop[0]));
  for (int64_t r = 0; r < height; ++r) {
    jpeg_read_scanlines(&cinfo, row, 1);
    std::memcpy(out + size_t(r) * out_row, row[0] + skip, out_row);
  }
  // The rows below the window are never decoded (nor checked).
  jpeg_abort_decompress(&cinfo);
  return "";
}

} // namespace

extern "C" void tfaot_rt_decode_jpeg(const void *contents, const int32_t *crop,
                                     uint8_t *out, const char *what,
                                     int64_t height, int64_t width,
                                     int64_t channels, int64_t ratio,
                                     int64_t flags, int64_t image_height,
                                     int64_t image_width) {
  const auto &bytes = *static_cast<const tfaot::Bytes *>(contents);
  std::string why;
  if (bytes.size <= 0 || !bytes.data) {
    why = "JPEG is empty (0 bytes)";
  } else {
    jpeg_decompress_struct cinfo;
    ErrorManager err;
    err.truncated = false;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = OnError;
    err.pub.emit_message = OnMessage;
    jpeg_create_decompress(&cinfo);
    why = Decode(cinfo, err, bytes, crop, out, height, width, channels, ratio,
                 flags, image_height, image_width);
    jpeg_destroy_decompress(&cinfo);
  }
  if (why.empty())
    return;
  // Defined output for the code that runs after us; Run() returns false.
  std::memset(out, 0, size_t(height) * size_t(width) * size_t(channels));
  tfaot::internal::ReportRunError(std::string(what) + ": " + why);
}
