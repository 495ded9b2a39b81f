# SPDX-License-Identifier: Apache-2.0
"""tfaot.load(): a model library made by `tfaot compile
--out_shared_library`, opened with ctypes through its C API
(runtime/include/tfaot/runtime/c_api.h). Needs neither the compiler nor
the extension module."""
import ctypes
import os
import weakref

import numpy as np

from . import dtypes
from .errors import LoadError
from .model import Model

# The C API version this module speaks (TFAOT_C_API_VERSION).
_C_API_VERSION = 2
_ALLOC_ARGS_AND_RESULTS = 0


class _BufferInfo(ctypes.Structure):
    # tfaot_buffer_info
    _fields_ = [("name", ctypes.c_char_p),
                ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("num_elements", ctypes.c_int64),
                ("size_bytes", ctypes.c_size_t)]


def _declare(lib):
    """Argument and result types of the functions used."""
    p, i, size = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
    info = ctypes.POINTER(_BufferInfo)
    for name, restype, argtypes in [
            ("tfaot_c_api_version", i, []),
            ("tfaot_model_info", p, []),
            ("tfaot_create", p, [p, i]),
            ("tfaot_destroy", None, [p]),
            ("tfaot_error_msg", ctypes.c_char_p, [p]),
            ("tfaot_num_args", i, [p]),
            ("tfaot_num_results", i, [p]),
            ("tfaot_arg_info", info, [p, i]),
            ("tfaot_result_info", info, [p, i]),
            ("tfaot_arg_data", p, [p, i]),
            ("tfaot_result_data", p, [p, i]),
            ("tfaot_result_dims", ctypes.POINTER(ctypes.c_int64), [p, i]),
            ("tfaot_set_arg_bytes", i, [p, i, p, size]),
            ("tfaot_set_num_threads", i, [p, i]),
            ("tfaot_hardware_threads", i, []),
            ("tfaot_run", i, [p])]:
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes


class _Session:
    """One tfaot_instance, with the session operations tfaot.Model uses."""

    def __init__(self, lib, instance):
        self._lib, self._instance = lib, instance
        # The instance dies with the session, after its last use.
        self._finalizer = weakref.finalize(self, lib.tfaot_destroy, instance)
        self.inputs = self._describe(lib.tfaot_num_args, lib.tfaot_arg_info)
        self.outputs = self._describe(lib.tfaot_num_results,
                                      lib.tfaot_result_info)
        self._sizes = [lib.tfaot_arg_info(instance, i).contents.size_bytes
                       for i in range(len(self.inputs))]
        # String inputs are read in place by tfaot_run: keep them alive.
        self._strings = {}

    def _describe(self, count, info):
        described = []
        for index in range(count(self._instance)):
            b = info(self._instance, index).contents
            described.append((b.name.decode(), [b.dims[d] for d in
                                                 range(b.rank)], b.dtype))
        return described

    def _error(self):
        return self._lib.tfaot_error_msg(self._instance).decode()

    def set_num_threads(self, threads):
        if threads == 0:
            threads = self._lib.tfaot_hardware_threads()
        if not self._lib.tfaot_set_num_threads(self._instance, threads):
            raise ValueError(self._error())

    def set_input(self, index, data):
        if self.inputs[index][2] == dtypes.STRING:
            self._strings[index] = data
            if not self._lib.tfaot_set_arg_bytes(self._instance, index, data,
                                                 len(data)):
                raise ValueError(self._error())
            return
        if data.nbytes != self._sizes[index]:
            raise ValueError("input '%s' needs %d bytes, was given %d" % (
                self.inputs[index][0], self._sizes[index], data.nbytes))
        ctypes.memmove(self._lib.tfaot_arg_data(self._instance, index),
                       data.ctypes.data, data.nbytes)

    def run(self):
        return "" if self._lib.tfaot_run(self._instance) else self._error()

    def output(self, index):
        size = self._lib.tfaot_result_info(self._instance,
                                           index).contents.size_bytes
        return ctypes.string_at(self._lib.tfaot_result_data(self._instance,
                                                            index), size)


    def output_shape(self, index):
        dims = self._lib.tfaot_result_dims(self._instance, index)
        return [dims[d] for d in range(len(self.outputs[index][1]))]


def load(path, *, threads=1):
    """The model in the shared library `path` (made by `tfaot compile
    --out_shared_library`) as a tfaot.Model, running on `threads` threads
    (0: one per hardware thread). Raises LoadError for a file that cannot
    be loaded or holds no tfaot model."""
    path = os.fspath(path)
    try:
        # A path with no slash would be searched for like a system library.
        lib = ctypes.CDLL(os.path.abspath(path))
    except OSError as e:
        raise LoadError("%s: error: cannot load the model library: %s" %
                        (path, e)) from None
    if not hasattr(lib, "tfaot_model_info"):
        raise LoadError("%s: error: not a tfaot model library (it defines no "
                        "tfaot_model_info; make one with tfaot compile "
                        "--out_shared_library)" % path)
    _declare(lib)
    version = lib.tfaot_c_api_version()
    if version != _C_API_VERSION:
        raise LoadError("%s: error: the library has C API version %d, this "
                        "package speaks version %d" %
                        (path, version, _C_API_VERSION))
    instance = lib.tfaot_create(lib.tfaot_model_info(),
                                _ALLOC_ARGS_AND_RESULTS)
    if not instance:
        raise LoadError("%s: error: cannot create an instance of the model "
                        "(out of memory)" % path)
    session = _Session(lib, instance)
    session.set_num_threads(threads)
    return Model(session, path)
