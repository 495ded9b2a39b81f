# SPDX-License-Identifier: Apache-2.0
"""Writes a small .npy file with the given values (no NumPy needed).

usage: make_npy.py OUT.npy DESCR SHAPE [VALUE...] [--fortran]
DESCR is NumPy's type string ('<f4', '<f8', '<i4', '<i8', '|u1', '|i1',
'|b1', or a big-endian '>f4'), SHAPE comma-separated dimensions ('' for a
scalar), VALUEs in C order ('nan', 'inf' allowed). Too few values leave
the file short, to test that readers notice.
"""
import struct
import sys

FORMATS = {"f4": "f", "f8": "d", "i4": "i", "i8": "q", "u1": "B",
           "i1": "b", "b1": "?"}


def main(argv):
    fortran = "--fortran" in argv
    if fortran:
        argv.remove("--fortran")
    path, descr, shape, values = argv[0], argv[1], argv[2], argv[3:]
    dims = [int(d) for d in shape.split(",") if d]
    order = ">" if descr[0] == ">" else "<"
    code = FORMATS[descr[1:]]
    parse = float if code in "fd" else int
    data = b"".join(struct.pack(order + code, parse(v)) for v in values)
    text = ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False", text)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        out.write(header.encode("latin1") + data)


if __name__ == "__main__":
    main(sys.argv[1:])
