// SPDX-License-Identifier: Apache-2.0
// Runs simple_mnist compiled with y_pred fetched twice and the logits
// (results 0, 1 and 2), on two different inputs, and prints per run both
// predictions and the argmax of the logits, one line each, for FileCheck to
// find them equal. Also fails when the two predictions share one buffer,
// which would make "equal" prove nothing. Build with
//   -DMODEL_HEADER='"m.h"' -DMODEL_CLASS=ns::M
#include MODEL_HEADER

#include <cstdint>
#include <cstdio>

static_assert(MODEL_CLASS::kNumResults == 3, "y_pred, y_pred, logits");

static void printRow(const char *label, const int64_t *values, int n) {
  std::printf("%s:", label);
  for (int i = 0; i < n; ++i)
    std::printf(" %lld", static_cast<long long>(values[i]));
  std::printf("\n");
}

int main() {
  MODEL_CLASS model;
  constexpr int kRows = MODEL_CLASS::kResult0Elements;
  constexpr int kClasses = MODEL_CLASS::kResult2Elements / kRows;
  if (model.result0_data() == model.result1_data()) {
    std::printf("both predictions share one buffer\n");
    return 1;
  }
  // Two inputs with different predictions, so a result left from the first
  // run (or never written) shows.
  int64_t previous[kRows] = {};
  for (int run = 0; run < 2; ++run) {
    // Row r of run k: a 28x28 image with a vertical bar 3 pixels wide at
    // column 8 + 2 (2k + r) (these give the model different digits).
    for (int i = 0; i < MODEL_CLASS::kArg0Elements; ++i) {
      int image = 2 * run + i / 784, y = i % 784 / 28, x = i % 28;
      bool bar = x >= 8 + 2 * image && x < 11 + 2 * image && y > 4 && y < 24;
      model.arg0_data()[i] = bar ? 1.0f : 0.0f;
    }
    if (!model.Run()) {
      std::printf("Run failed: %s\n", model.error_msg().c_str());
      return 1;
    }
    int64_t argmax[kRows];
    for (int r = 0; r < kRows; ++r) {
      const float *logits = model.result2_data() + r * kClasses;
      argmax[r] = 0;
      for (int c = 1; c < kClasses; ++c)
        if (logits[c] > logits[argmax[r]])
          argmax[r] = c;
    }
    std::printf("run %d\n", run);
    printRow("first", model.result0_data(), kRows);
    printRow("second", model.result1_data(), kRows);
    printRow("argmax", argmax, kRows);
    if (run) {
      bool changed = false;
      for (int r = 0; r < kRows; ++r)
        changed |= previous[r] != model.result0_data()[r];
      std::printf("predictions changed: %s\n", changed ? "yes" : "no");
    }
    for (int r = 0; r < kRows; ++r)
      previous[r] = model.result0_data()[r];
  }
  return 0;
}
