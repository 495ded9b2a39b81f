//===- Compile.h - tfaot compile: one float or quantized build --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// tfaot::compile, the whole compilation as one library call (tfaot compile,
// and bench and run, which compile before they run): a float build is the
// driver's one build (compiler/driver/Driver.h); --quantize=int8 is the
// quantizer's (compiler/quantize/Quantize.h), which runs several of the
// driver's builds with its own hooks. It sits above both so that the
// dependencies point one way: the quantizer calls the driver's build, never
// compile(), and the driver knows nothing of the quantizer.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_COMPILE_H
#define TFAOT_COMPILER_COMPILE_H

#include "compiler/driver/Driver.h"

#include "llvm/Support/raw_ostream.h"

namespace tfaot {

/// Runs a compilation. Returns the process exit code (0 or 1); every error
/// has been printed to `errs` in "file: error: ..." form. A requested report
/// goes to `out` after a successful compilation.
int compile(const CompileOptions &options, llvm::raw_ostream &errs,
            llvm::raw_ostream &out = llvm::outs());

} // namespace tfaot

#endif // TFAOT_COMPILER_COMPILE_H
