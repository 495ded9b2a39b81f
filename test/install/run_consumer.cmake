#===- test/install/run_consumer.cmake - install, then build a consumer -----===#
# SPDX-License-Identifier: Apache-2.0
#
# cmake -DTFAOT_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=...
#       -DGRAPH=... -DEXPECTED=... -DGENERATOR=... [-DMAKE_PROGRAM=...]
#       -DCXX_COMPILER=... [-DCXX_LAUNCHER=...] [-DCXX_FLAGS=...]
#       [-DLINKER_FLAGS=...] -P run_consumer.cmake
#
# 1. cmake --install TFAOT_BUILD_DIR --prefix WORK_DIR/prefix
# 2. the installed tfaot runs (tfaot --version)
# 3. CONSUMER_SOURCE_DIR is configured from scratch in WORK_DIR/build with
#    -Dtfaot_DIR=WORK_DIR/prefix/lib/cmake/tfaot, built and run
# 4. its output must equal EXPECTED exactly
#
# Any failing step is a FATAL_ERROR, which fails the test.
#
#===------------------------------------------------------------------------===#
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)
require_vars(run_consumer.cmake TFAOT_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GRAPH EXPECTED GENERATOR CXX_COMPILER)

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
# Fresh every time: nothing from an earlier run may satisfy this one.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run_step("install" ${CMAKE_COMMAND} --install ${TFAOT_BUILD_DIR} --prefix ${prefix})
foreach(f bin/tfaot lib/libtfaot_runtime.a
          include/tfaot/runtime/compiled_function.h
          lib/cmake/tfaot/tfaotConfig.cmake
          lib/cmake/tfaot/tfaotConfigVersion.cmake
          lib/cmake/tfaot/tfaotTargets.cmake
          lib/cmake/tfaot/TfaotLibrary.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install: ${prefix}/${f} is missing")
  endif()
endforeach()

run_step("installed tfaot --version" ${prefix}/bin/tfaot --version)
if(NOT step_output MATCHES "^tfaot [0-9]")
  message(FATAL_ERROR "unexpected tfaot --version output: ${step_output}")
endif()

set(configure_args -S ${CONSUMER_SOURCE_DIR} -B ${build} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -Dtfaot_DIR=${prefix}/lib/cmake/tfaot
    -DTFAOT_EXAMPLE_GRAPH=${GRAPH}
    # Only the prefix above may provide tfaot.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(MAKE_PROGRAM)
  list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(CXX_LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER})
endif()
# The build's own flags: a sanitizer build (the asan preset) installs an
# instrumented runtime, which only links into a program built with
# -fsanitize too.
if(CXX_FLAGS)
  list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
endif()
if(LINKER_FLAGS)
  list(APPEND configure_args "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
endif()
run_step("configure consumer" ${CMAKE_COMMAND} ${configure_args})
string(FIND "${step_output}" " from ${prefix}/lib/cmake/tfaot" found)
if(found EQUAL -1)
  message(FATAL_ERROR "the consumer did not find tfaot in ${prefix}:\n"
                      "${step_output}")
endif()

run_step("build consumer" ${CMAKE_COMMAND} --build ${build})
run_and_compare(${build}/mnist_consumer ${EXPECTED})
