#===- test/install/run_consumer.cmake - install, then build a consumer -----===#
# SPDX-License-Identifier: Apache-2.0
#
# cmake -DTFAOT_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=...
#       -DGRAPH=... -DEXPECTED=... -DWRITE_SAVEDMODEL=...
#       -DSAVEDMODEL_EXPECTED=... -DCTEST_COMMAND=... -DGENERATOR=...
#       [-DMAKE_PROGRAM=...] -DCXX_COMPILER=... [-DCXX_LAUNCHER=...]
#       [-DCXX_FLAGS=...] [-DLINKER_FLAGS=...] -P run_consumer.cmake
#
# 1. cmake --install TFAOT_BUILD_DIR --prefix WORK_DIR/prefix
# 2. the installed tfaot runs (tfaot --version)
# 3. WRITE_SAVEDMODEL writes the tf2 test SavedModel to WORK_DIR/savedmodel
# 4. CONSUMER_SOURCE_DIR is configured from scratch in WORK_DIR/build with
#    -Dtfaot_DIR=WORK_DIR/prefix/lib/cmake/tfaot and that SavedModel, built
#    and run: mnist_consumer's and mnist_c_consumer's (C, C_HEADER) output
#    must equal EXPECTED exactly,
#    scores_consumer's SAVEDMODEL_EXPECTED
# 5. the SavedModel's GEN_TEST test passes under ctest and its GEN_BENCHMARK
#    program prints its timing line
# 6. a second build compiles nothing; after touching the SavedModel's
#    variables data (then its saved_model.pb) a build compiles that model
#    again, and only that one
#
# Any failing step is a FATAL_ERROR, which fails the test.
#
#===------------------------------------------------------------------------===#
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)
require_vars(run_consumer.cmake TFAOT_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GRAPH EXPECTED WRITE_SAVEDMODEL SAVEDMODEL_EXPECTED CTEST_COMMAND GENERATOR CXX_COMPILER)

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

set(savedmodel ${WORK_DIR}/savedmodel)
run_step("write SavedModel" ${WRITE_SAVEDMODEL} tf2 ${savedmodel})

set(configure_args -S ${CONSUMER_SOURCE_DIR} -B ${build} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    # The example's C program (the C API) too.
    -DCMAKE_C_COMPILER=${C_COMPILER}
    -Dtfaot_DIR=${prefix}/lib/cmake/tfaot
    -DTFAOT_EXAMPLE_GRAPH=${GRAPH}
    -DTFAOT_EXAMPLE_SAVEDMODEL=${savedmodel}
    # Only the prefix above may provide tfaot.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
append_outer_build_args(configure_args)
run_step("configure consumer" ${CMAKE_COMMAND} ${configure_args})
string(FIND "${step_output}" " from ${prefix}/lib/cmake/tfaot" found)
if(found EQUAL -1)
  message(FATAL_ERROR "the consumer did not find tfaot in ${prefix}:\n"
                      "${step_output}")
endif()

run_step("build consumer" ${CMAKE_COMMAND} --build ${build})
run_and_compare(${build}/mnist_consumer ${EXPECTED})
# The C program on the C API (C_HEADER) prints the same.
run_and_compare(${build}/mnist_c_consumer ${EXPECTED})
run_and_compare(${build}/scores_consumer ${SAVEDMODEL_EXPECTED})

# GEN_TEST registered scores_model_test with add_test; it runs the class on
# zero inputs and compares two instances.
run_step("consumer ctest" ${CTEST_COMMAND} --test-dir ${build}
         --output-on-failure)
if(NOT step_output MATCHES "scores_model_test [.]+ +Passed" OR
   NOT step_output MATCHES "100% tests passed, 0 tests failed out of 1\n")
  message(FATAL_ERROR "the consumer's ctest did not run and pass "
                      "scores_model_test:\n${step_output}")
endif()
run_step("GEN_BENCHMARK program" ${build}/scores_model_benchmark --min_time 0)
if(NOT step_output MATCHES "^consumer::Scores: [0-9]+ runs, median [0-9.e+-]+ ms, p90 ")
  message(FATAL_ERROR "unexpected scores_model_benchmark output:\n"
                      "${step_output}")
endif()

# The compile step depends on the model's files, not on its directory.
# `what` is the step; `compiled` the models whose tfaot step must run,
# every other one must not.
function(build_and_expect what compiled)
  run_step("${what}" ${CMAKE_COMMAND} --build ${build})
  foreach(model mnist_model scores_model)
    string(REGEX MATCH "tfaot: compiling [^\n]* into ${model} " ran
                 "${step_output}")
    if(model IN_LIST compiled AND NOT ran)
      message(FATAL_ERROR "${what}: ${model} was not compiled again:\n"
                          "${step_output}")
    elseif(NOT model IN_LIST compiled AND ran)
      message(FATAL_ERROR "${what}: ${model} was compiled again, though "
                          "nothing it reads changed:\n${step_output}")
    endif()
  endforeach()
endfunction()
build_and_expect("second build" "")
file(GLOB data ${savedmodel}/variables/variables.data-*)
if(NOT data)
  message(FATAL_ERROR "no variables.data-* in ${savedmodel}/variables")
endif()
file(TOUCH ${data})
build_and_expect("build after touching variables.data" "scores_model")
file(TOUCH ${savedmodel}/saved_model.pb)
build_and_expect("build after touching saved_model.pb" "scores_model")
run_and_compare(${build}/scores_consumer ${SAVEDMODEL_EXPECTED})
