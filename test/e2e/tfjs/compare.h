//===- compare.h - tfaot vs the TF.js oracle, for any model -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The model-independent part of the e2e.tfjs programs, built once into the
// static library tfaot_tfjs_compare_lib (CMakeLists.txt). Each program's
// own source, compare_main.cpp, only turns its definitions into a Config
// and hands the generated class over through ModelHooks; compareMain()
// does the rest.
//
// It knows the model only through the generated class's FunctionInfo
// (StaticInfo(): names, dtypes, shapes of every argument and result) and:
//   1. fills every argument with deterministic pseudo-random data (fixed
//      seed; floats uniform in [0,1), integers uniform in [0,10), bools
//      0/1, unless an input range says otherwise; fixed inputs name
//      arguments that hold one value everywhere);
//   2. writes them as raw files plus in.json, and runs the TF.js oracle
//      (node run.js --model ... --inputs in.json --out oracle/) on them,
//      asking it for the results' names;
//   3. runs the compiled function on the same data;
//   4. compares every result with the oracle's: shape exactly, values with
//      numpy.allclose semantics |got - want| <= atol + rtol * |want| (NaN
//      matches NaN), reporting max abs / rel error and the worst element;
//   5. runs the function again on 2 threads (set_num_threads) and on a
//      shared pool of 3, and requires results bit-identical to step 3's.
// With sensitivity, step 2 runs the oracle a second time on the float
// arguments moved by one ulp each (up or down at random), and a result's
// atol becomes max(atol, 2 * the largest change that caused in TF.js's own
// output): a network that amplifies rounding (deep, large weights) cannot
// be held to a tighter bound than its own float32 conditioning, and the
// oracle measures that bound rather than a hand-picked tolerance hiding it.
// For a --target=cuda class (Config::cuda, the tests gpu.tfjs.<name>) it
// runs no oracle: step 1 checks that the inputs it generates are the ones
// the CPU build saved in the work directory, step 2 reads the oracle
// outputs saved there, and step 5 runs the model a second time (weights
// and kernels already on the GPU), requiring the first run's results bit
// for bit. Without a GPU it exits 77 (ctest SKIP).
// Exit status: 0 all match, 1 a mismatch, 2 the comparison could not be run
// (oracle failed, bad output files, ...), 77 no GPU (CUDA builds).
//
// Options (for debugging by hand): --seed N, --rtol R, --atol A, --work DIR,
// --model FILE (another TF.js model.json for the oracle), --sensitivity (as
// Config::sensitivity), --verbose (oracle progress, and every mismatching
// element up to 20 per result).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_E2E_TFJS_COMPARE_H
#define TFAOT_TEST_E2E_TFJS_COMPARE_H

#include <cstdint>
#include <memory>

#include "tfaot/runtime/compiled_function.h"

namespace tfjs_compare {

/// What one program compares: its model, the oracle, and the built-in
/// values of the options.
struct Config {
  const char *name = nullptr;      ///< The test's name (e2e.tfjs.<name>).
  const char *model = nullptr;     ///< The model.json TF.js runs.
  const char *node = "node";       ///< Node.js, to run the oracle.
  const char *oracle = nullptr;    ///< tools/tfjs-oracle/run.js.
  const char *work_dir = nullptr;  ///< Scratch directory (inputs, outputs).
  double rtol = 1e-4;
  double atol = 1e-4;
  uint64_t seed = 20240229;
  /// Widen each result's atol to twice TF.js's one-ulp sensitivity.
  bool sensitivity = false;
  /// "name=value,..." (null: none): arguments held at one value.
  const char *fixed_inputs = nullptr;
  /// Every argument uniform in [input_low, input_high) instead of the
  /// per-dtype default.
  bool has_input_range = false;
  double input_low = 0, input_high = 0;
  /// The model is a --target=cuda class: no oracle run, the CPU test's
  /// saved inputs and outputs are read instead.
  bool cuda = false;
};

/// The generated class, seen through its base: its tables, a new instance,
/// and its Run() (the CUDA class's hides CompiledFunction::Run()).
struct ModelHooks {
  const tfaot::FunctionInfo &info;
  std::unique_ptr<tfaot::CompiledFunction> (*create)();
  bool (*run)(tfaot::CompiledFunction &model);
};

/// Runs the comparison on the command line `argc`/`argv`; returns the
/// program's exit status.
int compareMain(int argc, char **argv, const Config &config,
                const ModelHooks &model);

}  // namespace tfjs_compare

#endif  // TFAOT_TEST_E2E_TFJS_COMPARE_H
