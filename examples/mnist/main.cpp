//===- main.cpp - Run a compiled MNIST classifier -------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Classifies four synthetic 28x28 "digits" with uTensor's simple_mnist.pb,
// compiled ahead of time by tfaot into mnist_model.o / mnist_model.h. No
// TensorFlow is involved at run time: the object holds the code and weights.
//
//===----------------------------------------------------------------------===//
#include "mnist_model.h"

#include <cmath>
#include <cstdio>

/// Draws a crude digit-like stroke pattern so the inputs are not all alike:
/// a ring for 0, a bar for 1, and two blends.
static void drawImage(int which, float *pixels) {
  for (int y = 0; y < 28; ++y) {
    for (int x = 0; x < 28; ++x) {
      float dx = x - 13.5f, dy = y - 13.5f;
      float ring = std::fabs(std::sqrt(dx * dx + dy * dy) - 8.0f) < 2.0f;
      float bar = std::fabs(dx) < 2.0f && std::fabs(dy) < 10.0f;
      float value = which == 0 ? ring : which == 1 ? bar
                  : which == 2 ? 0.5f * (ring + bar) : ring * (y < 14);
      pixels[y * 28 + x] = value;
    }
  }
}

int main() {
  demo::MnistModel model;
  for (int i = 0; i < 4; ++i)
    drawImage(i, model.arg0_data() + i * 784);
  if (!model.Run()) {
    std::fprintf(stderr, "Run() failed: %s\n", model.error_msg().c_str());
    return 1;
  }
  std::printf("tfaot demo: simple_mnist.pb compiled ahead of time\n");
  std::printf("  argument: x %s[%lld,%lld]; results: y_pred, logits\n",
              tfaot::DTypeName(model.arg_info(0).dtype),
              (long long)model.kArg0Shape[0], (long long)model.kArg0Shape[1]);
  const char *names[] = {"ring", "bar", "ring+bar", "half ring"};
  for (int i = 0; i < 4; ++i) {
    std::printf("  image %d (%-9s) -> class %lld   logits:", i, names[i],
                (long long)model.result_y_pred_data()[i]);
    for (int c = 0; c < 10; ++c)
      std::printf(" %6.2f", model.result1_data()[i * 10 + c]);
    std::printf("\n");
  }
  std::printf("  memory: %zu argument bytes, %zu result bytes, <= %zu temp "
              "bytes\n",
              model.arg_size(0), model.result_size(0) + model.result_size(1),
              model.kTempBytes);
  return 0;
}
