#===- cmake/RuntimeOnly.cmake - the runtime as a package of its own --------===#
# SPDX-License-Identifier: Apache-2.0
#
# -DTFAOT_RUNTIME_ONLY=ON: the top level stops after runtime/, before
# find_package(MLIR), so a machine with a C++17 compiler, libjpeg and
# nothing of LLVM builds libtfaot_runtime.a (and libtfaot_cuda_runtime.a).
# `cmake --install` then writes the libraries, the public headers and
# P/lib/cmake/tfaot_runtime/, the package find_package(tfaot_runtime)
# reads: the targets tfaot::runtime and tfaot::cuda_runtime, as in the
# full package (docs/build-rules.md), without the compiler or
# tfaot_library(). test/install/run_runtime_only.cmake checks it.
#
#===------------------------------------------------------------------------===#
include(CMakePackageConfigHelpers)

set(_dir lib/cmake/tfaot_runtime)
install(EXPORT tfaotTargets
  NAMESPACE tfaot::
  FILE tfaot_runtimeTargets.cmake
  DESTINATION ${_dir})
set(_jpeg "")
if(TFAOT_RUNTIME_JPEG)
  set(_jpeg "find_dependency(JPEG)")
endif()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/tfaot_runtimeConfig.cmake "\
# The tfaot runtime, installed by a -DTFAOT_RUNTIME_ONLY=ON build.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
${_jpeg}
include(\"\${CMAKE_CURRENT_LIST_DIR}/tfaot_runtimeTargets.cmake\")
")
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/tfaot_runtimeConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/tfaot_runtimeConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/tfaot_runtimeConfigVersion.cmake
  DESTINATION ${_dir})
