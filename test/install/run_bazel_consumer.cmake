#===- test/install/run_bazel_consumer.cmake - install, then bazel build ----===#
# SPDX-License-Identifier: Apache-2.0
#
# cmake -DTFAOT_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=...
#       -DGRAPH=... -DEXPECTED=... -DBAZEL=... -DCC=...
#       [-DOFFLINE_REPOS=<dir>] [-DBAZEL_FLAGS=<;-list>]
#       -P run_bazel_consumer.cmake
#
# 1. cmake --install TFAOT_BUILD_DIR --prefix WORK_DIR/prefix; the Bazel
#    repository P/share/tfaot/bazel must be complete
# 2. CONSUMER_SOURCE_DIR (examples/bazel-consumer) is copied to
#    WORK_DIR/workspace, with GRAPH as its simple_mnist.pb
# 3. bazel --batch --output_user_root=WORK_DIR/bazel_root build, with
#    --override_repository=tfaot=P/share/tfaot/bazel, CC as the C/C++
#    compiler, two jobs, and (OFFLINE_REPOS) the offline stand-ins for
#    rules_cc and rules_java
# 4. bazel-bin/mnist_consumer runs; its output must equal EXPECTED exactly
#
# Everything lives under WORK_DIR, which is deleted first. --batch leaves no
# Bazel server behind. Any failing step is a FATAL_ERROR.
#
#===------------------------------------------------------------------------===#
cmake_minimum_required(VERSION 3.21)

include(${CMAKE_CURRENT_LIST_DIR}/install_steps.cmake)
require_vars(run_bazel_consumer.cmake TFAOT_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GRAPH EXPECTED BAZEL CC)

set(prefix ${WORK_DIR}/prefix)
set(workspace ${WORK_DIR}/workspace)
set(user_root ${WORK_DIR}/bazel_root)
set(repo ${prefix}/share/tfaot/bazel)

# Fresh every time. Bazel leaves read-only files and directories in its
# output root; make them writable so that they can be deleted.
if(EXISTS ${WORK_DIR})
  execute_process(COMMAND chmod -R u+w ${WORK_DIR})
  file(REMOVE_RECURSE ${WORK_DIR})
endif()
file(MAKE_DIRECTORY ${WORK_DIR})

run_step("install" ${CMAKE_COMMAND} --install ${TFAOT_BUILD_DIR} --prefix ${prefix})
# The links resolve into the prefix: EXISTS follows them.
foreach(f WORKSPACE BUILD.bazel tfaot.bzl bin/tfaot lib/libtfaot_runtime.a
          include/tfaot/runtime/compiled_function.h)
  if(NOT EXISTS ${repo}/${f})
    message(FATAL_ERROR "install: ${repo}/${f} is missing")
  endif()
endforeach()

# The example without anything a local build of it may have left there.
file(GLOB entries LIST_DIRECTORIES true
  ${CONSUMER_SOURCE_DIR}/* ${CONSUMER_SOURCE_DIR}/.*)
list(FILTER entries EXCLUDE REGEX "/(bazel-[^/]*|simple_mnist\\.pb)$")
file(MAKE_DIRECTORY ${workspace})
file(COPY ${entries} DESTINATION ${workspace})
file(COPY_FILE ${GRAPH} ${workspace}/simple_mnist.pb)

# No ~/.bazelrc; the system one stays, as Debian's bazel-bootstrap needs its
# /etc/bazel/bazelrc (install base). That one also turns --sandbox_debug on,
# which floods the log: off again.
set(startup --batch --output_user_root=${user_root} --nohome_rc)
set(flags --jobs=2 --local_cpu_resources=2 --nosandbox_debug
          --color=no --curses=no --show_progress_rate_limit=30
          --override_repository=tfaot=${repo}
          --repo_env=CC=${CC})
if(OFFLINE_REPOS)
  list(APPEND flags
    --override_repository=rules_cc=${OFFLINE_REPOS}/rules_cc
    --override_repository=rules_java=${OFFLINE_REPOS}/rules_java
    --override_repository=remote_coverage_tools=${OFFLINE_REPOS}/remote_coverage_tools)
endif()
list(APPEND flags ${BAZEL_FLAGS})

execute_process(COMMAND ${BAZEL} ${startup} build ${flags} //:mnist_consumer
  WORKING_DIRECTORY ${workspace}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  string(REPLACE ";" " " cmd "${BAZEL} ${startup} build ${flags} //:mnist_consumer")
  message(FATAL_ERROR "bazel build failed (${rc}):\n  cd ${workspace} && "
                      "${cmd}\n${out}")
endif()
message(STATUS "bazel build: ok")
foreach(f mnist_model.h mnist_model.o)
  if(NOT EXISTS ${workspace}/bazel-bin/${f})
    message(FATAL_ERROR "bazel build did not produce bazel-bin/${f}:\n${out}")
  endif()
endforeach()

run_and_compare(${workspace}/bazel-bin/mnist_consumer ${EXPECTED})

# gen_test and gen_benchmark: the smoke test passes under `bazel test`, and
# the benchmark prints its timing line.
execute_process(COMMAND ${BAZEL} ${startup} test ${flags} --test_output=all
                        //:mnist_model_test //:mnist_model_benchmark
  WORKING_DIRECTORY ${workspace}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "PASS: consumer::Mnist: 1 arguments, 2 results")
  message(FATAL_ERROR "bazel test //:mnist_model_test failed (${rc}):\n${out}")
endif()
message(STATUS "bazel test: ok")
execute_process(COMMAND ${workspace}/bazel-bin/mnist_model_benchmark --min_time 0.2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "consumer::Mnist: [0-9]+ runs, median [0-9.e+-]+ ms, p90")
  message(FATAL_ERROR "mnist_model_benchmark failed (${rc}):\n${out}")
endif()
message(STATUS "benchmark: ${out}")
