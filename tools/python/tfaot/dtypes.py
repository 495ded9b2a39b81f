# SPDX-License-Identifier: Apache-2.0
"""Element types: TensorFlow's DataType numbers, as the C API (c_api.h,
TFAOT_DTYPE_*) and the compiler give them, with the NumPy dtype that holds
each. Quantized types are held as their integers, bfloat16 as its raw
16 bits; strings (a DecodeJpeg's input) are Python bytes."""
import numpy as np

STRING = 7

# number: (TensorFlow's name, NumPy dtype)
_TYPES = {
    1: ("float32", np.float32),
    2: ("float64", np.float64),
    3: ("int32", np.int32),
    4: ("uint8", np.uint8),
    5: ("int16", np.int16),
    6: ("int8", np.int8),
    STRING: ("string", np.object_),
    9: ("int64", np.int64),
    10: ("bool", np.bool_),
    11: ("qint8", np.int8),
    12: ("quint8", np.uint8),
    13: ("qint32", np.int32),
    14: ("bfloat16", np.uint16),
    15: ("qint16", np.int16),
    16: ("quint16", np.uint16),
    17: ("uint16", np.uint16),
    19: ("float16", np.float16),
    22: ("uint32", np.uint32),
    23: ("uint64", np.uint64),
}


def name(number):
    """TensorFlow's name of dtype `number` ("float32")."""
    return _TYPES[number][0] if number in _TYPES else "dtype %d" % number


def numpy_dtype(number):
    """The NumPy dtype holding dtype `number`; an Error for one tfaot does
    not know (a model from a newer compiler)."""
    from .errors import Error
    if number not in _TYPES:
        raise Error("unknown tfaot dtype %d" % number)
    return np.dtype(_TYPES[number][1])
