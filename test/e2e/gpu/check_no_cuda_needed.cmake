# SPDX-License-Identifier: Apache-2.0
# cmake -DREADELF=... -DPROGRAM=... -P check_no_cuda_needed.cmake
# Fails if PROGRAM needs a CUDA library at load time: a program linking a
# --target=cuda model must start on machines without CUDA (the runtime
# opens the driver with dlopen when a model first runs).
execute_process(COMMAND ${READELF} -d ${PROGRAM}
                OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} -d ${PROGRAM} failed")
endif()
string(REGEX MATCHALL "NEEDED[^\n]*" needed "${dynamic}")
message(STATUS "${PROGRAM} needs: ${needed}")
if(NOT needed MATCHES "libc\\.so")
  message(FATAL_ERROR "no NEEDED entries found; is this a dynamic program?")
endif()
if(needed MATCHES "libcuda|libcudart|libnvrtc|libcublas|libcudnn")
  message(FATAL_ERROR "the program needs a CUDA library at load time")
endif()
