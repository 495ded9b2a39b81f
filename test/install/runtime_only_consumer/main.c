/* SPDX-License-Identifier: Apache-2.0
 * uTensor's reshape_2 (y = x . w) through the C API, linked against a
 * runtime-only install: reshape2_c RESHAPE_2_DIR checks y against
 * TensorFlow's output_y.idx. */
#include "reshape2_c.h"

#include "c_api_check.h"

int main(int argc, char **argv) {
  size_t nx = 0, ny = 0;
  float *x, *y;
  tfaot_instance *m;
  if (argc != 2) {
    fprintf(stderr, "usage: %s RESHAPE_2_DIR\n", argv[0]);
    return 2;
  }
  x = read_idx_floats(path_in(argv[1], "input_x.idx"), &nx);
  y = read_idx_floats(path_in(argv[1], "output_y.idx"), &ny);
  m = t_Reshape2_create();
  if (!x || !y || !m || nx != T_RESHAPE2_ARG0_ELEMENTS)
    return 1;
  memcpy(t_Reshape2_arg0_data(m), x, T_RESHAPE2_ARG0_BYTES);
  CHECK(tfaot_run(m));
  if (!all_close("y", t_Reshape2_result0_data(m), y, ny, 1e-5, 1e-5))
    ++failures;
  if (!failures)
    printf("reshape_2 on the runtime-only install: y matches TensorFlow's "
           "output_y.idx\n");
  tfaot_destroy(m);
  free(x);
  free(y);
  return failures != 0;
}
