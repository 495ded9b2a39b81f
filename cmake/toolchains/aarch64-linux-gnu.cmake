# SPDX-License-Identifier: Apache-2.0
# Cross-compiles the runtime for 64-bit ARM Linux with Debian's
# g++-aarch64-linux-gnu, e.g. (docs/build-rules.md, "The runtime alone")
#   cmake -S . -B build-aarch64 -DTFAOT_RUNTIME_ONLY=ON \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
# Programs built with it run on aarch64, or here under qemu-aarch64 -L
# /usr/aarch64-linux-gnu (Debian's qemu-user).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Libraries and headers of the target only from its sysroot; programs
# (cmake's own helpers) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
