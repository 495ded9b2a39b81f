# SPDX-License-Identifier: Apache-2.0
"""A string input (the JPEG a DecodeJpeg reads) through tfaot.load(): the
bytes are given as Python bytes, the decode equals djpeg's byte for byte
(as the JPEG e2e tests check for the C++ class), and a JPEG the model
cannot take is a RunError. tfaot.compile() refuses such graphs, as
`tfaot run` does."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import tfaot
from conftest import TESTS, shared_library

# decode = DecodeJpeg(contents), channels 3, INTEGER_ACCURATE (djpeg's
# default -dct int, with fancy upsampling).
DECODE = os.path.join(TESTS, "e2e", "jpeg", "decode.pbtxt")

pytestmark = pytest.mark.skipif(
    not (shutil.which("cjpeg") and shutil.which("djpeg")),
    reason="needs cjpeg and djpeg (libjpeg-turbo-progs)")


def write_ppm(path, image):
    height, width, _ = image.shape
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height))
        f.write(image.tobytes())


def read_ppm(data):
    """The pixels of a binary PPM (djpeg's header: P6, size, 255)."""
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P6" and fields[3] == b"255"
    width, height = int(fields[1]), int(fields[2])
    return np.frombuffer(fields[4], np.uint8).reshape(height, width, 3)


def jpeg(tmp_path, height, width):
    """A 4:2:0 JPEG of a smooth colour pattern, and djpeg's decode of it."""
    y, x = np.mgrid[0:height, 0:width]
    image = np.stack([x * 255 // width, y * 255 // height,
                      (x + y) * 255 // (width + height)], axis=-1)
    ppm = tmp_path / ("image%dx%d.ppm" % (height, width))
    write_ppm(ppm, image.astype(np.uint8))
    data = subprocess.run(["cjpeg", "-quality", "90", str(ppm)],
                          check=True, capture_output=True).stdout
    decoded = subprocess.run(["djpeg", "-dct", "int", "-pnm"], input=data,
                             check=True, capture_output=True).stdout
    return data, read_ppm(decoded)


@pytest.fixture(scope="module")
def decode(tmp_path_factory):
    path = tmp_path_factory.mktemp("jpeg") / "decode.so"
    return tfaot.load(shared_library(path, DECODE, "--feed", "contents",
                                     "--fetch", "decode", "--jpeg_size",
                                     "37x53", "--cpp_class", "t::Decode"))


def test_decode_equals_djpeg(decode, tmp_path):
    (contents,), (image,) = decode.inputs, decode.outputs
    assert str(contents) == "contents string[]"
    assert str(image) == "decode uint8[37,53,3]"
    data, want = jpeg(tmp_path, 37, 53)
    np.testing.assert_array_equal(decode(data), want)
    np.testing.assert_array_equal(decode(contents=bytearray(data)), want)


def test_bad_jpegs(decode, tmp_path):
    prefix = r"^DecodeJpeg 'decode' \(argument 'contents'\): "
    with pytest.raises(tfaot.RunError, match=prefix + "JPEG is corrupt: Not "
                       "a JPEG file: starts with 0x6e 0x6f$"):
        decode(b"not a jpeg")
    with pytest.raises(tfaot.RunError, match=prefix +
                       r"JPEG is empty \(0 bytes\)$"):
        decode(b"")
    small, _ = jpeg(tmp_path, 20, 24)
    with pytest.raises(tfaot.RunError, match=prefix + r"the image is 20x24 "
                       r"\(height x width\) but the model was compiled for "
                       r"37x53$"):
        decode(small)
    with pytest.raises(tfaot.InputError, match=r"^input 'contents' is a "
                       r"string: give it as bytes, not ndarray$"):
        decode(np.zeros(3, np.uint8))
    # Still usable after the errors.
    data, want = jpeg(tmp_path, 37, 53)
    np.testing.assert_array_equal(decode(data), want)


def test_compile_refuses_string_inputs():
    with pytest.raises(tfaot.CompileError, match=r"decode.pbtxt: error: "
                       r"tfaot.compile\(\) does not run graphs with string "
                       r"arguments \('contents'\)"):
        tfaot.compile(DECODE, feeds="contents", fetches="decode",
                      jpeg_size="37x53")
