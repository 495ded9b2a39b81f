#===- test/install/run_python.cmake - the installed Python package --------===#
# SPDX-License-Identifier: Apache-2.0
#
# cmake -DTFAOT_BUILD_DIR=... -DWORK_DIR=... -DPYTHON=... -DSITE_DIR=...
#       -DRESHAPE2_DIR=... -DIDX_DIR=... -P run_python.cmake
#
# 1. cmake --install TFAOT_BUILD_DIR --prefix WORK_DIR/prefix; the package
#    must be in WORK_DIR/prefix/SITE_DIR/tfaot
# 2. the installed tfaot writes reshape_2 as a shared library
# 3. python_consumer.py, run from WORK_DIR with PYTHONPATH=prefix/SITE_DIR
#    only, compiles and loads it and checks both against TensorFlow's output
#
# Any failing step is a FATAL_ERROR, which fails the test.
#
#===------------------------------------------------------------------------===#
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)
require_vars(run_python.cmake TFAOT_BUILD_DIR WORK_DIR PYTHON SITE_DIR RESHAPE2_DIR IDX_DIR)

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run_step("install" ${CMAKE_COMMAND} --install ${TFAOT_BUILD_DIR} --prefix ${prefix})
file(GLOB extension ${prefix}/${SITE_DIR}/tfaot/_tfaot*.so)
if(NOT extension OR NOT EXISTS ${prefix}/${SITE_DIR}/tfaot/__init__.py)
  message(FATAL_ERROR "install: the tfaot package is not in ${prefix}/${SITE_DIR}/tfaot")
endif()

run_step("installed tfaot --out_shared_library" ${prefix}/bin/tfaot compile
  --graph ${RESHAPE2_DIR}/test_reshape_2.pb --feed x:5,3 --fetch y
  --cpp_class t::Reshape2 --out_shared_library ${WORK_DIR}/reshape2.so)

run_step("python consumer" ${CMAKE_COMMAND} -E chdir ${WORK_DIR}
  ${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${SITE_DIR}
  PYTHONDONTWRITEBYTECODE=1
  ${PYTHON} ${CMAKE_CURRENT_LIST_DIR}/python_consumer.py
  ${prefix} ${RESHAPE2_DIR} ${WORK_DIR}/reshape2.so ${IDX_DIR})
set(want "compile: y matches TensorFlow's output_y.idx (5 values)\nload: y matches TensorFlow's output_y.idx (5 values)\n")
if(NOT step_output STREQUAL want)
  message(FATAL_ERROR "python consumer printed:\n${step_output}")
endif()
