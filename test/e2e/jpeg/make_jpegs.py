#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the JPEG test images and their reference decodes.

Usage: make_jpegs.py OUTDIR

Deterministic PPM/PGM pictures are compressed with cjpeg in the variants the
JPEG tests cover (4:2:0, 4:4:4, progressive, restart markers, grayscale; an
odd 37x53 size, not a multiple of the 8/16-pixel MCU, and a larger 97x120),
and each is decoded with djpeg the ways the compiled models decode it:
  NAME.islow.pnm     -dct int (TF's INTEGER_ACCURATE)
  NAME.ifast.pnm     -dct fast (TF's default "", INTEGER_FAST)
  NAME.nosmooth.pnm  -dct int -nosmooth (fancy_upscaling=false)
  NAME.half.pnm      -dct int -scale 1/2 (ratio=2)
  NAME.quarter.pnm   -dct int -scale 1/4 (what --jpeg_dct_scaling decodes
                     for the 8x8 resize of a 37x53 image)
  NAME.gray.pnm      -dct int -grayscale (channels=1)
"""
import os
import subprocess
import sys


def picture(width, height, channels):
    """Gradients plus a high-frequency pattern, so that every DCT frequency
    and both chroma planes carry signal."""
    data = bytearray()
    for y in range(height):
        for x in range(width):
            r = (x * 255 // max(width - 1, 1) + ((x * y) % 7) * 9) % 256
            g = (y * 255 // max(height - 1, 1) + (x ^ y) % 13 * 5) % 256
            b = ((x + 2 * y) * 3 + (x % 5) * 20) % 256
            data += bytes([r, g, b][:channels] if channels == 3
                          else [(r * 3 + g * 5 + b * 2) // 10])
    magic = b"P6" if channels == 3 else b"P5"
    return b"%s\n%d %d\n255\n" % (magic, width, height) + bytes(data)


# name: (height, width, gray, cjpeg flags)
IMAGES = {
    "c420": (37, 53, False, ["-sample", "2x2"]),
    "c444": (37, 53, False, ["-sample", "1x1"]),
    "prog": (37, 53, False, ["-progressive"]),
    "rst": (37, 53, False, ["-restart", "1"]),
    "gray": (37, 53, True, ["-grayscale"]),
    "big420": (97, 120, False, ["-sample", "2x2"]),
    "big444prog": (97, 120, False, ["-sample", "1x1", "-progressive"]),
    "bigrst": (97, 120, False, ["-sample", "2x1", "-restart", "2"]),
}

DECODES = {
    "islow": ["-dct", "int"],
    "ifast": ["-dct", "fast"],
    "nosmooth": ["-dct", "int", "-nosmooth"],
    "half": ["-dct", "int", "-scale", "1/2"],
    "quarter": ["-dct", "int", "-scale", "1/4"],
    "gray": ["-dct", "int", "-grayscale"],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (height, width, gray, flags) in IMAGES.items():
        source = os.path.join(out, name + ".src.pnm")
        with open(source, "wb") as f:
            f.write(picture(width, height, 1 if gray else 3))
        jpeg = os.path.join(out, name + ".jpg")
        subprocess.run(["cjpeg", "-quality", "90", *flags, "-outfile", jpeg,
                        source], check=True)
        for kind, dflags in DECODES.items():
            subprocess.run(["djpeg", "-pnm", *dflags, "-outfile",
                            os.path.join(out, "%s.%s.pnm" % (name, kind)),
                            jpeg], check=True)


if __name__ == "__main__":
    main()
