//===- Compile.cpp - tfaot compile: one float or quantized build ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// See Compile.h: picks the float build, the quantized one, or the
// half-precision one with its accuracy report.
//
//===----------------------------------------------------------------------===//
#include "compiler/Compile.h"

#include "compiler/quantize/PrecisionReport.h"
#include "compiler/quantize/Quantize.h"

using namespace tfaot;

int tfaot::compile(const CompileOptions &options, llvm::raw_ostream &errs,
                   llvm::raw_ostream &out) {
  if (!options.quantize.empty())
    return compileQuantized(options, errs, out);
  if (wantsPrecisionReport(options))
    return compileWithPrecisionReport(options, errs, out);
  return buildOnce(options, BuildHooks(), errs, out);
}
