# SPDX-License-Identifier: Apache-2.0
"""tfaot_library(): compile a TensorFlow graph into a cc_library with tfaot.

Installed as <prefix>/share/tfaot/bazel/tfaot.bzl, next to the BUILD.bazel
and WORKSPACE that make that directory a Bazel repository (see
docs/build-rules.md, "Bazel"). A consumer's WORKSPACE names it

    local_repository(name = "tfaot", path = "<prefix>/share/tfaot/bazel")

and a BUILD file then writes

    load("@tfaot//:tfaot.bzl", "tfaot_library")

    tfaot_library(
        name = "mnist_model",
        graph = "simple_mnist.pb",
        cpp_class = "demo::Mnist",
        feeds = ["x:1,784"],
        fetches = ["y_pred"],
    )

    cc_binary(name = "app", srcs = ["main.cpp"], deps = [":mnist_model"])

Only native rules are used (genrule, cc_library), so nothing is downloaded.
"""

# The compiler and the runtime of the repository this file belongs to,
# whatever name the consumer gave that repository.
_TFAOT = "//:tfaot"
_RUNTIME = "//:runtime"
_TEST_TEMPLATE = "//:tfaot_test.cc.tpl"
_BENCHMARK_TEMPLATE = "//:tfaot_benchmark.cc.tpl"

_IDENT_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_IDENT_REST = _IDENT_START + "0123456789"

def _is_cpp_class(s):
    """True for ns::Name, ::ns::Name, Name (identifiers joined by ::)."""
    if s.startswith("::"):
        s = s[2:]
    if not s:
        return False
    for part in s.split("::"):
        if not part or part[0] not in _IDENT_START:
            return False
        for c in part.elems():
            if c not in _IDENT_REST:
                return False
    return True

def _quote(s):
    """One shell word for s, with Bazel's '$' make-variable escape."""
    return "'" + s.replace("'", "'\\''").replace("$", "$$") + "'"

def tfaot_library(
        name,
        graph,
        cpp_class,
        config = None,
        feeds = [],
        fetches = [],
        entry_point = None,
        target_cpu = None,
        extra_args = [],
        graph_data = [],
        gen_test = False,
        gen_benchmark = False,
        tfaot = None,
        runtime = None,
        visibility = None,
        tags = [],
        testonly = False):
    """Runs `tfaot compile` on a graph and wraps the result in a cc_library.

    Creates
      <name>_compile  a genrule writing <name>.h and <name>.o into this
                      package's output directory;
      <name>          a cc_library with that header, that object and a
                      dependency on the tfaot runtime. Include the header by
                      its workspace-relative path, e.g. "path/to/pkg/<name>.h"
                      ("<name>.h" in the root package);
      <name>_test     with gen_test: a cc_test that runs the model on zero
                      inputs, checks that Run() succeeds and that two
                      instances give bit-identical results (a model taking
                      JPEG bytes must instead fail with a reason);
      <name>_benchmark with gen_benchmark: a cc_binary timing Run() on
                      random inputs (median, p90, min; --min_time SECONDS).

    Args:
      name: the cc_library; also the file names <name>.h and <name>.o.
      graph: label of a binary GraphDef (.pb), text GraphDef (.pbtxt) or
        TF.js graph model (model.json). --graph
      cpp_class: the generated class with namespaces, e.g. "ns::Model".
        --cpp_class
      config: label of a tfcompile tf2xla.Config in text format. --config
      feeds: inputs, "name[:shape[:dtype]]", e.g. "x:1,784:float32". --feed
      fetches: outputs, "name[:index]". --fetch
      entry_point: symbol of the function in the object. --entry_point
      target_cpu: e.g. "x86-64-v3", or "native". --target_cpu
      extra_args: more `tfaot compile` arguments, passed as given (e.g.
        "-O2", "--target_features=+avx2,+fma").
      graph_data: other files the compiler reads: the weight shards of a
        TF.js model.json (the build runs sandboxed, so undeclared shards
        are not there).
      gen_test: also create <name>_test (tfcompile's tf_library has it too).
      gen_benchmark: also create <name>_benchmark.
      tfaot: label of the tfaot executable (default: the repository this
        file was loaded from, //:tfaot).
      runtime: label of the runtime cc_library (default: //:runtime of
        that repository).
      visibility, tags, testonly: as for any rule; given to both targets.
    """
    where = "tfaot_library(name = \"%s\")" % name
    if not name or "/" in name:
        fail("%s: name must be a plain target name" % where)
    if not graph:
        fail("%s: graph is required (a .pb, .pbtxt or TF.js model.json)" % where)
    if not cpp_class:
        fail("%s: cpp_class is required, e.g. \"ns::Model\"" % where)
    if not _is_cpp_class(cpp_class):
        fail("%s: cpp_class \"%s\" is not a C++ class name such as ns::Model" %
             (where, cpp_class))
    if not config and not fetches:
        fail("%s: give fetches = [...] or a config naming the outputs" % where)
    if type(feeds) != "list" or type(fetches) != "list" or type(extra_args) != "list":
        fail("%s: feeds, fetches and extra_args are lists of strings" % where)

    tool = tfaot or str(Label(_TFAOT))
    runtime_lib = runtime or str(Label(_RUNTIME))
    header = name + ".h"
    obj = name + ".o"

    srcs = [graph]
    args = [
        "compile",
        "--graph=$(location %s)" % graph,
        "--cpp_class=" + _quote(cpp_class),
        "--out_header=$(location %s)" % header,
        "--out_function_object=$(location %s)" % obj,
    ]
    if config:
        srcs.append(config)
        args.append("--config=$(location %s)" % config)
    args += ["--feed=" + _quote(f) for f in feeds]
    args += ["--fetch=" + _quote(f) for f in fetches]
    if entry_point:
        args.append("--entry_point=" + _quote(entry_point))
    if target_cpu:
        args.append("--target_cpu=" + _quote(target_cpu))
    args += [_quote(a) for a in extra_args]

    native.genrule(
        name = name + "_compile",
        srcs = srcs + graph_data,
        outs = [header, obj],
        tools = [tool],
        cmd = "$(location %s) %s" % (tool, " ".join(args)),
        message = "tfaot: compiling %s into %s (%s)" % (graph, name, cpp_class),
        visibility = visibility,
        tags = tags,
        testonly = testonly,
    )

    # The .o in srcs is linked as it is into whatever depends on <name>;
    # linkstatic: no shared library of it is made.
    native.cc_library(
        name = name,
        srcs = [obj],
        hdrs = [header],
        deps = [runtime_lib],
        linkstatic = 1,
        visibility = visibility,
        tags = tags,
        testonly = testonly,
    )

    # The test and the benchmark are one generic program each, instantiated
    # for this class by substituting its header and name.
    include = (native.package_name() + "/" if native.package_name() else "") + header
    for wanted, suffix, template, rule in [
        (gen_test, "_test", _TEST_TEMPLATE, native.cc_test),
        (gen_benchmark, "_benchmark", _BENCHMARK_TEMPLATE, native.cc_binary),
    ]:
        if not wanted:
            continue
        source = name + suffix + ".cc"
        native.genrule(
            name = name + suffix + "_source",
            srcs = [str(Label(template))],
            outs = [source],
            cmd = "sed -e 's|@HEADER@|%s|g' -e 's|@CLASS@|%s|g' $< > $@" %
                  (include, cpp_class),
            visibility = ["//visibility:private"],
            tags = tags,
            testonly = testonly,
        )
        rule(
            name = name + suffix,
            srcs = [source],
            deps = [":" + name],
            visibility = visibility,
            tags = tags,
        )
