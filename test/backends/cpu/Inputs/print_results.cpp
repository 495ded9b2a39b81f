// SPDX-License-Identifier: Apache-2.0
// Runs a generated class and prints each result as "name: v0 v1 ..."
// using only the class's FunctionInfo tables, so one driver serves every
// hand-checked graph. Arguments, if any, hold 0, 1, 2, ... (element i is
// i), so results stay hand-derivable. Build with
//   -DMODEL_HEADER='"x.h"' -DMODEL_CLASS=ns::X
#include MODEL_HEADER

#include <cstdint>
#include <cstdio>

static double element(const void *data, tfaot::DType dtype, int64_t i) {
  switch (dtype) {
  case tfaot::DType::kFloat32: return static_cast<const float *>(data)[i];
  case tfaot::DType::kFloat64: return static_cast<const double *>(data)[i];
  case tfaot::DType::kInt32: return static_cast<const int32_t *>(data)[i];
  case tfaot::DType::kInt64: return static_cast<const int64_t *>(data)[i];
  case tfaot::DType::kUInt8: return static_cast<const uint8_t *>(data)[i];
  case tfaot::DType::kQUInt8: return static_cast<const uint8_t *>(data)[i];
  case tfaot::DType::kQInt32: return static_cast<const int32_t *>(data)[i];
  case tfaot::DType::kBool: return static_cast<const bool *>(data)[i];
  default: return 0.0 / 0.0;
  }
}

static void setElement(void *data, tfaot::DType dtype, int64_t i) {
  switch (dtype) {
  case tfaot::DType::kFloat32: static_cast<float *>(data)[i] = i; break;
  case tfaot::DType::kInt32: static_cast<int32_t *>(data)[i] = i; break;
  case tfaot::DType::kUInt8:
  case tfaot::DType::kQUInt8: static_cast<uint8_t *>(data)[i] = i; break;
  default: break;
  }
}

int main() {
  MODEL_CLASS model;
  for (int a = 0; a < model.num_args(); ++a) {
    const tfaot::BufferInfo &info = model.arg_info(a);
    for (int64_t i = 0; i < info.num_elements; ++i)
      setElement(model.arg_data(a), info.dtype, i);
  }
  if (!model.Run()) {
    std::printf("Run failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  for (int r = 0; r < model.num_results(); ++r) {
    const tfaot::BufferInfo &info = model.result_info(r);
    std::printf("%s:", info.name);
    for (int64_t i = 0; i < info.num_elements; ++i)
      std::printf(" %.6g", element(model.result_data(r), info.dtype, i));
    std::printf("\n");
  }
  return 0;
}
