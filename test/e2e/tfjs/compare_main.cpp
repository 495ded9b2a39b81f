//===- test/e2e/tfjs/compare_main.cpp - tfaot vs the TF.js oracle ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// One generic program, built once per model by tfaot_tfjs_compare() in
// CMakeLists.txt with
//
//   -DTFAOT_MODEL_HEADER="<name>.h" -DTFAOT_MODEL_CLASS=tfjs::<Name>
//   -DTFAOT_TFJS_NAME="<name>" -DTFAOT_TFJS_MODEL="<model.json>"
//   -DTFAOT_TFJS_NODE="<node>" -DTFAOT_TFJS_ORACLE="<repo>/tools/tfjs-oracle/run.js"
//   -DTFAOT_TFJS_WORK_DIR="<scratch dir>"
//   [-DTFAOT_TFJS_RTOL=r] [-DTFAOT_TFJS_ATOL=a] [-DTFAOT_TFJS_SEED=s]
//   [-DTFAOT_TFJS_INPUT_LOW=lo -DTFAOT_TFJS_INPUT_HIGH=hi]
//   [-DTFAOT_TFJS_SENSITIVITY=1] [-DTFAOT_TFJS_FIXED_INPUTS="name=v,..."]
//
// It knows the model only through the generated class's FunctionInfo
// (StaticInfo(): names, dtypes, shapes of every argument and result) and:
//   1. fills every argument with deterministic pseudo-random data (fixed
//      seed; floats uniform in [0,1), integers uniform in [0,10), bools
//      0/1, unless INPUT_LOW/HIGH say otherwise; FIXED_INPUTS name
//      arguments that hold one value everywhere);
//   2. writes them as raw files plus in.json, and runs the TF.js oracle
//      (node run.js --model ... --inputs in.json --out oracle/) on them,
//      asking it for the results' names;
//   3. runs the compiled function on the same data;
//   4. compares every result with the oracle's: shape exactly, values with
//      numpy.allclose semantics |got - want| <= atol + rtol * |want| (NaN
//      matches NaN), reporting max abs / rel error and the worst element;
//   5. runs the function again on 2 threads (set_num_threads) and on a
//      shared pool of 3, and requires results bit-identical to step 3's.
// With SENSITIVITY, step 2 runs the oracle a second time on the float
// arguments moved by one ulp each (up or down at random), and a result's
// atol becomes max(atol, 2 * the largest change that caused in TF.js's own
// output): a network that amplifies rounding (deep, large weights) cannot
// be held to a tighter bound than its own float32 conditioning, and the
// oracle measures that bound rather than a hand-picked tolerance hiding it.
// Built with -DTFAOT_TFJS_CUDA=1 against the model's --target=cuda class
// (the tests gpu.tfjs.<name>), it runs no oracle: step 1 checks that the
// inputs it generates are the ones the CPU build saved in the work
// directory, step 2 reads the oracle outputs saved there, and step 5 runs
// the model a second time (weights and kernels already on the GPU),
// requiring the first run's results bit for bit. Without a GPU it exits 77
// (ctest SKIP).
// Exit status: 0 all match, 1 a mismatch, 2 the comparison could not be run
// (oracle failed, bad output files, ...), 77 no GPU (CUDA builds).
//
// Options (for debugging by hand): --seed N, --rtol R, --atol A, --work DIR,
// --model FILE (another TF.js model.json for the oracle), --sensitivity (as
// SENSITIVITY above), --verbose (oracle
// progress, and every mismatching element up to 20 per result).
//
//===----------------------------------------------------------------------===//

#include TFAOT_MODEL_HEADER

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#if !defined(_WIN32)
#include <sys/wait.h>
#endif

#ifndef TFAOT_TFJS_RTOL
#define TFAOT_TFJS_RTOL 1e-4
#endif
#ifndef TFAOT_TFJS_ATOL
#define TFAOT_TFJS_ATOL 1e-4
#endif
#ifndef TFAOT_TFJS_SEED
#define TFAOT_TFJS_SEED 20240229
#endif
#ifndef TFAOT_TFJS_NODE
#define TFAOT_TFJS_NODE "node"
#endif
#if !defined(TFAOT_TFJS_NAME) || !defined(TFAOT_TFJS_MODEL) ||               \
    !defined(TFAOT_TFJS_ORACLE) || !defined(TFAOT_TFJS_WORK_DIR)
#error "define TFAOT_TFJS_NAME, _MODEL, _ORACLE and _WORK_DIR (see CMakeLists.txt)"
#endif

namespace fs = std::filesystem;

#ifdef TFAOT_TFJS_CUDA
// A --target=cuda build of the model: TF.js is not run again; the CPU
// test's saved inputs and oracle outputs are (see CMakeLists.txt).
constexpr bool kCuda = true;
#else
constexpr bool kCuda = false;
#endif

namespace {

using tfaot::BufferInfo;
using tfaot::DType;

[[noreturn]] void fatal(const std::string &msg) {
  std::cerr << "tfjs-compare " << TFAOT_TFJS_NAME << ": error: " << msg
            << "\n";
  std::exit(2);
}

//===--- a minimal JSON reader (for the oracle's outputs.json) -------------===//

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

class JsonParser {
public:
  explicit JsonParser(const std::string &text) : s_(text) {}

  bool parse(Json &out, std::string &error) {
    if (!value(out, 0) || (ws(), pos_ != s_.size())) {
      error = error_.empty() ? "trailing characters" : error_;
      error += " at offset " + std::to_string(pos_);
      return false;
    }
    return true;
  }

private:
  void ws() {
    while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_])) ++pos_;
  }
  bool fail(const char *msg) {
    if (error_.empty()) error_ = msg;
    return false;
  }
  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (s_.compare(pos_, n, word) != 0) return fail("bad literal");
    pos_ += n;
    return true;
  }
  bool string(std::string &out) {
    if (s_[pos_] != '"') return fail("expected a string");
    ++pos_;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        std::string hex = s_.substr(pos_, 4);
        char *end = nullptr;
        unsigned cp = static_cast<unsigned>(std::strtoul(hex.c_str(), &end, 16));
        if (hex.size() != 4 || end != hex.c_str() + 4)
          return fail("bad \\u escape");
        pos_ += 4;
        // Node names are ASCII; keep anything else as UTF-8 (BMP only).
        if (cp < 0x80) {
          out += static_cast<char>(cp);
        } else if (cp < 0x800) {
          out += static_cast<char>(0xC0 | (cp >> 6));
          out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
          out += static_cast<char>(0xE0 | (cp >> 12));
          out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (cp & 0x3F));
        }
        break;
      }
      default: out += e; break;  // \" \\ \/
      }
    }
    if (pos_ >= s_.size()) return fail("unterminated string");
    ++pos_;
    return true;
  }
  bool value(Json &out, int depth) {
    if (depth > 64) return fail("nested too deeply");
    ws();
    if (pos_ >= s_.size()) return fail("unexpected end");
    char c = s_[pos_];
    if (c == '{') {
      out.kind = Json::kObject;
      ++pos_;
      ws();
      if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
      while (true) {
        ws();
        std::string key;
        if (pos_ >= s_.size() || !string(key)) return fail("expected a key");
        ws();
        if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':'");
        ++pos_;
        out.obj.emplace_back(std::move(key), Json());
        if (!value(out.obj.back().second, depth + 1)) return false;
        ws();
        if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      out.kind = Json::kArray;
      ++pos_;
      ws();
      if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
      while (true) {
        out.arr.emplace_back();
        if (!value(out.arr.back(), depth + 1)) return false;
        ws();
        if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      out.kind = Json::kString;
      return string(out.str);
    }
    if (c == 't') return out.kind = Json::kBool, out.b = true, literal("true");
    if (c == 'f') return out.kind = Json::kBool, out.b = false, literal("false");
    if (c == 'n') return out.kind = Json::kNull, literal("null");
    const char *begin = s_.c_str() + pos_;
    char *end = nullptr;
    out.num = std::strtod(begin, &end);
    if (end == begin) return fail("unexpected character");
    out.kind = Json::kNumber;
    pos_ += end - begin;
    return true;
  }

  const std::string &s_;
  size_t pos_ = 0;
  std::string error_;
};

//===--- helpers ------------------------------------------------------------===//

std::string jsonQuote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string shapeString(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

std::vector<int64_t> dimsOf(const BufferInfo &b) {
  return std::vector<int64_t>(b.dims, b.dims + b.rank);
}

std::string describe(const BufferInfo &b) {
  return std::string("'") + b.name + "' " + tfaot::DTypeName(b.dtype) +
         shapeString(dimsOf(b));
}

// Multi-index of flat element `flat` in row-major `dims`.
std::string indexString(int64_t flat, const std::vector<int64_t> &dims) {
  if (dims.empty()) return "[]";
  std::vector<int64_t> idx(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    int64_t d = dims[i] > 0 ? dims[i] : 1;
    idx[i] = flat % d;
    flat /= d;
  }
  return shapeString(idx);
}

std::string fmt(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string fmtMs(double ms) {
  char buf[40];
  std::snprintf(buf, sizeof buf, ms < 1 ? "%.3f ms" : "%.1f ms", ms);
  return buf;
}

bool writeFile(const fs::path &p, const void *data, size_t n) {
  std::ofstream f(p, std::ios::binary);
  f.write(static_cast<const char *>(data), static_cast<std::streamsize>(n));
  return static_cast<bool>(f);
}

bool readFile(const fs::path &p, std::string &out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

//===--- element conversion ---------------------------------------------------===//

// IEEE binary16 <-> float (round to nearest even), for float16 buffers.
float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  if (exp == 0) {
    float f = std::ldexp(static_cast<float>(man), -24);
    return sign ? -f : f;
  }
  uint32_t bits = exp == 0x1F ? sign | 0x7F800000u | (man << 13)
                              : sign | ((exp + 112) << 23) | (man << 13);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  float a = std::fabs(f);
  if (std::isnan(f)) return sign | 0x7E00;
  if (a >= 65520.0f) return sign | 0x7C00;
  if (a < std::ldexp(1.0f, -14)) {  // subnormal
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  }
  int e;
  float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  uint32_t man = static_cast<uint32_t>(std::nearbyint((m * 2 - 1) * 1024));
  uint32_t exp = static_cast<uint32_t>(e - 1 + 15);
  if (man == 1024) { man = 0; ++exp; }
  return sign | static_cast<uint16_t>((exp << 10) | man);
}

float bf16ToFloat(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToBf16(float f) {  // round to nearest even
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7FFF + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

bool isFloat(DType d) {
  return d == DType::kFloat32 || d == DType::kFloat64 ||
         d == DType::kFloat16 || d == DType::kBFloat16;
}

// Element i of a buffer of dtype d, as a double.
double elementAt(const void *data, DType d, int64_t i) {
  auto p = static_cast<const unsigned char *>(data);
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p + i * sizeof v, sizeof v);
    return v;
  };
  switch (d) {
  case DType::kFloat32: return load(float{});
  case DType::kFloat64: return load(double{});
  case DType::kFloat16: return halfToFloat(load(uint16_t{}));
  case DType::kBFloat16: return bf16ToFloat(load(uint16_t{}));
  case DType::kInt8: return load(int8_t{});
  case DType::kInt16: return load(int16_t{});
  case DType::kInt32: return load(int32_t{});
  case DType::kInt64: return static_cast<double>(load(int64_t{}));
  case DType::kUInt8: return load(uint8_t{});
  case DType::kUInt16: return load(uint16_t{});
  case DType::kUInt32: return load(uint32_t{});
  case DType::kUInt64: return static_cast<double>(load(uint64_t{}));
  case DType::kBool: return load(uint8_t{}) ? 1.0 : 0.0;
  case DType::kQInt8: return load(int8_t{});
  case DType::kQUInt8: return load(uint8_t{});
  case DType::kQInt16: return load(int16_t{});
  case DType::kQUInt16: return load(uint16_t{});
  case DType::kQInt32: return load(int32_t{});
  case DType::kString: break;  // Never a compared result.
  }
  return std::nan("");
}

//===--- deterministic inputs -------------------------------------------------===//

// splitmix64: tiny, and the same on every platform and standard library
// (std:: distributions are not).
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

// FIXED_INPUTS: "name=value,name=value" (arguments held at one value, e.g.
// a dropout keep probability of 1, which makes the graph deterministic).
std::optional<double> fixedInput(const std::string &name) {
#ifdef TFAOT_TFJS_FIXED_INPUTS
  std::stringstream list(TFAOT_TFJS_FIXED_INPUTS);
  for (std::string item; std::getline(list, item, ',');) {
    size_t eq = item.find('=');
    if (eq != std::string::npos && item.substr(0, eq) == name)
      return std::strtod(item.c_str() + eq + 1, nullptr);
  }
#else
  (void)name;
#endif
  return std::nullopt;
}

Range inputRange(const BufferInfo &b) {
  if (std::optional<double> v = fixedInput(b.name)) return {*v, *v};
  DType d = b.dtype;
#if defined(TFAOT_TFJS_INPUT_LOW) && defined(TFAOT_TFJS_INPUT_HIGH)
  (void)d;
  return {static_cast<double>(TFAOT_TFJS_INPUT_LOW),
          static_cast<double>(TFAOT_TFJS_INPUT_HIGH)};
#else
  if (d == DType::kBool) return {0, 2};
  return isFloat(d) ? Range{0, 1} : Range{0, 10};
#endif
}

void fillArgument(void *data, const BufferInfo &b, Rng &rng) {
  auto p = static_cast<unsigned char *>(data);
  Range r = inputRange(b);
  auto store = [&](int64_t i, auto v) { std::memcpy(p + i * sizeof v, &v, sizeof v); };
  for (int64_t i = 0; i < b.num_elements; ++i) {
    double u = r.lo + (r.hi - r.lo) * rng.uniform();
    // Integers: uniform over the integers in [lo, hi).
    double k = std::floor(u);
    switch (b.dtype) {
    case DType::kFloat32: store(i, static_cast<float>(u)); break;
    case DType::kFloat64: store(i, u); break;
    case DType::kFloat16: store(i, floatToHalf(static_cast<float>(u))); break;
    case DType::kBFloat16: store(i, floatToBf16(static_cast<float>(u))); break;
    case DType::kInt8: store(i, static_cast<int8_t>(k)); break;
    case DType::kInt16: store(i, static_cast<int16_t>(k)); break;
    case DType::kInt32: store(i, static_cast<int32_t>(k)); break;
    case DType::kInt64: store(i, static_cast<int64_t>(k)); break;
    case DType::kUInt8: store(i, static_cast<uint8_t>(k)); break;
    case DType::kUInt16: store(i, static_cast<uint16_t>(k)); break;
    case DType::kUInt32: store(i, static_cast<uint32_t>(k)); break;
    case DType::kUInt64: store(i, static_cast<uint64_t>(k)); break;
    case DType::kBool: store(i, static_cast<uint8_t>(k != 0)); break;
    case DType::kQInt8: store(i, static_cast<int8_t>(k)); break;
    case DType::kQUInt8: store(i, static_cast<uint8_t>(k)); break;
    case DType::kQInt16: store(i, static_cast<int16_t>(k)); break;
    case DType::kQUInt16: store(i, static_cast<uint16_t>(k)); break;
    case DType::kQInt32: store(i, static_cast<int32_t>(k)); break;
    case DType::kString: break;  // No compared model takes a string.
    }
  }
}

//===--- comparison -----------------------------------------------------------===//

struct Stats {
  int64_t mismatches = 0;
  double max_abs = 0, max_rel = 0;
  int64_t max_abs_at = -1, max_rel_at = -1;
  double worst_ratio = -1;  // |err| / (atol + rtol*|want|)
  int64_t worst_at = -1;
  double worst_got = 0, worst_want = 0;
};

// numpy.allclose's test, with NaN == NaN and equal infinities matching.
bool close(double got, double want, double rtol, double atol, double &ratio) {
  if (std::isnan(got) || std::isnan(want)) {
    ratio = std::isnan(got) && std::isnan(want) ? 0 : INFINITY;
    return ratio == 0;
  }
  if (std::isinf(got) || std::isinf(want)) {
    ratio = got == want ? 0 : INFINITY;
    return ratio == 0;
  }
  double err = std::fabs(got - want);
  double tol = atol + rtol * std::fabs(want);
  ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
  return err <= tol;
}

struct Options {
  uint64_t seed = TFAOT_TFJS_SEED;
  double rtol = TFAOT_TFJS_RTOL;
  double atol = TFAOT_TFJS_ATOL;
  std::string work = TFAOT_TFJS_WORK_DIR;
  std::string model = TFAOT_TFJS_MODEL;
  bool verbose = false;
#ifdef TFAOT_TFJS_SENSITIVITY
  bool sensitivity = true;
#else
  bool sensitivity = false;
#endif
};

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fatal(a + " needs a value");
      return argv[++i];
    };
    auto number = [&]() {
      std::string v = value();
      char *end = nullptr;
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(d >= 0))
        fatal(a + ": '" + v + "' is not a non-negative number");
      return d;
    };
    if (a == "--seed") o.seed = static_cast<uint64_t>(number());
    else if (a == "--rtol") o.rtol = number();
    else if (a == "--atol") o.atol = number();
    else if (a == "--work") o.work = value();
    else if (a == "--model") o.model = value();
    else if (a == "--verbose" || a == "-v") o.verbose = true;
    else if (a == "--sensitivity") o.sensitivity = true;
    else if (a == "--help" || a == "-h") {
      std::cout << "usage: " << argv[0]
                << " [--seed N] [--rtol R] [--atol A] [--work DIR]"
                   " [--model MODEL.json] [--sensitivity] [--verbose]\n";
      std::exit(0);
    } else {
      fatal("unknown argument '" + a + "' (try --help)");
    }
  }
  return o;
}

int runCommand(const std::string &cmd) {
  int status = std::system(cmd.c_str());
#if !defined(_WIN32)
  if (status == -1) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
#else
  return status;
#endif
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

//===--- the oracle -----------------------------------------------------------===//

// in.json for the oracle: every argument's name, dtype, shape and file, and
// the results' names as the outputs to compute.
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

// What one oracle run wrote: outputs.json, parsed and checked against the
// compiled function's results.
struct OracleRun {
  fs::path dir, json_file;
  Json json;
  double wall_ms = 0;
  const Json &output(int r) const { return json.get("outputs")->arr[r]; }
};

// Reads and checks what an oracle run wrote to `out_dir`.
OracleRun loadOracle(const tfaot::FunctionInfo &info, const fs::path &out_dir) {
  OracleRun run;
  run.dir = out_dir;
  run.json_file = out_dir / "outputs.json";
  std::string text, error;
  if (!readFile(run.json_file, text))
    fatal("cannot read " + run.json_file.string());
  if (!JsonParser(text).parse(run.json, error))
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
  std::string cmd = shellQuote(TFAOT_TFJS_NODE) + " " +
                    shellQuote(TFAOT_TFJS_ORACLE) + " --model " +
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
                                           TFAOT_MODEL_CLASS &model,
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
          TFAOT_TFJS_NAME + " first (it saves the inputs and TF.js's outputs)");
  if (saved.size() != bytes || std::memcmp(saved.data(), data, bytes) != 0)
    fatal(file.string() + " is not the input generated here (another seed "
          "or model?): rerun the CPU test e2e.tfjs." TFAOT_TFJS_NAME);
}

}  // namespace

/// The bytes of every result, to compare a rerun with.
std::vector<std::vector<char>> resultBytes(TFAOT_MODEL_CLASS &model,
                                           const tfaot::FunctionInfo &info) {
  std::vector<std::vector<char>> bytes;
  for (int r = 0; r < info.num_results; ++r) {
    const char *data = static_cast<const char *>(model.result_data(r));
    bytes.emplace_back(data, data + info.results[r].size_bytes);
  }
  return bytes;
}

/// Clears the results (so that one the rerun does not write cannot pass),
/// runs `model` again and returns how many results differ from `before`,
/// printing "FAIL result<r>" + `differs` for each; `runName` names the run
/// in the error if Run() fails. `ms` is the rerun's time.
int rerunAndCompare(TFAOT_MODEL_CLASS &model, const tfaot::FunctionInfo &info,
                    const std::vector<std::vector<char>> &before,
                    const std::string &runName, const std::string &differs,
                    double &ms) {
  for (int r = 0; r < info.num_results; ++r)
    std::memset(model.result_data(r), 0, info.results[r].size_bytes);
  auto t0 = std::chrono::steady_clock::now();
  if (!model.Run()) fatal(runName + " failed: " + model.error_msg());
  ms = msSince(t0);
  int differing = 0;
  for (int r = 0; r < info.num_results; ++r)
    if (std::memcmp(model.result_data(r), before[r].data(), before[r].size()) != 0) {
      std::cout << "  FAIL result" << r << differs << "\n";
      ++differing;
    }
  return differing;
}

/// Runs `model` again; returns how many results differ from the first
/// run's, reporting each.
int checkSecondRun(TFAOT_MODEL_CLASS &model, const tfaot::FunctionInfo &info) {
  double ms = 0;
  int differing =
      rerunAndCompare(model, info, resultBytes(model, info), "the second Run()",
                      " of the second Run() differs from the first", ms);
  if (!differing)
    std::cout << "  ok   second Run(): results bit-identical to the first, "
              << fmtMs(ms) << "\n";
  return differing;
}

/// Reruns `model` on 2 and 3 threads; returns how many results differed
/// from the single-threaded run's, reporting each.
int checkThreadCounts(TFAOT_MODEL_CLASS &model, const tfaot::FunctionInfo &info) {
  const std::vector<std::vector<char>> single = resultBytes(model, info);
  tfaot::ThreadPool shared(3);
  int differing = 0;
  for (int threads : {2, 3}) {
    if (threads == 2) {
      if (!model.set_num_threads(2)) fatal(model.error_msg());
    } else {
      model.set_thread_pool(&shared);
    }
    std::string on = " on " + std::to_string(threads) + " threads";
    double ms = 0;
    int differ = rerunAndCompare(model, info, single, "Run()" + on,
                                 on + " differs from the single-threaded run", ms);
    if (!differ)
      std::cout << "  ok   " << threads << " threads ("
                << (threads == 2 ? "set_num_threads" : "a shared pool")
                << "): results bit-identical to 1 thread, Run() " << fmtMs(ms)
                << "\n";
    differing += differ;
  }
  model.set_thread_pool(nullptr);
  return differing;
}

int main(int argc, char **argv) {
  Options opt = parseOptions(argc, argv);
  const tfaot::FunctionInfo &info = TFAOT_MODEL_CLASS::StaticInfo();
  std::cout << "tfaot" << (kCuda ? " --target=cuda" : "")
            << " vs TF.js oracle: " << TFAOT_TFJS_NAME << " ("
            << info.class_name << ")\n"
            << "  model " << opt.model << "\n"
            << "  seed " << opt.seed << ", rtol " << opt.rtol << ", atol "
            << opt.atol << (opt.sensitivity ? ", widened to 2x TF.js's one-ulp sensitivity" : "")
            << "\n";

  // Fresh scratch directory: a stale oracle output must never be compared.
  // (A CUDA build reads the CPU test's instead, after checking that its
  // inputs are the ones generated here.)
  fs::path work = opt.work;
  fs::path in_dir = work / "inputs", out_dir = work / "oracle",
           ulp_dir = work / "oracle_ulp";
  std::error_code ec;
  if (!kCuda) {
    for (const fs::path &d : {in_dir, out_dir, ulp_dir}) fs::remove_all(d, ec);
    fs::create_directories(in_dir, ec);
    if (ec) fatal("cannot create " + in_dir.string() + ": " + ec.message());
  }

  // 1. Deterministic arguments, in the instance's own buffers.
  auto model = std::make_unique<TFAOT_MODEL_CLASS>();
  Rng rng{opt.seed};
  std::vector<fs::path> files;
  for (int i = 0; i < info.num_args; ++i) {
    const BufferInfo &b = info.args[i];
    void *data = model->arg_data(i);
    if (!data) fatal("argument " + std::to_string(i) + " has no buffer");
    fillArgument(data, b, rng);
    files.push_back(in_dir / ("arg" + std::to_string(i) + ".bin"));
    if (kCuda)
      checkSavedInput(files.back(), data, b.size_bytes);
    else if (!writeFile(files.back(), data, b.size_bytes))
      fatal("cannot write " + files.back().string());
    Range r = inputRange(b);
    std::cout << "  arg" << i << "    " << describe(b);
    if (r.lo == r.hi)
      std::cout << " = " << r.lo << "\n";
    else
      std::cout << " uniform [" << r.lo << "," << r.hi << ")\n";
  }
  fs::path in_file = work / "in.json";
  std::string in_text = inputsJson(info, files);
  if (!kCuda && !writeFile(in_file, in_text.data(), in_text.size()))
    fatal("cannot write " + in_file.string());

  // 2. The oracle (twice with --sensitivity).
  OracleRun oracle = kCuda ? loadOracle(info, out_dir)
                           : runOracle(opt, info, in_file, out_dir);
  if (!kCuda) {
    auto str = [&](const char *k) {
      const Json *v = oracle.json.get(k);
      return v && v->kind == Json::kString ? v->str : std::string("?");
    };
    auto num = [&](const char *k) {
      const Json *t = oracle.json.get("timing_ms");
      const Json *v = t ? t->get(k) : nullptr;
      return v && v->kind == Json::kNumber ? fmtMs(v->num) : std::string("?");
    };
    std::cout << "  oracle  TF.js " << str("tfjs_version") << " ("
              << str("backend") << ", " << str("method") << "): inference "
              << num("execute") << ", model load " << num("load") << ", "
              << fmtMs(oracle.wall_ms) << " wall with node's start-up\n";
  }
  std::optional<OracleRun> perturbed;
  if (opt.sensitivity && kCuda) {
    perturbed = loadOracle(info, ulp_dir);
  } else if (opt.sensitivity) {
    std::vector<fs::path> ulp_files =
        writePerturbedInputs(info, *model, in_dir, opt.seed);
    fs::path ulp_in = work / "in_ulp.json";
    std::string ulp_text = inputsJson(info, ulp_files);
    if (!writeFile(ulp_in, ulp_text.data(), ulp_text.size()))
      fatal("cannot write " + ulp_in.string());
    perturbed = runOracle(opt, info, ulp_in, ulp_dir);
  }

  // 3. The compiled function.
  auto t0 = std::chrono::steady_clock::now();
  if (!model->Run()) {
    std::string why = model->error_msg();
    if (kCuda && (why.rfind("no CUDA driver", 0) == 0 ||
                  why.rfind("no CUDA device", 0) == 0)) {
      std::cout << "SKIP: needs a GPU: " << why << "\n";
      return 77;
    }
    fatal("Run() failed: " + why);
  }
  std::cout << "  tfaot   Run(): " << fmtMs(msSince(t0))
            << (kCuda ? " (the first: context, weights and kernels set up)" : "")
            << "\n";

  // 4. Compare.
  int failed = 0;
  for (int r = 0; r < info.num_results; ++r) {
    const BufferInfo &b = info.results[r];
    std::string label = "result" + std::to_string(r) + " " + describe(b);
    std::optional<std::vector<double>> want = oracleResult(oracle, r, b, label);
    if (!want) {
      ++failed;
      continue;
    }
    double atol = opt.atol;
    if (perturbed) {
      std::optional<std::vector<double>> moved =
          oracleResult(*perturbed, r, b, label + " (one ulp off)");
      if (!moved) fatal(std::string("the oracle's two runs disagree on result ") + b.name);
      double sensitivity = 0;
      for (int64_t i = 0; i < b.num_elements; ++i) {
        double d = std::fabs((*moved)[i] - (*want)[i]);
        if (!std::isnan(d)) sensitivity = std::max(sensitivity, d);
      }
      if (2 * sensitivity > atol) {
        atol = 2 * sensitivity;
        std::cout << "  note " << label << ": atol " << fmt(atol)
                  << ": TF.js's own output moves by up to " << fmt(sensitivity)
                  << " when the inputs move one ulp\n";
      }
    }

    Stats s;
    const void *got_data = model->result_data(r);
    std::vector<int64_t> dims = dimsOf(b);
    std::vector<std::string> shown;  // first mismatches, for --verbose
    for (int64_t i = 0; i < b.num_elements; ++i) {
      double got = elementAt(got_data, b.dtype, i);
      double want_i = (*want)[i];
      double ratio;
      bool ok = close(got, want_i, opt.rtol, atol, ratio);
      double abs_err = std::fabs(got - want_i);
      if (!std::isnan(abs_err)) {
        if (abs_err > s.max_abs || s.max_abs_at < 0) s.max_abs = abs_err, s.max_abs_at = i;
        if (want_i != 0) {
          double rel = abs_err / std::fabs(want_i);
          if (rel > s.max_rel || s.max_rel_at < 0) s.max_rel = rel, s.max_rel_at = i;
        }
      }
      if (ratio > s.worst_ratio) {
        s.worst_ratio = ratio;
        s.worst_at = i;
        s.worst_got = got;
        s.worst_want = want_i;
      }
      if (!ok) {
        ++s.mismatches;
        if (opt.verbose && shown.size() < 20)
          shown.push_back(indexString(i, dims) + ": tfaot " + fmt(got) +
                          ", oracle " + fmt(want_i));
      }
    }
    std::cout << "  " << (s.mismatches ? "FAIL " : "ok   ") << label
              << ": max abs err " << fmt(s.max_abs);
    if (s.max_abs_at >= 0) std::cout << " at " << indexString(s.max_abs_at, dims);
    std::cout << ", max rel err " << fmt(s.max_rel);
    if (s.max_rel_at >= 0) std::cout << " at " << indexString(s.max_rel_at, dims);
    std::cout << "\n";
    if (s.mismatches) {
      std::cout << "         " << s.mismatches << " of " << b.num_elements
                << " elements differ; worst " << indexString(s.worst_at, dims)
                << ": tfaot " << fmt(s.worst_got) << ", oracle "
                << fmt(s.worst_want) << " (|err| "
                << fmt(std::fabs(s.worst_got - s.worst_want)) << " > atol + rtol*|oracle| = "
                << fmt(atol + opt.rtol * std::fabs(s.worst_want)) << ")\n";
      for (const std::string &line : shown) std::cout << "         " << line << "\n";
      ++failed;
    }
  }
  // 5. Threads: the same arguments on the instance's own pool of 2 threads,
  // then on a shared pool of 3, must give the single-threaded results bit
  // for bit (each parallel loop's iterations compute what they computed in
  // one thread, whatever thread runs them).
  // On the GPU: a second Run(), with the weights and kernels already on the
  // device, must give the first one's results bit for bit.
  failed += kCuda ? checkSecondRun(*model, info) : checkThreadCounts(*model, info);
  if (failed) {
    std::cout << "FAIL: " << failed << " of " << info.num_results
              << " result(s) differ from TF.js or across "
              << (kCuda ? "runs" : "thread counts") << " (inputs "
                 "and oracle outputs in "
              << work.string() << ")\n";
    return 1;
  }
  std::cout << "PASS: " << info.num_results << " result(s) match TF.js\n";
  return 0;
}
