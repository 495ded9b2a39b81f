//===- main.cpp - a Bazel program built against an installed tfaot --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Runs the simple_mnist MLP, compiled by the Bazel tfaot_library() into
// mnist_model.h / mnist_model.o, on two drawn images whose answers are plain
// to see: a ring is a 0 and a vertical bar is a 1. The program and its output
// are those of examples/cmake-consumer; the install.bazel_consumer test
// compares the output verbatim.
//
//===----------------------------------------------------------------------===//
#include "mnist_model.h"

#include <cmath>
#include <cstdio>

namespace {

/// A 28x28 image: a ring of radius 8 (shape 0) or a vertical bar (shape 1),
/// both centred, ink 1 on background 0.
void draw(int shape, float *pixels) {
  for (int y = 0; y < 28; ++y) {
    for (int x = 0; x < 28; ++x) {
      float dx = x - 13.5f, dy = y - 13.5f;
      bool ink = shape == 0
                     ? std::fabs(std::sqrt(dx * dx + dy * dy) - 8.0f) < 2.0f
                     : std::fabs(dx) < 2.0f && std::fabs(dy) < 10.0f;
      pixels[y * 28 + x] = ink ? 1.0f : 0.0f;
    }
  }
}

} // namespace

int main() {
  consumer::Mnist model;
  draw(0, model.arg0_data());
  draw(1, model.arg0_data() + 784);
  if (!model.Run()) {
    std::fprintf(stderr, "Run() failed: %s\n", model.error_msg().c_str());
    return 1;
  }

  // DTypeName lives in libtfaot_runtime.a: this also shows it was linked.
  std::printf("x: %s[%lld,%lld]\n", tfaot::DTypeName(model.arg_info(0).dtype),
              (long long)model.kArg0Shape[0], (long long)model.kArg0Shape[1]);
  const char *names[] = {"ring", "bar"};
  bool agree = true;
  for (int i = 0; i < 2; ++i) {
    const float *logits = model.result_OuputLayer_logits_data() + i * 10;
    int best = 0;
    for (int c = 1; c < 10; ++c)
      if (logits[c] > logits[best])
        best = c;
    long long cls = model.result_y_pred_data()[i];
    agree = agree && cls == best;
    std::printf("%s -> %lld\n", names[i], cls);
  }
  std::printf("y_pred is the argmax of the logits: %s\n", agree ? "yes" : "no");
  return agree ? 0 : 1;
}
