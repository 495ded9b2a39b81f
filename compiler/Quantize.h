//===- Quantize.h - tfaot compile --quantize=int8 ---------------*- C++ -*-===//
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
#ifndef TFAOT_COMPILER_QUANTIZE_H
#define TFAOT_COMPILER_QUANTIZE_H

#include "compiler/Driver.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfaot {

/// tfaot::compile for options.quantize == "int8".
int compileQuantized(const CompileOptions &options, llvm::raw_ostream &errs,
                     llvm::raw_ostream &out);

/// A NumPy array read from a .npy file as float32 (C order).
struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<float> values;
};

/// Reads a .npy file of float32, float64, uint8, int8 or int32 values
/// (converted to float32). False with `error` set if it cannot.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

} // namespace tfaot

#endif // TFAOT_COMPILER_QUANTIZE_H
