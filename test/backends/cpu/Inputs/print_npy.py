# SPDX-License-Identifier: Apache-2.0
"""Prints a little-endian .npy file's values on one line (no NumPy needed).

usage: print_npy.py FILE.npy
Floats print with %g; integer types as integers.
"""
import ast
import struct
import sys

FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|u1": "B",
           "|i1": "b", "<i2": "h", "<u2": "H"}


def main(path):
    blob = open(path, "rb").read()
    size = 2 if blob[6] == 1 else 4
    length = int.from_bytes(blob[8:8 + size], "little")
    header = ast.literal_eval(blob[8 + size:8 + size + length].decode("latin1"))
    code = FORMATS[header["descr"]]
    data = blob[8 + size + length:]
    values = struct.unpack("<%d%s" % (len(data) // struct.calcsize(code), code), data)
    print(" ".join(("%g" % v) if code in "fd" else str(v) for v in values))


if __name__ == "__main__":
    main(sys.argv[1])
