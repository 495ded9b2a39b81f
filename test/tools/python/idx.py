# SPDX-License-Identifier: Apache-2.0
"""Reads IDX files, the format of the uTensor goldens in the corpus (its
README): TensorFlow's inputs and outputs of frozen/utensor/ops/*."""
import numpy as np

# IDX element types: code -> big-endian dtype.
_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4",
              0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path):
    """The array in `path`: 00 00 type rank, rank big-endian int32 dims,
    then the elements, big-endian."""
    with open(path, "rb") as f:
        data = f.read()
    if data[0:2] != b"\0\0" or data[2] not in _IDX_TYPES:
        raise ValueError("%s: not an IDX file" % path)
    dtype, rank = np.dtype(_IDX_TYPES[data[2]]), data[3]
    dims = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big")
                 for i in range(rank))
    values = np.frombuffer(data, dtype=dtype, offset=4 + 4 * rank)
    return values.reshape(dims).astype(dtype.newbyteorder("="))
