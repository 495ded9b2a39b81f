//===- ObjectEmitter.h - LLVM dialect to a native object file --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Translates an LLVM-dialect module to LLVM IR, optimizes it for the chosen
// target and writes a relocatable object (weights are in its rodata).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_BACKENDS_CPU_OBJECTEMITTER_H
#define TFAOT_BACKENDS_CPU_OBJECTEMITTER_H

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tfaot::cpu {

struct TargetOptions {
  std::string triple;    ///< Empty: the host's.
  std::string cpu;       ///< Empty: generic; "native": the host CPU.
  std::string features;  ///< LLVM feature string, e.g. "+avx2,+fma".
  /// LLVM -O level. 2, not 3: tfaot's kernels are already vectorized, and
  /// -O3 made them slower (2026-11-26, 2-core EPYC: ResNet-50 65.0 against
  /// 60.7 ms, blazeface 10.2 against 7.2) and compiled slower (ResNet-50
  /// 11.5 against 8.6 s).
  int optLevel = 2;
};

/// Checks `target`'s triple, CPU and features against what LLVM knows, so
/// that a typo is one clear message before any work, not LLVM's warnings
/// (once per code generator created) followed by a fatal error deep inside
/// code generation. Returns "" when the target is usable, else why not.
std::string checkTarget(const TargetOptions &target);

/// Writes the CPUs LLVM knows for `target`'s triple, one a line, for
/// --target_cpu help. On an unknown triple returns false with `error` set.
bool printTargetCpus(const TargetOptions &target, llvm::raw_ostream &os,
                     std::string &error);

/// Width in bits of the vector registers the contraction kernels should
/// fill on `target`: 512 with AVX-512, 256 with AVX, else 128.
unsigned vectorBitsFor(const TargetOptions &target);

/// Whether `target` has AMX tiles with bf16 products (amx-bf16: Sapphire
/// Rapids and later, or 'native' on such a machine).
bool hasAmxBf16(const TargetOptions &target);

/// Emits `modules` (LLVM dialect; several for batch buckets, one entry
/// each, linked together with identical constants merged) as one object
/// file into `object`. On failure returns false with a message in `error`.
/// If `llvmIR` is non-null it also receives the optimized LLVM IR as text.
/// `extraIR`, LLVM IR as text, is linked in before optimization (the C
/// API's model table, compiler/driver/CApiWriter.h).
bool emitObject(llvm::ArrayRef<mlir::ModuleOp> modules,
                const TargetOptions &target, std::string &object,
                std::string &error, std::string *llvmIR = nullptr,
                llvm::StringRef extraIR = {});

} // namespace tfaot::cpu

#endif // TFAOT_BACKENDS_CPU_OBJECTEMITTER_H
