//===- compare_oracle.cpp - Running TF.js and reading its outputs ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// The oracle's side of the comparison: in.json with the arguments' files,
// `node run.js` on it, outputs.json and the raw result files it writes
// (read back and checked against the compiled function's tables), the
// one-ulp perturbed inputs of the sensitivity run, and a CUDA build's check
// that its inputs are the ones the CPU test saved.
//
//===----------------------------------------------------------------------===//

#include "compare_internal.h"

#include <cmath>
#include <cstring>
#include <iostream>
#include <sstream>

namespace tfjs_compare {

std::string inputsJson(const tfaot::FunctionInfo &info,
                       const std::vector<fs::path> &files) {
  std::ostringstream js;
  js << "{\n  \"inputs\": [";
  for (int i = 0; i < info.num_args; ++i) {
    const BufferInfo &b = info.args[i];
    js << (i ? "," : "") << "\n    {\"name\": " << jsonQuote(b.name)
       << ", \"dtype\": " << jsonQuote(tfaot::DTypeName(b.dtype))
       << ", \"shape\": " << shapeString(dimsOf(b))
       << ", \"file\": " << jsonQuote(files[i].string()) << "}";
  }
  js << "\n  ],\n  \"outputs\": [";
  for (int i = 0; i < info.num_results; ++i)
    js << (i ? ", " : "") << jsonQuote(info.results[i].name);
  js << "]\n}\n";
  return js.str();
}

// Reads and checks what an oracle run wrote to `out_dir`.
OracleRun loadOracle(const tfaot::FunctionInfo &info, const fs::path &out_dir) {
  OracleRun run;
  run.dir = out_dir;
  run.json_file = out_dir / "outputs.json";
  std::string text, error;
  if (!readFile(run.json_file, text))
    fatal("cannot read " + run.json_file.string());
  if (!parseJson(text, run.json, error))
    fatal(run.json_file.string() + ": " + error);
  const Json *outs = run.json.get("outputs");
  if (!outs || outs->kind != Json::kArray)
    fatal(run.json_file.string() + ": no \"outputs\" array");
  if (static_cast<int>(outs->arr.size()) != info.num_results)
    fatal(run.json_file.string() + ": " + std::to_string(outs->arr.size()) +
          " outputs, the compiled function has " +
          std::to_string(info.num_results) + " results");
  return run;
}

OracleRun runOracle(const Options &opt, const tfaot::FunctionInfo &info,
                    const fs::path &in_file, const fs::path &out_dir) {
  std::string cmd = shellQuote(config().node) + " " +
                    shellQuote(config().oracle) + " --model " +
                    shellQuote(opt.model) + " --inputs " +
                    shellQuote(in_file.string()) + " --out " +
                    shellQuote(out_dir.string()) +
                    (opt.verbose ? " --verbose" : "");
  std::cout.flush();
  auto t0 = std::chrono::steady_clock::now();
  int rc = runCommand(cmd);
  double wall_ms = msSince(t0);
  if (rc != 0)
    fatal("the TF.js oracle failed (exit status " + std::to_string(rc) +
          "); command:\n  " + cmd);
  OracleRun run = loadOracle(info, out_dir);
  run.wall_ms = wall_ms;
  return run;
}

// Result r of an oracle run, as doubles. A shape or dtype that differs from
// the compiled function's is a test failure (printed, nullopt); a malformed
// output description is fatal.
std::optional<std::vector<double>>
oracleResult(const OracleRun &run, int r, const BufferInfo &b,
             const std::string &label) {
  const Json &o = run.output(r);
  const std::string where = run.json_file.string();
  const Json *name = o.get("name"), *file = o.get("file"),
             *shape = o.get("shape"), *fdt = o.get("file_dtype"),
             *dt = o.get("dtype");
  if (!name || !file || !shape || !fdt || !dt || name->kind != Json::kString ||
      file->kind != Json::kString || shape->kind != Json::kArray ||
      fdt->kind != Json::kString || dt->kind != Json::kString)
    fatal(where + ": output " + std::to_string(r) +
          " lacks name/file/shape/dtype/file_dtype");
  if (name->str != b.name)
    fatal(where + ": output " + std::to_string(r) + " is '" + name->str +
          "', expected '" + b.name + "'");
  std::vector<int64_t> oshape;
  for (const Json &d : shape->arr) oshape.push_back(static_cast<int64_t>(d.num));
  if (oshape != dimsOf(b)) {
    std::cout << "  FAIL " << label << ": shape " << shapeString(dimsOf(b))
              << ", the oracle's is " << shapeString(oshape) << "\n";
    return std::nullopt;
  }
  bool oracle_float = dt->str == "float32";
  if (oracle_float != isFloat(b.dtype)) {
    std::cout << "  FAIL " << label << ": the oracle's dtype is " << dt->str
              << "\n";
    return std::nullopt;
  }
  DType odtype;
  if (fdt->str == "float32") odtype = DType::kFloat32;
  else if (fdt->str == "int32") odtype = DType::kInt32;
  else fatal(where + ": unknown file_dtype '" + fdt->str + "'");
  std::string data;
  fs::path ofile = run.dir / file->str;
  if (!readFile(ofile, data)) fatal("cannot read " + ofile.string());
  if (static_cast<int64_t>(data.size()) != b.num_elements * 4)
    fatal(ofile.string() + " has " + std::to_string(data.size()) +
          " bytes, expected " + std::to_string(b.num_elements * 4));
  std::vector<double> values(b.num_elements);
  for (int64_t i = 0; i < b.num_elements; ++i)
    values[i] = elementAt(data.data(), odtype, i);
  return values;
}

// The float32 arguments moved by one ulp each, up or down at random (the
// other arguments as they are), for the sensitivity run.
std::vector<fs::path> writePerturbedInputs(const tfaot::FunctionInfo &info,
                                           tfaot::CompiledFunction &model,
                                           const fs::path &in_dir,
                                           uint64_t seed) {
  Rng rng{seed ^ 0x5EA51717ull};
  std::vector<fs::path> files;
  for (int i = 0; i < info.num_args; ++i) {
    const BufferInfo &b = info.args[i];
    std::string bytes(static_cast<const char *>(model.arg_data(i)),
                      b.size_bytes);
    if (b.dtype == DType::kFloat32) {
      for (int64_t e = 0; e < b.num_elements; ++e) {
        float v;
        std::memcpy(&v, bytes.data() + e * 4, 4);
        v = std::nextafter(v, rng.uniform() < 0.5 ? -INFINITY : INFINITY);
        std::memcpy(bytes.data() + e * 4, &v, 4);
      }
    }
    files.push_back(in_dir / ("arg" + std::to_string(i) + "_ulp.bin"));
    if (!writeFile(files.back(), bytes.data(), bytes.size()))
      fatal("cannot write " + files.back().string());
  }
  return files;
}

// A CUDA build's argument must be the byte-for-byte same as the one the CPU
// test wrote (same generator, same seed), or its oracle outputs are for
// other inputs.
void checkSavedInput(const fs::path &file, const void *data, size_t bytes) {
  std::string saved;
  if (!readFile(file, saved))
    fatal("cannot read " + file.string() + ": run the CPU test e2e.tfjs." +
          config().name + " first (it saves the inputs and TF.js's outputs)");
  if (saved.size() != bytes || std::memcmp(saved.data(), data, bytes) != 0)
    fatal(file.string() + " is not the input generated here (another seed "
          "or model?): rerun the CPU test e2e.tfjs." + config().name);
}

}  // namespace tfjs_compare
