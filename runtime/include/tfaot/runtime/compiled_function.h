//===- compiled_function.h - Base of tfaot-generated classes ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Every header that `tfaot compile` writes declares a class deriving from
// tfaot::CompiledFunction. The generated class only adds static tables (names,
// dtypes, shapes, byte sizes) and typed, named accessors; buffer ownership,
// argument checking and error reporting live here, in the small runtime
// library, so they are written and tested once.
//
// This header is part of the runtime: it must not include anything from
// LLVM, MLIR, TensorFlow or Eigen.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_RUNTIME_COMPILED_FUNCTION_H
#define TFAOT_RUNTIME_COMPILED_FUNCTION_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "tfaot/runtime/thread_pool.h"

namespace tfaot {

/// Element types a compiled function can take or return. The numbering is
/// TensorFlow's DataType enum, so tools can map between the two directly.
enum class DType : int32_t {
  kFloat32 = 1,
  kFloat64 = 2,
  kInt32 = 3,
  kUInt8 = 4,
  kInt16 = 5,
  kInt8 = 6,
  /// A scalar string (bytes) argument: its buffer is one tfaot::Bytes.
  kString = 7,
  kInt64 = 9,
  kBool = 10,
  /// Quantized types are their storage integers; the float range travels
  /// in separate float results, as in TensorFlow.
  kQInt8 = 11,
  kQUInt8 = 12,
  kQInt32 = 13,
  kBFloat16 = 14,
  kQInt16 = 15,
  kQUInt16 = 16,
  kUInt16 = 17,
  kFloat16 = 19,
  kUInt32 = 22,
  kUInt64 = 23,
};

/// Size in bytes of one element of `dtype` (0 for an unknown value).
size_t DTypeSize(DType dtype);

/// TensorFlow's name of `dtype` ("float32", "int64", ...).
const char *DTypeName(DType dtype);

/// What the generated code receives for a string (bytes) argument: the
/// argument's slot points at one of these. The bytes are read during Run()
/// only and never written.
struct Bytes {
  const void *data;
  int64_t size;
};

/// Describes one argument or result buffer of a compiled function.
struct BufferInfo {
  const char *name;       ///< Feed/fetch name, as given in the config.
  DType dtype;            ///< Element type.
  int32_t rank;           ///< Number of dimensions (0 for a scalar).
  const int64_t *dims;    ///< `rank` static dimension sizes.
  int64_t num_elements;   ///< Product of dims (1 for a scalar).
  size_t size_bytes;      ///< num_elements * DTypeSize(dtype).
};

/// The generated code's entry point, uniform across models: `args[i]` and
/// `results[i]` point at buffers laid out as the BufferInfo tables say, and
/// `temp` at FunctionInfo::temp_bytes bytes of 64-byte aligned scratch memory
/// (the arena holding every temporary; null when temp_bytes is 0).
using EntryFunction = void (*)(void *const *args, void *const *results,
                               void *temp);

/// Everything the runtime needs to know about one generated function; the
/// generated header defines one of these as a static constant.
struct FunctionInfo {
  const char *class_name;  ///< Fully qualified C++ class name.
  EntryFunction entry;
  int32_t num_args;
  const BufferInfo *args;  ///< num_args entries (may be null if 0).
  int32_t num_results;
  const BufferInfo *results;  ///< num_results entries (may be null if 0).
  /// Size of the arena the entry function's temporaries are planned into
  /// (with batch buckets: the largest bucket's).
  size_t temp_bytes;
  /// Batch buckets (`tfaot compile --batch 1,8,32`): `num_buckets` batch
  /// sizes in increasing order and one entry per bucket, specialized for
  /// it. Every argument and result has the batch as its first dimension and
  /// the BufferInfo tables describe the largest bucket. 0: one entry
  /// (`entry`) for the shapes in the tables.
  int32_t num_buckets = 0;
  const int64_t *bucket_batches = nullptr;
  const EntryFunction *bucket_entries = nullptr;
  /// Results whose size depends on data (NonMaxSuppression, Where; see
  /// docs/dynamic-shapes.md): their BufferInfo holds the upper bound, and
  /// the entry function writes their run-time dims (int64, `rank` each)
  /// into one more buffer per such result, passed after the results:
  /// results[num_results + j] for result bounded_results[j].
  int32_t num_bounded_results = 0;
  const int32_t *bounded_results = nullptr;
};

/// Owns (or borrows) the argument and result buffers of one compiled function
/// and runs it. One instance must not be Run() from two threads at once;
/// distinct instances of the same class are independent.
class CompiledFunction {
public:
  /// Whether the instance allocates its own argument buffers. Result buffers
  /// are always owned by the instance.
  enum class AllocMode {
    kArgsAndResults,  ///< Allocate argument buffers too (tfcompile's default).
    kResultsOnly,     ///< Caller must set every argument with set_arg_data().
  };

  explicit CompiledFunction(const FunctionInfo &info,
                            AllocMode mode = AllocMode::kArgsAndResults);
  virtual ~CompiledFunction();
  CompiledFunction(const CompiledFunction &) = delete;
  CompiledFunction &operator=(const CompiledFunction &) = delete;

  /// Runs the function on the current arguments. Returns false, and sets
  /// error_msg(), if an argument is missing or had a bad size, or if the
  /// generated code reported bad input data (a corrupt JPEG, a crop window
  /// outside the image: the results are then unspecified); on success
  /// error_msg() is empty. Run() itself allocates nothing: temporaries live
  /// in the arena set up by the constructor or set_temp_buffer(). (A model
  /// that decodes JPEGs is the exception: libjpeg allocates its working
  /// memory per image.)
  bool Run();

  /// With batch buckets: the number of leading rows (batch entries) of
  /// every argument that hold data, 1 to max_batch_size(); the default is
  /// max_batch_size(). Run() then runs the smallest bucket that holds them
  /// and fills that many rows of every result (further rows, up to the
  /// bucket's size, are computed from padding and mean nothing). Rows past
  /// the batch size in the instance's own argument buffers are zeroed by
  /// Run(); caller buffers still hold arg_size() bytes (the largest
  /// bucket) and their extra rows are read as they are. Returns false and
  /// sets error_msg() for a size out of range (or without buckets, for any
  /// size but that of the tables' first dimension).
  bool set_batch_size(int64_t batch);
  int64_t batch_size() const { return batch_; }
  /// The largest bucket (without buckets: 0).
  int64_t max_batch_size() const;
  /// The bucket the next Run() will use (without buckets: 0).
  int64_t bucket_for_batch() const;

  /// Why the last Run() or set_arg_data() failed; empty if it did not.
  const std::string &error_msg() const { return error_msg_; }

  /// Points argument `index` at caller memory (not copied; it must stay alive
  /// and hold arg_size(index) bytes until Run() returns). Passing null
  /// reverts to the instance's own buffer (or to "unset" in kResultsOnly).
  void set_arg_data(int index, const void *data);

  /// As above, but checks that the caller's buffer has exactly the expected
  /// size. On a mismatch it returns false, sets error_msg() and leaves the
  /// argument unset, so that the next Run() fails instead of reading past
  /// the end of the caller's buffer.
  bool set_arg_data(int index, const void *data, size_t size_bytes);

  /// Sets a string (bytes) argument, e.g. the JPEG file a DecodeJpeg reads:
  /// `size` bytes at `data`, not copied, which must stay alive until Run()
  /// returns. Returns false and sets error_msg() if argument `index` is not
  /// a string. (set_arg_data() on a string argument takes a pointer to a
  /// caller-owned tfaot::Bytes instead.)
  bool set_arg_bytes(int index, const void *data, size_t size);

  /// Alignment set_temp_buffer() requires of a caller's arena.
  static constexpr size_t kTempAlignment = 64;

  /// Gives the function caller-owned scratch memory (the arena holding its
  /// temporaries) instead of the block the instance allocated; the instance
  /// then frees its own. `data` must hold at least temp_size() bytes, be
  /// kTempAlignment-aligned and stay alive, unused by anything else, until
  /// the last Run() that uses it returns; several instances that never run
  /// at the same time may share one. Otherwise it returns false, sets
  /// error_msg(), and Run() fails until a valid buffer is set. Null reverts
  /// to an instance-owned arena (allocated here, not in Run()).
  bool set_temp_buffer(void *data, size_t size_bytes);

  /// Runs the generated code's parallel loops (the tiles of convolutions
  /// and matrix products, large elementwise ops) on `pool`, which the
  /// caller owns: it must outlive every Run() that uses it, and may be
  /// shared by instances, also ones running at the same time. Null goes
  /// back to running everything on the thread that calls Run() (the
  /// default). Results are bit-identical for any pool and thread count.
  void set_thread_pool(ThreadPool *pool);

  /// As set_thread_pool(), with a pool of `num_threads` threads (the one
  /// calling Run() included) that this instance owns; 1 runs everything on
  /// the calling thread, as by default. Returns false and sets error_msg()
  /// when `num_threads` is below 1 (the pool is then left as it was).
  bool set_num_threads(int num_threads);

  /// Threads Run() uses: the pool's, 1 without one.
  int num_threads() const {
    return thread_pool_ ? thread_pool_->num_threads() : 1;
  }

  /// Bytes of scratch memory Run() needs (the generated class's kTempBytes).
  size_t temp_size() const { return info_.temp_bytes; }
  /// The arena Run() will use (null if temp_size() is 0 or it is invalid).
  void *temp_data() { return temp_; }

  /// Current buffer of argument `index` (null if unset in kResultsOnly mode).
  void *arg_data(int index);
  const void *arg_data(int index) const;
  /// Buffer of result `index`, valid until the instance is destroyed.
  void *result_data(int index);
  const void *result_data(int index) const;

  /// The dims of result `index` (result_info(index).rank of them): for a
  /// result whose size depends on data, those the last Run() produced
  /// (before any Run(), and after a failed one, its bound or zeros; the
  /// buffer, sized for the bound, holds that many valid elements first);
  /// for any other result, its static shape. Null for a bad index.
  const int64_t *result_dims(int index) const;
  /// Whether result `index`'s size depends on data (result_dims() then
  /// changes from run to run, and result_info() gives its upper bound).
  bool result_is_bounded(int index) const;
  /// Elements in result `index` after the last Run(): the product of
  /// result_dims(index).
  int64_t result_num_elements(int index) const;

  int num_args() const { return info_.num_args; }
  int num_results() const { return info_.num_results; }
  const BufferInfo &arg_info(int index) const { return info_.args[index]; }
  const BufferInfo &result_info(int index) const {
    return info_.results[index];
  }
  size_t arg_size(int index) const { return info_.args[index].size_bytes; }
  size_t result_size(int index) const {
    return info_.results[index].size_bytes;
  }
  /// Index of the argument / result with this feed / fetch name, or -1.
  int LookupArgIndex(const std::string &name) const;
  int LookupResultIndex(const std::string &name) const;

  const FunctionInfo &info() const { return info_; }

protected:
  /// For a derived class's setters that fail (CudaCompiledFunction's).
  void set_error_msg(std::string message) const {
    error_msg_ = std::move(message);
  }

private:
  // const so that the const accessors can report a bad index too; it only
  // writes error_msg_, which is mutable for that reason.
  bool CheckIndex(int index, int count, const char *what) const;
  /// Index of the smallest bucket holding batch_ rows (-1: none, or no
  /// buckets).
  int BucketIndex() const;
  /// Zeroes rows [batch_, bucket) of the instance's own argument buffers.
  void ZeroPaddingRows(int64_t bucket);
  /// Position of result `index` in bounded_results, or -1.
  int BoundedSlot(int index) const;

  const FunctionInfo &info_;
  AllocMode mode_;
  void **args_ = nullptr;        ///< Current argument pointers.
  void **owned_args_ = nullptr;  ///< Buffers this instance allocated.
  /// Result buffers, then the run-time dims of each bounded result.
  void **results_ = nullptr;
  bool *arg_poisoned_ = nullptr;  ///< Set after a set_arg_data size mismatch.
  /// Size the caller passed in the mismatching set_arg_data() call, kept so
  /// that Run() can say what was wrong, not just that something was.
  size_t *arg_given_bytes_ = nullptr;
  /// Descriptors set_arg_bytes() fills in (one per argument, used by the
  /// string ones).
  Bytes *bytes_ = nullptr;
  void *owned_temp_ = nullptr;  ///< Arena this instance allocated, if any.
  void *temp_ = nullptr;        ///< Arena passed to the entry function.
  /// Set when the caller's last set_temp_buffer() was rejected: its message
  /// is repeated by Run().
  std::string temp_error_;
  mutable std::string error_msg_;
  int64_t batch_ = 0;  ///< Rows in use (buckets only).
  ThreadPool *thread_pool_ = nullptr;  ///< Null: run on the caller only.
  std::unique_ptr<ThreadPool> owned_pool_;  ///< set_num_threads()'s pool.
};

}  // namespace tfaot

#endif  // TFAOT_RUNTIME_COMPILED_FUNCTION_H
