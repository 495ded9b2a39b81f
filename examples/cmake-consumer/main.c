/* SPDX-License-Identifier: Apache-2.0
 *
 * main.cpp in C, through the C API (tfaot_library(... C_HEADER)): the same
 * two drawings, the same output. */
#include "mnist_model_c.h"

#include <math.h>
#include <stdio.h>

static void draw(int shape, float *pixels) {
  int x, y;
  for (y = 0; y < 28; ++y) {
    for (x = 0; x < 28; ++x) {
      float dx = x - 13.5f, dy = y - 13.5f;
      int ink = shape == 0 ? fabsf(sqrtf(dx * dx + dy * dy) - 8.0f) < 2.0f
                           : fabsf(dx) < 2.0f && fabsf(dy) < 10.0f;
      pixels[y * 28 + x] = ink ? 1.0f : 0.0f;
    }
  }
}

int main(void) {
  const char *names[] = {"ring", "bar"};
  const int64_t shape[] = CONSUMER_MNIST_ARG0_SHAPE;
  int agree = 1, i, c;
  tfaot_instance *model = consumer_Mnist_create();
  if (!model) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  draw(0, consumer_Mnist_arg0_data(model));
  draw(1, consumer_Mnist_arg0_data(model) + 784);
  if (!tfaot_run(model)) {
    fprintf(stderr, "tfaot_run failed: %s\n", tfaot_error_msg(model));
    return 1;
  }
  printf("x: %s[%lld,%lld]\n", tfaot_dtype_name(CONSUMER_MNIST_ARG0_DTYPE),
         (long long)shape[0], (long long)shape[1]);
  for (i = 0; i < 2; ++i) {
    const float *logits = consumer_Mnist_result_OuputLayer_logits_data(model) +
                          i * 10;
    long long cls = consumer_Mnist_result_y_pred_data(model)[i];
    int best = 0;
    for (c = 1; c < 10; ++c)
      if (logits[c] > logits[best])
        best = c;
    agree = agree && cls == best;
    printf("%s -> %lld\n", names[i], cls);
  }
  printf("y_pred is the argmax of the logits: %s\n", agree ? "yes" : "no");
  tfaot_destroy(model);
  return agree ? 0 : 1;
}
