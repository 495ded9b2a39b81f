//===- Run.cpp - tfaot run: compile a graph and run it once ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// See Run.h. Inputs are copied into the argument buffers byte for byte and
// results written out byte for byte: nothing is converted, so the .npy
// files hold exactly what the compiled code computed.
//
//===----------------------------------------------------------------------===//
#include "compiler/Run.h"

#include "compiler/Compile.h"
#include "compiler/Show.h"
#include "compiler/driver/HeaderWriter.h"
#include "compiler/driver/OutputFiles.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/GraphLoader.h"
#include "compiler/frontend/Npy.h"
#include "compiler/jit/JitModel.h"
#include "tfaot/runtime/thread_pool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <map>

using namespace tfaot;

namespace {

std::string describe(tensorflow::DataType dtype,
                     const std::vector<int64_t> &shape) {
  return dataTypeName(dtype) + showShape(shape);
}

/// The index of the argument `name` names (its header name, else its
/// node); -1 if none.
int findArgument(const FunctionSignature &sig, llvm::StringRef name) {
  for (size_t i = 0; i < sig.args.size(); ++i)
    if (sig.args[i].name == name)
      return i;
  for (size_t i = 0; i < sig.args.size(); ++i)
    if (sig.args[i].node == name)
      return i;
  return -1;
}

/// Loads `file` (.npy, or raw bytes in a .bin) into argument `arg` after
/// checking it fits; false after printing "<file>: error: ...". A .npy file
/// already read (to take a feed's shape from it) is `read`, not read again.
bool loadInput(const TensorSignature &arg, void *buffer,
               const std::string &file, const NpyTensor *read,
               llvm::raw_ostream &errs) {
  GraphDiagnostics diags(file, errs);
  uint64_t bytes = bufferBytes(arg);
  std::string expected = describe(arg.dtype, arg.shape);
  if (llvm::StringRef(file).ends_with(".npy")) {
    NpyTensor loaded;
    std::string error;
    if (!read && !readNpy(file, loaded, error)) {
      diags.error(error);
      return false;
    }
    const NpyTensor &tensor = read ? *read : loaded;
    // Compare NumPy types: quint8 data is stored as uint8, and so on.
    if (npyDescr(tensor.dtype) != npyDescr(arg.dtype) ||
        tensor.shape != arg.shape) {
      diags.error("argument '" + arg.name + "' is " + expected +
                  ", but the file holds " +
                  describe(tensor.dtype, tensor.shape));
      return false;
    }
    std::memcpy(buffer, tensor.data.data(), bytes);
    return true;
  }
  if (!llvm::StringRef(file).ends_with(".bin")) {
    diags.error("--input takes a .npy file, or a .bin file of raw bytes");
    return false;
  }
  auto contents = llvm::MemoryBuffer::getFile(file, /*IsText=*/false);
  if (!contents) {
    diags.error("cannot read: " + contents.getError().message());
    return false;
  }
  if ((*contents)->getBufferSize() != bytes) {
    diags.error("argument '" + arg.name + "' is " + expected + ", " +
                std::to_string(bytes) + " bytes, but the file has " +
                std::to_string((*contents)->getBufferSize()));
    return false;
  }
  std::memcpy(buffer, (*contents)->getBufferStart(), bytes);
  return true;
}

/// A .npy --input says its argument's shape and dtype, so with no --feed
/// and no --config each one feeds its argument: a placeholder of unknown
/// batch size then needs no flag. Given --feed or --config flags list the
/// feeds themselves (and the files must fit them). The files read are kept
/// in `read` by path, for loadInput. False after printing the file's
/// error.
bool addFeedsFromNpyInputs(
    const std::vector<std::pair<std::string, std::string>> &inputs,
    CompileOptions &compile, std::map<std::string, NpyTensor> &read,
    llvm::raw_ostream &errs) {
  if (!compile.config.empty() || !compile.feeds.empty())
    return true;
  for (const auto &[name, file] : inputs) {
    if (!llvm::StringRef(file).ends_with(".npy"))
      continue;
    NpyTensor &tensor = read[file];
    std::string error;
    if (!readNpy(file, tensor, error)) {
      GraphDiagnostics(file, errs).error(error);
      return false;
    }
    std::string dims;
    for (int64_t d : tensor.shape)
      dims += (dims.empty() ? "" : ",") + std::to_string(d);
    compile.feeds.push_back(name + ":" + dims + ":" +
                            dataTypeName(tensor.dtype));
  }
  return true;
}

/// A plain GraphDef run with no --fetch and no --config fetches the nodes
/// no other node reads, as `tfaot show` suggests, and says so. Models with
/// a signature (TF.js, SavedModel) name their outputs themselves.
void addDefaultFetches(CompileOptions &compile, llvm::raw_ostream &errs) {
  llvm::StringRef graph = compile.graph;
  if (!compile.fetches.empty() || !compile.config.empty() ||
      graph.ends_with(".json") || llvm::sys::fs::is_directory(graph))
    return;
  std::string ignored;
  llvm::raw_string_ostream quiet(ignored);
  GraphDiagnostics diags(compile.graph, quiet); // compile reports errors.
  std::optional<tensorflow::GraphDef> def = loadGraphDef(compile.graph, diags);
  if (!def)
    return;
  std::vector<std::string> names;
  for (const ShownTensor &out : unreadOutputs(*def)) {
    compile.fetches.push_back(out.node);
    names.push_back(out.node);
  }
  if (!names.empty())
    errs << "tfaot run: no --fetch: fetching " << llvm::join(names, ", ")
         << " (the nodes no other node reads, as 'tfaot show' lists)\n";
}

std::vector<double> valuesOf(tensorflow::DataType dtype, const char *data,
                             int64_t count) {
  std::vector<double> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = elementAsDouble(dtype, data, i);
  return values;
}

/// "min -1.5  max 2  mean 0.25" over the values that are not NaN, and how
/// many are NaN.
std::string statistics(const std::vector<double> &values) {
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  int64_t nans = 0;
  for (double v : values) {
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  int64_t numbers = values.size() - nans;
  if (!numbers)
    return values.empty() ? "(empty)" : "all NaN";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("min %.6g  max %.6g  mean %.6g", lo, hi, sum / numbers);
  if (nans)
    text += "  (" + std::to_string(nans) + " NaN)";
  return text;
}

/// --compare for one result; false on a mismatch or a missing reference.
bool compareResult(const TensorSignature &result, const char *data,
                   const std::string &fileName, const RunOptions &options,
                   llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  llvm::SmallString<256> path(options.compareDir);
  llvm::sys::path::append(path, fileName + ".npy");
  NpyTensor reference;
  std::string error;
  if (!readNpy(std::string(path), reference, error)) {
    GraphDiagnostics(std::string(path), errs)
        .error("reference of result '" + result.name + "': " + error);
    return false;
  }
  out << "  " << result.name << ": ";
  if (reference.shape != result.shape) {
    out << "MISMATCH: shape " << showShape(result.shape)
        << ", the reference's " << showShape(reference.shape) << "\n";
    return false;
  }
  int64_t count = reference.elements();
  std::vector<double> actual = valuesOf(result.dtype, data, count);
  std::vector<double> expected =
      valuesOf(reference.dtype, reference.data.data(), count);
  Comparison c = compareValues(actual, expected, options.rtol, options.atol);
  out << llvm::format("max abs error %.6g, max rel error %.6g", c.maxAbsError,
                      c.maxRelError);
  if (reference.dtype != result.dtype)
    out << " (reference is " << dataTypeName(reference.dtype) << ")";
  if (!c.mismatches) {
    out << ": ok\n";
    return true;
  }
  out << ": MISMATCH at " << c.mismatches << " of " << count
      << " elements; first at index " << c.firstMismatch << ": "
      << llvm::format("%.9g", actual[c.firstMismatch]) << ", reference "
      << llvm::format("%.9g", expected[c.firstMismatch]) << "\n";
  return false;
}

} // namespace

Comparison tfaot::compareValues(const std::vector<double> &actual,
                                const std::vector<double> &expected,
                                double rtol, double atol) {
  Comparison c;
  for (size_t i = 0; i < actual.size(); ++i) {
    double a = actual[i], b = expected[i];
    bool same;
    if (std::isnan(a) || std::isnan(b)) {
      same = std::isnan(a) && std::isnan(b);
    } else if (a == b) { // Also equal infinities, whose difference is NaN.
      same = true;
    } else {
      double abs = std::fabs(a - b);
      double rel = b != 0 ? abs / std::fabs(b) : INFINITY;
      c.maxAbsError = std::max(c.maxAbsError, abs);
      c.maxRelError = std::max(c.maxRelError, rel);
      same = abs <= atol + rtol * std::fabs(b);
    }
    if (!same && c.mismatches++ == 0)
      c.firstMismatch = i;
  }
  return c;
}

std::string tfaot::fileNameFor(const std::string &name) {
  std::string file = name;
  for (char &c : file)
    if (!llvm::isAlnum(c) && c != '.' && c != '_' && c != '-')
      c = '_';
  if (file.empty() || file == "." || file == "..")
    file = "_";
  return file;
}

int tfaot::runGraph(const RunOptions &options, llvm::raw_ostream &out,
                    llvm::raw_ostream &errs) {
  const std::string &graph = options.compile.graph;
  GraphDiagnostics usage("", errs); // Command-line mistakes: no file at fault.
  if (graph.empty()) {
    usage.usageError("no graph: give --graph model.pb");
    return 1;
  }
  if (options.threads < 0 || options.rtol < 0 || options.atol < 0) {
    usage.usageError("--threads, --rtol and --atol must be >= 0");
    return 1;
  }
  // name=file pairs, checked before the (slow) compilation.
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const std::string &spec : options.inputs) {
    auto [name, file] = llvm::StringRef(spec).split('=');
    if (name.empty() || file.empty()) {
      usage.usageError("bad --input '" + spec +
                       "': expected name=file.npy or name=file.bin");
      return 1;
    }
    inputs.emplace_back(name.str(), file.str());
  }

  CompiledArtifacts artifacts;
  CompileOptions compile = options.compile;
  std::map<std::string, NpyTensor> npyRead;
  if (!addFeedsFromNpyInputs(inputs, compile, npyRead, errs))
    return 1;
  addDefaultFetches(compile, errs);
  compile.artifacts = &artifacts;
  compile.report = CompileOptions::Report::None;
  compile.batchBuckets.clear();
  if (tfaot::compile(compile, errs) != 0)
    return 1;
  const FunctionSignature &sig = artifacts.signature;
  int threads =
      options.threads ? options.threads : ThreadPool::HardwareThreads();
  std::unique_ptr<JitModel> model =
      loadCompiledGraph(artifacts, threads, graph, "run", errs);
  if (!model)
    return 1;

  std::vector<bool> given(sig.args.size(), false);
  for (const auto &[name, file] : inputs) {
    int index = findArgument(sig, name);
    if (index < 0 || given[index]) {
      std::vector<std::string> names;
      for (const TensorSignature &arg : sig.args)
        names.push_back("'" + arg.name + "' " + describe(arg.dtype, arg.shape));
      usage.usageError(
          "--input " + name + "=" + file + ": " +
          (index < 0 ? "no argument of that name (the arguments: " +
                           (names.empty() ? std::string("none")
                                          : llvm::join(names, ", ")) +
                           ")"
                     : std::string("that argument is already given")));
      return 1;
    }
    auto read = npyRead.find(file);
    if (!loadInput(sig.args[index], model->arg(index), file,
                   read == npyRead.end() ? nullptr : &read->second, errs))
      return 1;
    given[index] = true;
  }
  std::vector<size_t> zeros = fillRandomInputs(*model, options.seed, given);
  std::vector<std::string> randomized;
  for (size_t i = 0; i < sig.args.size(); ++i) {
    if (given[i])
      continue;
    const TensorSignature &arg = sig.args[i];
    randomized.push_back(arg.name + " " + describe(arg.dtype, arg.shape) +
                         (llvm::is_contained(zeros, i)
                              ? " (zeros: no random " +
                                    dataTypeName(arg.dtype) + ")"
                              : ""));
  }
  if (!randomized.empty())
    errs << "tfaot run: random inputs (seed " << options.seed << "; "
         << kRandomInputs << ") for: " << llvm::join(randomized, ", ")
         << "\n";

  if (!runOrReport(*model, graph, errs))
    return 1;
  // The results as this run produced them: a result whose size depends on
  // data has the dims the run wrote, its valid elements first.
  std::vector<TensorSignature> ran = sig.results;
  for (size_t i = 0; i < ran.size(); ++i)
    ran[i].shape = model->resultShape(i);

  if (std::error_code ec =
          llvm::sys::fs::create_directories(options.outputDir)) {
    GraphDiagnostics(options.outputDir, errs)
        .error("cannot create the output directory: " + ec.message());
    return 1;
  }
  // The .npy files are written all or none (OutputFiles), before the
  // table that names them.
  std::vector<std::string> fileNames, paths;
  OutputFiles files;
  llvm::StringSet<> used;
  for (size_t i = 0; i < sig.results.size(); ++i) {
    const TensorSignature &result = ran[i];
    // Two names may sanitize alike ("a/b", "a_b"): number the later ones.
    std::string file = fileNameFor(result.name);
    for (int n = 2; used.contains(file); ++n)
      file = fileNameFor(result.name) + "_" + std::to_string(n);
    used.insert(file);
    fileNames.push_back(file);
    llvm::SmallString<256> path(options.outputDir);
    llvm::sys::path::append(path, file + ".npy");
    const char *data = static_cast<const char *>(model->result(i));
    std::string contents, error;
    if (encodeNpy(result.dtype, result.shape,
                  llvm::StringRef(data, bufferBytes(result)), contents,
                  error)) {
      files.add(std::string(path), std::move(contents));
      paths.push_back(std::string(path));
    } else {
      GraphDiagnostics(std::string(path), errs)
          .warning(error + "; not written");
      paths.push_back("");
    }
  }
  bool written = files.commit(errs);
  out << "results (written to " << options.outputDir << "/):\n";
  for (size_t i = 0; i < sig.results.size(); ++i) {
    const TensorSignature &result = ran[i];
    const char *data = static_cast<const char *>(model->result(i));
    int64_t count = bufferBytes(result) / elementBytes(result.dtype);
    out << llvm::format("  %-24s %-18s ", result.name.c_str(),
                        describe(result.dtype, result.shape).c_str())
        << statistics(valuesOf(result.dtype, data, count)) << "  -> "
        << (written && !paths[i].empty() ? paths[i] : "not written") << "\n";
  }
  if (options.compareDir.empty())
    return written ? 0 : 1;

  out << "compared with " << options.compareDir << "/ (rtol "
      << llvm::format("%g", options.rtol) << ", atol "
      << llvm::format("%g", options.atol) << "):\n";
  int mismatched = 0;
  for (size_t i = 0; i < sig.results.size(); ++i)
    if (!compareResult(ran[i],
                       static_cast<const char *>(model->result(i)),
                       fileNames[i], options, out, errs))
      ++mismatched;
  if (mismatched)
    out << mismatched << " of " << sig.results.size()
        << " results do not match\n";
  else
    out << "all " << sig.results.size() << " results match\n";
  return mismatched || !written ? 1 : 0;
}
