// SPDX-License-Identifier: Apache-2.0
// Drives the class generated from test/compiler/import-mlp.pbtxt: feeds a
// fixed input and prints the softmax output for FileCheck.
#include "dense.h"

#include <cstdio>

int main() {
  test::Dense dense;
  const float input[6] = {1, 2, 3, 0, -1, 2};
  if (!dense.set_arg_x_data(input, sizeof(input))) {
    std::printf("set_arg failed: %s\n", dense.error_msg().c_str());
    return 1;
  }
  if (!dense.Run()) {
    std::printf("Run failed: %s\n", dense.error_msg().c_str());
    return 1;
  }
  for (int i = 0; i < test::Dense::kResult0Elements; ++i)
    std::printf("%.6f\n", dense.result_probs_data()[i]);
  // A wrong size is refused and Run() then fails instead of reading junk.
  if (dense.set_arg0_data(input, 4) || dense.Run())
    return 1;
  std::printf("%s\n", dense.error_msg().c_str());
  return 0;
}
