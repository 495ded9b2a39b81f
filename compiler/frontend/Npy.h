//===- Npy.h - Read and write NumPy .npy files ------------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The .npy format (version 1.0 to 3.0): the magic "\x93NUMPY", a version,
// a little-endian header length, then a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1, 784), }
// padded with spaces to a multiple of 64 bytes, then the raw elements.
// tfaot reads and writes little-endian, C-order arrays only: that is what
// NumPy writes on every machine tfaot targets, and what the compiled
// buffers hold, so a file's data part is exactly a buffer's bytes.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_COMPILER_FRONTEND_NPY_H
#define TFAOT_COMPILER_FRONTEND_NPY_H

#include "compiler/proto/types.pb.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tfaot {

/// A .npy array as stored: element type, shape and raw little-endian bytes.
struct NpyTensor {
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  std::vector<int64_t> shape;
  std::string data;  ///< Exactly elements * element size bytes.

  int64_t elements() const;
};

/// The NumPy type string of `dtype` ("<f4" for float32); empty when NumPy
/// has no such type (bfloat16, strings).
std::string npyDescr(tensorflow::DataType dtype);

/// Reads a .npy file. False with `error` set (without the file name) if the
/// file is not one, is big-endian or Fortran order, has a type outside
/// float16/32/64, int8/16/32/64, uint8/16/32/64 and bool, or is truncated.
bool readNpy(const std::string &path, NpyTensor &tensor, std::string &error);

/// The contents of a .npy file holding `data` (elements of `dtype` in C
/// order) as an array of `shape`. False with `error` set when NumPy has no
/// type for `dtype`.
bool encodeNpy(tensorflow::DataType dtype, const std::vector<int64_t> &shape,
               llvm::StringRef data, std::string &contents,
               std::string &error);

/// Element `i` of `data` (of type `dtype`) as a double; NaN for types that
/// are not numbers.
double elementAsDouble(tensorflow::DataType dtype, const char *data,
                       int64_t i);

/// A NumPy array read from a .npy file as float32 (C order), for
/// --calibration.
struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<float> values;
};

/// readNpy with every element converted to float32.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

} // namespace tfaot

#endif // TFAOT_COMPILER_FRONTEND_NPY_H
