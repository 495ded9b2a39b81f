// SPDX-License-Identifier: Apache-2.0
// Runs the class compiled from control_flow.pbtxt on x = argv[1] (float)
// and n = argv[2] (int32), the two feeds in that order, and prints each
// result as "name: value": the branch taken and the trip counts depend on
// those values. Build with -DMODEL_HEADER='"x.h"' -DMODEL_CLASS=ns::X.
#include MODEL_HEADER

#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s X N\n", argv[0]);
    return 2;
  }
  MODEL_CLASS model;
  *static_cast<float *>(model.arg_data(0)) = std::strtof(argv[1], nullptr);
  *static_cast<int32_t *>(model.arg_data(1)) =
      static_cast<int32_t>(std::strtol(argv[2], nullptr, 10));
  if (!model.Run()) {
    std::printf("Run failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  for (int r = 0; r < model.num_results(); ++r)
    std::printf("%s: %.6g\n", model.result_info(r).name,
                *static_cast<const float *>(model.result_data(r)));
  return 0;
}
