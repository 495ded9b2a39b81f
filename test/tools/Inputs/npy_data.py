# SPDX-License-Identifier: Apache-2.0
"""Prints a .npy file's header dict, or writes its data part (no NumPy needed).

usage: npy_data.py FILE.npy [--header | OUT.bin]
The data part is what follows the header: the raw elements, which the
tests compare byte for byte with a linked program's result buffers.
"""
import sys


def main(argv):
    with open(argv[0], "rb") as f:
        blob = f.read()
    if blob[:6] != b"\x93NUMPY":
        sys.exit("%s: not a .npy file" % argv[0])
    size = 2 if blob[6] == 1 else 4
    length = int.from_bytes(blob[8:8 + size], "little")
    start = 8 + size + length
    if argv[1] == "--header":
        print(blob[8 + size:start].decode("latin1").strip())
        print("data at %d, %d bytes" % (start, len(blob) - start))
    else:
        with open(argv[1], "wb") as out:
            out.write(blob[start:])


if __name__ == "__main__":
    main(sys.argv[1:])
