//===- idx.h - Reader for IDX files (uTensor reference data) ----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// uTensor's per-op test graphs ship TensorFlow's own outputs (and inputs) as
// IDX files, the MNIST container format:
//
//   2 zero bytes, a type byte (0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32,
//   0x0D float32, 0x0E float64), a rank byte, `rank` big-endian uint32 dims,
//   then the elements, big-endian, row-major.
//
// The reader widens every element to double: that holds every float32 and
// every int32 exactly, so one container serves both the float comparisons
// (with a tolerance) and the integer ones (exact), whatever integer width the
// generated code uses (e.g. int64 ArgMax results against int32 IDX data).
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_E2E_SUPPORT_IDX_H
#define TFAOT_TEST_E2E_SUPPORT_IDX_H

#include <cstdint>
#include <string>
#include <vector>

namespace tfaot_e2e {

struct IdxArray {
  uint8_t type = 0;             ///< The IDX type byte (0x0D = float32, ...).
  std::vector<int64_t> dims;    ///< Shape; empty for a rank-0 file.
  std::vector<double> values;   ///< Row-major elements, widened to double.

  int64_t num_elements() const { return static_cast<int64_t>(values.size()); }
  bool is_float() const { return type == 0x0D || type == 0x0E; }
  /// The elements narrowed to float (exact for float32 files).
  std::vector<float> AsFloats() const;
};

/// Parses the IDX file at `path` into `out`. On failure returns false and
/// says why in `error` (missing file, bad magic, unknown type, truncated or
/// trailing data).
bool ReadIdx(const std::string &path, IdxArray *out, std::string *error);

/// frozen/utensor/ops/<op_dir>/<file> of the corpus; a file that cannot be
/// read is a (non-fatal) gtest failure and an empty array.
IdxArray LoadUtensorOpIdx(const std::string &op_dir, const std::string &file);

}  // namespace tfaot_e2e

#endif  // TFAOT_TEST_E2E_SUPPORT_IDX_H
