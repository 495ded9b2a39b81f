/*===- c_api.h - The C interface to a compiled model ----------------------===
 * SPDX-License-Identifier: Apache-2.0
 *
 * What `tfaot compile --out_c_header` and `--out_shared_library` give C (and
 * Rust, Go, Python ctypes, ...) programs: the generated C++ class's API as
 * C99 functions on an opaque instance. A model compiled with either flag
 * carries its description (names, dtypes, shapes, entry points; the same
 * tables the C++ class defines) in its object as one constant
 * tfaot_function_info; tfaot_create() makes an instance from it. The
 * generated C header declares that constant and typed, named wrappers; a
 * shared library also exports tfaot_model_info(), which returns it, so that
 * a program that dlopen()s a model needs nothing but this header.
 *
 * Implemented in libtfaot_runtime.a (runtime/lib/c_api.cpp) on top of
 * tfaot::CompiledFunction: the checks, messages and ownership rules are the
 * C++ class's (docs/generated-api.md). Functions that can fail return 0
 * (or NULL, or -1 for an index) and set the message tfaot_error_msg()
 * returns; functions that succeed clear it. No function throws or aborts.
 * Every function taking an instance needs a valid one (not NULL, except
 * tfaot_destroy); one instance runs on one thread at a time.
 *
 * Valid C99 and C++; includes only <stddef.h> and <stdint.h>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TFAOT_RUNTIME_C_API_H
#define TFAOT_RUNTIME_C_API_H

#include <stddef.h>
#include <stdint.h>

/* Bumped when a function's meaning or a struct's layout changes; the
 * shared libraries' symbol version (TFAOT_C_2) follows it. 2: the
 * bounded results of tfaot_function_info and tfaot_result_dims. */
#define TFAOT_C_API_VERSION 2

/* Exported from a model's shared library (which is linked with
 * -fvisibility=hidden and a version script naming these functions). */
#if defined(__GNUC__) || defined(__clang__)
#define TFAOT_C_EXPORT __attribute__((visibility("default")))
#else
#define TFAOT_C_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Element types: TensorFlow's DataType numbers, as tfaot::DType. */
enum {
  TFAOT_DTYPE_FLOAT32 = 1,
  TFAOT_DTYPE_FLOAT64 = 2,
  TFAOT_DTYPE_INT32 = 3,
  TFAOT_DTYPE_UINT8 = 4,
  TFAOT_DTYPE_INT16 = 5,
  TFAOT_DTYPE_INT8 = 6,
  TFAOT_DTYPE_STRING = 7, /* a bytes argument: its buffer is a tfaot_bytes */
  TFAOT_DTYPE_INT64 = 9,
  TFAOT_DTYPE_BOOL = 10,
  TFAOT_DTYPE_QINT8 = 11,
  TFAOT_DTYPE_QUINT8 = 12,
  TFAOT_DTYPE_QINT32 = 13,
  TFAOT_DTYPE_BFLOAT16 = 14,
  TFAOT_DTYPE_QINT16 = 15,
  TFAOT_DTYPE_QUINT16 = 16,
  TFAOT_DTYPE_UINT16 = 17,
  TFAOT_DTYPE_FLOAT16 = 19,
  TFAOT_DTYPE_UINT32 = 22,
  TFAOT_DTYPE_UINT64 = 23
};

/* tfaot_create()'s alloc_mode: AllocMode::kArgsAndResults and
 * kResultsOnly (then every argument must be set with tfaot_set_arg_data). */
enum { TFAOT_ALLOC_ARGS_AND_RESULTS = 0, TFAOT_ALLOC_RESULTS_ONLY = 1 };

/* A string argument's bytes (tfaot::Bytes). */
typedef struct tfaot_bytes {
  const void *data;
  int64_t size;
} tfaot_bytes;

/* One argument or result (tfaot::BufferInfo, same layout). */
typedef struct tfaot_buffer_info {
  const char *name;     /* feed / fetch name */
  int32_t dtype;        /* TFAOT_DTYPE_* */
  int32_t rank;         /* 0 for a scalar */
  const int64_t *dims;  /* rank static sizes (largest batch bucket) */
  int64_t num_elements; /* product of dims, 1 for a scalar */
  size_t size_bytes;    /* num_elements * element size */
} tfaot_buffer_info;

/* The uniform entry the runtime calls (tfaot::EntryFunction). */
typedef void (*tfaot_entry_function)(void *const *args, void *const *results,
                                     void *temp);

/* Everything about one compiled model (tfaot::FunctionInfo, same layout);
 * the object holds it as a constant. */
typedef struct tfaot_function_info {
  const char *class_name; /* --cpp_class, e.g. "demo::Mnist" */
  tfaot_entry_function entry; /* null with batch buckets */
  int32_t num_args;
  const tfaot_buffer_info *args;
  int32_t num_results;
  const tfaot_buffer_info *results;
  size_t temp_bytes; /* the arena (kTempBytes) */
  int32_t num_buckets; /* --batch: bucket count, else 0 */
  const int64_t *bucket_batches;
  const tfaot_entry_function *bucket_entries;
  /* Results whose size depends on data (NonMaxSuppression, Where): their
   * buffer info holds the upper bound; tfaot_result_dims gives the dims of
   * the last run. */
  int32_t num_bounded_results;
  const int32_t *bounded_results;
} tfaot_function_info;

typedef struct tfaot_instance tfaot_instance;
typedef struct tfaot_thread_pool tfaot_thread_pool;

/* TFAOT_C_API_VERSION of the runtime this program runs with. */
TFAOT_C_EXPORT int tfaot_c_api_version(void);

/* TensorFlow's name of a dtype ("float32"; "unknown" for other values) and
 * its element size (0 for other values). */
TFAOT_C_EXPORT const char *tfaot_dtype_name(int32_t dtype);
TFAOT_C_EXPORT size_t tfaot_dtype_size(int32_t dtype);

/* A new instance of the model `info` describes, owning zeroed result
 * buffers, its arena and (TFAOT_ALLOC_ARGS_AND_RESULTS) argument buffers.
 * NULL when memory runs out, `info` is NULL or alloc_mode is neither. */
TFAOT_C_EXPORT tfaot_instance *tfaot_create(const tfaot_function_info *info,
                                            int alloc_mode);
/* Frees the instance and what it owns (NULL is fine). */
TFAOT_C_EXPORT void tfaot_destroy(tfaot_instance *instance);
/* The description the instance was made from. */
TFAOT_C_EXPORT const tfaot_function_info *
tfaot_info(const tfaot_instance *instance);

/* Runs the model on the current arguments: 1, or 0 with the reason in
 * tfaot_error_msg() (an argument unset or of the wrong size, a bad arena,
 * bad input data such as a corrupt JPEG). */
TFAOT_C_EXPORT int tfaot_run(tfaot_instance *instance);
/* Why the last call on this instance failed; "" after a success. Valid
 * until the next call on the instance. */
TFAOT_C_EXPORT const char *tfaot_error_msg(const tfaot_instance *instance);

TFAOT_C_EXPORT int tfaot_num_args(const tfaot_instance *instance);
TFAOT_C_EXPORT int tfaot_num_results(const tfaot_instance *instance);
/* Name, dtype, shape and size of argument / result `index`; NULL and an
 * error for an index out of range. */
TFAOT_C_EXPORT const tfaot_buffer_info *tfaot_arg_info(tfaot_instance *instance,
                                                       int index);
TFAOT_C_EXPORT const tfaot_buffer_info *
tfaot_result_info(tfaot_instance *instance, int index);
/* The index of the argument / result with this feed / fetch name; -1 and
 * an error (listing the names) when there is none. */
TFAOT_C_EXPORT int tfaot_arg_index(tfaot_instance *instance, const char *name);
TFAOT_C_EXPORT int tfaot_result_index(tfaot_instance *instance,
                                      const char *name);
/* Byte size of argument / result `index`; 0 and an error when out of
 * range. */
TFAOT_C_EXPORT size_t tfaot_arg_size(tfaot_instance *instance, int index);
TFAOT_C_EXPORT size_t tfaot_result_size(tfaot_instance *instance, int index);

/* The current buffer of argument `index` (the instance's own, or what
 * tfaot_set_arg_data gave; NULL while unset) and result `index` (owned by
 * the instance, valid until it is destroyed). NULL and an error when out
 * of range. */
TFAOT_C_EXPORT void *tfaot_arg_data(tfaot_instance *instance, int index);
TFAOT_C_EXPORT void *tfaot_result_data(tfaot_instance *instance, int index);
/* The dims (tfaot_result_info(index)->rank of them) of result `index`:
 * after a tfaot_run, those of that run for a result whose size depends on
 * data (its buffer holds that many elements first, and is sized for the
 * bound in its buffer info), the static shape for any other. NULL and an
 * error when out of range. */
TFAOT_C_EXPORT const int64_t *tfaot_result_dims(tfaot_instance *instance,
                                               int index);
/* Points argument `index` at `size_bytes` bytes of caller memory, read
 * (never written or copied) by each tfaot_run until changed; it must hold
 * exactly tfaot_arg_size() bytes, else 0, an error, and the argument is
 * unset until given again. NULL goes back to the instance's own buffer
 * (unset in TFAOT_ALLOC_RESULTS_ONLY). */
TFAOT_C_EXPORT int tfaot_set_arg_data(tfaot_instance *instance, int index,
                                      const void *data, size_t size_bytes);
/* A string argument (the JPEG a DecodeJpeg reads): `size` bytes at `data`,
 * read during tfaot_run, not copied. 0 and an error for other arguments. */
TFAOT_C_EXPORT int tfaot_set_arg_bytes(tfaot_instance *instance, int index,
                                       const void *data, size_t size);

/* The arena of temporaries: its size (kTempBytes), its current block, and
 * a caller-owned block to use instead (64-byte aligned, at least
 * tfaot_temp_size() bytes, alive until the last tfaot_run using it; NULL
 * goes back to an instance-owned one). 0 and an error when the block is
 * too small or misaligned; tfaot_run then fails until a valid one is set. */
TFAOT_C_EXPORT size_t tfaot_temp_size(const tfaot_instance *instance);
TFAOT_C_EXPORT void *tfaot_temp_data(tfaot_instance *instance);
TFAOT_C_EXPORT int tfaot_set_temp_buffer(tfaot_instance *instance, void *data,
                                         size_t size_bytes);

/* Threads: an instance-owned pool of `num_threads` (the caller included;
 * 0 and an error below 1), or a pool the caller owns and may share between
 * instances (NULL: the calling thread only). Results are bit-identical for
 * any thread count. */
TFAOT_C_EXPORT int tfaot_set_num_threads(tfaot_instance *instance,
                                         int num_threads);
TFAOT_C_EXPORT int tfaot_num_threads(const tfaot_instance *instance);
TFAOT_C_EXPORT void tfaot_set_thread_pool(tfaot_instance *instance,
                                          tfaot_thread_pool *pool);
/* A pool of `num_threads` threads (NULL when num_threads < 1 or memory
 * runs out); destroy it after every instance using it has stopped running
 * or been pointed elsewhere. */
TFAOT_C_EXPORT tfaot_thread_pool *tfaot_thread_pool_create(int num_threads);
TFAOT_C_EXPORT void tfaot_thread_pool_destroy(tfaot_thread_pool *pool);
/* The threads this machine runs at once (at least 1). */
TFAOT_C_EXPORT int tfaot_hardware_threads(void);

/* Batch buckets (--batch): rows of the arguments that hold data, 1 to the
 * largest bucket (0 and an error otherwise, or without buckets); the
 * current size; the largest bucket (0 without buckets); the bucket the
 * next tfaot_run uses. */
TFAOT_C_EXPORT int tfaot_set_batch_size(tfaot_instance *instance,
                                        int64_t batch);
TFAOT_C_EXPORT int64_t tfaot_batch_size(const tfaot_instance *instance);
TFAOT_C_EXPORT int64_t tfaot_max_batch_size(const tfaot_instance *instance);
TFAOT_C_EXPORT int64_t tfaot_bucket_for_batch(const tfaot_instance *instance);

/* Defined only in a model's shared library (--out_shared_library): its
 * model. A program that dlopen()s the library looks this up by name. */
TFAOT_C_EXPORT const tfaot_function_info *tfaot_model_info(void);
typedef const tfaot_function_info *(*tfaot_model_info_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TFAOT_RUNTIME_C_API_H */
