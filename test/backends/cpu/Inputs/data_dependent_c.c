/* SPDX-License-Identifier: Apache-2.0
 * The C API side of run-data-dependent.test: runs the "mixed" case of
 * data_dependent_check.cpp through tfaot_create/tfaot_run and prints the
 * dims tfaot_result_dims gives for nms3 (bounded), nms4pad (static) and
 * det_boxes (bounded, rank 2), with nms3's valid elements. */
#include MODEL_C_HEADER

#include <stdio.h>
#include <string.h>

static void show(tfaot_instance *m, int index) {
  const tfaot_buffer_info *info = tfaot_result_info(m, index);
  const int64_t *dims = tfaot_result_dims(m, index);
  int d;
  printf("%s bound [", info->name);
  for (d = 0; d < info->rank; ++d)
    printf(d ? ",%lld" : "%lld", (long long)info->dims[d]);
  printf("] ran [");
  for (d = 0; d < info->rank; ++d)
    printf(d ? ",%lld" : "%lld", (long long)dims[d]);
  printf("]\n");
}

int main(void) {
  static const float boxes[24] = {0, 0,  1, 1,  0, 0.1f, 1, 1.1f,
                                  0, 10, 1, 11, 0, 20,   1, 21,
                                  1, 21, 0, 20, 0, 30,   1, 31};
  static const float scores[6] = {0.9f, 0.75f, 0.6f, 0.6f, 0.3f, -0.1f};
  static const float mask[6] = {0, 1, 0, 2, 0, 0};
  const float iou = 0.5f;
  const int32_t *selected;
  int64_t i;
  tfaot_instance *m = MODEL_C_CREATE();
  memcpy(tfaot_arg_data(m, 0), boxes, sizeof boxes);
  memcpy(tfaot_arg_data(m, 1), scores, sizeof scores);
  memcpy(tfaot_arg_data(m, 2), &iou, sizeof iou);
  memcpy(tfaot_arg_data(m, 3), mask, sizeof mask);
  if (!tfaot_run(m)) {
    printf("run failed: %s\n", tfaot_error_msg(m));
    return 1;
  }
  show(m, 0);
  show(m, 3);
  show(m, 8);
  selected = (const int32_t *)tfaot_result_data(m, 0);
  printf("nms3:");
  for (i = 0; i < tfaot_result_dims(m, 0)[0]; ++i)
    printf(" %d", selected[i]);
  printf("\n");
  printf("out of range: %s\n",
         tfaot_result_dims(m, 13) ? "dims" : tfaot_error_msg(m));
  tfaot_destroy(m);
  return 0;
}
