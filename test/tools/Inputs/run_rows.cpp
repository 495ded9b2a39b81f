// SPDX-License-Identifier: Apache-2.0
// Runs a generated class on the argument values given on the command line
// (every element of argument 0, in order) and prints result 0 one row (its
// last dimension) per line, for FileCheck. Build with
//   -DMODEL_HEADER='"m.h"' -DMODEL_CLASS=ns::M
#include MODEL_HEADER

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  MODEL_CLASS model;
  if (argc - 1 != MODEL_CLASS::kArg0Elements) {
    std::printf("give %d values, got %d\n", int(MODEL_CLASS::kArg0Elements),
                argc - 1);
    return 1;
  }
  for (int i = 0; i < MODEL_CLASS::kArg0Elements; ++i)
    model.arg0_data()[i] = std::strtof(argv[i + 1], nullptr);
  if (!model.Run()) {
    std::printf("Run failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  int64_t row = MODEL_CLASS::kResult0Shape[MODEL_CLASS::kResult0Rank - 1];
  for (int64_t i = 0; i < MODEL_CLASS::kResult0Elements; ++i)
    std::printf("%.6f%s", double(model.result0_data()[i]),
                (i + 1) % row == 0 ? "\n" : " ");
  return 0;
}
