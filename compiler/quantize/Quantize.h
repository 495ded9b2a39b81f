//===- Quantize.h - tfaot compile --quantize=int8 ---------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Post-training quantization, end to end:
//  1. the float graph is compiled with the inputs of the contractions to
//     quantize added as results, and run (JitModel) on the calibration
//     samples to measure their ranges;
//  2. the graph is compiled again with those ranges, which
//     tfaot-quantize-int8 turns into int8 convolutions and matmuls;
//  3. the int8 model is run on the same samples and compared with the
//     float results for the report (per-layer scales, output error, top-1
//     agreement, sizes).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_QUANTIZE_QUANTIZE_H
#define TFAOT_COMPILER_QUANTIZE_QUANTIZE_H

#include "compiler/driver/Driver.h"
// --calibration reads .npy files; readNpy and NpyArray are declared there.
#include "compiler/frontend/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfaot {

/// tfaot::compile for options.quantize == "int8".
int compileQuantized(const CompileOptions &options, llvm::raw_ostream &errs,
                     llvm::raw_ostream &out);

} // namespace tfaot

#endif // TFAOT_COMPILER_QUANTIZE_QUANTIZE_H
