//===- test/e2e/tfjs/compare_main.cpp - tfaot vs the TF.js oracle ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// The one source compiled per model: tfaot_tfjs_compare() in CMakeLists.txt
// builds it with
//
//   -DTFAOT_MODEL_HEADER="<name>.h" -DTFAOT_MODEL_CLASS=tfjs::<Name>
//   -DTFAOT_TFJS_NAME="<name>" -DTFAOT_TFJS_MODEL="<model.json>"
//   -DTFAOT_TFJS_NODE="<node>" -DTFAOT_TFJS_ORACLE="<repo>/tools/tfjs-oracle/run.js"
//   -DTFAOT_TFJS_WORK_DIR="<scratch dir>"
//   [-DTFAOT_TFJS_RTOL=r] [-DTFAOT_TFJS_ATOL=a] [-DTFAOT_TFJS_SEED=s]
//   [-DTFAOT_TFJS_INPUT_LOW=lo -DTFAOT_TFJS_INPUT_HIGH=hi]
//   [-DTFAOT_TFJS_SENSITIVITY=1] [-DTFAOT_TFJS_FIXED_INPUTS="name=v,..."]
//   [-DTFAOT_TFJS_CUDA=1]
//
// and links it with the model's object and tfaot_tfjs_compare_lib, which
// does the comparison (compare.h says what it does). This file only turns
// the definitions into a Config and gives the library the generated class.
//
//===----------------------------------------------------------------------===//

#include TFAOT_MODEL_HEADER

#include "compare.h"

#include <memory>

#ifndef TFAOT_TFJS_RTOL
#define TFAOT_TFJS_RTOL 1e-4
#endif
#ifndef TFAOT_TFJS_ATOL
#define TFAOT_TFJS_ATOL 1e-4
#endif
#ifndef TFAOT_TFJS_SEED
#define TFAOT_TFJS_SEED 20240229
#endif
#ifndef TFAOT_TFJS_NODE
#define TFAOT_TFJS_NODE "node"
#endif
#if !defined(TFAOT_TFJS_NAME) || !defined(TFAOT_TFJS_MODEL) ||               \
    !defined(TFAOT_TFJS_ORACLE) || !defined(TFAOT_TFJS_WORK_DIR)
#error "define TFAOT_TFJS_NAME, _MODEL, _ORACLE and _WORK_DIR (see CMakeLists.txt)"
#endif

namespace {

std::unique_ptr<tfaot::CompiledFunction> createModel() {
  return std::make_unique<TFAOT_MODEL_CLASS>();
}

// Through the generated class: a CUDA class's Run() is its own.
bool runModel(tfaot::CompiledFunction &model) {
  return static_cast<TFAOT_MODEL_CLASS &>(model).Run();
}

}  // namespace

int main(int argc, char **argv) {
  tfjs_compare::Config config;
  config.name = TFAOT_TFJS_NAME;
  config.model = TFAOT_TFJS_MODEL;
  config.node = TFAOT_TFJS_NODE;
  config.oracle = TFAOT_TFJS_ORACLE;
  config.work_dir = TFAOT_TFJS_WORK_DIR;
  config.rtol = TFAOT_TFJS_RTOL;
  config.atol = TFAOT_TFJS_ATOL;
  config.seed = TFAOT_TFJS_SEED;
#ifdef TFAOT_TFJS_SENSITIVITY
  config.sensitivity = true;
#endif
#ifdef TFAOT_TFJS_FIXED_INPUTS
  config.fixed_inputs = TFAOT_TFJS_FIXED_INPUTS;
#endif
#if defined(TFAOT_TFJS_INPUT_LOW) && defined(TFAOT_TFJS_INPUT_HIGH)
  config.has_input_range = true;
  config.input_low = static_cast<double>(TFAOT_TFJS_INPUT_LOW);
  config.input_high = static_cast<double>(TFAOT_TFJS_INPUT_HIGH);
#endif
#ifdef TFAOT_TFJS_CUDA
  // A --target=cuda build of the model: TF.js is not run again; the CPU
  // test's saved inputs and oracle outputs are (see CMakeLists.txt).
  config.cuda = true;
#endif
  return tfjs_compare::compareMain(
      argc, argv, config,
      {TFAOT_MODEL_CLASS::StaticInfo(), createModel, runModel});
}
