//===- QuantizeCalibration.cpp - Calibration samples and model runs -------===//
// SPDX-License-Identifier: Apache-2.0
//
// The calibration samples (.npy files, --calibration) and the runs over
// them: the float model with the chosen layers' inputs as extra results,
// for their ranges and histograms (step 1 of compileQuantized), and the
// int8 model, compared with the float results (step 3).
//
//===----------------------------------------------------------------------===//
#include "compiler/quantize/QuantizeInternal.h"

#include "compiler/frontend/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tfaot;

namespace {

/// The .npy files --calibration names: the file, or a directory's *.npy in
/// name order.
bool calibrationFiles(const std::string &path, std::vector<std::string> &files,
                      std::string &error) {
  if (!llvm::sys::fs::is_directory(path)) {
    if (!llvm::sys::fs::exists(path)) {
      error = "--calibration: '" + path + "' does not exist";
      return false;
    }
    files.push_back(path);
    return true;
  }
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".npy"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    error = "--calibration: no .npy files in '" + path + "'";
    return false;
  }
  return true;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  return "[" + llvm::join(llvm::map_range(shape, [](int64_t d) {
                            return std::to_string(d);
                          }),
                          ", ") +
         "]";
}

constexpr size_t kHistogramBins = 4096;

/// Runs `model` on the first `count` samples (all by default);
/// `each(sample index)` reads the results. Stops at the first run that
/// fails, leaving its message in model.runError() for the caller.
template <typename Each>
void runSamples(JitModel &model, const std::vector<std::vector<float>> &samples,
                Each each,
                size_t count = std::numeric_limits<size_t>::max()) {
  for (size_t s = 0; s < std::min(count, samples.size()); ++s) {
    std::memcpy(model.arg(0), samples[s].data(),
                samples[s].size() * sizeof(float));
    if (!model.run())
      return;
    each(s);
  }
}

size_t argmax(const float *values, int64_t n) {
  return std::max_element(values, values + n) - values;
}

} // namespace

namespace tfaot::quantize {

bool loadSamples(const std::string &path, const TensorSignature &feed,
                 std::vector<std::vector<float>> &samples,
                 std::string &error) {
  std::vector<std::string> files;
  if (!calibrationFiles(path, files, error))
    return false;
  uint64_t sampleSize = bufferBytes(feed) / sizeof(float);
  int64_t batch = feed.shape.empty() ? 1 : feed.shape[0];
  for (const std::string &file : files) {
    NpyArray array;
    if (!readNpy(file, array, error)) {
      error = file + ": " + error;
      return false;
    }
    bool sameRest =
        !feed.shape.empty() && array.shape.size() == feed.shape.size() &&
        std::equal(array.shape.begin() + 1, array.shape.end(),
                   feed.shape.begin() + 1) &&
        array.shape[0] % batch == 0 && array.shape[0] > 0;
    if (array.shape != feed.shape && !sameRest) {
      error = file + ": shape " + shapeText(array.shape) +
              " does not fit feed '" + feed.name + "' of shape " +
              shapeText(feed.shape) + " (give that shape, or [n, ...] with n " +
              "a multiple of its first dimension)";
      return false;
    }
    for (uint64_t at = 0; at < array.values.size(); at += sampleSize)
      samples.emplace_back(array.values.begin() + at,
                           array.values.begin() + at + sampleSize);
  }
  return true;
}

std::vector<Observation>
calibrate(JitModel &model, size_t numResults,
          const std::vector<size_t> &observe,
          const std::vector<std::vector<float>> &samples, bool histograms,
          std::vector<std::vector<std::vector<char>>> &floatResults) {
  const FunctionSignature &sig = model.signature();
  std::vector<Observation> observed(sig.results.size());
  auto values = [&](size_t result) {
    const float *data = static_cast<const float *>(model.result(result));
    return llvm::ArrayRef<float>(
        data, bufferBytes(sig.results[result]) / sizeof(float));
  };
  floatResults.assign(samples.size(), {});
  runSamples(model, samples, [&](size_t s) {
    for (size_t r = 0; r < numResults; ++r) {
      const char *bytes = static_cast<const char *>(model.result(r));
      floatResults[s].emplace_back(bytes, bytes + bufferBytes(sig.results[r]));
    }
    for (size_t l : observe)
      for (float v : values(l)) {
        observed[l].min = std::min(observed[l].min, v);
        observed[l].max = std::max(observed[l].max, v);
      }
  });
  if (!histograms)
    return observed;
  // A second pass: histograms over the ranges the first pass found.
  for (size_t l : observe)
    observed[l].histogram.assign(kHistogramBins, 0);
  runSamples(model, samples, [&](size_t) {
    for (size_t l : observe)
      for (float v : values(l))
        observed[l].add(v);
  });
  return observed;
}

std::vector<OutputComparison>
compareOutputs(JitModel &model, const std::vector<std::vector<float>> &samples,
               const std::vector<std::vector<std::vector<char>>> &floatResults,
               size_t count) {
  const FunctionSignature &sig = model.signature();
  std::vector<OutputComparison> outputs(sig.results.size());
  for (size_t r = 0; r < sig.results.size(); ++r)
    outputs[r].name = sig.results[r].name;
  runSamples(model, samples, [&](size_t s) {
    for (size_t r = 0; r < sig.results.size(); ++r) {
      const TensorSignature &result = sig.results[r];
      if (result.dtype != tensorflow::DT_FLOAT)
        continue;
      OutputComparison &out = outputs[r];
      const float *got = static_cast<const float *>(model.result(r));
      const float *want =
          reinterpret_cast<const float *>(floatResults[s][r].data());
      uint64_t n = floatResults[s][r].size() / sizeof(float);
      for (uint64_t i = 0; i < n; ++i) {
        double error = std::fabs(double(got[i]) - want[i]);
        out.maxError = std::max(out.maxError, error);
        out.sumError += error;
        out.maxMagnitude = std::max(out.maxMagnitude, std::fabs(double(want[i])));
      }
      out.count += n;
      int64_t classes = result.shape.empty() ? 0 : result.shape.back();
      if (classes >= 2)
        for (uint64_t row = 0; row + classes <= n; row += classes) {
          ++out.rows;
          out.top1Agree += argmax(got + row, classes) == argmax(want + row, classes);
        }
    }
  }, count);
  return outputs;
}

} // namespace tfaot::quantize
