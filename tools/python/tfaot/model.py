# SPDX-License-Identifier: Apache-2.0
"""tfaot.Model: a compiled model called with NumPy arrays.

The same class serves a model compiled in process (tfaot.compile, through
the JIT) and one loaded from a shared library (tfaot.load, through the C
API): both hand it a session with the same operations, so that the
checks of the caller's arrays and the messages are one piece of code.

A session has `inputs` and `outputs` (lists of (name, shape, dtype number)),
`set_input(index, data)` (a C-contiguous array of the exact size, or bytes
for a string input), `run()` (returns "" or Run()'s error message) and
`output(index)` (the result's bytes, copied) and `output_shape(index)` (its
dims after the last run: the static shape but for a result whose size
depends on data).
"""
import threading
from typing import NamedTuple, Tuple

import numpy as np

from . import dtypes
from .errors import InputError, RunError


class TensorInfo(NamedTuple):
    """One input or output of a model."""
    name: str           # the feed or fetch name
    shape: Tuple[int, ...]
    dtype: np.dtype     # the NumPy dtype of its arrays
    dtype_name: str     # TensorFlow's name ("float32", "quint8", "string")

    def __str__(self):
        return "%s %s%s" % (self.name, self.dtype_name,
                            _show_shape(self.shape))


def _show_shape(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _describe(session_list):
    return [TensorInfo(name, tuple(shape), dtypes.numpy_dtype(dtype),
                       dtypes.name(dtype))
            for name, shape, dtype in session_list]


class Model:
    """A compiled model: call it with one array per input (positionally in
    the order of `inputs`, or by name) to get its outputs as NumPy arrays:
    one array for a model with one output, else a tuple in the order of
    `outputs`. One call runs at a time; arrays are copied in and out."""

    def __init__(self, session, origin):
        self._session = session
        self._origin = origin
        self.inputs = _describe(session.inputs)
        self.outputs = _describe(session.outputs)
        self._positions = {info.name: i for i, info in enumerate(self.inputs)}
        # A call sets every input, runs and reads every output: threads
        # sharing the model take turns for the whole sequence.
        self._lock = threading.Lock()

    def __repr__(self):
        return "<tfaot.Model %s: %s -> %s>" % (
            self._origin, ", ".join(map(str, self.inputs)) or "()",
            ", ".join(map(str, self.outputs)))

    def __call__(self, *args, **kwargs):
        values = self._bind(args, kwargs)
        buffers = [_as_input(info, value)
                   for info, value in zip(self.inputs, values)]
        with self._lock:
            for i, buffer in enumerate(buffers):
                self._session.set_input(i, buffer)
            error = self._session.run()
            if error:
                raise RunError(error)
            results = tuple(self._output(i) for i in range(len(self.outputs)))
        return results[0] if len(results) == 1 else results

    def _output(self, index):
        # A result whose size depends on data (NonMaxSuppression, Where) has
        # the run's shape, at most info.shape; its buffer holds it first.
        info = self.outputs[index]
        shape = tuple(self._session.output_shape(index))
        data = self._session.output(index)
        count = int(np.prod(shape, dtype=np.int64))
        return np.frombuffer(data, dtype=info.dtype,
                             count=count).reshape(shape).copy()

    def _bind(self, args, kwargs):
        """One value per input, in order; an InputError naming what is
        missing, unknown or given twice."""
        names = ", ".join("'%s'" % info.name for info in self.inputs) or "none"
        if len(args) > len(self.inputs):
            raise InputError("%d inputs given, but the model takes %d (%s)" %
                             (len(args), len(self.inputs), names))
        values = list(args) + [None] * (len(self.inputs) - len(args))
        given = [True] * len(args) + [False] * (len(self.inputs) - len(args))
        for name, value in kwargs.items():
            if name not in self._positions:
                raise InputError("the model has no input named '%s' (its "
                                 "inputs: %s)" % (name, names))
            index = self._positions[name]
            if given[index]:
                raise InputError("input '%s' is given twice" % name)
            values[index], given[index] = value, True
        missing = [info.name for info, ok in zip(self.inputs, given) if not ok]
        if missing:
            raise InputError("missing input%s: %s" % (
                "s" if len(missing) > 1 else "",
                ", ".join("'%s'" % name for name in missing)))
        return values


def _as_input(info, value):
    """`value` as the buffer input `info` takes. A NumPy array must already
    have its dtype (nothing is converted behind the caller's back); other
    values (lists, scalars) are converted when NumPy can do so within the
    same kind (a Python float to float32, not to int32)."""
    if info.dtype_name == "string":
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise InputError("input '%s' is a string: give it as bytes, not "
                             "%s" % (info.name, type(value).__name__))
        return bytes(value)
    if isinstance(value, np.ndarray):
        array = value
        if array.dtype != info.dtype:
            raise InputError("input '%s' is %s%s, but was given an array of "
                             "%s%s" % (info.name, info.dtype_name,
                                       _show_shape(info.shape), array.dtype,
                                       _show_shape(array.shape)))
    else:
        array = np.asarray(value)
        if not np.can_cast(array.dtype, info.dtype, casting="same_kind"):
            raise InputError("input '%s' is %s%s; %s values cannot be "
                             "converted to it" % (info.name, info.dtype_name,
                                                  _show_shape(info.shape),
                                                  array.dtype))
        array = array.astype(info.dtype)
    if array.shape != info.shape:
        raise InputError("input '%s' is %s%s, but was given shape %s" %
                         (info.name, info.dtype_name, _show_shape(info.shape),
                          _show_shape(array.shape)))
    return np.ascontiguousarray(array)
