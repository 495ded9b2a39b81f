//===- PrecisionReport.h - Accuracy of --precision=fp16|bf16 ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `tfaot compile --target=cuda --precision=fp16|bf16 --calibration FILE`
// and `tfaot compile --precision=bf16 --calibration FILE` (CPU) say what
// the 16-bit products cost, as --quantize=int8 does for int8:
//  1. the fp32 CPU build runs on the calibration samples (the reference);
//  2. the requested build is compiled and its outputs queued;
//  3. a CPU build runs as it is, on every sample; a CUDA build runs with
//     --gpu_emulate (the GPU's kernels and cuBLAS / cuDNN calls as loops on
//     the CPU, rounding to 16 bits where the GPU code does) on the first
//     samples. Its outputs are compared with the reference: largest and
//     mean |error| per output, and top-1 agreement for classifier-like
//     outputs.
// The one-line summary goes to stderr; --precision_report writes the
// report (JSON for a .json path; - prints it).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_QUANTIZE_PRECISIONREPORT_H
#define TFAOT_COMPILER_QUANTIZE_PRECISIONREPORT_H

#include "compiler/driver/Driver.h"

#include "llvm/Support/raw_ostream.h"

namespace tfaot {

/// Whether tfaot::compile goes through compileWithPrecisionReport: no
/// --quantize, and --calibration with a 16-bit --precision, or
/// --precision_report.
bool wantsPrecisionReport(const CompileOptions &options);

/// The build of `options` with its accuracy report (see above).
int compileWithPrecisionReport(const CompileOptions &options,
                               llvm::raw_ostream &errs,
                               llvm::raw_ostream &out);

} // namespace tfaot

#endif // TFAOT_COMPILER_QUANTIZE_PRECISIONREPORT_H
