/* SPDX-License-Identifier: Apache-2.0
 *
 * A C program using two models through the headers `tfaot compile
 * --out_c_header` writes, linked statically with their objects and
 * libtfaot_runtime.a (test/tools/tfaot-c-api.test builds it with the C
 * compiler, -std=c99 -Werror):
 *
 *   c_api_static RESHAPE_2_DIR MNIST_X.bin OUT_DIR
 *
 * t::Reshape2 is uTensor's reshape_2 graph (y = x . w, x float32[5,3]),
 * checked against TensorFlow's output_y.idx, and drives the error paths;
 * t::Mnist is simple_mnist with batch buckets 2 and 4, run on MNIST_X.bin
 * (4 rows) in a caller-owned arena; its two results go to
 * OUT_DIR/result0.bin and result1.bin, which the test compares with what
 * `tfaot run` computes. Messages the test FileChecks go to stdout. */
/* posix_memalign: C99 has no aligned allocation. */
#define _POSIX_C_SOURCE 200809L

#include "mnist_c.h"
#include "reshape2_c.h"

#include "c_api_check.h"

static void check_reshape2(const char *dir) {
  size_t nx = 0, ny = 0;
  float *x = read_idx_floats(path_in(dir, "input_x.idx"), &nx);
  float *y = read_idx_floats(path_in(dir, "output_y.idx"), &ny);
  const int64_t shape[] = T_RESHAPE2_ARG0_SHAPE;
  const tfaot_buffer_info *info;
  tfaot_instance *m, *r;
  tfaot_thread_pool *pool;
  float saved[T_RESHAPE2_RESULT0_ELEMENTS];
  if (!x || !y) {
    ++failures;
    return;
  }
  CHECK(nx == T_RESHAPE2_ARG0_ELEMENTS && ny == T_RESHAPE2_RESULT0_ELEMENTS);
  CHECK(tfaot_c_api_version() == TFAOT_C_API_VERSION);
  m = t_Reshape2_create();
  CHECK(m != NULL);
  CHECK(tfaot_num_args(m) == T_RESHAPE2_NUM_ARGS);
  CHECK(tfaot_num_results(m) == T_RESHAPE2_NUM_RESULTS);
  CHECK(strcmp(tfaot_info(m)->class_name, "t::Reshape2") == 0);
  /* The object's table says what the header's macros say. */
  info = tfaot_arg_info(m, 0);
  CHECK(info && strcmp(info->name, "x") == 0);
  CHECK(info && info->dtype == T_RESHAPE2_ARG0_DTYPE &&
        info->rank == T_RESHAPE2_ARG0_RANK);
  CHECK(info && info->dims[0] == shape[0] && info->dims[1] == shape[1]);
  CHECK(info && info->size_bytes == T_RESHAPE2_ARG0_BYTES &&
        info->num_elements == T_RESHAPE2_ARG0_ELEMENTS);
  CHECK(strcmp(tfaot_dtype_name(T_RESHAPE2_RESULT0_DTYPE), "float32") == 0);
  CHECK(tfaot_dtype_size(TFAOT_DTYPE_INT64) == 8);
  CHECK(tfaot_result_size(m, 0) == T_RESHAPE2_RESULT0_BYTES);
  CHECK(tfaot_arg_index(m, "x") == T_RESHAPE2_ARG_X);
  CHECK(tfaot_result_index(m, "y") == T_RESHAPE2_RESULT_Y);
  CHECK(tfaot_temp_size(m) == T_RESHAPE2_TEMP_BYTES);

  memcpy(t_Reshape2_arg_x_data(m), x, T_RESHAPE2_ARG0_BYTES);
  CHECK(tfaot_run(m));
  CHECK(strcmp(tfaot_error_msg(m), "") == 0);
  CHECK(all_close("reshape_2 y", t_Reshape2_result_y_data(m), y, ny, 1e-5,
                  1e-5));
  printf("reshape_2: y matches TensorFlow's output_y.idx (%d values)\n",
         (int)ny);

  /* Bad indexes and names: NULL, 0 or -1, and a message. */
  CHECK(tfaot_arg_info(m, 1) == NULL);
  printf("arg_info(1): %s\n", tfaot_error_msg(m));
  CHECK(tfaot_result_data(m, -1) == NULL);
  printf("result_data(-1): %s\n", tfaot_error_msg(m));
  CHECK(tfaot_arg_size(m, 7) == 0 && tfaot_error_msg(m)[0] != '\0');
  CHECK(tfaot_arg_index(m, "nope") == -1);
  printf("arg_index(nope): %s\n", tfaot_error_msg(m));
  CHECK(tfaot_result_index(m, "x") == -1);
  printf("result_index(x): %s\n", tfaot_error_msg(m));
  /* A call that succeeds clears the message. */
  CHECK(tfaot_arg_index(m, "x") == 0 && tfaot_error_msg(m)[0] == '\0');
  CHECK(!t_Reshape2_set_arg0_data(m, x, 8));
  printf("set_data(8 bytes): %s\n", tfaot_error_msg(m));
  CHECK(!tfaot_run(m));
  printf("run: %s\n", tfaot_error_msg(m));
  CHECK(!tfaot_set_arg_bytes(m, 0, "abc", 3));
  printf("set_arg_bytes: %s\n", tfaot_error_msg(m));
  CHECK(!tfaot_set_batch_size(m, 1) && tfaot_max_batch_size(m) == 0);
  printf("set_batch_size: %s\n", tfaot_error_msg(m));
  tfaot_destroy(m);

  /* Results only: the argument is the caller's buffer, unset until given. */
  r = t_Reshape2_create_results_only();
  CHECK(tfaot_arg_data(r, 0) == NULL);
  CHECK(!tfaot_run(r));
  printf("results only: %s\n", tfaot_error_msg(r));
  CHECK(t_Reshape2_set_arg_x_data(r, x, T_RESHAPE2_ARG0_BYTES));
  CHECK(tfaot_arg_data(r, 0) == (void *)x);
  CHECK(tfaot_run(r));
  CHECK(all_close("reshape_2 y (caller buffer)", t_Reshape2_result0_data(r), y,
                  ny, 1e-5, 1e-5));
  memcpy(saved, t_Reshape2_result0_data(r), sizeof saved);

  /* Threads: an owned pool, then a shared one; the same bits either way. */
  CHECK(!tfaot_set_num_threads(r, 0));
  printf("set_num_threads(0): %s\n", tfaot_error_msg(r));
  CHECK(tfaot_set_num_threads(r, 3) && tfaot_num_threads(r) == 3);
  CHECK(tfaot_run(r));
  CHECK(memcmp(saved, t_Reshape2_result0_data(r), sizeof saved) == 0);
  CHECK(tfaot_thread_pool_create(0) == NULL);
  pool = tfaot_thread_pool_create(2);
  CHECK(pool != NULL && tfaot_hardware_threads() >= 1);
  tfaot_set_thread_pool(r, pool);
  CHECK(tfaot_num_threads(r) == 2);
  CHECK(tfaot_run(r));
  CHECK(memcmp(saved, t_Reshape2_result0_data(r), sizeof saved) == 0);
  tfaot_set_thread_pool(r, NULL);
  CHECK(tfaot_num_threads(r) == 1);
  tfaot_thread_pool_destroy(pool);
  tfaot_destroy(r);
  tfaot_destroy(NULL);
  CHECK(tfaot_create(NULL, TFAOT_ALLOC_ARGS_AND_RESULTS) == NULL);
  CHECK(tfaot_create(&tfaot_t_Reshape2_info, 7) == NULL);
  free(x);
  free(y);
}

static int write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(data, 1, size, f) == size;
  if (f)
    fclose(f);
  return ok;
}

static void check_mnist(const char *x_path, const char *out_dir) {
  size_t n = 0;
  unsigned char *x = read_file(x_path, &n);
  const int64_t buckets[] = T_MNIST_BATCH_BUCKETS;
  /* 64-byte aligned, with room to misalign it on purpose. */
  size_t arena_bytes = (T_MNIST_TEMP_BYTES + 64 + 63) / 64 * 64;
  void *block = NULL;
  char *arena = posix_memalign(&block, 64, arena_bytes) == 0 ? (char *)block
                                                             : NULL;
  int64_t classes[T_MNIST_RESULT0_ELEMENTS];
  float logits[T_MNIST_RESULT1_ELEMENTS];
  tfaot_instance *m;
  int row, k;
  CHECK(x != NULL && n == T_MNIST_ARG0_BYTES && arena != NULL);
  CHECK(T_MNIST_NUM_BATCH_BUCKETS == 2 && buckets[0] == 2 && buckets[1] == 4);
  CHECK(T_MNIST_MAX_BATCH == 4 && T_MNIST_TEMP_BYTES > 0);
  m = t_Mnist_create_results_only();
  CHECK(tfaot_temp_size(m) == T_MNIST_TEMP_BYTES && tfaot_temp_data(m));
  CHECK(tfaot_set_arg_data(m, T_MNIST_ARG_X, x, n));
  CHECK(tfaot_batch_size(m) == 4 && tfaot_bucket_for_batch(m) == 4);

  /* A caller arena: misaligned and too small are refused. */
  CHECK(!tfaot_set_temp_buffer(m, arena + 8, T_MNIST_TEMP_BYTES));
  printf("misaligned arena: %s\n", tfaot_error_msg(m));
  CHECK(!tfaot_run(m));
  CHECK(!tfaot_set_temp_buffer(m, arena, T_MNIST_TEMP_BYTES - 1));
  printf("small arena: %s\n", tfaot_error_msg(m));
  CHECK(tfaot_set_temp_buffer(m, arena, T_MNIST_TEMP_BYTES));
  CHECK(tfaot_temp_data(m) == (void *)arena);
  CHECK(tfaot_run(m));
  CHECK(write_file(path_in(out_dir, "result0.bin"), t_Mnist_result0_data(m),
                   T_MNIST_RESULT0_BYTES));
  CHECK(write_file(path_in(out_dir, "result1.bin"),
                   t_Mnist_result_OuputLayer_logits_data(m),
                   T_MNIST_RESULT1_BYTES));
  memcpy(classes, t_Mnist_result_y_pred_data(m), sizeof classes);
  memcpy(logits, t_Mnist_result1_data(m), sizeof logits);
  /* y_pred is the ArgMax of the logits. */
  for (row = 0; row < 4; ++row) {
    int best = 0;
    for (k = 1; k < 10; ++k)
      if (logits[row * 10 + k] > logits[row * 10 + best])
        best = k;
    CHECK(classes[row] == best);
  }
  printf("mnist: classes %d %d %d %d\n", (int)classes[0], (int)classes[1],
         (int)classes[2], (int)classes[3]);

  /* Two rows run the batch-2 entry: the same classes and logits. */
  CHECK(tfaot_set_batch_size(m, 2) && tfaot_bucket_for_batch(m) == 2);
  CHECK(tfaot_run(m));
  CHECK(memcmp(classes, t_Mnist_result0_data(m), 2 * sizeof(int64_t)) == 0);
  CHECK(all_close("mnist logits, batch 2", t_Mnist_result1_data(m), logits,
                  20, 1e-5, 1e-5));
  CHECK(!tfaot_set_batch_size(m, 5));
  printf("set_batch_size(5): %s\n", tfaot_error_msg(m));
  CHECK(tfaot_set_temp_buffer(m, NULL, 0) && tfaot_temp_data(m) != arena);
  tfaot_destroy(m);
  free(arena);
  free(x);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s RESHAPE_2_DIR MNIST_X.bin OUT_DIR\n", argv[0]);
    return 2;
  }
  check_reshape2(argv[1]);
  check_mnist(argv[2], argv[3]);
  printf("%d failures\n", failures);
  return failures != 0;
}
