#===- cmake/TfaotLibrary.cmake - tfaot_library() build rule -----------------===#
# SPDX-License-Identifier: Apache-2.0
#
# tfaot_library(<name>
#               GRAPH <file or SavedModel directory>
#               CPP_CLASS <ns::Name>
#               [CONFIG <file>]
#               [SIGNATURE <name>]
#               [FEEDS <name[:shape[:dtype]]>...]
#               [FETCHES <name[:index]>...]
#               [ENTRY_POINT <symbol>]
#               [TARGET_CPU <cpu>]
#               [LAYOUT auto|nhwc|nchw]
#               [BATCH <n>...]
#               [GEN_TEST] [GEN_BENCHMARK] [C_HEADER]
#               [EXTRA_ARGS <arg>...])
#
# Runs `tfaot compile` on GRAPH at build time and wraps the result in the
# static library target <name>:
#
#   <binary dir>/tfaot_library/<name>/<name>.h   the generated class
#   <binary dir>/tfaot_library/<name>/<name>.o   its code and weights
#
# Linking <name> gives the object, the tfaot runtime and the include
# directory, so a program only needs `#include "<name>.h"`. SIGNATURE,
# LAYOUT and BATCH are `tfaot compile --signature`, `--layout` and `--batch`
# (batch buckets, e.g. BATCH 1 8). As with the command, a SavedModel or a
# TF.js model.json needs no CONFIG/FEEDS/FETCHES: its signature gives them.
# GEN_TEST and GEN_BENCHMARK add the executables <name>_test (registered
# with add_test) and <name>_benchmark, made from the Bazel rule's templates.
# C_HEADER also writes <name>_c.h, the C API's header (--out_c_header), so
# that a C program linking <name> can `#include "<name>_c.h"`.
#
# The compile step depends on the tfaot executable, CONFIG and the files the
# compiler reads: a GraphDef; a SavedModel's saved_model.pb and every file
# under variables/; a TF.js model.json and the weight shards its
# weightsManifest lists. Nothing else re-runs it. Relative GRAPH and CONFIG
# paths are taken relative to the calling CMakeLists.txt's source directory.
#
# The file is used two ways: installed next to tfaotConfig.cmake, where
# tfaot::tfaot and tfaot::runtime are the imported targets, and inside the
# tfaot build itself, where they are aliases of the in-tree targets.
#
#===------------------------------------------------------------------------===#
include_guard(GLOBAL)

# GEN_TEST/GEN_BENCHMARK instantiate the Bazel rule's programs,
# tfaot_test.cc.tpl and tfaot_benchmark.cc.tpl: in the source tree they are
# in bazel/ next to this file's cmake/; the installed package's
# tfaotConfig.cmake sets this property to <prefix>/share/tfaot/bazel first.
get_property(_tfaot_templates GLOBAL PROPERTY TFAOT_TEMPLATE_DIR)
if(NOT _tfaot_templates)
  get_filename_component(_tfaot_templates "${CMAKE_CURRENT_LIST_DIR}/../bazel"
                         ABSOLUTE)
  set_property(GLOBAL PROPERTY TFAOT_TEMPLATE_DIR "${_tfaot_templates}")
endif()

# Paths the weight shards of a TF.js model.json, absolute, into <out_var>.
# A GraphDef (or a model.json without a manifest) has none.
function(_tfaot_library_tfjs_shards model out_var)
  set(shards)
  file(READ "${model}" json)
  string(JSON groups ERROR_VARIABLE err GET "${json}" weightsManifest)
  if(err)
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  get_filename_component(dir "${model}" DIRECTORY)
  string(JSON ngroups LENGTH "${groups}")
  if(ngroups GREATER 0)
    math(EXPR last_group "${ngroups} - 1")
    foreach(g RANGE ${last_group})
      string(JSON npaths ERROR_VARIABLE err LENGTH "${groups}" ${g} paths)
      if(err OR npaths EQUAL 0)
        continue()
      endif()
      math(EXPR last_path "${npaths} - 1")
      foreach(p RANGE ${last_path})
        string(JSON shard GET "${groups}" ${g} paths ${p})
        list(APPEND shards "${dir}/${shard}")
      endforeach()
    endforeach()
  endif()
  set(${out_var} "${shards}" PARENT_SCOPE)
endfunction()

# The files `tfaot compile --graph <graph>` reads, into <out_var>: for a
# SavedModel directory saved_model.pb and everything under variables/ (the
# glob is re-checked at build time, so an added shard re-runs CMake); for a
# TF.js model.json the file and its weight shards (CMake re-runs when
# model.json changes, to re-read the manifest); else the file itself. A
# graph that does not exist yet (made by the build) is only itself.
function(_tfaot_library_graph_inputs graph out_var)
  if(IS_DIRECTORY "${graph}")
    file(GLOB_RECURSE variables CONFIGURE_DEPENDS "${graph}/variables/*")
    set(${out_var} "${graph}/saved_model.pb" ${variables} PARENT_SCOPE)
  elseif(graph MATCHES "\\.json$" AND EXISTS "${graph}")
    _tfaot_library_tfjs_shards("${graph}" shards)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${graph}")
    set(${out_var} "${graph}" ${shards} PARENT_SCOPE)
  else()
    set(${out_var} "${graph}" PARENT_SCOPE)
  endif()
endfunction()

# <name>_test (a ctest test) and <name>_benchmark for GEN_TEST and
# GEN_BENCHMARK: the Bazel rule's generic programs with @HEADER@ and @CLASS@
# replaced, linked with the library <name>.
function(_tfaot_library_programs name cpp_class dir gen_test gen_benchmark)
  get_property(templates GLOBAL PROPERTY TFAOT_TEMPLATE_DIR)
  set(HEADER "${name}.h")
  set(CLASS "${cpp_class}")
  foreach(kind test benchmark)
    if(NOT gen_${kind})
      continue()
    endif()
    set(template "${templates}/tfaot_${kind}.cc.tpl")
    if(NOT EXISTS "${template}")
      string(TOUPPER "${kind}" keyword)
      message(FATAL_ERROR "tfaot_library(${name}): GEN_${keyword} needs "
                          "${template}, which is missing")
    endif()
    set(source "${dir}/${name}_${kind}.cc")
    configure_file("${template}" "${source}" @ONLY)
    add_executable(${name}_${kind} "${source}")
    target_link_libraries(${name}_${kind} PRIVATE ${name})
  endforeach()
  if(gen_test)
    add_test(NAME ${name}_test COMMAND ${name}_test)
  endif()
endfunction()

function(tfaot_library name)
  set(fn "tfaot_library(${name})")
  if(name STREQUAL "" OR name MATCHES "^(GRAPH|CONFIG|SIGNATURE|CPP_CLASS|FEEDS|FETCHES|ENTRY_POINT|TARGET_CPU|LAYOUT|BATCH|GEN_TEST|GEN_BENCHMARK|C_HEADER|EXTRA_ARGS)$")
    message(FATAL_ERROR "tfaot_library: the first argument must be the name "
                        "of the library target to create")
  endif()
  if(NOT name MATCHES "^[A-Za-z0-9_.+-]+$")
    message(FATAL_ERROR "${fn}: '${name}' is not a valid target name (letters, "
                        "digits and _ . + - only); it also names <name>.h")
  endif()
  if(TARGET ${name})
    message(FATAL_ERROR "${fn}: a target named '${name}' already exists")
  endif()

  cmake_parse_arguments(PARSE_ARGV 1 ARG "GEN_TEST;GEN_BENCHMARK;C_HEADER"
    "GRAPH;CONFIG;SIGNATURE;CPP_CLASS;ENTRY_POINT;TARGET_CPU;LAYOUT"
    "FEEDS;FETCHES;BATCH;EXTRA_ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}\n"
      "Accepted: GRAPH <file> CPP_CLASS <ns::Name> [CONFIG <file>] "
      "[SIGNATURE <name>] [FEEDS <name[:shape[:dtype]]>...] "
      "[FETCHES <name[:index]>...] [ENTRY_POINT <symbol>] [TARGET_CPU <cpu>] "
      "[LAYOUT auto|nhwc|nchw] [BATCH <n>...] [GEN_TEST] [GEN_BENCHMARK] "
      "[C_HEADER] [EXTRA_ARGS <arg>...]")
  endif()
  # FEEDS and FETCHES take every value up to the next known keyword, so a
  # misspelt or unsupported option (TARGET cuda, BATCHES 8) would silently
  # become a node name. A value that looks like a keyword (five or more
  # capitals, digits, '_') is rejected; such a node is still reachable as
  # NAME:0 (fetch) or NAME:<shape> (feed).
  foreach(value IN LISTS ARG_FEEDS ARG_FETCHES)
    if(value MATCHES "^[A-Z][A-Z0-9_][A-Z0-9_][A-Z0-9_][A-Z0-9_]+$")
      message(FATAL_ERROR "${fn}: unknown argument '${value}' (among FEEDS/"
        "FETCHES). Accepted: GRAPH CPP_CLASS CONFIG SIGNATURE FEEDS FETCHES "
        "ENTRY_POINT TARGET_CPU LAYOUT BATCH GEN_TEST GEN_BENCHMARK "
        "C_HEADER EXTRA_ARGS. For a node named '${value}' write "
        "'${value}:0' (fetch) or '${value}:<shape>' (feed).")
    endif()
  endforeach()
  if(ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${fn}: no value given for: ${ARG_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT ARG_GRAPH)
    message(FATAL_ERROR "${fn}: GRAPH <file> is required (a .pb, .pbtxt, "
                        "TF.js model.json or SavedModel directory)")
  endif()
  if(NOT ARG_CPP_CLASS)
    message(FATAL_ERROR "${fn}: CPP_CLASS <ns::Name> is required")
  endif()
  if(NOT ARG_CPP_CLASS MATCHES "^(::)?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$")
    message(FATAL_ERROR "${fn}: CPP_CLASS '${ARG_CPP_CLASS}' is not a C++ "
                        "class name such as ns::Model")
  endif()
  foreach(program TEST BENCHMARK)
    string(TOLOWER "${program}" suffix)
    if(ARG_GEN_${program} AND TARGET ${name}_${suffix})
      message(FATAL_ERROR "${fn}: GEN_${program} makes the target "
                          "'${name}_${suffix}', which already exists")
    endif()
  endforeach()

  if(NOT TARGET tfaot::tfaot OR NOT TARGET tfaot::runtime)
    message(FATAL_ERROR "${fn}: the targets tfaot::tfaot and tfaot::runtime "
                        "are not defined; call find_package(tfaot) first")
  endif()

  get_filename_component(graph "${ARG_GRAPH}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  # A SavedModel or TF.js model names its inputs and outputs in its
  # signature, which `tfaot compile` then uses; a GraphDef has none.
  if(NOT ARG_CONFIG AND NOT ARG_FETCHES AND NOT IS_DIRECTORY "${graph}"
     AND NOT graph MATCHES "\\.json$")
    message(FATAL_ERROR "${fn}: give FETCHES <name[:index]>... or a CONFIG "
                        "file naming the outputs to compute (a GraphDef has "
                        "no signature to take them from)")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tfaot_library/${name}")
  set(hdr "${dir}/${name}.h")
  set(obj "${dir}/${name}.o")

  # In-tree tfaot::tfaot is an alias: depend on the real target, which gives
  # both the file-level and the target-level dependency. An imported
  # executable is a file that is not built here.
  get_target_property(tool tfaot::tfaot ALIASED_TARGET)
  if(NOT tool)
    set(tool "$<TARGET_FILE:tfaot::tfaot>")
  endif()

  set(args compile --graph "${graph}" --cpp_class "${ARG_CPP_CLASS}"
           --out_header "${hdr}" --out_function_object "${obj}")
  # C_HEADER: also <name>_c.h, the C API's header (the object then holds the
  # model's table for it; C++ users are unaffected).
  set(c_hdr "")
  if(ARG_C_HEADER)
    set(c_hdr "${dir}/${name}_c.h")
    list(APPEND args --out_c_header "${c_hdr}")
  endif()
  _tfaot_library_graph_inputs("${graph}" deps)
  list(APPEND deps ${tool})
  if(ARG_CONFIG)
    get_filename_component(config "${ARG_CONFIG}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --config "${config}")
    list(APPEND deps "${config}")
  endif()
  if(ARG_SIGNATURE)
    list(APPEND args "--signature=${ARG_SIGNATURE}")
  endif()
  foreach(feed IN LISTS ARG_FEEDS)
    list(APPEND args "--feed=${feed}")
  endforeach()
  foreach(fetch IN LISTS ARG_FETCHES)
    list(APPEND args "--fetch=${fetch}")
  endforeach()
  if(ARG_ENTRY_POINT)
    list(APPEND args "--entry_point=${ARG_ENTRY_POINT}")
  endif()
  if(ARG_TARGET_CPU)
    list(APPEND args "--target_cpu=${ARG_TARGET_CPU}")
  endif()
  if(ARG_LAYOUT)
    list(APPEND args "--layout=${ARG_LAYOUT}")
  endif()
  if(ARG_BATCH)
    foreach(batch IN LISTS ARG_BATCH)
      if(NOT batch MATCHES "^[1-9][0-9]*$")
        message(FATAL_ERROR "${fn}: BATCH takes batch sizes (positive "
                            "integers), not '${batch}'")
      endif()
    endforeach()
    string(REPLACE ";" "," batches "${ARG_BATCH}")
    list(APPEND args "--batch=${batches}")
  endif()
  list(APPEND args ${ARG_EXTRA_ARGS})

  get_filename_component(graph_name "${graph}" NAME)
  file(MAKE_DIRECTORY "${dir}")
  add_custom_command(
    OUTPUT "${hdr}" "${obj}" ${c_hdr}
    COMMAND "$<TARGET_FILE:tfaot::tfaot>" ${args}
    DEPENDS ${deps}
    COMMENT "tfaot: compiling ${graph_name} into ${name} (${ARG_CPP_CLASS})"
    VERBATIM)

  # A static library holding just the generated object; the header is a
  # source too, so it exists before anything that includes it is compiled.
  add_library(${name} STATIC "${obj}" "${hdr}" ${c_hdr})
  set_source_files_properties("${obj}" PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  set_target_properties(${name} PROPERTIES
    LINKER_LANGUAGE CXX
    TFAOT_HEADER "${hdr}"
    TFAOT_OBJECT "${obj}"
    TFAOT_C_HEADER "${c_hdr}")
  target_include_directories(${name} PUBLIC "${dir}")
  # EXTRA_ARGS --target=cuda: the class derives from
  # tfaot::CudaCompiledFunction, which tfaot::cuda_runtime provides (with
  # tfaot::runtime).
  set(runtime tfaot::runtime)
  list(FIND ARG_EXTRA_ARGS "--target=cuda" cuda_flag)
  list(FIND ARG_EXTRA_ARGS "cuda" cuda_value)
  if(NOT cuda_flag EQUAL -1 OR
     (NOT cuda_value EQUAL -1 AND "--target" IN_LIST ARG_EXTRA_ARGS))
    set(runtime tfaot::cuda_runtime)
  endif()
  target_link_libraries(${name} PUBLIC ${runtime})

  _tfaot_library_programs(${name} "${ARG_CPP_CLASS}" "${dir}"
                          "${ARG_GEN_TEST}" "${ARG_GEN_BENCHMARK}")
endfunction()
