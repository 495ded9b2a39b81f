//===- compare_values.cpp - Text, files, element values, inputs -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// The small pieces every step uses: quoting and formatting, whole-file
// reads and writes, reading any dtype's elements as doubles, and the
// deterministic inputs (splitmix64 stream, per-dtype ranges, fixed inputs).
//
//===----------------------------------------------------------------------===//

#include "compare_internal.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#if !defined(_WIN32)
#include <sys/wait.h>
#endif

namespace tfjs_compare {

//===--- text and files -------------------------------------------------------===//

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

namespace {

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

}  // namespace

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

namespace {

// Config::fixed_inputs: "name=value,name=value" (arguments held at one
// value, e.g. a dropout keep probability of 1, which makes the graph
// deterministic).
std::optional<double> fixedInput(const std::string &name) {
  if (!config().fixed_inputs) return std::nullopt;
  std::stringstream list(config().fixed_inputs);
  for (std::string item; std::getline(list, item, ',');) {
    size_t eq = item.find('=');
    if (eq != std::string::npos && item.substr(0, eq) == name)
      return std::strtod(item.c_str() + eq + 1, nullptr);
  }
  return std::nullopt;
}

}  // namespace

Range inputRange(const BufferInfo &b) {
  if (std::optional<double> v = fixedInput(b.name)) return {*v, *v};
  if (config().has_input_range)
    return {config().input_low, config().input_high};
  DType d = b.dtype;
  if (d == DType::kBool) return {0, 2};
  return isFloat(d) ? Range{0, 1} : Range{0, 10};
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

//===--- processes and time ---------------------------------------------------===//

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

}  // namespace tfjs_compare
