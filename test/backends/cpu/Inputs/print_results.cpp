// Runs an argument-less generated class and prints each result as
// "name: v0 v1 ..." using only the class's FunctionInfo tables, so one
// driver serves every hand-checked graph. Build with
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
  case tfaot::DType::kBool: return static_cast<const bool *>(data)[i];
  default: return 0.0 / 0.0;
  }
}

int main() {
  MODEL_CLASS model;
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
