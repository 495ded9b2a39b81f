//===- c_api.cpp - The C interface over CompiledFunction -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot/runtime/c_api.h: each function forwards to tfaot::CompiledFunction,
// so the C and the C++ API check and report alike. The C side adds what a C
// caller cannot do itself: bounds checks on the by-index queries (C++
// reads its tables directly), lookups by name that say which names exist,
// and a message per instance that every call sets or clears. Nothing here
// may throw into C: allocation failures become NULL or 0.
//
// All of these live in one object file on purpose: a model's shared
// library pulls the whole C API out of the archive by naming one of them
// (-u tfaot_c_api_version), see compiler/driver/SharedLibrary.cpp.
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/c_api.h"

#include "tfaot/runtime/compiled_function.h"
#include "tfaot/runtime/thread_pool.h"

#include <cstddef>
#include <memory>
#include <new>
#include <string>
#include <vector>

using tfaot::BufferInfo;
using tfaot::CompiledFunction;
using tfaot::DType;
using tfaot::FunctionInfo;

// The C structs are read as the C++ ones' field by field below, but a
// program may also hand a C table to C++ code that expects the C++ layout
// (or the reverse); keep the two identical.
static_assert(sizeof(tfaot_buffer_info) == sizeof(BufferInfo));
static_assert(offsetof(tfaot_buffer_info, dims) == offsetof(BufferInfo, dims));
static_assert(offsetof(tfaot_buffer_info, size_bytes) ==
              offsetof(BufferInfo, size_bytes));
static_assert(sizeof(tfaot_function_info) == sizeof(FunctionInfo));
static_assert(offsetof(tfaot_function_info, temp_bytes) ==
              offsetof(FunctionInfo, temp_bytes));
static_assert(offsetof(tfaot_function_info, bucket_entries) ==
              offsetof(FunctionInfo, bucket_entries));
static_assert(offsetof(tfaot_function_info, bounded_results) ==
              offsetof(FunctionInfo, bounded_results));
static_assert(sizeof(tfaot_bytes) == sizeof(tfaot::Bytes));

struct tfaot_thread_pool {
  explicit tfaot_thread_pool(int n) : pool(n) {}
  tfaot::ThreadPool pool;
};

struct tfaot_instance {
  const tfaot_function_info *c_info;
  // The C++ copy of the tables the CompiledFunction refers to, owned here
  // so that it lives exactly as long as the instance.
  std::vector<BufferInfo> args, results;
  FunctionInfo info{};
  std::unique_ptr<CompiledFunction> fn;
  std::string error;

  // Success clears the message, failure copies the CompiledFunction's.
  int Take(bool ok) {
    if (ok)
      error.clear();
    else
      error = fn->error_msg();
    return ok ? 1 : 0;
  }
  // "argument index 3 is out of range: demo::Mnist has 1 argument", the
  // wording of CompiledFunction's own index checks.
  bool CheckIndex(int index, int count, const char *what) {
    if (index >= 0 && index < count) {
      error.clear();
      return true;
    }
    error = std::string(what) + " index " + std::to_string(index) +
            " is out of range: " + ClassName() + " has " +
            std::to_string(count) + " " + what + (count == 1 ? "" : "s");
    return false;
  }
  std::string ClassName() const {
    return c_info->class_name ? c_info->class_name : "the model";
  }
  int Lookup(const char *name, const tfaot_buffer_info *table, int count,
             const char *what) {
    if (name)
      for (int i = 0; i < count; ++i)
        if (table[i].name && std::string(table[i].name) == name) {
          error.clear();
          return i;
        }
    std::string names;
    for (int i = 0; i < count; ++i)
      names += std::string(names.empty() ? "" : ", ") + "'" +
               (table[i].name ? table[i].name : "") + "'";
    error = "no " + std::string(what) + " named '" + (name ? name : "(null)") +
            "': " + ClassName() + "'s " + what + "s are " +
            (names.empty() ? "none" : names);
    return -1;
  }
};

namespace {
std::vector<BufferInfo> CopyTable(const tfaot_buffer_info *table, int count) {
  std::vector<BufferInfo> out;
  for (int i = 0; i < count; ++i)
    out.push_back({table[i].name, static_cast<DType>(table[i].dtype),
                   table[i].rank, table[i].dims, table[i].num_elements,
                   table[i].size_bytes});
  return out;
}
} // namespace

extern "C" {

int tfaot_c_api_version(void) { return TFAOT_C_API_VERSION; }

const char *tfaot_dtype_name(int32_t dtype) {
  return tfaot::DTypeName(static_cast<DType>(dtype));
}

size_t tfaot_dtype_size(int32_t dtype) {
  return tfaot::DTypeSize(static_cast<DType>(dtype));
}

tfaot_instance *tfaot_create(const tfaot_function_info *info,
                             int alloc_mode) {
  if (!info || (alloc_mode != TFAOT_ALLOC_ARGS_AND_RESULTS &&
                alloc_mode != TFAOT_ALLOC_RESULTS_ONLY))
    return nullptr;
  try {
    auto instance = std::make_unique<tfaot_instance>();
    instance->c_info = info;
    instance->args = CopyTable(info->args, info->num_args);
    instance->results = CopyTable(info->results, info->num_results);
    FunctionInfo &cpp = instance->info;
    cpp.class_name = info->class_name;
    cpp.entry = info->entry;
    cpp.num_args = info->num_args;
    cpp.args = instance->args.empty() ? nullptr : instance->args.data();
    cpp.num_results = info->num_results;
    cpp.results = instance->results.empty() ? nullptr : instance->results.data();
    cpp.temp_bytes = info->temp_bytes;
    cpp.num_buckets = info->num_buckets;
    cpp.bucket_batches = info->bucket_batches;
    cpp.bucket_entries = info->bucket_entries;
    cpp.num_bounded_results = info->num_bounded_results;
    cpp.bounded_results = info->bounded_results;
    instance->fn = std::make_unique<CompiledFunction>(
        cpp, alloc_mode == TFAOT_ALLOC_RESULTS_ONLY
                 ? CompiledFunction::AllocMode::kResultsOnly
                 : CompiledFunction::AllocMode::kArgsAndResults);
    return instance.release();
  } catch (...) { // std::bad_alloc: the buffers or the arena.
    return nullptr;
  }
}

void tfaot_destroy(tfaot_instance *instance) { delete instance; }

const tfaot_function_info *tfaot_info(const tfaot_instance *instance) {
  return instance->c_info;
}

int tfaot_run(tfaot_instance *instance) {
  return instance->Take(instance->fn->Run());
}

const char *tfaot_error_msg(const tfaot_instance *instance) {
  return instance->error.c_str();
}

int tfaot_num_args(const tfaot_instance *instance) {
  return instance->c_info->num_args;
}

int tfaot_num_results(const tfaot_instance *instance) {
  return instance->c_info->num_results;
}

const tfaot_buffer_info *tfaot_arg_info(tfaot_instance *instance, int index) {
  if (!instance->CheckIndex(index, instance->c_info->num_args, "argument"))
    return nullptr;
  return &instance->c_info->args[index];
}

const tfaot_buffer_info *tfaot_result_info(tfaot_instance *instance,
                                           int index) {
  if (!instance->CheckIndex(index, instance->c_info->num_results, "result"))
    return nullptr;
  return &instance->c_info->results[index];
}

int tfaot_arg_index(tfaot_instance *instance, const char *name) {
  return instance->Lookup(name, instance->c_info->args,
                          instance->c_info->num_args, "argument");
}

int tfaot_result_index(tfaot_instance *instance, const char *name) {
  return instance->Lookup(name, instance->c_info->results,
                          instance->c_info->num_results, "result");
}

size_t tfaot_arg_size(tfaot_instance *instance, int index) {
  const tfaot_buffer_info *info = tfaot_arg_info(instance, index);
  return info ? info->size_bytes : 0;
}

size_t tfaot_result_size(tfaot_instance *instance, int index) {
  const tfaot_buffer_info *info = tfaot_result_info(instance, index);
  return info ? info->size_bytes : 0;
}

void *tfaot_arg_data(tfaot_instance *instance, int index) {
  if (!instance->CheckIndex(index, instance->c_info->num_args, "argument"))
    return nullptr;
  return instance->fn->arg_data(index);
}

void *tfaot_result_data(tfaot_instance *instance, int index) {
  if (!instance->CheckIndex(index, instance->c_info->num_results, "result"))
    return nullptr;
  return instance->fn->result_data(index);
}

const int64_t *tfaot_result_dims(tfaot_instance *instance, int index) {
  if (!instance->CheckIndex(index, instance->c_info->num_results, "result"))
    return nullptr;
  return instance->fn->result_dims(index);
}

int tfaot_set_arg_data(tfaot_instance *instance, int index, const void *data,
                       size_t size_bytes) {
  return instance->Take(instance->fn->set_arg_data(index, data, size_bytes));
}

int tfaot_set_arg_bytes(tfaot_instance *instance, int index, const void *data,
                        size_t size) {
  return instance->Take(instance->fn->set_arg_bytes(index, data, size));
}

size_t tfaot_temp_size(const tfaot_instance *instance) {
  return instance->fn->temp_size();
}

void *tfaot_temp_data(tfaot_instance *instance) {
  return instance->fn->temp_data();
}

int tfaot_set_temp_buffer(tfaot_instance *instance, void *data,
                          size_t size_bytes) {
  try {
    return instance->Take(instance->fn->set_temp_buffer(data, size_bytes));
  } catch (...) { // Going back to an owned arena allocates it.
    instance->error = "out of memory allocating the arena of " +
                      instance->ClassName();
    return 0;
  }
}

int tfaot_set_num_threads(tfaot_instance *instance, int num_threads) {
  try {
    return instance->Take(instance->fn->set_num_threads(num_threads));
  } catch (...) { // std::thread or the pool's allocation.
    instance->error = "cannot start " + std::to_string(num_threads) +
                      " threads for " + instance->ClassName();
    return 0;
  }
}

int tfaot_num_threads(const tfaot_instance *instance) {
  return instance->fn->num_threads();
}

void tfaot_set_thread_pool(tfaot_instance *instance, tfaot_thread_pool *pool) {
  instance->fn->set_thread_pool(pool ? &pool->pool : nullptr);
  instance->error.clear();
}

tfaot_thread_pool *tfaot_thread_pool_create(int num_threads) {
  if (num_threads < 1)
    return nullptr;
  try {
    return new tfaot_thread_pool(num_threads);
  } catch (...) {
    return nullptr;
  }
}

void tfaot_thread_pool_destroy(tfaot_thread_pool *pool) { delete pool; }

int tfaot_hardware_threads(void) { return tfaot::ThreadPool::HardwareThreads(); }

int tfaot_set_batch_size(tfaot_instance *instance, int64_t batch) {
  return instance->Take(instance->fn->set_batch_size(batch));
}

int64_t tfaot_batch_size(const tfaot_instance *instance) {
  return instance->fn->batch_size();
}

int64_t tfaot_max_batch_size(const tfaot_instance *instance) {
  return instance->fn->max_batch_size();
}

int64_t tfaot_bucket_for_batch(const tfaot_instance *instance) {
  return instance->fn->bucket_for_batch();
}

} // extern "C"
