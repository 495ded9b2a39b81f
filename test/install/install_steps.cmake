#===- test/install/install_steps.cmake - shared by the consumer tests ------===#
# SPDX-License-Identifier: Apache-2.0
#
# Included by run_consumer.cmake, run_runtime_only.cmake and
# run_bazel_consumer.cmake (cmake -P).
#
#===------------------------------------------------------------------------===#

# Stops unless every named variable was given with -D.
function(require_vars script)
  foreach(var ${ARGN})
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
      message(FATAL_ERROR "${script}: -D${var}=... is required")
    endif()
  endforeach()
endfunction()

# Runs a command; on failure prints it with its output and stops. The
# output is left in `step_output` for the caller.
function(run_step what)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${what} failed (${rc}):\n  ${cmd}\n${out}")
  endif()
  message(STATUS "${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# Runs the built consumer `program` and stops unless its output equals the
# file `expected` exactly.
function(run_and_compare program expected)
  run_step("run consumer" ${program})
  file(READ ${expected} want)
  if(NOT step_output STREQUAL want)
    message(FATAL_ERROR "consumer output differs from ${expected}:\n"
                        "--- expected\n${want}--- actual\n${step_output}")
  endif()
  message(STATUS "consumer output matches ${expected}")
endfunction()

# Appends to the list `var` the -D arguments that make a nested CMake
# configure use the outer build's tools and flags: its make program, its
# compiler launcher (ccache), and its own compile and link flags (a
# sanitizer build, the asan preset, installs an instrumented runtime, which
# only links into a program built with -fsanitize too).
function(append_outer_build_args var)
  set(args ${${var}})
  if(MAKE_PROGRAM)
    list(APPEND args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
  endif()
  if(CXX_LAUNCHER)
    list(APPEND args -DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER})
  endif()
  if(CXX_FLAGS)
    list(APPEND args "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
  endif()
  if(C_FLAGS)
    list(APPEND args "-DCMAKE_C_FLAGS=${C_FLAGS}")
  endif()
  if(LINKER_FLAGS)
    list(APPEND args "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
  endif()
  set(${var} ${args} PARENT_SCOPE)
endfunction()
