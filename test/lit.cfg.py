# SPDX-License-Identifier: Apache-2.0
# -*- Python -*-
# lit configuration for tfaot: FileCheck tests over the tools in build/bin.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "tfaot"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# .pbtxt tests are GraphDefs whose '#' comment lines carry the RUN lines,
# as tfcompile's own lit tests do; graphs used as plain inputs live in
# Inputs/ directories, which lit skips.
config.suffixes = [".mlir", ".pbtxt", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tfaot_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

config.substitutions.append(("%corpus", config.tfaot_corpus_dir))
config.substitutions.append(
    ("%cxx", " ".join([config.cxx_compiler] + config.cxx_flags.split())))
# The C compiler, for the C API's tests (programs in C99, not C++).
config.substitutions.append(
    ("%cc", " ".join([config.c_compiler] + config.c_flags.split())))
config.substitutions.append(("%runtime_include", config.runtime_include_dir))
config.substitutions.append(("%runtime_lib", config.runtime_library))

tool_dirs = [config.tfaot_tools_dir, config.llvm_tools_dir]
# tfaot and tfaot-opt come from the build, FileCheck, not, count and
# llvm-nm from the LLVM installation. PATH rather than substitutions: a
# substitution for "tfaot" would also rewrite flag values like --emit=tfaot.
for tool_dir in tool_dirs:
    llvm_config.with_environment("PATH", tool_dir, append_path=True)

if os.path.isdir(config.tfaot_corpus_dir):
    config.available_features.add("corpus")

# A sanitizer build (the asan preset) instruments the runtime archive, and a
# shared library linked from it with -z defs cannot resolve the sanitizer's
# symbols: tfaot-shared-library.test is for ordinary builds.
if "-fsanitize" in config.cxx_flags:
    config.available_features.add("sanitizers")

# The source tree, for tests that configure parts of it (cross-aarch64).
config.substitutions.append(("%tfaot_src", config.tfaot_src_root))
# Cross-compiling the runtime for aarch64 and running it (cross-aarch64.test):
# Debian's g++-aarch64-linux-gnu and qemu-user, which scripts/setup.sh
# installs; CMake and Ninja are the build's own.
import shutil
if all(shutil.which(tool) for tool in
       ("aarch64-linux-gnu-g++", "qemu-aarch64", "cmake", "ninja")):
    config.available_features.add("aarch64-cross")

# ptxas (the CUDA toolkit's PTX assembler), found as tfaot finds it: tests
# that need a cubin embedded say REQUIRES: ptxas; CI without the toolkit
# skips them.
llvm_config.with_system_environment(["TFAOT_PTXAS", "TFAOT_CUDA_PATH",
                                     "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"])
_ptxas = os.environ.get("TFAOT_PTXAS", "/usr/local/cuda/bin/ptxas")
if os.path.isfile(_ptxas) and os.access(_ptxas, os.X_OK):
    config.available_features.add("ptxas")
# libdevice, which kernels using exp, tanh, ... link (found as
# backends/gpu/DeviceImage.cpp's findCudaToolkit finds it).
if "TFAOT_CUDA_PATH" in os.environ:
    _cuda_roots = [os.environ["TFAOT_CUDA_PATH"]]
else:
    _cuda_roots = [os.environ[v] for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")
                   if os.environ.get(v)] + ["/usr/local/cuda"]
if any(os.path.isfile(os.path.join(r, "nvvm/libdevice/libdevice.10.bc"))
       for r in _cuda_roots):
    config.available_features.add("libdevice")

# A Python with NumPy, for tests whose reference is computed with NumPy (the
# RNN tests: test/backends/cpu/Inputs/rnn/rnn_reference.py). Debian's
# python3-numpy serves /usr/bin/python3, which may not be the python3 on
# PATH; tests say REQUIRES: numpy and run %numpy_python.
import subprocess
for _python in [shutil.which("python3"), "/usr/bin/python3"]:
    if _python and subprocess.run([_python, "-c", "import numpy"],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("numpy")
        config.substitutions.append(("%numpy_python", _python))
        break

# AVX512-BF16 (vdpbf16ps), which tfaot_rt_mmt4d_bf16bf16f32 uses for
# --precision=bf16 where the CPU has it: tests of that path say REQUIRES:
# avx512_bf16 (lit lists them as UNSUPPORTED elsewhere); the portable
# fallback's tests run everywhere.
try:
    with open("/proc/cpuinfo") as _cpuinfo:
        _flags = set()
        for _line in _cpuinfo:
            if _line.startswith("flags"):
                _flags.update(_line.split(":", 1)[1].split())
    if "avx512_bf16" in _flags:
        config.available_features.add("avx512_bf16")
except OSError:
    pass
