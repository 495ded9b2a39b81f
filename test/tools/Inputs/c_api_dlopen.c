/* SPDX-License-Identifier: Apache-2.0
 *
 * A C program that loads two model libraries written by `tfaot compile
 * --out_shared_library` with dlopen() at the same time and runs both, with
 * nothing of tfaot but tfaot/runtime/c_api.h (for the types; every
 * function comes from dlsym). test/tools/tfaot-shared-library.test builds
 * it with the C compiler, -std=c99 -Werror, and no tfaot library:
 *
 *   c_api_dlopen LIB_A.so DIR_A LIB_B.so DIR_B
 *
 * Each DIR is a uTensor op directory whose graph y = x . w the library
 * holds (reshape_2, reshape_3): the input is its input_x.idx and the result
 * is checked against TensorFlow's output_y.idx. */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>

#include "c_api_check.h"
#include "tfaot/runtime/c_api.h"

/* The functions this program uses, looked up in one library. */
typedef struct {
  void *handle;
  int (*api_version)(void);
  tfaot_model_info_fn model_info;
  tfaot_instance *(*create)(const tfaot_function_info *, int);
  void (*destroy)(tfaot_instance *);
  int (*run)(tfaot_instance *);
  const char *(*error_msg)(const tfaot_instance *);
  void *(*arg_data)(tfaot_instance *, int);
  void *(*result_data)(tfaot_instance *, int);
  int (*arg_index)(tfaot_instance *, const char *);
  int (*set_num_threads)(tfaot_instance *, int);
} model_library;

/* dlsym's object pointer to a function pointer: POSIX guarantees the
 * conversion works, ISO C does not allow the cast, so copy the bytes. */
static int lookup(void *handle, const char *name, void *function_pointer,
                  size_t size) {
  void *symbol = dlsym(handle, name);
  if (!symbol) {
    fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
    return 0;
  }
  memcpy(function_pointer, &symbol, size);
  return 1;
}

#define LOOKUP(lib, field, name)                                           \
  lookup((lib)->handle, name, &(lib)->field, sizeof((lib)->field))

static int open_library(const char *path, model_library *lib) {
  /* RTLD_LOCAL: each library keeps its own runtime and C API. */
  lib->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) {
    fprintf(stderr, "dlopen(%s): %s\n", path, dlerror());
    return 0;
  }
  return LOOKUP(lib, api_version, "tfaot_c_api_version") &&
         LOOKUP(lib, model_info, "tfaot_model_info") &&
         LOOKUP(lib, create, "tfaot_create") &&
         LOOKUP(lib, destroy, "tfaot_destroy") &&
         LOOKUP(lib, run, "tfaot_run") &&
         LOOKUP(lib, error_msg, "tfaot_error_msg") &&
         LOOKUP(lib, arg_data, "tfaot_arg_data") &&
         LOOKUP(lib, result_data, "tfaot_result_data") &&
         LOOKUP(lib, arg_index, "tfaot_arg_index") &&
         LOOKUP(lib, set_num_threads, "tfaot_set_num_threads");
}

/* Makes an instance of `lib`'s model with DIR's input in it. */
static tfaot_instance *prepare(model_library *lib, const char *dir) {
  const tfaot_function_info *info = lib->model_info();
  tfaot_instance *m;
  size_t n = 0;
  float *x = read_idx_floats(path_in(dir, "input_x.idx"), &n);
  printf("%s: %s, %d argument(s), x float32[%d,%d], %d result(s)\n", dir,
         info->class_name, (int)info->num_args, (int)info->args[0].dims[0],
         (int)info->args[0].dims[1], (int)info->num_results);
  CHECK(lib->api_version() == TFAOT_C_API_VERSION);
  CHECK(info->num_args == 1 && info->args[0].dtype == TFAOT_DTYPE_FLOAT32);
  m = lib->create(info, TFAOT_ALLOC_ARGS_AND_RESULTS);
  CHECK(m != NULL && x != NULL);
  if (!m || !x || n * sizeof(float) != info->args[0].size_bytes) {
    ++failures;
    free(x);
    return m;
  }
  memcpy(lib->arg_data(m, lib->arg_index(m, "x")), x, n * sizeof(float));
  free(x);
  return m;
}

static void check_result(model_library *lib, tfaot_instance *m,
                         const char *dir) {
  size_t n = 0;
  float *y = read_idx_floats(path_in(dir, "output_y.idx"), &n);
  const tfaot_function_info *info = lib->model_info();
  CHECK(y != NULL && n == (size_t)info->results[0].num_elements);
  if (y && n == (size_t)info->results[0].num_elements &&
      all_close(dir, (const float *)lib->result_data(m, 0), y, n, 1e-5, 1e-5))
    printf("%s: y matches TensorFlow's output_y.idx (%d values)\n",
           info->class_name, (int)n);
  else
    ++failures;
  free(y);
}

int main(int argc, char **argv) {
  model_library a, b;
  tfaot_instance *ma, *mb;
  if (argc != 5) {
    fprintf(stderr, "usage: %s LIB_A.so DIR_A LIB_B.so DIR_B\n", argv[0]);
    return 2;
  }
  if (!open_library(argv[1], &a) || !open_library(argv[3], &b))
    return 1;
  /* Two libraries, two copies of the runtime, two models. */
  CHECK(a.create != b.create);
  CHECK(strcmp(a.model_info()->class_name, b.model_info()->class_name) != 0);
  /* Both instances live at once; b runs on two threads. */
  ma = prepare(&a, argv[2]);
  mb = prepare(&b, argv[4]);
  CHECK(b.set_num_threads(mb, 2));
  CHECK(a.run(ma));
  CHECK(b.run(mb));
  check_result(&a, ma, argv[2]);
  check_result(&b, mb, argv[4]);
  /* Errors come back through the library too. */
  CHECK(a.arg_index(ma, "y") == -1);
  printf("error: %s\n", a.error_msg(ma));
  a.destroy(ma);
  b.destroy(mb);
  dlclose(a.handle);
  dlclose(b.handle);
  printf("%d failures\n", failures);
  return failures != 0;
}
