//===- compare_internal.h - Pieces of tfaot_tfjs_compare_lib ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What the library's files share; the programs see compare.h only.
//   compare.cpp         options, the comparison, the reruns, compareMain()
//   compare_json.cpp    a minimal JSON reader and writer's quoting
//   compare_values.cpp  text and files, element values, the inputs
//   compare_oracle.cpp  running the oracle and reading what it wrote
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_E2E_TFJS_COMPARE_INTERNAL_H
#define TFAOT_TEST_E2E_TFJS_COMPARE_INTERNAL_H

#include "compare.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tfjs_compare {

namespace fs = std::filesystem;
using tfaot::BufferInfo;
using tfaot::DType;

/// The Config compareMain() was given.
const Config &config();

/// Prints `msg` as the comparison's error and exits with status 2.
[[noreturn]] void fatal(const std::string &msg);

//===--- compare_json.cpp ---------------------------------------------------===//

/// A parsed JSON value (for the oracle's outputs.json).
struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> arr;
  std::vector<std::pair<std::string, Json>> obj;

  const Json *get(const std::string &key) const {
    for (const auto &kv : obj)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
};

/// Parses `text` into `out`; false with `error` (and its offset) if it is
/// not one JSON value.
bool parseJson(const std::string &text, Json &out, std::string &error);

/// `s` as a JSON string literal.
std::string jsonQuote(const std::string &s);

//===--- compare_values.cpp -------------------------------------------------===//

std::string shellQuote(const std::string &s);
/// "[d0,d1,...]".
std::string shapeString(const std::vector<int64_t> &dims);
std::vector<int64_t> dimsOf(const BufferInfo &b);
/// "'name' dtype[shape]".
std::string describe(const BufferInfo &b);
/// Multi-index of flat element `flat` in row-major `dims`.
std::string indexString(int64_t flat, const std::vector<int64_t> &dims);
/// `v` with 9 significant digits.
std::string fmt(double v);
/// A duration in milliseconds, "0.060 ms" or "5.9 ms".
std::string fmtMs(double ms);
bool writeFile(const fs::path &p, const void *data, size_t n);
bool readFile(const fs::path &p, std::string &out);

bool isFloat(DType d);
/// Element i of a buffer of dtype d, as a double.
double elementAt(const void *data, DType d, int64_t i);

/// splitmix64: tiny, and the same on every platform and standard library
/// (std:: distributions are not).
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

struct Range {
  double lo, hi;
};

/// The values argument `b` is drawn from (lo == hi: a fixed input).
Range inputRange(const BufferInfo &b);
/// Fills argument `b`'s buffer `data` from `rng`, uniform in inputRange(b).
void fillArgument(void *data, const BufferInfo &b, Rng &rng);

/// Runs `cmd` with the shell; its exit status (128 + signal if killed).
int runCommand(const std::string &cmd);
double msSince(std::chrono::steady_clock::time_point t0);

//===--- compare.cpp --------------------------------------------------------===//

/// The command line's options; parseOptions() starts from the Config's
/// values.
struct Options {
  uint64_t seed = 0;
  double rtol = 0;
  double atol = 0;
  std::string work;
  std::string model;
  bool verbose = false;
  bool sensitivity = false;
};

//===--- compare_oracle.cpp -------------------------------------------------===//

/// in.json for the oracle: every argument's name, dtype, shape and file,
/// and the results' names as the outputs to compute.
std::string inputsJson(const tfaot::FunctionInfo &info,
                       const std::vector<fs::path> &files);

/// What one oracle run wrote: outputs.json, parsed and checked against the
/// compiled function's results.
struct OracleRun {
  fs::path dir, json_file;
  Json json;
  double wall_ms = 0;
  const Json &output(int r) const { return json.get("outputs")->arr[r]; }
};

/// Reads and checks what an oracle run wrote to `out_dir`.
OracleRun loadOracle(const tfaot::FunctionInfo &info, const fs::path &out_dir);

/// Runs the oracle on `in_file`, writing to `out_dir`, and loads the result.
OracleRun runOracle(const Options &opt, const tfaot::FunctionInfo &info,
                    const fs::path &in_file, const fs::path &out_dir);

/// Result r of an oracle run, as doubles. A shape or dtype that differs
/// from the compiled function's is a test failure (printed, nullopt); a
/// malformed output description is fatal.
std::optional<std::vector<double>>
oracleResult(const OracleRun &run, int r, const BufferInfo &b,
             const std::string &label);

/// The float32 arguments moved by one ulp each, up or down at random (the
/// other arguments as they are), for the sensitivity run.
std::vector<fs::path> writePerturbedInputs(const tfaot::FunctionInfo &info,
                                           tfaot::CompiledFunction &model,
                                           const fs::path &in_dir,
                                           uint64_t seed);

/// A CUDA build's argument must be the byte-for-byte same as the one the
/// CPU test wrote (same generator, same seed), or its oracle outputs are
/// for other inputs.
void checkSavedInput(const fs::path &file, const void *data, size_t bytes);

}  // namespace tfjs_compare

#endif  // TFAOT_TEST_E2E_TFJS_COMPARE_INTERNAL_H
