// Prints every result of the class generated from Inputs/slices.pbtxt, one
// result per line, for FileCheck.
#include "slices.h"

#include <cstdio>

template <typename T>
static void print(const char *name, const T *data, long long count) {
  std::printf("%s:", name);
  for (long long i = 0; i < count; ++i)
    std::printf(" %g", static_cast<double>(data[i]));
  std::printf("\n");
}

int main() {
  test::Slices slices;
  if (!slices.Run()) {
    std::printf("Run failed: %s\n", slices.error_msg().c_str());
    return 1;
  }
  print("s1", slices.result_s1_data(), test::Slices::kResult0Elements);
  print("s2", slices.result_s2_data(), test::Slices::kResult1Elements);
  print("s3", slices.result_s3_data(), test::Slices::kResult2Elements);
  print("packed", slices.result_packed_data(), test::Slices::kResult3Elements);
  print("shape", slices.result_shape_data(), test::Slices::kResult4Elements);
  return 0;
}
