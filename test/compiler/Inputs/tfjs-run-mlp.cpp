// SPDX-License-Identifier: Apache-2.0
// Drives the class compiled from Inputs/tfjs-mlp.json (see tfjs-import.test):
// feeds x = [[1, 2]] and prints the two outputs for FileCheck.
#include "tfjs_mlp.h"

#include <cstdio>

int main() {
  test::TfjsMlp model;
  const float input[2] = {1, 2};
  if (!model.set_arg0_data(input, sizeof(input))) {
    std::printf("set_arg failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  if (!model.Run()) {
    std::printf("Run failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  for (int i = 0; i < test::TfjsMlp::kResult0Elements; ++i)
    std::printf("%.6f\n", model.result0_data()[i]);
  return 0;
}
