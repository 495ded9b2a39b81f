// SPDX-License-Identifier: Apache-2.0
// Runs a generated class the way a program that links its object does, on
// raw argument bytes, and writes each result's raw bytes, so a test can
// compare them with what `tfaot run` wrote byte for byte:
//   run_raw OUT_DIR ARG0.bin ARG1.bin ...  ->  OUT_DIR/result0.bin, ...
// Each .bin must hold exactly its argument's bytes. Build with
//   -DMODEL_HEADER='"m.h"' -DMODEL_CLASS=ns::M
#include MODEL_HEADER

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  MODEL_CLASS model;
  if (argc != 2 + model.num_args()) {
    std::fprintf(stderr, "usage: %s OUT_DIR, then one .bin per argument (%d)\n",
                 argv[0], model.num_args());
    return 1;
  }
  std::vector<std::vector<char>> inputs;
  for (int a = 0; a < model.num_args(); ++a) {
    std::ifstream file(argv[2 + a], std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(file),
                        std::istreambuf_iterator<char>());
    // The checked form: a file of another size fails Run() instead of
    // being read past its end.
    if (!model.set_arg_data(a, inputs.back().data(), inputs.back().size())) {
      std::fprintf(stderr, "%s: %s\n", argv[2 + a], model.error_msg().c_str());
      return 1;
    }
  }
  if (!model.Run()) {
    std::fprintf(stderr, "Run failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  for (int r = 0; r < model.num_results(); ++r) {
    std::string path = std::string(argv[1]) + "/result" + std::to_string(r) +
                       ".bin";
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char *>(model.result_data(r)),
              model.result_size(r));
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
