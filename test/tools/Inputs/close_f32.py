#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""close_f32.py A.bin B.bin ATOL RTOL: exits 0 when the two files hold the
same number of little-endian float32 values and every pair satisfies
|a - b| <= ATOL + RTOL * |a|; else prints the first difference, exits 1."""
import struct
import sys


def floats(path):
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack("<%df" % (len(data) // 4), data), len(data)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    (a, na), (b, nb) = floats(sys.argv[1]), floats(sys.argv[2])
    atol, rtol = float(sys.argv[3]), float(sys.argv[4])
    if na != nb or na % 4:
        print("sizes differ: %d and %d bytes" % (na, nb))
        return 1
    for i, (x, y) in enumerate(zip(a, b)):
        if not abs(x - y) <= atol + rtol * abs(x):
            print("value %d: %.9g and %.9g" % (i, x, y))
            return 1
    print("%d values within atol %g, rtol %g" % (len(a), atol, rtol))
    return 0


if __name__ == "__main__":
    sys.exit(main())
