//===- check.h - Comparing compiled-function results ------------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by every e2e test so that all of them compare the same way and say
// the same useful things on a mismatch (how many elements differ, the first
// few with index, value, expectation and allowed error) instead of dumping
// hundreds of EXPECT lines.
//
//   - Floats are compared with |actual - expected| <= atol + rtol*|expected|;
//     a NaN in the actual values always fails.
//   - Integers are compared exactly, by value, so an int64 result from the
//     generated code can be checked against int32 reference data.
//
// The checks return ::testing::AssertionResult, for use in EXPECT_TRUE /
// ASSERT_TRUE, so the test line shows up in the failure.
//
//===----------------------------------------------------------------------===//
#ifndef TFAOT_TEST_E2E_SUPPORT_CHECK_H
#define TFAOT_TEST_E2E_SUPPORT_CHECK_H

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "tfaot/runtime/compiled_function.h"

#include "idx.h"

namespace tfaot_e2e {

/// Elementwise float comparison of `n` values against `expected`.
::testing::AssertionResult AllClose(const float *actual, size_t n,
                                    const std::vector<double> &expected,
                                    double atol, double rtol);

/// Exact comparison of `n` integers against `expected` (integral values
/// stored as double, as IdxArray does).
::testing::AssertionResult AllEqual(const int64_t *actual, size_t n,
                                    const std::vector<double> &expected);
::testing::AssertionResult AllEqual(const int32_t *actual, size_t n,
                                    const std::vector<double> &expected);

/// Checks result `index` of `fn` against the IDX reference: the element
/// count, the shape (the IDX file's dims must equal the generated static
/// shape), then the values - with AllClose for float results and exactly
/// for integer ones, whatever the integer width on either side.
::testing::AssertionResult ResultMatchesIdx(const tfaot::CompiledFunction &fn,
                                            int index, const IdxArray &expected,
                                            double atol, double rtol);

/// `n` deterministic pseudo-random floats in [0, 1) from `seed`. A fixed
/// splitmix64 generator rather than <random>'s distributions, whose output
/// is implementation-defined and would differ between standard libraries.
std::vector<float> UniformInputs(size_t n, uint64_t seed);

}  // namespace tfaot_e2e

#endif  // TFAOT_TEST_E2E_SUPPORT_CHECK_H
