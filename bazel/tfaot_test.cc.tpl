// <name>_test of tfaot_library(gen_test = True) in Bazel, or of
// tfaot_library(... GEN_TEST) in CMake: a smoke test of the generated class
// @CLASS@ (header @HEADER@), like tfcompile's tf_library test. It runs the
// model on zero inputs (every argument buffer is zeroed by the class) and
// checks that Run() succeeds, that every result buffer has the size its
// table gives, and that a second instance computes bit-identical results.
// A model reading JPEG bytes (a string argument) cannot decode nothing:
// there it checks that Run() fails with a reason.
#include "@HEADER@"

#include <cstdio>
#include <cstring>

int main() {
  using Model = @CLASS@;
  Model first, second;
  bool takes_bytes = false;
  for (int i = 0; i < first.num_args(); ++i)
    takes_bytes |= first.arg_info(i).dtype == tfaot::DType::kString;

  if (takes_bytes) {
    if (first.Run() || first.error_msg().empty()) {
      std::fprintf(stderr, "FAIL: @CLASS@ ran without the JPEG bytes its "
                           "string argument needs, or gave no reason\n");
      return 1;
    }
    std::printf("PASS: @CLASS@ without JPEG bytes: %s\n",
                first.error_msg().c_str());
    return 0;
  }

  for (Model *model : {&first, &second})
    if (!model->Run()) {
      std::fprintf(stderr, "FAIL: @CLASS@::Run() on zero inputs: %s\n",
                   model->error_msg().c_str());
      return 1;
    }
  for (int i = 0; i < first.num_results(); ++i) {
    const tfaot::BufferInfo &info = first.result_info(i);
    size_t expected = size_t(info.num_elements) * tfaot::DTypeSize(info.dtype);
    if (first.result_size(i) != expected) {
      std::fprintf(stderr, "FAIL: result %d ('%s') holds %zu bytes, its "
                           "shape needs %zu\n",
                   i, info.name, first.result_size(i), expected);
      return 1;
    }
    if (std::memcmp(first.result_data(i), second.result_data(i), expected)) {
      std::fprintf(stderr, "FAIL: result %d ('%s') differs between two "
                           "instances run on the same input\n",
                   i, info.name);
      return 1;
    }
  }
  std::printf("PASS: @CLASS@: %d arguments, %d results, %zu bytes of "
              "temporaries\n",
              first.num_args(), first.num_results(), first.temp_size());
  return 0;
}
