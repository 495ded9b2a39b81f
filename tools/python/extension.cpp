//===- extension.cpp - tfaot._tfaot: the compiler inside Python -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// The pybind11 module behind tfaot.compile() and tfaot.bench(): a graph is
// compiled by tfaot::compile exactly as `tfaot run` compiles it and linked
// into this process by the JIT (compiler/jit/JitModel.h); bench is
// tfaot::bench itself, its JSON report returned as text.
//
// The module is deliberately small and speaks in plain values: option
// dictionaries in, buffers and message strings out. The Python package
// (tools/python/tfaot) checks the caller's arrays and turns the messages
// into exceptions, for the JIT and for shared libraries loaded through the
// C API alike.
//
//===----------------------------------------------------------------------===//
#include "compiler/Bench.h"
#include "compiler/Compile.h"
#include "compiler/driver/HeaderWriter.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/jit/JitModel.h"
#include "tfaot/runtime/thread_pool.h"

#include "llvm/ADT/StringExtras.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <mutex>

namespace py = pybind11;
using namespace tfaot;

namespace {

/// The compile options a Python caller may give beyond graph, feeds and
/// fetches, by the name of their `tfaot compile` flag. Output files, the
/// target triple and --batch have no meaning for a model run in process.
const char *const kOptionNames[] = {
    "signature",       "config",
    "feed_values",     "layout",
    "jpeg_size",       "jpeg_dct_scaling",
    "runtime_checks",  "graph_passes",
    "target_cpu",      "target_features",
    "opt_level",       "quantize",
    "calibration",     "calibration_method",
    "calibration_percentile", "quantize_all_layers",
    "quantize_min_k",  "quantize_float_weights",
    "quantize_residuals",
};

std::string knownOptions() {
  std::vector<std::string> names(std::begin(kOptionNames),
                                 std::end(kOptionNames));
  return llvm::join(names, ", ");
}

/// Sets one option; "" or why it cannot be set (an unknown name); a
/// value of the wrong type throws py::cast_error.
std::string setOption(CompileOptions &o, const std::string &name,
                      const py::handle &value) {
  auto str = [&] { return value.cast<std::string>(); };
  auto strings = [&] { return value.cast<std::vector<std::string>>(); };
  if (name == "signature") o.signature = str();
  else if (name == "config") o.config = str();
  else if (name == "feed_values") o.feedValues = strings();
  else if (name == "layout") o.layout = str();
  else if (name == "jpeg_size") o.jpegSize = str();
  else if (name == "jpeg_dct_scaling") o.jpegDctScaling = value.cast<bool>();
  else if (name == "runtime_checks") o.runtimeChecks = str();
  else if (name == "graph_passes") o.graphPasses = value.cast<bool>();
  else if (name == "target_cpu") o.target.cpu = str();
  else if (name == "target_features") o.target.features = str();
  else if (name == "opt_level") o.target.optLevel = value.cast<int>();
  else if (name == "quantize") o.quantize = str();
  else if (name == "calibration") o.calibration = str();
  else if (name == "calibration_method") o.calibrationMethod = str();
  else if (name == "calibration_percentile")
    o.calibrationPercentile = value.cast<double>();
  else if (name == "quantize_all_layers") o.quantizeAllLayers = value.cast<bool>();
  else if (name == "quantize_min_k") o.quantizeMinK = value.cast<int64_t>();
  else if (name == "quantize_float_weights")
    o.quantizeFloatWeights = value.cast<bool>();
  else if (name == "quantize_residuals")
    o.quantizeResiduals = value.cast<bool>();
  else
    return "unknown option '" + name + "' (the options: " + knownOptions() +
           ")";
  return "";
}

/// CompileOptions for an in-process build; "" or why not in `error`.
CompileOptions compileOptions(const std::string &graph,
                              const std::vector<std::string> &feeds,
                              const std::vector<std::string> &fetches,
                              const py::dict &options, std::string &error) {
  CompileOptions o;
  o.graph = graph;
  o.feeds = feeds;
  o.fetches = fetches;
  // Warnings are returned with the model; progress is not reported.
  o.verbosity = Verbosity::Normal;
  for (auto [key, value] : options) {
    std::string name = key.cast<std::string>();
    try {
      error = setOption(o, name, value);
    } catch (const py::cast_error &) {
      error = "option '" + name + "' cannot be " +
              std::string(py::str(py::type::of(value).attr("__name__"))) +
              " " + std::string(py::repr(value));
    }
    if (!error.empty())
      break;
  }
  return o;
}

/// One argument or result, as the Python package describes it: name,
/// shape, TensorFlow dtype number (TFAOT_DTYPE_*, as the C API gives it).
py::tuple describe(const TensorSignature &sig) {
  return py::make_tuple(sig.name, sig.shape, static_cast<int>(sig.dtype));
}

/// A compiled graph linked into this process, with its own buffers.
class Session {
public:
  explicit Session(std::unique_ptr<JitModel> model)
      : model_(std::move(model)) {}

  py::list inputs() const { return describeAll(model_->signature().args); }
  py::list outputs() const {
    return describeAll(model_->signature().results);
  }

  /// Copies `data` into argument `index`; the package has checked its
  /// dtype and shape, this checks the size the buffer must have.
  void setInput(size_t index, const py::buffer &data) {
    const TensorSignature &arg = at(model_->signature().args, index);
    py::buffer_info info = data.request();
    uint64_t bytes = bufferBytes(arg);
    if (static_cast<uint64_t>(info.size * info.itemsize) != bytes)
      throw py::value_error("input '" + arg.name + "' needs " +
                            std::to_string(bytes) + " bytes, was given " +
                            std::to_string(info.size * info.itemsize));
    std::lock_guard<std::mutex> lock(mutex_);
    std::memcpy(model_->arg(index), info.ptr, bytes);
  }

  /// Runs once without the GIL; "" or Run()'s error message.
  std::string run() {
    py::gil_scoped_release unlocked;
    std::lock_guard<std::mutex> lock(mutex_);
    return model_->run() ? std::string() : model_->runError();
  }

  /// Result `index`'s bytes, copied (the next run overwrites the buffer).
  py::bytes output(size_t index) {
    const TensorSignature &result = at(model_->signature().results, index);
    std::lock_guard<std::mutex> lock(mutex_);
    return py::bytes(static_cast<const char *>(model_->result(index)),
                     bufferBytes(result));
  }

  /// Result `index`'s dims after the last run: its static shape, or the
  /// run's for a result whose size depends on data (NonMaxSuppression,
  /// Where), whose buffer holds that many elements first.
  std::vector<int64_t> outputShape(size_t index) {
    at(model_->signature().results, index);
    std::lock_guard<std::mutex> lock(mutex_);
    return model_->resultShape(index);
  }

private:
  static py::list describeAll(const std::vector<TensorSignature> &sigs) {
    py::list list;
    for (const TensorSignature &sig : sigs)
      list.append(describe(sig));
    return list;
  }
  static const TensorSignature &at(const std::vector<TensorSignature> &sigs,
                                   size_t index) {
    if (index >= sigs.size())
      throw py::index_error("index " + std::to_string(index) +
                            " out of range (" + std::to_string(sigs.size()) +
                            ")");
    return sigs[index];
  }

  std::unique_ptr<JitModel> model_;
  // One Run() at a time per model: Python threads may share it.
  std::mutex mutex_;
};

/// Compiles and links `graph`: (Session, warnings) or (None, errors), the
/// messages as `tfaot run` prints them.
py::tuple compileGraph(const std::string &graph,
                       const std::vector<std::string> &feeds,
                       const std::vector<std::string> &fetches,
                       const py::dict &options, int threads) {
  std::string error;
  CompileOptions compile = compileOptions(graph, feeds, fetches, options, error);
  if (!error.empty())
    return py::make_tuple(py::none(), error);
  if (threads < 0)
    return py::make_tuple(py::none(),
                          "threads must be >= 0 (0: one per hardware thread)");
  // Errors about no file in particular name the function called.
  setCommandName("tfaot.compile()");
  std::string messages;
  llvm::raw_string_ostream errs(messages);
  CompiledArtifacts artifacts;
  compile.artifacts = &artifacts;
  std::unique_ptr<JitModel> model;
  {
    // Compiling takes seconds to minutes; other Python threads may run.
    py::gil_scoped_release unlocked;
    if (tfaot::compile(compile, errs) == 0)
      model = loadCompiledGraph(
          artifacts, threads ? threads : ThreadPool::HardwareThreads(), graph,
          "tfaot.compile()", errs);
  }
  if (!model)
    return py::make_tuple(py::none(), messages);
  return py::make_tuple(py::cast(std::make_unique<Session>(std::move(model))),
                        messages);
}

/// tfaot::bench: (JSON report, "") or (None, errors).
py::tuple benchGraph(const std::string &graph,
                     const std::vector<std::string> &feeds,
                     const std::vector<std::string> &fetches,
                     const py::dict &options, std::vector<int64_t> batches,
                     int64_t minIters, double minTimeSeconds, int threads,
                     uint64_t seed) {
  std::string error;
  BenchOptions bench;
  bench.compile = compileOptions(graph, feeds, fetches, options, error);
  if (!error.empty())
    return py::make_tuple(py::none(), error);
  bench.batches = std::move(batches);
  bench.minIters = minIters;
  bench.minTimeSeconds = minTimeSeconds;
  bench.threads = threads;
  bench.seed = seed;
  bench.json = true;
  setCommandName("tfaot.bench()");
  std::string report, messages;
  llvm::raw_string_ostream out(report), errs(messages);
  int status;
  {
    py::gil_scoped_release unlocked;
    status = tfaot::bench(bench, out, errs);
  }
  if (status != 0)
    return py::make_tuple(py::none(), messages);
  return py::make_tuple(report, messages);
}

} // namespace

PYBIND11_MODULE(_tfaot, m) {
  m.doc() = "tfaot's compiler and JIT; use the tfaot package, not this.";
  py::class_<Session>(m, "Session")
      .def_property_readonly("inputs", &Session::inputs)
      .def_property_readonly("outputs", &Session::outputs)
      .def("set_input", &Session::setInput)
      .def("run", &Session::run)
      .def("output", &Session::output)
      .def("output_shape", &Session::outputShape);
  m.def("compile", &compileGraph, py::arg("graph"), py::arg("feeds"),
        py::arg("fetches"), py::arg("options"), py::arg("threads"));
  m.def("bench", &benchGraph, py::arg("graph"), py::arg("feeds"),
        py::arg("fetches"), py::arg("options"), py::arg("batches"),
        py::arg("min_iters"), py::arg("min_time"), py::arg("threads"),
        py::arg("seed"));
}
