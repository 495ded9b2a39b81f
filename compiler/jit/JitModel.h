//===- JitModel.h - Run a compiled object inside the compiler ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot bench` and `--quantize=int8`'s calibration run what they compiled
// without a C++ compiler or linker: the object is linked into this process
// with LLVM's ORC JIT, and its entry is called the way the runtime's
// CompiledFunction::Run() calls it (an array of argument pointers, one of
// result pointers, the 64-byte aligned arena), with the runtime's thread
// pool current.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_JIT_JITMODEL_H
#define TFAOT_COMPILER_JIT_JITMODEL_H

#include "compiler/driver/Driver.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace tfaot {

class ThreadPool;

/// A 64-byte aligned, zeroed block (what the generated code assumes of the
/// arena; the argument and result buffers get the same).
struct AlignedBuffer {
  explicit AlignedBuffer(uint64_t bytes);
  std::unique_ptr<void, decltype(&std::free)> data;
};

/// Bytes of a tensor with this signature.
uint64_t bufferBytes(const TensorSignature &sig);

/// The largest entry of `artifacts` linked into this process, with its
/// argument and result buffers (zeroed), arena and a pool of `threads`.
class JitModel {
public:
  static llvm::Expected<std::unique_ptr<JitModel>>
  load(const CompiledArtifacts &artifacts, int threads);
  ~JitModel();

  /// One Run(), on the pool. False when the generated code reported an
  /// error (an index out of range...): runError() then holds the message
  /// that CompiledFunction::Run() would leave in error_msg().
  [[nodiscard]] bool run();
  const std::string &runError() const { return runError_; }

  const FunctionSignature &signature() const { return signature_; }
  void *arg(size_t i) { return args_[i].data.get(); }
  void *result(size_t i) { return results_[i].data.get(); }
  /// Result i's dims after the last run(): the signature's shape, or for a
  /// result whose size depends on data (TensorSignature::bounded) the dims
  /// the run wrote (its buffer holds that many elements first).
  std::vector<int64_t> resultShape(size_t i) const;

private:
  JitModel() = default;
  using Entry = void (*)(void *, void *, void *);
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  Entry entry_ = nullptr;
  FunctionSignature signature_;
  /// The results, then one dims buffer per bounded result.
  std::vector<AlignedBuffer> args_, results_;
  /// Where in results_ each bounded result's dims are.
  std::vector<size_t> resultDims_;
  std::vector<void *> argPointers_, resultPointers_;
  std::unique_ptr<AlignedBuffer> arena_;
  std::unique_ptr<ThreadPool> pool_;
  std::string runError_;
};

/// JitModel::load for a command that runs a graph it has just compiled
/// (`tfaot bench`, `tfaot run`). Graphs with string arguments are refused:
/// the JIT links libc and libm, not the runtime's JPEG decoder, so the
/// user is told to feed the decoded image instead. Null after printing
/// "<graph>: error: ..." naming `command`.
std::unique_ptr<JitModel> loadCompiledGraph(const CompiledArtifacts &artifacts,
                                            int threads,
                                            const std::string &graph,
                                            llvm::StringRef command,
                                            llvm::raw_ostream &errs);

/// model.run() for `tfaot run` and `tfaot bench`: false after printing
/// "<graph>: error: the compiled graph failed at run time: <message>", the
/// message being the one a linked program's error_msg() would hold.
bool runOrReport(JitModel &model, const std::string &graph,
                 llvm::raw_ostream &errs);

/// The values `tfaot run` and `tfaot bench` fill an argument with when
/// given no data for it, as their messages state them.
inline constexpr const char kRandomInputs[] =
    "floats in [-1, 1), integers in [0, 10)";

/// Fills each argument of `model` not marked in `given` (empty: none is)
/// with random data (kRandomInputs: floats uniform in [-1, 1), integers
/// uniform in [0, 10), small enough to be valid indices, bools 0 or 1) from
/// one generator seeded with `seed`, in argument order. Returns the
/// arguments left zero: types with no random values (float16, bfloat16,
/// complex, strings).
std::vector<size_t> fillRandomInputs(JitModel &model, uint64_t seed,
                                     const std::vector<bool> &given = {});

} // namespace tfaot

#endif // TFAOT_COMPILER_JIT_JITMODEL_H
