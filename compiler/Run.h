//===- Run.h - tfaot run: compile a graph and run it once -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot run` compiles a graph exactly as `tfaot compile` does, links the
// object into this process (JitModel.h, as `tfaot bench` does), feeds it
// .npy or raw .bin inputs (random ones for the arguments given none), runs
// it once and writes each result as a .npy file; with --compare, checks
// the results against reference .npy files. The results are the bytes the
// same object linked into a program computes.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_RUN_H
#define TFAOT_COMPILER_RUN_H

#include "compiler/driver/Driver.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfaot {

struct RunOptions {
  /// The graph, feeds, fetches and target, as for compile (its output
  /// fields are ignored).
  CompileOptions compile;
  /// --input name=file.npy or name=file.bin: the argument's data.
  std::vector<std::string> inputs;
  std::string outputDir = ".";  ///< Where the results' .npy files go.
  int threads = 1;              ///< As `tfaot bench --threads`.
  uint64_t seed = 0;            ///< Of the random inputs.
  /// When set, DIR/<result>.npy is each result's reference.
  std::string compareDir;
  double rtol = 1e-5, atol = 1e-6;
};

/// Runs it. Returns the exit code: 0, or 1 after an error or when a result
/// does not match its reference.
int runGraph(const RunOptions &options, llvm::raw_ostream &out,
             llvm::raw_ostream &errs);

/// A result compared with its reference, element by element as doubles.
struct Comparison {
  double maxAbsError = 0, maxRelError = 0;  ///< Over elements that are numbers.
  int64_t mismatches = 0;                   ///< |a-b| > atol + rtol * |b|.
  int64_t firstMismatch = -1;               ///< Its index, -1 if none.
};

/// Compares `actual` with `expected` (same length): NaN equals only NaN,
/// an infinity only itself.
Comparison compareValues(const std::vector<double> &actual,
                         const std::vector<double> &expected, double rtol,
                         double atol);

/// `name` as a file name: every character outside [A-Za-z0-9._-] becomes
/// '_' ("a/b:1" -> "a_b_1"), and "", "." and ".." become "_".
std::string fileNameFor(const std::string &name);

} // namespace tfaot

#endif // TFAOT_COMPILER_RUN_H
