//===- check.cpp - Comparing compiled-function results --------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "check.h"

#include <cmath>
#include <sstream>

namespace tfaot_e2e {

namespace {

constexpr int kMaxReported = 8;

template <typename Int>
::testing::AssertionResult AllEqualImpl(const Int *actual, size_t n,
                                        const std::vector<double> &expected) {
  if (n != expected.size())
    return ::testing::AssertionFailure()
           << "element count " << n << " != expected " << expected.size();
  std::ostringstream detail;
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<double>(actual[i]) == expected[i])
      continue;
    if (++bad <= kMaxReported)
      detail << "\n  [" << i << "] actual " << static_cast<int64_t>(actual[i])
             << ", expected " << expected[i];
  }
  if (bad == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << n << " elements differ:" << detail.str();
}

}  // namespace

::testing::AssertionResult AllClose(const float *actual, size_t n,
                                    const std::vector<double> &expected,
                                    double atol, double rtol) {
  if (n != expected.size())
    return ::testing::AssertionFailure()
           << "element count " << n << " != expected " << expected.size();
  std::ostringstream detail;
  detail.precision(9);
  size_t bad = 0;
  double worst = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double a = actual[i];
    const double e = expected[i];
    const double err = std::fabs(a - e);
    const double allowed = atol + rtol * std::fabs(e);
    if (!std::isnan(a) && err <= allowed)
      continue;
    if (!(err <= worst))
      worst = err;
    if (++bad <= kMaxReported)
      detail << "\n  [" << i << "] actual " << a << ", expected " << e
             << ", |diff| " << err << " > allowed " << allowed;
  }
  if (bad == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << n << " elements differ (atol " << atol
         << ", rtol " << rtol << ", worst |diff| " << worst
         << "):" << detail.str();
}

::testing::AssertionResult AllEqual(const int64_t *actual, size_t n,
                                    const std::vector<double> &expected) {
  return AllEqualImpl(actual, n, expected);
}

::testing::AssertionResult AllEqual(const int32_t *actual, size_t n,
                                    const std::vector<double> &expected) {
  return AllEqualImpl(actual, n, expected);
}

::testing::AssertionResult ResultMatchesIdx(const tfaot::CompiledFunction &fn,
                                            int index, const IdxArray &expected,
                                            double atol, double rtol) {
  if (index < 0 || index >= fn.num_results())
    return ::testing::AssertionFailure()
           << "no result " << index << " (function has " << fn.num_results()
           << ")";
  const tfaot::BufferInfo &info = fn.result_info(index);
  if (info.num_elements != expected.num_elements())
    return ::testing::AssertionFailure()
           << "result '" << info.name << "' has " << info.num_elements
           << " elements, reference has " << expected.num_elements();
  std::vector<int64_t> shape(info.dims, info.dims + info.rank);
  // IDX has no rank-0 arrays: uTensor stored TF's scalars with shape [1].
  const bool scalarAsVector = shape.empty() && expected.dims == std::vector<int64_t>{1};
  if (shape != expected.dims && !scalarAsVector) {
    std::ostringstream s;
    s << "result '" << info.name << "' shape [";
    for (size_t i = 0; i < shape.size(); ++i)
      s << (i ? "," : "") << shape[i];
    s << "] != reference shape [";
    for (size_t i = 0; i < expected.dims.size(); ++i)
      s << (i ? "," : "") << expected.dims[i];
    s << "]";
    return ::testing::AssertionFailure() << s.str();
  }
  const void *data = fn.result_data(index);
  const size_t n = static_cast<size_t>(info.num_elements);
  ::testing::AssertionResult r = ::testing::AssertionSuccess();
  switch (info.dtype) {
  case tfaot::DType::kFloat32:
    r = AllClose(static_cast<const float *>(data), n, expected.values, atol,
                 rtol);
    break;
  case tfaot::DType::kInt64:
    r = AllEqual(static_cast<const int64_t *>(data), n, expected.values);
    break;
  case tfaot::DType::kInt32:
    r = AllEqual(static_cast<const int32_t *>(data), n, expected.values);
    break;
  default:
    return ::testing::AssertionFailure()
           << "result '" << info.name << "' has dtype "
           << tfaot::DTypeName(info.dtype) << ", which this check does not"
           << " handle";
  }
  if (!r)
    r << "\n  (result '" << info.name << "')";
  return r;
}

std::vector<float> UniformInputs(size_t n, uint64_t seed) {
  std::vector<float> out(n);
  uint64_t state = seed;
  for (size_t i = 0; i < n; ++i) {
    // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    // The top 24 bits give a float in [0, 1) exactly, never 1.0.
    out[i] = static_cast<float>(z >> 40) * (1.0f / 16777216.0f);
  }
  return out;
}

}  // namespace tfaot_e2e
