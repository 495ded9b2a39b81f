# SPDX-License-Identifier: Apache-2.0
"""Writes a .npy file of float32 values uniform in [0, 1) (no NumPy needed).

usage: write_npy.py OUT.npy DIM [DIM...] [--seed N | --arange]
Calibration samples for the --quantize=int8 tests. --arange writes 0, 1,
2, ... instead (the inputs test/backends/cpu/Inputs/print_results.cpp
gives a model).
"""
import array
import random
import sys


def main(argv):
    seed, arange = 0, "--arange" in argv
    if arange:
        argv.remove("--arange")
    if "--seed" in argv:
        at = argv.index("--seed")
        seed = int(argv[at + 1])
        del argv[at:at + 2]
    path, shape = argv[0], [int(d) for d in argv[1:]]
    rng = random.Random(seed)
    count = 1
    for d in shape:
        count *= d
    values = array.array("f", (float(i) if arange else rng.random()
                               for i in range(count)))
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims
    # The data starts at a multiple of 64 bytes, as NumPy writes it.
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        out.write(header.encode("latin1"))
        out.write(values.tobytes())


if __name__ == "__main__":
    main(sys.argv[1:])
