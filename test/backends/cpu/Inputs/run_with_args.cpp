// SPDX-License-Identifier: Apache-2.0
// Runs a generated class on arguments given on the command line and prints
// what Run() returned, error_msg() and every result ("name: v0 v1 ..."),
// using only the class's FunctionInfo tables. Command-line argument i is
// model argument i as comma-separated values ("0,4,-1"; strtod's "nan",
// "inf", "-inf" for floats); int64 values are parsed as integers so that
// ones past 2^53 stay exact. Build with
//   -DMODEL_HEADER='"x.h"' -DMODEL_CLASS=ns::X
#include MODEL_HEADER

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

static bool setElement(void *data, tfaot::DType dtype, int64_t i,
                       const std::string &text) {
  const char *s = text.c_str();
  switch (dtype) {
  case tfaot::DType::kFloat32:
    static_cast<float *>(data)[i] = std::strtof(s, nullptr);
    return true;
  case tfaot::DType::kInt32:
    static_cast<int32_t *>(data)[i] = std::strtol(s, nullptr, 10);
    return true;
  case tfaot::DType::kInt64:
    static_cast<int64_t *>(data)[i] = std::strtoll(s, nullptr, 10);
    return true;
  default:
    return false;
  }
}

static void print(const void *data, tfaot::DType dtype, int64_t i) {
  switch (dtype) {
  case tfaot::DType::kFloat32:
    std::printf(" %.6g", static_cast<const float *>(data)[i]);
    break;
  case tfaot::DType::kInt32:
    std::printf(" %d", static_cast<const int32_t *>(data)[i]);
    break;
  case tfaot::DType::kInt64:
    std::printf(" %" PRId64, static_cast<const int64_t *>(data)[i]);
    break;
  default:
    std::printf(" ?");
  }
}

int main(int argc, char **argv) {
  MODEL_CLASS model;
  if (argc != model.num_args() + 1) {
    std::fprintf(stderr, "usage: %s", argv[0]);
    for (int a = 0; a < model.num_args(); ++a)
      std::fprintf(stderr, " %s", model.arg_info(a).name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  for (int a = 0; a < model.num_args(); ++a) {
    const tfaot::BufferInfo &info = model.arg_info(a);
    std::string values = argv[a + 1];
    int64_t i = 0;
    for (size_t start = 0; start <= values.size(); ++i) {
      size_t comma = values.find(',', start);
      if (comma == std::string::npos)
        comma = values.size();
      if (i >= info.num_elements ||
          !setElement(model.arg_data(a), info.dtype, i,
                      values.substr(start, comma - start))) {
        std::fprintf(stderr, "bad values for %s\n", info.name);
        return 2;
      }
      start = comma + 1;
    }
    if (i != info.num_elements) {
      std::fprintf(stderr, "%s needs %lld values\n", info.name,
                   static_cast<long long>(info.num_elements));
      return 2;
    }
  }
  bool ok = model.Run();
  std::printf("Run: %s\n", ok ? "true" : "false");
  std::printf("error_msg: %s\n", model.error_msg().c_str());
  if (!ok)
    return 0;
  for (int r = 0; r < model.num_results(); ++r) {
    const tfaot::BufferInfo &info = model.result_info(r);
    std::printf("%s:", info.name);
    for (int64_t i = 0; i < info.num_elements; ++i)
      print(model.result_data(r), info.dtype, i);
    std::printf("\n");
  }
  return 0;
}
