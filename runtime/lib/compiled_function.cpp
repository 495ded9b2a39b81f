//===- compiled_function.cpp - Buffers, checks and Run() ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Implements tfaot::CompiledFunction, the base class of every generated class.
// The instance owns its result buffers (and, in kArgsAndResults mode, its
// argument buffers), tracks which argument each entry-function slot currently
// points at, and refuses to call the generated code when an argument is
// missing or was given with the wrong size: the generated code trusts the
// BufferInfo tables blindly, so this is the last place a bad buffer can be
// caught before it is read out of bounds.
//
//===----------------------------------------------------------------------===//

#include "tfaot/runtime/compiled_function.h"

#include "parallel.h"
#include "run_status.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>

namespace tfaot {

namespace {

// 64 bytes covers the widest vector loads the backends emit (AVX-512) and a
// cache line, so generated code may assume aligned access to every buffer
// the instance owns.
constexpr size_t kBufferAlignment = 64;

// Returns a zeroed, kBufferAlignment-aligned block of at least `size` bytes.
// Zero-size buffers (tensors with a 0 dimension) still get a real block so
// that "null" keeps meaning "unset" for arguments and results are never null.
void *AllocateBuffer(size_t size) {
  if (size > std::numeric_limits<size_t>::max() - (kBufferAlignment - 1))
    throw std::bad_alloc();
  // std::aligned_alloc requires the size to be a multiple of the alignment.
  size_t rounded = (size + kBufferAlignment - 1) / kBufferAlignment *
                   kBufferAlignment;
  if (rounded == 0)
    rounded = kBufferAlignment;
  void *block = std::aligned_alloc(kBufferAlignment, rounded);
  if (!block)
    throw std::bad_alloc();
  // Zeroed so that a model run on untouched owned arguments is deterministic.
  std::memset(block, 0, rounded);
  return block;
}

// A pointer array plus the buffers it owns, freed on scope exit unless
// released: the constructor allocates several of these and must not leak the
// earlier ones when a later allocation throws.
class BufferArray {
public:
  explicit BufferArray(size_t count)
      : count_(count), buffers_(new void *[count]()) {}
  ~BufferArray() { Free(buffers_, count_); }
  BufferArray(const BufferArray &) = delete;
  BufferArray &operator=(const BufferArray &) = delete;

  void **get() const { return buffers_; }
  void **release() {
    void **buffers = buffers_;
    buffers_ = nullptr;
    return buffers;
  }

  static void Free(void **buffers, size_t count) {
    if (!buffers)
      return;
    for (size_t i = 0; i < count; ++i)
      std::free(buffers[i]); // Null entries (unowned slots) are fine here.
    delete[] buffers;
  }

private:
  size_t count_;
  void **buffers_;
};

// A negative count in a hand-written or corrupt FunctionInfo is treated as
// zero rather than turned into a huge allocation.
size_t Count(int32_t n) { return n > 0 ? static_cast<size_t>(n) : 0; }

const char *NameOr(const char *name, const char *fallback) {
  return name ? name : fallback;
}

// "argument 0 ('x')" - the index matches set_argN_data() in the generated
// class and the name matches the feed in the user's config, so both are
// given.
std::string DescribeArg(const FunctionInfo &info, int index) {
  return "argument " + std::to_string(index) + " ('" +
         NameOr(info.args[index].name, "") + "')";
}

bool IsBytes(const FunctionInfo &info, int index) {
  return info.args[index].dtype == DType::kString;
}

} // namespace

CompiledFunction::CompiledFunction(const FunctionInfo &info, AllocMode mode)
    : info_(info), mode_(mode) {
  const size_t num_args = Count(info.num_args);
  const size_t num_results = Count(info.num_results);

  // Arrays are allocated even when a count is 0, so the entry function always
  // receives non-null `args` / `results` pointers.
  BufferArray owned_args(num_args);
  const size_t num_bounded = Count(info.num_bounded_results);
  BufferArray results(num_results + num_bounded);
  if (mode == AllocMode::kArgsAndResults) {
    for (size_t i = 0; i < num_args; ++i)
      owned_args.get()[i] = AllocateBuffer(info.args[i].size_bytes);
  }
  for (size_t i = 0; i < num_results; ++i)
    results.get()[i] = AllocateBuffer(info.results[i].size_bytes);
  // The run-time dims of bounded results start as their bounds.
  for (size_t j = 0; j < num_bounded; ++j) {
    const BufferInfo &result = info.results[info.bounded_results[j]];
    const size_t rank = Count(result.rank);
    auto *dims = static_cast<int64_t *>(
        AllocateBuffer(sizeof(int64_t) * (rank > 0 ? rank : 1)));
    std::copy(result.dims, result.dims + rank, dims);
    results.get()[num_results + j] = dims;
  }

  // These only alias other memory; unique_ptr frees them if a later `new`
  // throws (the BufferArrays above free the buffers themselves).
  std::unique_ptr<void *[]> args(new void *[num_args]());
  std::unique_ptr<bool[]> poisoned(new bool[num_args]());
  std::unique_ptr<size_t[]> given(new size_t[num_args]());
  std::unique_ptr<Bytes[]> bytes(new Bytes[num_args]());
  // Initially every argument points at its owned buffer (null, i.e. unset,
  // in kResultsOnly mode). String arguments start unset in both modes: no
  // default content would mean anything.
  for (size_t i = 0; i < num_args; ++i)
    args[i] = IsBytes(info, int(i)) ? nullptr : owned_args.get()[i];

  args_ = args.release();
  arg_poisoned_ = poisoned.release();
  arg_given_bytes_ = given.release();
  bytes_ = bytes.release();
  // The arena of temporaries, allocated once here so that Run() never
  // allocates. Freed by the destructor, or early by set_temp_buffer().
  if (info.temp_bytes > 0)
    owned_temp_ = AllocateBuffer(info.temp_bytes);
  temp_ = owned_temp_;

  owned_args_ = owned_args.release();
  results_ = results.release();
  batch_ = max_batch_size();
}

CompiledFunction::~CompiledFunction() {
  BufferArray::Free(owned_args_, Count(info_.num_args));
  BufferArray::Free(results_, Count(info_.num_results) +
                                  Count(info_.num_bounded_results));
  // args_ only aliases owned or caller buffers; free the array, not them.
  delete[] args_;
  delete[] arg_poisoned_;
  delete[] arg_given_bytes_;
  delete[] bytes_;
  std::free(owned_temp_);
}

bool CompiledFunction::set_temp_buffer(void *data, size_t size_bytes) {
  error_msg_.clear();
  if (!data) {
    // Back to an instance-owned arena; allocate it now, outside Run().
    temp_error_.clear();
    if (!owned_temp_ && info_.temp_bytes > 0)
      owned_temp_ = AllocateBuffer(info_.temp_bytes);
    temp_ = owned_temp_;
    return true;
  }
  const std::string name = NameOr(info_.class_name, "the function");
  if (size_bytes < info_.temp_bytes) {
    temp_error_ = "the temp buffer given to " + name + " has " +
                  std::to_string(size_bytes) + " bytes but needs at least " +
                  std::to_string(info_.temp_bytes) + " (kTempBytes)";
  } else if (reinterpret_cast<uintptr_t>(data) % kTempAlignment != 0) {
    temp_error_ = "the temp buffer given to " + name + " is not " +
                  std::to_string(kTempAlignment) + "-byte aligned";
  } else {
    temp_error_.clear();
    temp_ = data;
    // The caller's arena replaces ours for good (until set back to null).
    std::free(owned_temp_);
    owned_temp_ = nullptr;
    return true;
  }
  // Like a bad set_arg_data(): do not silently keep running on the previous
  // arena, the caller believes theirs is in use.
  temp_ = nullptr;
  error_msg_ = temp_error_;
  return false;
}

bool CompiledFunction::CheckIndex(int index, int count,
                                  const char *what) const {
  if (index >= 0 && index < count)
    return true;
  error_msg_ = std::string(what) + " index " + std::to_string(index) +
               " is out of range: " + NameOr(info_.class_name, "the function") +
               " has " + std::to_string(count) + " " + what +
               (count == 1 ? "" : "s");
  return false;
}

bool CompiledFunction::Run() {
  error_msg_.clear();
  const int num_args = static_cast<int>(Count(info_.num_args));
  // Check every argument before calling anything: the generated code reads
  // exactly size_bytes from each pointer and cannot detect a bad one itself.
  for (int i = 0; i < num_args; ++i) {
    if (arg_poisoned_[i]) {
      error_msg_ = DescribeArg(info_, i) + " was given " +
                   std::to_string(arg_given_bytes_[i]) + " bytes but needs " +
                   std::to_string(info_.args[i].size_bytes);
      return false;
    }
    if (!args_[i]) {
      error_msg_ = DescribeArg(info_, i) + " is not set: call set_arg" +
                   std::to_string(i) +
                   (IsBytes(info_, i) ? "_data(data, size)" : "_data()") +
                   " before Run()";
      return false;
    }
  }
  if (!temp_error_.empty()) {
    error_msg_ = temp_error_;
    return false;
  }
  EntryFunction entry = info_.entry;
  if (info_.num_buckets > 0) {
    // set_batch_size() keeps batch_ <= the largest bucket, so one holds it.
    const int bucket = BucketIndex();
    entry = info_.bucket_entries[bucket];
    ZeroPaddingRows(info_.bucket_batches[bucket]);
  }
  if (!entry) {
    error_msg_ = std::string(NameOr(info_.class_name, "the function")) +
                 " has no entry function";
    return false;
  }
  internal::ClearRunError();
  {
    internal::ScopedThreadPool pool(thread_pool_);
    entry(args_, results_, temp_);
  }
  if (!internal::RunError().empty()) {
    error_msg_ = internal::RunError();
    internal::ClearRunError();
    return false;
  }
  return true;
}

void CompiledFunction::set_thread_pool(ThreadPool *pool) {
  thread_pool_ = pool;
  owned_pool_.reset();
}

bool CompiledFunction::set_num_threads(int num_threads) {
  if (num_threads < 1) {
    error_msg_ = "set_num_threads(" + std::to_string(num_threads) +
                 "): the number of threads must be at least 1";
    return false;
  }
  error_msg_.clear();
  // Replaced before the old pool goes, so thread_pool_ never dangles.
  std::unique_ptr<ThreadPool> pool;
  if (num_threads > 1)
    pool = std::make_unique<ThreadPool>(num_threads);
  thread_pool_ = pool.get();
  owned_pool_ = std::move(pool);
  return true;
}

int64_t CompiledFunction::max_batch_size() const {
  return info_.num_buckets > 0 ? info_.bucket_batches[info_.num_buckets - 1]
                               : 0;
}

int CompiledFunction::BucketIndex() const {
  for (int i = 0; i < info_.num_buckets; ++i)
    if (info_.bucket_batches[i] >= batch_)
      return i;
  return -1;
}

int64_t CompiledFunction::bucket_for_batch() const {
  const int bucket = BucketIndex();
  return bucket < 0 ? 0 : info_.bucket_batches[bucket];
}

bool CompiledFunction::set_batch_size(int64_t batch) {
  error_msg_.clear();
  int64_t max = max_batch_size();
  if (max == 0) {
    error_msg_ = std::string(NameOr(info_.class_name, "the function")) +
                 " was compiled without batch buckets (tfaot compile "
                 "--batch); its batch is fixed";
    return false;
  }
  if (batch < 1 || batch > max) {
    error_msg_ = "batch size " + std::to_string(batch) +
                 " is out of range: " +
                 NameOr(info_.class_name, "the function") +
                 " takes 1 to " + std::to_string(max);
    return false;
  }
  batch_ = batch;
  return true;
}

void CompiledFunction::ZeroPaddingRows(int64_t bucket) {
  int64_t max = max_batch_size();
  for (int i = 0; i < info_.num_args; ++i) {
    if (!owned_args_ || args_[i] != owned_args_[i])
      continue; // The caller's memory is read, never written.
    size_t row = info_.args[i].size_bytes / static_cast<size_t>(max);
    std::memset(static_cast<char *>(args_[i]) + row * batch_, 0,
                row * static_cast<size_t>(bucket - batch_));
  }
}

void CompiledFunction::set_arg_data(int index, const void *data) {
  if (!CheckIndex(index, info_.num_args, "argument"))
    return;
  arg_poisoned_[index] = false;
  arg_given_bytes_[index] = 0;
  // The entry ABI takes `void *const *` for uniformity with results, but the
  // generated code never writes through argument pointers, so dropping const
  // on caller data is safe.
  if (data)
    args_[index] = const_cast<void *>(data);
  else
    args_[index] = mode_ == AllocMode::kArgsAndResults && !IsBytes(info_, index)
                       ? owned_args_[index]
                       : nullptr;
  error_msg_.clear();
}

bool CompiledFunction::set_arg_bytes(int index, const void *data,
                                     size_t size) {
  if (!CheckIndex(index, info_.num_args, "argument"))
    return false;
  if (!IsBytes(info_, index)) {
    error_msg_ = DescribeArg(info_, index) + " is " +
                 DTypeName(info_.args[index].dtype) +
                 ", not a string: set it with set_arg_data()";
    return false;
  }
  bytes_[index] = Bytes{data, static_cast<int64_t>(size)};
  set_arg_data(index, &bytes_[index]);
  return true;
}

bool CompiledFunction::set_arg_data(int index, const void *data,
                                    size_t size_bytes) {
  if (!CheckIndex(index, info_.num_args, "argument"))
    return false;
  // Null means "revert", as in the unchecked overload; there is no caller
  // buffer whose size could be wrong.
  const size_t expected = info_.args[index].size_bytes;
  if (data && size_bytes != expected) {
    // Unset rather than keep the previous buffer: the caller believes the new
    // data is in place, so running on stale data would be a silent bug.
    args_[index] = nullptr;
    arg_poisoned_[index] = true;
    arg_given_bytes_[index] = size_bytes;
    error_msg_ = DescribeArg(info_, index) + " was given " +
                 std::to_string(size_bytes) + " bytes but needs " +
                 std::to_string(expected);
    return false;
  }
  set_arg_data(index, data);
  return true;
}

void *CompiledFunction::arg_data(int index) {
  if (!CheckIndex(index, info_.num_args, "argument"))
    return nullptr;
  return args_[index];
}

const void *CompiledFunction::arg_data(int index) const {
  if (!CheckIndex(index, info_.num_args, "argument"))
    return nullptr;
  return args_[index];
}

void *CompiledFunction::result_data(int index) {
  if (!CheckIndex(index, info_.num_results, "result"))
    return nullptr;
  return results_[index];
}

const void *CompiledFunction::result_data(int index) const {
  if (!CheckIndex(index, info_.num_results, "result"))
    return nullptr;
  return results_[index];
}

int CompiledFunction::BoundedSlot(int index) const {
  for (int j = 0; j < info_.num_bounded_results; ++j)
    if (info_.bounded_results[j] == index)
      return j;
  return -1;
}

bool CompiledFunction::result_is_bounded(int index) const {
  return CheckIndex(index, info_.num_results, "result") &&
         BoundedSlot(index) >= 0;
}

const int64_t *CompiledFunction::result_dims(int index) const {
  if (!CheckIndex(index, info_.num_results, "result"))
    return nullptr;
  int slot = BoundedSlot(index);
  if (slot < 0)
    return info_.results[index].dims;
  return static_cast<const int64_t *>(results_[info_.num_results + slot]);
}

int64_t CompiledFunction::result_num_elements(int index) const {
  const int64_t *dims = result_dims(index);
  if (!dims)
    return 0;
  int64_t elements = 1;
  for (int d = 0; d < info_.results[index].rank; ++d)
    elements *= dims[d];
  return elements;
}

int CompiledFunction::LookupArgIndex(const std::string &name) const {
  for (int i = 0; i < info_.num_args; ++i)
    if (info_.args[i].name && name == info_.args[i].name)
      return i;
  return -1;
}

int CompiledFunction::LookupResultIndex(const std::string &name) const {
  for (int i = 0; i < info_.num_results; ++i)
    if (info_.results[i].name && name == info_.results[i].name)
      return i;
  return -1;
}

} // namespace tfaot
