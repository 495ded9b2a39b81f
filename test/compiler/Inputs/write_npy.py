# SPDX-License-Identifier: Apache-2.0
# Writes a scalar .npy file without NumPy: write_npy.py PATH DTYPE VALUE,
# DTYPE one of f4 (float32), i4 (int32).
import struct
import sys

path, dtype, value = sys.argv[1:4]
header = "{'descr': '<%s', 'fortran_order': False, 'shape': (), }" % dtype
header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<f", float(value)) if dtype == "f4" else struct.pack("<i", int(value)))
