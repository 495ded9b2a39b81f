# SPDX-License-Identifier: Apache-2.0
# install.runtime_only: -DTFAOT_RUNTIME_ONLY=ON builds and installs the
# runtime without LLVM or MLIR, and a C program links a model against it.
#   1. configure SOURCE_DIR in WORK_DIR/build with TFAOT_RUNTIME_ONLY=ON and
#      MLIR_DIR/LLVM_DIR pointing nowhere (any find_package of them fails),
#      build, install into WORK_DIR/prefix
#   2. the prefix holds the runtime, c_api.h and the tfaot_runtime package,
#      and no compiler
#   3. TFAOT (the full build's compiler) compiles reshape_2 with a C header;
#      runtime_only_consumer/ is configured against the prefix, built, run
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)

set(build ${WORK_DIR}/build)
set(prefix ${WORK_DIR}/prefix)
set(model ${WORK_DIR}/model)
set(consumer ${WORK_DIR}/consumer)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${model})

set(common -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
append_outer_build_args(common)

run_step("configure runtime only" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build}
         ${common} -DTFAOT_RUNTIME_ONLY=ON -DTFAOT_BUILD_TESTS=OFF
         -DMLIR_DIR=${WORK_DIR}/no-mlir -DLLVM_DIR=${WORK_DIR}/no-llvm)
run_step("build runtime only" ${CMAKE_COMMAND} --build ${build})
run_step("install runtime only" ${CMAKE_COMMAND} --install ${build}
         --prefix ${prefix})
foreach(file lib/libtfaot_runtime.a lib/libtfaot_cuda_runtime.a
             include/tfaot/runtime/c_api.h
             lib/cmake/tfaot_runtime/tfaot_runtimeConfig.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "the runtime-only install lacks ${file}")
  endif()
endforeach()
if(EXISTS ${prefix}/bin/tfaot)
  message(FATAL_ERROR "a runtime-only install must not hold the compiler")
endif()

run_step("compile reshape_2" ${TFAOT} compile --graph ${RESHAPE2_DIR}/test_reshape_2.pb
         --feed x:5,3 --fetch y --cpp_class t::Reshape2
         --out_c_header ${model}/reshape2_c.h
         --out_function_object ${model}/reshape2.o)
run_step("configure consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR}
         -B ${consumer} ${common} -Dtfaot_runtime_DIR=${prefix}/lib/cmake/tfaot_runtime
         -DMODEL_DIR=${model} -DCHECK_DIR=${CHECK_DIR}
         -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run_step("build consumer" ${CMAKE_COMMAND} --build ${consumer})
run_step("run consumer" ${consumer}/reshape2_c ${RESHAPE2_DIR})
message(STATUS "${step_output}")
if(NOT step_output MATCHES "y matches TensorFlow's output_y.idx")
  message(FATAL_ERROR "unexpected consumer output:\n${step_output}")
endif()
