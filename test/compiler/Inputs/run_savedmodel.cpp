// SPDX-License-Identifier: Apache-2.0
// Drives a class compiled from a tfaot-write-savedmodel model: the
// accessors are named by the signature's keys ("x", "scores"), so this only
// compiles if the header took its names from the signature. Build with
//   -DMODEL_HEADER='"m.h"' -DMODEL_CLASS=ns::M
#include MODEL_HEADER

#include <cstdio>

int main() {
  MODEL_CLASS model;
  const float x[6] = {1, 2, 3, 0, -1, 2};
  if (!model.set_arg_x_data(x, sizeof(x)) || !model.Run()) {
    std::printf("failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  std::printf("%s:", model.result_info(0).name);
  for (int i = 0; i < MODEL_CLASS::kResult0Elements; ++i)
    std::printf(" %g", model.result_scores_data()[i]);
  std::printf("\n");
  return 0;
}
